/*
** when_duration.c -- amounts of time in a phrase (docs/when.md "Durations"):
** quantities with their fractions, and durations (the terms a day count
** of when_once.c is made of too).
**
**   duration := ["in" ["like"] | "+" | "after"] term {[","] ["and"] term}
**               ["'" "time" (after "in") | "from now" | "later"]
**   term     := qty unit ["and a half" | "and a quarter" | "and three
**               quarters"] | qty "and a half" unit | "half an" unit
**               | "a quarter of an" unit | "a quarter" unit | "1h30"
**   qty      := INT | DEC ("1.5", "4½") | number words ("twenty-five")
**               | "a" | "an" | "half a" | "a half" | "a couple (of)"
**
** Seconds to fortnights are exact elapsed time (R1); months and years move
** the calendar (R2) and may not be cut in fractions of a month. With a
** timer's hint ("set a timer for 20 minutes") a duration needs no marker
** and "for" is one.
*/
#include <string.h>

#include "time/when_int.h"

/* ---- quantities and durations (R1, R2) ------------------------------------ */

/* A number word, or two ("twenty five", "forty-five"). 0 when none. */
static int word_number(when_parser *p, int *v) {
  int a, b;
  if (!when_lookup(p, p->pos, when_numbers, when_n_numbers, &a)) return 0;
  when_skip(p, 1);
  if (a >= 20 && a % 10 == 0) {
    int save = p->pos;
    when_accept_punct(p, '-');
    if (when_lookup(p, p->pos, when_numbers, when_n_numbers, &b) && b < 10 &&
        !when_tok_word(p, p->pos, "a") && !when_tok_word(p, p->pos, "an")) {
      when_skip(p, 1);
      a += b;
    } else {
      p->pos = save;
    }
  }
  *v = a;
  return 1;
}

int when_unit_hyphen_at(const when_parser *p, int i) {
  int v;
  return i > 0 && i + 1 < p->n && when_tok_punct(p, i, '-') && p->t[i].glued &&
         p->t[i + 1].glued &&
         when_lookup(p, i + 1, when_units, when_n_units, &v);
}

void when_skip_unit_hyphen(when_parser *p) {
  if (when_unit_hyphen_at(p, p->pos)) when_skip(p, 1);
}

/* A unit at token i, or after a '-' glued between ("a half-hour"). */
static int unit_at(const when_parser *p, int i) {
  int v;
  return when_lookup(p, i + when_unit_hyphen_at(p, i), when_units, when_n_units,
                     &v);
}

/* qty as num/den: "2" 2/1, "1.5" 15/10, "half a" 1/2, "a quarter of a(n)"
** 1/4, "three quarters of a(n)" 3/4, "two and a half" 5/2. */
int when_parse_qty(when_parser *p, int64_t *num, int *den) {
  int i = p->pos, v;
  *den = 1;
  if (i < p->n && p->t[i].kind == T_DEC) {
    *den = p->t[i].ndig == 1 ? 10 : 100;
    *num = (int64_t)p->t[i].value * *den + p->t[i].frac;
    when_skip(p, 1);
    return 1;
  }
  if (when_tok_word(p, i, "half") &&
      (when_tok_word(p, i + 1, "a") || when_tok_word(p, i + 1, "an"))) {
    *num = 1, *den = 2;
    when_skip(p, 2);
    return 1;
  }
  if (when_tok_word(p, i, "a") && when_tok_word(p, i + 1, "half") &&
      unit_at(p, i + 2)) { /* a half hour */
    *num = 1, *den = 2;
    when_skip(p, 2);
    return 1;
  }
  if (when_tok_word(p, i, "half")) { /* "every half hour" */
    *num = 1, *den = 2;
    when_skip(p, 1);
    return 1;
  }
  if ((when_tok_word(p, i, "a") && when_tok_word(p, i + 1, "quarter") &&
       unit_at(p, i + 2)) ||
      (when_tok_word(p, i, "quarter") && unit_at(p, i + 1))) {
    *num = 1, *den = 4; /* "a quarter hour" */
    when_skip(p, when_tok_word(p, i, "a") ? 2 : 1);
    return 1;
  }
  int k = i + when_tok_word(p, i, "a"); /* "(a) couple (of) hours": 2 */
  if (when_tok_word(p, k, "couple")) {
    k += 1 + when_tok_word(p, k + 1, "of");
    if (!when_lookup(p, k, when_units, when_n_units, &v)) return 0;
    *num = 2;
    when_skip(p, k - i);
    return 1;
  }
  int q = 0;
  if ((when_tok_word(p, i, "a") && when_tok_word(p, i + 1, "quarter")) ||
      (when_tok_word(p, i, "one") && when_tok_word(p, i + 1, "quarter")))
    q = 1;
  else if (when_tok_word(p, i, "three") && when_tok_word(p, i + 1, "quarters"))
    q = 3;
  else if (when_tok_word(p, i, "quarter")) q = -1;
  if (q) {
    k = q > 0 ? i + 2 : i + 1;
    if (when_tok_word(p, k, "of") &&
        (when_tok_word(p, k + 1, "an") || when_tok_word(p, k + 1, "a"))) {
      *num = q > 0 ? q : 1, *den = 4;
      when_skip(p, k + 2 - i);
      return 1;
    }
    if (q < 0) return 0;
  }
  if (when_tok_int(p, i, 4)) {
    *num = p->t[i].value;
    when_skip(p, 1);
  } else if (word_number(p, &v)) {
    *num = v;
  } else {
    return 0;
  }
  /* "two and a half (hours)" */
  if (when_tok_word(p, p->pos, "and") && when_tok_word(p, p->pos + 1, "a") &&
      when_tok_word(p, p->pos + 2, "half") &&
      when_lookup(p, p->pos + 3, when_units, when_n_units, &v)) {
    *num = *num * 2 + 1, *den = 2;
    when_skip(p, 3);
  }
  return 1;
}

static int add_term(when_parser *p, duration *d, int64_t num, int den,
                    int unit) {
  if (d->seen & (1u << unit))
    return when_fail(p, "the same unit is given twice in one duration");
  d->seen |= 1u << unit;
  if (unit == U_MONTH || unit == U_YEAR) {
    int64_t m = num * (unit == U_YEAR ? 12 : 1);
    if (m % den)
      return when_fail(p, "%s a month is not a whole number of months",
                       den == 2 ? "half" : "a fraction of");
    d->calendar = 1;
    d->months += (int)(m / den);
    d->whole_days = 0;
    return 1;
  }
  int64_t ms = num * when_unit_ms[unit];
  if (ms % den)
    return when_fail(p, "the duration is not a whole number of "
                        "milliseconds");
  d->ms += ms / den;
  if (unit >= U_DAY && unit <= U_FORTNIGHT && (d->ms % WHEN_DAY_MS) == 0 &&
      d->whole_days) {
    d->days = (int)(d->ms / WHEN_DAY_MS);
  } else {
    d->whole_days = 0;
  }
  return 1;
}

/* "and a half", "and a quarter", "and three quarters" after a term. */
static int term_fraction(when_parser *p, int *quarters) {
  int i = p->pos;
  if (!when_tok_word(p, i, "and")) return 0;
  if (when_tok_word(p, i + 1, "a") && when_tok_word(p, i + 2, "half"))
    *quarters = 2;
  else if (when_tok_word(p, i + 1, "a") && when_tok_word(p, i + 2, "quarter"))
    *quarters = 1;
  else if (when_tok_word(p, i + 1, "three") &&
           when_tok_word(p, i + 2, "quarters"))
    *quarters = 3;
  else return 0;
  when_skip(p, 3);
  return 1;
}

static int parse_term(when_parser *p, duration *d) {
  int save = p->pos, den, unit, quarters;
  int64_t num;
  if (!when_parse_qty(p, &num, &den)) return 0;
  when_skip_unit_hyphen(p); /* "20-minute" */
  if (!when_accept_from(p, when_units, when_n_units, &unit)) {
    p->pos = save;
    return 0;
  }
  if (term_fraction(p, &quarters)) { /* "an hour and a half" */
    if (den != 1) return when_fail(p, "cannot add a fraction to a fraction");
    num = num * 4 + quarters, den = 4;
  }
  if (!add_term(p, d, num, den, unit)) return 0;
  /* "1h30": minutes glued after hours */
  if (unit == U_HOUR && p->pos < p->n && p->t[p->pos].glued &&
      when_tok_int(p, p->pos, 2) && p->t[p->pos - 1].glued &&
      !when_lookup(p, p->pos + 1, when_units, when_n_units, &unit)) {
    if (p->t[p->pos].value > 59)
      return when_fail(p, "minute %d is out of range 0-59", p->t[p->pos].value);
    if (!add_term(p, d, p->t[p->pos].value, 1, U_MIN)) return 0;
    when_skip(p, 1);
  }
  return 1;
}

/* The terms of a duration, without its markers. */
int when_parse_terms(when_parser *p, duration *d) {
  d->whole_days = 1;
  if (!parse_term(p, d)) return 0;
  for (;;) {
    int save = p->pos;
    when_accept_punct(p, ',');
    when_accept(p, "and");
    if (!parse_term(p, d)) {
      p->pos = save;
      break;
    }
  }
  return !p->fatal;
}

/* "in 3 days' time", "in an hour's time": after "in", a "time" that
** only closes the phrase. */
static void accept_time_word(when_parser *p) {
  int save = p->pos;
  when_accept_punct(p, '\'');
  if (!when_accept(p, "time")) p->pos = save;
}

int when_parse_duration(when_parser *p, duration *d) {
  memset(d, 0, sizeof *d);
  int in = when_accept(p, "in");
  if (in || when_accept_punct(p, '+')) {
    d->marker = 1;
    when_accept(p, "like");             /* "in like 20 min": a filler */
  } else if (when_accept(p, "after")) { /* "after 2 hours": from now */
    d->marker = 1, d->later = 1;
  } else if (p->hints.timer && when_accept(p, "for")) {
    d->marker = 1;
  }
  int first = p->pos;
  if (!when_parse_terms(p, d)) return 0;
  int one_term = p->pos == first + 2;
  if (in) accept_time_word(p);
  if (when_accept(p, "from")) {
    if (!when_accept(p, "now")) return 0;
    d->marker = 1;
  } else if (when_accept(p, "later")) {
    d->marker = 1, d->later = 1;
  }
  if (p->hints.timer) d->marker = 1;
  /* "1700 hours" alone is 17:00, not 70 days (when_grammar.c) */
  return d->marker || !one_term || !when_military_time_at(p, first);
}
