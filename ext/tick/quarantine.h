/*
** quarantine.h -- a trigger or run row read back that holds a value the
** extension would refuse (docs/tables.md#changed-shadow-tables): its check,
** and the trigger taken out of the schedule, writing only what that takes.
*/
#ifndef TRIGGERS_QUARANTINE_H
#define TRIGGERS_QUARANTINE_H

#include "tick/tick.h"

/* Take trigger r out of the schedule with why (taken): paused, or
** status when given; ended: how many running runs of it were just closed
** or found missing (its running count goes down by as many). */
int tick_quarantine(tick *t, trg_row *r, char *why, const char *status,
                    i64 ended);
/* Check a trigger row read back (flags: TRIGGER_NO_JSON or 0): SQLITE_OK with
** *why NULL (usable, *spec its schedule) or with *why what is wrong. */
int tick_row_check(tick *t, trg_row *r, sched_spec *spec, int flags,
                   char **why);
/* A due trigger held by its running count (overlap skip or queue) with
** no run of it running: SQLITE_OK with *why NULL, or with *why what is
** wrong (a run row deleted or changed outside the extension). */
int tick_hold_check(tick *t, const trg_row *r, char **why);
/* Check a run row read back; its message names the run. */
int tick_run_check(tick *t, trg_run *run, char **why);

#endif
