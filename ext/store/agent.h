/*
** agent.h -- what is read about one agent: its latest finished runs, its
** pending triggers and the hint probes (trigger_state_summary), and its
** triggers per scope (trigger_create's quotas). Each read is bounded by a
** LIMIT or an index probe, whatever the history holds.
*/
#ifndef TRIGGERS_AGENT_H
#define TRIGGERS_AGENT_H

#include "store/store.h"

/* A finished run of the agent, with its trigger (that incarnation) when it
** still exists; the texts are valid until the cursor moves or closes. */
typedef struct store_agent_run {
  const char *trigger_id; /* the run's */
  i64 finished_at;
  const char *detail; /* failed: its error; success: its result */
  int has_retry;      /* failed: a retry of it is pending at retry_at */
  i64 retry_at;
  int has_trigger;          /* the trigger exists: the next four are its */
  const char *display_name; /* NULL when NULL */
  const char *instructions;
  const char *status; /* failed only */
  int has_next;       /* failed only: the trigger's next_due_at */
  i64 next_due_at;
  i64 fail_streak; /* failed only */
} store_agent_run;
/* The agent's latest failed run finished by now (one at most), or its
** latest `limit` successful ones, newest first. */
int store_agent_failure(store *s, const char *agent, i64 now, store_cursor *c);
int store_agent_successes(store *s, const char *agent, i64 now, int limit,
                          store_cursor *c);
/* SQLITE_ROW with *r, SQLITE_DONE, or an error. */
int store_agent_run_next(store_cursor *c, store_agent_run *r);

/* A scheduled trigger of the agent, by next_due_at (then trigger_id). */
typedef struct store_agent_pending {
  const char *trigger_id;
  const char *display_name; /* NULL when NULL */
  const char *instructions;
  i64 next_due_at;
} store_agent_pending;
int store_agent_pending_open(store *s, const char *agent, int limit,
                             store_cursor *c);
int store_agent_pending_next(store_cursor *c, store_agent_pending *p);

/* The hint probes: a run of the agent is running, a deferral of one is
** pending, a trigger of it is paused (each a probe of a partial or status
** index). */
int store_agent_hints(store *s, const char *agent, int *running, int *deferred,
                      int *paused);

/* *awaiting: a create of the agent was refused CONFIRMATION_REQUIRED
** at `since` or after (up to now) and no later create with its dedupe key
** (detail.dedupe_key) was made or found a duplicate: the summary's
** await_admin_confirmation (a range of the rejected events' partial
** index, then the events after each one found). */
int store_agent_awaiting(store *s, const char *agent, i64 since, i64 now,
                         int *awaiting);

/* The agent's triggers in scope that are active (scheduled or paused; an
** index probe of triggers_data_created), and its creations in scope after
** `since`: the created events of the log (triggers_events_created), so a
** deleted trigger's creation still counts. */
int store_agent_quota(store *s, const char *agent, const char *scope, i64 since,
                      i64 *active, i64 *created);
/* The same counts for one user of the agent, in every scope: its active
** triggers (metadata.user_id; the agent's rows of triggers_data_created
** are read) and the created events whose detail.user_id is the user. */
int store_agent_user_quota(store *s, const char *agent, const char *user,
                           i64 since, i64 *active, i64 *created);

/* *held: trigger_id names a trigger (of any agent), or runs of another
** agent than `agent` (a deleted trigger's history) still carry it: an
** agent's create may not take it (docs/create-action.md). */
int store_agent_id_held(store *s, const char *trigger_id, const char *agent,
                        int *held);

#endif
