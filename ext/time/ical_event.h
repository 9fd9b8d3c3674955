/*
** ical_event.h -- one trigger's schedule as an iCalendar VEVENT over a
** range of instants (docs/ical.md): its occurrences in [from, to) are the
** ones sched_next gives (trigger_preview's), read back by any RFC 5545
** reader, to the second (iCalendar has no milliseconds: an instant's are
** dropped).
**
**   - once: DTSTART alone;
**   - interval of whole seconds: DTSTART in UTC and
**     RRULE:FREQ=DAILY|HOURLY|MINUTELY|SECONDLY;INTERVAL=n in the largest
**     unit that divides it, n <= ICAL_INTERVAL_MAX: a duration steps the
**     same in UTC for every reader;
**   - cron with an exact RRULE (cron_rrule.h) whose times of day meet no
**     DST change near the range: DTSTART;TZID= at the first occurrence of
**     the range and the rule. Where the rule and
**     sched_next still differ in the range (a calendar's days) an EXDATE
**     drops the rule's instant and an RDATE adds sched_next's (over the
**     first ICAL_EVENT_CHECK_MAX instants of the range). A time in a DST
**     gap or a repeated hour is where cron and RFC 5545 part
**     (docs/cron.md), and RFC readers too (libical 3.0 takes a repeated
**     time's second pass and moves the next day's time by the gap): such
**     a rule takes the next form;
**   - rrule: DTSTART;TZID= at the first occurrence of the range (with
**     COUNT, its own DTSTART) and its rule as is (the canonical text;
**     UNTIL at the range's end unless the set ends in the range), when every reader expands it alike (one RRULE, YEARLY to
**     DAILY, none of BYWEEKNO, BYSETPOS, BYYEARDAY, RSCALE, SKIP, nor a
**     BYMONTHDAY that libical reads its own way), DTSTART is an occurrence
**     its local time names, and its times meet no DST change; corrected
**     as a cron's rule is;
**   - anything else (a cron that no RRULE says or whose time meets a DST
**     change, another rrule, an interval with milliseconds or too many seconds): DTSTART
**     at the first occurrence and the rest of the range as RDATEs, at
**     most ICAL_EVENT_MAX_DATES (the DESCRIPTION then says so).
** An RRULE ends (UNTIL) at the last occurrence of the range (or of
** end_at): the feed is the range, whose VTIMEZONE (ical_zone.h) holds the
** changes a reader needs, and which a subscribed calendar refreshes.
** DTSTART carries the zone's TZID when the zone is not UTC and its local
** time names the instant (not the second pass of a repeated hour); RDATE
** and EXDATE values are UTC.
**
** Pure: no SQLite, no clock, no allocation (the caller lends the rrule_set
** the cron path compiles its rule into), no globals.
*/
#ifndef TRIGGERS_ICAL_EVENT_H
#define TRIGGERS_ICAL_EVENT_H

#include <stdint.h>

#include "text/ical_write.h"
#include "time/rrule.h"
#include "time/schedule.h"

#define ICAL_EVENT_MAX_DATES 20000
/* Room for the RRULE text of any form (cron_rrule.h's longest, an
** rrule trigger's without BYYEARDAY or BYWEEKNO lists). */
#define ICAL_RULE_MAX 2048
/* The largest INTERVAL written: libical keeps it in 16 bits (a longer
** interval of seconds, over 9 hours, that is not whole minutes is
** RDATEs). */
#define ICAL_INTERVAL_MAX 32767
/* How many instants of the range the rule and sched_next are compared
** over (at 0.2 s a million: a cron every 10 seconds over 60 days). */
#define ICAL_EVENT_CHECK_MAX 1000000
/* The domain of every UID: "<trigger_id>@sqlite-triggers". */
#define ICAL_UID_DOMAIN "@sqlite-triggers"

typedef struct ical_event {
  const char *uid;         /* before ICAL_UID_DOMAIN */
  const char *summary;     /* SUMMARY */
  const char *description; /* DESCRIPTION (NULL: none) */
  int64_t stamp_ms;        /* DTSTAMP */
  const sched_spec *spec;
  int64_t from_ms, to_ms; /* the range [from, to) */
  rrule_set *scratch;     /* lent: the cron path's compiled rule */
} ical_event;

/*
** Write e's VEVENT: 1 when written, 0 when the schedule has no occurrence
** in the range (nothing written). When a value names the spec's zone by
** TZID (its VTIMEZONE is then needed), *zoned_from is lowered to that
** instant (an rrule's DTSTART may lie before the range), else left alone.
*/
int ical_event_write(ical_writer *w, const ical_event *e, int64_t *zoned_from);

/* "NAME:<instant ms in UTC, to the second>" on a line of its own. */
void ical_utc_line(ical_writer *w, const char *name, int64_t ms);
/* "NAME:<id>@sqlite-triggers" (UID, RELATED-TO), id as TEXT. */
void ical_uid_line(ical_writer *w, const char *name, const char *id);

#endif
