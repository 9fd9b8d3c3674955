/*
** agent.c -- the reads about one agent (agent.h): the summary's latest
** failure and successes (triggers_rundata_outcome, newest first, with a
** LIMIT), its pending triggers (triggers_state_agent; agent '' through
** triggers_state_due), the hints' probes (a create awaiting confirmation
** read from the event log), the create quotas (per agent
** and scope, and per user: active triggers from the rows, creations from
** the event log), and whether a trigger_id it asks for is held.
*/
#include "store/agent.h"

#include "store/values.h"

#include "text/coverage.h"

SQLITE_EXTENSION_INIT3

/* A run's trigger is the one of its id and incarnation
** (docs/tables.md#the-trigger_runs-table). */
#define RUN_TRIGGER                                                   \
  " FROM main.triggers_rundata AS r"                                  \
  " LEFT JOIN main.triggers_data AS d ON d.trigger_id = r.trigger_id" \
  " AND d.incarnation = r.incarnation"

static char *sql_text(store_sql which) {
  const char *sql = NULL;
  switch (which) {
    case ST_AGENT_FAILURE:
      sql = "SELECT r.trigger_id, r.finished_at, r.error, r.retry_at,"
            " d.trigger_id, d.display_name, d.instructions, d.status,"
            " s.next_due_at, s.fail_streak" RUN_TRIGGER
            " LEFT JOIN main.triggers_state AS s ON s.id = d.id"
            " WHERE r.agent_id = ?1 AND r.status = 'failed'"
            " AND r.finished_at <= ?2"
            " ORDER BY r.finished_at DESC, r.id DESC LIMIT 1";
      break;
    case ST_AGENT_SUCCESSES:
      sql = "SELECT r.trigger_id, r.finished_at, r.result, NULL,"
            " d.trigger_id, d.display_name, d.instructions" RUN_TRIGGER
            " WHERE r.agent_id = ?1 AND r.status = 'success'"
            " AND r.finished_at <= ?2"
            " ORDER BY r.finished_at DESC, r.id DESC LIMIT ?3";
      break;
    case ST_AGENT_PENDING:
      /* agent '' is not in triggers_state_agent (schema.c): the due index */
      sql =
          "SELECT s.trigger_id, d.display_name, d.instructions, s.next_due_at"
          " FROM main.triggers_state AS s INDEXED BY triggers_state_agent"
          " CROSS JOIN main.triggers_data AS d ON d.id = s.id"
          " WHERE s.agent_id = ?1 AND s.agent_id <> ''"
          " AND d.status = 'scheduled' AND s.next_due_at IS NOT NULL"
          " UNION ALL"
          " SELECT s.trigger_id, d.display_name, d.instructions, s.next_due_at"
          " FROM main.triggers_state AS s INDEXED BY triggers_state_due"
          " CROSS JOIN main.triggers_data AS d ON d.id = s.id"
          " WHERE ?1 = '' AND s.agent_id = '' AND d.status = 'scheduled'"
          " AND s.next_due_at IS NOT NULL"
          " ORDER BY 4, 1 LIMIT ?2";
      break;
    case ST_AGENT_HINTS:
      /* each a probe of a partial or status index: work in proportion to
      ** running runs, pending retries, paused triggers -- never to all
      ** runs */
      sql = "SELECT EXISTS(SELECT 1 FROM main.triggers_rundata"
            " INDEXED BY triggers_rundata_lease WHERE status = 'running'"
            " AND lease_until >= -9223372036854775808 AND agent_id = ?1"
            " LIMIT 1),"
            " EXISTS(SELECT 1 FROM main.triggers_rundata"
            " INDEXED BY triggers_rundata_retry"
            " WHERE retry_at >= -9223372036854775808 AND status = 'deferred'"
            " AND agent_id = ?1 LIMIT 1),"
            " EXISTS(SELECT 1 FROM main.triggers_data"
            " INDEXED BY triggers_data_status"
            " WHERE status = 'paused' AND agent_id = ?1 LIMIT 1)";
      break;
    case ST_AGENT_AWAITING:
      /* a create refused CONFIRMATION_REQUIRED in [since, now] (the
      ** rejected events' partial index) that no later create of the
      ** agent with its dedupe key (created, or found a duplicate: the
      ** create action's events keep detail.dedupe_key) answered; the
      ** later events are a rowid range */
      sql = "SELECT EXISTS(SELECT 1 FROM main.triggers_events AS r"
            " INDEXED BY triggers_events_rejected"
            " WHERE r.kind = 'rejected' AND r.at >= ?2 AND r.at <= ?3"
            " AND r.agent_id = ?1 AND r.code = 'CONFIRMATION_REQUIRED'"
            " AND NOT EXISTS(SELECT 1 FROM main.triggers_events AS c"
            " WHERE c.id > r.id AND c.at <= ?3"
            " AND c.kind IN ('created', 'duplicate')"
            " AND c.agent_id = r.agent_id AND json_valid(c.detail)"
            " AND json_valid(r.detail)"
            " AND json_extract(c.detail, '$.dedupe_key')"
            " = json_extract(r.detail, '$.dedupe_key') LIMIT 1) LIMIT 1)";
      break;
    case ST_AGENT_ACTIVE:
      sql = "SELECT count(*) FROM main.triggers_data"
            " INDEXED BY triggers_data_created"
            " WHERE agent_id = ?1 AND scope = ?2"
            " AND status IN ('scheduled', 'paused')";
      break;
    case ST_AGENT_CREATED:
      /* creations are counted in the event log, so that deleting a
      ** trigger does not give its creation back: the window's created
      ** events (a partial index on at) */
      sql = "SELECT count(*) FROM main.triggers_events"
            " INDEXED BY triggers_events_created"
            " WHERE kind = 'created' AND at > ?3"
            " AND agent_id = ?1 AND scope = ?2";
      break;
    case ST_AGENT_USER:
      /* the user is metadata.user_id (the create action writes it): the
      ** agent's triggers are read, in every scope; its creations are the
      ** created events whose detail names the user (the create action's) */
      sql = "SELECT (SELECT count(*) FROM main.triggers_data"
            " INDEXED BY triggers_data_created"
            " WHERE agent_id = ?1 AND status IN ('scheduled', 'paused')"
            " AND CASE WHEN json_valid(metadata)"
            " THEN json_extract(metadata, '$.user_id') END = ?2),"
            " (SELECT count(*) FROM main.triggers_events"
            " INDEXED BY triggers_events_created"
            " WHERE kind = 'created' AND at > ?3 AND agent_id = ?1"
            " AND CASE WHEN json_valid(detail)"
            " THEN json_extract(detail, '$.user_id') END = ?2)";
      break;
    case ST_AGENT_ID_HELD:
      /* a live trigger of any agent; or runs of the id that are another
      ** agent's (a deleted trigger's history): both probes of an index
      ** on trigger_id */
      sql = "SELECT EXISTS(SELECT 1 FROM main.triggers_data"
            " WHERE trigger_id = ?1)"
            " OR EXISTS(SELECT 1 FROM main.triggers_rundata"
            " WHERE trigger_id = ?1 AND agent_id <> ?2)";
      break;
    default: break;
  }
  return sql ? sqlite3_mprintf("%s", sql) : NULL;
}

/* Open cursor c on statement which with ?1 agent; NULL when it fails. */
static sqlite3_stmt *open_on(store *s, store_sql which, const char *agent,
                             store_cursor *c) {
  c->which = which;
  c->st = store_stmt(s, which, sql_text);
  if (c->st) sqlite3_bind_text(c->st, 1, agent, -1, SQLITE_STATIC);
  return c->st;
}

int store_agent_failure(store *s, const char *agent, i64 now, store_cursor *c) {
  sqlite3_stmt *st = open_on(s, ST_AGENT_FAILURE, agent, c);
  if (!st) return store_err(s);
  return sqlite3_bind_int64(st, 2, now);
}

int store_agent_successes(store *s, const char *agent, i64 now, int limit,
                          store_cursor *c) {
  sqlite3_stmt *st = open_on(s, ST_AGENT_SUCCESSES, agent, c);
  if (!st) return store_err(s);
  sqlite3_bind_int64(st, 2, now);
  return sqlite3_bind_int(st, 3, limit);
}

int store_agent_run_next(store_cursor *c, store_agent_run *r) {
  sqlite3_stmt *st = c->st;
  int rc = sqlite3_step(st), oom = 0;
  if (rc != SQLITE_ROW) return rc;
  int failed = c->which == ST_AGENT_FAILURE;
  r->trigger_id = store_column_text(st, 0, &oom);
  r->finished_at = sqlite3_column_int64(st, 1);
  r->detail = store_column_text(st, 2, &oom);
  r->has_retry = sqlite3_column_type(st, 3) != SQLITE_NULL;
  r->retry_at = sqlite3_column_int64(st, 3);
  r->has_trigger = sqlite3_column_type(st, 4) != SQLITE_NULL;
  r->display_name = store_column_text(st, 5, &oom);
  r->instructions = store_column_text(st, 6, &oom);
  r->status = failed ? store_column_text(st, 7, &oom) : NULL;
  r->has_next = failed && sqlite3_column_type(st, 8) != SQLITE_NULL;
  r->next_due_at = failed ? sqlite3_column_int64(st, 8) : 0;
  r->fail_streak = failed ? sqlite3_column_int64(st, 9) : 0;
  return oom ? SQLITE_NOMEM : SQLITE_ROW;
}

int store_agent_pending_open(store *s, const char *agent, int limit,
                             store_cursor *c) {
  sqlite3_stmt *st = open_on(s, ST_AGENT_PENDING, agent, c);
  if (!st) return store_err(s);
  return sqlite3_bind_int(st, 2, limit);
}

int store_agent_pending_next(store_cursor *c, store_agent_pending *p) {
  sqlite3_stmt *st = c->st;
  int rc = sqlite3_step(st), oom = 0;
  if (rc != SQLITE_ROW) return rc;
  p->trigger_id = store_column_text(st, 0, &oom);
  p->display_name = store_column_text(st, 1, &oom);
  p->instructions = store_column_text(st, 2, &oom);
  p->next_due_at = sqlite3_column_int64(st, 3);
  return oom ? SQLITE_NOMEM : SQLITE_ROW;
}

int store_agent_hints(store *s, const char *agent, int *running, int *deferred,
                      int *paused) {
  store_cursor c;
  sqlite3_stmt *st = open_on(s, ST_AGENT_HINTS, agent, &c);
  if (!st) return store_err(s);
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    *running = sqlite3_column_int(st, 0);
    *deferred = sqlite3_column_int(st, 1);
    *paused = sqlite3_column_int(st, 2);
    rc = SQLITE_OK;
  } else if (NEVER(rc == SQLITE_DONE)) { /* three EXISTS: always a row */
    rc = SQLITE_ERROR;
  }
  store_cursor_close(&c);
  return rc;
}

int store_agent_awaiting(store *s, const char *agent, i64 since, i64 now,
                         int *awaiting) {
  store_cursor c;
  sqlite3_stmt *st = open_on(s, ST_AGENT_AWAITING, agent, &c);
  if (!st) return store_err(s);
  sqlite3_bind_int64(st, 2, since);
  sqlite3_bind_int64(st, 3, now);
  int rc = sqlite3_step(st);
  *awaiting = rc == SQLITE_ROW && sqlite3_column_int(st, 0);
  store_cursor_close(&c);
  return rc == SQLITE_ROW ? SQLITE_OK : store_err(s);
}

/* The count of statement which (?1 agent, ?2 scope, ?3 since). */
static int count_of(store *s, store_sql which, const char *agent,
                    const char *scope, i64 since, i64 *n) {
  store_cursor c;
  sqlite3_stmt *st = open_on(s, which, agent, &c);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 2, scope, -1, SQLITE_STATIC);
  if (which == ST_AGENT_CREATED) sqlite3_bind_int64(st, 3, since);
  int rc = sqlite3_step(st);
  *n = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
  store_cursor_close(&c);
  return rc == SQLITE_ROW ? SQLITE_OK : store_err(s);
}

int store_agent_user_quota(store *s, const char *agent, const char *user,
                           i64 since, i64 *active, i64 *created) {
  store_cursor c;
  sqlite3_stmt *st = open_on(s, ST_AGENT_USER, agent, &c);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 2, user, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 3, since);
  int rc = sqlite3_step(st);
  *active = rc == SQLITE_ROW ? sqlite3_column_int64(st, 0) : 0;
  *created = rc == SQLITE_ROW ? sqlite3_column_int64(st, 1) : 0;
  store_cursor_close(&c);
  return rc == SQLITE_ROW ? SQLITE_OK : store_err(s);
}

int store_agent_id_held(store *s, const char *trigger_id, const char *agent,
                        int *held) {
  store_cursor c;
  sqlite3_stmt *st = open_on(s, ST_AGENT_ID_HELD, trigger_id, &c);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 2, agent, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  *held = rc == SQLITE_ROW && sqlite3_column_int(st, 0);
  store_cursor_close(&c);
  return rc == SQLITE_ROW ? SQLITE_OK : store_err(s);
}

int store_agent_quota(store *s, const char *agent, const char *scope, i64 since,
                      i64 *active, i64 *created) {
  int rc = count_of(s, ST_AGENT_ACTIVE, agent, scope, 0, active);
  if (rc == SQLITE_OK)
    rc = count_of(s, ST_AGENT_CREATED, agent, scope, since, created);
  return rc;
}
