/*
** describe_rrule.c -- a recurrence set in plain English, for
** trigger_describe (describe.h, docs/calendar.md#in-words):
**
**   FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;BYHOUR=9;BYMINUTE=0
**       -> "Every 2 weeks on Tuesday at 09:00"
**   FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=17;BYMINUTE=0
**       -> "Monthly on the last weekday at 17:00"
**   FREQ=MONTHLY;BYDAY=2FR,4FR -> "Monthly on the 2nd and 4th Friday ..."
**
** Owns the wording of one rule, in this order: how often (the FREQ and
** INTERVAL), which days (the day parts, or DTSTART's day where the rule
** leaves it to DTSTART), which months, the time of day (the rule's, or
** DTSTART's), the end (COUNT, UNTIL); then a set's other rules ("; and
** ..."), RDATEs ("and on ...") and EXDATEs ("except on ..."). A part
** the words cannot say exactly is said as the rule says it ("BYWEEKNO=20"),
** so a description is never wrong, only sometimes technical.
*/
#include <stdio.h>
#include <string.h>

#include "text/ascii.h"
#include "time/civil.h"
#include "time/describe.h"
#include "time/describe_int.h"

/* rrule's weekdays: 0 = Monday */
static const char *const wday_names[7] = {"Monday",   "Tuesday", "Wednesday",
                                          "Thursday", "Friday",  "Saturday",
                                          "Sunday"};
static const char *const units[7] = {"year", "month",  "week",  "day",
                                     "hour", "minute", "second"};
static const char *const every_one[7] = {
    "Yearly",     "Monthly",      "Weekly",      "Daily",
    "Every hour", "Every minute", "Every second"};

#define WEEKDAYS 0x1F /* MO..FR */
#define WEEKEND 0x60  /* SA, SU */

static int bit(uint64_t bits, int v) { return (int)(bits >> v & 1); }

static int count64(uint64_t bits) {
  int n = 0;
  for (; bits; bits &= bits - 1) n++;
  return n;
}

/* "1st", "2nd", "23rd", "11th"; negative: "last", "2nd to last". */
static void fmt_ordinal(char *out, size_t n, int v) {
  if (v == -1) {
    snprintf(out, n, "last");
    return;
  }
  int a = v < 0 ? -v : v, t = a % 100;
  const char *suf = (t >= 11 && t <= 13) ? "th"
                    : a % 10 == 1        ? "st"
                    : a % 10 == 2        ? "nd"
                    : a % 10 == 3        ? "rd"
                                         : "th";
  snprintf(out, n, v < 0 ? "%d%s to last" : "%d%s", a, suf);
}

/* The signed values of a positive and a negative bit set (1..hi) as
** ordinal items: "1st", "15th", "last". */
static void ordinal_items(items *it, const uint64_t *pos, const uint64_t *neg,
                          int hi) {
  char b[32];
  for (int v = 1; v <= hi; v++)
    if (pos[v / 64] >> (v % 64) & 1) {
      fmt_ordinal(b, sizeof b, v);
      desc_item_add(it, "%s", b);
    }
  for (int v = 1; v <= hi; v++)
    if (neg[v / 64] >> (v % 64) & 1) {
      fmt_ordinal(b, sizeof b, -v);
      desc_item_add(it, "%s", b);
    }
}

/* Plain weekdays: "weekdays", "weekends", "Monday and Friday". */
static void put_weekdays(wbuf *w, uint8_t days, const char *one_suffix) {
  items it = {.n = 0};
  if (days == WEEKDAYS) {
    desc_put(w, "weekdays");
    return;
  }
  if (days == WEEKEND) {
    desc_put(w, "weekends");
    return;
  }
  for (int d = 0; d < 7; d++)
    if (bit(days, d)) desc_item_add(&it, "%s%s", wday_names[d], one_suffix);
  desc_put_join(w, &it, 1);
}

/* What BYSETPOS picks from, in the singular: "weekday", "Friday",
** "day"; NULL when the words cannot say it. */
static const char *setpos_noun(const rrule_rule *r) {
  uint32_t day_parts =
      RRULE_P_BYMONTHDAY | RRULE_P_BYYEARDAY | RRULE_P_BYWEEKNO;
  /* one time a day at most: a position among days is one among times */
  if ((r->parts & day_parts) || r->byday_ord || !r->byday ||
      r->freq > RRULE_WEEKLY || count64(r->byhour) > 1 ||
      count64(r->byminute) > 1 || count64(r->bysecond) > 1)
    return NULL;
  if (r->byday == WEEKDAYS) return "weekday";
  if (r->byday == WEEKEND) return "weekend day";
  if (r->byday == 0x7F) return "day";
  if (count64(r->byday) == 1) {
    for (int d = 0; d < 7; d++)
      if (bit(r->byday, d)) return wday_names[d];
  }
  return NULL;
}

/* Ordinal weekdays: "the 2nd and 4th Friday", "the last Monday". */
static void put_nth_days(wbuf *w, const rrule_rule *r) {
  items days = {.n = 0};
  for (int d = 0; d < 7; d++) {
    items ns = {.n = 0};
    char joined[160];
    wbuf j = {joined, sizeof joined, 0, 0};
    joined[0] = 0;
    ordinal_items(&ns, &r->byday_nth[d], &r->byday_nth_neg[d], 53);
    if (!ns.n) continue;
    desc_put_join(&j, &ns, 1);
    desc_item_add(&days, "the %s %s", joined, wday_names[d]);
  }
  desc_put_join(w, &days, 1);
}

/* The month part: "in March", "in January and July". */
static void put_months(wbuf *w, uint16_t months) {
  items it = {.n = 0};
  for (int m = 1; m <= 12; m++)
    if (bit(months, m)) desc_item_add(&it, "%s", desc_month_names[m]);
  desc_put(w, " in ");
  desc_put_join(w, &it, 1);
}

/* One month and one positive day of it: "on March 3". */
static int single_month_day(const rrule_rule *r) {
  return r->freq == RRULE_YEARLY && count64(r->bymonth) == 1 &&
         count64(r->bymonthday) == 1 && !r->bymonthday_neg &&
         !(r->parts & (RRULE_P_BYDAY | RRULE_P_BYYEARDAY | RRULE_P_BYWEEKNO |
                       RRULE_P_BYSETPOS));
}

/* The day parts the rule gives (BYSETPOS is said here when the words
** can say it; *setpos_said then). */
static void put_days(wbuf *w, const rrule_rule *r, int *setpos_said) {
  const char *noun = (r->parts & RRULE_P_BYSETPOS) ? setpos_noun(r) : NULL;
  items it = {.n = 0};
  if (noun) {
    ordinal_items(&it, r->bysetpos.w, r->bysetpos_neg.w, 366);
    desc_put(w, " on the ");
    desc_put_join(w, &it, 1);
    desc_putf(w, " %s", noun);
    if (r->freq == RRULE_YEARLY && !r->bymonth) desc_put(w, " of the year");
    *setpos_said = 1;
    return;
  }
  if (single_month_day(r)) {
    for (int m = 1; m <= 12; m++)
      for (int d = 1; d <= 31; d++)
        if (bit(r->bymonth, m) && bit(r->bymonthday, d))
          desc_putf(w, " on %s %d", desc_month_names[m], d);
    return;
  }
  if (r->byday) {
    desc_put(w, " on ");
    put_weekdays(w, r->byday, "");
  }
  if (r->byday_ord) {
    desc_put(w, r->byday ? " and " : " on ");
    put_nth_days(w, r);
    if (r->freq == RRULE_YEARLY && !r->bymonth) desc_put(w, " of the year");
  }
  if (r->parts & RRULE_P_BYMONTHDAY) {
    uint64_t pos[1] = {r->bymonthday}, neg[1] = {r->bymonthday_neg};
    ordinal_items(&it, pos, neg, 31);
    desc_put(w, (r->parts & RRULE_P_BYDAY) ? ", if it is the " : " on the ");
    desc_put_join(w, &it, 1);
    desc_putf(w, " day%s of the month", it.n > 1 ? "s" : "");
    it.n = 0;
  }
  if (r->parts & RRULE_P_BYYEARDAY) {
    ordinal_items(&it, r->byyearday.w, r->byyearday_neg.w, 366);
    desc_put(w, (r->parts & (RRULE_P_BYDAY | RRULE_P_BYMONTHDAY))
                    ? ", if it is the "
                    : " on the ");
    desc_put_join(w, &it, 1);
    desc_putf(w, " day%s of the year", it.n > 1 ? "s" : "");
    it.n = 0;
  }
  if (r->parts & RRULE_P_BYWEEKNO) {
    uint64_t pos[1] = {r->byweekno}, neg[1] = {r->byweekno_neg};
    ordinal_items(&it, pos, neg, 53);
    desc_put(w, " in the ");
    desc_put_join(w, &it, 1);
    desc_putf(w, " week%s of the year", it.n > 1 ? "s" : "");
  }
}

/* The day DTSTART supplies to a rule without day parts: YEARLY its month
** and day, MONTHLY its day of the month, WEEKLY its weekday. */
static void put_dtstart_day(wbuf *w, const rrule_rule *r, const civil_time *t,
                            int wday) {
  char b[32];
  switch (r->freq) {
    case RRULE_YEARLY:
      if (r->bymonth) {
        fmt_ordinal(b, sizeof b, t->day);
        desc_putf(w, " on the %s", b);
      } else {
        desc_putf(w, " on %s %d", desc_month_names[t->month], t->day);
      }
      break;
    case RRULE_MONTHLY:
      fmt_ordinal(b, sizeof b, t->day);
      desc_putf(w, " on the %s", b);
      break;
    case RRULE_WEEKLY: desc_putf(w, " on %s", wday_names[wday]); break;
    default: break;
  }
}

/* A time part's values: the rule's, DTSTART's (for rules coarser than the
** part, when DTSTART is known), every value (rules as fine as the part or
** finer), or unknown (a bare rule's DTSTART). */
enum { TP_SET, TP_ALL, TP_UNKNOWN };
typedef struct tpart {
  int kind;
  uint64_t bits; /* TP_SET */
} tpart;

static tpart time_part(const rrule_rule *r, uint32_t part, uint64_t given,
                       int coarser, int dt, int known) {
  tpart p = {TP_SET, given};
  if (r->parts & part) return p;
  if (!coarser) p.kind = TP_ALL;
  else if (known) p.bits = (uint64_t)1 << dt;
  else p.kind = TP_UNKNOWN;
  return p;
}

/* " at minutes 0 and 30", " during hours 09 and 17". */
static void put_values(wbuf *w, const char *intro, const char *one,
                       const char *many, uint64_t bits, int hi,
                       const char *fmt) {
  items it = {.n = 0};
  for (int v = 0; v <= hi; v++)
    if (bit(bits, v)) desc_item_add(&it, fmt, v);
  desc_putf(w, "%s%s", intro, it.n > 1 ? many : one);
  desc_put_join(w, &it, 1);
}

/* The time of day: "at 09:00", "at 09:00 and 17:30", "at minute 15",
** "during hour 09". A bare rule's unknown seconds read as 0, an unknown
** minute leaves only the hour said, an unknown hour the whole time. */
static void put_time(wbuf *w, const rrule_rule *r, const civil_time *t,
                     int known) {
  tpart H = time_part(r, RRULE_P_BYHOUR, r->byhour, r->freq < RRULE_HOURLY,
                      t->hour, known);
  tpart M = time_part(r, RRULE_P_BYMINUTE, r->byminute,
                      r->freq < RRULE_MINUTELY, t->minute, known);
  tpart S = time_part(r, RRULE_P_BYSECOND, r->bysecond,
                      r->freq < RRULE_SECONDLY, t->second, known);
  if (S.kind == TP_UNKNOWN) S = (tpart){TP_SET, 1};
  if (H.kind == TP_UNKNOWN) return;
  int sets = H.kind == TP_SET && M.kind == TP_SET && S.kind == TP_SET;
  if (sets && count64(H.bits) * count64(M.bits) * count64(S.bits) <= 12) {
    items it = {.n = 0};
    for (int h = 0; h < 24; h++)
      for (int m = 0; m < 60; m++)
        for (int s = 0; s < 61; s++)
          if (bit(H.bits, h) && bit(M.bits, m) && bit(S.bits, s))
            desc_item_add(&it, s ? "%02d:%02d:%02d" : "%02d:%02d", h, m, s);
    desc_put(w, " at ");
    desc_put_join(w, &it, 0);
    return;
  }
  if (M.kind == TP_SET)
    put_values(w, " at ", "minute ", "minutes ", M.bits, 59, "%d");
  if (S.kind == TP_SET && S.bits != 1)
    put_values(w, M.kind == TP_SET ? ", " : " at ", "second ", "seconds ",
               S.bits, 60, "%d");
  if (H.kind == TP_SET)
    put_values(w, " during ", "hour ", "hours ", H.bits, 23, "%02d");
}

/* A stamp of UNTIL, RDATE or EXDATE: "2026-12-31", "2026-12-31 17:00",
** "2026-12-31 17:00 UTC". */
static void put_stamp(wbuf *w, int kind, int64_t v) {
  civil_time t;
  civil_from_ms((kind == RRULE_DATE ? v * 86400 : v) * 1000, &t);
  desc_putf(w, "%04d-%02d-%02d", t.year, t.month, t.day);
  if (kind == RRULE_DATE) return;
  desc_putf(w, " %02d:%02d", t.hour, t.minute);
  if (t.second) desc_putf(w, ":%02d", t.second);
  if (kind == RRULE_UTC) desc_put(w, " UTC");
}

static void put_rule(wbuf *w, const rrule_rule *r, int64_t dtstart, int known) {
  civil_time t;
  civil_from_ms(dtstart * 1000, &t);
  int wday = (int)((civil_floor_div(dtstart, 86400) % 7 + 10) % 7); /* MO 0 */
  int setpos_said = 0;
  uint32_t day_parts =
      RRULE_P_BYDAY | RRULE_P_BYMONTHDAY | RRULE_P_BYYEARDAY | RRULE_P_BYWEEKNO;
  if (r->interval == 1) desc_put(w, every_one[r->freq]);
  else desc_putf(w, "Every %d %ss", r->interval, units[r->freq]);
  if (r->parts & day_parts) put_days(w, r, &setpos_said);
  else if (known) put_dtstart_day(w, r, &t, wday);
  if (r->bymonth && !single_month_day(r)) put_months(w, r->bymonth);
  put_time(w, r, &t, known);
  if ((r->parts & RRULE_P_BYSETPOS) && !setpos_said) {
    items it = {.n = 0};
    ordinal_items(&it, r->bysetpos.w, r->bysetpos_neg.w, 366);
    desc_putf(w, ", only the ");
    desc_put_join(w, &it, 1);
    desc_putf(w, " of each %s", units[r->freq]);
  }
  if (r->skip == RRULE_SKIP_BACKWARD)
    desc_put(w, ", or the last day of the month when the day does not exist");
  if (r->skip == RRULE_SKIP_FORWARD)
    desc_put(w, ", or the day after the month's last when the day does "
                "not exist");
  if (r->count) desc_putf(w, ", %lld times", (long long)r->count);
  if (r->until_kind) {
    desc_put(w, ", until ");
    put_stamp(w, r->until_kind, r->until);
  }
}

/* RDATE or EXDATE values: the first three, then how many more. */
static void put_dates(wbuf *w, const char *intro, const rrule_date *d, int n) {
  if (!n) return;
  desc_put(w, intro);
  for (int i = 0; i < n && i < 3; i++) {
    desc_put(w, i == 0 ? "" : (i == n - 1 ? " and " : ", "));
    put_stamp(w, d[i].kind, d[i].value);
  }
  if (n > 3) desc_putf(w, " and %d other date%s", n - 3, n - 3 > 1 ? "s" : "");
}

void describe_rrule_set(wbuf *w, const rrule_set *s, int64_t dtstart,
                        int known) {
  size_t start = w->len;
  for (int i = 0; i < s->nrules; i++) {
    if (i) desc_put(w, "; and ");
    size_t at = w->len;
    put_rule(w, &s->rules[i], dtstart, known);
    if (i && !w->over && ascii_is_upper(w->p[at]))
      w->p[at] = (char)(w->p[at] - 'A' + 'a');
  }
  put_dates(w, s->nrules ? ", and on " : "On ", s->rdates, s->nrdates);
  put_dates(w, ", except on ", s->exdates, s->nexdates);
  if (!w->over && w->len > start && ascii_is_lower(w->p[start]))
    w->p[start] = (char)(w->p[start] - 'a' + 'A');
}
