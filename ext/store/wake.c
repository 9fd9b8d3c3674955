/*
** wake.c -- what trigger_next_wakeup reads (wake.h): the triggers in
** next_due_at order (one index walk, all or per agent) and the first
** retry and lease end among the runs a tick would take.
*/
#include "store/wake.h"

#include "store/columns.h"

SQLITE_EXTENSION_INIT3

/* The wakeup's run probes (ST_WAKE_RETRY, ST_WAKE_LEASE): only runs a tick
** with agents ?1, wake_mode ?2 (NULL: any) and sql ?3 would take; ends in
** "AND". */
#define WAKE_RUN_FILTER                                                    \
  " LEFT JOIN main.triggers_data AS d ON d.trigger_id = r.trigger_id"      \
  " AND d.incarnation = r.incarnation"                                     \
  " WHERE (?1 IS NULL OR r.agent_id IN (SELECT value FROM json_each(?1)))" \
  " AND (?2 IS NULL OR d.wake_mode IS NULL OR d.wake_mode = ?2)"           \
  " AND (d.action_sql IS NOT NULL) = ?3 AND"

/* The text of statement `which` (NULL: out of memory, or not one of this
** file's). */
static char *sql_text(store_sql which) {
  char *out = NULL;
  switch (which) {
    case ST_WAKE_TRIGGERS:
      /* Walked in next_due_at order until next_due_at passes the
      ** earliest fire_at seen (fire_at >= next_due_at): see trigger_next_wakeup. */
      out = sqlite3_mprintf(
          "SELECT s.next_due_at, s.fire_at, d.wake_mode, d.action_sql IS NOT NULL FROM " STORE_TRIGGER_FROM_STATE(
              "triggers_state_due") " WHERE s.next_due_at IS NOT NULL"
                                    " ORDER BY s.next_due_at, s.trigger_id");
      break;
    case ST_WAKE_TRIGGERS_AGENT:
      out = sqlite3_mprintf(
          "SELECT s.next_due_at, s.fire_at, d.wake_mode, d.action_sql IS NOT NULL FROM " STORE_TRIGGER_FROM_STATE(
              "triggers_state_agent") " WHERE s.agent_id = ?1"
                                      " AND s.agent_id <> ''"
                                      " AND s.next_due_at IS NOT NULL"
                                      " ORDER BY s.next_due_at, s.trigger_id");
      break;
    case ST_WAKE_TRIGGERS_NOAGENT:
      out = sqlite3_mprintf(
          "SELECT s.next_due_at, s.fire_at, d.wake_mode, d.action_sql IS NOT NULL FROM " STORE_TRIGGER_FROM_STATE(
              "triggers_state_due") " WHERE s.next_due_at IS NOT NULL"
                                    " AND s.agent_id = ''"
                                    " ORDER BY s.next_due_at, s.trigger_id");
      break;
    case ST_WAKE_RETRY:
      /* The first pending retry (or deferral) a tick with agents ?1 and
      ** wake_mode ?2 (NULL: any) would re-offer, in retry_at order. */
      out = sqlite3_mprintf(
          "SELECT r.retry_at FROM main.triggers_rundata AS r"
          " INDEXED BY triggers_rundata_retry" WAKE_RUN_FILTER
          " r.retry_at IS NOT NULL ORDER BY r.retry_at LIMIT 1");
      break;
    case ST_WAKE_LEASE:
      /* The first lease to expire that such a tick would reclaim. */
      out = sqlite3_mprintf(
          "SELECT r.lease_until FROM main.triggers_rundata AS r"
          " INDEXED BY triggers_rundata_lease" WAKE_RUN_FILTER
          " r.status = 'running' ORDER BY r.lease_until LIMIT 1");
      break;
    default: break;
  }
  return out;
}

int store_wake_walk(store *s, const char *agent,
                    int (*visit)(void *arg, const store_wake_row *w),
                    void *arg) {
  /* Agent '' is not in triggers_state_agent (schema.c). */
  store_sql which = !agent   ? ST_WAKE_TRIGGERS
                    : *agent ? ST_WAKE_TRIGGERS_AGENT
                             : ST_WAKE_TRIGGERS_NOAGENT;
  sqlite3_stmt *st = store_stmt(s, which, sql_text);
  if (!st) return store_err(s);
  if (agent && *agent) sqlite3_bind_text(st, 1, agent, -1, SQLITE_STATIC);
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    store_wake_row w;
    w.due_type = sqlite3_column_type(st, 0);
    w.due = sqlite3_column_int64(st, 0);
    w.fire_type = sqlite3_column_type(st, 1);
    w.fire = sqlite3_column_int64(st, 1);
    w.wake_mode = (const char *)sqlite3_column_text(st, 2);
    w.sql = sqlite3_column_int(st, 3);
    if (visit(arg, &w)) break;
  }
  sqlite3_reset(st);
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_wake_runs(store *s, const char *agents, const char *wake_mode,
                    int sql, int *have, i64 *at) {
  static const store_sql probes[] = {ST_WAKE_RETRY, ST_WAKE_LEASE};
  int rc = SQLITE_OK;
  *have = 0;
  for (size_t i = 0; i < 2 && rc == SQLITE_OK; i++) {
    sqlite3_stmt *st = store_stmt(s, probes[i], sql_text);
    if (!st) return store_err(s);
    if (agents) sqlite3_bind_text(st, 1, agents, -1, SQLITE_STATIC);
    if (wake_mode) sqlite3_bind_text(st, 2, wake_mode, -1, SQLITE_STATIC);
    sqlite3_bind_int(st, 3, sql);
    int step = sqlite3_step(st);
    if (step == SQLITE_ROW) {
      i64 v = sqlite3_column_int64(st, 0);
      if (!*have || v < *at) *at = v;
      *have = 1;
    } else if (step != SQLITE_DONE) {
      rc = step;
    }
    sqlite3_reset(st);
  }
  return rc;
}
