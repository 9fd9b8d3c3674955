/*
** health.c -- trigger_health()'s counts (health.h): each a count (or a
** min) over an index, so a health check costs the same however many
** triggers and runs there are; the create action's from the event log's
** partial indexes (created, rejected). Narrowed to agents and a scope,
** the same counts filter the rows of those index ranges.
*/
#include "store/health.h"

#include <string.h>

SQLITE_EXTENSION_INIT3

/* Each count walks at most CAP_ROWS entries of an index (health.h):
** "SELECT count(*) FROM (... LIMIT " CAP_ROWS ")". */
#define STR_(x) #x
#define STR(x) STR_(x)
#define CAP_ROWS "(" STR(STORE_HEALTH_CAP) " + 1)"
#define CAPPED(rows) "SELECT count(*) FROM (" rows " LIMIT " CAP_ROWS ")"

/*
** The active triggers that are stalled at ?1: held back by a run whose
** lease has passed (skip records their occurrences skipped, queue holds
** them: until a tick reclaims the run, which no host may be doing), or
** due and held (queue's fire_at NULL, or a running count under skip or
** queue) with no live run behind the hold (an inconsistent state, e.g. a
** run row removed from the shadow table: the next tick pauses it). The
** first part looks at the first CAP_ROWS expired leases (the lease index,
** oldest first), the second at the first CAP_ROWS triggers due by ?1
** (the due index in the tick's order; a hold is always due), each with
** one probe per row: a bounded read however many are due or expired.
*/
#define EXPIRED_HOLDS                                                \
  "SELECT id FROM (SELECT d.id FROM (SELECT trigger_id, incarnation" \
  " FROM main.triggers_rundata INDEXED BY triggers_rundata_lease"    \
  " WHERE status = 'running' AND lease_until <= ?1"                  \
  " ORDER BY lease_until LIMIT " CAP_ROWS ") AS r"                   \
  " JOIN main.triggers_data AS d ON d.trigger_id = r.trigger_id"     \
  " AND d.incarnation = r.incarnation"                               \
  " WHERE d.status = 'scheduled' AND d.overlap_policy IN ('skip', 'queue'))"
#define DEAD_HOLDS                                                        \
  "SELECT id FROM (SELECT s.id FROM (SELECT id, fire_at, running"         \
  " FROM main.triggers_state INDEXED BY triggers_state_due"               \
  " WHERE next_due_at <= ?1 ORDER BY next_due_at, trigger_id"             \
  " LIMIT " CAP_ROWS ") AS s JOIN main.triggers_data AS d ON d.id = s.id" \
  " WHERE (s.fire_at IS NULL OR s.running > 0) AND (s.fire_at IS NULL"    \
  " OR d.overlap_policy IN ('skip', 'queue')) AND d.status = 'scheduled'" \
  " AND NOT EXISTS (SELECT 1"                                             \
  " FROM main.triggers_rundata AS r WHERE r.trigger_id = d.trigger_id"    \
  " AND r.incarnation = d.incarnation AND r.status = 'running'"           \
  " AND r.lease_until > ?1))"
#define STALLED_IDS EXPIRED_HOLDS " UNION " DEAD_HOLDS

/* The ids of the triggers due and claimable at ?1 (the first CAP_ROWS in
** the due index's order: the rows passed over are those held or within
** their jitter, work in flight), or stalled: a union of bounded parts. */
#define OVERDUE_IDS                                                     \
  "SELECT id FROM (SELECT id FROM main.triggers_state"                  \
  " INDEXED BY triggers_state_due WHERE next_due_at <= ?1"              \
  " AND fire_at <= ?1 ORDER BY next_due_at, trigger_id LIMIT " CAP_ROWS \
  ") UNION " STALLED_IDS

/* Narrowed (ST_HEALTH_N_*): a row of a table with agent_id and scope
** (alias x) of one of the agents ?2 (NULL: any) and of scope ?3 (NULL:
** any); a run by its own agent_id and its trigger's scope; a set of
** trigger ids (the subquery o) by their triggers_data row d. */
#define NARROW(x)                                            \
  " AND (?2 IS NULL OR " x ".agent_id IN (SELECT value FROM" \
  " json_each(?2))) AND (?3 IS NULL OR " x ".scope = ?3)"
#define NARROW_RUN                                             \
  " AND (?2 IS NULL OR r.agent_id IN (SELECT value FROM"       \
  " json_each(?2))) AND (?3 IS NULL OR EXISTS (SELECT 1 FROM"  \
  " main.triggers_data AS d WHERE d.trigger_id = r.trigger_id" \
  " AND d.scope = ?3))"
#define NARROW_IDS(ids)                                              \
  CAPPED("SELECT 1 FROM (" ids ") AS o JOIN main.triggers_data AS d" \
         " ON d.id = o.id WHERE 1" NARROW("d"))

static char *sql_text(store_sql which) {
  int narrowed = which >= ST_HEALTH_N_ACTIVE;
  if (narrowed) which -= ST_HEALTH_N_ACTIVE - ST_HEALTH_ACTIVE;
  const char *sql = NULL, *narrow = ""; /* sql: a format of one %s */
  switch (which) {
    case ST_HEALTH_ACTIVE:
      sql = CAPPED("SELECT 1 FROM main.triggers_data AS d"
                   " WHERE d.status = 'scheduled' AND ?1 = ?1%s");
      narrow = NARROW("d");
      break;
    case ST_HEALTH_PAUSED:
      sql = CAPPED("SELECT 1 FROM main.triggers_data AS d"
                   " WHERE d.status = 'paused' AND ?1 = ?1%s");
      narrow = NARROW("d");
      break;
    case ST_HEALTH_OVERDUE: /* due and claimable, or stalled */
      sql = narrowed ? "%s" : CAPPED(OVERDUE_IDS) "%s";
      narrow = NARROW_IDS(OVERDUE_IDS);
      break;
    case ST_HEALTH_RUNNING:
      sql = CAPPED("SELECT 1 FROM main.triggers_rundata AS r"
                   " WHERE r.status = 'running' AND ?1 = ?1%s");
      narrow = NARROW_RUN;
      break;
    case ST_HEALTH_EXPIRED_LEASES:
      sql = CAPPED("SELECT 1 FROM main.triggers_rundata AS r"
                   " WHERE r.status = 'running' AND r.lease_until <= ?1%s");
      narrow = NARROW_RUN;
      break;
    case ST_HEALTH_FAILURES:
      sql = CAPPED("SELECT 1 FROM main.triggers_rundata AS r"
                   " WHERE r.status = 'failed' AND r.finished_at > ?1%s");
      narrow = NARROW_RUN;
      break;
    case ST_HEALTH_NEXT_DUE:
      sql = narrowed ? "SELECT min(s.next_due_at) FROM main.triggers_state AS s"
                       " JOIN main.triggers_data AS d ON d.id = s.id"
                       " WHERE s.next_due_at IS NOT NULL AND ?1 = ?1%s"
                     : "SELECT min(next_due_at) FROM main.triggers_state"
                       " WHERE next_due_at IS NOT NULL AND ?1 = ?1%s";
      narrow = NARROW("d");
      break;
    case ST_HEALTH_STALLED:
      sql = narrowed ? "%s" : CAPPED(STALLED_IDS) "%s";
      narrow = NARROW_IDS(STALLED_IDS);
      break;
    case ST_HEALTH_CREATIONS: /* the partial index of created events */
      sql = CAPPED("SELECT 1 FROM main.triggers_events AS e"
                   " WHERE e.kind = 'created' AND e.at > ?1%s");
      narrow = NARROW("e");
      break;
    case ST_HEALTH_CREATE_ERROR: /* the partial index of rejected events */
      sql = "SELECT e.code, CASE WHEN json_valid(e.detail) THEN"
            " json_extract(e.detail, '$.reason') END, e.at"
            " FROM main.triggers_events AS e"
            " WHERE e.kind = 'rejected' AND e.at <= ?1%s"
            " ORDER BY e.at DESC, e.id DESC LIMIT 1";
      narrow = NARROW("e");
      break;
    default: return NULL;
  }
  return sqlite3_mprintf(sql, narrowed ? narrow : "");
}

/* Statement which (narrowed by f when given), bound: ?1 at, ?2 agents,
** ?3 scope (the ones it has). */
static sqlite3_stmt *bound(store *s, store_sql which, i64 at,
                           const store_health_filter *f) {
  if (f) which += ST_HEALTH_N_ACTIVE - ST_HEALTH_ACTIVE;
  sqlite3_stmt *st = store_stmt(s, which, sql_text);
  if (!st) return NULL;
  sqlite3_bind_int64(st, 1, at);
  if (f && f->agents) sqlite3_bind_text(st, 2, f->agents, -1, SQLITE_STATIC);
  if (f && f->scope) sqlite3_bind_text(st, 3, f->scope, -1, SQLITE_STATIC);
  return st;
}

/* The one value of statement which; *isnull when NULL. */
static int one_value(store *s, store_sql which, i64 at,
                     const store_health_filter *f, i64 *v, int *isnull) {
  sqlite3_stmt *st = bound(s, which, at, f);
  if (!st) return store_err(s);
  int rc = sqlite3_step(st);
  *isnull = 1;
  *v = 0;
  if (rc == SQLITE_ROW) {
    *isnull = sqlite3_column_type(st, 0) == SQLITE_NULL;
    *v = sqlite3_column_int64(st, 0);
  }
  sqlite3_reset(st);
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : store_err(s);
}

/* The latest rejected create at or before now, into h (none: code NULL). */
static int create_error(store *s, i64 now, const store_health_filter *f,
                        store_health *h) {
  sqlite3_stmt *st = bound(s, ST_HEALTH_CREATE_ERROR, now, f);
  if (!st) return store_err(s);
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    const char *code = (const char *)sqlite3_column_text(st, 0);
    const char *why = (const char *)sqlite3_column_text(st, 1);
    h->error_code = sqlite3_mprintf("%s", code ? code : "");
    h->error_reason = sqlite3_mprintf("%s", why ? why : "");
    h->error_at = sqlite3_column_int64(st, 2);
    rc = h->error_code && h->error_reason ? SQLITE_DONE : SQLITE_NOMEM;
  }
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc == SQLITE_NOMEM ? rc : store_err(s);
}

int store_health_counts(store *s, i64 now, i64 window,
                        const store_health_filter *f, store_health *h) {
  const struct {
    store_sql which;
    i64 at;
    i64 *out;
  } fields[] = {
      {ST_HEALTH_ACTIVE, now, &h->active},
      {ST_HEALTH_PAUSED, now, &h->paused},
      {ST_HEALTH_OVERDUE, now, &h->overdue},
      {ST_HEALTH_RUNNING, now, &h->running},
      {ST_HEALTH_EXPIRED_LEASES, now, &h->expired_leases},
      {ST_HEALTH_FAILURES, now - 86400000, &h->failures_24h},
      {ST_HEALTH_NEXT_DUE, now, &h->next_due_at},
      {ST_HEALTH_STALLED, now, &h->stalled},
      {ST_HEALTH_CREATIONS, now - window, &h->recent_creations},
  };
  memset(h, 0, sizeof *h);
  int rc = SQLITE_OK;
  for (size_t i = 0; i < sizeof fields / sizeof fields[0] && rc == SQLITE_OK;
       i++) {
    int isnull = 1;
    rc = one_value(s, fields[i].which, fields[i].at, f, fields[i].out, &isnull);
    if (fields[i].which == ST_HEALTH_NEXT_DUE) h->has_next_due = !isnull;
  }
  if (rc == SQLITE_OK) rc = create_error(s, now, f, h);
  return rc;
}

void store_health_free(store_health *h) {
  sqlite3_free(h->error_code);
  sqlite3_free(h->error_reason);
  h->error_code = h->error_reason = NULL;
}
