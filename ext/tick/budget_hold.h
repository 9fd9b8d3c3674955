/*
** budget_hold.h -- budgets at claim time (docs/reactive.md#budgets): a
** trigger over its own budget is paused or has the occurrence skipped; a
** trigger of an agent over its budget is held, due, until the window has
** room. Work per due trigger only, and only one with a budget.
*/
#ifndef TRIGGERS_BUDGET_HOLD_H
#define TRIGGERS_BUDGET_HOLD_H

#include "tick/tick.h"

/* Occurrence sched of r about to be claimed: SQLITE_OK with *stopped 0
** (it may run: counted as one more run of r's window), or 1 when r's
** budget is spent: the occurrence recorded skipped (budget_policy skip)
** or r paused (pause, the default), the reason in the run's error or
** r's last_error. */
int tick_budget_claim(tick *t, trg_row *r, i64 sched, int *stopped);
/* *held 1 when r's agent is over agent_budget_cost in the
** agent_budget_window_ms before now: r is not claimed and stays due. */
int tick_budget_agent_held(tick *t, const trg_row *r, int *held);

#endif
