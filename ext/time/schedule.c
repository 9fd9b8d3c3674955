/*
** schedule.c -- next occurrences of interval, once, cron and rrule
** schedules, catch-up counting after a gap, and reading instants. See
** schedule.h.
*/
#include "time/schedule.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "time/civil.h"

sched_type sched_type_parse(const char *s) {
  if (!s) return SCHED_INVALID;
  if (strcmp(s, "interval") == 0) return SCHED_INTERVAL;
  if (strcmp(s, "once") == 0) return SCHED_ONCE;
  if (strcmp(s, "cron") == 0) return SCHED_CRON;
  if (strcmp(s, "event") == 0) return SCHED_EVENT;
  if (strcmp(s, "rrule") == 0) return SCHED_RRULE;
  return SCHED_INVALID;
}

const char *sched_type_name(sched_type t) {
  switch (t) {
    case SCHED_INTERVAL: return "interval";
    case SCHED_ONCE: return "once";
    case SCHED_CRON: return "cron";
    case SCHED_EVENT: return "event";
    case SCHED_RRULE: return "rrule";
    default: return "invalid";
  }
}

void sched_spec_clear(sched_spec *s) {
  memset(s, 0, offsetof(sched_spec, rrule));
}

int64_t sched_rrule_dtstart(const sched_spec *s) {
  return rrule_wall_of(s->zone,
                       s->start_at != SCHED_NONE ? s->start_at : s->created_at);
}

static int64_t interval_anchor(const sched_spec *s) {
  return s->start_at != SCHED_NONE ? s->start_at
                                   : s->created_at + s->interval_ms;
}

/* Within end_at, and an instant we can store and print: an occurrence
** after 9999-12-31 is none (the trigger completes). */
static int within_end(const sched_spec *s, int64_t t) {
  return (s->end_at == SCHED_NONE || t <= s->end_at) && t <= SCHED_MS_MAX;
}

/* The type's next occurrence, ignoring end_at and the calendar but
** honouring start_at. */
static int type_next(const sched_spec *s, int64_t after, int64_t *out) {
  switch (s->type) {
    case SCHED_INTERVAL: {
      int64_t anchor = interval_anchor(s);
      if (after < anchor) {
        *out = anchor;
      } else {
        *out = anchor + (civil_floor_div(after - anchor, s->interval_ms) + 1) *
                            s->interval_ms;
      }
      return 1;
    }
    case SCHED_ONCE:
    case SCHED_EVENT: /* its timeout; SCHED_NONE is never > after */
      if (s->scheduled_at > after) {
        *out = s->scheduled_at;
        return 1;
      }
      return 0;
    case SCHED_CRON: {
      int64_t from = after;
      if (s->start_at != SCHED_NONE && from < s->start_at - 1) {
        from = s->start_at - 1;
      }
      return cron_next(&s->cron, s->zone, from, out);
    }
    case SCHED_RRULE: {
      int64_t from = after;
      if (s->start_at != SCHED_NONE && from < s->start_at - 1) {
        from = s->start_at - 1;
      }
      /* -1 (the bounded search gave up; only a rule that rrule_check
      ** let through and whose INTERVAL does not divide a day) is none */
      return rrule_next(&s->rrule, s->dtstart, s->zone, from, out) == 1;
    }
    default: return 0;
  }
}

/* Raw next occurrence: the type's, with the calendar's days applied;
** end_at ignored. */
static int raw_next(const sched_spec *s, int64_t after, int64_t *out) {
  if (s->cal_policy == SCHED_CAL_NONE) return type_next(s, after, out);
  return sched_calendar_next(s, after, out, type_next);
}

int sched_next(const sched_spec *s, int64_t after, int64_t *out) {
  int64_t t;
  if (!raw_next(s, after, &t) || !within_end(s, t)) return 0;
  *out = t;
  return 1;
}

int sched_first(const sched_spec *s, int64_t now, int64_t *out) {
  int64_t t;
  switch (s->type) {
    case SCHED_ONCE: t = s->scheduled_at; break;
    case SCHED_EVENT:
      if (s->scheduled_at == SCHED_NONE) return 0;
      t = s->scheduled_at;
      break;
    case SCHED_INTERVAL: {
      int64_t anchor = interval_anchor(s);
      if (anchor >= now) {
        t = anchor;
      } else {
        (void)raw_next(s, now, &t); /* an interval always has one */
      }
      break;
    }
    case SCHED_CRON:
    case SCHED_RRULE: {
      int64_t from = now;
      if (s->start_at != SCHED_NONE && s->start_at - 1 > from) {
        from = s->start_at - 1;
      }
      if (!raw_next(s, from, &t)) return 0;
      break;
    }
    default: return 0;
  }
  if (!within_end(s, t)) return 0;
  *out = t;
  return 1;
}

/* Cron and rrule occurrences stepped through one by one before the catch-up jumps
** to the latest (a trigger created long ago must not make a tick walk a
** million occurrences while it holds the write lock). */
#define SCHED_CRON_SCAN 1000

/* The last occurrence in (lo, hi], given that one exists: look back from
** hi in windows that double until one holds an occurrence, then step
** through that window. The previous (half) window was empty, so the walk
** covers at most the occurrences of one half window. */
static int64_t last_in(const sched_spec *s, int64_t lo, int64_t hi) {
  int64_t best = lo, w = 1000, nx;
  for (;;) {
    int64_t from = (hi - lo > w) ? hi - w : lo;
    if (raw_next(s, from, &nx) && nx <= hi) {
      while (nx <= hi) {
        best = nx;
        if (!raw_next(s, nx, &nx)) break;
      }
      return best;
    }
    if (from == lo) return best; /* none after all */
    w *= 2;
  }
}

void sched_catch_up(const sched_spec *s, int64_t due, int64_t now,
                    int64_t max_count, sched_catchup *out) {
  memset(out, 0, sizeof *out);
  out->latest = due;
  out->count = 1;
  if (s->type == SCHED_INTERVAL) {
    int64_t last = now;
    if (s->end_at != SCHED_NONE && s->end_at < last) last = s->end_at;
    int64_t n =
        last >= due ? civil_floor_div(last - due, s->interval_ms) + 1 : 1;
    out->latest = due + (n - 1) * s->interval_ms;
    out->before_latest = out->latest - s->interval_ms;
    out->count = n;
    if (n > max_count) {
      out->count = max_count;
      out->more = 1;
    }
  } else if (s->type == SCHED_CRON || s->type == SCHED_RRULE) {
    int64_t t = due, nx, steps = 0;
    /* Iterate: work proportional to the occurrences missed, capped. */
    while (sched_next(s, t, &nx) && nx <= now) {
      if (steps++ == SCHED_CRON_SCAN) {
        /* More than the scan: jump to the latest (within end_at). */
        int64_t hi = now;
        if (s->end_at != SCHED_NONE && s->end_at < hi) hi = s->end_at;
        int64_t latest = last_in(s, t, hi);
        out->before_latest = last_in(s, t, latest - 1);
        t = latest;
        out->more = 1; /* count stays the lower bound it reached */
        break;
      }
      out->before_latest = t;
      t = nx;
      if (out->count < max_count) {
        out->count++;
      } else {
        out->more = 1;
      }
    }
    out->latest = t;
  }
  int64_t nxt;
  if (sched_next(s, now, &nxt)) {
    out->has_next = 1;
    out->next_after = nxt;
  }
}

int sched_instant_ok(int64_t ms) {
  return ms >= SCHED_MS_MIN && ms <= SCHED_MS_MAX;
}

int sched_instant_check(int64_t ms, char *err, size_t errlen) {
  if (sched_instant_ok(ms)) return 0;
  snprintf(err, errlen, "%lld ms is outside the years %d-%d", (long long)ms,
           CIVIL_MIN_YEAR, CIVIL_MAX_YEAR);
  return -1;
}

int sched_ms_from_double(double x, int64_t *out) {
  /* The comparisons are false for NaN; the cast is defined in range. */
  if (!(x >= (double)SCHED_MS_MIN && x <= (double)SCHED_MS_MAX)) return 0;
  int64_t i = (int64_t)x;
  if ((double)i != x) return 0;
  *out = i;
  return 1;
}

int sched_parse_instant(const char *text, const tz_zone *zone, int64_t *out,
                        char *err, size_t errlen) {
  size_t n = strlen(text);
  size_t i = (n > 0 && (text[0] == '-' || text[0] == '+')) ? 1 : 0;
  int digits = n > i;
  for (size_t k = i; k < n; k++) {
    if (text[k] < '0' || text[k] > '9') digits = 0;
  }
  if (digits && n - i <= 15) {
    *out = strtoll(text, NULL, 10);
    return sched_instant_check(*out, err, errlen);
  }
  civil_time t;
  int has_offset = 0;
  int32_t off = 0;
  if (civil_parse_iso(text, n, &t, &has_offset, &off, err, errlen) != 0) {
    return -1;
  }
  /* civil_parse_iso keeps the year within CIVIL_MIN_YEAR..CIVIL_MAX_YEAR */
  int64_t local_ms = civil_to_ms(&t);
  if (has_offset) {
    *out = local_ms - (int64_t)off * 1000;
    return 0;
  }
  int64_t ms = ((local_ms % 1000) + 1000) % 1000;
  int64_t local_s = (local_ms - ms) / 1000;
  *out = tz_local_to_utc(zone, local_s) * 1000 + ms;
  return 0;
}

/* The rrule's canonical text, then DTSTART when start_at is given. */
static int rrule_canonical_spec(const sched_spec *s, char *buf, size_t n) {
  int len = rrule_canonical(&s->rrule, buf, n);
  if (len < 0 || s->start_at == SCHED_NONE) return len;
  civil_time t;
  civil_from_ms(s->dtstart * 1000, &t);
  int k = snprintf(buf + len, n - (size_t)len,
                   "\nDTSTART:%04d%02d%02dT%02d%02d%02d", t.year, t.month,
                   t.day, t.hour, t.minute, t.second);
  return (size_t)k >= n - (size_t)len ? -1 : len + k;
}

/* A calendar after the schedule's text: "\nCALENDAR:us;skip". */
static int with_calendar(const sched_spec *s, int len, char *buf, size_t n) {
  if (len < 0 || s->cal_policy == SCHED_CAL_NONE) return len;
  int k = snprintf(buf + len, n - (size_t)len, "\nCALENDAR:%s;%s", s->cal_name,
                   sched_cal_policy_name(s->cal_policy));
  return (size_t)k >= n - (size_t)len ? -1 : len + k;
}

int sched_canonical(const sched_spec *s, char *buf, size_t n) {
  int len;
  switch (s->type) {
    case SCHED_CRON:
      return with_calendar(s, cron_canonical(&s->cron, buf, n), buf, n);
    case SCHED_INTERVAL:
      len = snprintf(buf, n, "%lld", (long long)s->interval_ms);
      break;
    case SCHED_ONCE:
      len = snprintf(buf, n, "%lld", (long long)s->scheduled_at);
      break;
    case SCHED_EVENT: {
      const char *key = s->event_key;
      if (s->scheduled_at == SCHED_NONE) {
        len = snprintf(buf, n, "event:%s", key);
      } else {
        len =
            snprintf(buf, n, "event:%s@%lld", key, (long long)s->scheduled_at);
      }
      break;
    }
    case SCHED_RRULE:
      return with_calendar(s, rrule_canonical_spec(s, buf, n), buf, n);
    default: return -1;
  }
  return (size_t)len >= n ? -1 : len; /* snprintf of an integer: len >= 0 */
}
