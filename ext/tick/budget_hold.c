/*
** budget_hold.c -- budgets at claim time (budget_hold.h,
** docs/reactive.md#budgets). A trigger's window is [now - budget_window_ms,
** now) over its runs' scheduled_for, counted once per trigger per tick
** (store/budget.h: one range of its run key) and then by the claims this
** tick adds; an agent's is [now - agent_budget_window_ms, now) over its
** runs' finished_at, counted once per agent in a row of claims. Triggers
** without a budget cost nothing: no statement runs for them, and the empty
** tick reads no config.
*/
#include "tick/budget_hold.h"

#include <string.h>

#include "store/budget.h"
#include "store/config.h"
#include "tick/lifecycle.h"
#include "trigger/transition.h"

SQLITE_EXTENSION_INIT3

/* r's window counted at t->now (once per trigger per tick). */
static int count_window(tick *t, const trg_row *r) {
  if (t->bud_row == r->id && r->id != 0) return SQLITE_OK;
  i64 window = r->v[TC_BUDGET_WINDOW_MS].i;
  int rc = store_budget_trigger(t->call.st, trg_val_text(&r->v[TC_TRIGGER_ID]),
                                r->v[TC_INCARNATION].i, t->now - window, t->now,
                                &t->bud_runs, &t->bud_cost);
  if (rc == SQLITE_OK) t->bud_row = r->id;
  return rc;
}

/* Why r's budget stops one more run (sqlite3_malloc'd), or NULL (*oom
** when that text could not be made). */
static char *spent_reason(const tick *t, const trg_row *r, int *oom) {
  const trg_val *runs = &r->v[TC_BUDGET_RUNS], *cost = &r->v[TC_BUDGET_COST];
  i64 window = r->v[TC_BUDGET_WINDOW_MS].i;
  char *why = NULL;
  if (!runs->null && t->bud_runs >= runs->i) {
    why = sqlite3_mprintf(
        STORE_BUDGET_REASON "budget_runs %lld spent: %lld runs in the last "
                            "budget_window_ms %lld",
        (long long)runs->i, (long long)t->bud_runs, (long long)window);
  } else if (!cost->null && t->bud_cost >= (double)cost->i) {
    why = sqlite3_mprintf(STORE_BUDGET_REASON
                          "budget_cost %lld spent: cost %.6g in the last "
                          "budget_window_ms %lld",
                          (long long)cost->i, t->bud_cost, (long long)window);
  } else {
    return NULL;
  }
  *oom = why == NULL;
  return why;
}

int tick_budget_claim(tick *t, trg_row *r, i64 sched, int *stopped) {
  *stopped = 0;
  if (r->v[TC_BUDGET_WINDOW_MS].null) return SQLITE_OK;
  int rc = count_window(t, r), oom = 0;
  if (rc != SQLITE_OK) return rc;
  char *why = spent_reason(t, r, &oom);
  if (oom) return SQLITE_NOMEM;
  if (!why) {
    t->bud_runs++; /* this claim, not yet in the table */
    return SQLITE_OK;
  }
  *stopped = 1;
  if (strcmp(trg_val_text(&r->v[TC_BUDGET_POLICY]), "skip") == 0)
    return tick_record_outcome(t, r, sched, "skipped", why);
  trigger_transition(r, TRIGGER_PAUSE, NULL, 0);
  return trg_val_set_owned(&r->v[TC_LAST_ERROR], why); /* auto_paused */
}

/* agent_budget_window_ms and agent_budget_cost, read once per tick. */
static void read_agent_config(tick *t) {
  if (t->agent_budget_read) return;
  t->agent_budget_read = 1;
  t->agent_budget_window =
      store_config_int(t->call.st, "agent_budget_window_ms");
  t->agent_budget_cost = store_config_int(t->call.st, "agent_budget_cost");
}

int tick_budget_agent_held(tick *t, const trg_row *r, int *held) {
  *held = 0;
  read_agent_config(t);
  if (t->agent_budget_window <= 0 || t->agent_budget_cost <= 0)
    return SQLITE_OK;
  const char *agent = trg_val_text(&r->v[TC_AGENT_ID]);
  if (!t->held_agent || strcmp(t->held_agent, agent) != 0) {
    double cost;
    int rc = store_budget_agent(t->call.st, agent,
                                t->now - t->agent_budget_window, t->now, &cost);
    if (rc != SQLITE_OK) return rc;
    sqlite3_free(t->held_agent);
    t->held_agent = sqlite3_mprintf("%s", agent);
    if (!t->held_agent) return SQLITE_NOMEM;
    t->held_agent_over = cost >= (double)t->agent_budget_cost;
  }
  *held = t->held_agent_over;
  return SQLITE_OK;
}
