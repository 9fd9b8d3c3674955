/*
** budget.c -- the counts of a budget (budget.h): each one index range,
** never a scan of the run history. A trigger's window walks its run key
** (UNIQUE(trigger_id, incarnation, scheduled_for, attempt)) over the
** window's scheduled_for; an agent's walks triggers_rundata_outcome
** (agent_id, status, finished_at) over the window's finished_at for each
** status that can carry a cost; the held counts read at most
** STORE_HEALTH_CAP + 1 entries of triggers_data_status (paused) and of
** triggers_state_due (due), as trigger_health's other counts do. Cost:
** docs/performance.md#budgets.
*/
#include "store/budget.h"

#include "store/config.h"
#include "store/health.h"

SQLITE_EXTENSION_INIT3

/* Narrowed (ST_BUDGET_N_*) to the agents ?4 (a JSON array; NULL: any) and
** the scope ?5 (NULL: any) of trigger_health's options. */
#define NARROW                                           \
  " AND (?4 IS NULL OR d.agent_id IN (SELECT value FROM" \
  " json_each(?4))) AND (?5 IS NULL OR d.scope = ?5)"

/* A run's reported cost, 0 when it reported none. */
#define RUN_COST "coalesce(json_extract(usage, '$.cost'), 0)"

static char *sql_text(store_sql which) {
  switch (which) {
    case ST_BUDGET_TRIGGER:
      return sqlite3_mprintf(
          "SELECT count(*), total(CASE WHEN usage IS NOT NULL THEN " RUN_COST
          " END) FROM main.triggers_rundata WHERE trigger_id = ?1"
          " AND incarnation = ?2 AND scheduled_for >= ?3"
          " AND scheduled_for < ?4 AND status IN ('running', 'success',"
          " 'failed', 'cancelled')");
    case ST_BUDGET_AGENT:
      return sqlite3_mprintf(
          "SELECT total(" RUN_COST ") FROM main.triggers_rundata"
          " INDEXED BY triggers_rundata_outcome WHERE agent_id = ?1"
          " AND status IN ('success', 'failed', 'cancelled')"
          " AND finished_at >= ?2 AND finished_at < ?3"
          " AND finished_at IS NOT NULL AND usage IS NOT NULL");
    case ST_BUDGET_HELD:
    case ST_BUDGET_N_HELD:
      /* bounded like trigger_health's other counts (health.h): the first
      ** STORE_HEALTH_CAP + 1 paused entries are read, the budget's among
      ** them counted */
      return sqlite3_mprintf(
          "SELECT count(*) FROM (SELECT s.last_error AS e"
          " FROM main.triggers_data AS d"
          " INDEXED BY triggers_data_status JOIN main.triggers_state AS s"
          " ON s.id = d.id WHERE d.status = 'paused' AND ?1 = ?1%s"
          " LIMIT %d) WHERE substr(e, 1, %d) = '%s'",
          which == ST_BUDGET_N_HELD ? NARROW : "", STORE_HEALTH_CAP + 1,
          (int)sizeof STORE_BUDGET_REASON - 1, STORE_BUDGET_REASON);
    case ST_BUDGET_AGENT_HELD:
    case ST_BUDGET_N_AGENT_HELD:
      /* the first STORE_HEALTH_CAP + 1 due entries, those of an agent over
      ** its cost counted */
      return sqlite3_mprintf(
          "SELECT count(*) FROM (SELECT d.agent_id AS a"
          " FROM main.triggers_state AS s"
          " INDEXED BY triggers_state_due JOIN main.triggers_data AS d"
          " ON d.id = s.id WHERE s.next_due_at <= ?1 AND s.fire_at <= ?1"
          " AND d.status = 'scheduled'%s LIMIT %d) WHERE (SELECT total(" RUN_COST
          ") FROM main.triggers_rundata AS r"
          " INDEXED BY triggers_rundata_outcome WHERE r.agent_id = a"
          " AND r.status IN ('success', 'failed', 'cancelled')"
          " AND r.finished_at >= ?1 - ?2 AND r.finished_at < ?1"
          " AND r.finished_at IS NOT NULL AND r.usage IS NOT NULL) >= ?3",
          which == ST_BUDGET_N_AGENT_HELD ? NARROW : "", STORE_HEALTH_CAP + 1);
    case ST_BUDGET_AGENT_PAUSED:
      return sqlite3_mprintf(
          /* with one min(), s.last_error is the min row's (SQLite's bare
          ** columns of a min() aggregate) */
          "SELECT count(*), min(d.trigger_id), s.last_error"
          " FROM main.triggers_data AS d"
          " INDEXED BY triggers_data_status JOIN main.triggers_state AS s"
          " ON s.id = d.id WHERE d.status = 'paused' AND d.agent_id = ?1"
          " AND substr(s.last_error, 1, %d) = '%s'",
          (int)sizeof STORE_BUDGET_REASON - 1, STORE_BUDGET_REASON);
    default: return NULL;
  }
}

/* Step st once (bound), its columns into out: integers or reals. */
static int one_row(store *s, sqlite3_stmt *st, i64 *n, double *x) {
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    if (n) *n = sqlite3_column_int64(st, 0);
    if (x) *x = sqlite3_column_double(st, n ? 1 : 0);
  }
  sqlite3_reset(st);
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : store_err(s);
}

int store_budget_trigger(store *s, const char *trigger_id, i64 incarnation,
                         i64 from, i64 to, i64 *runs, double *cost) {
  *runs = 0;
  *cost = 0;
  sqlite3_stmt *st = store_stmt(s, ST_BUDGET_TRIGGER, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, trigger_id, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 2, incarnation);
  sqlite3_bind_int64(st, 3, from);
  sqlite3_bind_int64(st, 4, to);
  return one_row(s, st, runs, cost);
}

int store_budget_agent(store *s, const char *agent, i64 from, i64 to,
                       double *cost) {
  *cost = 0;
  sqlite3_stmt *st = store_stmt(s, ST_BUDGET_AGENT, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, agent, -1, SQLITE_STATIC);
  sqlite3_bind_int64(st, 2, from);
  sqlite3_bind_int64(st, 3, to);
  return one_row(s, st, NULL, cost);
}

/* One count of statement which at now (?2 window ?3 cost for the agent's
** hold), narrowed when agents or scope is given. */
static int held_count(store *s, store_sql which, i64 now, const char *agents,
                      const char *scope, i64 window, i64 cost, i64 *n) {
  int narrow = agents || scope;
  if (narrow)
    which = which == ST_BUDGET_HELD ? ST_BUDGET_N_HELD : ST_BUDGET_N_AGENT_HELD;
  sqlite3_stmt *st = store_stmt(s, which, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_int64(st, 1, now);
  if (which == ST_BUDGET_AGENT_HELD || which == ST_BUDGET_N_AGENT_HELD) {
    sqlite3_bind_int64(st, 2, window);
    sqlite3_bind_int64(st, 3, cost);
  }
  if (narrow) {
    sqlite3_bind_text(st, 4, agents, -1, SQLITE_STATIC); /* NULL: NULL */
    sqlite3_bind_text(st, 5, scope, -1, SQLITE_STATIC);
  }
  return one_row(s, st, n, NULL);
}

int store_budget_held(store *s, i64 now, const char *agents, const char *scope,
                      i64 *held) {
  *held = 0;
  int rc = held_count(s, ST_BUDGET_HELD, now, agents, scope, 0, 0, held);
  i64 window = store_config_int(s, "agent_budget_window_ms");
  i64 cost = store_config_int(s, "agent_budget_cost");
  if (rc != SQLITE_OK || s->err || window <= 0 || cost <= 0)
    return rc != SQLITE_OK ? rc : s->err;
  i64 due = 0;
  rc = held_count(s, ST_BUDGET_AGENT_HELD, now, agents, scope, window, cost,
                  &due);
  *held += due;
  return rc;
}

int store_budget_agent_paused(store *s, const char *agent, i64 *n,
                              char **trigger_id, char **why) {
  *n = 0;
  *trigger_id = *why = NULL;
  sqlite3_stmt *st = store_stmt(s, ST_BUDGET_AGENT_PAUSED, sql_text);
  if (!st) return store_err(s);
  sqlite3_bind_text(st, 1, agent, -1, SQLITE_STATIC);
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW && (*n = sqlite3_column_int64(st, 0)) > 0) {
    const char *id = (const char *)sqlite3_column_text(st, 1);
    const char *e = (const char *)sqlite3_column_text(st, 2);
    *trigger_id = sqlite3_mprintf("%s", id ? id : "");
    *why = sqlite3_mprintf("%s", e ? e : "");
    if (!*trigger_id || !*why) rc = SQLITE_NOMEM;
  }
  sqlite3_reset(st);
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK
         : rc == SQLITE_NOMEM                  ? rc
                                               : store_err(s);
}
