/*
** when_resolve.c -- a parsed time phrase (when_int.h's when_form) resolved
** against `now` in a zone: the due instant, the cron line or interval, and
** the confidence (docs/when.md: the resolution rules, the confidence table,
** the recurring table).
**
** Calendar words use the zone's local date; clock times are its wall clock
** (a time in a DST gap moves forward by the gap, a repeated time takes the
** first pass); months move the calendar and clamp the day (R2); everything
** else is exact elapsed time (R1). A clock time without am/pm is read by
** when_clock_hour: with the part of the day the phrase names, or the hints
** the words around it give (when_find), or the 24-hour reading where no one
** would mean the other half of the day; otherwise it is refused, and the
** reason asks for am or pm. Confidence is the minimum over the constructs
** used, kept as integer hundredths so the table values are exact.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "time/cron.h"
#include "time/when_int.h"

typedef struct when_ctx {
  const tz_zone *zone;
  int64_t now;     /* UTC ms */
  int64_t today;   /* local days since 1970-01-01 */
  int64_t now_sod; /* local ms since local midnight */
  civil_time local;
  int today_wd; /* 0 = Sunday */
  int conf;     /* hundredths */
  const when_hints *hints;
  when_result *out;
} when_ctx;

static void cap(when_ctx *c, int v) {
  if (v < c->conf) c->conf = v;
}

static void add_tag(const char **tags, int *n, const char *tag) {
  for (int i = 0; i < *n; i++)
    if (strcmp(tags[i], tag) == 0) return;
  if (*n < WHEN_TAGS_MAX) tags[(*n)++] = tag;
}

static void flag(when_ctx *c, const char *f) {
  add_tag(c->out->flags, &c->out->n_flags, f);
}

static void implied(when_ctx *c, const char *what) {
  add_tag(c->out->implied, &c->out->n_implied, what);
}

static int reject(when_ctx *c, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
static int reject(when_ctx *c, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(c->out->reason, sizeof c->out->reason, fmt, ap);
  va_end(ap);
  return -1;
}

static void iso_in_zone(const when_ctx *c, int64_t ms, char *buf) {
  int32_t off = tz_offset_at(c->zone, civil_floor_div(ms, 1000));
  civil_format_iso(ms, off, c->zone == tz_utc(), buf);
}

static int64_t max_instant(void) {
  return civil_days_from_date(CIVIL_MAX_YEAR + 1, 1, 1) * WHEN_DAY_MS - 1;
}

/* ---- clock times without am/pm --------------------------------------------- */

/* Does hour h (0-23) fall in the part of the day? */
static int part_fits(int part, int h) {
  switch (part) {
    case P_MORNING: return h >= 4 && h < 12;
    case P_AFTERNOON: return h >= 12 && h <= 18;
    case P_EVENING: return h >= 16;
    case P_NIGHT: return h >= 18 || h <= 5;
    case P_LUNCH: return h >= 11 && h <= 14;
    default: return 1;
  }
}

/* An hour 1-12 without am/pm, read with the part of the day; -1 when the
** part does not say. Night hours after midnight are 24 + h. */
static int hour_in_part(int part, int h) {
  switch (part) {
    case P_MORNING: return h <= 11 ? h : -1;
    case P_AFTERNOON: return h == 12 ? 12 : h <= 6 ? h + 12 : -1;
    case P_EVENING: return h >= 4 && h <= 11 ? h + 12 : -1;
    case P_NIGHT: return h >= 6 && h <= 11 ? h + 12 : -1;
    case P_LUNCH: return h >= 11 ? h : h <= 2 ? h + 12 : -1;
    default: return -1;
  }
}

/* An hour 1-12 without am/pm read with the hints; -1 when they say none. */
static int hour_by_hint(const when_hints *hints, int h) {
  switch (hints ? hints->meridiem : HINT_NONE) {
    case HINT_PM: return h == 12 ? 12 : h + 12;
    case HINT_AM: return h == 12 ? -1 : h;
    case HINT_DAYTIME: return h >= 7 ? h : h + 12;
    default: return -1;
  }
}

static void clock_text(const clock_spec *k, char *buf, size_t n) {
  if (k->kind == CLK_BARE) snprintf(buf, n, "at %d", k->h);
  else snprintf(buf, n, "%d:%02d", k->h, k->m);
}

int when_clock_hour(const clock_spec *k, int part, const when_hints *hints,
                    int *conf, char *why, size_t n) {
  char said[24];
  int h = k->h, r;
  *conf = 100;
  if (k->kind == CLK_NOON) {
    if (part != P_NONE && !part_fits(part, 12)) goto conflict;
    return 12;
  }
  if (k->kind == CLK_MIDNIGHT) {
    if (part == P_NIGHT) return 24; /* "midnight tonight": the coming one */
    if (part != P_NONE) goto conflict;
    return 0;
  }
  if (k->ampm) {
    h = h % 12 + (k->ampm == 2 ? 12 : 0);
    if (!part_fits(part, h)) goto conflict;
    return part == P_NIGHT && h <= 5 ? h + 24 : h;
  }
  if (k->two_digit || h >= 13 || h == 0) { /* the 24-hour clock */
    if (!part_fits(part, h)) goto conflict;
    if (k->kind == CLK_BARE) *conf = 90;
    return part == P_NIGHT && h <= 5 ? h + 24 : h;
  }
  clock_text(k, said, sizeof said);
  if (part != P_NONE) {
    if ((r = hour_in_part(part, h)) >= 0) return r;
    if (part == P_NIGHT && h == 12)
      snprintf(why, n, "'%s' at night: midnight or noon? say 'midnight'", said);
    else if (part == P_NIGHT)
      snprintf(why, n, "'%s' at night is after midnight: say %dam to mean it",
               said, h);
    else goto conflict;
    return -1;
  }
  /* "half past 4", "9 o'clock": said in words, read like a bare hour */
  int bare = k->kind == CLK_BARE || k->said_words;
  if ((r = hour_by_hint(hints, h)) >= 0) {
    if (!bare && r == h && h >= 7) return h; /* the hint agrees with 24h */
    *conf = bare ? 80 : 90;
    return r;
  }
  if (!bare && h >= 7) return h; /* "10:30": office hours */
  if (bare && h >= 9) {
    *conf = 60; /* "at 10": the 24-hour reading, and the likely one */
    return h;
  }
  if (k->kind == CLK_BARE)
    snprintf(why, n, "'%s' has no am/pm: say %dam or %dpm", said, h, h);
  else if (k->said_words)
    snprintf(why, n, "%d:%02d has no am/pm: say %d:%02dam or %d:%02dpm", h,
             k->m, h, k->m, h, k->m);
  else
    snprintf(why, n, "'%s' has no am/pm: say %d:%02dam or %d:%02dpm", said, h,
             k->m, h, k->m);
  return -1;
conflict:
  if (k->ampm) h = k->h % 12 + (k->ampm == 2 ? 12 : 0);
  snprintf(why, n, "%02d:%02d is not in the %s", h, k->m, when_part_name(part));
  return -1;
}

/* ---- wall clock -> instant ------------------------------------------------- */

/* Day of the month of the n-th (n > 0) or last (n = 0) Sunday. */
static int sunday_of(int y, int m, int nth) {
  int dim = civil_days_in_month(y, m);
  if (nth == 0) {
    int64_t last = civil_days_from_date(y, m, dim);
    return dim - civil_weekday(last);
  }
  int64_t first = civil_days_from_date(y, m, 1);
  int wd = civil_weekday(first);
  return 1 + (7 - wd) % 7 + 7 * (nth - 1);
}

/* Is the wall time (local days, ms of day) in summer time, by the rule of a
** named zone: US (2nd Sunday of March 02:00 to 1st Sunday of November
** 02:00) or EU (last Sunday of March to last Sunday of October, 01:00 UTC)? */
static int rule_dst(const zone_spec *z, int64_t days, int64_t sod) {
  int y, m, d, start_m, end_m, sd, ed;
  int64_t start_h, end_h;
  civil_date_from_days(days, &y, &m, &d);
  if (z->rule == Z_US) {
    start_m = 3, end_m = 11, sd = sunday_of(y, 3, 2), ed = sunday_of(y, 11, 1);
    start_h = 2, end_h = 1;
  } else {
    start_m = 3, end_m = 10, sd = sunday_of(y, 3, 0), ed = sunday_of(y, 10, 0);
    start_h = 1 + z->off_min / 60, end_h = 1 + z->off_min / 60;
  }
  if (m > start_m && m < end_m) return 1;
  if (m == start_m)
    return d > sd || (d == sd && sod >= (start_h + 1) * WHEN_HOUR_MS);
  if (m == end_m)
    return d < ed || (d == ed && sod < (end_h + 1) * WHEN_HOUR_MS);
  return 0;
}

enum { ADJ_NONE, ADJ_GAP, ADJ_REPEATED };

/* Wall clock (local days + ms of day) -> UTC ms: R9 in the zone, or the
** named zone (R10). *adj tells what R9 had to do. */
static int64_t wall_to_utc(const when_ctx *c, int64_t days, int64_t sod,
                           const zone_spec *z, int *adj) {
  int64_t local = days * WHEN_DAY_MS + sod;
  *adj = ADJ_NONE;
  if (z && z->has) {
    int off = z->off_min;
    if (z->rule != Z_FIXED && rule_dst(z, days, sod)) off += 60;
    return local - (int64_t)off * WHEN_MIN_MS;
  }
  int64_t s = civil_floor_div(local, 1000), rem = local - s * 1000;
  tz_local r;
  tz_local_lookup(c->zone, s, &r);
  if (r.count == 1) return r.utc[0] * 1000 + rem;
  if (r.count == 2) {
    *adj = ADJ_REPEATED;
    return r.utc[0] * 1000 + rem;
  }
  *adj = ADJ_GAP;
  return (s - r.off_before) * 1000 + rem;
}

/* Record what R9 did for the instant finally chosen (caps at 0.70). */
static void note_adjust(when_ctx *c, int adj) {
  if (adj == ADJ_GAP) flag(c, "dst_shifted");
  if (adj == ADJ_REPEATED) flag(c, "dst_repeated");
  if (adj != ADJ_NONE) cap(c, 70);
}

/* R11: the final instant must be >= now and within year 9999. */
static int finish_once(when_ctx *c, int64_t due) {
  char a[CIVIL_ISO_MAX], b[CIVIL_ISO_MAX];
  if (due > max_instant())
    return reject(c, "too far in the future: after 9999-12-31");
  if (due < c->now) {
    iso_in_zone(c, due, a);
    iso_in_zone(c, c->now, b);
    return reject(c, "in the past: resolves to %s, before now (%s)", a, b);
  }
  c->out->kind = WHEN_ONCE;
  c->out->due_at = due;
  return 0;
}

/* R2: add months to a local date, clamping the day. */
static int64_t add_months_days(when_ctx *c, int64_t days, int months, int *ok) {
  int y, m, d;
  civil_date_from_days(days, &y, &m, &d);
  int64_t total = (int64_t)y * 12 + (m - 1) + months;
  *ok = total / 12 <= CIVIL_MAX_YEAR;
  if (!*ok) return 0;
  y = (int)(total / 12), m = (int)(total % 12) + 1;
  int dim = civil_days_in_month(y, m);
  if (d > dim) {
    d = dim;
    flag(c, "month_clamped");
  }
  return civil_days_from_date(y, m, d);
}

/* ---- resolving once forms ------------------------------------------------ */

static int resolve_duration(when_ctx *c, const duration *d) {
  int64_t due = c->now;
  int ok, adj;
  cap(c, d->marker ? 95 : 85);
  if (d->calendar) cap(c, 90);
  if (d->months > 0) {
    int64_t days = add_months_days(c, c->today, d->months, &ok);
    if (!ok) return reject(c, "too far in the future: after 9999-12-31");
    due = wall_to_utc(c, days, c->now_sod, NULL, &adj);
    note_adjust(c, adj);
  }
  return finish_once(c, due + d->ms);
}

static int resolve_end_of(when_ctx *c, int unit) {
  int64_t day = c->today;
  int y = c->local.year, m = c->local.month, adj;
  if (unit == U_WEEK) day = c->today + (7 - c->today_wd) % 7; /* Sunday */
  if (unit == U_MONTH)
    day = civil_days_from_date(y, m, civil_days_in_month(y, m));
  if (unit == U_YEAR) day = civil_days_from_date(y, 12, 31);
  int64_t due =
      wall_to_utc(c, day, 23 * WHEN_HOUR_MS + 59 * WHEN_MIN_MS, NULL, &adj);
  cap(c, 70);
  implied(c, "time");
  note_adjust(c, adj);
  return finish_once(c, due);
}

static int resolve_next_unit(when_ctx *c, int unit) {
  duration d;
  memset(&d, 0, sizeof d);
  cap(c, 70);
  if (unit == U_WEEK) return finish_once(c, c->now + 7 * WHEN_DAY_MS);
  d.marker = 1, d.calendar = 1, d.months = unit == U_YEAR ? 12 : 1;
  return resolve_duration(c, &d);
}

/* First of days d0, d0 + step, ... (up to two tries) at sod >= now. */
static void first_ahead(when_ctx *c, int64_t d0, int64_t step, int64_t sod,
                        const zone_spec *z, int64_t *due) {
  int adj;
  *due = wall_to_utc(c, d0, sod, z, &adj);
  if (*due < c->now) {
    *due = wall_to_utc(c, d0 + step, sod, z, &adj);
    flag(c, "rolled_forward");
  }
  note_adjust(c, adj);
}

/* R6 without a year: this year's if ahead, else next year's. */
static int resolve_date_no_year(when_ctx *c, const day_spec *d, int64_t sod,
                                const zone_spec *z, int64_t *due) {
  int y = c->local.year, adj;
  implied(c, "year");
  for (int k = 0; k < 2; k++, y++) {
    if (d->dom > civil_days_in_month(y, d->month)) {
      int ahead = d->month > c->local.month ||
                  (d->month == c->local.month && d->dom >= c->local.day);
      if (k == 0 && !ahead) continue;
      return reject(c, "%s %d does not exist in %d (not a leap year)",
                    when_month_full[d->month], d->dom, y);
    }
    *due =
        wall_to_utc(c, civil_days_from_date(y, d->month, d->dom), sod, z, &adj);
    if (*due >= c->now) {
      if (k) flag(c, "rolled_forward");
      note_adjust(c, adj);
      return 0;
    }
  }
  return reject(c, "%s %d is not ahead of now", when_month_full[d->month],
                d->dom);
}

/* R6 "the 15th": this month's if ahead, else the next month having it. */
static int resolve_dom(when_ctx *c, int dom, int64_t sod, const zone_spec *z,
                       int64_t *due) {
  int y = c->local.year, m = c->local.month, adj;
  implied(c, "month");
  implied(c, "year");
  for (int k = 0; k < 14; k++) {
    if (dom <= civil_days_in_month(y, m)) {
      *due = wall_to_utc(c, civil_days_from_date(y, m, dom), sod, z, &adj);
      if (*due >= c->now) {
        if (k) flag(c, "rolled_forward");
        note_adjust(c, adj);
        return 0;
      }
    }
    if (++m > 12) m = 1, y++;
  }
  return reject(c, "day %d does not come again", dom);
}

/* R5: the weekday in the next Monday-start week. */
static int64_t next_week_day(const when_ctx *c, int wd, int *ambiguous) {
  int64_t monday = c->today - (c->today_wd + 6) % 7;
  int64_t r5 = monday + 7 + (wd + 6) % 7;
  int k = (wd - c->today_wd + 7) % 7;
  int64_t gnu = c->today + (k ? k : 7);
  *ambiguous = r5 != gnu;
  return r5;
}

static const char *const weekday_full[] = {"sunday",    "monday",   "tuesday",
                                           "wednesday", "thursday", "friday",
                                           "saturday"};

static int resolve_day(when_ctx *c, const when_form *ph, int64_t sod,
                       int64_t *due) {
  const day_spec *d = &ph->day;
  const zone_spec *z = &ph->zone;
  int adj, k, amb;
  switch (d->kind) {
    case D_REL:
      *due = wall_to_utc(c, c->today + d->rel, sod, z, &adj);
      note_adjust(c, adj);
      return 0;
    case D_WEEKDAY:
      k = (d->wd - c->today_wd + 7) % 7;
      if (d->said_this && k == 0) {
        cap(c, 60);
        flag(c, "this_weekday_today");
      }
      first_ahead(c, c->today + k, 7, sod, z, due);
      return 0;
    case D_NEXT_WEEKDAY:
    case D_WEEK_AFTER: {
      int64_t day = next_week_day(c, d->wd, &amb);
      if (amb && d->kind == D_NEXT_WEEKDAY) {
        cap(c, 60);
        flag(c, "next_weekday_ambiguous");
      }
      *due = wall_to_utc(c, day, sod, z, &adj);
      note_adjust(c, adj);
      return 0;
    }
    case D_DATE:
      if (!d->year) return resolve_date_no_year(c, d, sod, z, due);
      *due = wall_to_utc(c, civil_days_from_date(d->year, d->month, d->dom),
                         sod, z, &adj);
      note_adjust(c, adj);
      return 0;
    case D_DOM: return resolve_dom(c, d->dom, sod, z, due);
    default: /* time only (R7): today if ahead, else tomorrow */
      implied(c, "day");
      first_ahead(c, c->today, 1, sod, z, due);
      return 0;
  }
}

/* The weekday said with a date must be that date's ("friday the 14th"). */
static int check_weekday(when_ctx *c, const day_spec *d, int64_t due,
                         const zone_spec *z) {
  if (d->wd_check < 0) return 0;
  int64_t local = due;
  if (z->has) local += (int64_t)z->off_min * WHEN_MIN_MS;
  else
    local += (int64_t)tz_offset_at(c->zone, civil_floor_div(due, 1000)) * 1000;
  int64_t days = civil_floor_div(local, WHEN_DAY_MS);
  int wd = civil_weekday(days), y, m, dd;
  if (wd == d->wd_check) return 0;
  civil_date_from_days(days, &y, &m, &dd);
  return reject(c, "%s %d, %d is a %s, not a %s: which one is meant?",
                when_month_full[m], dd, y, weekday_full[wd],
                weekday_full[d->wd_check]);
}

/* A bare hour 9-12 alone ("at 10") is read on the 24-hour clock while
** that hour is still ahead today, or once both readings have passed (the
** next one is the morning's); between the two ("at 10" said at 19:30) it
** may as well mean tonight: refused, with the reason saying both. */
static int tonight_too(when_ctx *c, const clock_spec *k, int h) {
  int64_t morning = (int64_t)h * WHEN_HOUR_MS,
          evening = morning + 12 * WHEN_HOUR_MS;
  if (!(c->now_sod > morning && c->now_sod <= evening)) return 0;
  if (h == 12)
    snprintf(c->out->reason, sizeof c->out->reason,
             "'at 12' has no am/pm: midnight tonight or noon tomorrow? say "
             "'midnight' or 'noon'");
  else
    snprintf(c->out->reason, sizeof c->out->reason,
             "'at %d' has no am/pm: %d:00 tonight or %02d:00 tomorrow? say "
             "%dam or %dpm",
             k->h, h + 12, h, h, h);
  return 1;
}

/* ms of the day for a general phrase: the clock time (hours 24+ are the
** next day's early hours), the part of the day (R8), or 00:00. */
static int general_sod(when_ctx *c, const when_form *ph, int64_t *sod) {
  const clock_spec *k = &ph->clock;
  if (k->has) {
    int conf, h = when_clock_hour(k, ph->part, c->hints, &conf, c->out->reason,
                                  sizeof c->out->reason);
    if (h < 0) return -1;
    if (conf == 60 && ph->day.kind == D_NONE && tonight_too(c, k, h)) return -1;
    cap(c, conf);
    if (k->kind == CLK_BARE && conf < 100) implied(c, "meridiem");
    *sod = ((int64_t)h * 3600 + k->m * 60 + k->s) * 1000;
    return 0;
  }
  implied(c, "time");
  if (ph->part != P_NONE) {
    cap(c, 70);
    *sod = when_part_hour(ph->part) * WHEN_HOUR_MS;
    return 0;
  }
  cap(c, 80); /* R8: 00:00 */
  *sod = 0;
  return 0;
}

/* Confidence of a general phrase before the caps of its parts (§5). */
static void general_confidence(when_ctx *c, const when_form *ph) {
  const day_spec *d = &ph->day;
  int no_year = d->kind == D_DOM || (d->kind == D_DATE && !d->year);
  if (ph->clock.has) {
    if (d->kind == D_NONE) cap(c, 90);
    else cap(c, no_year ? 85 : 95);
    if (ph->clock.kind == CLK_MIDNIGHT && d->kind != D_NONE &&
        ph->part != P_NIGHT) {
      cap(c, 60);
      flag(c, "midnight_start_of_day");
    }
  }
  if (ph->range) {
    cap(c, 80);
    flag(c, "range_start");
  }
  if (d->slash_guess) {
    cap(c, 80);
    flag(c, "month_first");
  }
  if (ph->zone.has) {
    cap(c, 90);
    flag(c, "zone_named");
  }
}

static int resolve_general(when_ctx *c, const when_form *ph) {
  int64_t due, sod;
  int adj;
  if (ph->day.kind == D_REL && !ph->clock.has && ph->part == P_NONE) {
    /* R3: bare today = now; bare tomorrow = same wall-clock time */
    cap(c, 80);
    implied(c, "time");
    if (ph->day.rel == 0) return finish_once(c, c->now);
    due = wall_to_utc(c, c->today + ph->day.rel, c->now_sod, NULL, &adj);
    note_adjust(c, adj);
    return finish_once(c, due);
  }
  general_confidence(c, ph);
  if (general_sod(c, ph, &sod) != 0) return -1;
  if (ph->day.kind == D_NONE && ph->part != P_NONE && sod >= WHEN_DAY_MS) {
    /* "at 1am tonight": tonight's early hours */
    int64_t d0 = c->today + sod / WHEN_DAY_MS;
    first_ahead(c, d0, 1, sod % WHEN_DAY_MS, &ph->zone, &due);
    return finish_once(c, due);
  }
  if (sod >= WHEN_DAY_MS) { /* the night after the day named */
    when_form next = *ph;
    if (next.day.kind == D_REL) next.day.rel++;
    if (resolve_day(c, &next, sod - WHEN_DAY_MS, &due) != 0) return -1;
    if (next.day.kind != D_REL) due += WHEN_DAY_MS; /* approx. across DST */
  } else if (resolve_day(c, ph, sod, &due) != 0) {
    return -1;
  }
  if (check_weekday(c, &ph->day, due, &ph->zone) != 0) return -1;
  return finish_once(c, due);
}

/* "in 3 days at 8am", "a week from tomorrow": a date counted from today,
** at the time named (or the same wall-clock time). */
static int resolve_day_count(when_ctx *c, const when_form *ph) {
  int64_t days = c->today + ph->day.rel, sod = c->now_sod, due;
  int ok, adj;
  if (ph->count_days) { /* "a week from monday at 10am": from that day */
    int64_t sod0;
    if (general_sod(c, ph, &sod0) != 0 || resolve_day(c, ph, sod0, &due) != 0)
      return -1;
    cap(c, 95);
    int64_t s = civil_floor_div(due, 1000);
    int64_t local = due + (int64_t)tz_offset_at(c->zone, s) * 1000;
    if (ph->zone.has) local = due + (int64_t)ph->zone.off_min * WHEN_MIN_MS;
    days = civil_floor_div(local, WHEN_DAY_MS) + ph->count_days;
    due = wall_to_utc(c, days, sod0, &ph->zone, &adj);
    note_adjust(c, adj);
    return finish_once(c, due);
  }
  if (ph->dur.months) {
    days = add_months_days(c, days, ph->dur.months, &ok);
    if (!ok) return reject(c, "too far in the future: after 9999-12-31");
  }
  if (ph->clock.has || ph->part != P_NONE) {
    cap(c, 95);
    if (general_sod(c, ph, &sod) != 0) return -1;
  } else {
    cap(c, 80);
    implied(c, "time");
  }
  if (ph->zone.has) {
    cap(c, 90);
    flag(c, "zone_named");
  }
  due = wall_to_utc(c, days, sod, &ph->zone, &adj);
  note_adjust(c, adj);
  return finish_once(c, due);
}

/* ---- resolving recurring forms ------------------------------------------- */

/* Day-of-week cron field: runs of 3+ as a-b, else a list; "*" for all. */
static void dow_field(unsigned mask, char *buf, size_t n) {
  size_t o = 0;
  if ((mask & 0x7f) == 0x7f) {
    snprintf(buf, n, "*");
    return;
  }
  buf[0] = 0;
  for (int w = 0; w < 7; w++) {
    if (!(mask & (1u << w))) continue;
    int e = w;
    while (e + 1 < 7 && (mask & (1u << (e + 1)))) e++;
    if (e - w >= 2) {
      o += (size_t)snprintf(buf + o, n - o, "%s%d-%d", o ? "," : "", w, e);
      w = e;
    } else {
      o += (size_t)snprintf(buf + o, n - o, "%s%d", o ? "," : "", w);
    }
  }
}

/* The hours field from the clock times: one hour, or a list when the
** minutes agree ("at 8am and 8pm": 8,20). */
static int hours_field(when_ctx *c, const when_form *ph, char *buf, size_t n) {
  int hours[WHEN_HOURS_MAX + 1], nh = 0, conf;
  for (int i = 0; i <= ph->n_more; i++) {
    const clock_spec *k = i == 0 ? &ph->clock : &ph->more[i - 1];
    if (i > 0 && (k->m != ph->clock.m || k->s != ph->clock.s))
      return reject(c, "the times do not share their minutes, so one cron "
                       "line cannot say them: make one schedule per time");
    int h = when_clock_hour(k, ph->part, c->hints, &conf, c->out->reason,
                            sizeof c->out->reason);
    if (h < 0) return -1;
    if (ph->part == P_MORNING && ph->dow_mask == 0x7f && h >= 12)
      return reject(c, "%02d:%02d is not in the morning", h, k->m);
    cap(c, conf);
    if (k->kind == CLK_BARE && conf < 100) implied(c, "meridiem");
    hours[nh++] = h % 24;
  }
  for (int i = 1; i < nh; i++) /* sort */
    for (int j = i; j > 0 && hours[j] < hours[j - 1]; j--) {
      int t = hours[j];
      hours[j] = hours[j - 1], hours[j - 1] = t;
    }
  size_t o = 0;
  for (int i = 0; i < nh; i++)
    if (i == 0 || hours[i] != hours[i - 1])
      o += (size_t)snprintf(buf + o, n - o, "%s%d", o ? "," : "", hours[i]);
  return 0;
}

static int cron_text(when_ctx *c, const when_form *ph, char *buf, size_t n) {
  char dow[32], dom[8], mon[8], hrs[32], line[128];
  if (ph->hourly) {
    snprintf(buf, n, "0 * * * *");
    return 0;
  }
  dow_field(ph->dow_mask, dow, sizeof dow);
  snprintf(dom, sizeof dom, ph->cron_dom ? "%d" : "*", ph->cron_dom);
  snprintf(mon, sizeof mon, ph->cron_month ? "%d" : "*", ph->cron_month);
  const clock_spec *k = &ph->clock;
  if (!k->has) /* 00:00, or the part of the day's hour (R8) */
    snprintf(line, sizeof line, "0 %d %s %s %s", when_part_hour(ph->part), dom,
             mon, dow);
  else if (hours_field(c, ph, hrs, sizeof hrs) != 0) return -1;
  else if (k->s)
    snprintf(line, sizeof line, "%d %d %s %s %s %s", k->s, k->m, hrs, dom, mon,
             dow);
  else snprintf(line, sizeof line, "%d %s %s %s %s", k->m, hrs, dom, mon, dow);
  if (strlen(line) >= n) return reject(c, "internal: cron line too long");
  memcpy(buf, line, strlen(line) + 1);
  return 0;
}

/* The first firing's local time differs from the asked one: a DST gap
** moved it; or it falls in a repeated hour (first pass taken). */
static void note_cron_dst(when_ctx *c, const when_form *ph, int64_t due) {
  int64_t s = civil_floor_div(due, 1000);
  int64_t local = s + tz_offset_at(c->zone, s);
  int64_t sod = local - civil_floor_div(local, 86400) * 86400;
  tz_local r;
  if (!ph->hourly && ph->clock.has &&
      sod % 3600 != ph->clock.m * 60 + ph->clock.s) {
    note_adjust(c, ADJ_GAP);
    return;
  }
  tz_local_lookup(c->zone, local, &r);
  if (r.count == 2) note_adjust(c, ADJ_REPEATED);
  else if (r.count == 0) note_adjust(c, ADJ_GAP);
}

static int resolve_cron(when_ctx *c, const when_form *ph) {
  cron_expr e;
  char err[CRON_ERR_MAX];
  int64_t due;
  if (ph->clock.has || ph->hourly) {
    cap(c, 95);
  } else {
    cap(c, ph->part != P_NONE ? 70 : 80);
    implied(c, "time");
  }
  if (ph->cron_dom > 28 && !ph->cron_month) flag(c, "short_months_skipped");
  if (ph->cron_month && ph->cron_dom == 29 && ph->cron_month == 2)
    flag(c, "short_months_skipped");
  if (cron_text(c, ph, c->out->cron, sizeof c->out->cron) != 0) return -1;
  if (cron_parse(c->out->cron, &e, err, sizeof err) != 0)
    return reject(c, "internal: bad cron '%s': %s", c->out->cron, err);
  if (!cron_next(&e, c->zone, c->now, &due))
    return reject(c, "the schedule '%s' never fires", c->out->cron);
  note_cron_dst(c, ph, due);
  c->out->kind = WHEN_CRON;
  c->out->due_at = due;
  return 0;
}

/* A calendar rule: its clock times as cron's are (R8 when none is said),
** the rule and first occurrence by when_rrule_finish. */
static int resolve_rrule(when_ctx *c, const when_form *ph) {
  char hrs[32];
  int minute = 0, second = 0;
  if (ph->clock.has) {
    cap(c, 95);
    if (hours_field(c, ph, hrs, sizeof hrs) != 0) return -1;
    minute = ph->clock.m, second = ph->clock.s;
  } else {
    cap(c, ph->part != P_NONE ? 70 : 80);
    implied(c, "time");
    snprintf(hrs, sizeof hrs, "%d", when_part_hour(ph->part));
  }
  if (ph->cron_dom > 28 && !ph->cron_month) flag(c, "short_months_skipped");
  return when_rrule_finish(ph, hrs, minute, second, c->now, c->zone, c->out);
}

static int resolve_interval(when_ctx *c, const when_form *ph) {
  cap(c, 95);
  if (c->now + ph->dur.ms > max_instant())
    return reject(c, "too far in the future: after 9999-12-31");
  c->out->kind = WHEN_INTERVAL;
  c->out->interval_ms = ph->dur.ms;
  c->out->due_at = c->now + ph->dur.ms;
  return 0;
}

static void ctx_init(when_ctx *c, int64_t now, const tz_zone *zone,
                     const when_hints *hints, when_result *out) {
  memset(c, 0, sizeof *c);
  c->zone = zone;
  c->now = now;
  c->out = out;
  c->hints = hints;
  c->conf = 100;
  int32_t off = tz_offset_at(zone, civil_floor_div(now, 1000));
  int64_t local = now + (int64_t)off * 1000;
  c->today = civil_floor_div(local, WHEN_DAY_MS);
  c->now_sod = local - c->today * WHEN_DAY_MS;
  c->today_wd = civil_weekday(c->today);
  civil_from_ms(local, &c->local);
}

int when_resolve(const when_form *ph, const when_hints *hints, int64_t now,
                 const tz_zone *zone, when_result *out) {
  when_ctx c;
  int rc;
  ctx_init(&c, now, zone, hints, out);
  switch (ph->form) {
    case F_NOW: rc = finish_once(&c, c.now); break;
    case F_DURATION: rc = resolve_duration(&c, &ph->dur); break;
    case F_END_OF: rc = resolve_end_of(&c, ph->unit); break;
    case F_NEXT_UNIT: rc = resolve_next_unit(&c, ph->unit); break;
    case F_DAY_COUNT: rc = resolve_day_count(&c, ph); break;
    case F_INTERVAL: rc = resolve_interval(&c, ph); break;
    case F_CRON: rc = resolve_cron(&c, ph); break;
    case F_RRULE: rc = resolve_rrule(&c, ph); break;
    default: rc = resolve_general(&c, ph); break;
  }
  if (rc == 0) out->confidence = c.conf / 100.0;
  return rc;
}

/* "2026-01-15", "2026-01-15 09:00", "2025-12-31T23:00:00Z": exact with an
** offset (1.00), else local time in the zone (0.95; a date alone 0.80). */
int when_resolve_iso(const char *s, size_t n, int64_t now, const tz_zone *zone,
                     when_result *out) {
  when_ctx c;
  civil_time t;
  int has_off, adj;
  int32_t off;
  char err[160];
  ctx_init(&c, now, zone, NULL, out);
  if (civil_parse_iso(s, n, &t, &has_off, &off, err, sizeof err) != 0)
    return reject(&c, "cannot read the ISO-8601 instant: %s", err);
  int64_t local = civil_to_ms(&t), due;
  if (has_off) {
    due = local - (int64_t)off * 1000;
  } else {
    int64_t days = civil_floor_div(local, WHEN_DAY_MS);
    due = wall_to_utc(&c, days, local - days * WHEN_DAY_MS, NULL, &adj);
    note_adjust(&c, adj);
    if (n > 10) {
      cap(&c, 95);
    } else {
      cap(&c, 80);
      implied(&c, "time");
    }
  }
  int rc = finish_once(&c, due);
  if (rc == 0) out->confidence = c.conf / 100.0;
  return rc;
}
