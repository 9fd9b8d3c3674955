/*
** rrule_next.c -- a recurrence set in a time zone (rrule.h): the first
** occurrence strictly after an instant, and whether a set occurs at all.
**
** Each RRULE is expanded in wall-clock time (rrule_expand.c); a wall time
** becomes an instant by RFC 5545's rule for local times, tz.h's
** "compatible" mapping: a time in a DST gap moves forward by the gap's
** length, a repeated time takes its first pass. That mapping keeps the
** order of wall times except in a gap's shadow: a wall in a gap maps
** behind walls that follow the gap (02:30 -> 03:30 EDT, after 03:00 EDT).
** So the first instant after T of one rule is found from two candidates:
**   W1, the first wall of the rule whose instant is after T: every wall
**       above the highest wall time reached by T has one, and so do the
**       walls of a gap that ended less than a gap's length before T;
**   W2, when W1 lies in a gap, the first wall of the rule after the gap.
** The answer is the earlier of their instants; instants that coincide
** are one occurrence. RDATE values are instants of their own (a DATE value
** at DTSTART's time of day); EXDATE values remove the instants they map
** to, and a DATE value every occurrence on that local date. COUNT counts
** the rule's wall times from DTSTART (rrule_expand.c), before EXDATE.
*/
#include "time/rrule_int.h"

#include <stdio.h>
#include <string.h>

/* Longer than any fall-back overlap or gap (offsets are below 26 h). */
#define ZONE_WINDOW 187200
#define ZONE_STEPS 1000
#define MIN_INSTANT (-62135596800LL) /* 0001-01-01T00:00:00Z */
#define MAX_INSTANT 253402300799LL   /* 9999-12-31T23:59:59Z */

static int is_utc(const tz_zone *z) { return z == NULL || z == tz_utc(); }

static int64_t local_to_utc(const tz_zone *z, int64_t wall) {
  return is_utc(z) ? wall : tz_local_to_utc(z, wall);
}

int64_t rrule_wall_of(const tz_zone *z, int64_t utc_ms) {
  int64_t s = civil_floor_div(utc_ms, 1000);
  return is_utc(z) ? s : s + tz_offset_at(z, s);
}

/*
** Around instant T: *max_wall, the highest wall time of any instant <= T;
** *gap_lo, the lowest wall of a gap whose instant is after T (the gap
** ended less than its length before T), or INT64_MAX.
*/
static void zone_probe(const tz_zone *z, int64_t T, int64_t *max_wall,
                       int64_t *gap_lo) {
  int64_t u = T - ZONE_WINDOW, best = INT64_MIN, last = INT64_MIN;
  int32_t off = tz_offset_at(z, u), before = off;
  int k;
  for (k = 0; k < ZONE_STEPS; k++) {
    int64_t s = tz_next_transition(z, u);
    if (s > T) break;
    if (s - 1 + off > best) best = s - 1 + off;
    before = off;
    last = s;
    off = tz_offset_at(z, s);
    u = s;
  }
  if (T + off > best) best = T + off;
  *max_wall = best;
  *gap_lo = INT64_MAX;
  if (last != INT64_MIN && off > before && T + 1 < last + (off - before))
    *gap_lo = T + 1 + before;
}

/* First instant > T of one expanded rule: 1 and *out, 0 (none) or -1
** (the search gave up). */
static int rule_after(rrule_exp *x, const tz_zone *z, int64_t T, int64_t *out) {
  int64_t max_wall, gap_lo, lo, W, I = 0, W2;
  tz_local L;
  int k, rc;
  if (is_utc(z)) {
    if ((rc = rrule_exp_next(x, T + 1, &W)) != 1) return rc;
    I = W;
    goto found;
  }
  {
    /* No change of offset from a window before T up to the occurrence:
    ** the offset maps both ways (the common case: one lookup). */
    int64_t s = tz_next_transition(z, T - ZONE_WINDOW);
    if (s > T) {
      int32_t off = tz_offset_at(z, T);
      if ((rc = rrule_exp_next(x, T + 1 + off, &W)) != 1) return rc;
      if (W - off < s) {
        I = W - off;
        goto found;
      }
    }
  }
  {
    zone_probe(z, T, &max_wall, &gap_lo);
    lo = gap_lo < max_wall + 1 ? gap_lo : max_wall + 1;
    for (k = 0; k < 4; k++) {
      if ((rc = rrule_exp_next(x, lo, &W)) != 1) return rc;
      tz_local_lookup(z, W, &L);
      I = L.count ? L.utc[0] : W - L.off_before;
      if (I > T) break;
      /* a wall of the recent gap's far side: reached before T */
      lo = W + 1 > max_wall + 1 ? W + 1 : max_wall + 1;
    }
    if (I <= T) return 0;
    if (L.count == 0) { /* W is in a gap: the walls after it may map first */
      int64_t g1 = L.gap_end_utc + L.off_after;
      lo = W + 1;
      if (lo < g1) lo = g1;
      if (lo < max_wall + 1) lo = max_wall + 1;
      if ((rc = rrule_exp_next(x, lo, &W2)) == -1) return -1;
      if (rc == 1) {
        int64_t I2 = tz_local_to_utc(z, W2);
        if (I2 > T && I2 < I) I = I2;
      }
    }
  }
found:
  if (I > x->until_utc || I > MAX_INSTANT) return 0;
  *out = I;
  return 1;
}

/* ---- RDATE / EXDATE --------------------------------------------------- */

static int64_t date_instant(const rrule_date *d, int64_t dtstart,
                            const tz_zone *z) {
  if (d->kind == RRULE_UTC) return d->value;
  if (d->kind == RRULE_LOCAL) return local_to_utc(z, d->value);
  return local_to_utc(z, d->value * 86400 +
                             civil_floor_mod(dtstart, 86400)); /* DATE */
}

/* The EXDATE values that are instants, mapped once per call. */
typedef struct excl {
  int n, has_days;
  int64_t at[RRULE_MAX_DATES];
  const rrule_set *s;
  const tz_zone *z;
} excl;

static void excl_init(excl *e, const rrule_set *s, int64_t dtstart,
                      const tz_zone *z) {
  int i;
  e->n = 0;
  e->has_days = 0;
  e->s = s;
  e->z = z;
  for (i = 0; i < s->nexdates; i++)
    if (s->exdates[i].kind != RRULE_DATE)
      e->at[e->n++] = date_instant(&s->exdates[i], dtstart, z);
    else e->has_days = 1;
}

/*
** Whether instant t is excluded; if so, *skip_to is the instant to search
** after next (t itself, or the last instant of its excluded local date).
*/
static int excluded(const excl *e, int64_t t, int64_t *skip_to) {
  int i;
  int64_t day;
  for (i = 0; i < e->n; i++)
    if (e->at[i] == t) {
      *skip_to = t;
      return 1;
    }
  if (!e->has_days) return 0;
  day = civil_floor_div(rrule_wall_of(e->z, t * 1000), 86400);
  for (i = 0; i < e->s->nexdates; i++) {
    const rrule_date *d = &e->s->exdates[i];
    if (d->kind == RRULE_DATE && d->value == day) {
      int64_t end = local_to_utc(e->z, (day + 1) * 86400) - 1;
      *skip_to = end > t ? end : t;
      return 1;
    }
  }
  return 0;
}

/* ---- The API ---------------------------------------------------------- */

int rrule_next(const rrule_set *s, int64_t dtstart, const tz_zone *z,
               int64_t after_ms, int64_t *out_ms) {
  int64_t T = civil_floor_div(after_ms, 1000), best = INT64_MAX, c;
  excl e;
  rrule_exp x;
  int i, k, rc, gave_up = 0;
  if (dtstart < MIN_INSTANT || dtstart > RRULE_WALL_MAX) return 0;
  if (T < MIN_INSTANT - 1) T = MIN_INSTANT - 1;
  if (T >= MAX_INSTANT) return 0;
  excl_init(&e, s, dtstart, z);
  for (i = 0; i < s->nrules; i++) {
    int64_t t = T, skip;
    rrule_exp_init(&x, &s->rules[i], dtstart);
    for (k = 0; k <= s->nexdates; k++) {
      rc = rule_after(&x, z, t, &c);
      if (rc == -1) gave_up = 1;
      if (rc != 1 || c >= best) break;
      if (!excluded(&e, c, &skip)) {
        best = c;
        break;
      }
      t = skip;
    }
  }
  for (i = 0; i < s->nrdates; i++) {
    int64_t skip;
    c = date_instant(&s->rdates[i], dtstart, z);
    if (c > T && c < best && c <= MAX_INSTANT && !excluded(&e, c, &skip))
      best = c;
  }
  /* a rule that gave up might have had an earlier occurrence */
  if (gave_up) return -1;
  if (best == INT64_MAX) return 0;
  *out_ms = best * 1000;
  return 1;
}

int rrule_check(const rrule_set *s, int64_t dtstart, const tz_zone *z,
                char *err, size_t errlen) {
  int64_t first;
  int rc;
  const char *zone = is_utc(z) ? "UTC" : tz_name(z);
  if (s->tzid[0] && strcmp(s->tzid, zone) != 0) {
    if (err && errlen)
      snprintf(err, errlen,
               "rrule: TZID=%s differs from the trigger's time zone %s "
               "(RDATE and EXDATE values are in the trigger's zone)",
               s->tzid, zone);
    return -1;
  }
  rc = rrule_next(s, dtstart, z, (MIN_INSTANT - 1) * 1000, &first);
  if (rc == 1) return 0;
  if (err && errlen)
    snprintf(err, errlen, "%s",
             rc == 0 ? "rrule never occurs"
                     : "rrule: no occurrence found within the search's "
                       "bounds (docs/calendar.md, Limits)");
  return -1;
}
