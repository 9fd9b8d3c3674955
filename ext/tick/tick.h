/*
** tick.h -- one call of a tick function (trigger_run_due, trigger_fire,
** trigger_run_finish, ...): its state, shared by the files of ext/tick/.
**
** A call reads and writes through a store (its own statements, or the
** connection's kept ones: call.c), keeps a fire's writes to write them in
** batches (write_behind.c), applies the run lifecycle (lifecycle.c) and
** takes rows changed outside the extension out of the schedule
** (quarantine.c); trigger_run_due re-offers runs (reoffer.c) and claims
** due triggers (claim.c).
*/
#ifndef TRIGGERS_TICK_H
#define TRIGGERS_TICK_H

#include "base/arena.h"
#include "store/kept.h"
#include "tick/tick_opts.h"

typedef struct tick_events tick_events; /* events.c */

typedef struct tick {
  store_call call; /* db, ctx, and st: the statements the call uses */
  i64 now;
  tick_opts o;
  sqlite3_str *out; /* JSON array of claimed runs */
  int nout;
  i64 budget;   /* runs still claimable (limit) */
  i64 grace_ms; /* misfire_grace_ms */
  const char *fname;
  char *err; /* message for a failed tick */
  i64 rows;  /* rows read by the probes */
  /* The tick's own writes update only the columns a tick changes; the
  ** row's status and schedule as stored (trg_row.stored) tell whether
  ** those (and the indexes on them) need writing too. Not set: full-row
  ** save. */
  int narrow;
  int by_app; /* the application asked for the change (trigger_pause,
                 trigger_resume, trigger_cancel): a pause is `paused`, not
                 `auto_paused` (trigger/event.h) */
  arena mem;  /* run texts (fire_json.h); reset per batch: tick_run_make */
  struct write_behind *wb; /* the claim's kept writes (write_behind.c) */
  int wb_on;               /* writes are kept (else written at once) */
  const char *gone;    /* why a run's trigger is unusable, when it is NULL */
  tick_events *events; /* kept until the call's end (events.c) */
  const char *usage;   /* a finish's usage (JSON object, checked), or NULL */
  /* budgets (budget_hold.c): the window of row bud_row as counted this
  ** tick (its runs, their cost); the agent config, read once; the agent
  ** last counted (sqlite3_malloc'd) and whether it is over */
  i64 bud_row, bud_runs;
  double bud_cost;
  int agent_budget_read, held_agent_over;
  i64 agent_budget_window, agent_budget_cost;
  char *held_agent;
  int chains; /* whether an event trigger waits on a run's end: -1 not
                 known yet (probed at the call's first run end), 0, 1 */
} tick;

#endif
