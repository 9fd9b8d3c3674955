/*
** health.c -- trigger_health()'s counts (health.h): each a count (or a
** min) over an index, so a health check costs the same however many
** triggers and runs there are.
*/
#include "store/health.h"

SQLITE_EXTENSION_INIT3

/*
** The active triggers that are stalled at ?1: held back by a run whose
** lease has passed (skip records their occurrences skipped, queue holds
** them: until a tick reclaims the run, which no host may be doing), or
** held by queue (fire_at NULL) with no live run behind the hold (an
** inconsistent state, e.g. a run row removed from the shadow table). The
** first part walks the lease index over the expired leases, the second
** the due index over the triggers due by ?1 (a hold is always due), each
** with one probe per row: never a scan over all triggers.
*/
#define STALLED_IDS                                                       \
  "SELECT d.id FROM main.triggers_rundata AS r"                           \
  " INDEXED BY triggers_rundata_lease"                                    \
  " JOIN main.triggers_data AS d ON d.trigger_id = r.trigger_id"          \
  " AND d.incarnation = r.incarnation"                                    \
  " WHERE r.status = 'running' AND r.lease_until <= ?1"                   \
  " AND d.status = 'scheduled' AND d.overlap_policy IN ('skip', 'queue')" \
  " UNION SELECT s.id FROM main.triggers_state AS s"                      \
  " INDEXED BY triggers_state_due"                                        \
  " JOIN main.triggers_data AS d ON d.id = s.id"                          \
  " WHERE s.next_due_at <= ?1 AND s.fire_at IS NULL"                      \
  " AND d.status = 'scheduled' AND NOT EXISTS (SELECT 1"                  \
  " FROM main.triggers_rundata AS r WHERE r.trigger_id = d.trigger_id"    \
  " AND r.incarnation = d.incarnation AND r.status = 'running'"           \
  " AND r.lease_until > ?1)"

static char *sql_text(store_sql which) {
  const char *sql = NULL;
  switch (which) {
    case ST_HEALTH_ACTIVE:
      sql = "SELECT count(*) FROM main.triggers_data"
            " WHERE status = 'scheduled' AND ?1 = ?1";
      break;
    case ST_HEALTH_PAUSED:
      sql = "SELECT count(*) FROM main.triggers_data"
            " WHERE status = 'paused' AND ?1 = ?1";
      break;
    case ST_HEALTH_OVERDUE: /* due and claimable, or stalled */
      sql = "SELECT count(*) FROM (SELECT id FROM main.triggers_state"
            " WHERE next_due_at <= ?1 AND fire_at <= ?1 UNION " STALLED_IDS ")";
      break;
    case ST_HEALTH_RUNNING:
      sql = "SELECT count(*) FROM main.triggers_rundata"
            " WHERE status = 'running' AND ?1 = ?1";
      break;
    case ST_HEALTH_EXPIRED_LEASES:
      sql = "SELECT count(*) FROM main.triggers_rundata"
            " WHERE status = 'running' AND lease_until <= ?1";
      break;
    case ST_HEALTH_FAILURES:
      sql = "SELECT count(*) FROM main.triggers_rundata"
            " WHERE status = 'failed' AND finished_at > ?1";
      break;
    case ST_HEALTH_NEXT_DUE:
      sql = "SELECT min(next_due_at) FROM main.triggers_state"
            " WHERE next_due_at IS NOT NULL AND ?1 = ?1";
      break;
    case ST_HEALTH_STALLED:
      sql = "SELECT count(*) FROM (" STALLED_IDS ")";
      break;
    default: break;
  }
  return sql ? sqlite3_mprintf("%s", sql) : NULL;
}

/* The one value of statement which bound to ?1 = at; *isnull when NULL. */
static int one_value(store *s, store_sql which, i64 at, i64 *v, int *isnull) {
  sqlite3_stmt *st = store_stmt(s, which, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_int64(st, 1, at);
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

int store_health_counts(store *s, i64 now, store_health *h) {
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
  };
  int rc = SQLITE_OK;
  for (size_t i = 0; i < sizeof fields / sizeof fields[0] && rc == SQLITE_OK;
       i++) {
    int isnull = 1;
    rc = one_value(s, fields[i].which, fields[i].at, fields[i].out, &isnull);
    if (fields[i].which == ST_HEALTH_NEXT_DUE) h->has_next_due = !isnull;
  }
  return rc;
}
