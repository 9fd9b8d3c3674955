/*
** rrule_int.h -- what the rrule_*.c files share (rrule.h is the API).
**
** A rule is expanded for one DTSTART in an rrule_exp: the rule's parts with
** python-dateutil's defaults from DTSTART filled in, the set of times of a
** day, and the state of COUNT. Every time here is wall-clock time: seconds
** of local time encoded as if it were UTC ("walls", civil.h); days are
** days since 1970-01-01; weekdays are 0 = MO .. 6 = SU.
**
**   rrule_days.c    which days of a month / year the day parts select
**                   (BYMONTH, BYMONTHDAY with SKIP, BYDAY, BYYEARDAY,
**                   BYWEEKNO as dateutil numbers weeks);
**   rrule_expand.c  times of day, periods (YEARLY..WEEKLY), days
**                   (DAILY and finer), BYSETPOS, COUNT: the first wall of
**                   the expansion at or after a given wall.
*/
#ifndef TRIGGERS_RRULE_INT_H
#define TRIGGERS_RRULE_INT_H

#include <stdint.h>

#include "time/civil.h"
#include "time/rrule.h"

#define RRULE_SEL_MAX 732 /* BYSETPOS picks: 366 positive + 366 negative */
#define RRULE_WALL_MAX 253402300799LL /* 9999-12-31T23:59:59 */
#define RRULE_DAY_MAX 2932896         /* 9999-12-31 */
/* Work units one rrule_exp_next call may spend (a unit is a few dozen
** operations): what stops a rule whose next occurrence is far away, or
** that never occurs, from searching without end. docs/calendar.md. */
#define RRULE_BUDGET 1000000L

/* The times of one day. */
enum { TIMES_PRODUCT, TIMES_HOURS_LIST, TIMES_LIST };
typedef struct rrule_times {
  int kind;
  uint32_t hours;               /* PRODUCT, HOURS_LIST: bit h */
  uint64_t minutes, seconds;    /* PRODUCT */
  int n;                        /* HOURS_LIST, LIST: entries of list */
  uint32_t list[RRULE_SEL_MAX]; /* ascending: second of the hour
                                ** (HOURS_LIST) or of the day (LIST) */
  int64_t per_day;              /* times in a day */
} rrule_times;

typedef struct rrule_exp {
  const rrule_rule *r;
  int freq, interval;
  int64_t dtstart, d0; /* DTSTART wall, its day */
  int y0, m0, dd0, h0, mi0, s0, wd0;
  int64_t until_wall; /* walls after it are not occurrences (INT64_MAX) */
  int64_t until_utc;  /* instants after it are not (INT64_MAX) */
  /* Day parts with dateutil's defaults (rrule_days.c). */
  uint16_t months;           /* 0: any month */
  uint32_t mdays, mdays_neg; /* both 0: any day of the month */
  uint8_t wdays;             /* plain BYDAY, 0: any weekday */
  int ord_month;             /* ordinal BYDAY counted within months */
  int ord_year;              /* ordinal BYDAY counted within the year */
  /* Times. */
  rrule_times t;
  int general;               /* sub-daily whose times depend on the day */
  uint32_t hfilter;          /* general: BYHOUR (all hours if none) */
  uint64_t mfilter, sfilter; /* general: BYMINUTE, BYSECOND filters */
  int64_t unit0;             /* general: wall of DTSTART's first unit */
  int setpos;                /* BYSETPOS given */
  /* COUNT. */
  int64_t count; /* 0: none */
  int64_t cnt_total;
  int64_t cnt_next; /* first period (or day) not yet counted */
  int cnt_done;     /* the COUNT-th occurrence is known: until_wall */
  long budget;
} rrule_exp;

/* ---- rrule_days.c ---- */

static inline int rrule_weekday(int64_t day) {
  return (int)civil_floor_mod(day + 3, 7); /* 1970-01-01 was a Thursday */
}

/*
** Days (bit d, 1..dim) of month m of year y that the day parts select,
** judged within the month: BYMONTH, BYMONTHDAY (SKIP=BACKWARD puts a day
** past the end on the last day), plain BYDAY, ordinal BYDAY counted in
** the month, BYYEARDAY. *spill is set when SKIP=FORWARD moves a day past
** the end to the next month's first day and that day passes the same
** weekday and year-day tests.
*/
uint32_t rrule_month_days(const rrule_exp *x, int y, int m, int *spill);

/* Days of year y (bit i: day-of-year i, from 0) that the day parts select
** for FREQ=YEARLY (months, then BYWEEKNO and year-wide ordinals). */
void rrule_year_days(const rrule_exp *x, int y, uint64_t out[6]);

/* Days selected for DAILY and finer frequencies in month m of year y:
** rrule_month_days plus the first day when the month before spills. */
uint32_t rrule_day_filter(const rrule_exp *x, int y, int m);

/* ---- rrule_expand.c ---- */

/* Expand rule r from DTSTART dtstart (a wall within years 1..9999). */
void rrule_exp_init(rrule_exp *x, const rrule_rule *r, int64_t dtstart);

/* First wall >= w of the expansion (>= DTSTART, within UNTIL and COUNT):
** 1 and *out, 0 when there is none, -1 when the budget ran out first. */
int rrule_exp_next(rrule_exp *x, int64_t w, int64_t *out);

/* Bit helpers shared by both files. */
static inline int rrule_ctz(uint64_t m) { return __builtin_ctzll(m); }
static inline int rrule_popcount(uint64_t m) { return __builtin_popcountll(m); }

#endif
