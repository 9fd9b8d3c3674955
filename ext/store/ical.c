/*
** ical.c -- trigger_ical's reads (ical.h): the active triggers through
** the status index, and the runs finished in a range through the
** finished index (one range per finished status), each narrowed by the
** agents (a JSON array) and the scope.
*/
#include "store/ical.h"

#include "store/columns.h"
#include "store/values.h"

SQLITE_EXTENSION_INIT3

/* A row (alias x) of one of the agents ?1 (NULL: any) and of scope ?2
** (NULL: any). */
#define NARROW(x)                                            \
  " AND (?1 IS NULL OR " x ".agent_id IN (SELECT value FROM" \
  " json_each(?1))) AND (?2 IS NULL OR " x ".scope = ?2)"

static char *sql_text(store_sql which) {
  char *out = NULL;
  if (which == ST_ICAL_TRIGGERS) {
    char *tc = store_trigger_select_list();
    if (!tc) return NULL;
    out = sqlite3_mprintf(
        "SELECT d.id, %s FROM " STORE_TRIGGER_FROM
        " WHERE d.status = 'scheduled'" NARROW("d") " ORDER BY d.trigger_id",
        tc);
    sqlite3_free(tc);
  } else if (which == ST_ICAL_RUNS) {
    /* a run by its own agent_id, its scope by its trigger's */
    out = sqlite3_mprintf(
        "SELECT r.run_id, r.trigger_id, r.status, r.scheduled_for,"
        " r.claimed_at, r.finished_at, r.error, r.result, d.display_name"
        " FROM main.triggers_rundata AS r"
        " INDEXED BY triggers_rundata_finished"
        " LEFT JOIN main.triggers_data AS d ON d.trigger_id = r.trigger_id"
        " AND d.incarnation = r.incarnation"
        " WHERE r.status IN ('success', 'failed', 'skipped', 'expired',"
        " 'cancelled') AND r.finished_at >= ?3 AND r.finished_at < ?4"
        " AND (?1 IS NULL OR r.agent_id IN (SELECT value FROM"
        " json_each(?1))) AND (?2 IS NULL OR d.scope = ?2)"
        " ORDER BY r.finished_at, r.run_id LIMIT ?5");
  }
  return out;
}

static sqlite3_stmt *open_on(store *s, store_sql which,
                             const store_ical_filter *f, store_cursor *c) {
  c->which = which;
  c->st = store_stmt(s, which, sql_text);
  if (!c->st) return NULL;
  if (f->agents) sqlite3_bind_text(c->st, 1, f->agents, -1, SQLITE_STATIC);
  if (f->scope) sqlite3_bind_text(c->st, 2, f->scope, -1, SQLITE_STATIC);
  return c->st;
}

int store_ical_triggers(store *s, const store_ical_filter *f, store_cursor *c) {
  return open_on(s, ST_ICAL_TRIGGERS, f, c) ? SQLITE_OK : store_err(s);
}

int store_ical_trigger_next(store_cursor *c, trg_row *r) {
  int rc = sqlite3_step(c->st);
  if (rc != SQLITE_ROW) return rc;
  rc = store_row_read(c->st, 0, r);
  return rc == SQLITE_OK ? SQLITE_ROW : rc;
}

int store_ical_runs(store *s, const store_ical_filter *f, i64 from, i64 to,
                    int limit, store_cursor *c) {
  sqlite3_stmt *st = open_on(s, ST_ICAL_RUNS, f, c);
  if (!st) return store_err(s);
  sqlite3_bind_int64(st, 3, from);
  sqlite3_bind_int64(st, 4, to);
  return sqlite3_bind_int(st, 5, limit);
}

int store_ical_run_next(store_cursor *c, store_ical_run *r) {
  sqlite3_stmt *st = c->st;
  int rc = sqlite3_step(st), oom = 0;
  if (rc != SQLITE_ROW) return rc;
  r->run_id = store_column_text(st, 0, &oom);
  r->trigger_id = store_column_text(st, 1, &oom);
  r->status = store_column_text(st, 2, &oom);
  r->scheduled_for = sqlite3_column_int64(st, 3);
  r->has_claimed = sqlite3_column_type(st, 4) != SQLITE_NULL;
  r->claimed_at = sqlite3_column_int64(st, 4);
  r->finished_at = sqlite3_column_int64(st, 5);
  r->error = store_column_text(st, 6, &oom);
  r->result = store_column_text(st, 7, &oom);
  r->display_name = store_column_text(st, 8, &oom);
  return oom ? SQLITE_NOMEM : SQLITE_ROW;
}
