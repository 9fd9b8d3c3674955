/*
** civil.h -- proleptic Gregorian calendar arithmetic and ISO-8601 text.
**
** Owns: days <-> (year, month, day), weekday, days-in-month, splitting a
** millisecond count into wall-clock fields and back, parsing and
** formatting ISO-8601 instants. Pure: no clock, no files, no allocation,
** no libc time functions (never localtime/mktime/timegm/TZ).
**
** A "local ms" is a wall-clock time encoded as if it were UTC: milliseconds
** since 1970-01-01T00:00:00 of that wall clock. tz.h maps it to real UTC.
*/
#ifndef TRIGGERS_CIVIL_H
#define TRIGGERS_CIVIL_H

#include <stddef.h>
#include <stdint.h>

#define CIVIL_MS_PER_DAY 86400000LL

/* Limits of the instants we accept anywhere: years 0001..9999. */
#define CIVIL_MIN_YEAR 1
#define CIVIL_MAX_YEAR 9999

typedef struct civil_time {
  int year;   /* 1..9999 for valid input; arithmetic works beyond */
  int month;  /* 1..12 */
  int day;    /* 1..31 */
  int hour;   /* 0..23 */
  int minute; /* 0..59 */
  int second; /* 0..59 */
  int ms;     /* 0..999 */
} civil_time;

/* Floor division (rounds toward minus infinity, so negative ms and days
** work) and its matching remainder, 0 <= r < b for b > 0. In the header:
** the cron and calendar loops call them per step. */
static inline int64_t civil_floor_div(int64_t a, int64_t b) {
  int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) q--;
  return q;
}
static inline int64_t civil_floor_mod(int64_t a, int64_t b) {
  return a - civil_floor_div(a, b) * b;
}

int civil_is_leap(int64_t year);
int civil_days_in_month(int64_t year, int month);
/* Days since 1970-01-01 of a date (month and day already valid). */
int64_t civil_days_from_date(int64_t year, int month, int day);
void civil_date_from_days(int64_t days, int *year, int *month, int *day);
/* 0 = Sunday .. 6 = Saturday. */
int civil_weekday(int64_t days);

/* Wall-clock fields <-> ms (floor division: negative ms work). */
int64_t civil_to_ms(const civil_time *t);
void civil_from_ms(int64_t ms, civil_time *t);

/*
** Parse ISO-8601 text: YYYY-MM-DD, then optionally 'T' or ' ' and
** hh:mm[:ss[.fff...]], then optionally 'Z', '+hh:mm', '-hh:mm', '+hhmm' or
** '+hh' (offset hours 00-23, minutes 00-59; '+hh:mm:ss' is also read, as
** civil_format_iso writes it for offsets with seconds, such as LMT).
** Like RFC 3339, lower-case 't'
** and 'z' are accepted too. An offset needs a time; a bare date is
** midnight. Surrounding blanks are not allowed. Fractional digits beyond
** milliseconds are truncated. Every field is range-checked (day against
** the month's length). On success returns 0, fills *t, and sets *has_offset
** (1 when Z or an offset was given) and *offset_s (seconds east of UTC).
** On failure returns -1 and writes a message naming the problem, e.g.
** "month 13 is out of range 1-12" or "expected ':' at offset 13".
*/
int civil_parse_iso(const char *s, size_t n, civil_time *t, int *has_offset,
                    int32_t *offset_s, char *err, size_t errlen);

/*
** Format a UTC instant utc_ms seen at offset_s as ISO-8601:
** "2026-03-08T09:00:00Z" when is_utc, else "2026-03-08T10:00:00+01:00".
** Milliseconds are printed only when non-zero ("...:00.250Z"); an offset
** with seconds prints them ("+00:53:28"), so the text stays exact.
** buf must hold CIVIL_ISO_MAX bytes. Returns the length written.
*/
#define CIVIL_ISO_MAX 40
int civil_format_iso(int64_t utc_ms, int32_t offset_s, int is_utc, char *buf);

#endif
