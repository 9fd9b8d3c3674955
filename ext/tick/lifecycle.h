/*
** lifecycle.h -- the run lifecycle's steps, shared by the tick's SQL
** functions: what a claim, a finish or a failure does to a run and to its
** trigger (the row in memory; the writes go through write_behind.h).
*/
#ifndef TRIGGERS_LIFECYCLE_H
#define TRIGGERS_LIFECYCLE_H

#include "tick/tick.h"

/* An instant as ISO-8601 UTC text into buf (CIVIL_ISO_MAX bytes). */
void tick_iso_utc(i64 ms, char *buf);
/* Fill run for occurrence sched, attempt, status of trigger r; its texts
** are borrowed from r and the call's arena (reset per batch). */
int tick_run_make(tick *t, trg_run *run, trg_row *r, i64 sched, i64 attempt,
                  const char *status);
/* Mark a run claimed (running, or success at once when ack is false). */
void tick_run_claim(tick *t, trg_run *run);
/* A run's end at now: finished_at, latency_ms from its claim (never < 0). */
void tick_run_ended(trg_run *run, i64 now);
/* Append the claimed run's element to the call's result. */
int tick_emit(tick *t, const trg_run *run, trg_row *r);
/* Record a finished-at-once run (skipped / expired) with a reason (taken). */
int tick_record_outcome(tick *t, trg_row *r, i64 sched, const char *status,
                        char *error);
/* A claimed run started: counters for ack / no-ack. */
void tick_note_claim(tick *t, trg_row *r);
/* After a run ended or a claim: restore a queued trigger, and complete one
** whose schedule is exhausted once nothing is in flight any more. */
int tick_settle(store *s, trg_row *r);
/* An occurrence ended for good with success or failure (pause after
** failures). */
void tick_occurrence_done(trg_row *r, int success, const char *error);
/* Counters for a run that finished (success or failed). */
/* A run the host reported skipped did not run: its claim is given back
** (max_runs counts runs that ran), and a trigger that max_runs had ended
** goes on with its first occurrence strictly after now. */
void tick_unclaim(trg_row *r, const sched_spec *spec, i64 now);
void tick_note_finish(trg_row *r, i64 now, const char *status,
                      const char *error);
/* The trigger a run belongs to: SQLITE_ROW with r loaded, SQLITE_DONE when
** it was deleted (or another incarnation holds its id now). */
int tick_run_trigger_load(store *s, const trg_run *run, trg_row *r);
/* A run of trigger_id ended with status: its chain's signal,
** run:<trigger_id>:<status> (docs/reactive.md#chains), in the call's
** transaction; nothing when no event trigger waits on a run's end. */
int tick_chain(tick *t, const char *trigger_id, const char *status);
/* Fail a run with error; queue a retry when attempts remain and
** allow_retry. */
int tick_fail_run(store *s, trg_row *r, trg_run *run, i64 now,
                  const char *error, int allow_retry);

#endif
