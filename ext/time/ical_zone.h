/*
** ical_zone.h -- time in iCalendar (RFC 5545) terms: DATE-TIME values
** and a zone's VTIMEZONE over a range of instants, from the zone's
** transitions (tz.h), for the feed of docs/ical.md.
**
** The VTIMEZONE lists the observance in effect at the range's start and
** one observance per transition in the range, each with the local time it
** begins, TZOFFSETFROM and TZOFFSETTO: no RRULE of its own, so a reader
** needs no rule of the zone to place every time of the range. A
** transition to a larger offset is a DAYLIGHT observance, any other a
** STANDARD one; a zone without transitions is one STANDARD observance.
**
** Pure: no SQLite, no clock, no allocation, no globals.
*/
#ifndef TRIGGERS_ICAL_ZONE_H
#define TRIGGERS_ICAL_ZONE_H

#include <stdint.h>

#include "text/ical_write.h"
#include "time/tz.h"

/* "YYYYMMDDTHHMMSS" and a NUL. */
#define ICAL_TIME_MAX 24

/* The DATE-TIME of s seconds: wall-clock seconds as local time, or (utc)
** an instant with a trailing 'Z'. Years 1-9999. */
void ical_time_format(int64_t s, int utc, char buf[ICAL_TIME_MAX]);

/*
** The wall-clock seconds of instant utc_s in zone z when that local time
** names utc_s alone or first (a reader of "DTSTART;TZID=..." finds the
** instant back): 1 and *wall; 0 when it is the second pass of a repeated
** hour.
*/
int ical_wall_of(const tz_zone *z, int64_t utc_s, int64_t *wall);

/* BEGIN:VTIMEZONE .. END:VTIMEZONE of zone z, TZID tzid, covering the
** instants from_s .. to_s (seconds). */
void ical_vtimezone(ical_writer *w, const tz_zone *z, const char *tzid,
                    int64_t from_s, int64_t to_s);

#endif
