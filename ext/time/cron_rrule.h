/*
** cron_rrule.h -- the RFC 5545 RRULE that means the same days and times
** as a cron expression, where one does (docs/ical.md).
**
** Exact: the time fields as BYHOUR, BYMINUTE and BYSECOND lists (a step is
** its list of values: "*\/15" minutes is BYMINUTE=0,15,30,45); months as
** BYMONTH; one restricted day field as FREQ=WEEKLY;BYDAY (plain
** weekdays), FREQ=MONTHLY;BYDAY (with wL as -1WD, w#k as kWD) or
** FREQ=MONTHLY;BYMONTHDAY (L as -1, L-n as -(n+1)); no day restriction as
** FREQ=DAILY. Not exact: both day fields restricted (cron's day-of-month
** OR day-of-week, which an RRULE, whose parts all narrow, cannot say),
** the nearest weekday (nW, LW), and plain weekdays beside wL or w#k (one
** BYDAY mixing days with and without an ordinal, which readers differ on). (Here "*\/" stands for star-slash.)
**
** The rule is read in wall-clock time with DTSTART's zone: where cron and
** RFC 5545 place a time differently around a DST change (docs/cron.md: a
** fixed time in a gap runs at the gap's end, an interval job runs twice
** in a repeated hour), the caller corrects the instants (EXDATE, RDATE).
**
** Pure: no SQLite, no clock, no allocation, no globals.
*/
#ifndef TRIGGERS_CRON_RRULE_H
#define TRIGGERS_CRON_RRULE_H

#include <stddef.h>

#include "time/cron.h"

/* Always enough for cron_rrule's text (every second, minute and hour
** listed, BYMONTHDAY with 31 values and 30 negatives). */
#define CRON_RRULE_MAX 1024

/*
** The RECUR value ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0;
** BYSECOND=0") into buf: its length when the rule is exact; 0 when none
** is, with *why (when not NULL) a static phrase saying which part cannot
** be said ("the day-of-month OR day-of-week rule", "a nearest weekday
** (W)"); -1 when buf is too small (CRON_RRULE_MAX always suffices).
*/
int cron_rrule(const cron_expr *c, char *buf, size_t n, const char **why);

#endif
