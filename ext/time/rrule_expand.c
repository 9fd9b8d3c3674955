/*
** rrule_expand.c -- one rule in wall-clock time (rrule_int.h): the first
** wall at or after a given wall, as python-dateutil's rrule expands it.
**
** dateutil walks periods (a year, month, week, day, hour, minute or second
** of FREQ, INTERVAL apart, from DTSTART's), takes each period's days that
** pass the day parts (rrule_days.c) and the times of BYHOUR x BYMINUTE x
** BYSECOND, lets BYSETPOS pick positions from that sorted period, and
** keeps what is at or after DTSTART. This file computes the same set
** without walking from DTSTART:
**   - YEARLY, MONTHLY, WEEKLY: the period holding the wall is found by
**     arithmetic; a period is a bit set of days times the set of times
**     (or, with BYSETPOS, a sorted list of picks). A WEEKLY rule's first
**     period runs from DTSTART to the end of its week (dateutil: it
**     matters for BYSETPOS).
**   - DAILY and finer: days are found month by month from the months'
**     day masks; DAILY keeps the days INTERVAL apart from DTSTART's. For
**     HOURLY (MINUTELY, SECONDLY) an INTERVAL that divides 24 (60) makes
**     every day's times the same set, a product like DAILY's; any other
**     INTERVAL walks the day's members of the progression with jumps
**     (the "general" case).
** Bounds: the calendar repeats every 400 years, so a period search stops
** after one cycle of periods (400 years, 4800 months, 20871 weeks), a
** day search when 4800 months pass no day, and every search at 9999-12-31
** or when its budget (RRULE_BUDGET) is spent.
** COUNT: the occurrences before the period (or day) of a candidate are
** counted in bulk (bit counts times the times of a day), once per
** rrule_exp; when the COUNT-th is found it becomes the last wall allowed.
*/
#include "time/rrule_int.h"

#include <string.h>

#define DAY_S 86400

/* ---- Bits ------------------------------------------------------------- */

static int next_bit(uint64_t m, int from) {
  if (from > 63) return -1;
  m &= ~0ULL << from;
  return m ? rrule_ctz(m) : -1;
}

/* Position of the n-th (from 0) set bit of m; m has more than n. */
static int select_bit(uint64_t m, int64_t n) {
  while (n-- > 0) m &= m - 1;
  return rrule_ctz(m);
}

/* Bits v in [0, len) with v = r (mod step). */
static uint64_t pattern(int r, int step, int len) {
  uint64_t m = 0;
  int v;
  for (v = r; v < len; v += step) m |= 1ULL << v;
  return m;
}

/* 6-word sets of day bits. */
static int next_bit6(const uint64_t *w, int from, int len) {
  int i;
  for (i = from; i < len;) {
    uint64_t m = w[i / 64] & (~0ULL << (i % 64));
    if (m) {
      int b = (i / 64) * 64 + rrule_ctz(m);
      return b < len ? b : -1;
    }
    i = (i / 64 + 1) * 64;
  }
  return -1;
}

static int64_t count6_from(const uint64_t *w, int from, int len) {
  int64_t c = 0;
  int k;
  for (k = 0; k < 6 && k * 64 < len; k++) {
    uint64_t m = w[k];
    if (from > k * 64) m &= from - k * 64 >= 64 ? 0 : ~0ULL << (from - k * 64);
    if ((k + 1) * 64 > len) m &= (1ULL << (len - k * 64)) - 1;
    c += rrule_popcount(m);
  }
  return c;
}

/* The n-th (from 0) set bit at or after `from`. */
static int select6_from(const uint64_t *w, int from, int len, int64_t n) {
  int b = next_bit6(w, from, len);
  while (b >= 0) {
    uint64_t m = w[b / 64] & (~0ULL << (b % 64));
    int c = rrule_popcount(m);
    if (n < c) return (b / 64) * 64 + select_bit(m, n);
    n -= c;
    b = next_bit6(w, (b / 64 + 1) * 64, len);
  }
  return -1;
}

static int lower_bound(const uint32_t *a, int n, int64_t v) {
  int lo = 0, hi = n;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if ((int64_t)a[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/* ---- Times of a day --------------------------------------------------- */

static void times_product(rrule_times *t, uint32_t h, uint64_t m, uint64_t s) {
  t->kind = TIMES_PRODUCT;
  t->hours = h & 0xFFFFFFu;
  t->minutes = m & ((1ULL << 60) - 1);
  t->seconds = s & ((1ULL << 60) - 1);
  t->n = 0;
  t->per_day = (int64_t)rrule_popcount(t->hours) * rrule_popcount(t->minutes) *
               rrule_popcount(t->seconds);
}

/* First time >= sod, or -1. */
static int times_next(const rrule_times *t, int sod) {
  int h = sod / 3600, off = sod % 3600, H, i;
  if (t->kind == TIMES_LIST) {
    i = lower_bound(t->list, t->n, sod);
    return i < t->n ? (int)t->list[i] : -1;
  }
  if (t->per_day == 0) return -1;
  for (H = next_bit(t->hours, h); H >= 0; H = next_bit(t->hours, H + 1)) {
    int from = H == h ? off : 0;
    if (t->kind == TIMES_HOURS_LIST) {
      i = lower_bound(t->list, t->n, from);
      if (i < t->n) return H * 3600 + (int)t->list[i];
    } else {
      int mi = from / 60, s = from % 60;
      int M = next_bit(t->minutes, mi), S;
      if (M == mi) {
        S = next_bit(t->seconds, s);
        if (S >= 0) return H * 3600 + M * 60 + S;
        M = next_bit(t->minutes, mi + 1);
      }
      if (M >= 0) return H * 3600 + M * 60 + rrule_ctz(t->seconds);
    }
  }
  return -1;
}

/* Times >= sod. */
static int64_t times_count_ge(const rrule_times *t, int sod) {
  int h = sod / 3600, off = sod % 3600;
  int64_t c, per_hour;
  if (t->kind == TIMES_LIST) return t->n - lower_bound(t->list, t->n, sod);
  if (t->per_day == 0) return 0;
  per_hour = t->per_day / rrule_popcount(t->hours);
  c = rrule_popcount((uint64_t)t->hours >> (h + 1)) * per_hour;
  if (!(t->hours >> h & 1)) return c;
  if (t->kind == TIMES_HOURS_LIST)
    return c + t->n - lower_bound(t->list, t->n, off);
  {
    int mi = off / 60, s = off % 60;
    int64_t ns = rrule_popcount(t->seconds);
    c += rrule_popcount(t->minutes >> (mi + 1)) * ns;
    if (t->minutes >> mi & 1) c += rrule_popcount(t->seconds >> s);
  }
  return c;
}

/* The n-th time of the day (from 0); n < per_day. */
static int times_nth(const rrule_times *t, int64_t n) {
  int64_t per_hour;
  if (t->kind == TIMES_LIST) return (int)t->list[n];
  per_hour = t->per_day / rrule_popcount(t->hours);
  if (t->kind == TIMES_HOURS_LIST)
    return select_bit(t->hours, n / per_hour) * 3600 +
           (int)t->list[n % per_hour];
  {
    int64_t ns = rrule_popcount(t->seconds), r = n % per_hour;
    return select_bit(t->hours, n / per_hour) * 3600 +
           select_bit(t->minutes, r / ns) * 60 + select_bit(t->seconds, r % ns);
  }
}

/* ---- BYSETPOS --------------------------------------------------------- */

/* The distinct indexes (from 0, ascending) that BYSETPOS picks among n
** sorted elements; returns how many. */
static int setpos_indexes(const rrule_rule *r, int64_t n, int64_t *idx) {
  int64_t a[RRULE_SEL_MAX / 2 + 1] = {0}, b[RRULE_SEL_MAX / 2 + 1] = {0};
  int na = 0, nb = 0, i = 0, j = 0, k = 0, v;
  for (v = 1; v <= 366 && v <= n; v++) {
    if (r->bysetpos.w[v / 64] >> (v % 64) & 1) a[na++] = v - 1;
  }
  for (v = (int)(n < 366 ? n : 366); v >= 1; v--)
    if (r->bysetpos_neg.w[v / 64] >> (v % 64) & 1) b[nb++] = n - v;
  while (i < na || j < nb) {
    int64_t next;
    if (i < na && (j == nb || a[i] <= b[j])) next = a[i++];
    else next = b[j++];
    if (k == 0 || idx[k - 1] != next) idx[k++] = next;
  }
  return k;
}

/* Replaces a day's times by BYSETPOS's picks among them: a list of times
** of the day, or (sub_hour) of the hour with the hours kept. */
static void times_pick(const rrule_rule *r, rrule_times *t, int sub_hour) {
  int64_t idx[RRULE_SEL_MAX];
  int64_t n = sub_hour ? t->per_day / rrule_popcount(t->hours) : t->per_day;
  int k, i;
  uint32_t hours = t->hours;
  rrule_times one; /* the product of one hour (sub_hour) or of the day */
  one.kind = TIMES_PRODUCT;
  one.hours = sub_hour ? 1 : hours;
  one.minutes = t->minutes;
  one.seconds = t->seconds;
  one.n = 0;
  one.per_day = n;
  k = setpos_indexes(r, n, idx);
  for (i = 0; i < k; i++) t->list[i] = (uint32_t)times_nth(&one, idx[i]);
  t->n = k;
  t->kind = sub_hour ? TIMES_HOURS_LIST : TIMES_LIST;
  t->hours = hours;
  t->per_day = sub_hour ? (int64_t)k * rrule_popcount(hours) : k;
}

/* ---- Setting up ------------------------------------------------------- */

static int64_t gcd(int64_t a, int64_t b) {
  while (b) {
    int64_t t = a % b;
    a = b;
    b = t;
  }
  return a;
}

/*
** General sub-daily: whether any time of day can ever be an occurrence.
** The progression reaches, over all days, exactly the times of day
** congruent to DTSTART's modulo g = gcd(INTERVAL x unit, the day) (what
** dateutil refuses as "an empty set"); some must pass the filters.
*/
static int reachable(const rrule_exp *x) {
  int I = x->interval, h, m;
  if (x->freq == RRULE_HOURLY) {
    int g = (int)gcd(I, 24);
    for (h = 0; h < 24; h++)
      if ((x->hfilter >> h & 1) && (h - x->h0) % g == 0) return 1;
    return 0;
  }
  if (x->freq == RRULE_MINUTELY) {
    int g = (int)gcd(I, 1440), m0 = x->h0 * 60 + x->mi0;
    for (m = 0; m < 1440; m++)
      if ((x->hfilter >> (m / 60) & 1) && (x->mfilter >> (m % 60) & 1) &&
          (m - m0) % g == 0)
        return 1;
    return 0;
  }
  {
    int64_t g = gcd(I, 86400);
    int s0 = x->h0 * 3600 + x->mi0 * 60 + x->s0;
    for (h = 0; h < 24; h++) {
      if (!(x->hfilter >> h & 1)) continue;
      for (m = 0; m < 60; m++) {
        int base = h * 3600 + m * 60, s = (int)civil_floor_mod(s0 - base, g);
        uint64_t secs = 0;
        if (!(x->mfilter >> m & 1)) continue;
        if (g <= 60) secs = pattern(s, (int)g, 60);
        else if (s < 60) secs = 1ULL << s;
        if (secs & x->sfilter) return 1;
      }
    }
    return 0;
  }
}

/* Whether every occurrence falls on DTSTART's weekday (INTERVAL a whole
** number of weeks). */
static int weekday_locked(const rrule_exp *x) {
  static const int64_t week[7] = {0, 0, 0, 7, 168, 10080, 604800};
  return x->freq >= RRULE_DAILY && x->interval % week[x->freq] == 0;
}

#define ALL_HOURS 0xFFFFFFu
#define ALL_60 ((1ULL << 60) - 1)

static void init_times(rrule_exp *x) {
  const rrule_rule *r = x->r;
  uint32_t p = r->parts;
  uint32_t H = (p & RRULE_P_BYHOUR) ? r->byhour : 0;
  uint64_t M = (p & RRULE_P_BYMINUTE) ? r->byminute : 0;
  uint64_t S = (p & RRULE_P_BYSECOND) ? r->bysecond & ALL_60 : 0;
  uint32_t Hf = (p & RRULE_P_BYHOUR) ? H : ALL_HOURS;
  uint64_t Mf = (p & RRULE_P_BYMINUTE) ? M : ALL_60;
  uint64_t Sf = (p & RRULE_P_BYSECOND) ? S : ALL_60;
  uint64_t Md = (p & RRULE_P_BYMINUTE) ? M : 1ULL << x->mi0;
  uint64_t Sd = (p & RRULE_P_BYSECOND) ? S : 1ULL << x->s0;
  int I = x->interval;
  x->hfilter = Hf;
  x->mfilter = Mf;
  x->sfilter = Sf;
  switch (x->freq) {
    case RRULE_HOURLY:
      x->unit0 = x->dtstart - x->mi0 * 60 - x->s0;
      if (24 % I == 0) {
        times_product(&x->t, Hf & (uint32_t)pattern(x->h0 % I, I, 24), Md, Sd);
        if (x->setpos && x->t.per_day) times_pick(r, &x->t, 1);
      } else {
        x->general = 1;
        times_product(&x->t, 1, Md, Sd); /* the times of one hour */
        if (x->setpos) times_pick(r, &x->t, 1);
      }
      break;
    case RRULE_MINUTELY:
      x->unit0 = x->dtstart - x->s0;
      times_product(&x->t, 1, 1, Sd); /* the times of one minute */
      if (x->setpos) times_pick(r, &x->t, 0);
      if (60 % I == 0) {
        uint64_t secs = 0;
        int i;
        for (i = 0; i < x->t.n; i++) secs |= 1ULL << x->t.list[i];
        if (!x->setpos) secs = Sd;
        times_product(&x->t, Hf, Mf & pattern(x->mi0 % I, I, 60), secs);
      } else {
        x->general = 1;
      }
      break;
    case RRULE_SECONDLY: {
      const rrule_bits *pos = &r->bysetpos, *neg = &r->bysetpos_neg;
      int keep = !x->setpos || (pos->w[0] >> 1 & 1) || (neg->w[0] >> 1 & 1);
      x->unit0 = x->dtstart;
      if (60 % I == 0) {
        times_product(&x->t, Hf, Mf, Sf & pattern(x->s0 % I, I, 60));
      } else {
        x->general = 1;
        times_product(&x->t, 1, 1, 1);
      }
      if (!keep) times_product(&x->t, 0, 0, 0);
      break;
    }
    default: /* YEARLY .. DAILY */
      times_product(&x->t, H ? H : 1u << x->h0, Md, Sd);
      if (x->freq == RRULE_DAILY && x->setpos && x->t.per_day)
        times_pick(r, &x->t, 0);
      break;
  }
  if (x->general && (!Hf || !Mf || !Sf || !reachable(x)))
    times_product(&x->t, 0, 0, 0);
  if (x->wdays && !(x->wdays >> x->wd0 & 1) && weekday_locked(x))
    times_product(&x->t, 0, 0, 0);
}

void rrule_exp_init(rrule_exp *x, const rrule_rule *r, int64_t dtstart) {
  uint32_t p = r->parts;
  int sod;
  x->r = r;
  x->freq = r->freq;
  x->interval = r->interval > 0 ? r->interval : 1;
  x->dtstart = dtstart;
  x->d0 = civil_floor_div(dtstart, DAY_S);
  sod = (int)(dtstart - x->d0 * DAY_S);
  civil_date_from_days(x->d0, &x->y0, &x->m0, &x->dd0);
  x->h0 = sod / 3600;
  x->mi0 = sod / 60 % 60;
  x->s0 = sod % 60;
  x->wd0 = rrule_weekday(x->d0);
  x->until_wall = INT64_MAX;
  x->until_utc = INT64_MAX;
  if (r->until_kind == RRULE_DATE) x->until_wall = r->until * DAY_S;
  else if (r->until_kind == RRULE_LOCAL) x->until_wall = r->until;
  else if (r->until_kind == RRULE_UTC) x->until_utc = r->until;
  /* Day parts, with dateutil's defaults from DTSTART. */
  x->months = r->bymonth;
  x->mdays = r->bymonthday;
  x->mdays_neg = r->bymonthday_neg;
  x->wdays = r->byday;
  if (!(p & (RRULE_P_BYWEEKNO | RRULE_P_BYYEARDAY | RRULE_P_BYMONTHDAY |
             RRULE_P_BYDAY))) {
    if (x->freq == RRULE_YEARLY) {
      if (!x->months) x->months = (uint16_t)(1u << x->m0);
      x->mdays = 1u << x->dd0;
    } else if (x->freq == RRULE_MONTHLY) {
      x->mdays = 1u << x->dd0;
    } else if (x->freq == RRULE_WEEKLY) {
      x->wdays = (uint8_t)(1u << x->wd0);
    }
  }
  x->ord_month = r->byday_ord && (x->freq == RRULE_MONTHLY ||
                                  (x->freq == RRULE_YEARLY && r->bymonth));
  x->ord_year = r->byday_ord && x->freq == RRULE_YEARLY && !r->bymonth;
  x->setpos = (p & RRULE_P_BYSETPOS) != 0;
  x->general = 0;
  init_times(x);
  x->count = r->count;
  x->cnt_total = 0;
  x->cnt_next = x->freq <= RRULE_WEEKLY ? 0 : x->d0;
  x->cnt_done = 0;
  x->budget = RRULE_BUDGET;
}

/* ---- Periods: YEARLY, MONTHLY, WEEKLY --------------------------------- */

typedef struct pset {
  int64_t day0;     /* first day of the period */
  int ndays;        /* days in it (a month: one more, for SKIP=FORWARD) */
  uint64_t days[6]; /* bit i: day day0 + i is selected */
  int64_t min_wall; /* elements below it belong to the period before */
  int nsel;         /* BYSETPOS: picks in sel; -1: days x times */
  uint32_t sel[RRULE_SEL_MAX]; /* seconds from day0, ascending */
} pset;

static int64_t week_start(const rrule_exp *x, int64_t day) {
  return day - (rrule_weekday(day) - x->r->wkst + 7) % 7;
}

/* The first period (of the progression) that ends after wall w. */
static int64_t period_index(const rrule_exp *x, int64_t w) {
  int64_t day = civil_floor_div(w, DAY_S), diff;
  int y, m, d;
  if (x->freq == RRULE_WEEKLY) {
    diff = (week_start(x, day) - week_start(x, x->d0)) / 7;
  } else {
    civil_date_from_days(day, &y, &m, &d);
    diff = x->freq == RRULE_YEARLY ? y - x->y0
                                   : (int64_t)(y - x->y0) * 12 + m - x->m0;
  }
  return diff <= 0 ? 0 : (diff + x->interval - 1) / x->interval;
}

static void pick_positions(const rrule_exp *x, pset *ps) {
  int64_t idx[RRULE_SEL_MAX];
  int64_t n = count6_from(ps->days, 0, ps->ndays) * x->t.per_day;
  int k = setpos_indexes(x->r, n, idx), i;
  for (i = 0; i < k; i++) {
    int day = select6_from(ps->days, 0, ps->ndays, idx[i] / x->t.per_day);
    ps->sel[i] =
        (uint32_t)(day * DAY_S + times_nth(&x->t, idx[i] % x->t.per_day));
  }
  ps->nsel = k;
}

/* Period k as dateutil builds it; 0 when it starts after 9999. */
static int period_build(rrule_exp *x, int64_t k, pset *ps) {
  int64_t I = x->interval;
  memset(ps->days, 0, sizeof ps->days);
  ps->min_wall = INT64_MIN;
  ps->nsel = -1;
  if (x->freq == RRULE_YEARLY) {
    int64_t y = x->y0 + k * I;
    if (y > CIVIL_MAX_YEAR) return 0;
    ps->day0 = civil_days_from_date(y, 1, 1);
    ps->ndays = civil_is_leap(y) ? 366 : 365;
    rrule_year_days(x, (int)y, ps->days);
    x->budget -= 12;
  } else if (x->freq == RRULE_MONTHLY) {
    int64_t mi = (int64_t)x->y0 * 12 + x->m0 - 1 + k * I;
    int y = (int)(mi / 12), m = (int)(mi % 12) + 1, spill, dim;
    if (y > CIVIL_MAX_YEAR) return 0;
    dim = civil_days_in_month(y, m);
    ps->day0 = civil_days_from_date(y, m, 1);
    ps->ndays = dim + 1;
    ps->days[0] = rrule_month_days(x, y, m, &spill) >> 1;
    if (spill) ps->days[0] |= 1ULL << dim;
    x->budget--;
  } else {
    int i;
    ps->day0 = k == 0 ? x->d0 : week_start(x, x->d0) + 7 * k * I;
    ps->ndays = k == 0 ? 7 - (x->wd0 - x->r->wkst + 7) % 7 : 7;
    if (ps->day0 > RRULE_DAY_MAX) return 0;
    for (i = 0; i < ps->ndays; i++) {
      int64_t day = ps->day0 + i;
      int y, m, d;
      if (day > RRULE_DAY_MAX || !(x->wdays >> rrule_weekday(day) & 1))
        continue;
      if (x->months) {
        civil_date_from_days(day, &y, &m, &d);
        if (!(x->months >> m & 1)) continue;
      }
      ps->days[0] |= 1ULL << i;
    }
    x->budget--;
  }
  if (x->setpos && x->t.per_day) pick_positions(x, ps);
  return 1;
}

/* Last element of a period, or INT64_MIN when it has none. */
static int64_t ps_last(const rrule_exp *x, const pset *ps) {
  int64_t c = count6_from(ps->days, 0, ps->ndays);
  if (ps->nsel >= 0)
    return ps->nsel ? ps->day0 * DAY_S + ps->sel[ps->nsel - 1] : INT64_MIN;
  if (c == 0 || x->t.per_day == 0) return INT64_MIN;
  return (ps->day0 + select6_from(ps->days, 0, ps->ndays, c - 1)) * DAY_S +
         times_nth(&x->t, x->t.per_day - 1);
}

/* Period k; with SKIP=FORWARD a month's first day moved from the month
** before is that month's, and the same wall in this month is dropped. */
static int period_get(rrule_exp *x, int64_t k, pset *ps) {
  if (!period_build(x, k, ps)) return 0;
  if (x->freq == RRULE_MONTHLY && x->r->skip == RRULE_SKIP_FORWARD &&
      x->interval == 1 && k > 0) {
    pset prev;
    if (period_build(x, k - 1, &prev)) {
      int64_t last = ps_last(x, &prev);
      if (last != INT64_MIN) ps->min_wall = last + 1;
    }
  }
  return 1;
}

/* Where wall w falls in a period: *rd its day (from 0), *sod its second
** (w clamped to the period's start and min_wall). */
static int64_t ps_rel(const pset *ps, int64_t w, int64_t *rd, int *sod) {
  int64_t rel;
  if (w < ps->min_wall) w = ps->min_wall;
  rel = w - ps->day0 * DAY_S;
  if (rel < 0) rel = 0;
  *rd = rel / DAY_S;
  *sod = (int)(rel % DAY_S);
  return rel;
}

/* First element >= w: 1 and *out, or 0. */
static int ps_next(const rrule_exp *x, const pset *ps, int64_t w,
                   int64_t *out) {
  int64_t rd, rel;
  int sod, b;
  rel = ps_rel(ps, w, &rd, &sod);
  if (ps->nsel >= 0) {
    int i = lower_bound(ps->sel, ps->nsel, rel);
    if (i == ps->nsel) return 0;
    *out = ps->day0 * DAY_S + ps->sel[i];
    return 1;
  }
  if (rd >= ps->ndays) return 0;
  for (b = next_bit6(ps->days, (int)rd, ps->ndays); b >= 0;
       b = next_bit6(ps->days, b + 1, ps->ndays)) {
    int t = times_next(&x->t, b == rd ? sod : 0);
    if (t >= 0) {
      *out = (ps->day0 + b) * DAY_S + t;
      return 1;
    }
  }
  return 0;
}

/* Elements >= w. */
static int64_t ps_count_ge(const rrule_exp *x, const pset *ps, int64_t w) {
  int64_t rd, rel, c = 0;
  int sod;
  rel = ps_rel(ps, w, &rd, &sod);
  if (ps->nsel >= 0) return ps->nsel - lower_bound(ps->sel, ps->nsel, rel);
  if (rd >= ps->ndays) return 0;
  if (ps->days[rd / 64] >> (rd % 64) & 1) c = times_count_ge(&x->t, sod);
  return c + count6_from(ps->days, (int)rd + 1, ps->ndays) * x->t.per_day;
}

/* The n-th (from 0) element >= w; there are more than n. */
static int64_t ps_nth_ge(const rrule_exp *x, const pset *ps, int64_t w,
                         int64_t n) {
  int64_t rd, rel, c0 = 0;
  int sod, day;
  rel = ps_rel(ps, w, &rd, &sod);
  if (ps->nsel >= 0)
    return ps->day0 * DAY_S + ps->sel[lower_bound(ps->sel, ps->nsel, rel) + n];
  if (ps->days[rd / 64] >> (rd % 64) & 1) c0 = times_count_ge(&x->t, sod);
  if (n < c0)
    return (ps->day0 + rd) * DAY_S + times_nth(&x->t, x->t.per_day - c0 + n);
  n -= c0;
  day = select6_from(ps->days, (int)rd + 1, ps->ndays, n / x->t.per_day);
  return (ps->day0 + day) * DAY_S + times_nth(&x->t, n % x->t.per_day);
}

/* The COUNT-th occurrence is the n-th element >= w of ps: last wall. */
static void count_ends(rrule_exp *x, int64_t end) {
  if (end < x->until_wall) x->until_wall = end;
  x->cnt_done = 1;
}

/* Counts the occurrences of the periods before k (whole periods). */
static void periods_count_before(rrule_exp *x, int64_t k) {
  pset ps;
  while (!x->cnt_done && x->cnt_next < k && x->budget >= 0) {
    int64_t c;
    if (!period_get(x, x->cnt_next, &ps)) return;
    c = ps_count_ge(x, &ps, x->dtstart);
    if (x->cnt_total + c >= x->count) {
      count_ends(x, ps_nth_ge(x, &ps, x->dtstart, x->count - x->cnt_total - 1));
      return;
    }
    x->cnt_total += c;
    x->cnt_next++;
  }
}

/* Whether W, an element of period k (ps), is within COUNT. */
static int periods_within_count(rrule_exp *x, int64_t k, const pset *ps,
                                int64_t W) {
  int64_t idx;
  periods_count_before(x, k);
  if (x->budget < 0) return 0;
  if (x->cnt_done) return W <= x->until_wall;
  idx =
      x->cnt_total + ps_count_ge(x, ps, x->dtstart) - ps_count_ge(x, ps, W + 1);
  if (idx <= x->count) return 1;
  count_ends(x, ps_nth_ge(x, ps, x->dtstart, x->count - x->cnt_total - 1));
  return 0;
}

static int periods_next(rrule_exp *x, int64_t w, int64_t *out) {
  static const long cycle[3] = {401, 4801, 20872}; /* periods in 400 years */
  int64_t k = period_index(x, w);
  long n;
  pset ps;
  if (x->freq == RRULE_MONTHLY && x->r->skip == RRULE_SKIP_FORWARD && k > 0)
    k--; /* the month before may have moved a day into w's month */
  for (n = 0; n <= cycle[x->freq]; n++, k++) {
    if (!period_get(x, k, &ps) || x->budget < 0) return 0;
    if (ps.day0 * DAY_S > x->until_wall) return 0;
    if (ps_next(x, &ps, w, out))
      return !x->count || periods_within_count(x, k, &ps, *out);
  }
  return 0;
}

/* ---- Days: DAILY and finer -------------------------------------------- */

/* General HOURLY: the hours of the day in the progression, each with the
** times of one hour. */
static int gen_hourly(rrule_exp *x, int64_t day, int from) {
  int64_t h0 = civil_floor_div(x->unit0, 3600);
  int h = from / 3600, off = from % 3600;
  while (h < 24) {
    int64_t r = civil_floor_mod(h0 - (day * 24 + h), x->interval);
    int t;
    if (--x->budget < 0) return -1;
    if (r) {
      if (r >= 24 - h) return -1;
      h += (int)r;
      off = 0;
      continue;
    }
    if (x->hfilter >> h & 1) {
      t = times_next(&x->t, off);
      if (t >= 0) return h * 3600 + t;
    }
    h++;
    off = 0;
  }
  return -1;
}

/* General MINUTELY: the minutes of the day in the progression (BYHOUR and
** BYMINUTE limit), each with the times of one minute. */
static int gen_minutely(rrule_exp *x, int64_t day, int from) {
  int64_t m0 = civil_floor_div(x->unit0, 60);
  int mod = from / 60, off = from % 60;
  while (mod < 1440) {
    int64_t r = civil_floor_mod(m0 - (day * 1440 + mod), x->interval);
    int h = mod / 60, mi = mod % 60, t;
    if (--x->budget < 0) return -1;
    if (r) {
      if (r >= 1440 - mod) return -1;
      mod += (int)r;
      off = 0;
      continue;
    }
    if (!(x->hfilter >> h & 1)) {
      int nh = next_bit(x->hfilter, h + 1);
      if (nh < 0) return -1;
      mod = nh * 60;
      off = 0;
      continue;
    }
    if (!(x->mfilter >> mi & 1)) {
      int nm = next_bit(x->mfilter, mi + 1);
      mod = nm < 0 ? (h + 1) * 60 : h * 60 + nm;
      off = 0;
      continue;
    }
    t = times_next(&x->t, off);
    if (t >= 0) return mod * 60 + t;
    mod++;
    off = 0;
  }
  return -1;
}

/* General SECONDLY: the seconds of the day in the progression that BYHOUR,
** BYMINUTE and BYSECOND let through. */
static int gen_secondly(rrule_exp *x, int64_t day, int t) {
  while (t < DAY_S) {
    int64_t r = civil_floor_mod(x->unit0 - (day * DAY_S + t), x->interval);
    int h = t / 3600, mi = t / 60 % 60, s = t % 60, n;
    if (--x->budget < 0) return -1;
    if (r) {
      if (r >= DAY_S - t) return -1;
      t += (int)r;
    } else if (!(x->hfilter >> h & 1)) {
      n = next_bit(x->hfilter, h + 1);
      if (n < 0) return -1;
      t = n * 3600;
    } else if (!(x->mfilter >> mi & 1)) {
      n = next_bit(x->mfilter, mi + 1);
      t = n < 0 ? (h + 1) * 3600 : h * 3600 + n * 60;
    } else if (!(x->sfilter >> s & 1)) {
      n = next_bit(x->sfilter, s + 1);
      t = n < 0 ? h * 3600 + (mi + 1) * 60 : h * 3600 + mi * 60 + n;
    } else {
      return t;
    }
  }
  return -1;
}

/* First time >= from of day `day` (which passes the day parts), or -1. */
static int day_next(rrule_exp *x, int64_t day, int from) {
  if (!x->general) return times_next(&x->t, from);
  if (x->freq == RRULE_HOURLY) return gen_hourly(x, day, from);
  if (x->freq == RRULE_MINUTELY) return gen_minutely(x, day, from);
  return gen_secondly(x, day, from);
}

/* Times of day `day` >= from. */
static int64_t day_count(rrule_exp *x, int64_t day, int from) {
  int64_t c = 0;
  int t;
  if (!x->general) return times_count_ge(&x->t, from);
  while (from < DAY_S && (t = day_next(x, day, from)) >= 0) {
    c++;
    from = t + 1;
  }
  return c;
}

/* The n-th (from 0) time of day `day` >= from; there are more than n. */
static int day_nth(rrule_exp *x, int64_t day, int from, int64_t n) {
  int t = -1;
  if (!x->general)
    return times_nth(&x->t, x->t.per_day - day_count(x, day, from) + n);
  for (; n >= 0; n--) {
    t = day_next(x, day, from);
    if (t < 0) return 0; /* the budget ran out */
    from = t + 1;
  }
  return t;
}

/* DAILY: days of month (fd = its first day, dim days) in the progression
** from DTSTART's day (bit d = day d). */
static uint32_t daily_members(const rrule_exp *x, int64_t fd, int dim) {
  int64_t start = fd > x->d0 ? fd : x->d0, d;
  uint32_t m = 0;
  for (d = start + civil_floor_mod(x->d0 - start, x->interval); d < fd + dim;
       d += x->interval)
    m |= 1u << (d - fd + 1);
  return m;
}

/* Days of month m of year y that have occurrences (before the times). */
static uint32_t month_mask(const rrule_exp *x, int y, int m, int64_t fd) {
  uint32_t mask = rrule_day_filter(x, y, m);
  if (mask && x->freq == RRULE_DAILY)
    mask &= daily_members(x, fd, civil_days_in_month(y, m));
  return mask;
}

/* Counts the occurrences of the days before `upto`. */
static void days_count_before(rrule_exp *x, int64_t upto) {
  while (!x->cnt_done && x->cnt_next < upto && x->budget >= 0) {
    int y, m, d, dim, has_d0;
    int64_t fd, last;
    uint32_t mask;
    civil_date_from_days(x->cnt_next, &y, &m, &d);
    dim = civil_days_in_month(y, m);
    fd = x->cnt_next - d + 1;
    last = fd + dim - 1 < upto - 1 ? fd + dim - 1 : upto - 1;
    mask = month_mask(x, y, m, fd) & (~0u << d) &
           (uint32_t)((2ULL << (last - fd + 1)) - 1);
    x->budget--;
    has_d0 = x->d0 >= fd && x->d0 <= last && (mask >> (x->d0 - fd + 1) & 1);
    if (!x->general && !has_d0) {
      int64_t c = rrule_popcount(mask) * x->t.per_day;
      if (x->cnt_total + c < x->count) {
        x->cnt_total += c;
        x->cnt_next = last + 1;
        continue;
      }
    }
    while (mask) {
      int64_t day = fd + rrule_ctz(mask) - 1, c;
      int from = day == x->d0 ? (int)(x->dtstart - x->d0 * DAY_S) : 0;
      mask &= mask - 1;
      c = day_count(x, day, from);
      if (x->cnt_total + c >= x->count) {
        count_ends(x, day * DAY_S +
                          day_nth(x, day, from, x->count - x->cnt_total - 1));
        return;
      }
      x->cnt_total += c;
    }
    x->cnt_next = last + 1;
  }
}

/* Whether W (an occurrence on day `day`) is within COUNT. */
static int days_within_count(rrule_exp *x, int64_t day, int64_t W) {
  int from = day == x->d0 ? (int)(x->dtstart - x->d0 * DAY_S) : 0;
  int64_t idx;
  days_count_before(x, day);
  if (x->budget < 0) return 0;
  if (x->cnt_done) return W <= x->until_wall;
  idx = x->cnt_total + day_count(x, day, from) -
        day_count(x, day, (int)(W - day * DAY_S) + 1);
  if (idx <= x->count) return 1;
  count_ends(x,
             day * DAY_S + day_nth(x, day, from, x->count - x->cnt_total - 1));
  return 0;
}

static int days_next(rrule_exp *x, int64_t w, int64_t *out) {
  int64_t day = civil_floor_div(w, DAY_S);
  int sod = (int)(w - day * DAY_S), y, m, d, idle = 0;
  if (x->t.per_day == 0) return 0;
  civil_date_from_days(day, &y, &m, &d);
  while (y <= CIVIL_MAX_YEAR && x->budget-- >= 0) {
    int64_t fd = civil_days_from_date(y, m, 1);
    uint32_t mask, passing;
    if (fd * DAY_S > x->until_wall) return 0;
    if (x->freq == RRULE_DAILY && x->interval > 31) {
      /* jump to the month of the next member */
      int64_t from = fd + d - 1 > x->d0 ? fd + d - 1 : x->d0;
      int64_t next = from + civil_floor_mod(x->d0 - from, x->interval);
      int ny, nm, nd;
      civil_date_from_days(next, &ny, &nm, &nd);
      if (ny != y || nm != m) {
        if (next > RRULE_DAY_MAX) return 0;
        y = ny;
        m = nm;
        d = 1;
        sod = 0;
        continue;
      }
    }
    passing = rrule_day_filter(x, y, m);
    mask = passing;
    if (mask && x->freq == RRULE_DAILY)
      mask &= daily_members(x, fd, civil_days_in_month(y, m));
    mask &= ~0u << d;
    while (mask) {
      int dd = rrule_ctz(mask), t;
      int64_t dayn = fd + dd - 1;
      mask &= mask - 1;
      t = day_next(x, dayn, dayn == day ? sod : 0);
      if (x->budget < 0) return 0;
      if (t >= 0) {
        *out = dayn * DAY_S + t;
        return !x->count || days_within_count(x, dayn, *out);
      }
    }
    idle = passing ? 0 : idle + 1;
    if (idle > 4800) return 0; /* 400 years without a day: never */
    if (++m > 12) {
      m = 1;
      y++;
    }
    d = 1;
  }
  return 0;
}

/* ---- The entry point -------------------------------------------------- */

int rrule_exp_next(rrule_exp *x, int64_t w, int64_t *out) {
  int ok;
  if (w < x->dtstart) w = x->dtstart;
  if (w > x->until_wall || w > RRULE_WALL_MAX) return 0;
  if (x->freq <= RRULE_WEEKLY) ok = periods_next(x, w, out);
  else ok = days_next(x, w, out);
  if (!ok && x->budget < 0) return -1;
  return ok && *out <= x->until_wall && *out <= RRULE_WALL_MAX;
}
