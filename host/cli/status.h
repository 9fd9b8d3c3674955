/*
** status.h -- `trigger-host status DB [--json]`: what is scheduled, like
** `systemctl list-timers`, and the failed runs of the last 24 hours.
**
** The next 50 triggers (--limit N, --all; --agent, --scope, --status
** filter), sorted by next due (then trigger_id), read from the due index
** and printed as they come; triggers with nothing due (paused, completed,
** cancelled, expired) come last, by state:
**
**   NEXT  LEFT  LAST  STATUS  TRIGGER  SCHEDULE
**
** NEXT and LAST (the latest finished run) are in the trigger's own zone
** with its UTC offset, to the second ("2026-03-09 07:15:00+01:00"), so a
** cron schedule reads as written; LEFT is the time until NEXT ("4min 10s",
** "overdue 3s"); STATUS is the trigger's state when it is not scheduled,
** else "running" while a run is, else its last run's status, else
** "scheduled"; SCHEDULE is trigger_describe(trigger_id). Below: the failed
** runs of the last 24 h, newest first (WHEN, TRIGGER, ATTEMPT, ERROR on
** one line, cut at 100 characters), at most 20 listed. --json prints the
** same as one JSON object (every failure of the 24 h up to 1000, errors
** whole).
**
** The database is opened read-only and nothing is installed or migrated:
** status never writes (a database without the schema is an error, exit 3).
*/
#ifndef HOST_STATUS_H
#define HOST_STATUS_H

#include "core/opts.h"

/* 1 when s is a trigger state --status takes: scheduled, paused,
** completed, cancelled, expired. */
int status_state_valid(const char *s);

/* Print the status of o->dbs[0]. Returns the exit status: 0, or 3 when
** the database or the extension cannot be read. */
int status_main(const host_opts *o);

#endif
