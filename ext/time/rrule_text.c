/*
** rrule_text.c -- the canonical text of a recurrence set (rrule.h), part
** of the dedupe key (docs/calendar.md).
**
** One RRULE and nothing else prints as a bare RECUR value; anything else
** as content lines joined by "\n": the RRULE lines (distinct, in a fixed
** order), then "RDATE:" (date-times), "RDATE;VALUE=DATE:", "EXDATE:",
** "EXDATE;VALUE=DATE:", each with its distinct values ascending (local
** date-times before UTC ones) and only when it has values. TZID
** parameters are dropped: they name the trigger's own zone (rrule_check).
**
** A rule prints its parts in this order, upper case, defaults dropped:
**   FREQ, INTERVAL (unless 1), COUNT, UNTIL, BYSECOND, BYMINUTE, BYHOUR,
**   BYDAY, BYMONTHDAY, BYYEARDAY, BYWEEKNO, BYMONTH, BYSETPOS,
**   WKST (unless MO), RSCALE=GREGORIAN and SKIP (unless SKIP is OMIT).
** Lists print their distinct values: positive ones ascending, then
** negative ones by ascending magnitude (BYMONTHDAY=1,15,-1); BYDAY by
** weekday from MO, each weekday's plain form, then its positive and
** negative ordinals the same way (BYDAY=2FR,4FR). UNTIL keeps its kind:
** 20250101, 20250101T090000 or 20250101T090000Z.
*/
#include "time/rrule.h"

#include "text/text_buf.h"
#include "time/civil.h"

#include <stdio.h>
#include <string.h>

typedef text_buf out;

static void put(out *o, const char *s) { text_buf_put(o, s); }

static void put_num(out *o, long v) { text_buf_put_int(o, v); }

static const char *const FREQ[7] = {"YEARLY", "MONTHLY",  "WEEKLY",  "DAILY",
                                    "HOURLY", "MINUTELY", "SECONDLY"};
static const char *const DAY[7] = {"MO", "TU", "WE", "TH", "FR", "SA", "SU"};

static void put_stamp(out *o, int kind, int64_t v) {
  char b[24];
  civil_time t;
  civil_from_ms((kind == RRULE_DATE ? v * 86400 : v) * 1000, &t);
  if (kind == RRULE_DATE)
    snprintf(b, sizeof b, "%04d%02d%02d", t.year, t.month, t.day);
  else
    snprintf(b, sizeof b, "%04d%02d%02dT%02d%02d%02d%s", t.year, t.month, t.day,
             t.hour, t.minute, t.second, kind == RRULE_UTC ? "Z" : "");
  put(o, b);
}

/* ";NAME=" before a list's first value, "," before the others. */
static void sep(out *o, const char *name, int *first) {
  if (*first) {
    put(o, ";");
    put(o, name);
    put(o, "=");
  } else {
    put(o, ",");
  }
  *first = 0;
}

/* Values lo..hi of bit set w (words of 64 bits), with a sign. */
static void put_bits(out *o, const char *name, const uint64_t *w, int lo,
                     int hi, int negative, int *first) {
  int v;
  for (v = lo; v <= hi; v++)
    if (w[v / 64] >> (v % 64) & 1) {
      sep(o, name, first);
      put_num(o, negative ? -v : v);
    }
}

static void put_list(out *o, const char *name, const uint64_t *pos,
                     const uint64_t *neg, int lo, int hi) {
  int first = 1;
  put_bits(o, name, pos, lo, hi, 0, &first);
  if (neg) put_bits(o, name, neg, 1, hi, 1, &first);
}

static void put_byday(out *o, const rrule_rule *r) {
  int first = 1, w, n;
  for (w = 0; w < 7; w++) {
    if (r->byday >> w & 1) {
      sep(o, "BYDAY", &first);
      put(o, DAY[w]);
    }
    for (n = 1; n <= 53; n++)
      if (r->byday_nth[w] >> n & 1) {
        sep(o, "BYDAY", &first);
        put_num(o, n);
        put(o, DAY[w]);
      }
    for (n = 1; n <= 53; n++)
      if (r->byday_nth_neg[w] >> n & 1) {
        sep(o, "BYDAY", &first);
        put_num(o, -n);
        put(o, DAY[w]);
      }
  }
}

static void put_rule(out *o, const rrule_rule *r) {
  uint64_t w;
  put(o, "FREQ=");
  put(o, FREQ[r->freq]);
  if (r->interval != 1) {
    put(o, ";INTERVAL=");
    put_num(o, r->interval);
  }
  if (r->count) {
    put(o, ";COUNT=");
    put_num(o, (long)r->count);
  }
  if (r->until_kind) {
    put(o, ";UNTIL=");
    put_stamp(o, r->until_kind, r->until);
  }
  if (r->parts & RRULE_P_BYSECOND)
    put_list(o, "BYSECOND", &r->bysecond, NULL, 0, 60);
  if (r->parts & RRULE_P_BYMINUTE)
    put_list(o, "BYMINUTE", &r->byminute, NULL, 0, 59);
  w = r->byhour;
  if (r->parts & RRULE_P_BYHOUR) put_list(o, "BYHOUR", &w, NULL, 0, 23);
  if (r->parts & RRULE_P_BYDAY) put_byday(o, r);
  if (r->parts & RRULE_P_BYMONTHDAY) {
    uint64_t p = r->bymonthday, n = r->bymonthday_neg;
    put_list(o, "BYMONTHDAY", &p, &n, 1, 31);
  }
  if (r->parts & RRULE_P_BYYEARDAY)
    put_list(o, "BYYEARDAY", r->byyearday.w, r->byyearday_neg.w, 1, 366);
  if (r->parts & RRULE_P_BYWEEKNO)
    put_list(o, "BYWEEKNO", &r->byweekno, &r->byweekno_neg, 1, 53);
  w = r->bymonth;
  if (r->parts & RRULE_P_BYMONTH) put_list(o, "BYMONTH", &w, NULL, 1, 12);
  if (r->parts & RRULE_P_BYSETPOS)
    put_list(o, "BYSETPOS", r->bysetpos.w, r->bysetpos_neg.w, 1, 366);
  if (r->wkst) {
    put(o, ";WKST=");
    put(o, DAY[r->wkst]);
  }
  if (r->skip == RRULE_SKIP_BACKWARD) put(o, ";RSCALE=GREGORIAN;SKIP=BACKWARD");
  if (r->skip == RRULE_SKIP_FORWARD) put(o, ";RSCALE=GREGORIAN;SKIP=FORWARD");
}

/* Compares what two rules print (parts whose value is the default print
** nothing): 0 when they print the same; the order of RRULE lines. */
#define CMP(f) \
  if (a->f != b->f) return a->f < b->f ? -1 : 1
static int rule_cmp(const rrule_rule *a, const rrule_rule *b) {
  const uint32_t silent =
      RRULE_P_INTERVAL | RRULE_P_WKST | RRULE_P_RSCALE | RRULE_P_SKIP;
  int k;
  CMP(freq);
  if ((a->parts & ~silent) != (b->parts & ~silent))
    return (a->parts & ~silent) < (b->parts & ~silent) ? -1 : 1;
  CMP(interval);
  CMP(count);
  CMP(until_kind);
  CMP(until);
  CMP(bysecond);
  CMP(byminute);
  CMP(byhour);
  CMP(byday);
  CMP(bymonthday);
  CMP(bymonthday_neg);
  CMP(byweekno);
  CMP(byweekno_neg);
  CMP(bymonth);
  CMP(wkst);
  CMP(skip);
  for (k = 0; k < 7; k++) {
    CMP(byday_nth[k]);
    CMP(byday_nth_neg[k]);
  }
  for (k = 0; k < 6; k++) {
    CMP(byyearday.w[k]);
    CMP(byyearday_neg.w[k]);
    CMP(bysetpos.w[k]);
    CMP(bysetpos_neg.w[k]);
  }
  return 0;
}
#undef CMP

static int date_cmp(const rrule_date *a, const rrule_date *b) {
  if (a->kind != b->kind) return a->kind < b->kind ? -1 : 1;
  return a->value < b->value ? -1 : a->value > b->value;
}

/* Values of one kind group (dates, or date-times) sorted and distinct
** into out; returns how many. */
static int sorted_dates(const rrule_date *in, int n, int want_date,
                        rrule_date *sorted) {
  int i, j, k = 0;
  for (i = 0; i < n; i++) {
    rrule_date d = in[i];
    if ((d.kind == RRULE_DATE) != want_date) continue;
    for (j = k; j > 0 && date_cmp(&sorted[j - 1], &d) > 0; j--)
      sorted[j] = sorted[j - 1];
    if (j > 0 && date_cmp(&sorted[j - 1], &d) == 0) {
      memmove(sorted + j, sorted + j + 1, (size_t)(k - j) * sizeof d);
      continue;
    }
    sorted[j] = d;
    k++;
  }
  return k;
}

static void put_dates(out *o, const char *head, const rrule_date *in, int n,
                      int want_date) {
  rrule_date sorted[RRULE_MAX_DATES];
  int k = sorted_dates(in, n, want_date, sorted), i;
  if (!k) return;
  if (o->len) put(o, "\n");
  put(o, head);
  for (i = 0; i < k; i++) {
    if (i) put(o, ",");
    put_stamp(o, sorted[i].kind, sorted[i].value);
  }
}

int rrule_canonical(const rrule_set *s, char *buf, size_t n) {
  int order[RRULE_MAX_RULES], i, j, k = 0;
  out o;
  if (!buf || n == 0) return -1;
  text_buf_init(&o, buf, n);
  buf[0] = 0;
  /* the distinct rules, sorted (insertion; at most RRULE_MAX_RULES) */
  for (i = 0; i < s->nrules; i++) {
    const rrule_rule *r = &s->rules[i];
    int c = 1;
    for (j = k; j > 0 && (c = rule_cmp(&s->rules[order[j - 1]], r)) > 0; j--)
      ;
    if (j > 0 && c == 0) continue; /* the same rule again */
    memmove(order + j + 1, order + j, (size_t)(k - j) * sizeof order[0]);
    order[j] = i;
    k++;
  }
  if (k == 1 && s->nrdates == 0 && s->nexdates == 0) {
    put_rule(&o, &s->rules[order[0]]);
    return o.full ? -1 : (int)o.len;
  }
  for (i = 0; i < k; i++) {
    if (i) put(&o, "\n");
    put(&o, "RRULE:");
    put_rule(&o, &s->rules[order[i]]);
  }
  put_dates(&o, "RDATE:", s->rdates, s->nrdates, 0);
  put_dates(&o, "RDATE;VALUE=DATE:", s->rdates, s->nrdates, 1);
  put_dates(&o, "EXDATE:", s->exdates, s->nexdates, 0);
  put_dates(&o, "EXDATE;VALUE=DATE:", s->exdates, s->nexdates, 1);
  return o.full ? -1 : (int)o.len;
}
