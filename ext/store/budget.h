/*
** budget.h -- what a budget counts (docs/reactive.md#budgets): a
** trigger's runs and their summed cost in a window (a range of its run
** key: trigger_id, incarnation, scheduled_for), an agent's summed cost in
** a window (a range of the finished-run index by agent, status and
** finished_at), and how many triggers a budget holds now (health).
*/
#ifndef TRIGGERS_BUDGET_H
#define TRIGGERS_BUDGET_H

#include "store/store.h"

/* The runs of one incarnation of trigger_id scheduled in [from, to) that
** ran or run (running, success, failed, cancelled): *runs of them, *cost
** the sum of their usage's cost. */
int store_budget_trigger(store *s, const char *trigger_id, i64 incarnation,
                         i64 from, i64 to, i64 *runs, double *cost);
/* The summed usage cost of agent's runs finished in [from, to). */
int store_budget_agent(store *s, const char *agent, i64 from, i64 to,
                       double *cost);
/* How many triggers a budget holds at now, of the agents in the JSON array
** agents and of scope (each NULL: any): paused by their own budget
** (last_error 'budget: ...', the paused range of the status index), and,
** with an agent budget configured, due and held by it (the due range of
** triggers_state_due, each with its agent's window). */
int store_budget_held(store *s, i64 now, const char *agents, const char *scope,
                      i64 *held);

/* Agent's triggers paused by their own budget: *n of them, the first
** trigger_id and its last_error (sqlite3_malloc'd; NULL when none). */
int store_budget_agent_paused(store *s, const char *agent, i64 *n,
                              char **trigger_id, char **why);

/* The prefix of last_error (and of a skipped run's error) when a budget
** stops a run: what store_budget_held and the summary look for. */
#define STORE_BUDGET_REASON "budget: "

#endif
