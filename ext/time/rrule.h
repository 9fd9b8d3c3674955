/*
** rrule.h -- RFC 5545 recurrence sets (docs/calendar.md): compile the text
** of an RRULE (a bare RECUR value, or RRULE:, RDATE: and EXDATE: content
** lines) into a fixed-size struct, find the first occurrence strictly
** after an instant in an IANA zone, check that a set occurs at all, and
** print the canonical text (for dedupe keys).
**
** Pure: no SQLite, no clock, no globals, no allocation. DTSTART is not
** part of the text: callers pass it as a wall-clock time (civil.h: local
** time encoded as if it were UTC, whole seconds) with the zone.
**
** Files: rrule_parse.c (text -> rrule_set), rrule_expand.c (one rule in
** wall-clock time), rrule_next.c (wall time -> instants, RDATE/EXDATE, the
** API below), rrule_text.c (canonical text); rrule_int.h is what they
** share.
*/
#ifndef TRIGGERS_RRULE_H
#define TRIGGERS_RRULE_H

#include <stddef.h>
#include <stdint.h>

#include "time/tz.h"

#define RRULE_ERR_MAX 256
#define RRULE_MAX_RULES 8   /* RRULE lines in one set */
#define RRULE_MAX_DATES 256 /* RDATE values, and EXDATE values, per set */
#define RRULE_TZID_MAX 64   /* TZID= parameter of RDATE/EXDATE lines */
#define RRULE_INTERVAL_MAX 1000000
#define RRULE_COUNT_MAX 1000000000
#define RRULE_CANON_MAX 131072 /* always enough for rrule_canonical */

/* FREQ, coarsest first (python-dateutil's numbering). */
enum {
  RRULE_YEARLY = 0,
  RRULE_MONTHLY,
  RRULE_WEEKLY,
  RRULE_DAILY,
  RRULE_HOURLY,
  RRULE_MINUTELY,
  RRULE_SECONDLY
};

/* SKIP (RFC 7529): what a day past the end of a month becomes. */
enum { RRULE_SKIP_OMIT = 0, RRULE_SKIP_BACKWARD, RRULE_SKIP_FORWARD };

/* Kinds of UNTIL, RDATE and EXDATE values. */
enum {
  RRULE_NONE = 0,
  RRULE_DATE,  /* YYYYMMDD: value is days since 1970-01-01 */
  RRULE_LOCAL, /* YYYYMMDDTHHMMSS: value is wall-clock seconds */
  RRULE_UTC    /* YYYYMMDDTHHMMSSZ: value is UTC seconds */
};

/* Parts present in a rule (rrule_rule.parts). */
enum {
  RRULE_P_FREQ = 1 << 0,
  RRULE_P_INTERVAL = 1 << 1,
  RRULE_P_COUNT = 1 << 2,
  RRULE_P_UNTIL = 1 << 3,
  RRULE_P_BYSECOND = 1 << 4,
  RRULE_P_BYMINUTE = 1 << 5,
  RRULE_P_BYHOUR = 1 << 6,
  RRULE_P_BYDAY = 1 << 7,
  RRULE_P_BYMONTHDAY = 1 << 8,
  RRULE_P_BYYEARDAY = 1 << 9,
  RRULE_P_BYWEEKNO = 1 << 10,
  RRULE_P_BYMONTH = 1 << 11,
  RRULE_P_BYSETPOS = 1 << 12,
  RRULE_P_WKST = 1 << 13,
  RRULE_P_RSCALE = 1 << 14,
  RRULE_P_SKIP = 1 << 15
};

/* Values 1..366 as bits (bit v of word v / 64). */
typedef struct rrule_bits {
  uint64_t w[6];
} rrule_bits;

/*
** One compiled RRULE. Weekdays are 0 = MO .. 6 = SU. Signed lists keep
** positive values in one set and negative ones (by absolute value) in
** another. Treat as opaque outside ext/time/rrule*.c.
*/
typedef struct rrule_rule {
  uint8_t freq;       /* RRULE_YEARLY .. RRULE_SECONDLY */
  uint8_t wkst;       /* 0 = MO .. 6 = SU */
  uint8_t skip;       /* RRULE_SKIP_* */
  uint8_t until_kind; /* RRULE_NONE, RRULE_DATE, RRULE_LOCAL, RRULE_UTC */
  uint32_t parts;     /* RRULE_P_* given */
  int32_t interval;   /* 1..RRULE_INTERVAL_MAX */
  int64_t count;      /* 0: no COUNT */
  int64_t until;      /* see the kinds above */
  uint64_t bysecond;  /* bit s: 0..60 */
  uint64_t byminute;  /* bit m: 0..59 */
  uint32_t byhour;    /* bit h: 0..23 */
  uint16_t bymonth;   /* bit m: 1..12 */
  uint8_t byday;      /* plain weekdays: bit w */
  uint8_t byday_ord;  /* weekdays that have an ordinal: bit w */
  uint32_t bymonthday, bymonthday_neg;     /* bit d: d, -d (1..31) */
  uint64_t byweekno, byweekno_neg;         /* bit n: n, -n (1..53) */
  uint64_t byday_nth[7], byday_nth_neg[7]; /* [w] bit n: nW, -nW */
  rrule_bits byyearday, byyearday_neg;     /* 1..366 */
  rrule_bits bysetpos, bysetpos_neg;       /* 1..366 */
} rrule_rule;

typedef struct rrule_date {
  int64_t value; /* days, wall seconds or UTC seconds, by kind */
  int kind;      /* RRULE_DATE, RRULE_LOCAL, RRULE_UTC */
} rrule_date;

typedef struct rrule_set {
  int nrules, nrdates, nexdates;
  rrule_rule rules[RRULE_MAX_RULES];
  rrule_date rdates[RRULE_MAX_DATES];
  rrule_date exdates[RRULE_MAX_DATES];
  char tzid[RRULE_TZID_MAX]; /* "" when no RDATE/EXDATE line named one */
} rrule_set;

/*
** Compile text: a RECUR value ("FREQ=WEEKLY;BYDAY=TU") or content lines
** RRULE:, RDATE:, EXDATE: separated by newlines (CRLF and folded lines
** accepted; a DTSTART line is refused). Returns 0, or -1 with a message
** naming the part: "rrule: BYMONTHDAY=32 is out of range -31..31". With
** more than one line, messages about one line say which ("rrule: line 2:
** ..."). The rules of what is accepted are in docs/calendar.md.
*/
int rrule_compile(const char *text, rrule_set *out, char *err, size_t errlen);

/*
** First occurrence strictly after after_ms (UTC ms) of the set whose
** DTSTART is the wall-clock time dtstart (seconds) in zone z (NULL: UTC).
** Returns 1 and *out_ms (a whole second); 0 when there is none (the set
** has ended, or the next one would fall after 9999-12-31); -1 when the
** search gave up: its work is bounded (docs/calendar.md, Limits), and
** only an HOURLY, MINUTELY or SECONDLY rule whose INTERVAL does not divide
** a day can reach the bound. Callers treat -1 as an error, not as the end.
*/
int rrule_next(const rrule_set *s, int64_t dtstart, const tz_zone *z,
               int64_t after_ms, int64_t *out_ms);

/*
** Whether the set can be scheduled with this DTSTART and zone: 0, or -1
** and "rrule never occurs" (no occurrence at all), a message about a TZID
** parameter naming another zone than z, or one saying the search for the
** first occurrence gave up (rrule_next's -1).
*/
int rrule_check(const rrule_set *s, int64_t dtstart, const tz_zone *z,
                char *err, size_t errlen);

/* The wall-clock time (whole seconds) of instant utc_ms in zone z: the
** DTSTART of a trigger whose start_at is utc_ms. */
int64_t rrule_wall_of(const tz_zone *z, int64_t utc_ms);

/*
** Canonical text (rrule_text.c says the format): sets that compile from
** different spellings of the same rule print the same bytes, and the text
** compiles back to an equal set. Returns the length, or -1 when buf is too
** small (RRULE_CANON_MAX always suffices).
*/
int rrule_canonical(const rrule_set *s, char *buf, size_t n);

#endif
