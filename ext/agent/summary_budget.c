/*
** summary_budget.c -- what the state summary says of budgets
** (docs/summary.md#budgets, docs/reactive.md#budgets): a trigger of the
** agent paused by its own budget, or the agent's cost in
** agent_budget_window_ms at or over agent_budget_cost (its claims held),
** is the hint `pause` and a loop line; a cost at SUM_BUDGET_NEAR percent of
** agent_budget_cost or more is a loop line "nearly spent". Two indexed
** reads (store/budget.h): the first only when a trigger of the agent is
** paused, the second only with an agent budget set.
*/
#include <string.h>

#include "agent/summary.h"
#include "store/budget.h"
#include "store/config.h"

SQLITE_EXTENSION_INIT3

/* The agent's paused-by-budget triggers as a line (budget_line). */
static int paused_line(summary *s) {
  i64 n;
  char *id = NULL, *why = NULL;
  int rc = store_budget_agent_paused(s->st, s->agent, &n, &id, &why);
  if (rc == SQLITE_OK && n > 0) {
    s->hints |= H_PAUSE;
    /* why starts with STORE_BUDGET_REASON (the read's filter) */
    s->budget_line = sqlite3_mprintf("\n- %s held by its budget (%s)%s", id,
                                     why + sizeof STORE_BUDGET_REASON - 1,
                                     n > 1 ? "; more triggers held too" : "");
    if (!s->budget_line) rc = SQLITE_NOMEM;
  }
  sqlite3_free(id);
  sqlite3_free(why);
  return rc;
}

/* The agent's cost against agent_budget_cost, when one is set. */
static int agent_line(summary *s) {
  i64 window = store_config_int(s->st, "agent_budget_window_ms");
  i64 budget = store_config_int(s->st, "agent_budget_cost");
  if (s->st->err) return s->st->err;
  if (window <= 0 || budget <= 0) return SQLITE_OK;
  double cost;
  int rc = store_budget_agent(s->st, s->agent, s->now - window, s->now, &cost);
  if (rc != SQLITE_OK || cost * 100 < (double)budget * SUM_BUDGET_NEAR)
    return rc;
  int over = cost >= (double)budget;
  if (over) s->hints |= H_PAUSE;
  char *line = sqlite3_mprintf(
      "%s\n- budget %s: cost %.6g of agent_budget_cost %lld in the last "
      "%lld ms%s",
      s->budget_line ? s->budget_line : "", over ? "spent" : "nearly spent",
      cost, (long long)budget, (long long)window,
      over ? "; new runs held" : "");
  sqlite3_free(s->budget_line);
  s->budget_line = line;
  return line ? SQLITE_OK : SQLITE_NOMEM;
}

int agent_summary_budget_read(summary *s) {
  /* resume: a trigger of the agent is paused (or a run deferred) */
  int rc = s->hints & H_RESUME ? paused_line(s) : SQLITE_OK;
  if (rc == SQLITE_OK) rc = agent_line(s);
  return rc;
}
