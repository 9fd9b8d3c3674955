/*
** when.c -- English temporal phrases -> schedule + confidence. See when.h
** and docs/when.md (the forms, rules, confidence table and recurring phrases).
**
** How it works:
**   1. An ISO-8601 instant is read as a whole by civil_parse_iso.
**   2. Otherwise the phrase is cut into tokens (numbers, words with their
**      dots dropped, and the punctuation : / + - ,) and normalized.
**   3. A recursive-descent parser tries the grammar's alternatives
**      (recurring, "now", duration, anchor, part of day, the general
**      [day] [at] time [zone] / time [on] day / day [part] forms) and
**      accepts only an alternative that consumes every token. Invalid
**      fields (hour 25, February 30, 13pm) stop the parse at once with a
**      reason ("fatal"); otherwise the reason names the first word nothing
**      could read, or the vague / past word that explains the failure.
**   4. The parsed form is resolved against `now` in the zone: calendar
**      words on the zone's local date, clock times through R9 (a time in a
**      DST gap moves forward by the gap, a repeated time takes the first
**      pass), months by clamped calendar arithmetic (R2), everything else
**      by exact elapsed time (R1). Recurring forms become an interval or a
**      cron line whose first firing comes from cron_next.
**   5. Confidence is the minimum over the constructs used (§5), kept as
**      integer hundredths so the table values are exact.
**   6. when_find (the end of this file) reads runs of words of a message
**      through the same steps and keeps the longest accepted one, refusing
**      readings that running text does not support (when.h).
*/
#include "time/when.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "text/ascii.h"
#include "time/civil.h"
#include "time/cron.h"

#define DAY_MS CIVIL_MS_PER_DAY
#define HOUR_MS 3600000LL
#define MIN_MS 60000LL
#define TOKENS_MAX 48

/* ---- tokens -------------------------------------------------------------- */

enum { T_INT, T_WORD, T_PUNCT };

typedef struct when_tok {
  int kind;
  const char *s; /* into parser.norm, not NUL-terminated */
  int len;
  int value; /* T_INT */
  int ndig;  /* T_INT: digit count */
  int glued; /* no blank before it */
} when_tok;

typedef struct parser {
  when_tok t[TOKENS_MAX];
  int n, pos, far;
  int fatal; /* an invalid field was found: reason is final */
  char reason[WHEN_REASON_MAX];
  char norm[WHEN_PHRASE_MAX + 1];
} parser;

static int fail(parser *p, const char *fmt, ...) {
  if (p->fatal) return 0;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->reason, sizeof p->reason, fmt, ap);
  va_end(ap);
  p->fatal = 1;
  return 0;
}

static int is_blank(char ch) {
  return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f' ||
         ch == '\v';
}
static char lower(char ch) {
  return ascii_is_upper(ch) ? (char)(ch - 'A' + 'a') : ch;
}

/* Only blanks left from s? (A '.' before them ends the sentence.) */
static int only_blanks(const char *s) {
  while (*s && is_blank(*s)) s++;
  return *s == 0;
}

static when_tok *new_token(parser *p, int kind, int o, int glued) {
  when_tok *t = &p->t[p->n++];
  memset(t, 0, sizeof *t);
  t->kind = kind;
  t->s = p->norm + o;
  t->glued = glued;
  return t;
}

/* Digits -> one T_INT token (at most 4 digits). Returns bytes read or -1. */
static int lex_number(parser *p, const char *s, int *o, int glued) {
  int k = 0, v = 0;
  while (ascii_is_digit(s[k])) {
    if (k == 4) { /* quote its digits only: never part of a character */
      int n = 4;
      while (n < 12 && ascii_is_digit(s[n])) n++;
      return fail(p, "number '%.*s' is too long", n, s) - 1;
    }
    v = v * 10 + (s[k] - '0');
    p->norm[(*o)++] = s[k++];
  }
  when_tok *t = new_token(p, T_INT, *o - k, glued);
  t->len = k;
  t->ndig = k;
  t->value = v;
  return k;
}

/* Letters -> one lower-case T_WORD. A dot after letters is dropped
** ("dec." -> "dec"); after a single letter it may join the next letters
** of an initialism ("a.m." -> "am", "e.s.t." -> "est"). */
static int lex_word(parser *p, const char *s, int *o, int glued) {
  int k = 0, start = *o;
  for (;;) {
    int seg = k;
    while (ascii_is_alpha(s[k])) p->norm[(*o)++] = lower(s[k++]);
    if (s[k] != '.') break;
    k++;
    if (k - 1 - seg != 1 || !ascii_is_alpha(s[k])) break;
  }
  when_tok *t = new_token(p, T_WORD, start, glued);
  t->len = *o - start;
  return k;
}

static int is_unit_word(const when_tok *t);

/* am/pm, an ordinal suffix or a unit: words that may follow a number. */
static int is_suffix_word(const when_tok *t) {
  static const char *const sfx[] = {"am", "pm", "st", "nd", "rd", "th"};
  for (int k = 0; k < 6; k++)
    if (t->len == 2 && memcmp(t->s, sfx[k], 2) == 0) return 1;
  return is_unit_word(t);
}

/* Glue without a blank is fine after a number for am/pm, an ordinal
** suffix or a unit ("9am", "3rd", "2h"), and for a number right after
** such a glued word ("1h30m"); "at8", "mar3", "2mar" need a blank. */
static int check_glue(parser *p) {
  const when_tok *t = &p->t[p->n - 1], *prev = p->n > 1 ? t - 1 : NULL;
  if (!t->glued || !prev) return 0;
  int ok = 1;
  if (t->kind == T_WORD && prev->kind == T_INT) {
    ok = is_suffix_word(t);
  } else if (t->kind == T_INT && prev->kind == T_WORD) {
    ok = prev->glued && prev > p->t && prev[-1].kind == T_INT;
  }
  if (ok) return 0;
  return fail(p, "put a blank between '%.*s' and '%.*s'",
              prev->len > 20 ? 20 : prev->len, prev->s,
              t->len > 20 ? 20 : t->len, t->s) -
         1;
}

/* Cut phrase into tokens and build the normalized text. 0 or -1. */
static int tokenize(parser *p, const char *phrase) {
  int o = 0, blank = 0;
  const char *s = phrase;
  while (*s) {
    char ch = *s;
    if (is_blank(ch)) {
      blank = 1;
      s++;
      continue;
    }
    if (ch == '.' && only_blanks(s + 1)) break; /* sentence end */
    int glued = !blank && p->n > 0;
    int is_punct = strchr(":/+-,", ch) != NULL;
    if (!ascii_is_digit(ch) && !ascii_is_alpha(ch) && !is_punct) {
      unsigned char u = (unsigned char)ch;
      if (u >= 0x20 && u < 0x7f)
        return fail(p, "unexpected character '%c'", ch) - 1;
      return fail(p,
                  "unexpected byte 0x%02x: only English ASCII text is "
                  "understood",
                  u) -
             1;
    }
    if (p->n == TOKENS_MAX) return fail(p, "phrase has too many words") - 1;
    if (blank && o > 0) p->norm[o++] = ' ';
    blank = 0;
    int used;
    if (ascii_is_digit(ch)) {
      used = lex_number(p, s, &o, glued);
      if (used < 0) return -1;
    } else if (ascii_is_alpha(ch)) {
      used = lex_word(p, s, &o, glued);
    } else {
      p->norm[o++] = ch;
      when_tok *t = new_token(p, T_PUNCT, o - 1, glued);
      t->len = 1;
      used = 1;
    }
    s += used;
    if (check_glue(p) != 0) return -1;
  }
  p->norm[o] = 0;
  if (p->n == 0) return fail(p, "empty phrase") - 1;
  return 0;
}

/* ---- token tests --------------------------------------------------------- */

static void touch(parser *p) {
  if (p->pos > p->far) p->far = p->pos;
}

static int tok_word(const parser *p, int i, const char *w) {
  if (i >= p->n || p->t[i].kind != T_WORD) return 0;
  size_t n = strlen(w);
  return (size_t)p->t[i].len == n && memcmp(p->t[i].s, w, n) == 0;
}

static int tok_punct(const parser *p, int i, char ch) {
  return i < p->n && p->t[i].kind == T_PUNCT && p->t[i].s[0] == ch;
}

/* T_INT at i with 1..maxdig digits. */
static int tok_int(const parser *p, int i, int maxdig) {
  return i < p->n && p->t[i].kind == T_INT && p->t[i].ndig <= maxdig;
}

static int accept(parser *p, const char *w) {
  if (!tok_word(p, p->pos, w)) return 0;
  p->pos++;
  touch(p);
  return 1;
}

static int accept_punct(parser *p, char ch) {
  if (!tok_punct(p, p->pos, ch)) return 0;
  p->pos++;
  touch(p);
  return 1;
}

static void skip(parser *p, int k) {
  p->pos += k;
  touch(p);
}

static int at_end(const parser *p) { return p->pos == p->n; }

/* ---- word tables --------------------------------------------------------- */

typedef struct name_val {
  const char *name;
  int v;
} name_val;

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const name_val weekday_names[] = {
    {"sunday", 0},  {"sun", 0},      {"monday", 1}, {"mon", 1},
    {"tuesday", 2}, {"tue", 2},      {"tues", 2},   {"wednesday", 3},
    {"wed", 3},     {"thursday", 4}, {"thu", 4},    {"thur", 4},
    {"thurs", 4},   {"friday", 5},   {"fri", 5},    {"saturday", 6},
    {"sat", 6}};

static const name_val month_names[] = {
    {"january", 1},   {"jan", 1},    {"february", 2},  {"feb", 2},
    {"march", 3},     {"mar", 3},    {"april", 4},     {"apr", 4},
    {"may", 5},       {"june", 6},   {"jun", 6},       {"july", 7},
    {"jul", 7},       {"august", 8}, {"aug", 8},       {"september", 9},
    {"sep", 9},       {"sept", 9},   {"october", 10},  {"oct", 10},
    {"november", 11}, {"nov", 11},   {"december", 12}, {"dec", 12}};

static const char *const month_full[] = {
    "",     "january", "february",  "march",   "april",    "may",     "june",
    "july", "august",  "september", "october", "november", "december"};

enum { U_SEC, U_MIN, U_HOUR, U_DAY, U_WEEK, U_FORTNIGHT, U_MONTH, U_YEAR };

static const name_val unit_names[] = {
    {"s", U_SEC},
    {"sec", U_SEC},
    {"secs", U_SEC},
    {"second", U_SEC},
    {"seconds", U_SEC},
    {"m", U_MIN},
    {"min", U_MIN},
    {"mins", U_MIN},
    {"minute", U_MIN},
    {"minutes", U_MIN},
    {"h", U_HOUR},
    {"hr", U_HOUR},
    {"hrs", U_HOUR},
    {"hour", U_HOUR},
    {"hours", U_HOUR},
    {"day", U_DAY},
    {"days", U_DAY},
    {"week", U_WEEK},
    {"weeks", U_WEEK},
    {"fortnight", U_FORTNIGHT},
    {"fortnights", U_FORTNIGHT},
    {"month", U_MONTH},
    {"months", U_MONTH},
    {"year", U_YEAR},
    {"years", U_YEAR},
};

static int is_unit_word(const when_tok *t) {
  for (int k = 0; k < COUNT(unit_names); k++)
    if ((size_t)t->len == strlen(unit_names[k].name) &&
        memcmp(t->s, unit_names[k].name, (size_t)t->len) == 0)
      return 1;
  return 0;
}

static const int64_t unit_ms[] = {1000LL,     MIN_MS,      HOUR_MS, DAY_MS,
                                  7 * DAY_MS, 14 * DAY_MS, 0,       0};

static const name_val number_names[] = {
    {"a", 1},    {"an", 1},   {"one", 1},     {"two", 2},    {"three", 3},
    {"four", 4}, {"five", 5}, {"six", 6},     {"seven", 7},  {"eight", 8},
    {"nine", 9}, {"ten", 10}, {"eleven", 11}, {"twelve", 12}};

/* R10's fixed table, offsets in minutes east of UTC. */
static const name_val zone_names[] = {
    {"utc", 0},    {"gmt", 0},    {"z", 0},      {"est", -300}, {"edt", -240},
    {"cst", -360}, {"cdt", -300}, {"mst", -420}, {"mdt", -360}, {"pst", -480},
    {"pdt", -420}, {"cet", 60},   {"cest", 120}, {"bst", 60},   {"ist", 330},
    {"jst", 540},  {"aest", 600}, {"aedt", 660}};

/* R8: parts of the day and their implied hour. */
static const name_val part_names[] = {
    {"morning", 9}, {"afternoon", 15}, {"evening", 18}, {"night", 20}};

static int lookup_at(const parser *p, int i, const name_val *tab, int n,
                     int *v) {
  for (int k = 0; k < n; k++) {
    if (tok_word(p, i, tab[k].name)) {
      *v = tab[k].v;
      return 1;
    }
  }
  return 0;
}

/* Accept one word of a table at the current position. */
static int accept_from(parser *p, const name_val *tab, int n, int *v) {
  if (!lookup_at(p, p->pos, tab, n, v)) return 0;
  skip(p, 1);
  return 1;
}

/* ---- parsed forms -------------------------------------------------------- */

enum { CLK_CLOCK, CLK_BARE, CLK_NOON, CLK_MIDNIGHT };

typedef struct clock_spec {
  int has;
  int kind;
  int h, m, s;
} clock_spec;

enum { D_NONE, D_REL, D_WEEKDAY, D_NEXT_WEEKDAY, D_DATE, D_DOM };

typedef struct day_spec {
  int kind;
  int rel;       /* D_REL: 0 today, 1 tomorrow, 2 day after tomorrow */
  int wd;        /* weekdays: 0 = Sunday */
  int said_this; /* "this friday" */
  int year;      /* D_DATE: 0 when not given */
  int month, dom;
} day_spec;

typedef struct zone_spec {
  int has;
  int off_min;
} zone_spec;

typedef struct duration {
  int marker;    /* "in", "+", "from now" or "later" */
  int calendar;  /* a month or year unit was used */
  int months;    /* R2 part */
  int64_t ms;    /* R1 part */
  unsigned seen; /* bit per unit */
} duration;

enum {
  F_NOW,
  F_DURATION,
  F_END_OF,
  F_NEXT_UNIT,
  F_PART_TODAY,
  F_GENERAL,
  F_INTERVAL,
  F_CRON
};

typedef struct when_form {
  int form;
  duration dur;     /* F_DURATION, F_INTERVAL (ms) */
  int unit;         /* F_END_OF, F_NEXT_UNIT */
  int part_hour;    /* F_PART_TODAY, F_GENERAL: -1 when none */
  day_spec day;     /* F_GENERAL */
  clock_spec clock; /* F_GENERAL, F_CRON */
  zone_spec zone;   /* F_GENERAL */
  /* F_CRON */
  unsigned dow_mask; /* bit w; 0x7f = every day */
  int cron_dom;      /* 0 = every day of the month */
  int morning;       /* "every morning at ...": the hour must be < 12 */
} when_form;

/* ---- durations (R1, R2) -------------------------------------------------- */

/* qty in halves: "2" -> 4, "half an" -> 1. */
static int parse_qty(parser *p, int *halves) {
  int v;
  if (tok_int(p, p->pos, 4)) {
    *halves = 2 * p->t[p->pos].value;
    skip(p, 1);
    return 1;
  }
  if (tok_word(p, p->pos, "half") &&
      (tok_word(p, p->pos + 1, "a") || tok_word(p, p->pos + 1, "an"))) {
    *halves = 1;
    skip(p, 2);
    return 1;
  }
  if (lookup_at(p, p->pos, number_names, COUNT(number_names), &v)) {
    *halves = 2 * v;
    skip(p, 1);
    return 1;
  }
  return 0;
}

static int add_term(parser *p, duration *d, int halves, int unit) {
  if (d->seen & (1u << unit))
    return fail(p, "the same unit is given twice in one duration");
  d->seen |= 1u << unit;
  if (unit == U_MONTH || unit == U_YEAR) {
    int mh = halves * (unit == U_YEAR ? 12 : 1);
    if (mh % 2) return fail(p, "half a month is not a whole number of months");
    d->calendar = 1;
    d->months += mh / 2;
  } else {
    d->ms += halves * unit_ms[unit] / 2;
  }
  return 1;
}

static int parse_term(parser *p, duration *d) {
  int save = p->pos, halves, unit;
  if (!parse_qty(p, &halves)) return 0;
  if (!accept_from(p, unit_names, COUNT(unit_names), &unit)) {
    p->pos = save;
    return 0;
  }
  return add_term(p, d, halves, unit);
}

static int parse_duration(parser *p, duration *d) {
  memset(d, 0, sizeof *d);
  if (accept(p, "in") || accept_punct(p, '+')) d->marker = 1;
  if (!parse_term(p, d)) return 0;
  for (;;) {
    int save = p->pos;
    accept_punct(p, ',');
    accept(p, "and");
    if (!parse_term(p, d)) {
      p->pos = save;
      break;
    }
  }
  if (p->fatal) return 0;
  if (accept(p, "from")) {
    if (!accept(p, "now")) return 0;
    d->marker = 1;
  } else if (accept(p, "later")) {
    d->marker = 1;
  }
  return 1;
}

/* ---- clock times (R7, R12) ----------------------------------------------- */

static int parse_ampm(parser *p, int i, int *pm) {
  if (tok_word(p, i, "am")) *pm = 0;
  else if (tok_word(p, i, "pm")) *pm = 1;
  else return 0;
  return 1;
}

/* Two-digit field after ':' at token i (minutes or seconds). */
static int clock_field(parser *p, int i, const char *what, int *v) {
  if (!(i < p->n && p->t[i].kind == T_INT && p->t[i].ndig == 2))
    return fail(p, "%s after ':' must have two digits", what);
  *v = p->t[i].value;
  if (*v > 59) return fail(p, "%s %d is out of range 0-59", what, *v);
  return 1;
}

static int clock_hour(parser *p, clock_spec *c, int has_ampm, int pm) {
  if (has_ampm) {
    if (c->h < 1 || c->h > 12)
      return fail(p, "hour %d is out of range 1-12 with am/pm", c->h);
    c->h = c->h % 12 + (pm ? 12 : 0);
  } else if (c->h > 23) {
    return fail(p, "hour %d is out of range 0-23", c->h);
  }
  return 1;
}

/* H:MM[:SS] [ampm] | H ampm | noon | midday | midnight | H (after "at"). */
static int parse_time(parser *p, clock_spec *c, int after_at) {
  int i = p->pos, pm = 0, k;
  memset(c, 0, sizeof *c);
  if (accept(p, "noon") || accept(p, "midday")) {
    c->has = 1, c->kind = CLK_NOON, c->h = 12;
    return 1;
  }
  if (accept(p, "midnight")) {
    c->has = 1, c->kind = CLK_MIDNIGHT;
    return 1;
  }
  if (!tok_int(p, i, 2)) return 0;
  c->h = p->t[i].value;
  if (tok_punct(p, i + 1, ':')) {
    if (!clock_field(p, i + 2, "minute", &c->m)) return 0;
    k = i + 3;
    if (tok_punct(p, k, ':')) {
      if (!clock_field(p, k + 1, "second", &c->s)) return 0;
      k += 2;
    }
    int has_ampm = parse_ampm(p, k, &pm);
    if (!clock_hour(p, c, has_ampm, pm)) return 0;
    c->kind = CLK_CLOCK;
    skip(p, k + has_ampm - i);
  } else if (parse_ampm(p, i + 1, &pm)) {
    if (!clock_hour(p, c, 1, pm)) return 0;
    c->kind = CLK_CLOCK;
    skip(p, 2);
  } else if (after_at) {
    if (!clock_hour(p, c, 0, 0)) return 0;
    c->kind = CLK_BARE;
    skip(p, 1);
  } else {
    return 0;
  }
  c->has = 1;
  return 1;
}

/* utc | gmt | z | ABBR | (+|-)HH[[:]MM] */
static int parse_zone(parser *p, zone_spec *z) {
  int i = p->pos, v, hh, mm = 0, used;
  if (accept_from(p, zone_names, COUNT(zone_names), &v)) {
    z->has = 1, z->off_min = v;
    return 1;
  }
  if (!(tok_punct(p, i, '+') || tok_punct(p, i, '-'))) return 0;
  if (!(i + 1 < p->n && p->t[i + 1].kind == T_INT)) return 0;
  const when_tok *t = &p->t[i + 1];
  if (t->ndig == 4) {
    hh = t->value / 100, mm = t->value % 100, used = 2;
  } else if (t->ndig <= 2) {
    hh = t->value, used = 2;
    if (tok_punct(p, i + 2, ':')) {
      if (!(tok_int(p, i + 3, 2) && p->t[i + 3].ndig == 2))
        return fail(p, "zone offset minutes must have two digits");
      mm = p->t[i + 3].value, used = 4;
    }
  } else {
    return fail(p, "zone offset must be +HH, +HHMM or +HH:MM");
  }
  if (mm > 59 || hh * 60 + mm > 14 * 60)
    return fail(p, "zone offset %c%02d:%02d is out of range -14:00..+14:00",
                p->t[i].s[0], hh, mm);
  z->has = 1;
  z->off_min = (p->t[i].s[0] == '-' ? -1 : 1) * (hh * 60 + mm);
  skip(p, used);
  return 1;
}

/* ---- days and dates (R3-R6) ---------------------------------------------- */

static const char *ordinal_suffix(int d) {
  if (d % 100 >= 11 && d % 100 <= 13) return "th";
  switch (d % 10) {
    case 1: return "st";
    case 2: return "nd";
    case 3: return "rd";
    default: return "th";
  }
}

/* INT (1-2 digits) with an optional glued st/nd/rd/th. */
static int parse_day_num(parser *p, int *d) {
  int i = p->pos;
  if (!tok_int(p, i, 2)) return 0;
  *d = p->t[i].value;
  const when_tok *s = i + 1 < p->n ? &p->t[i + 1] : NULL;
  if (s && s->glued && s->kind == T_WORD &&
      (tok_word(p, i + 1, "st") || tok_word(p, i + 1, "nd") ||
       tok_word(p, i + 1, "rd") || tok_word(p, i + 1, "th"))) {
    if (memcmp(s->s, ordinal_suffix(*d), 2) != 0)
      return fail(p, "'%d%.2s' is not an ordinal (%d%s)", *d, s->s, *d,
                  ordinal_suffix(*d));
    skip(p, 2);
    return 1;
  }
  skip(p, 1);
  return 1;
}

static int parse_year(parser *p, int *y) {
  if (!(p->pos < p->n && p->t[p->pos].kind == T_INT && p->t[p->pos].ndig == 4))
    return 0;
  /* 0 in a day_spec means "no year": the year 0000, given, is kept as -1
  ** so that check_date refuses it instead of dropping it. */
  *y = p->t[p->pos].value ? p->t[p->pos].value : -1;
  skip(p, 1);
  return 1;
}

/* R12: the day must exist in the month (in the year when given). */
static int check_date(parser *p, day_spec *d) {
  if (d->month < 1 || d->month > 12)
    return fail(p, "month %d is out of range 1-12", d->month);
  if (d->dom < 1 || d->dom > 31)
    return fail(p, "day %d is out of range 1-31", d->dom);
  if (d->year < 0) /* the year 0000 (parse_year) */
    return fail(p, "year 0000 is out of range");
  int dim = civil_days_in_month(d->year ? d->year : 2000, d->month);
  if (d->dom > dim) {
    if (d->year && d->month == 2 && d->dom == 29)
      return fail(p, "%d-02-29 does not exist: %d is not a leap year", d->year,
                  d->year);
    return fail(p, "%s has no day %d", month_full[d->month], d->dom);
  }
  d->kind = D_DATE;
  return 1;
}

/* month_name day_num [[","] year] */
static int parse_month_first(parser *p, day_spec *d) {
  int save = p->pos;
  if (!accept_from(p, month_names, COUNT(month_names), &d->month)) return 0;
  if (!parse_day_num(p, &d->dom)) {
    p->pos = save;
    return 0;
  }
  int before_year = p->pos;
  accept_punct(p, ',');
  if (!parse_year(p, &d->year)) p->pos = before_year;
  return check_date(p, d);
}

/* [the] day_num [of] month_name [year] | the day_num */
static int parse_day_first(parser *p, day_spec *d) {
  int save = p->pos;
  int the = accept(p, "the");
  if (!parse_day_num(p, &d->dom)) {
    p->pos = save;
    return 0;
  }
  int after_num = p->pos;
  accept(p, "of");
  if (accept_from(p, month_names, COUNT(month_names), &d->month)) {
    parse_year(p, &d->year);
    return check_date(p, d);
  }
  p->pos = after_num;
  if (!the || p->fatal) {
    p->pos = save;
    return 0;
  }
  if (d->dom < 1 || d->dom > 31)
    return fail(p, "day %d is out of range 1-31", d->dom);
  d->kind = D_DOM;
  return 1;
}

/* M/D[/YYYY], US order only. */
static int parse_slash_date(parser *p, day_spec *d) {
  int i = p->pos;
  if (!(tok_int(p, i, 2) && tok_punct(p, i + 1, '/') && tok_int(p, i + 2, 2)))
    return 0;
  d->month = p->t[i].value;
  d->dom = p->t[i + 2].value;
  skip(p, 3);
  if (accept_punct(p, '/') && !parse_year(p, &d->year))
    return fail(p, "the year in M/D/YYYY must have four digits");
  return check_date(p, d);
}

static int parse_date(parser *p, day_spec *d) {
  return parse_month_first(p, d) || (!p->fatal && parse_day_first(p, d)) ||
         (!p->fatal && parse_slash_date(p, d));
}

/* today | tomorrow | [the] day after tomorrow | [on] [this|next] weekday
** | [on] date */
static int parse_day(parser *p, day_spec *d) {
  int save = p->pos;
  memset(d, 0, sizeof *d);
  if (accept(p, "today") || accept(p, "tomorrow")) {
    d->kind = D_REL;
    d->rel = tok_word(p, p->pos - 1, "tomorrow");
    return 1;
  }
  accept(p, "the");
  if (accept(p, "day") && accept(p, "after") && accept(p, "tomorrow")) {
    d->kind = D_REL, d->rel = 2;
    return 1;
  }
  p->pos = save;
  accept(p, "on");
  int mod = accept(p, "this") ? 1 : accept(p, "next") ? 2 : 0;
  if (accept_from(p, weekday_names, COUNT(weekday_names), &d->wd)) {
    d->kind = mod == 2 ? D_NEXT_WEEKDAY : D_WEEKDAY;
    d->said_this = mod == 1;
    return 1;
  }
  if (!mod && parse_date(p, d)) return 1;
  p->pos = save;
  return 0;
}

/* ---- once forms ---------------------------------------------------------- */

/* [day] [","] [at] time [zone] | [at] time [zone] [on] day [zone]
** | day [part] */
static int parse_general(parser *p, when_form *ph) {
  p->pos = 0;
  ph->form = F_GENERAL;
  ph->part_hour = -1;
  if (parse_day(p, &ph->day)) {
    if (at_end(p)) return 1;
    if (accept_from(p, part_names, COUNT(part_names), &ph->part_hour))
      return at_end(p);
    accept_punct(p, ',');
    int at = accept(p, "at");
    if (!parse_time(p, &ph->clock, at)) return 0;
    parse_zone(p, &ph->zone);
    return at_end(p);
  }
  if (p->fatal) return 0;
  int at = accept(p, "at");
  if (!parse_time(p, &ph->clock, at)) return 0;
  parse_zone(p, &ph->zone);
  if (p->fatal) return 0;
  if (at_end(p)) return 1;
  if (!parse_day(p, &ph->day)) return 0;
  if (!ph->zone.has) parse_zone(p, &ph->zone);
  return !p->fatal && at_end(p);
}

/* end of [the] day|week|month|year | next week|month|year */
static int parse_anchor(parser *p, when_form *ph) {
  p->pos = 0;
  if (accept(p, "end")) {
    if (!accept(p, "of")) return 0;
    accept(p, "the");
    ph->form = F_END_OF;
  } else if (accept(p, "next")) {
    ph->form = F_NEXT_UNIT;
  } else {
    return 0;
  }
  if (accept(p, "day") && ph->form == F_END_OF) ph->unit = U_DAY;
  else if (accept(p, "week")) ph->unit = U_WEEK;
  else if (accept(p, "month")) ph->unit = U_MONTH;
  else if (accept(p, "year")) ph->unit = U_YEAR;
  else return 0;
  return at_end(p);
}

/* tonight | this morning|afternoon|evening|night */
static int parse_part_word(parser *p, when_form *ph) {
  p->pos = 0;
  ph->form = F_PART_TODAY;
  if (accept(p, "tonight")) {
    ph->part_hour = 20;
    return at_end(p);
  }
  if (!accept(p, "this")) return 0;
  if (!accept_from(p, part_names, COUNT(part_names), &ph->part_hour)) return 0;
  return at_end(p);
}

/* ---- recurring forms (§6) ----------------------------------------------- */

/* Optional "at" time; "at" is required before it (bare hours allowed).
** A zone is refused: a cron line runs in one IANA zone, the tz argument. */
static int parse_rec_time(parser *p, when_form *ph, int required) {
  zone_spec z = {0, 0};
  int word = p->pos - 1;
  if (!accept(p, "at")) {
    if (required && at_end(p))
      return fail(p, "'%.*s' needs a time: add 'at <time>'", p->t[word].len,
                  p->t[word].s);
    return !required;
  }
  if (!parse_time(p, &ph->clock, 1)) return 0;
  if (parse_zone(p, &z))
    return fail(p, "a zone inside a recurring phrase is not supported: pass "
                   "the IANA zone as the tz argument");
  return 1;
}

/* every/each [qty] sec|min|hour -> interval. */
static int parse_rec_interval(parser *p, when_form *ph) {
  int save = p->pos, halves = 2, unit;
  int has_qty = parse_qty(p, &halves);
  if (!accept_from(p, unit_names, COUNT(unit_names), &unit)) {
    p->pos = save;
    return 0;
  }
  if (unit > U_HOUR) {
    if (unit == U_DAY && !has_qty) { /* "every day" is a cron form */
      p->pos = save;
      return 0;
    }
    if (unit == U_MONTH && !has_qty && tok_word(p, p->pos, "on")) {
      p->pos = save;
      return 0;
    }
    return fail(p,
                "repeating every so many %s is not supported in v1: "
                "name the time ('every monday at 9am') or use seconds, "
                "minutes or hours",
                unit == U_DAY     ? "days"
                : unit == U_MONTH ? "months"
                : unit == U_YEAR  ? "years"
                                  : "weeks");
  }
  ph->form = F_INTERVAL;
  ph->dur.ms = halves * unit_ms[unit] / 2;
  if (ph->dur.ms < 1000)
    return fail(p, "an interval must be at least 1 second");
  return 1;
}

/* weekday {("," | "and") weekday} */
static int parse_weekday_list(parser *p, when_form *ph) {
  int wd;
  if (!accept_from(p, weekday_names, COUNT(weekday_names), &wd)) return 0;
  ph->dow_mask = 1u << wd;
  for (;;) {
    int save = p->pos;
    int sep = accept_punct(p, ',');
    sep |= accept(p, "and");
    if (!sep || !accept_from(p, weekday_names, COUNT(weekday_names), &wd)) {
      p->pos = save;
      return 1;
    }
    ph->dow_mask |= 1u << wd;
  }
}

/* "on the" day_num: returns the day (1-31) or 0. */
static int parse_on_the_day(parser *p, int *dom) {
  if (!(accept(p, "on") && accept(p, "the") && parse_day_num(p, dom))) return 0;
  if (*dom < 1 || *dom > 31)
    return fail(p, "day %d is out of range 1-31", *dom);
  return 1;
}

/* The body after "every"/"each". */
static int parse_rec_body(parser *p, when_form *ph) {
  ph->form = F_CRON;
  ph->dow_mask = 0x7f;
  if (accept(p, "other"))
    return fail(p, "'every other ...' is not expressible as one cron line "
                   "(not supported in v1)");
  if (parse_rec_interval(p, ph)) return at_end(p);
  if (p->fatal) return 0;
  ph->form = F_CRON;
  if (accept(p, "day")) return parse_rec_time(p, ph, 0) && at_end(p);
  if (accept(p, "morning")) {
    ph->morning = 1;
    return parse_rec_time(p, ph, 1) && at_end(p);
  }
  if (accept(p, "weekday")) {
    ph->dow_mask = 0x3e;
    return parse_rec_time(p, ph, 0) && at_end(p);
  }
  if (accept(p, "weekend")) {
    ph->dow_mask = 0x41;
    return parse_rec_time(p, ph, 0) && at_end(p);
  }
  if (parse_weekday_list(p, ph)) return parse_rec_time(p, ph, 0) && at_end(p);
  if (accept(p, "month")) {
    if (!parse_on_the_day(p, &ph->cron_dom)) return 0;
    return parse_rec_time(p, ph, 0) && at_end(p);
  }
  return 0;
}

/* Returns 1 parsed, 0 not a recurring phrase (or fatal). */
static int parse_recurring(parser *p, when_form *ph) {
  p->pos = 0;
  memset(ph, 0, sizeof *ph);
  ph->part_hour = -1;
  ph->dow_mask = 0x7f;
  ph->form = F_CRON;
  if (accept(p, "every") || accept(p, "each")) return parse_rec_body(p, ph);
  if (accept(p, "daily")) return parse_rec_time(p, ph, 0) && at_end(p);
  if (accept(p, "weekdays")) {
    ph->dow_mask = 0x3e;
    return parse_rec_time(p, ph, 1) && at_end(p);
  }
  /* on the N(th) of every month [at time] */
  if (tok_word(p, 0, "on") && tok_word(p, 1, "the")) {
    int dom;
    if (!parse_on_the_day(p, &dom)) return 0;
    if (!(accept(p, "of") && accept(p, "every") && accept(p, "month"))) {
      p->pos = 0;
      return 0;
    }
    ph->cron_dom = dom;
    return parse_rec_time(p, ph, 0) && at_end(p);
  }
  return 0;
}

/* ---- the alternatives, in order ------------------------------------------ */

static int parse_phrase(parser *p, when_form *ph) {
  int first_is_rec = tok_word(p, 0, "every") || tok_word(p, 0, "each") ||
                     tok_word(p, 0, "daily") || tok_word(p, 0, "weekdays");
  if (parse_recurring(p, ph)) return 1;
  if (p->fatal || first_is_rec) return 0;
  memset(ph, 0, sizeof *ph);
  ph->part_hour = -1;
  p->pos = 0;
  if (accept(p, "now") && at_end(p)) {
    ph->form = F_NOW;
    return 1;
  }
  p->pos = 0;
  ph->form = F_DURATION;
  if (parse_duration(p, &ph->dur) && at_end(p)) return 1;
  if (p->fatal) return 0;
  if (parse_anchor(p, ph)) return 1;
  if (parse_part_word(p, ph)) return 1;
  memset(ph, 0, sizeof *ph);
  if (parse_general(p, ph)) return 1;
  return 0;
}

/* ---- why a phrase was not understood ------------------------------------- */

typedef struct word_reason {
  const char *word;
  const char *why;
} word_reason;

static const word_reason vague_words[] = {
    {"soon", "'soon' is vague: say when ('in 2 hours', 'tomorrow at 9am')"},
    {"later", "'later' is vague: say when ('in 2 hours', 'at 5pm')"},
    {"someday", "'someday' is vague: no time is named"},
    {"sometime", "'sometime' is vague: no time is named"},
    {"sometimes", "'sometimes' is vague: no time is named"},
    {"eventually", "'eventually' is vague: no time is named"},
    {"whenever", "'whenever' is vague: no time is named"},
    {"asap", "'asap' is vague: say when ('now', 'in 10 minutes')"},
    {"while", "'a while' is vague: give a number ('in 20 minutes')"},
    {"few", "'few' is vague: give a number ('in 3 hours')"},
    {"several", "'several' is vague: give a number"},
    {"couple", "'a couple' is vague: give a number"},
    {"some", "'some' is vague: give a number"},
    {"after", "'after ...' ties the time to an event, not to a clock: "
              "name the time instead"},
    {"before", "'before ...' ties the time to an event, not to a clock: "
               "name the time instead"},
    {"around", "'around' is vague: name the time itself"},
    {"about", "'about' is vague: name the time itself"},
    {"maybe", "'maybe' is vague: name the time itself"},
    {"twice", "repetitions per period ('twice a day') are not supported "
              "in v1: use 'every N hours' or a weekday list"},
    {"thrice", "repetitions per period are not supported in v1"},
    {"times", "repetitions per period ('3 times a day') are not supported "
              "in v1"},
    {"hourly", "'hourly' is not supported: say 'every hour'"},
    {"weekly", "'weekly' is not supported in v1: name the weekday "
               "('every monday at 9am')"},
    {"monthly", "'monthly' is not supported in v1: say 'every month on the "
                "1st at 9am'"},
    {"yearly", "yearly schedules are not supported in v1"},
    {"annually", "yearly schedules are not supported in v1"},
    {"yesterday", "'yesterday' is in the past: only future times can be "
                  "scheduled"},
    {"ago", "'... ago' is in the past: only future times can be scheduled"},
    {"previous", "'previous' points to the past: only future times can be "
                 "scheduled"},
    {"earlier", "'earlier' points to the past: only future times can be "
                "scheduled"},
};

/* "last friday", "last week" ... (but not "last day of the month"). */
static const char *past_last(const parser *p, int i) {
  int v;
  if (!tok_word(p, i, "last")) return NULL;
  if (lookup_at(p, i + 1, weekday_names, COUNT(weekday_names), &v) ||
      tok_word(p, i + 1, "week") || tok_word(p, i + 1, "month") ||
      tok_word(p, i + 1, "year") || tok_word(p, i + 1, "night") ||
      lookup_at(p, i + 1, month_names, COUNT(month_names), &v))
    return "'last ...' points to the past: only future times can be scheduled";
  return NULL;
}

static const char *classify_failure(const parser *p) {
  for (int i = 0; i < p->n; i++) {
    for (int k = 0; k < COUNT(vague_words); k++)
      if (tok_word(p, i, vague_words[k].word)) return vague_words[k].why;
    const char *why = past_last(p, i); /* not "last day of the month" */
    if (why) return why;
    if (tok_punct(p, i, '-') && tok_int(p, i + 1, 4) &&
        (i == 0 || tok_word(p, i - 1, "in")))
      return "a negative duration is in the past: only future times can be "
             "scheduled";
  }
  return NULL;
}

static void explain_failure(parser *p) {
  const char *why = classify_failure(p);
  if (why) {
    snprintf(p->reason, sizeof p->reason, "%s", why);
    return;
  }
  if (p->far >= p->n) {
    const when_tok *t = &p->t[p->n - 1];
    snprintf(p->reason, sizeof p->reason,
             "incomplete phrase: something is missing after '%.*s'",
             t->len > 40 ? 40 : t->len, t->s);
    return;
  }
  const when_tok *t = &p->t[p->far];
  snprintf(p->reason, sizeof p->reason,
           "cannot read '%.*s' (word %d): the whole phrase must be a time "
           "this parser understands",
           t->len > 40 ? 40 : t->len, t->s, p->far + 1);
}

/* ---- resolution context -------------------------------------------------- */

typedef struct when_ctx {
  const tz_zone *zone;
  int64_t now;     /* UTC ms */
  int64_t today;   /* local days since 1970-01-01 */
  int64_t now_sod; /* local ms since local midnight */
  civil_time local;
  int today_wd; /* 0 = Sunday */
  int conf;     /* hundredths */
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

static int64_t min_instant(void) {
  return civil_days_from_date(CIVIL_MIN_YEAR, 1, 2) * DAY_MS;
}
static int64_t max_instant(void) {
  return civil_days_from_date(CIVIL_MAX_YEAR + 1, 1, 1) * DAY_MS - 1;
}

enum { ADJ_NONE, ADJ_GAP, ADJ_REPEATED };

/* Wall clock (local days + ms of day) -> UTC ms: R9 in the zone, or the
** named fixed offset (R10). *adj tells what R9 had to do. */
static int64_t wall_to_utc(const when_ctx *c, int64_t days, int64_t sod,
                           const zone_spec *z, int *adj) {
  int64_t local = days * DAY_MS + sod;
  *adj = ADJ_NONE;
  if (z && z->has) return local - (int64_t)z->off_min * MIN_MS;
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

/* R2: add months to now's local calendar fields, clamping the day. */
static int add_months(when_ctx *c, int months, int64_t *out) {
  civil_time t = c->local;
  int64_t total = (int64_t)t.year * 12 + (t.month - 1) + months;
  if (total / 12 > CIVIL_MAX_YEAR)
    return reject(c, "too far in the future: after 9999-12-31");
  t.year = (int)(total / 12);
  t.month = (int)(total % 12) + 1;
  int dim = civil_days_in_month(t.year, t.month);
  if (t.day > dim) {
    t.day = dim;
    flag(c, "month_clamped");
  }
  int64_t local = civil_to_ms(&t);
  int64_t days = civil_floor_div(local, DAY_MS);
  int adj;
  *out = wall_to_utc(c, days, local - days * DAY_MS, NULL, &adj);
  note_adjust(c, adj);
  return 0;
}

/* ---- resolving once forms ------------------------------------------------ */

static int resolve_duration(when_ctx *c, const duration *d) {
  int64_t due = c->now;
  cap(c, d->marker ? 95 : 85);
  if (d->calendar) cap(c, 90);
  if (d->months > 0 && add_months(c, d->months, &due) != 0) return -1;
  return finish_once(c, due + d->ms);
}

static int resolve_end_of(when_ctx *c, int unit) {
  int64_t day = c->today;
  int y = c->local.year, m = c->local.month;
  if (unit == U_WEEK) day = c->today + (7 - c->today_wd) % 7; /* Sunday */
  if (unit == U_MONTH)
    day = civil_days_from_date(y, m, civil_days_in_month(y, m));
  if (unit == U_YEAR) day = civil_days_from_date(y, 12, 31);
  int adj;
  int64_t due = wall_to_utc(c, day, 23 * HOUR_MS + 59 * MIN_MS, NULL, &adj);
  cap(c, 70);
  implied(c, "time");
  note_adjust(c, adj);
  return finish_once(c, due);
}

static int resolve_next_unit(when_ctx *c, int unit) {
  int64_t due = c->now;
  cap(c, 70);
  if (unit == U_WEEK) return finish_once(c, c->now + 7 * DAY_MS);
  if (add_months(c, unit == U_YEAR ? 12 : 1, &due) != 0) return -1;
  return finish_once(c, due);
}

static int resolve_part_today(when_ctx *c, int hour) {
  int adj;
  int64_t due = wall_to_utc(c, c->today, hour * HOUR_MS, NULL, &adj);
  cap(c, 70);
  implied(c, "time");
  note_adjust(c, adj);
  return finish_once(c, due);
}

/* ms of the day for a general phrase: the clock time, the part of the
** day (R8), or 00:00; notes what was implied. */
static int64_t general_sod(when_ctx *c, const when_form *ph) {
  const clock_spec *k = &ph->clock;
  if (k->has) return ((int64_t)k->h * 3600 + k->m * 60 + k->s) * 1000;
  implied(c, "time");
  if (ph->part_hour >= 0) {
    cap(c, 70);
    return ph->part_hour * HOUR_MS;
  }
  cap(c, 80); /* R8: 00:00 */
  return 0;
}

/* First of days d0, d0 + step, ... (up to two tries) at sod >= now. */
static int first_ahead(when_ctx *c, int64_t d0, int64_t step, int64_t sod,
                       const zone_spec *z, int64_t *due) {
  int adj;
  *due = wall_to_utc(c, d0, sod, z, &adj);
  if (*due < c->now) {
    *due = wall_to_utc(c, d0 + step, sod, z, &adj);
    flag(c, "rolled_forward");
  }
  note_adjust(c, adj);
  return 0;
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
                    month_full[d->month], d->dom, y);
    }
    *due =
        wall_to_utc(c, civil_days_from_date(y, d->month, d->dom), sod, z, &adj);
    if (*due >= c->now) {
      if (k) flag(c, "rolled_forward");
      note_adjust(c, adj);
      return 0;
    }
  }
  return reject(c, "%s %d is not ahead of now", month_full[d->month], d->dom);
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
      return first_ahead(c, c->today + k, 7, sod, z, due);
    case D_NEXT_WEEKDAY: {
      int64_t day = next_week_day(c, d->wd, &amb);
      if (amb) {
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
      return first_ahead(c, c->today, 1, sod, z, due);
  }
}

/* Confidence of a general phrase before the caps of its parts (§5). */
static void general_confidence(when_ctx *c, const when_form *ph) {
  const day_spec *d = &ph->day;
  int no_year = d->kind == D_DOM || (d->kind == D_DATE && !d->year);
  if (ph->clock.has) {
    if (d->kind == D_NONE) cap(c, 90);
    else cap(c, no_year ? 85 : 95);
    if (ph->clock.kind == CLK_BARE) {
      cap(c, 60);
      implied(c, "meridiem");
    }
    if (ph->clock.kind == CLK_MIDNIGHT && d->kind != D_NONE) {
      cap(c, 60);
      flag(c, "midnight_start_of_day");
    }
  }
  if (ph->zone.has) {
    cap(c, 90);
    flag(c, "zone_named");
  }
}

static int resolve_general(when_ctx *c, const when_form *ph) {
  int64_t due;
  if (ph->day.kind == D_REL && !ph->clock.has && ph->part_hour < 0) {
    /* R3: bare today = now; bare tomorrow = same wall-clock time */
    cap(c, 80);
    implied(c, "time");
    if (ph->day.rel == 0) return finish_once(c, c->now);
    int adj;
    due = wall_to_utc(c, c->today + ph->day.rel, c->now_sod, NULL, &adj);
    note_adjust(c, adj);
    return finish_once(c, due);
  }
  general_confidence(c, ph);
  int64_t sod = general_sod(c, ph);
  if (resolve_day(c, ph, sod, &due) != 0) return -1;
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

static void cron_text(const when_form *ph, char *buf, size_t n) {
  char dow[32], dom[8];
  dow_field(ph->dow_mask, dow, sizeof dow);
  if (ph->cron_dom) snprintf(dom, sizeof dom, "%d", ph->cron_dom);
  else snprintf(dom, sizeof dom, "*");
  const clock_spec *k = &ph->clock;
  if (k->s) snprintf(buf, n, "%d %d %d %s * %s", k->s, k->m, k->h, dom, dow);
  else snprintf(buf, n, "%d %d %s * %s", k->m, k->h, dom, dow);
}

/* The first firing's local time differs from the asked one: a DST gap
** moved it; or it falls in a repeated hour (first pass taken). */
static void note_cron_dst(when_ctx *c, const clock_spec *k, int64_t due) {
  int64_t s = civil_floor_div(due, 1000);
  int64_t local = s + tz_offset_at(c->zone, s);
  int64_t sod = local - civil_floor_div(local, 86400) * 86400;
  tz_local r;
  if (sod != (int64_t)k->h * 3600 + k->m * 60 + k->s) {
    note_adjust(c, ADJ_GAP);
    return;
  }
  tz_local_lookup(c->zone, local, &r);
  if (r.count == 2) note_adjust(c, ADJ_REPEATED);
}

static int resolve_cron(when_ctx *c, const when_form *ph) {
  cron_expr e;
  char err[CRON_ERR_MAX];
  int64_t due;
  if (ph->morning && ph->clock.h >= 12) /* "every morning" needs its time */
    return reject(c, "%02d:%02d is not in the morning", ph->clock.h,
                  ph->clock.m);
  if (ph->clock.has) {
    cap(c, 95);
    if (ph->clock.kind == CLK_BARE) {
      cap(c, 60);
      implied(c, "meridiem");
    }
  } else {
    cap(c, 80);
    implied(c, "time");
  }
  if (ph->cron_dom > 28) flag(c, "short_months_skipped");
  cron_text(ph, c->out->cron, sizeof c->out->cron);
  if (cron_parse(c->out->cron, &e, err, sizeof err) != 0)
    return reject(c, "internal: bad cron '%s': %s", c->out->cron, err);
  if (!cron_next(&e, c->zone, c->now, &due))
    return reject(c, "the schedule '%s' never fires", c->out->cron);
  note_cron_dst(c, &ph->clock, due);
  c->out->kind = WHEN_CRON;
  c->out->due_at = due;
  return 0;
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

static int resolve(when_ctx *c, const when_form *ph) {
  switch (ph->form) {
    case F_NOW: return finish_once(c, c->now);
    case F_DURATION: return resolve_duration(c, &ph->dur);
    case F_END_OF: return resolve_end_of(c, ph->unit);
    case F_NEXT_UNIT: return resolve_next_unit(c, ph->unit);
    case F_PART_TODAY: return resolve_part_today(c, ph->part_hour);
    case F_INTERVAL: return resolve_interval(c, ph);
    case F_CRON: return resolve_cron(c, ph);
    default: return resolve_general(c, ph);
  }
}

/* ---- ISO-8601 instants --------------------------------------------------- */

/* "2026-01-15", "2026-01-15 09:00", "2025-12-31T23:00:00Z": whole input. */
static int looks_iso(const char *s) {
  for (int i = 0; i < 4; i++)
    if (!ascii_is_digit(s[i])) return 0;
  return s[4] == '-';
}

static int resolve_iso(when_ctx *c, const char *s, size_t n) {
  civil_time t;
  int has_off;
  int32_t off;
  char err[160];
  if (civil_parse_iso(s, n, &t, &has_off, &off, err, sizeof err) != 0)
    return reject(c, "cannot read the ISO-8601 instant: %s", err);
  int64_t local = civil_to_ms(&t);
  int64_t due;
  if (has_off) {
    due = local - (int64_t)off * 1000;
    cap(c, 100);
  } else {
    int64_t days = civil_floor_div(local, DAY_MS);
    int adj;
    due = wall_to_utc(c, days, local - days * DAY_MS, NULL, &adj);
    note_adjust(c, adj);
    if (n > 10) {
      cap(c, 95);
    } else {
      cap(c, 80);
      implied(c, "time");
    }
  }
  return finish_once(c, due);
}

/* ---- entry point --------------------------------------------------------- */

const char *when_kind_name(when_kind k) {
  switch (k) {
    case WHEN_ONCE: return "once";
    case WHEN_INTERVAL: return "interval";
    case WHEN_CRON: return "cron";
    default: return NULL;
  }
}

static void ctx_init(when_ctx *c, int64_t now, const tz_zone *zone,
                     when_result *out) {
  memset(c, 0, sizeof *c);
  c->zone = zone;
  c->now = now;
  c->out = out;
  c->conf = 100;
  int32_t off = tz_offset_at(zone, civil_floor_div(now, 1000));
  int64_t local = now + (int64_t)off * 1000;
  c->today = civil_floor_div(local, DAY_MS);
  c->now_sod = local - c->today * DAY_MS;
  c->today_wd = civil_weekday(c->today);
  civil_from_ms(local, &c->local);
}

/* Rejected: wipe what resolution may have filled in. */
static int rejected(when_result *out) {
  out->kind = WHEN_NONE;
  out->due_at = 0;
  out->interval_ms = 0;
  out->cron[0] = 0;
  out->confidence = 0;
  out->n_implied = out->n_flags = 0;
  out->matched[0] = 0;
  if (!out->reason[0])
    snprintf(out->reason, sizeof out->reason, "not understood");
  return -1;
}

/* Trimmed bounds of the phrase; -1 when too long. */
static int trim(const char *phrase, const char **s, size_t *n) {
  size_t len = 0;
  while (len <= WHEN_PHRASE_MAX && phrase[len]) len++;
  if (len > WHEN_PHRASE_MAX) return -1;
  while (len && is_blank(phrase[len - 1])) len--;
  while (len && is_blank(*phrase)) phrase++, len--;
  *s = phrase;
  *n = len;
  return 0;
}

static int rejected_as(when_result *out, parser *p) {
  if (!p->fatal) explain_failure(p);
  snprintf(out->reason, sizeof out->reason, "%s", p->reason);
  return rejected(out);
}

/* when_parse, also telling the finder what was read: the form (-1 for
** ISO-8601) and the tokens, so that it can refuse readings a message
** does not support, and whether a refused phrase was understood (an
** invalid field, a time in the past: *refused = 1). */
static int read_phrase(const char *phrase, int64_t now_ms, const tz_zone *zone,
                       when_result *out, parser *p, when_form *ph,
                       int *refused) {
  when_ctx c;
  const char *s;
  size_t n;
  memset(out, 0, sizeof *out);
  memset(p, 0, sizeof *p);
  ph->form = -1;
  *refused = 0;
  if (!zone) zone = tz_utc();
  snprintf(out->tz, sizeof out->tz, "%s", tz_name(zone));
  if (!phrase) phrase = "";
  if (now_ms < min_instant() || now_ms > max_instant()) {
    snprintf(out->reason, sizeof out->reason,
             "the reference time is outside years 0001-9999");
    return rejected(out);
  }
  ctx_init(&c, now_ms, zone, out);
  if (trim(phrase, &s, &n) != 0) {
    snprintf(out->reason, sizeof out->reason, "phrase is longer than %d bytes",
             WHEN_PHRASE_MAX);
    return rejected(out);
  }
  if (n >= 5 && looks_iso(s)) {
    if (resolve_iso(&c, s, n) != 0) return rejected(out);
    memcpy(out->matched, s, n);
    out->matched[n] = 0;
  } else {
    if (tokenize(p, phrase) != 0) return rejected_as(out, p);
    if (!parse_phrase(p, ph)) {
      *refused = p->fatal; /* an invalid field: the phrase was read */
      return rejected_as(out, p);
    }
    *refused = 1;
    if (resolve(&c, ph) != 0) return rejected(out);
    snprintf(out->matched, sizeof out->matched, "%s", p->norm);
  }
  out->confidence = c.conf / 100.0;
  return 0;
}

int when_parse(const char *phrase, int64_t now_ms, const tz_zone *zone,
               when_result *out) {
  parser p;
  when_form ph;
  int refused;
  return read_phrase(phrase, now_ms, zone, out, &p, &ph, &refused);
}

/* ---- finding a phrase in a message --------------------------------------- */

/* Bytes of words: ASCII letters and digits, and non-ASCII characters (so
** a word with accents is never cut) except the punctuation blocks U+00A0..
** U+00BF, U+2000..U+206F and U+3000..U+303F ("«", "—", smart quotes). */
static size_t sep_len(const char *t, size_t len, size_t i) {
  unsigned char a = (unsigned char)t[i];
  unsigned char b = i + 1 < len ? (unsigned char)t[i + 1] : 0;
  if (a < 0x80)
    return ascii_is_digit((char)a) || ascii_is_alpha((char)a) ? 0 : 1;
  if (a == 0xc2 && b >= 0xa0 && b <= 0xbf) return 2;
  if (i + 2 < len &&
      ((a == 0xe2 && (b == 0x80 || b == 0x81)) || (a == 0xe3 && b == 0x80)))
    return 3;
  return 0;
}

/* A byte of a word, seen alone (neighbours of a joiner, guard words). */
static int word_byte(unsigned char ch) {
  return ch >= 0x80 || ascii_is_digit((char)ch) || ascii_is_alpha((char)ch);
}

/* Does a joiner at text[i] glue the word bytes around it into one chunk
** ("9:30", "12/25", "2.5", "a.m", "tomorrow's", "9am-5pm")? */
static int joins(const char *t, size_t len, size_t i) {
  if (i == 0 || i + 1 >= len) return 0;
  unsigned char a = (unsigned char)t[i - 1], b = (unsigned char)t[i + 1];
  if (!word_byte(a) || !word_byte(b)) return 0;
  switch (t[i]) {
    case '/':
    case '-':
    case '+':
    case '\'': return 1;
    case ':': /* "9:30", not "reminder:tomorrow" */
      return ascii_is_digit((char)a) && ascii_is_digit((char)b);
    case '.': /* decimals and versions; initialisms "a.m", "e.g" */
      return (ascii_is_digit((char)a) && ascii_is_digit((char)b)) ||
             (ascii_is_alpha((char)a) &&
              (i < 2 || !word_byte((unsigned char)t[i - 2])));
    default: return 0;
  }
}

/* End of the chunk that starts at i; a final "." of an initialism
** ("p.m.") belongs to it. */
static size_t chunk_end(const char *t, size_t len, size_t i) {
  while (i < len && (sep_len(t, len, i) == 0 || joins(t, len, i))) i++;
  if (i >= 2 && i < len && t[i] == '.' && t[i - 2] == '.' &&
      ascii_is_alpha(t[i - 1]))
    i++;
  return i;
}

/* Start of the next chunk at or after i, or len. */
static size_t chunk_next(const char *t, size_t len, size_t i) {
  size_t n;
  while (i < len && (n = sep_len(t, len, i)) > 0) i += n;
  return i;
}

/* Between two words of one phrase: only what the parser reads. */
static int gap_ok(const char *t, size_t a, size_t b) {
  for (size_t i = a; i < b; i++)
    if (!is_blank(t[i]) && (!t[i] || !strchr(",.+-", t[i]))) return 0;
  return 1;
}

/* Words that tie a phrase next to them to something else: "after the
** meeting tomorrow", "last friday", "every other friday", "2 hours ago". */
static const char *const guard_before[] = {
    "after", "before",  "around",   "about", "approximately",
    "maybe", "perhaps", "until",    "till",  "since",
    "last",  "past",    "previous", "every", "each",
    "other", "not",     "times",    "twice", "thrice"};
static const char *const guard_after[] = {"ago", "before", "after", "earlier",
                                          "past"};

static int word_in(const char *w, size_t n, const char *const *list,
                   size_t count) {
  for (size_t k = 0; k < count; k++) {
    size_t m = strlen(list[k]);
    if (m != n) continue;
    size_t i = 0;
    while (i < n && lower(w[i]) == list[k][i]) i++;
    if (i == n) return 1;
  }
  return 0;
}

static const char *const guard_event[] = {"after", "before", "until", "till"};

/* The word right before byte a (blanks between) is a guard, or one of
** "after", "before", "until", "till" is among the 3 words before it
** ("after the meeting tomorrow")? */
static int guarded_before(const char *t, size_t a) {
  size_t e = a;
  for (int k = 0; k < 3; k++) {
    while (e > 0 && is_blank(t[e - 1])) e--;
    size_t b = e;
    while (b > 0 && ascii_is_alpha(t[b - 1])) b--;
    if (b == e || (b > 0 && word_byte((unsigned char)t[b - 1]))) return 0;
    if (k == 0 && word_in(t + b, e - b, guard_before, COUNT(guard_before)))
      return 1;
    if (word_in(t + b, e - b, guard_event, COUNT(guard_event))) return 1;
    e = b;
  }
  return 0;
}

/* A word follows at e (blanks between) that is not a connective? */
static int word_follows(const char *t, size_t len, size_t e) {
  static const char *const conn[] = {"to", "and", "then", "please", "or"};
  size_t b = e;
  while (b < len && is_blank(t[b])) b++;
  size_t x = b;
  while (x < len && sep_len(t, len, x) == 0) x++;
  return x > b && !word_in(t + b, x - b, conn, COUNT(conn));
}

static int guarded_after(const char *t, size_t len, size_t e) {
  size_t b = e;
  while (b < len && is_blank(t[b])) b++;
  size_t x = b;
  while (x < len && ascii_is_alpha(t[x])) x++;
  if (x == b || (x < len && word_byte((unsigned char)t[x]))) return 0;
  return word_in(t + b, x - b, guard_after, COUNT(guard_after));
}

/* "on the 3rd" alone: not when a word follows ("the 3rd floor"). */
static int day_of_month_alone(const when_form *ph) {
  return ph->form == F_GENERAL && ph->day.kind == D_DOM && !ph->clock.has &&
         ph->part_hour < 0;
}

/* Readings the grammar accepts alone but a message does not support:
** "walk 5 m", "i sat down", "eat 1/2", "the 3rd floor". */
static int weak_in_message(const parser *p, const when_form *ph) {
  int v;
  if (ph->form == F_DURATION && !ph->dur.marker) return 1;
  if (p->n == 1 && p->t[0].len <= 4 &&
      lookup_at(p, 0, weekday_names, COUNT(weekday_names), &v))
    return 1;
  if (p->n == 3 && tok_int(p, 0, 2) && tok_punct(p, 1, '/') && tok_int(p, 2, 2))
    return 1;
  if (day_of_month_alone(ph) && tok_word(p, 0, "the")) return 1;
  return 0;
}

static size_t code_points(const char *t, size_t n) {
  size_t c = 0;
  for (size_t i = 0; i < n; i++)
    if (((unsigned char)t[i] & 0xc0) != 0x80) c++;
  return c;
}

/* Read text[a..b) as a phrase: 0 when it is a phrase the message holds,
** 1 when it was understood but refused (past, invalid field), else -1. */
static int try_span(const char *t, size_t len, size_t a, size_t b, int64_t now,
                    const tz_zone *zone, when_result *r) {
  char buf[WHEN_PHRASE_MAX + 1];
  parser p;
  when_form ph;
  int refused;
  memcpy(buf, t + a, b - a);
  buf[b - a] = 0;
  if (read_phrase(buf, now, zone, r, &p, &ph, &refused) != 0)
    return refused ? 1 : -1;
  if (ph.form >= 0 && weak_in_message(&p, &ph)) return -1;
  if (ph.form >= 0 && day_of_month_alone(&ph) && word_follows(t, len, b))
    return -1;
  return 0;
}

int when_find(const char *text, size_t len, int64_t now_ms, const tz_zone *zone,
              when_found *out) {
  size_t ends[WHEN_FIND_WORDS_MAX];
  when_result r;
  int found = 0;
  memset(out, 0, sizeof *out);
  if (!text) text = "", len = 0;
  if (len > WHEN_FIND_TEXT_MAX) {
    when_parse("", now_ms, zone, &out->r);
    snprintf(out->r.reason, sizeof out->r.reason,
             "text is longer than %d bytes", WHEN_FIND_TEXT_MAX);
    return -1;
  }
  size_t blocked = 0; /* no phrase starts before: part of a refused one */
  for (size_t a = chunk_next(text, len, 0); a < len;
       a = chunk_next(text, len, chunk_end(text, len, a))) {
    size_t s = a; /* "+2h": the sign belongs to the phrase */
    if (s > 0 && text[s - 1] == '+' &&
        (s == 1 || !word_byte((unsigned char)text[s - 2])))
      s--;
    if (s < blocked) continue;
    int guarded = guarded_before(text, s), n = 0;
    for (size_t e = chunk_end(text, len, a);;) {
      if (e - s > WHEN_PHRASE_MAX) break;
      ends[n++] = e;
      size_t next = chunk_next(text, len, e);
      if (n == WHEN_FIND_WORDS_MAX || next >= len || !gap_ok(text, e, next))
        break;
      e = chunk_end(text, len, next);
    }
    while (n-- > 0) {
      size_t e = ends[n];
      int rc = try_span(text, len, s, e, now_ms, zone, &r);
      if (rc < 0) continue;
      if (rc > 0 || guarded || guarded_after(text, len, e)) {
        blocked = e; /* neither it nor a part of it */
        break;
      }
      if (!found || e - s > out->end - out->start ||
          (e - s == out->end - out->start &&
           r.confidence > out->r.confidence)) {
        out->r = r;
        out->start = s;
        out->end = e;
        found = 1;
      }
      break;
    }
  }
  if (!found) {
    when_parse("", now_ms, zone, &out->r);
    snprintf(out->r.reason, sizeof out->r.reason,
             "no time phrase found in the text");
    return -1;
  }
  out->cp_start = code_points(text, out->start);
  out->cp_end =
      out->cp_start + code_points(text + out->start, out->end - out->start);
  return 0;
}

static int cut_char(char ch) {
  return is_blank(ch) || (ch && strchr(",;:", ch));
}

size_t when_find_rest(const char *text, size_t len, size_t start, size_t end,
                      char *buf) {
  size_t a = start, b = end, o = 0;
  while (a > 0 && cut_char(text[a - 1])) a--;
  while (b < len && cut_char(text[b])) b++;
  /* "(tomorrow at 9am)", "\"at noon\"": the emptied pair goes too */
  static const char *const pairs[] = {"()", "[]", "{}", "\"\"", "''"};
  for (int k = 0; k < COUNT(pairs); k++) {
    if (start > 0 && end < len && text[start - 1] == pairs[k][0] &&
        text[end] == pairs[k][1]) {
      a = start - 1, b = end + 1;
      while (a > 0 && cut_char(text[a - 1])) a--;
      while (b < len && cut_char(text[b])) b++;
      break;
    }
  }
  size_t lo = 0, hi = len;
  while (lo < a && cut_char(text[lo])) lo++;
  while (hi > b && is_blank(text[hi - 1])) hi--;
  memcpy(buf, text + lo, a - lo);
  o = a - lo;
  if (o > 0 && b < hi && text[b] != '.' && text[b] != '!' && text[b] != '?')
    buf[o++] = ' ';
  memcpy(buf + o, text + b, hi - b);
  o += hi - b;
  while (o > 0 && cut_char(buf[o - 1])) o--;
  size_t w = 0; /* no word left ("(tomorrow at 9am)."): empty */
  while (w < o && sep_len(buf, o, w) > 0) w += sep_len(buf, o, w);
  if (w >= o) o = 0;
  buf[o] = 0;
  return o;
}
