/*
** transition.h -- a trigger's status and schedule as they change: armed
** (scheduled from a start, or completed when nothing is left), paused,
** resumed (its failure streak reset), cancelled, and the next occurrence
** with its jitter. The one home of each: trigger_pause / _resume /
** _cancel (tick/fn_trigger_ops.c), an UPDATE of `enabled` or of the
** schedule (trigger/write.c) and the tick's pause after failures
** (tick/lifecycle.c) call them. The ends a tick reaches by itself
** (completed, expired: tick/lifecycle.c, claim.c) and a row taken out of
** the schedule (tick/quarantine.c) are the tick's. These change the row
** in memory; the caller writes it (docs/ARCHITECTURE.md#what-is-written-when).
*/
#ifndef TRIGGERS_TRANSITION_H
#define TRIGGERS_TRANSITION_H

#include "base/triggers_int.h"
#include "time/schedule.h"

/* A change of status asked for. */
typedef enum trigger_change {
  TRIGGER_PAUSE,  /* enabled 0, paused, nothing due */
  TRIGGER_RESUME, /* enabled 1, the failure streak 0, due at the next
                 occurrence strictly after now (none: completed, or
                 expired for a once trigger that never ran) */
  TRIGGER_CANCEL  /* cancelled, nothing due (enabled kept) */
} trigger_change;

/* r changed as `change` asks, whatever its status (the caller checked
** it: trigger_change_check). spec and now: r's schedule and the instant,
** read by TRIGGER_RESUME only (NULL and 0 serve for the others). */
void trigger_transition(trg_row *r, trigger_change change,
                        const sched_spec *spec, i64 now);

/* Whether an application may ask `change` of r (trigger_pause,
** trigger_resume, trigger_cancel): SQLITE_OK with *todo 1, or 0 when r
** is already so (nothing to write); SQLITE_ERROR with *err ("trigger 'x'
** is completed and cannot be paused") when its status forbids it. A
** pause needs a scheduled trigger, a resume a paused one; any trigger
** may be cancelled. */
int trigger_change_check(const trg_row *r, trigger_change change, int *todo,
                         char **err);

/* Scheduled from now (the first occurrence at or after it), completed
** when none is left or max_runs is spent, paused when not enabled. */
void trigger_arm(trg_row *r, const sched_spec *spec, i64 now);
/* next_due_at = next and fire_at = next + jitter, or both NULL. */
void trigger_set_next(trg_row *r, int has_next, i64 next);
/* An event trigger with runs left (max_runs): with nothing due it stays
** scheduled, waiting for a signal (docs/reactive.md), where a clock
** trigger would be completed. */
int trigger_event_waits(const trg_row *r);
/* An event trigger's pending signals taken by a claim: event_* back to
** none. */
void trigger_event_taken(trg_row *r);
/* scheduled or paused */
int trigger_is_active(const trg_row *r);
/* Deterministic jitter in [0, jitter_ms) from (trigger_id, occurrence). */
i64 trigger_jitter(const char *trigger_id, i64 occurrence, i64 jitter_ms);

#endif
