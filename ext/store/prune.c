/*
** prune.c -- trigger_prune()'s delete (prune.h), through the (status,
** finished_at) index, in bounded batches so that a batch is a bounded
** write transaction.
*/
#include "store/prune.h"

SQLITE_EXTENSION_INIT3

/* The finished runs trigger_prune deletes: finished before ?1, no retry
** pending, at most ?2 (-1: all). */
#define PRUNE_ROWS                                                  \
  "SELECT id FROM main.triggers_rundata WHERE finished_at < ?1 AND" \
  " status IN ('success', 'failed', 'skipped', 'expired') AND"      \
  " retry_at IS NULL LIMIT ?2"

static char *sql_text(store_sql which) {
  switch (which) {
    case ST_PRUNE_ANY: return sqlite3_mprintf("%s", PRUNE_ROWS);
    case ST_PRUNE_DELETE:
      return sqlite3_mprintf(
          "DELETE FROM main.triggers_rundata WHERE id IN (" PRUNE_ROWS ")");
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

int store_prune_runs(store *s, i64 before, i64 limit, i64 *deleted) {
  *deleted = 0;
  int rc = step_once(s, ST_PRUNE_ANY, before, 1);
  if (rc == SQLITE_DONE) return SQLITE_OK;
  if (rc == SQLITE_ROW) rc = step_once(s, ST_PRUNE_DELETE, before, limit);
  if (rc != SQLITE_DONE) return rc;
  *deleted = sqlite3_changes64(s->db);
  return SQLITE_OK;
}
