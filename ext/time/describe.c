/*
** describe.c -- a schedule in plain English (trigger_describe). See
** describe.h for what it promises.
**
** Owns: reading each cron field's bit set as a shape (every value, one
** value, a step from the start "*\/n", a step with an offset "a/n", a
** stepped range, a range, a list of values and ranges) and the phrase for
** each shape, field by field, in cronstrue's order: time of day, day of
** month, day of week, month. Then intervals, once instants, bounds and
** the zone. Output goes to a caller's buffer through the bounded writer of
** describe_words.c.
*/
#include "time/describe.h"
#include "time/describe_int.h"

#include <stdio.h>
#include <string.h>

#include "text/ascii.h"
#include "text/coverage.h"
#include "time/civil.h"

/* ---- fields as shapes ---------------------------------------------------- */

typedef enum shape {
  SH_ALL,   /* every value of the field */
  SH_ONE,   /* one value */
  SH_EVERY, /* lo, lo+n, lo+2n, ... to the end: "*\/n" */
  SH_START, /* a, a+n, ... to the end, a - lo < n: "a/n" */
  SH_STEPS, /* a, a+n, ..., b, stopping short of the end: "a-b/n" */
  SH_RUN,   /* a..b, at least 3 values: "a-b" */
  SH_LIST   /* anything else: values and runs */
} shape;

typedef struct field {
  uint64_t bits;
  int lo, hi;
  shape sh;
  int first, last, step, count;
} field;

static int has(uint64_t bits, int v) { return (int)(bits >> v & 1); }

static int count_bits(uint64_t bits) {
  int n = 0;
  for (; bits; bits &= bits - 1) n++;
  return n;
}

/* min_every: the fewest values read as a step from the start (hours want
** 3: "0,12" reads better as two times than as "every 12 hours"). */
static void analyze(field *f, uint64_t bits, int lo, int hi, int min_every) {
  int v, prev = -1, uniform = 1;
  memset(f, 0, sizeof *f);
  f->bits = bits;
  f->lo = lo;
  f->hi = hi;
  f->first = f->last = -1;
  for (v = lo; v <= hi; v++) {
    if (!has(bits, v)) continue;
    if (f->first < 0) f->first = v;
    else if (f->step == 0) f->step = v - prev;
    else if (v - prev != f->step) uniform = 0;
    f->last = prev = v;
    f->count++;
  }
  if (f->count == hi - lo + 1) f->sh = SH_ALL;
  else if (f->count == 1) f->sh = SH_ONE;
  else if (uniform && f->step >= 2 && f->first == lo &&
           f->last + f->step > hi && f->count >= min_every)
    f->sh = SH_EVERY;
  else if (uniform && f->step >= 2 && f->first - lo < f->step &&
           f->last + f->step > hi && f->count >= 3)
    f->sh = SH_START;
  else if (uniform && f->step >= 2 && f->count >= 4) f->sh = SH_STEPS;
  else if (f->step == 1 && uniform && f->count >= 3) f->sh = SH_RUN;
  else f->sh = SH_LIST;
}

/* The values as items: runs of 3 or more as "a through b". fmt formats
** one value (a number, a day or month name). */
typedef void (*value_fmt)(char *out, size_t n, int v);

static void fmt_number(char *out, size_t n, int v) {
  snprintf(out, n, "%d", v);
}

static const char *const day_names[7] = {"Sunday",    "Monday",   "Tuesday",
                                         "Wednesday", "Thursday", "Friday",
                                         "Saturday"};

static void fmt_month(char *out, size_t n, int v) {
  snprintf(out, n, "%s", desc_month_names[v]);
}

static void fmt_day(char *out, size_t n, int v) {
  snprintf(out, n, "%s", day_names[v % 7]);
}

/* Items of the values lo..hi taken in order from `start`, wrapping
** (day-of-week: "Friday through Sunday"); no wrap when start == lo. */
static void value_items(items *it, uint64_t bits, int lo, int hi, int start,
                        value_fmt fmt) {
  int span = hi - lo + 1, k = 0;
  char a[48], b[48];
  while (k < span) {
    int v = lo + (start - lo + k) % span;
    if (!has(bits, v)) {
      k++;
      continue;
    }
    int len = 1;
    while (k + len < span && has(bits, lo + (start - lo + k + len) % span))
      len++;
    int last = lo + (start - lo + k + len - 1) % span;
    fmt(a, sizeof a, v);
    if (len >= 3) {
      fmt(b, sizeof b, last);
      desc_item_add(it, "%s through %s", a, b);
    } else {
      desc_item_add(it, "%s", a);
      if (len == 2) {
        fmt(b, sizeof b, last);
        desc_item_add(it, "%s", b);
      }
    }
    k += len;
  }
}

static const char *plural(int v) { return v == 1 ? "" : "s"; }

/* ---- time of day --------------------------------------------------------- */

static void put_time(wbuf *w, int h, int m, int s) {
  desc_putf(w, "%02d:%02d", h, m);
  if (s) desc_putf(w, ":%02d", s);
}

/* Seconds or minutes: unit "second"/"minute", of "minute"/"hour". */
static void put_sub(wbuf *w, const field *f, const char *unit, const char *of) {
  items it = {.n = 0};
  switch (f->sh) {
    case SH_ALL: desc_putf(w, "every %s", unit); break;
    case SH_ONE:
      desc_putf(w, "at %d %s%s past the %s", f->first, unit, plural(f->first),
                of);
      break;
    case SH_EVERY: desc_putf(w, "every %d %ss", f->step, unit); break;
    case SH_START:
      desc_putf(w, "every %d %ss, starting at %d %s%s past the %s", f->step,
                unit, f->first, unit, plural(f->first), of);
      break;
    case SH_STEPS:
      desc_putf(w, "every %d %ss, %ss %d through %d past the %s", f->step, unit,
                unit, f->first, f->last, of);
      break;
    case SH_RUN:
      desc_putf(w, "%ss %d through %d past the %s", unit, f->first, f->last,
                of);
      break;
    default: /* SH_LIST */
      value_items(&it, f->bits, f->lo, f->hi, f->lo, fmt_number);
      desc_put(w, "at ");
      desc_put_join(w, &it, 1);
      desc_putf(w, " %ss past the %s", unit, of);
      break;
  }
}

/* Each hour of the set at minute m, second s: "06:00, 12:00 and 18:00". */
static void put_hour_list(wbuf *w, uint64_t hours, int m, int s) {
  items it = {.n = 0};
  for (int h = 0; h < 24; h++) {
    if (!has(hours, h)) continue;
    desc_item_add(&it, s ? "%02d:%02d:%02d" : "%02d:%02d", h, m, s);
  }
  desc_put_join(w, &it, 0);
}

static void put_hours(wbuf *w, const field *f, int min_zero) {
  const char *end = min_zero ? "00" : "59";
  switch (f->sh) { /* not SH_ALL: the caller leaves "every hour" unsaid */
    case SH_ONE:
      if (min_zero) desc_putf(w, "at %02d:00", f->first);
      else desc_putf(w, "between %02d:00 and %02d:59", f->first, f->first);
      break;
    case SH_EVERY: desc_putf(w, "every %d hours", f->step); break;
    case SH_START:
      desc_putf(w, "every %d hours, starting at %02d:00", f->step, f->first);
      break;
    case SH_STEPS:
      desc_putf(w, "every %d hours, between %02d:00 and %02d:%s", f->step,
                f->first, f->last, end);
      break;
    case SH_RUN:
      desc_putf(w, "between %02d:00 and %02d:%s", f->first, f->last, end);
      break;
    default: /* SH_LIST (SH_ALL would list all 24) */
      desc_put(w, "at ");
      put_hour_list(w, f->bits, 0, 0);
      break;
  }
}

static void put_sep(wbuf *w, size_t *mark) {
  if (w->len > *mark) desc_put(w, ", ");
  *mark = w->len;
}

static void describe_time(wbuf *w, const cron_expr *c) {
  field S, M, H;
  analyze(&S, c->seconds, 0, 59, 2);
  analyze(&M, c->minutes, 0, 59, 2);
  analyze(&H, c->hours, 0, 23, 3);
  int sec_zero = c->seconds == 1, min_zero = c->minutes == 1;
  if (S.sh == SH_ONE && M.sh == SH_ONE && H.sh == SH_ONE) {
    desc_put(w, "at ");
    put_time(w, H.first, M.first, S.first);
    return;
  }
  if (S.sh == SH_ONE && M.sh == SH_ONE && H.sh == SH_LIST) {
    desc_put(w, "at ");
    put_hour_list(w, c->hours, M.first, S.first);
    return;
  }
  if (sec_zero && H.sh == SH_ONE && M.sh == SH_RUN) {
    desc_putf(w, "every minute between %02d:%02d and %02d:%02d", H.first,
              M.first, H.first, M.last);
    return;
  }
  size_t mark = w->len;
  if (!sec_zero) put_sub(w, &S, "second", "minute");
  if (min_zero) {
    if (H.sh == SH_ONE || H.sh == SH_LIST) {
      /* the hours say "at 09:00" */
    } else {
      put_sep(w, &mark);
      desc_put(w, sec_zero && (H.sh == SH_ALL || H.sh == SH_RUN)
                      ? "every hour"
                      : "on the hour");
    }
  } else if (M.sh != SH_ALL || sec_zero) {
    put_sep(w, &mark);
    put_sub(w, &M, "minute", "hour");
  }
  if (H.sh != SH_ALL) {
    put_sep(w, &mark);
    put_hours(w, &H, min_zero);
  }
}

/* ---- days and months ----------------------------------------------------- */

static void describe_dom(wbuf *w, const cron_expr *c) {
  field D;
  items it = {.n = 0};
  int specials = count_bits(c->dom_nearest_wd) + c->dom_last +
                 c->dom_last_weekday + count_bits(c->dom_last_minus);
  analyze(&D, c->dom, 1, 31, 2);
  if (c->dom == 0 && specials == 1) {
    for (int d = 1; d <= 31; d++) {
      if (!has(c->dom_nearest_wd, d)) continue;
      if (d == 1) desc_put(w, "on the first weekday of the month");
      else desc_putf(w, "on the weekday nearest day %d of the month", d);
    }
    if (c->dom_last) desc_put(w, "on the last day of the month");
    if (c->dom_last_weekday) desc_put(w, "on the last weekday of the month");
    for (int k = 1; k <= 30; k++) {
      if (has(c->dom_last_minus, k))
        desc_putf(w, "%d day%s before the last day of the month", k, plural(k));
    }
    return;
  }
  if (specials == 0) {
    switch (D.sh) { /* not SH_ALL: that is day_any, never asked */
      case SH_ONE: desc_putf(w, "on day %d of the month", D.first); return;
      case SH_EVERY: desc_putf(w, "every %d days in a month", D.step); return;
      case SH_START:
        desc_putf(w,
                  "every %d days in a month, starting on day %d of the month",
                  D.step, D.first);
        return;
      case SH_STEPS:
        desc_putf(
            w, "every %d days in a month, between day %d and %d of the month",
            D.step, D.first, D.last);
        return;
      case SH_RUN:
        desc_putf(w, "between day %d and %d of the month", D.first, D.last);
        return;
      default: break; /* SH_LIST (SH_ALL would list all 31) */
    }
  }
  /* values, then the special days, as one list */
  value_items(&it, c->dom, 1, 31, 1, fmt_number);
  int numbers = it.n;
  for (int d = 1; d <= 31; d++)
    if (has(c->dom_nearest_wd, d))
      desc_item_add(&it, "the weekday nearest day %d", d);
  if (c->dom_last) desc_item_add(&it, "the last day");
  if (c->dom_last_weekday) desc_item_add(&it, "the last weekday");
  for (int k = 1; k <= 30; k++) {
    if (has(c->dom_last_minus, k))
      desc_item_add(&it, "%d day%s before the last day", k, plural(k));
  }
  desc_put(w, numbers ? "on day " : "on ");
  desc_put_join(w, &it, 1);
  desc_put(w, " of the month");
}

/* Day of week. either: day-of-month is restricted too, so a day matches
** when either field does ("..., and on Monday"). */
static void describe_dow(wbuf *w, const cron_expr *c, int either) {
  items plain = {.n = 0}, special = {.n = 0};
  if (c->dow) {
    /* Sunday first, unless a run of 3 or more goes through Saturday into
    ** Sunday: then from its first day ("Friday through Sunday"). Never
    ** all seven days (they read as '*'), so each run is 6 days at most. */
    int start = 0, back = 0, fwd = 0;
    while (back < 6 && has(c->dow, 6 - back)) back++;
    while (fwd < 6 && has(c->dow, fwd)) fwd++;
    if (back && fwd && back + fwd >= 3) start = 7 - back;
    value_items(&plain, c->dow, 0, 6, start, fmt_day);
  }
  for (int d = 0; d < 7; d++) { /* by weekday: "5L,1#1" is Monday first */
    if (has(c->dow_last, d))
      desc_item_add(&special, "the last %s of the month", day_names[d]);
    for (int k = 1; k <= 5; k++)
      if (has(c->dow_nth[d], k))
        desc_item_add(&special, "the %s %s of the month", desc_ordinals[k],
                      day_names[d]);
  }
  int range = plain.n == 1 && strstr(plain.v[0], " through ");
  if (either) {
    desc_put(w, "and on ");
    if (plain.n) desc_put_join(w, &plain, 1);
  } else if (plain.n) {
    if (!range) desc_put(w, "only on ");
    desc_put_join(w, &plain, 1);
  }
  for (int k = 0; k < special.n; k++) {
    if (k > 0 || plain.n) desc_put(w, " and ");
    if (!either) desc_put(w, "on ");
    desc_put(w, special.v[k]);
  }
}

static void describe_months(wbuf *w, const cron_expr *c) {
  field F;
  items it = {.n = 0};
  analyze(&F, c->months, 1, 12, 2);
  switch (F.sh) { /* not SH_ALL: the caller leaves all months unsaid */
    case SH_ONE: desc_putf(w, "only in %s", desc_month_names[F.first]); break;
    case SH_EVERY: desc_putf(w, "every %d months", F.step); break;
    case SH_START:
    case SH_STEPS:
      desc_putf(w, "every %d months, %s through %s", F.step,
                desc_month_names[F.first], desc_month_names[F.last]);
      break;
    case SH_RUN:
      desc_putf(w, "%s through %s", desc_month_names[F.first],
                desc_month_names[F.last]);
      break;
    default: /* SH_LIST (SH_ALL would list all 12) */
      value_items(&it, c->months, 1, 12, 1, fmt_month);
      desc_put(w, "only in ");
      desc_put_join(w, &it, 1);
      break;
  }
}

static void cron_phrase(wbuf *w, const cron_expr *c) {
  size_t start = w->len;
  describe_time(w, c);
  if (!c->day_any && !c->dom_star) {
    desc_put(w, ", ");
    describe_dom(w, c);
  }
  if (!c->day_any && !c->dow_star) {
    desc_put(w, ", ");
    describe_dow(w, c, !c->dom_star);
  }
  if (c->months != 0x1FFE) {
    desc_put(w, ", ");
    describe_months(w, c);
  }
  /* every phrase starts with a lowercase word */
  if (!w->over && ALWAYS(w->len > start && ascii_is_lower(w->p[start])))
    w->p[start] = (char)(w->p[start] - 'a' + 'A');
}

int describe_cron(const cron_expr *c, char *buf, size_t n) {
  wbuf w = {buf, n, 0, 0};
  if (n) buf[0] = '\0';
  cron_phrase(&w, c);
  return w.over ? -1 : (int)w.len;
}

/* ---- whole schedules ----------------------------------------------------- */

/* An instant on the zone's wall clock: "2026-03-09" and "07:15" (with
** ":30" and ".250" when they are not zero). */
static void fmt_local(int64_t utc_ms, const tz_zone *z, char date[16],
                      char clock[24]) {
  int64_t s = civil_floor_div(utc_ms, 1000);
  civil_time t;
  civil_from_ms(utc_ms + (int64_t)tz_offset_at(z, s) * 1000, &t);
  snprintf(date, 16, "%04d-%02d-%02d", t.year, t.month, t.day);
  int k = snprintf(clock, 24, "%02d:%02d", t.hour, t.minute);
  if (t.second || t.ms)
    k += snprintf(clock + k, 24 - (size_t)k, ":%02d", t.second);
  if (t.ms) snprintf(clock + k, 24 - (size_t)k, ".%03d", t.ms);
}

static void put_local(wbuf *w, int64_t utc_ms, const tz_zone *z) {
  char date[16], clock[24];
  fmt_local(utc_ms, z, date, clock);
  desc_putf(w, "%s %s", date, clock);
}

static void put_interval(wbuf *w, int64_t ms) {
  static const struct {
    int64_t ms;
    const char *unit;
  } units[] = {{604800000, "week"}, {86400000, "day"}, {3600000, "hour"},
               {60000, "minute"},   {1000, "second"},  {1, "millisecond"}};
  for (size_t k = 0; k < sizeof units / sizeof units[0]; k++) {
    if (ms <= 0 || ms % units[k].ms != 0) continue;
    int64_t q = ms / units[k].ms;
    if (q == 1) desc_putf(w, "Every %s", units[k].unit);
    else desc_putf(w, "Every %lld %ss", (long long)q, units[k].unit);
    return;
  }
  desc_putf(w, "Every %lld milliseconds", (long long)ms);
}

int describe_schedule(const sched_spec *s, char *buf, size_t n) {
  wbuf w = {buf, n, 0, 0};
  const tz_zone *z = s->zone ? s->zone : tz_utc();
  int shows_time = 1;
  if (n) buf[0] = '\0';
  switch (s->type) {
    case SCHED_INTERVAL:
      put_interval(&w, s->interval_ms);
      shows_time = 0;
      break;
    case SCHED_ONCE: {
      char date[16], clock[24];
      fmt_local(s->scheduled_at, z, date, clock);
      desc_putf(&w, "Once on %s at %s", date, clock);
      break;
    }
    case SCHED_CRON: cron_phrase(&w, &s->cron); break;
    case SCHED_EVENT:
      desc_put(&w, "When '");
      desc_put(&w, s->event_key);
      desc_put(&w, "' is signalled");
      shows_time = 0;
      if (s->scheduled_at != SCHED_NONE) {
        desc_put(&w, ", or at ");
        put_local(&w, s->scheduled_at, z);
        desc_put(&w, " if not signalled by then");
        shows_time = 1;
      }
      break;
    case SCHED_RRULE:
      describe_rrule_set(&w, &s->rrule, s->dtstart, !s->dtstart_implied);
      break;
    default: desc_put(&w, "Never"); break;
  }
  if (s->cal_policy != SCHED_CAL_NONE) {
    static const char *const how[] = {"", ", except on",
                                      ", the business day before on",
                                      ", the business day after on"};
    desc_putf(&w, "%s '%s' holidays", how[s->cal_policy], s->cal_name);
  }
  if (s->start_at != SCHED_NONE) {
    desc_put(&w, ", from ");
    put_local(&w, s->start_at, z);
  }
  if (s->end_at != SCHED_NONE) {
    desc_put(&w, s->start_at != SCHED_NONE ? " until " : ", until ");
    put_local(&w, s->end_at, z);
  }
  if (s->start_at != SCHED_NONE || s->end_at != SCHED_NONE) shows_time = 1;
  if (shows_time && z != tz_utc()) {
    desc_put(&w, " (");
    desc_put(&w, tz_name(z));
    desc_put(&w, ")");
  }
  return w.over ? -1 : (int)w.len;
}
