/*
** schedule_calendar.c -- holidays applied to a cron or rrule schedule
** (docs/calendar.md#holidays-and-business-days): the first occurrence after
** an instant once the calendar's days are taken into account, by the
** trigger's calendar_policy:
**   skip                   an occurrence on a calendar day is none;
**   previous_business_day  it moves to the nearest business day before, at
**   next_business_day      (after) the same wall-clock time;
** a business day is one of business_days that is not a calendar day. An
** occurrence moved onto another one is one occurrence. Days are local
** dates in the schedule's zone; the calendar is a sorted array the caller
** loaded (no SQLite here).
*/
#include <stdio.h>
#include <string.h>

#include "text/ascii.h"
#include "time/civil.h"
#include "time/schedule.h"

/* Raw occurrences looked at for one answer: a minutely rule across a
** fortnight of holidays stays well inside it. */
#define CAL_SCAN_MAX 100000
/* Days looked at for a business day (a calendar of a whole year is none). */
#define CAL_REACH 366

static const char *const policy_names[] = {"", "skip", "previous_business_day",
                                           "next_business_day"};

int sched_cal_policy_parse(const char *s) {
  for (int p = SCHED_CAL_SKIP; s && p <= SCHED_CAL_NEXT; p++) {
    if (strcmp(s, policy_names[p]) == 0) return p;
  }
  return SCHED_CAL_NONE;
}

const char *sched_cal_policy_name(int policy) {
  return policy >= SCHED_CAL_SKIP && policy <= SCHED_CAL_NEXT
             ? policy_names[policy]
             : "none";
}

int sched_cal_name_ok(const char *name) {
  size_t n = strlen(name);
  return n > 0 && n < SCHED_CAL_NAME_MAX && strspn(name, " \t\r\n") < n;
}

int sched_business_days_parse(const char *text, uint8_t *bits) {
  static const char days[7][3] = {"MO", "TU", "WE", "TH", "FR", "SA", "SU"};
  const char *p = text;
  *bits = 0;
  for (;;) {
    while (*p == ' ' || *p == '\t') p++;
    int d = 0;
    while (d < 7 && !(ascii_to_upper(p[0]) == days[d][0] &&
                      ascii_to_upper(p[1]) == days[d][1]))
      d++;
    if (d == 7 || (*bits >> d & 1)) return -1;
    *bits |= (uint8_t)(1u << d);
    p += 2;
    while (*p == ' ' || *p == '\t') p++;
    if (*p == 0) return 0;
    if (*p++ != ',') return -1;
  }
}

/* ---- days -------------------------------------------------------------- */

static int64_t local_day(const sched_spec *s, int64_t t) {
  return civil_floor_div(rrule_wall_of(s->zone, t), 86400);
}

static int is_cal_day(const sched_spec *s, int64_t day) {
  int lo = 0, hi = s->ncal - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    if (s->cal_days[mid] == day) return 1;
    if (s->cal_days[mid] < day) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0;
}

static int is_business(const sched_spec *s, int64_t day) {
  int wd = (civil_weekday(day) + 6) % 7; /* 0 = Monday */
  return (s->business_days >> wd & 1) && !is_cal_day(s, day);
}

/* The instant of wall-clock seconds `wall` (gaps move forward, a repeated
** time takes its first pass: docs/time.md), keeping t's milliseconds. */
static int64_t at_wall(const sched_spec *s, int64_t wall, int64_t t) {
  return tz_local_to_utc(s->zone, wall) * 1000 + civil_floor_mod(t, 1000);
}

/* Where occurrence t runs: itself off the calendar; on a calendar day,
** none (skip) or the same wall-clock time on the nearest business day
** before or after. 0 when it runs nowhere. */
static int moved(const sched_spec *s, int64_t t, int64_t *out) {
  int64_t day = local_day(s, t);
  if (!is_cal_day(s, day)) {
    *out = t;
    return 1;
  }
  if (s->cal_policy == SCHED_CAL_SKIP) return 0;
  int step = s->cal_policy == SCHED_CAL_PREVIOUS ? -1 : 1;
  for (int k = 1; k <= CAL_REACH; k++) {
    if (is_business(s, day + step * k)) {
      *out = at_wall(s, rrule_wall_of(s->zone, t) + step * k * 86400LL, t);
      return 1;
    }
  }
  return 0;
}

/* The last ms of local day `day`. */
static int64_t day_end(const sched_spec *s, int64_t day) {
  return tz_local_to_utc(s->zone, (day + 1) * 86400) * 1000 - 1;
}

/* The ms before local day `day` begins. */
static int64_t before_day(const sched_spec *s, int64_t day) {
  return tz_local_to_utc(s->zone, day * 86400) * 1000 - 1;
}

/* ---- the next occurrence ----------------------------------------------- */

/* skip: the first occurrence after `after` off the calendar, jumping past
** each calendar day it meets. */
static int next_skipping(const sched_spec *s, int64_t after, int64_t *out,
                         sched_next_fn next) {
  int64_t from = after, t;
  for (int n = 0; n < CAL_SCAN_MAX && next(s, from, &t); n++) {
    int64_t day = local_day(s, t);
    if (!is_cal_day(s, day)) {
      *out = t;
      return 1;
    }
    from = day_end(s, day);
    if (from < t) from = t;
  }
  return 0;
}

/*
** previous_business_day: an occurrence moves back, never forward, so the
** answer comes from an occurrence after `after`; once one on a day off the
** calendar is past the best answer's day, every later one moves to that
** day or later. next_business_day: one moves forward, so occurrences of
** the calendar days (and days off) just before `after` may land after it;
** the walk starts at the first day of that run and stops at the first
** occurrence past the best answer.
*/
static int next_moving(const sched_spec *s, int64_t after, int64_t *out,
                       sched_next_fn next) {
  int64_t from = after, t, m, best = 0;
  int have = 0;
  if (s->cal_policy == SCHED_CAL_NEXT) {
    int64_t day = local_day(s, after);
    for (int k = 0; k < CAL_REACH && !is_business(s, day - 1); k++) day--;
    int64_t start = before_day(s, day);
    if (start < from) from = start;
  }
  for (int n = 0; n < CAL_SCAN_MAX && next(s, from, &t); n++) {
    if (have && s->cal_policy == SCHED_CAL_NEXT && t > best) break;
    if (have && s->cal_policy == SCHED_CAL_PREVIOUS &&
        !is_cal_day(s, local_day(s, t)) && local_day(s, t) > local_day(s, best))
      break;
    if (moved(s, t, &m) && m > after && (!have || m < best)) {
      best = m;
      have = 1;
    }
    from = t;
  }
  if (have) *out = best;
  return have;
}

int sched_calendar_next(const sched_spec *s, int64_t after, int64_t *out,
                        sched_next_fn next) {
  if (s->cal_policy == SCHED_CAL_SKIP)
    return next_skipping(s, after, out, next);
  return next_moving(s, after, out, next);
}
