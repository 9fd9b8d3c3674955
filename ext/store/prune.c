/*
** prune.c -- trigger_prune()'s deletes (prune.h): finished runs through
** the (status, finished_at) index, events through their time index, in
** bounded batches so that a batch is a bounded write transaction.
*/
#include "store/prune.h"

SQLITE_EXTENSION_INIT3

/* The finished runs trigger_prune deletes: finished before ?1, no retry
** pending, at most ?2 (-1: all). */
#define PRUNE_ROWS                                                  \
  "SELECT id FROM main.triggers_rundata WHERE finished_at < ?1 AND" \
  " status IN ('success', 'failed', 'skipped', 'expired') AND"      \
  " retry_at IS NULL LIMIT ?2"

/* The events older than ?1, oldest first, at most ?2, through the time
** index. */
#define PRUNE_EVENTS \
  "SELECT id FROM main.triggers_events WHERE at < ?1 ORDER BY at LIMIT ?2"

static char *sql_text(store_sql which) {
  switch (which) {
    case ST_PRUNE_ANY: return sqlite3_mprintf("%s", PRUNE_ROWS);
    case ST_PRUNE_DELETE:
      return sqlite3_mprintf(
          "DELETE FROM main.triggers_rundata WHERE id IN (" PRUNE_ROWS ")");
    case ST_PRUNE_EVENTS_ANY: return sqlite3_mprintf("%s", PRUNE_EVENTS);
    case ST_PRUNE_EVENTS_DELETE:
      return sqlite3_mprintf(
          "DELETE FROM main.triggers_events WHERE id IN (" PRUNE_EVENTS ")");
    default: return NULL;
  }
}

/* Step statement which (?1 before, ?2 limit) once: its first step's code. */
static int step_once(store *s, store_sql which, i64 before, i64 limit) {
  sqlite3_stmt *st = store_stmt(s, which, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_int64(st, 1, before);
  sqlite3_bind_int64(st, 2, limit);
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc;
}

/* Probe with `any`, and only when it finds a row, delete with `del`. */
static int prune(store *s, store_sql any, store_sql del, i64 before, i64 limit,
                 i64 *deleted) {
  *deleted = 0;
  int rc = step_once(s, any, before, 1);
  if (rc == SQLITE_DONE) return SQLITE_OK;
  if (rc == SQLITE_ROW) rc = step_once(s, del, before, limit);
  if (rc != SQLITE_DONE) return rc;
  *deleted = sqlite3_changes64(s->db);
  return SQLITE_OK;
}

int store_prune_runs(store *s, i64 before, i64 limit, i64 *deleted) {
  return prune(s, ST_PRUNE_ANY, ST_PRUNE_DELETE, before, limit, deleted);
}

int store_prune_events(store *s, i64 before, i64 limit, i64 *deleted) {
  return prune(s, ST_PRUNE_EVENTS_ANY, ST_PRUNE_EVENTS_DELETE, before, limit,
               deleted);
}
