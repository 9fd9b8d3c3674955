/*
** ical_event.c -- a trigger's VEVENT over a range (ical_event.h): which
** form its schedule takes, and the instants where the RRULE of a cron
** expression and cron differ.
*/
#include "time/ical_event.h"

#include <stdio.h>
#include <string.h>

#include "text/text_buf.h"
#include "time/civil.h"
#include "time/cron_rrule.h"
#include "time/ical_zone.h"

#define DAY_MS 86400000LL
#define DATES_PER_LINE 8

static int64_t seconds_of(int64_t ms) { return civil_floor_div(ms, 1000); }

void ical_utc_line(ical_writer *w, const char *name, int64_t ms) {
  char t[ICAL_TIME_MAX];
  ical_time_format(seconds_of(ms), 1, t);
  ical_line(w, name, t);
}

void ical_uid_line(ical_writer *w, const char *name, const char *id) {
  ical_name(w, name);
  ical_colon(w);
  ical_text(w, id);
  ical_text(w, ICAL_UID_DOMAIN);
  ical_end(w);
}

/* DTSTART at instant ms: by TZID in the spec's zone when it names the
** instant, else in UTC. */
static void dtstart(ical_writer *w, const sched_spec *spec, int64_t ms,
                    int64_t *zoned_from) {
  int64_t wall;
  char t[ICAL_TIME_MAX];
  if (spec->zone != tz_utc() &&
      ical_wall_of(spec->zone, seconds_of(ms), &wall)) {
    ical_time_format(wall, 0, t);
    ical_name(w, "DTSTART");
    ical_param(w, "TZID", tz_name(spec->zone));
    ical_colon(w);
    ical_raw(w, t);
    ical_end(w);
    if (ms < *zoned_from) *zoned_from = ms;
    return;
  }
  ical_utc_line(w, "DTSTART", ms);
}

/* The occurrences after `first` in the range as RDATE lines; 1 when the
** cap cut them. */
static int rdates(ical_writer *w, const ical_event *e, int64_t first) {
  int64_t t = first;
  int n = 0, on_line = 0;
  while (sched_next(e->spec, t, &t) && t < e->to_ms) {
    if (n == ICAL_EVENT_MAX_DATES - 1) return 1;
    char v[ICAL_TIME_MAX];
    ical_time_format(seconds_of(t), 1, v);
    if (on_line == DATES_PER_LINE) {
      ical_end(w);
      on_line = 0;
    }
    if (on_line++ == 0) {
      ical_name(w, "RDATE");
      ical_colon(w);
    } else {
      ical_raw(w, ",");
    }
    ical_raw(w, v);
    n++;
  }
  if (on_line) ical_end(w);
  return 0;
}

/* The last instant an occurrence of the feed may have: the range's, or
** end_at when that is before it. */
static int64_t range_end(const ical_event *e) {
  int64_t end = e->to_ms - 1;
  return e->spec->end_at != SCHED_NONE && e->spec->end_at < end
             ? e->spec->end_at
             : end;
}

/* ";UNTIL=<ms in UTC, to the second>". */
static void put_until(text_buf *b, int64_t ms) {
  char t[ICAL_TIME_MAX];
  ical_time_format(seconds_of(ms), 1, t);
  text_buf_put(b, ";UNTIL=");
  text_buf_put(b, t);
}

/* The RRULE of an interval of whole seconds, its UNTIL the last
** occurrence of the range; 0 when the interval has milliseconds or its
** INTERVAL would pass ICAL_INTERVAL_MAX. */
static int interval_rule(const ical_event *e, int64_t first, char *buf,
                         size_t n) {
  int64_t iv = e->spec->interval_ms;
  static const struct {
    int64_t ms;
    const char *freq;
  } units[] = {{DAY_MS, "DAILY"},
               {3600000, "HOURLY"},
               {60000, "MINUTELY"},
               {1000, "SECONDLY"}};
  if (iv % 1000) return 0;
  int u = 0;
  while (iv % units[u].ms) u++;
  if (iv / units[u].ms > ICAL_INTERVAL_MAX) return 0;
  text_buf b;
  text_buf_init(&b, buf, n);
  text_buf_put(&b, "FREQ=");
  text_buf_put(&b, units[u].freq);
  text_buf_put(&b, ";INTERVAL=");
  text_buf_put_int(&b, iv / units[u].ms);
  put_until(&b, first + (range_end(e) - first) / iv * iv);
  return !b.full;
}

/* The first wall-clock time (read as UTC ms) after `after` that the
** schedule's cron expression or rule (DTSTART at wall) names. */
static int wall_next(const ical_event *e, int64_t wall, int64_t after,
                     int64_t *m) {
  if (e->spec->type == SCHED_CRON)
    return cron_next(&e->spec->cron, tz_utc(), after, m);
  return rrule_next(&e->spec->rrule, wall, tz_utc(), after, m) == 1;
}

/* Whether the schedule names a wall-clock time that a DST change near the
** range skips or repeats (the gap, or the repeated hour): there RFC 5545
** readers differ (libical 3.0 takes the second pass of a repeated time,
** and moves the next day's time by the gap), and so does cron. */
static int meets_change(const ical_event *e, int64_t wall) {
  const tz_zone *z = e->spec->zone;
  int64_t s = seconds_of(e->from_ms) - 86400;
  for (;;) {
    int64_t t = tz_next_transition(z, s), m;
    if (t == INT64_MAX || t > seconds_of(e->to_ms) + 86400) return 0;
    int64_t before = t + tz_offset_at(z, t - 1), after = t + tz_offset_at(z, t);
    int64_t lo = before < after ? before : after;
    int64_t hi = before < after ? after : before;
    if (wall_next(e, wall, lo * 1000 - 1, &m) && m < hi * 1000) return 1;
    s = t;
  }
}

/* The RRULE of a cron expression, UNTIL the range's end, compiled into
** e->scratch, when it is exact and generates `first` from DTSTART at
** `first`'s local time (*wall); else 0. */
static int cron_rule(const ical_event *e, int64_t first, char *buf, size_t n,
                     int64_t *wall) {
  const sched_spec *spec = e->spec;
  char err[RRULE_ERR_MAX];
  int len = cron_rrule(&spec->cron, buf, n, NULL);
  if (len <= 0 || !ical_wall_of(spec->zone, seconds_of(first), wall) ||
      meets_change(e, 0))
    return 0;
  text_buf b = {buf, n, (size_t)len, 0};
  put_until(&b, range_end(e));
  int64_t got;
  return !b.full && rrule_compile(buf, e->scratch, err, sizeof err) == 0 &&
         rrule_next(e->scratch, *wall, spec->zone, first - 1, &got) == 1 &&
         got == first;
}

/* Whether readers of RFC 5545 expand the rule alike: one RRULE, no RDATE
** or EXDATE, FREQ=YEARLY..DAILY, none of the parts where libical 3.0
** and python-dateutil part (docs/calendar.md#conformance: BYWEEKNO,
** BYSETPOS, BYYEARDAY, BYMONTHDAY with BYDAY or negative, a YEARLY
** BYMONTHDAY without BYMONTH, RSCALE and SKIP). */
static int readers_agree(const rrule_set *set) {
  const rrule_rule *r = &set->rules[0];
  uint32_t apart = RRULE_P_BYWEEKNO | RRULE_P_BYSETPOS | RRULE_P_BYYEARDAY |
                   RRULE_P_RSCALE | RRULE_P_SKIP;
  int monthday = (r->parts & RRULE_P_BYMONTHDAY) != 0;
  return set->nrules == 1 && !set->nrdates && !set->nexdates &&
         r->freq <= RRULE_DAILY && !(r->parts & apart) &&
         !(monthday &&
           ((r->parts & RRULE_P_BYDAY) || r->bymonthday_neg ||
            (r->freq == RRULE_YEARLY && !(r->parts & RRULE_P_BYMONTH))));
}

/* An rrule trigger's own rule (its canonical text: rrule_text.c), in
** e->scratch with UNTIL at the range's end unless the set ends in the
** range, and its DTSTART (*wall): the first occurrence of the range (an
** occurrence keeps the rule's phase and the values it takes from
** DTSTART), or with COUNT, which counts from it, its own. 0 unless every
** reader expands the rule alike, that DTSTART is an occurrence its local
** time names, and its times meet no DST change near the range. */
static int set_rule(const ical_event *e, int64_t first, char *buf, size_t n,
                    int64_t *wall) {
  const sched_spec *spec = e->spec;
  const rrule_set *set = &spec->rrule;
  if (!readers_agree(set)) return 0;
  int64_t start = set->rules[0].count
                      ? tz_local_to_utc(spec->zone, spec->dtstart)
                      : seconds_of(first);
  int64_t got;
  if (!ical_wall_of(spec->zone, start, wall) ||
      rrule_next(set, spec->dtstart, spec->zone, start * 1000 - 1, &got) != 1 ||
      got != start * 1000 || meets_change(e, spec->dtstart))
    return 0;
  *e->scratch = spec->rrule;
  rrule_rule *r = &e->scratch->rules[0];
  if (rrule_next(set, spec->dtstart, spec->zone, range_end(e), &got) != 0) {
    if (r->count) return 0; /* COUNT and UNTIL cannot stand together */
    r->parts |= RRULE_P_UNTIL;
    r->until_kind = RRULE_UTC;
    r->until = seconds_of(range_end(e));
  } else if (r->until_kind != RRULE_NONE && r->until_kind != RRULE_UTC) {
    return 0; /* a DTSTART with TZID needs UNTIL in UTC */
  }
  return rrule_canonical(e->scratch, buf, n) > 0;
}

/* The next instant of the rule after `after` (INT64_MAX: none). */
static int64_t rule_next(const ical_event *e, int64_t wall, int64_t after) {
  int64_t t;
  return rrule_next(e->scratch, wall, e->spec->zone, after, &t) == 1
             ? t
             : INT64_MAX;
}

static int64_t cron_next_of(const ical_event *e, int64_t after) {
  int64_t t;
  return sched_next(e->spec, after, &t) ? t : INT64_MAX;
}

/* In [a, b): EXDATE for each instant of the rule that sched_next lacks,
** RDATE for each of sched_next's that the rule lacks; the first
** ICAL_EVENT_CHECK_MAX instants only. */
static void correct(ical_writer *w, const ical_event *e, int64_t wall,
                    int64_t a, int64_t b) {
  int64_t x = cron_next_of(e, a - 1), y = rule_next(e, wall, a - 1);
  for (int steps = 0; (x < b || y < b) && !w->err; steps++) {
    if (steps == ICAL_EVENT_CHECK_MAX) return;
    if (x == y) {
      x = cron_next_of(e, x);
      y = rule_next(e, wall, y);
    } else if (x < y) {
      ical_utc_line(w, "RDATE", x);
      x = cron_next_of(e, x);
    } else {
      ical_utc_line(w, "EXDATE", y);
      y = rule_next(e, wall, y);
    }
  }
}

int ical_event_write(ical_writer *w, const ical_event *e, int64_t *zoned_from) {
  const sched_spec *spec = e->spec;
  int64_t first, wall = 0;
  if (!sched_next(spec, e->from_ms - 1, &first) || first >= e->to_ms) return 0;
  char rule[ICAL_RULE_MAX];
  int form = 'D'; /* DTSTART and RDATEs */
  if (spec->type == SCHED_ONCE) form = 'O';
  else if (spec->type == SCHED_INTERVAL &&
           interval_rule(e, first, rule, sizeof rule))
    form = 'I';
  else if (spec->type == SCHED_CRON &&
           cron_rule(e, first, rule, sizeof rule, &wall))
    form = 'C';
  else if (spec->type == SCHED_RRULE &&
           set_rule(e, first, rule, sizeof rule, &wall))
    form = 'R';
  ical_line(w, "BEGIN", "VEVENT");
  ical_uid_line(w, "UID", e->uid);
  ical_utc_line(w, "DTSTAMP", e->stamp_ms);
  if (form == 'I') ical_utc_line(w, "DTSTART", first);
  else if (form == 'R')
    dtstart(w, spec, tz_local_to_utc(spec->zone, wall) * 1000, zoned_from);
  else dtstart(w, spec, first, zoned_from);
  int cut = 0;
  if (form == 'I' || form == 'C' || form == 'R') ical_line(w, "RRULE", rule);
  if (form == 'C' || form == 'R') correct(w, e, wall, first, e->to_ms);
  if (form == 'D') cut = rdates(w, e, first);
  ical_line_text(w, "SUMMARY", e->summary);
  if (e->description || cut) {
    char note[96];
    snprintf(note, sizeof note,
             "%sthe first %d occurrences of the range are listed",
             e->description ? "\n" : "", ICAL_EVENT_MAX_DATES);
    ical_name(w, "DESCRIPTION");
    ical_colon(w);
    if (e->description) ical_text(w, e->description);
    if (cut) ical_text(w, note);
    ical_end(w);
  }
  ical_line(w, "END", "VEVENT");
  return 1;
}
