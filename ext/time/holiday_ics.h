/*
** holiday_ics.h -- the days of an iCalendar (RFC 5545) holiday file, for
** trigger_calendar_import (docs/calendar.md#importing-an-icalendar-file):
** each all-day VEVENT (DTSTART;VALUE=DATE or a bare YYYYMMDD) is its days
** (DTSTART up to DTEND, exclusive; one day without DTEND), named by its
** SUMMARY; an event with an RRULE (and its RDATE and EXDATE lines) is
** expanded with the recurrence expander (rrule.h) over a range of days.
** Events with a time of day are not holidays and are passed over, as are
** the other components (VTIMEZONE, VTODO, VALARM, ...).
**
** Pure: no SQLite, no clock, no allocation; the days go to a callback.
*/
#ifndef TRIGGERS_HOLIDAY_ICS_H
#define TRIGGERS_HOLIDAY_ICS_H

#include <stddef.h>
#include <stdint.h>

#define ICS_ERR_MAX 320
#define ICS_LINE_MAX 8192 /* bytes of one unfolded content line */
#define ICS_NAME_MAX 256  /* bytes of a day's name (SUMMARY), cut beyond */

/* One day (days since 1970-01-01) and its name (NUL-terminated). A
** nonzero return stops the reading and is returned. */
typedef int (*ics_day_fn)(void *arg, int64_t day, const char *name);

/*
** Read text (len bytes). Recurring events give their days in from_day ..
** to_day - 1; single events give theirs wherever they are. Returns 0; a
** callback's nonzero value; or -1 with err saying where the text is not
** the iCalendar it should be: "not iCalendar: the text does not begin
** with BEGIN:VCALENDAR", "line 12: DTSTART '2026-13-01': month 13 is out
** of range", "line 30: RRULE: rrule: FREQ is missing", "no END:VCALENDAR".
** Days already given before an error have been given: callers write in a
** transaction they roll back.
*/
int ics_holidays(const char *text, size_t len, int64_t from_day, int64_t to_day,
                 ics_day_fn add, void *arg, char *err, size_t errlen);

#endif
