/*
** rrule_parse.c -- the text of a recurrence set into an rrule_set
** (rrule.h, docs/calendar.md).
**
** Owns: splitting the text into content lines (LF or CRLF, folded lines
** joined), the RRULE/RDATE/EXDATE properties and their parameters (VALUE,
** TZID), the RECUR grammar of RFC 5545 section 3.3.10 with RFC 7529's
** RSCALE and SKIP, and every message about bad input. Part names and
** values are read in any case; blanks around parts and list items are
** allowed. What the RFC says a rule MUST NOT combine is refused here, with
** the part named; what depends on DTSTART (a rule that never occurs) is
** found by rrule_check.
*/
#include "time/rrule.h"

#include "text/ascii.h"
#include "time/civil.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define LINE_MAX_LEN 8192 /* one unfolded content line */
#define SHOW_MAX 48       /* characters of input quoted in a message */

typedef struct span {
  const char *s, *e;
} span;

typedef struct pctx {
  char *err;
  size_t errlen;
  int line;  /* number of the logical line being read, from 1 */
  int multi; /* the text has more than one line: messages name it */
  rrule_set *out;
} pctx;

/* ---- Messages --------------------------------------------------------- */

/* Quote input for a message: at most SHOW_MAX bytes, non-printable ASCII
** and non-ASCII bytes as '?', "..." when cut. */
static const char *show(char *buf, span t) {
  size_t n = (size_t)(t.e - t.s), k, lim = n > SHOW_MAX ? SHOW_MAX - 3 : n;
  for (k = 0; k < lim; k++) {
    unsigned char ch = (unsigned char)t.s[k];
    buf[k] = (ch < 0x20 || ch >= 0x7f) ? '?' : (char)ch;
  }
  if (lim < n) {
    memcpy(buf + k, "...", 3);
    k += 3;
  }
  buf[k] = 0;
  return buf;
}

static int fail(pctx *p, const char *fmt, ...) {
  va_list ap;
  size_t k;
  if (!p->err || !p->errlen) return -1;
  if (p->multi)
    k = (size_t)snprintf(p->err, p->errlen, "rrule: line %d: ", p->line);
  else k = (size_t)snprintf(p->err, p->errlen, "rrule: ");
  if (k < p->errlen) {
    va_start(ap, fmt);
    vsnprintf(p->err + k, p->errlen - k, fmt, ap);
    va_end(ap);
  }
  return -1;
}

/* ---- Tokens ----------------------------------------------------------- */

static int upper(int ch) { return ascii_is_lower(ch) ? ch - 32 : ch; }
static int is_blank(int ch) { return ch == ' ' || ch == '\t'; }

static span trim(span t) {
  while (t.s < t.e && is_blank((unsigned char)*t.s)) t.s++;
  while (t.e > t.s && is_blank((unsigned char)t.e[-1])) t.e--;
  return t;
}

/* Case-insensitive equality of a span and an upper-case literal. */
static int is(span t, const char *lit) {
  size_t n = strlen(lit), i;
  if ((size_t)(t.e - t.s) != n) return 0;
  for (i = 0; i < n; i++)
    if (upper((unsigned char)t.s[i]) != lit[i]) return 0;
  return 1;
}

static const char *find(span t, char ch) {
  const char *q;
  for (q = t.s; q < t.e; q++)
    if (*q == ch) return q;
  return NULL;
}

/* Next item of a `sep`-separated list in *rest (NULL when done). */
static int next_item(span *rest, char sep, span *item) {
  const char *q;
  if (!rest->s) return 0;
  q = find(*rest, sep);
  item->s = rest->s;
  item->e = q ? q : rest->e;
  rest->s = q ? q + 1 : NULL;
  return 1;
}

/* [+|-]digits -> *v (capped far beyond every range); 0, or -1 if not. */
static int signed_number(span t, long *v) {
  int neg = 0;
  long acc = 0;
  if (t.s < t.e && (*t.s == '+' || *t.s == '-')) neg = *t.s++ == '-';
  if (t.s == t.e) return -1;
  for (; t.s < t.e; t.s++) {
    if (!ascii_is_digit((unsigned char)*t.s)) return -1;
    acc = acc * 10 + (*t.s - '0');
    if (acc > 10000000000L) acc = 10000000000L;
  }
  *v = neg ? -acc : acc;
  return 0;
}

static void set_bit(uint64_t *w, long v) { w[v / 64] |= 1ULL << (v % 64); }

/* ---- Dates: YYYYMMDD, YYYYMMDDTHHMMSS, YYYYMMDDTHHMMSSZ ---------------- */

static int digits_at(const char *s, int n) {
  int v = 0, i;
  for (i = 0; i < n; i++) {
    if (!ascii_is_digit((unsigned char)s[i])) return -1;
    v = v * 10 + (s[i] - '0');
  }
  return v;
}

/* Returns 0, -1 (not one of the forms) or -2 with *why (a field out of
** range). */
static int parse_stamp(span t, rrule_date *d, char *why, size_t wn) {
  size_t n = (size_t)(t.e - t.s);
  int y, mo, dd, h = 0, mi = 0, se = 0;
  if (n != 8 && n != 15 && n != 16) return -1;
  y = digits_at(t.s, 4);
  mo = digits_at(t.s + 4, 2);
  dd = digits_at(t.s + 6, 2);
  if (y < 0 || mo < 0 || dd < 0) return -1;
  if (n > 8) {
    if (upper((unsigned char)t.s[8]) != 'T') return -1;
    h = digits_at(t.s + 9, 2);
    mi = digits_at(t.s + 11, 2);
    se = digits_at(t.s + 13, 2);
    if (h < 0 || mi < 0 || se < 0) return -1;
    if (n == 16 && upper((unsigned char)t.s[15]) != 'Z') return -1;
  }
  if (y < CIVIL_MIN_YEAR || y > CIVIL_MAX_YEAR)
    snprintf(why, wn, "year %d is out of range 1-9999", y);
  else if (mo < 1 || mo > 12)
    snprintf(why, wn, "month %d is out of range 1-12", mo);
  else if (dd < 1 || dd > civil_days_in_month(y, mo))
    snprintf(why, wn, "day %d is out of range 1-%d for %04d-%02d", dd,
             civil_days_in_month(y, mo), y, mo);
  else if (h > 23) snprintf(why, wn, "hour %d is out of range 0-23", h);
  else if (mi > 59) snprintf(why, wn, "minute %d is out of range 0-59", mi);
  else if (se > 59) snprintf(why, wn, "second %d is out of range 0-59", se);
  else {
    int64_t days = civil_days_from_date(y, mo, dd);
    d->kind = n == 8 ? RRULE_DATE : n == 15 ? RRULE_LOCAL : RRULE_UTC;
    d->value = n == 8 ? days : days * 86400 + h * 3600 + mi * 60 + se;
    return 0;
  }
  return -2;
}

#define STAMP_FORMS "YYYYMMDD, YYYYMMDDTHHMMSS or YYYYMMDDTHHMMSSZ"

/* ---- RECUR parts ------------------------------------------------------ */

typedef struct part_spec {
  const char *name;
  uint32_t bit;
} part_spec;

static const part_spec PARTS[] = {
    {"FREQ", RRULE_P_FREQ},
    {"INTERVAL", RRULE_P_INTERVAL},
    {"COUNT", RRULE_P_COUNT},
    {"UNTIL", RRULE_P_UNTIL},
    {"BYSECOND", RRULE_P_BYSECOND},
    {"BYMINUTE", RRULE_P_BYMINUTE},
    {"BYHOUR", RRULE_P_BYHOUR},
    {"BYDAY", RRULE_P_BYDAY},
    {"BYMONTHDAY", RRULE_P_BYMONTHDAY},
    {"BYYEARDAY", RRULE_P_BYYEARDAY},
    {"BYWEEKNO", RRULE_P_BYWEEKNO},
    {"BYMONTH", RRULE_P_BYMONTH},
    {"BYSETPOS", RRULE_P_BYSETPOS},
    {"WKST", RRULE_P_WKST},
    {"RSCALE", RRULE_P_RSCALE},
    {"SKIP", RRULE_P_SKIP},
};
#define NPARTS (sizeof PARTS / sizeof PARTS[0])

static const char *const FREQ_NAMES[7] = {
    "YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY", "MINUTELY", "SECONDLY"};
static const char *const DAY_NAMES[7] = {"MO", "TU", "WE", "TH",
                                         "FR", "SA", "SU"};

/* What one rule's parse remembers for messages about part combinations. */
typedef struct rule_notes {
  span first_ord; /* first BYDAY item with an ordinal */
  span byday;     /* the whole BYDAY value */
} rule_notes;

static int weekday_index(span t) {
  int w;
  for (w = 0; w < 7; w++)
    if (is(t, DAY_NAMES[w])) return w;
  return -1;
}

/* A list of integers in lo..hi, or with `sign` in -hi..-lo and lo..hi
** (negative ones set in *neg), into bit sets of `words` words. */
typedef struct list_spec {
  const char *name;
  long lo, hi;
  int sign;
} list_spec;

static int parse_int_list(pctx *p, const list_spec *ls, span value,
                          uint64_t *pos, uint64_t *neg) {
  char a[SHOW_MAX + 1], b[SHOW_MAX + 1];
  span rest = value, item;
  if (trim(value).s == trim(value).e) return fail(p, "%s is empty", ls->name);
  while (next_item(&rest, ',', &item)) {
    long v;
    item = trim(item);
    if (item.s == item.e)
      return fail(p, "%s has an empty item in '%s'", ls->name, show(a, value));
    if (signed_number(item, &v))
      return fail(p, "%s=%s is not a number", ls->name, show(a, item));
    if (ls->sign && v == 0)
      return fail(p, "%s=0 is not allowed (%ld..%ld or %ld..%ld)", ls->name,
                  -ls->hi, -ls->lo, ls->lo, ls->hi);
    if (ls->sign ? (v > ls->hi || v < -ls->hi) : (v < ls->lo || v > ls->hi)) {
      if (ls->sign)
        return fail(p, "%s=%s is out of range %ld..%ld", ls->name,
                    show(b, item), -ls->hi, ls->hi);
      return fail(p, "%s=%s is out of range %ld..%ld", ls->name, show(b, item),
                  ls->lo, ls->hi);
    }
    if (v < 0 && neg) set_bit(neg, -v);
    else set_bit(pos, v);
  }
  return 0;
}

/* BYDAY: [+|-][n]WD items. */
static int parse_byday(pctx *p, span value, rrule_rule *r, rule_notes *notes) {
  char a[SHOW_MAX + 1];
  span rest = value, item;
  notes->byday = value;
  if (trim(value).s == trim(value).e) return fail(p, "BYDAY is empty");
  while (next_item(&rest, ',', &item)) {
    span num, wd;
    int w;
    long n = 0;
    item = trim(item);
    if (item.s == item.e)
      return fail(p, "BYDAY has an empty item in '%s'", show(a, value));
    wd.s = item.e - (item.e - item.s >= 2 ? 2 : item.e - item.s);
    wd.e = item.e;
    num.s = item.s;
    num.e = wd.s;
    w = weekday_index(wd);
    if (w < 0 || (num.s < num.e && signed_number(num, &n)))
      return fail(p,
                  "BYDAY=%s is not a weekday (MO, TU, WE, TH, FR, SA, SU, "
                  "with an optional ordinal such as 2TU or -1FR)",
                  show(a, item));
    if (num.s == num.e) {
      r->byday |= (uint8_t)(1u << w);
      continue;
    }
    if (n == 0)
      return fail(p, "BYDAY=%s: ordinal 0 is not allowed", show(a, item));
    if (n > 53 || n < -53)
      return fail(p, "BYDAY=%s: ordinal %ld is out of range -53..53",
                  show(a, item), n);
    if (!notes->first_ord.s) notes->first_ord = item;
    r->byday_ord |= (uint8_t)(1u << w);
    if (n > 0) r->byday_nth[w] |= 1ULL << n;
    else r->byday_nth_neg[w] |= 1ULL << -n;
  }
  return 0;
}

/* A single unsigned number in lo..hi. */
static int parse_count_like(pctx *p, const char *name, span value, long lo,
                            long hi, long *out) {
  char a[SHOW_MAX + 1];
  span t = trim(value);
  if (t.s == t.e) return fail(p, "%s is empty", name);
  if (*t.s == '+' || *t.s == '-' || signed_number(t, out))
    return fail(p, "%s=%s is not a number", name, show(a, t));
  if (*out < lo || *out > hi)
    return fail(p, "%s=%s is out of range %ld..%ld", name, show(a, t), lo, hi);
  return 0;
}

static int parse_until(pctx *p, span value, rrule_rule *r) {
  char a[SHOW_MAX + 1], why[96];
  rrule_date d;
  span t = trim(value);
  int rc = parse_stamp(t, &d, why, sizeof why);
  if (rc == -1) return fail(p, "UNTIL=%s is not " STAMP_FORMS, show(a, t));
  if (rc == -2) return fail(p, "UNTIL=%s: %s", show(a, t), why);
  r->until_kind = (uint8_t)d.kind;
  r->until = d.value;
  return 0;
}

/* One NAME=VALUE part. */
static int parse_part(pctx *p, span part, rrule_rule *r, rule_notes *notes) {
  char a[SHOW_MAX + 1], b[SHOW_MAX + 1];
  const char *eq = find(part, '=');
  span name, value;
  size_t k;
  long v = 0;
  if (!eq) return fail(p, "part '%s' has no '='", show(a, part));
  name = trim((span){part.s, eq});
  value = trim((span){eq + 1, part.e});
  for (k = 0; k < NPARTS; k++)
    if (is(name, PARTS[k].name)) break;
  if (k == NPARTS)
    return fail(p,
                "unknown part '%s' (allowed FREQ, INTERVAL, COUNT, UNTIL, "
                "BYSECOND, BYMINUTE, BYHOUR, BYDAY, BYMONTHDAY, BYYEARDAY, "
                "BYWEEKNO, BYMONTH, BYSETPOS, WKST, RSCALE, SKIP)",
                show(a, name));
  if (r->parts & PARTS[k].bit)
    return fail(p, "duplicate part %s", PARTS[k].name);
  r->parts |= PARTS[k].bit;
  switch (PARTS[k].bit) {
    case RRULE_P_FREQ: {
      int f;
      for (f = 0; f < 7; f++)
        if (is(value, FREQ_NAMES[f])) break;
      if (f == 7)
        return fail(p,
                    "FREQ=%s is not one of SECONDLY, MINUTELY, HOURLY, "
                    "DAILY, WEEKLY, MONTHLY, YEARLY",
                    show(a, value));
      r->freq = (uint8_t)f;
      return 0;
    }
    case RRULE_P_INTERVAL:
      if (parse_count_like(p, "INTERVAL", value, 1, RRULE_INTERVAL_MAX, &v))
        return -1;
      r->interval = (int32_t)v;
      return 0;
    case RRULE_P_COUNT:
      if (parse_count_like(p, "COUNT", value, 1, RRULE_COUNT_MAX, &v))
        return -1;
      r->count = v;
      return 0;
    case RRULE_P_UNTIL: return parse_until(p, value, r);
    case RRULE_P_BYSECOND: {
      static const list_spec ls = {"BYSECOND", 0, 60, 0};
      return parse_int_list(p, &ls, value, &r->bysecond, NULL);
    }
    case RRULE_P_BYMINUTE: {
      static const list_spec ls = {"BYMINUTE", 0, 59, 0};
      return parse_int_list(p, &ls, value, &r->byminute, NULL);
    }
    case RRULE_P_BYHOUR: {
      static const list_spec ls = {"BYHOUR", 0, 23, 0};
      uint64_t h = 0;
      if (parse_int_list(p, &ls, value, &h, NULL)) return -1;
      r->byhour = (uint32_t)h;
      return 0;
    }
    case RRULE_P_BYDAY: return parse_byday(p, value, r, notes);
    case RRULE_P_BYMONTHDAY: {
      static const list_spec ls = {"BYMONTHDAY", 1, 31, 1};
      uint64_t pos = 0, neg = 0;
      if (parse_int_list(p, &ls, value, &pos, &neg)) return -1;
      r->bymonthday = (uint32_t)pos;
      r->bymonthday_neg = (uint32_t)neg;
      return 0;
    }
    case RRULE_P_BYYEARDAY: {
      static const list_spec ls = {"BYYEARDAY", 1, 366, 1};
      return parse_int_list(p, &ls, value, r->byyearday.w, r->byyearday_neg.w);
    }
    case RRULE_P_BYWEEKNO: {
      static const list_spec ls = {"BYWEEKNO", 1, 53, 1};
      return parse_int_list(p, &ls, value, &r->byweekno, &r->byweekno_neg);
    }
    case RRULE_P_BYMONTH: {
      static const list_spec ls = {"BYMONTH", 1, 12, 0};
      uint64_t m = 0;
      if (parse_int_list(p, &ls, value, &m, NULL)) return -1;
      r->bymonth = (uint16_t)m;
      return 0;
    }
    case RRULE_P_BYSETPOS: {
      static const list_spec ls = {"BYSETPOS", 1, 366, 1};
      return parse_int_list(p, &ls, value, r->bysetpos.w, r->bysetpos_neg.w);
    }
    case RRULE_P_WKST: {
      int w = weekday_index(value);
      if (w < 0)
        return fail(p, "WKST=%s is not one of MO, TU, WE, TH, FR, SA, SU",
                    show(a, value));
      r->wkst = (uint8_t)w;
      return 0;
    }
    case RRULE_P_RSCALE:
      if (!is(value, "GREGORIAN"))
        return fail(p, "RSCALE=%s is not supported (only GREGORIAN)",
                    show(a, value));
      return 0;
    default: /* RRULE_P_SKIP */
      if (is(value, "OMIT")) r->skip = RRULE_SKIP_OMIT;
      else if (is(value, "BACKWARD")) r->skip = RRULE_SKIP_BACKWARD;
      else if (is(value, "FORWARD")) r->skip = RRULE_SKIP_FORWARD;
      else
        return fail(p, "SKIP=%s is not one of OMIT, BACKWARD, FORWARD",
                    show(b, value));
      return 0;
  }
}

#define BY_ANY                                                            \
  (RRULE_P_BYSECOND | RRULE_P_BYMINUTE | RRULE_P_BYHOUR | RRULE_P_BYDAY | \
   RRULE_P_BYMONTHDAY | RRULE_P_BYYEARDAY | RRULE_P_BYWEEKNO |            \
   RRULE_P_BYMONTH)

/* What RFC 5545 says a rule MUST NOT combine, and our own refusals
** (docs/calendar.md, "What is refused"). */
static int check_rule(pctx *p, const rrule_rule *r, const rule_notes *notes) {
  char a[SHOW_MAX + 1];
  uint32_t has = r->parts;
  int f = r->freq;
  if (!(has & RRULE_P_FREQ)) return fail(p, "FREQ is missing");
  if ((has & RRULE_P_COUNT) && (has & RRULE_P_UNTIL))
    return fail(p, "COUNT and UNTIL together");
  if ((has & RRULE_P_BYWEEKNO) && f != RRULE_YEARLY)
    return fail(p, "BYWEEKNO is only allowed with FREQ=YEARLY");
  if ((has & RRULE_P_BYYEARDAY) &&
      (f == RRULE_DAILY || f == RRULE_WEEKLY || f == RRULE_MONTHLY))
    return fail(p, "BYYEARDAY is not allowed with FREQ=%s", FREQ_NAMES[f]);
  if ((has & RRULE_P_BYMONTHDAY) && f == RRULE_WEEKLY)
    return fail(p, "BYMONTHDAY is not allowed with FREQ=WEEKLY");
  if (r->byday_ord) {
    if (f != RRULE_MONTHLY && f != RRULE_YEARLY)
      return fail(p,
                  "BYDAY=%s: an ordinal is only allowed with FREQ=MONTHLY "
                  "or FREQ=YEARLY",
                  show(a, notes->first_ord));
    if (has & RRULE_P_BYWEEKNO)
      return fail(p, "BYDAY=%s: an ordinal is not allowed with BYWEEKNO",
                  show(a, notes->first_ord));
    if (r->byday)
      return fail(p,
                  "BYDAY=%s mixes days with and without an ordinal: write "
                  "them as two RRULE lines",
                  show(a, notes->byday));
  }
  if ((has & RRULE_P_BYSETPOS) && !(has & BY_ANY))
    return fail(p, "BYSETPOS needs another BYxxx part");
  if ((has & RRULE_P_SKIP) && !(has & RRULE_P_RSCALE))
    return fail(p, "SKIP needs RSCALE=GREGORIAN");
  return 0;
}

static int parse_recur(pctx *p, span value) {
  rrule_set *s = p->out;
  rrule_rule *r;
  rule_notes notes;
  span rest = value, part;
  if (s->nrules == RRULE_MAX_RULES)
    return fail(p, "more than %d RRULE lines", RRULE_MAX_RULES);
  r = &s->rules[s->nrules];
  memset(r, 0, sizeof *r);
  memset(&notes, 0, sizeof notes);
  r->interval = 1;
  if (trim(value).s == trim(value).e) return fail(p, "empty RRULE");
  while (next_item(&rest, ';', &part)) {
    part = trim(part);
    if (part.s == part.e) continue; /* "FREQ=DAILY;" */
    if (parse_part(p, part, r, &notes)) return -1;
  }
  if (check_rule(p, r, &notes)) return -1;
  s->nrules++;
  return 0;
}

/* ---- RDATE / EXDATE --------------------------------------------------- */

/* Parameters of an RDATE/EXDATE line: VALUE and TZID. */
static int date_params(pctx *p, const char *prop, span params, int *date_only) {
  char a[SHOW_MAX + 1], b[SHOW_MAX + 1];
  span rest = params, item;
  *date_only = 0;
  while (next_item(&rest, ';', &item)) {
    const char *eq;
    span name, value;
    item = trim(item);
    if (item.s == item.e) continue;
    eq = find(item, '=');
    if (!eq)
      return fail(p, "%s parameter '%s' has no '='", prop, show(a, item));
    name = trim((span){item.s, eq});
    value = trim((span){eq + 1, item.e});
    if (value.e - value.s >= 2 && *value.s == '"' && value.e[-1] == '"') {
      value.s++;
      value.e--;
    }
    if (is(name, "VALUE")) {
      if (is(value, "DATE")) *date_only = 1;
      else if (!is(value, "DATE-TIME"))
        return fail(p, "%s;VALUE=%s is not supported (DATE or DATE-TIME)", prop,
                    show(a, value));
    } else if (is(name, "TZID")) {
      rrule_set *s = p->out;
      size_t n = (size_t)(value.e - value.s);
      if (n == 0 || n >= RRULE_TZID_MAX)
        return fail(p, "%s;TZID=%s is not a time zone name", prop,
                    show(a, value));
      if (s->tzid[0] &&
          (strlen(s->tzid) != n || memcmp(s->tzid, value.s, n) != 0))
        return fail(p,
                    "%s;TZID=%s differs from TZID=%s of an earlier line "
                    "(every value is in the trigger's time zone)",
                    prop, show(a, value),
                    show(b, (span){s->tzid, s->tzid + strlen(s->tzid)}));
      memcpy(s->tzid, value.s, n);
      s->tzid[n] = 0;
    } else {
      return fail(p, "%s has an unknown parameter '%s' (allowed VALUE, TZID)",
                  prop, show(a, name));
    }
  }
  return 0;
}

static int parse_dates(pctx *p, const char *prop, span params, span value,
                       rrule_date *dates, int *n) {
  char a[SHOW_MAX + 1], why[96];
  span rest = value, item;
  int date_only;
  if (date_params(p, prop, params, &date_only)) return -1;
  if (trim(value).s == trim(value).e) return fail(p, "%s is empty", prop);
  while (next_item(&rest, ',', &item)) {
    rrule_date d;
    int rc;
    item = trim(item);
    if (item.s == item.e)
      return fail(p, "%s has an empty value in '%s'", prop, show(a, value));
    rc = parse_stamp(item, &d, why, sizeof why);
    if (rc == -1)
      return fail(p, "%s value '%s' is not " STAMP_FORMS, prop, show(a, item));
    if (rc == -2) return fail(p, "%s value '%s': %s", prop, show(a, item), why);
    if (date_only && d.kind != RRULE_DATE)
      return fail(p, "%s;VALUE=DATE value '%s' is not YYYYMMDD", prop,
                  show(a, item));
    if (*n == RRULE_MAX_DATES)
      return fail(p, "more than %d %s values", RRULE_MAX_DATES, prop);
    dates[(*n)++] = d;
  }
  return 0;
}

/* ---- Lines ------------------------------------------------------------ */

/*
** The next logical line of *pos into buf (folded lines joined: a line
** break followed by a blank continues the line; CR before LF dropped).
** Returns its length, -1 at the end of the text, -2 when it is longer than
** cap - 1 (the rest of it is skipped).
*/
static int next_line(const char **pos, char *buf, size_t cap) {
  const char *q = *pos;
  size_t n = 0;
  int too_long = 0;
  if (!*q) return -1;
  for (;;) {
    char ch = *q;
    if (ch == '\r' && (q[1] == '\n' || q[1] == 0)) {
      q++;
      continue;
    }
    if (ch == '\n') {
      if (q[1] == ' ' || q[1] == '\t') {
        q += 2; /* folded: the break and one blank disappear */
        continue;
      }
      q++;
      break;
    }
    if (ch == 0) break;
    if (n + 1 < cap) buf[n++] = ch;
    else too_long = 1;
    q++;
  }
  buf[n] = 0;
  *pos = q;
  return too_long ? -2 : (int)n;
}

static int count_lines(const char *text, char *buf, size_t cap) {
  const char *pos = text;
  int n = 0, len;
  while ((len = next_line(&pos, buf, cap)) != -1) {
    span t = trim((span){buf, buf + (len < 0 ? 0 : len)});
    if (len == -2 || t.s < t.e) n++;
  }
  return n;
}

static int parse_line(pctx *p, span t) {
  char a[SHOW_MAX + 1];
  rrule_set *s = p->out;
  const char *q = t.s, *colon;
  span name, params, value;
  while (q < t.e && *q != ':' && *q != ';' && *q != '=') q++;
  name = (span){t.s, q};
  if (q == t.e && (is(name, "RRULE") || is(name, "RDATE") ||
                   is(name, "EXDATE") || is(name, "DTSTART")))
    return fail(p, "line '%s' has no ':' after its name", show(a, t));
  if (q == t.e || *q == '=') return parse_recur(p, t); /* bare RECUR value */
  colon = find((span){q, t.e}, ':');
  if (!colon) return fail(p, "line '%s' has no ':' after its name", show(a, t));
  params = (span){*q == ';' ? q + 1 : q, colon};
  value = (span){colon + 1, t.e};
  if (is(name, "RRULE")) {
    if (trim(params).s != trim(params).e)
      return fail(p, "RRULE has parameters '%s': none are allowed",
                  show(a, params));
    return parse_recur(p, value);
  }
  if (is(name, "RDATE"))
    return parse_dates(p, "RDATE", params, value, s->rdates, &s->nrdates);
  if (is(name, "EXDATE"))
    return parse_dates(p, "EXDATE", params, value, s->exdates, &s->nexdates);
  if (is(name, "DTSTART"))
    return fail(p, "DTSTART is not allowed: start_at and timezone carry it");
  if (is(name, "EXRULE"))
    return fail(p, "EXRULE is not supported (RFC 5545 removed it): use EXDATE");
  return fail(p, "unknown line '%s' (allowed RRULE, RDATE, EXDATE)",
              show(a, name));
}

int rrule_compile(const char *text, rrule_set *out, char *err, size_t errlen) {
  static const char empty[] = "";
  char buf[LINE_MAX_LEN];
  const char *pos = text ? text : empty;
  pctx p;
  int len;
  memset(out, 0, sizeof *out);
  memset(&p, 0, sizeof p);
  p.err = err;
  p.errlen = errlen;
  p.out = out;
  if (err && errlen) err[0] = 0;
  p.multi = count_lines(pos, buf, sizeof buf) > 1;
  while ((len = next_line(&pos, buf, sizeof buf)) != -1) {
    span t;
    p.line++;
    if (len == -2) {
      fail(&p, "line is longer than %d characters", LINE_MAX_LEN - 1);
      goto bad;
    }
    t = trim((span){buf, buf + len});
    if (t.s == t.e) continue;
    if (parse_line(&p, t)) goto bad;
  }
  if (out->nrules == 0 && out->nrdates == 0) {
    p.multi = 0;
    if (out->nexdates) fail(&p, "no RRULE or RDATE line (EXDATE alone)");
    else fail(&p, "empty rule");
    goto bad;
  }
  return 0;
bad:
  memset(out, 0, sizeof *out);
  return -1;
}
