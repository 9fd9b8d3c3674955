/*
** describe.h -- a schedule in plain English, for trigger_describe():
**
**   "0 7 * * MON-FRI" in Europe/Berlin -> "At 07:00, Monday through Friday
**   (Europe/Berlin)"; "*\/15 * * * *" -> "Every 15 minutes"; an interval of
**   900000 ms -> "Every 15 minutes"; a once trigger -> "Once on 2026-03-09
**   at 07:15 (America/New_York)".   ("*\/" is star-slash.)
**
** The wording follows cronstrue (the JavaScript library most users have
** seen, 24-hour times) where it is exact for the dialect of docs/cron.md.
** Cron text is described from its compiled form (cron.h), so spellings that
** compile alike read alike ("*\/30" and "0,30" are both "Every 30
** minutes"), and the description says what runs: day-of-month and
** day-of-week both restricted read "..., on day 1 of the month, and on
** Monday" (either matches), fields that let every day through say nothing,
** an hour range ends at its last minute ("between 09:00 and 17:59").
**
** Times are the schedule's wall clock; the zone follows in parentheses
** when it is not UTC and a time of day is shown. Pure: no SQLite, no clock.
*/
#ifndef TRIGGERS_DESCRIBE_H
#define TRIGGERS_DESCRIBE_H

#include <stddef.h>

#include "time/cron.h"
#include "time/schedule.h"

/* Enough for any expression (a 60-item minute list is the longest). */
#define DESCRIBE_MAX 8192

/* The cron expression alone, without a zone. Returns the length, or -1
** when buf (n bytes) is too small (DESCRIBE_MAX always suffices). */
int describe_cron(const cron_expr *c, char *buf, size_t n);

/*
** A whole schedule: interval ("Every 15 minutes", "Every 90 seconds",
** "Every 2 weeks"), once ("Once on 2026-03-09 at 07:15") or cron, then
** start_at / end_at (", from 2026-03-01 00:00 until 2026-04-01 00:00"),
** then " (Zone/Name)" when the zone is not UTC and a time is shown.
** Returns the length, or -1 when buf is too small.
*/
int describe_schedule(const sched_spec *s, char *buf, size_t n);

#endif
