/*
** cron.c -- the cron dialect of docs/cron.md.
**
** Owns: parsing an expression into the bitmask form of cron.h (with error
** messages naming the field), finding the next occurrence in an IANA zone
** under the DST rules of docs/cron.md, and the canonical text (rules in
** cron.h).
**
** How the search works. Everything is first found in wall-clock seconds
** ("wall": local time encoded as if it were UTC):
**   next_match() finds the first wall time >= w that the expression
**   matches. It walks months (skipping months not in the month mask), builds
**   the month's set of matching days as a 31-bit mask (day fields, L, W, #
**   and the OR/AND rule at once), takes the first day at or after the start
**   day, and the first time of day from the hour/minute/second masks. Cost
**   per call is a few dozen operations; an impossible expression costs one
**   mask per allowed month for 50 years, never a loop without end.
** Then the wall time is mapped to an instant by walking the zone's
** constant-offset segments (tz_next_transition), starting with the segment
** that holds after+1:
**   - interval jobs run at every instant whose wall time matches: in a
**     segment [t0, s1) with offset o the first candidate is
**     next_match(t0 + o); it is the answer when it falls before s1 - o,
**     else the search restarts in the next segment (walls in a gap never
**     belong to any segment; after a fall-back the next segment starts at
**     an earlier wall time, so the repeated hour runs again);
**   - fixed-time jobs run when the highest wall time reached so far first
**     reaches a matching time: a time in a gap runs at the transition that
**     ends the gap, a repeated time only on the first pass. The matching
**     wall time w is the first one above the highest wall time reached up
**     to `after`; the run is at the first instant of the walk whose wall
**     time is >= w.
** No allocation, no clock, no libc time functions.
*/
#include "time/cron.h"

#include "text/ascii.h"
#include "text/coverage.h"
#include "text/utf8.h"
#include "time/civil.h"

#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define SECS_PER_DAY 86400
#define HORIZON_MONTHS (50 * 12)
#define HORIZON_SECS (50LL * 366 * SECS_PER_DAY)
/* Longer than any fall-back overlap: RFC 8536 offsets lie in
** [-89999, 93599], so one jump is below 183600 s. */
#define OVERLAP_WINDOW 187200
#define MAX_SEGMENT_STEPS 100000
#define SHOW_MAX 40

/* ---- Bit helpers ------------------------------------------------------ */

static int ctz64(uint64_t m) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_ctzll(m);
#else
  int n = 0;
  while (!(m & 1)) {
    m >>= 1;
    n++;
  }
  return n;
#endif
}

static int popcount64(uint64_t m) {
  int n = 0;
  while (m) {
    m &= m - 1;
    n++;
  }
  return n;
}

/* Lowest set bit >= from, or -1. The callers' from is at most 60 (one past
** a field's highest value). */
static int next_bit(uint64_t m, int from) {
  if (NEVER(from > 63)) return -1;
  m &= ~0ULL << from;
  return m ? ctz64(m) : -1;
}

/* ---- Fields ----------------------------------------------------------- */

enum { F_SEC, F_MIN, F_HOUR, F_DOM, F_MON, F_DOW };

typedef struct field_spec {
  int kind;
  const char *name;
  int lo, hi;          /* values as written (day-of-week 0-7) */
  int star_hi;         /* end of '*' and 'a/n' (day-of-week: 6) */
  int span;            /* largest step: number of values */
  const char *allowed; /* for "invalid value" messages */
} field_spec;

static const field_spec FIELDS[6] = {
    {F_SEC, "second", 0, 59, 59, 60, "0-59"},
    {F_MIN, "minute", 0, 59, 59, 60, "0-59"},
    {F_HOUR, "hour", 0, 23, 23, 24, "0-23"},
    {F_DOM, "day-of-month", 1, 31, 31, 31, "1-31, L, L-n, LW, nW"},
    {F_MON, "month", 1, 12, 12, 12, "1-12, JAN-DEC"},
    {F_DOW, "day-of-week", 0, 7, 6, 7, "0-7, SUN-SAT, nL, n#k"},
};

static const char MONTH_NAMES[] = "JANFEBMARAPRMAYJUNJULAUGSEPOCTNOVDEC";
static const char DOW_NAMES[] = "SUNMONTUEWEDTHUFRISAT";

/* ---- Errors ----------------------------------------------------------- */

typedef struct parse_ctx {
  const field_spec *f;
  int num; /* field number as the user counts */
  char *err;
  size_t errlen;
  uint64_t bits; /* plain values of the field being parsed */
  cron_expr *out;
} parse_ctx;

/* Copy text for a message: bounded (cut before a character, then
** "..."), control bytes shown as '?'. */
static const char *show(char *buf, const char *s, const char *e) {
  size_t n = (size_t)(e - s), k;
  int cut = n > SHOW_MAX - 4;
  size_t lim = cut ? (size_t)utf8_prefix(s, n, SHOW_MAX - 8) : n;
  for (k = 0; k < lim; k++) {
    unsigned char ch = (unsigned char)s[k];
    buf[k] = (ch < 0x20 || ch == 0x7f) ? '?' : (char)ch;
  }
  if (cut) {
    memcpy(buf + k, "...", 3);
    k += 3;
  }
  buf[k] = 0;
  return buf;
}

static int expr_fail(char *err, size_t errlen, const char *fmt, ...) {
  va_list ap;
  if (err && errlen) {
    size_t k = (size_t)snprintf(err, errlen, "cron: ");
    if (k < errlen) {
      va_start(ap, fmt);
      vsnprintf(err + k, errlen - k, fmt, ap);
      va_end(ap);
    }
  }
  return -1;
}

static int field_fail(parse_ctx *p, const char *fmt, ...) {
  va_list ap;
  if (p->err && p->errlen) {
    size_t k = (size_t)snprintf(p->err, p->errlen,
                                "cron field %d (%s): ", p->num, p->f->name);
    if (k < p->errlen) {
      va_start(ap, fmt);
      vsnprintf(p->err + k, p->errlen - k, fmt, ap);
      va_end(ap);
    }
  }
  return -1;
}

/* ---- Tokens ----------------------------------------------------------- */

static int upper(int ch) { return (ch >= 'a' && ch <= 'z') ? ch - 32 : ch; }

static int all_digits(const char *s, const char *e) {
  if (s == e) return 0;
  for (; s < e; s++)
    if (!ascii_is_digit((unsigned char)*s)) return 0;
  return 1;
}

static const char *find_char(const char *s, const char *e, char ch) {
  for (; s < e; s++)
    if (*s == ch) return s;
  return NULL;
}

static int has_char(const char *s, const char *e, char ch) {
  return find_char(s, e, ch) != NULL;
}

static int has_letter(const char *s, const char *e, char up) {
  for (; s < e; s++)
    if (upper((unsigned char)*s) == up) return 1;
  return 0;
}

/* Digits -> int, capped so huge numbers stay huge without overflow. */
static int digits_value(const char *s, const char *e) {
  long v = 0;
  for (; s < e; s++) {
    v = v * 10 + (*s - '0');
    if (v > 1000000) v = 1000000;
  }
  return (int)v;
}

/* A 3-letter name in table (3 chars per entry) -> index, or -1. */
static int name_index(const char *table, const char *s, const char *e) {
  size_t i, n = strlen(table) / 3;
  if (e - s != 3) return -1;
  for (i = 0; i < n; i++) {
    const char *t = table + 3 * i;
    if (upper((unsigned char)s[0]) == t[0] &&
        upper((unsigned char)s[1]) == t[1] &&
        upper((unsigned char)s[2]) == t[2])
      return (int)i;
  }
  return -1;
}

/* Why a token is not a value: the most specific message we can give.
** [s, e) is what parse_value refused: never empty digits (those fail as
** out of range), and in day-of-week neither a '#' (parse_dow_special
** takes the item apart) nor a weekday name (it parses). */
static int value_fail(parse_ctx *p, const char *s, const char *e,
                      const char *is, const char *ie) {
  char a[SHOW_MAX], b[SHOW_MAX];
  int kind = p->f->kind;
  int in_range = has_char(is, ie, '-') || has_char(is, ie, '/');
  if (s == e) return field_fail(p, "missing value in '%s'", show(a, is, ie));
  if (upper((unsigned char)*s) == 'H' && (e - s == 1 || !ascii_is_alpha(s[1])))
    return field_fail(p, "H (hashed value) is not supported: '%s'",
                      show(a, is, ie));
  if (has_char(s, e, '#'))
    return field_fail(p, "'#' is only allowed in day-of-week: '%s'",
                      show(a, is, ie));
  if (has_letter(s, e, 'W') && kind != F_DOM && name_index(DOW_NAMES, s, e) < 0)
    return field_fail(p, "'W' is only allowed in day-of-month: '%s'",
                      show(a, is, ie));
  if (has_letter(s, e, 'L') && kind != F_DOM && kind != F_DOW &&
      name_index(MONTH_NAMES, s, e) < 0)
    return field_fail(p,
                      "'L' is only allowed in day-of-month and day-of-week: "
                      "'%s'",
                      show(a, is, ie));
  if ((kind == F_DOM || kind == F_DOW) && in_range &&
      (has_letter(s, e, 'L') || has_letter(s, e, 'W')))
    return field_fail(p, "'%s' cannot be used in a range or with a step: '%s'",
                      show(a, s, e), show(b, is, ie));
  if (kind == F_MON || kind == F_DOW) {
    int alpha = 1;
    const char *q;
    for (q = s; q < e; q++)
      if (!ascii_is_alpha((unsigned char)*q)) alpha = 0;
    if (alpha)
      return field_fail(p, "unknown name '%s' (allowed %s)", show(a, s, e),
                        p->f->allowed);
  }
  return field_fail(p, "invalid value '%s' (allowed %s)", show(a, s, e),
                    p->f->allowed);
}

/* One value: number in lo..hi or a name. [is, ie) is the item, for errors. */
static int parse_value(parse_ctx *p, const char *s, const char *e,
                       const char *is, const char *ie, int *v) {
  char a[SHOW_MAX];
  int k;
  if (all_digits(s, e)) {
    *v = digits_value(s, e);
    if (*v < p->f->lo || *v > p->f->hi)
      return field_fail(p, "%s is out of range %d-%d", show(a, s, e), p->f->lo,
                        p->f->hi);
    return 0;
  }
  if (p->f->kind == F_MON && (k = name_index(MONTH_NAMES, s, e)) >= 0) {
    *v = k + 1;
    return 0;
  }
  if (p->f->kind == F_DOW && (k = name_index(DOW_NAMES, s, e)) >= 0) {
    *v = k;
    return 0;
  }
  return value_fail(p, s, e, is, ie);
}

/* ---- Items ------------------------------------------------------------ */

/* a..b by step; day-of-week 7 is stored as Sunday (0). */
static void add_range(parse_ctx *p, int a, int b, int step) {
  int v;
  for (v = a; v <= b; v += step)
    p->bits |= 1ULL << (v == 7 && p->f->kind == F_DOW ? 0 : v);
}

/* Step after '/': 1..span. */
static int parse_step(parse_ctx *p, const char *s, const char *e,
                      const char *is, const char *ie, int *step) {
  char a[SHOW_MAX], b[SHOW_MAX];
  if (s == e) return field_fail(p, "missing step in '%s'", show(a, is, ie));
  if (has_char(s, e, '/'))
    return field_fail(p, "more than one '/' in '%s'", show(a, is, ie));
  if (!all_digits(s, e))
    return field_fail(p, "invalid step '%s' in '%s' (allowed 1-%d)",
                      show(a, s, e), show(b, is, ie), p->f->span);
  *step = digits_value(s, e);
  if (*step < 1 || *step > p->f->span)
    return field_fail(p, "step %s in '%s' is out of range 1-%d", show(a, s, e),
                      show(b, is, ie), p->f->span);
  return 0;
}

/* `*`, `a`, `a-b`, each optionally with `/n`. */
static int parse_plain_item(parse_ctx *p, const char *s, const char *e) {
  char a[SHOW_MAX];
  const char *slash = find_char(s, e, '/');
  const char *be = slash ? slash : e;
  const char *dash;
  int lo, hi, step = 1;
  if (be - s == 1 && *s == '*') {
    if (slash && parse_step(p, slash + 1, e, s, e, &step)) return -1;
    add_range(p, p->f->kind == F_DOM || p->f->kind == F_MON ? 1 : 0,
              p->f->star_hi, step);
    return 0;
  }
  dash = find_char(s, be, '-');
  if (dash) {
    if (parse_value(p, s, dash, s, e, &lo)) return -1;
    if (has_char(dash + 1, be, '-'))
      return field_fail(p, "invalid range '%s'", show(a, s, be));
    if (parse_value(p, dash + 1, be, s, e, &hi)) return -1;
    /* A range ending in Sunday below its start reads the end as 7. */
    if (p->f->kind == F_DOW && hi == 0 && lo > 0) hi = 7;
    if (lo > hi) return field_fail(p, "reversed range %s", show(a, s, be));
  } else {
    if (parse_value(p, s, be, s, e, &lo)) return -1;
    hi = lo;
    if (slash) {
      if (lo > p->f->star_hi)
        return field_fail(p, "start %d of '%s' is out of range %d-%d", lo,
                          show(a, s, e), p->f->lo, p->f->star_hi);
      hi = p->f->star_hi;
    }
  }
  if (slash && parse_step(p, slash + 1, e, s, e, &step)) return -1;
  add_range(p, lo, hi, step);
  return 0;
}

/*
** Day-of-month specials: L, LW, L-n, nW. Returns 1 when the item was one
** (and was stored), 0 when it is not special, -1 on error.
*/
static int parse_dom_special(parse_ctx *p, const char *s, const char *e) {
  char a[SHOW_MAX];
  cron_expr *c = p->out;
  size_t n = (size_t)(e - s);
  int v;
  if (has_char(s, e, '/')) return 0;
  if (n == 1 && upper((unsigned char)s[0]) == 'L') {
    c->dom_last = 1;
    return 1;
  }
  if (n == 2 && upper((unsigned char)s[0]) == 'L' &&
      upper((unsigned char)s[1]) == 'W') {
    c->dom_last_weekday = 1;
    return 1;
  }
  if (n >= 3 && upper((unsigned char)s[0]) == 'L' && s[1] == '-' &&
      all_digits(s + 2, e)) {
    v = digits_value(s + 2, e);
    if (v < 1 || v > 30) {
      char b[SHOW_MAX];
      return field_fail(p, "%s in '%s' is out of range 1-30", show(a, s + 2, e),
                        show(b, s, e));
    }
    c->dom_last_minus |= 1u << v;
    return 1;
  }
  if (n >= 2 && upper((unsigned char)s[n - 1]) == 'W' && all_digits(s, e - 1)) {
    v = digits_value(s, e - 1);
    if (v < 1 || v > 31) {
      char b[SHOW_MAX];
      return field_fail(p, "%s in '%s' is out of range 1-31", show(a, s, e - 1),
                        show(b, s, e));
    }
    c->dom_nearest_wd |= 1u << v;
    return 1;
  }
  return 0;
}

/* Day-of-week specials: wL and w#k (w a number 0-7 or a name). */
static int parse_dow_special(parse_ctx *p, const char *s, const char *e) {
  char a[SHOW_MAX], b[SHOW_MAX];
  cron_expr *c = p->out;
  const char *hash = find_char(s, e, '#');
  int w, k;
  if (hash) {
    if (has_char(s, e, '-') || has_char(s, e, '/') ||
        has_char(hash + 1, e, '#') || s == hash)
      return field_fail(p, "'#' needs one weekday and a number 1-5: '%s'",
                        show(a, s, e));
    if (parse_value(p, s, hash, s, e, &w)) return -1;
    if (!all_digits(hash + 1, e))
      return field_fail(p, "invalid week number '%s' in '%s' (allowed 1-5)",
                        show(a, hash + 1, e), show(b, s, e));
    k = digits_value(hash + 1, e);
    if (k < 1 || k > 5)
      return field_fail(p, "%s in '%s' is out of range 1-5",
                        show(a, hash + 1, e), show(b, s, e));
    c->dow_nth[w % 7] |= (uint8_t)(1u << k);
    return 1;
  }
  if (upper((unsigned char)s[0]) == 'L')
    return field_fail(p,
                      "'L' in day-of-week must follow a weekday (nL, "
                      "e.g. 5L): '%s'",
                      show(a, s, e));
  if (upper((unsigned char)e[-1]) == 'L') { /* nL: s[0] is not 'L' (above) */
    if (has_char(s, e, '-') || has_char(s, e, '/'))
      return field_fail(p,
                        "'L' cannot be used in a range or with a step: "
                        "'%s'",
                        show(a, s, e));
    if (parse_value(p, s, e - 1, s, e, &w)) return -1;
    c->dow_last |= (uint8_t)(1u << (w % 7));
    return 1;
  }
  return 0;
}

static int parse_item(parse_ctx *p, const char *s, const char *e) {
  char a[SHOW_MAX];
  int r;
  if (s == e) return -2; /* caller reports the empty item */
  if (has_char(s, e, '?')) {
    if (p->f->kind == F_DOM || p->f->kind == F_DOW)
      return field_fail(p, "'?' must be the whole field: '%s'", show(a, s, e));
    return field_fail(p, "'?' is only allowed in day-of-month and "
                         "day-of-week");
  }
  if (p->f->kind == F_DOM && (r = parse_dom_special(p, s, e)) != 0)
    return r < 0 ? -1 : 0;
  if (p->f->kind == F_DOW && (r = parse_dow_special(p, s, e)) != 0)
    return r < 0 ? -1 : 0;
  return parse_plain_item(p, s, e);
}

/* A whole field: '?', '*' or a comma list of items. */
static int parse_field(parse_ctx *p, const char *s, const char *e) {
  char a[SHOW_MAX];
  int kind = p->f->kind;
  int star = (e - s == 1 && (*s == '*' || *s == '?'));
  if (e - s == 1 && *s == '?' && kind != F_DOM && kind != F_DOW)
    return field_fail(p, "'?' is only allowed in day-of-month and "
                         "day-of-week");
  if (star) {
    add_range(p, kind == F_DOM || kind == F_MON ? 1 : 0, p->f->star_hi, 1);
  } else {
    const char *q = s;
    for (;;) {
      const char *comma = find_char(q, e, ',');
      const char *ie = comma ? comma : e;
      int r = parse_item(p, q, ie);
      if (r == -2)
        return field_fail(p, "empty list item in '%s'", show(a, s, e));
      if (r) return -1;
      if (!comma) break;
      q = comma + 1;
    }
  }
  switch (kind) {
    case F_SEC: p->out->seconds = p->bits; break;
    case F_MIN: p->out->minutes = p->bits; break;
    case F_HOUR: p->out->hours = (uint32_t)p->bits; break;
    case F_DOM:
      p->out->dom = (uint32_t)p->bits;
      p->out->dom_star = (uint8_t)star;
      break;
    case F_MON: p->out->months = (uint16_t)p->bits; break;
    default:
      p->out->dow = (uint8_t)p->bits;
      p->out->dow_star = (uint8_t)star;
      break;
  }
  return 0;
}

/* ---- Whole expressions ------------------------------------------------ */

typedef struct span {
  const char *s, *e;
} span;

static int is_blank(int ch) { return ch == ' ' || ch == '\t'; }

/* Split on runs of blanks; stores up to max spans, returns the count. */
static int split_fields(const char *x, span *out, int max) {
  int n = 0;
  while (*x) {
    while (is_blank((unsigned char)*x)) x++;
    if (!*x) break;
    if (n < max) out[n].s = x;
    while (*x && !is_blank((unsigned char)*x)) x++;
    if (n < max) out[n].e = x;
    n++;
  }
  return n;
}

/* Derived fields used by the search. */
static void finish(cron_expr *c) {
  int h = ctz64(c->hours), m = ctz64(c->minutes), s = ctz64(c->seconds);
  c->fixed_time =
      (uint8_t)(popcount64(c->seconds) == 1 && popcount64(c->minutes) == 1 &&
                popcount64(c->hours) == 1);
  c->first_sod = h * 3600 + m * 60 + s;
  c->dom_special = (uint8_t)(c->dom_last || c->dom_last_weekday ||
                             c->dom_last_minus || c->dom_nearest_wd);
  c->dow_special = (uint8_t)(c->dow_last != 0);
  for (h = 0; h < 7; h++)
    if (c->dow_nth[h]) c->dow_special = 1;
  c->day_any = (uint8_t)((c->dom_star && c->dow_star) ||
                         (!c->dom_star && c->dom == 0xFFFFFFFEu) ||
                         (!c->dow_star && c->dow == 0x7F));
}

static int parse_fields(const span *f, int count, cron_expr *out, char *err,
                        size_t errlen) {
  int first = count == 6 ? 0 : 1, i;
  if (count == 5) out->seconds = 1;
  for (i = 0; i < count; i++) {
    parse_ctx p;
    p.f = &FIELDS[first + i];
    p.num = i + 1;
    p.err = err;
    p.errlen = errlen;
    p.bits = 0;
    p.out = out;
    if (parse_field(&p, f[i].s, f[i].e)) return -1;
  }
  finish(out);
  return 0;
}

static int ieq(const char *s, const char *e, const char *lit) {
  size_t n = strlen(lit), i;
  if ((size_t)(e - s) != n) return 0;
  for (i = 0; i < n; i++)
    if (upper((unsigned char)s[i]) != upper((unsigned char)lit[i])) return 0;
  return 1;
}

static int parse_macro(const span *f, int count, cron_expr *out, char *err,
                       size_t errlen) {
  static const char *const names[7] = {"@yearly", "@annually", "@monthly",
                                       "@weekly", "@daily",    "@midnight",
                                       "@hourly"};
  static const char *const exps[7] = {"0 0 1 1 *", "0 0 1 1 *", "0 0 1 * *",
                                      "0 0 * * 0", "0 0 * * *", "0 0 * * *",
                                      "0 * * * *"};
  char a[SHOW_MAX];
  int i;
  if (ieq(f[0].s, f[0].e, "@reboot"))
    return expr_fail(err, errlen, "@reboot is not supported");
  for (i = 0; i < 7; i++) {
    if (ieq(f[0].s, f[0].e, names[i])) {
      span g[5];
      if (count > 1)
        return expr_fail(err, errlen, "unexpected text after %s: '%s'",
                         names[i], show(a, f[1].s, f[1].e));
      split_fields(exps[i], g, 5);
      return parse_fields(g, 5, out, err, errlen);
    }
  }
  return expr_fail(err, errlen,
                   "unknown macro '%s' (allowed @yearly @annually @monthly "
                   "@weekly @daily @midnight @hourly)",
                   show(a, f[0].s, f[0].e));
}

int cron_parse(const char *expr, cron_expr *out, char *err, size_t errlen) {
  span f[7];
  int count = split_fields(expr ? expr : "", f, 7);
  memset(out, 0, sizeof *out);
  if (err && errlen) err[0] = 0;
  if (count >= 1 && f[0].s[0] == '@')
    return parse_macro(f, count, out, err, errlen);
  if (count != 5 && count != 6)
    return expr_fail(err, errlen, "expected 5 or 6 fields, got %d", count);
  if (parse_fields(f, count, out, err, errlen)) {
    memset(out, 0, sizeof *out);
    return -1;
  }
  return 0;
}

/* ---- Matching days of a month ----------------------------------------- */

/* Weekday 0-6 of day d when day 1 has weekday wd1. */
static int weekday_of(int wd1, int d) { return (wd1 + d - 1) % 7; }

/* Weekday nearest to day n (1..dim), never leaving the month. */
static int nearest_weekday(int n, int dim, int wd1) {
  int wd = weekday_of(wd1, n);
  if (wd == 6) return n == 1 ? 3 : n - 1;
  if (wd == 0) return n == dim ? n - 2 : n + 1;
  return n;
}

static uint32_t dom_days(const cron_expr *c, int dim, int wd1) {
  uint32_t r = c->dom;
  uint32_t bits;
  if (!c->dom_special) return r;
  if (c->dom_last) r |= 1u << dim;
  for (bits = c->dom_last_minus; bits; bits &= bits - 1) {
    int n = ctz64(bits);
    if (n < dim) r |= 1u << (dim - n);
  }
  if (c->dom_last_weekday) {
    int wd = weekday_of(wd1, dim);
    r |= 1u << (dim - (wd == 6 ? 1 : wd == 0 ? 2 : 0));
  }
  for (bits = c->dom_nearest_wd; bits; bits &= bits - 1) {
    int n = ctz64(bits);
    if (n <= dim) r |= 1u << nearest_weekday(n, dim, wd1);
  }
  return r;
}

static uint32_t dow_days(const cron_expr *c, int dim, int wd1) {
  /* Bit i of rot: day i+1 falls on an allowed weekday; repeat weekly. */
  uint32_t rot =
      ((uint32_t)(c->dow >> wd1) | ((uint32_t)c->dow << (7 - wd1))) & 0x7Fu;
  uint32_t r = (uint32_t)(((uint64_t)rot * 0x10204081ULL) << 1);
  int w;
  if (!c->dow_special) return r;
  for (w = 0; w < 7; w++) {
    int first = 1 + (w - wd1 + 7) % 7, k;
    if (c->dow_last >> w & 1) r |= 1u << (first + 7 * ((dim - first) / 7));
    if (!c->dow_nth[w]) continue;
    for (k = 1; k <= 5; k++) {
      int d = first + 7 * (k - 1);
      if ((c->dow_nth[w] >> k & 1) && d <= dim) r |= 1u << d;
    }
  }
  return r;
}

/* Mask of the days (bit d) of month m of year y that match. */
static uint32_t month_days(const cron_expr *c, int y, int m) {
  int dim = civil_days_in_month(y, m);
  uint32_t full = (uint32_t)((1ULL << (dim + 1)) - 2);
  int wd1 = 0;
  uint32_t r;
  if (c->day_any) return full;
  if (!c->dow_star || c->dom_special)
    wd1 = civil_weekday(civil_days_from_date(y, m, 1));
  if (c->dom_star) r = dow_days(c, dim, wd1);
  else if (c->dow_star) r = dom_days(c, dim, wd1);
  else r = dom_days(c, dim, wd1) | dow_days(c, dim, wd1);
  return r & full;
}

/* ---- Wall-clock search ------------------------------------------------ */

/* First allowed second of the day >= sod, or -1. */
static int next_time(const cron_expr *c, int sod) {
  int h = sod / 3600, mi = sod / 60 % 60, s = sod % 60;
  int first_min = ctz64(c->minutes), first_sec = ctz64(c->seconds);
  int H = next_bit(c->hours, h), M, S;
  if (H < 0) return -1;
  if (H == h) {
    M = next_bit(c->minutes, mi);
    if (M == mi) {
      S = next_bit(c->seconds, s);
      if (S >= 0) return h * 3600 + mi * 60 + S;
      M = next_bit(c->minutes, mi + 1);
    }
    if (M >= 0) return h * 3600 + M * 60 + first_sec;
    H = next_bit(c->hours, h + 1);
    if (H < 0) return -1;
  }
  return H * 3600 + first_min * 60 + first_sec;
}

/*
** First wall time >= wall that matches, within HORIZON_MONTHS months of
** wall's month. Returns 1 and *out, or 0.
*/
static int next_match(const cron_expr *c, int64_t wall, int64_t *out) {
  int64_t day = civil_floor_div(wall, SECS_PER_DAY);
  int sod = (int)(wall - day * SECS_PER_DAY);
  int y, m, d, steps;
  civil_date_from_days(day, &y, &m, &d);
  for (steps = 0; steps <= HORIZON_MONTHS; steps++) {
    if (c->months >> m & 1) {
      uint32_t mask = month_days(c, y, m) & (~0u << d);
      while (mask) {
        int dd = ctz64(mask);
        int t = dd == d ? next_time(c, sod) : c->first_sod;
        if (t >= 0) {
          *out = civil_days_from_date(y, m, dd) * SECS_PER_DAY + t;
          return 1;
        }
        mask &= mask - 1;
      }
    }
    /* On to the next allowed month. */
    d = 1;
    sod = 0;
    {
      int nm = next_bit(c->months, m + 1);
      if (nm < 0) {
        nm = ctz64(c->months);
        steps += 12 - m + nm - 1;
        y++;
      } else {
        steps += nm - m - 1;
      }
      m = nm;
    }
  }
  return 0;
}

/* ---- Zones ------------------------------------------------------------ */

/* The constant-offset segment holding instant t. */
typedef struct segment {
  int32_t off;      /* offset within the segment */
  int64_t end;      /* first instant after it (INT64_MAX: none) */
  int64_t max_wall; /* highest wall time of any instant < t */
} segment;

static void segment_at(const tz_zone *z, int64_t t, segment *g) {
  int64_t u = t - OVERLAP_WINDOW;
  int32_t ou = tz_offset_at(z, u);
  int64_t best = INT64_MIN, s = INT64_MAX;
  int k;
  for (k = 0; k < MAX_SEGMENT_STEPS; k++) {
    s = tz_next_transition(z, u);
    if (s > t) break;
    if (s - 1 + ou > best) best = s - 1 + ou;
    u = s;
    ou = tz_offset_at(z, s);
  }
  if (k == MAX_SEGMENT_STEPS) { /* absurd zone data: give up the history */
    ou = tz_offset_at(z, t);
    s = tz_next_transition(z, t);
  }
  g->off = ou;
  g->end = s;
  /* Instant t-1 lies in this segment unless the segment starts at t. */
  if (u < t && t - 1 + ou > best) best = t - 1 + ou;
  g->max_wall = best;
}

static void segment_next(const tz_zone *z, segment *g, int64_t *t0) {
  *t0 = g->end;
  g->off = tz_offset_at(z, g->end);
  g->end = tz_next_transition(z, g->end);
}

/* Interval job: every instant whose wall time matches. */
static int next_interval(const cron_expr *c, const tz_zone *z, int64_t a,
                         int64_t *out) {
  segment g;
  int64_t t0 = a + 1, from, w = 0;
  int have = 0, k;
  segment_at(z, t0, &g);
  from = t0 + g.off;
  for (k = 0; k < MAX_SEGMENT_STEPS; k++) {
    int64_t nfrom;
    if (!have && !next_match(c, from, &w)) return 0;
    have = 1;
    if (g.end == INT64_MAX || w - g.off < g.end) {
      *out = w - g.off;
      return 1;
    }
    segment_next(z, &g, &t0);
    if (t0 - a > HORIZON_SECS) return 0;
    nfrom = t0 + g.off;
    /* No match in [from, w): reusable when from <= nfrom <= w. */
    if (nfrom < from || nfrom > w) have = 0;
    from = nfrom;
  }
  return 0;
}

/* Fixed-time job: runs when the wall clock first reaches a matching time. */
static int next_fixed(const cron_expr *c, const tz_zone *z, int64_t a,
                      int64_t *out) {
  segment g;
  int64_t t0 = a + 1, w;
  int k;
  segment_at(z, t0, &g);
  if (!next_match(c, g.max_wall + 1, &w)) return 0;
  for (k = 0; k < MAX_SEGMENT_STEPS; k++) {
    if (w <= t0 + g.off) { /* crossed by a forward jump: end of the gap */
      *out = t0;
      return 1;
    }
    if (g.end == INT64_MAX || w - g.off < g.end) {
      *out = w - g.off;
      return 1;
    }
    segment_next(z, &g, &t0);
    if (t0 - a > HORIZON_SECS) return 0;
  }
  return 0;
}

/* Instants we compute for: 0001-01-01T00:00:00Z .. 9999-12-31T23:59:59Z. */
#define MIN_INSTANT (-62135596800LL)
#define MAX_INSTANT 253402300799LL

int cron_next(const cron_expr *c, const tz_zone *z, int64_t after_ms,
              int64_t *out_ms) {
  int64_t a = civil_floor_div(after_ms, 1000), t;
  int ok;
  if (c->seconds == 0 || c->minutes == 0 || c->hours == 0 || c->months == 0)
    return 0; /* not a parsed expression */
  if (a < MIN_INSTANT - 1) a = MIN_INSTANT - 1;
  if (a >= MAX_INSTANT) return 0;
  if (z == NULL || z == tz_utc()) ok = next_match(c, a + 1, &t);
  else if (c->fixed_time) ok = next_fixed(c, z, a, &t);
  else ok = next_interval(c, z, a, &t);
  if (!ok || t > MAX_INSTANT) return 0;
  *out_ms = t * 1000;
  return 1;
}

/* ---- Canonical text --------------------------------------------------- */

typedef struct writer {
  char *buf;
  size_t n, len;
  int full;
} writer;

static void put(writer *w, const char *fmt, ...) {
  va_list ap;
  int k;
  if (w->full) return;
  va_start(ap, fmt);
  k = vsnprintf(w->buf + w->len, w->n - w->len, fmt, ap);
  va_end(ap);
  if ((size_t)k >= w->n - w->len) { /* k < 0 too */
    w->full = 1;
    return;
  }
  w->len += (size_t)k;
}

/* The item separator: ',' before every item but the first of a field. */
static void sep(writer *w, int *first) {
  if (!*first) put(w, ",");
  *first = 0;
}

/* The VALUE-SET rule of cron.h. */
static void put_values(writer *w, uint64_t bits, int lo, int hi, int *first) {
  int n = popcount64(bits), a, step, v, last;
  if (n == 0) return;
  a = ctz64(bits);
  if (n >= 3) {
    step = next_bit(bits, a + 1) - a;
    last = a + step * (n - 1);
    if (step >= 2 && last <= hi && last + step > hi) {
      uint64_t want = 0;
      for (v = a; v <= last; v += step) want |= 1ULL << v;
      if (want == bits) {
        sep(w, first);
        if (a == lo) put(w, "*/%d", step);
        else put(w, "%d/%d", a, step);
        return;
      }
    }
  }
  for (v = a; v >= 0; v = next_bit(bits, v + 1)) {
    int e = v;
    while (e + 1 <= hi && (bits >> (e + 1) & 1)) e++;
    sep(w, first);
    if (e == v) put(w, "%d", v);
    else put(w, "%d-%d", v, e);
    v = e;
  }
}

static void put_field(writer *w, uint64_t bits, int lo, int hi) {
  int first = 1;
  uint64_t all = ((1ULL << (hi + 1)) - 1) & ~((1ULL << lo) - 1);
  put(w, " ");
  if ((bits & all) == all) put(w, "*");
  else put_values(w, bits, lo, hi, &first);
}

static void put_dom(writer *w, const cron_expr *c) {
  int first = 1, n;
  put_values(w, c->dom, 1, 31, &first);
  for (n = 1; n <= 31; n++)
    if (c->dom_nearest_wd >> n & 1) {
      sep(w, &first);
      put(w, "%dW", n);
    }
  if (c->dom_last) {
    sep(w, &first);
    put(w, "L");
  }
  if (c->dom_last_weekday) {
    sep(w, &first);
    put(w, "LW");
  }
  for (n = 1; n <= 30; n++)
    if (c->dom_last_minus >> n & 1) {
      sep(w, &first);
      put(w, "L-%d", n);
    }
}

static void put_dow(writer *w, const cron_expr *c) {
  int first = 1, d, k;
  put_values(w, c->dow, 0, 6, &first);
  for (d = 0; d < 7; d++)
    if (c->dow_last >> d & 1) {
      sep(w, &first);
      put(w, "%dL", d);
    }
  for (d = 0; d < 7; d++)
    for (k = 1; k <= 5; k++)
      if (c->dow_nth[d] >> k & 1) {
        sep(w, &first);
        put(w, "%d#%d", d, k);
      }
}

int cron_canonical(const cron_expr *c, char *buf, size_t n) {
  writer w;
  int first = 1;
  if (!buf || n == 0) return -1;
  w.buf = buf;
  w.n = n;
  w.len = 0;
  w.full = 0;
  buf[0] = 0;
  if (c->seconds == (1ULL << 60) - 1) put(&w, "*");
  else put_values(&w, c->seconds, 0, 59, &first);
  put_field(&w, c->minutes, 0, 59);
  put_field(&w, c->hours, 0, 23);
  put(&w, " ");
  if (c->day_any || c->dom_star) put(&w, "*");
  else put_dom(&w, c);
  put_field(&w, c->months, 1, 12);
  put(&w, " ");
  if (c->day_any || c->dow_star) put(&w, "*");
  else put_dow(&w, c);
  return w.full ? -1 : (int)w.len;
}
