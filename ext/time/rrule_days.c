/*
** rrule_days.c -- which days of a month or a year a rule's day parts
** select (rrule_int.h), as python-dateutil's rrule reads them.
**
** dateutil treats every day part as a filter over the days of the
** period: a part that "expands" in RFC 5545's table (BYMONTHDAY in a
** MONTHLY rule) filters the period's every day, so expand and limit are
** the same operation; the parts not given are filled from DTSTART first
** (rrule_expand.c). Here the filters become bit masks:
**   - a month: 31 bits (bit d = day d), built from BYMONTHDAY's positive
**     and negative values, weekday patterns (one rotation and a multiply),
**     the n-th weekdays of the month, and BYYEARDAY;
**   - a year: 366 bits, the months' masks side by side, then BYWEEKNO and
**     the n-th weekdays of the year.
** BYWEEKNO copies dateutil's arithmetic exactly, quirks included (a week
** 1 that begins in December belongs to both years; the days of the last
** week of the year before are kept only for -1 or its exact number).
** RFC 7529 SKIP: a BYMONTHDAY value past the end of a month stands, with
** BACKWARD, for the month's last day and, with FORWARD, for the next
** month's first day (then judged by the weekday and year-day parts as the
** day it is); BYMONTH is judged by the month it came from.
*/
#include "time/rrule_int.h"

#include <string.h>

static uint32_t month_bits(int dim) {
  return (uint32_t)((1ULL << (dim + 1)) - 2);
}

/* Days d of a month whose weekday is in wdays (day 1 has weekday wd1). */
static uint32_t weekday_bits(uint8_t wdays, int wd1) {
  uint32_t rot =
      ((uint32_t)(wdays >> wd1) | ((uint32_t)wdays << (7 - wd1))) & 0x7Fu;
  return (uint32_t)(((uint64_t)rot * 0x10204081ULL) << 1);
}

/* n-th weekdays of a range of days [first, first + len) whose first day
** has weekday wd_first: bit i (0-based in the range). len <= 366. */
static void nth_bits(const rrule_rule *r, int len, int wd_first,
                     uint64_t out[6]) {
  int w, wd_last = (wd_first + len - 1) % 7;
  memset(out, 0, 6 * sizeof out[0]);
  for (w = 0; w < 7; w++) {
    uint64_t pos = r->byday_nth[w], neg = r->byday_nth_neg[w];
    int first = (w - wd_first + 7) % 7;
    int last = len - 1 - (wd_last - w + 7) % 7;
    while (pos) {
      int n = rrule_ctz(pos), i = first + (n - 1) * 7;
      pos &= pos - 1;
      if (i < len) out[i / 64] |= 1ULL << (i % 64);
    }
    while (neg) {
      int n = rrule_ctz(neg), i = last - (n - 1) * 7;
      neg &= neg - 1;
      if (i >= 0) out[i / 64] |= 1ULL << (i % 64);
    }
  }
}

static int bit366(const rrule_bits *b, int v) {
  return (int)(b->w[v / 64] >> (v % 64) & 1);
}

/* Whether day-of-year i (0-based) of a year of yearlen days is selected. */
static int yearday_ok(const rrule_rule *r, int i, int yearlen) {
  return bit366(&r->byyearday, i + 1) ||
         (yearlen - i <= 366 && bit366(&r->byyearday_neg, yearlen - i));
}

/* The month-wide tests of one day that SKIP=FORWARD moved: weekday,
** n-th weekday of its month, year day. */
static int moved_day_ok(const rrule_exp *x, int64_t day) {
  const rrule_rule *r = x->r;
  int y, m, d;
  civil_date_from_days(day, &y, &m, &d);
  if (x->wdays && !(x->wdays >> rrule_weekday(day) & 1)) return 0;
  if (x->ord_month) {
    uint64_t nth[6];
    nth_bits(r, civil_days_in_month(y, m), rrule_weekday(day), nth);
    if (!(nth[0] & 1)) return 0; /* the moved day is the 1st */
  }
  if (r->parts & RRULE_P_BYYEARDAY) {
    int64_t jan1 = civil_days_from_date(y, 1, 1);
    if (!yearday_ok(r, (int)(day - jan1), civil_is_leap(y) ? 366 : 365))
      return 0;
  }
  return 1;
}

uint32_t rrule_month_days(const rrule_exp *x, int y, int m, int *spill) {
  const rrule_rule *r = x->r;
  *spill = 0;
  /* a month BYMONTH leaves out first: a yearly rule asks for all twelve */
  if (x->months && !(x->months >> m & 1)) return 0;
  int dim = civil_days_in_month(y, m), d;
  int64_t first = civil_days_from_date(y, m, 1);
  int wd1 = rrule_weekday(first);
  uint32_t all = month_bits(dim), mask = all, neg;
  int over = 0;
  if (x->mdays || x->mdays_neg) {
    mask = x->mdays & all;
    over = (x->mdays & ~all) != 0;
    for (neg = x->mdays_neg; neg; neg &= neg - 1) {
      int v = rrule_ctz(neg);
      if (v <= dim) mask |= 1u << (dim + 1 - v);
    }
    if (over && r->skip == RRULE_SKIP_BACKWARD) mask |= 1u << dim;
  }
  if (x->wdays) mask &= weekday_bits(x->wdays, wd1);
  if (x->ord_month && mask) {
    uint64_t nth[6];
    nth_bits(r, dim, wd1, nth);
    mask &= (uint32_t)(nth[0] << 1);
  }
  if ((r->parts & RRULE_P_BYYEARDAY) && mask) {
    int yearlen = civil_is_leap(y) ? 366 : 365;
    int doy = (int)(first - civil_days_from_date(y, 1, 1));
    for (d = 1; d <= dim; d++)
      if ((mask >> d & 1) && !yearday_ok(r, doy + d - 1, yearlen))
        mask &= ~(1u << d);
  }
  if (over && r->skip == RRULE_SKIP_FORWARD && m < 12)
    *spill = moved_day_ok(x, first + dim);
  return mask;
}

/* ---- Weeks: dateutil's BYWEEKNO --------------------------------------- */

/* Sets bits from day-of-year i for one week: up to 7 days, stopping
** before the next day that starts a week. */
static void mark_week(uint64_t out[6], int i, int yearlen, int yw, int wkst) {
  int j;
  for (j = 0; j < 7; j++) {
    if (i >= 0 && i < yearlen) out[i / 64] |= 1ULL << (i % 64);
    i++;
    if ((yw + i) % 7 == wkst) break;
  }
}

static int weekno_has(const rrule_rule *r, int n) {
  if (n > 0) return n <= 53 && (r->byweekno >> n & 1);
  return n >= -53 && (r->byweekno_neg >> -n & 1);
}

static void weekno_days(const rrule_rule *r, int y, uint64_t out[6]) {
  int yearlen = civil_is_leap(y) ? 366 : 365;
  int yw = rrule_weekday(civil_days_from_date(y, 1, 1)), wkst = r->wkst;
  int no1wkst, firstwkst, wyearlen, numweeks, n, i;
  memset(out, 0, 6 * sizeof out[0]);
  no1wkst = firstwkst = (7 - yw + wkst) % 7;
  if (no1wkst >= 4) {
    no1wkst = 0;
    wyearlen = yearlen + (yw - wkst + 7) % 7;
  } else {
    wyearlen = yearlen - no1wkst;
  }
  numweeks = wyearlen / 7 + (wyearlen % 7) / 4;
  for (n = -53; n <= 53; n++) {
    int k = n < 0 ? n + numweeks + 1 : n;
    if (n == 0 || !weekno_has(r, n) || k <= 0 || k > numweeks) continue;
    if (k > 1) {
      i = no1wkst + (k - 1) * 7;
      if (no1wkst != firstwkst) i -= 7 - firstwkst;
    } else {
      i = no1wkst;
    }
    mark_week(out, i, yearlen, yw, wkst);
  }
  if (r->byweekno >> 1 & 1) { /* week 1 of the next year, if it starts here */
    i = no1wkst + numweeks * 7;
    if (no1wkst != firstwkst) i -= 7 - firstwkst;
    if (i < yearlen) mark_week(out, i, yearlen, yw, wkst);
  }
  if (no1wkst) { /* days of the last week of the year before */
    int lnumweeks;
    if (!(r->byweekno_neg >> 1 & 1)) {
      int lyw = rrule_weekday(civil_days_from_date(y - 1, 1, 1));
      int lno1wkst = (7 - lyw + wkst) % 7;
      int lyearlen = civil_is_leap(y - 1) ? 366 : 365;
      if (lno1wkst >= 4)
        lnumweeks = 52 + (lyearlen + (lyw - wkst + 7) % 7) % 7 / 4;
      else lnumweeks = 52 + (yearlen - no1wkst) % 7 / 4; /* sic: dateutil */
    } else {
      lnumweeks = -1;
    }
    if (weekno_has(r, lnumweeks))
      for (i = 0; i < no1wkst; i++) out[i / 64] |= 1ULL << (i % 64);
  }
}

void rrule_year_days(const rrule_exp *x, int y, uint64_t out[6]) {
  const rrule_rule *r = x->r;
  int64_t jan1 = civil_days_from_date(y, 1, 1);
  int yearlen = civil_is_leap(y) ? 366 : 365, m, k;
  memset(out, 0, 6 * sizeof out[0]);
  for (m = 1; m <= 12; m++) {
    if (x->months && !(x->months >> m & 1)) continue; /* no day of it */
    int spill, dim = civil_days_in_month(y, m);
    int off = (int)(civil_days_from_date(y, m, 1) - jan1);
    uint64_t mask = rrule_month_days(x, y, m, &spill) >> 1;
    if (spill) mask |= 1ULL << dim;
    /* bits off .. off + dim of the year: at most two words */
    out[off / 64] |= mask << (off % 64);
    if (off % 64 && off / 64 < 5) out[off / 64 + 1] |= mask >> (64 - off % 64);
  }
  if (r->parts & RRULE_P_BYWEEKNO) {
    uint64_t wk[6];
    weekno_days(r, y, wk);
    for (k = 0; k < 6; k++) out[k] &= wk[k];
  }
  if (x->ord_year) {
    uint64_t nth[6];
    nth_bits(r, yearlen, rrule_weekday(jan1), nth);
    for (k = 0; k < 6; k++) out[k] &= nth[k];
  }
}

uint32_t rrule_day_filter(const rrule_exp *x, int y, int m) {
  int spill;
  uint32_t mask = rrule_month_days(x, y, m, &spill);
  if (x->r->skip == RRULE_SKIP_FORWARD && m > 1) {
    (void)rrule_month_days(x, y, m - 1, &spill);
    if (spill) mask |= 2u;
  }
  return mask;
}
