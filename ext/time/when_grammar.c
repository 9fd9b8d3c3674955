/*
** when_grammar.c -- the one-time forms of a time phrase (docs/when.md "One-
** time phrases"): tokens (when_lex.c) -> the general when_form (a day, a
** part of the day, a clock time, a zone), by recursive descent. An
** alternative is accepted only when it reads every token. Which one-time
** form a phrase is (a duration, a day count, ...) is when_once.c's.
**
**   general  := one to four of: day, part of day, clock [zone], each once,
**               in any order ("tomorrow evening at 7:15", "at 10 tonight",
**               "7:15 tomorrow evening", "at 5 in the afternoon tomorrow")
**   clock    := H:MM[:SS] [ampm] | H[.MM] ampm | H o'clock | noon | midnight
**               | half past H | quarter past/to H | N past H | "at" H
**               | "at" HHMM | "from" clock "to" clock (a range: its start)
**   part     := tonight | this part | in the part | at night | at lunch
**               | part (right after a day: "friday evening")
**   day      := today | tomorrow | [the] day after tomorrow | [on] [this |
**               next | coming] weekday [next week] | [on] date | holiday
**               | weekday [","] date (the weekday is checked)
**
** Invalid fields (hour 25, February 30, 13pm) stop the parse at once with a
** reason (when_fail); otherwise the reason is worked out from how far the
** parse got (when_parse.c).
*/
#include <string.h>

#include "time/when_int.h"

void when_form_init(when_form *ph) {
  memset(ph, 0, sizeof *ph);
  ph->part = P_NONE;
  ph->day.wd_check = -1;
  ph->dow_mask = 0x7f;
}

/* ---- clock times (R7, R12) ----------------------------------------------- */

static int parse_ampm(when_parser *p, int i, int *ampm) {
  if (when_tok_word(p, i, "am")) *ampm = 1;
  else if (when_tok_word(p, i, "pm")) *ampm = 2;
  else return 0;
  return 1;
}

/* Two-digit field after ':' at token i (minutes or seconds). */
static int clock_field(when_parser *p, int i, const char *what, int *v) {
  if (!(i < p->n && p->t[i].kind == T_INT && p->t[i].ndig == 2))
    return when_fail(p, "%s after ':' must have two digits", what);
  *v = p->t[i].value;
  if (*v > 59) return when_fail(p, "%s %d is out of range 0-59", what, *v);
  return 1;
}

static int check_hour(when_parser *p, const clock_spec *c) {
  if (c->ampm && (c->h < 1 || c->h > 12))
    return when_fail(p, "hour %d is out of range 1-12 with am/pm", c->h);
  if (!c->ampm && c->h > 23)
    return when_fail(p, "hour %d is out of range 0-23", c->h);
  return 1;
}

/* An hour 1-12 said as a number or a word ("nine"); not "a"/"an". */
static int hour_number(when_parser *p, int i, int *h) {
  int v;
  if (when_tok_int(p, i, 2) && p->t[i].value >= 1 && p->t[i].value <= 12) {
    *h = p->t[i].value;
    return 1;
  }
  if (when_tok_word(p, i, "a") || when_tok_word(p, i, "an")) return 0;
  if (when_lookup(p, i, when_numbers, when_n_numbers, &v) && v >= 1 &&
      v <= 12) {
    *h = v;
    return 1;
  }
  return 0;
}

/* half past H | half H ("half six") | quarter past/to H | N past H | N to H
** (N a word) | H o'clock | H (a word) after "at" */
static int clock_words(when_parser *p, clock_spec *c, int where) {
  int i = p->pos, mins = -1, to = 0, h, v = 0, k;
  if (when_tok_word(p, i, "half") && when_tok_word(p, i + 1, "past")) {
    mins = 30, k = i + 2;
  } else if (when_tok_word(p, i, "half") && hour_number(p, i + 1, &h)) {
    mins = 30, k = i + 1; /* "half six": 6:30, as said in Britain */
  } else if (when_tok_word(p, i, "quarter") ||
             (when_tok_word(p, i, "a") && when_tok_word(p, i + 1, "quarter"))) {
    k = when_tok_word(p, i, "a") ? i + 1 : i;
    mins = 15;
    if (when_tok_word(p, k + 1, "to")) to = 1;
    else if (!when_tok_word(p, k + 1, "past")) return 0;
    k += 2;
  } else if ((when_tok_int(p, i, 2) ||
              when_lookup(p, i, when_numbers, when_n_numbers, &v)) &&
             (when_tok_word(p, i + 1, "past") ||
              (when_tok_word(p, i + 1, "to") && p->t[i].kind == T_WORD))) {
    mins = p->t[i].kind == T_INT ? p->t[i].value : v;
    if (when_tok_word(p, i, "a") || when_tok_word(p, i, "an") || mins < 1 ||
        mins > 30)
      return 0;
    to = when_tok_word(p, i + 1, "to");
    k = i + 2;
    if (when_tok_word(p, k, "minutes") || when_tok_word(p, k, "mins")) k++;
  } else if (hour_number(p, i, &h) && when_tok_word(p, i + 1, "oclock")) {
    c->h = h, c->said_words = 1, c->kind = CLK_BARE;
    k = i + 2;
    if (parse_ampm(p, k, &c->ampm)) k++;
    when_skip(p, k - i);
    c->has = 1;
    return 1;
  } else if (where == CLOCK_AT && p->t[i].kind == T_WORD &&
             hour_number(p, i, &h)) {
    c->h = h, c->kind = CLK_BARE, c->said_words = 1;
    k = i + 1;
    if (parse_ampm(p, k, &c->ampm)) c->kind = CLK_CLOCK, k++;
    when_skip(p, k - i);
    c->has = 1;
    return 1;
  } else {
    return 0;
  }
  if (!hour_number(p, k, &h)) return 0;
  k++;
  if (when_tok_word(p, k, "oclock")) k++;
  c->said_words = 1;
  c->kind = CLK_CLOCK;
  c->h = to ? (h == 1 ? 12 : h - 1) : h;
  c->m = to ? 60 - mins : mins;
  if (parse_ampm(p, k, &c->ampm)) k++;
  when_skip(p, k - i);
  c->has = 1;
  return 1;
}

/* "19h30", "20h": the hour, a glued "h" and the minutes (French and
** European style), read only where a clock is expected ("at 19h30") since
** "1h30" elsewhere is a duration. */
static int clock_h_style(when_parser *p, clock_spec *c) {
  int i = p->pos, k = i + 2;
  if (!(when_tok_int(p, i, 2) && when_tok_word(p, i + 1, "h") &&
        p->t[i + 1].glued && p->t[i].value <= 23))
    return 0;
  c->h = p->t[i].value, c->two_digit = 1, c->kind = CLK_CLOCK;
  if (k < p->n && p->t[k].glued && p->t[k].kind == T_INT) {
    if (!clock_field(p, k, "minute", &c->m)) return 0;
    k++;
  }
  when_skip(p, k - i);
  c->has = 1;
  return 1;
}

/* "8.30" without am/pm: H.MM, where a clock is expected (after "at", or in
** a recurring phrase's time slot); elsewhere a decimal is a number. */
static int clock_dotted(when_parser *p, clock_spec *c) {
  const when_tok *t = &p->t[p->pos];
  if (!(t->kind == T_DEC && t->ndig == 2 && t->value <= 23 && t->frac <= 59))
    return 0;
  c->h = t->value, c->m = t->frac, c->kind = CLK_CLOCK;
  c->two_digit = t->value >= 13;
  when_skip(p, 1);
  c->has = 1;
  return 1;
}

int when_military_time_at(const when_parser *p, int i) {
  return i + 1 < p->n && p->t[i].kind == T_INT && p->t[i].ndig == 4 &&
         p->t[i].value / 100 <= 23 && p->t[i].value % 100 <= 59 &&
         (when_tok_word(p, i + 1, "hours") || when_tok_word(p, i + 1, "hrs"));
}

int when_parse_clock(when_parser *p, clock_spec *c, int where) {
  int i = p->pos, k;
  memset(c, 0, sizeof *c);
  if (when_tok_int(p, i, 2) && p->t[i].value == 12 &&
      (when_tok_word(p, i + 1, "noon") || when_tok_word(p, i + 1, "midnight")))
    when_skip(p, 1); /* "12 noon" */
  if (when_accept(p, "noon") || when_accept(p, "midday")) {
    c->has = 1, c->kind = CLK_NOON, c->h = 12;
    return 1;
  }
  if (when_accept(p, "midnight")) {
    c->has = 1, c->kind = CLK_MIDNIGHT;
    return 1;
  }
  if (clock_words(p, c, where)) return 1;
  if (i >= p->n) return 0;
  const when_tok *t = &p->t[i];
  if (t->kind == T_DEC && t->ndig == 2 && parse_ampm(p, i + 1, &c->ampm)) {
    c->h = t->value, c->m = t->frac, c->kind = CLK_CLOCK; /* "8.30pm" */
    if (c->m > 59) return when_fail(p, "minute %d is out of range 0-59", c->m);
    if (!check_hour(p, c)) return 0;
    when_skip(p, 2);
    c->has = 1;
    return 1;
  }
  if (where != CLOCK_FREE && (clock_dotted(p, c) || clock_h_style(p, c)))
    return 1;
  int military = when_military_time_at(p, i); /* "1700 hours" */
  if ((where != CLOCK_FREE || military) && t->kind == T_INT &&
      t->ndig == 4) { /* "at 1830" */
    c->h = t->value / 100, c->m = t->value % 100, c->two_digit = 1;
    if (c->h > 23 || c->m > 59) return 0;
    c->kind = CLK_CLOCK;
    when_skip(p, 1 + military);
    c->has = 1;
    return 1;
  }
  if (!when_tok_int(p, i, 2)) return 0;
  c->h = t->value;
  c->two_digit = t->ndig == 2 && t->value < 10; /* "07" */
  if (when_tok_punct(p, i + 1, ':')) {
    if (!clock_field(p, i + 2, "minute", &c->m)) return 0;
    k = i + 3;
    if (when_tok_punct(p, k, ':')) {
      if (!clock_field(p, k + 1, "second", &c->s)) return 0;
      k += 2;
    }
    if (parse_ampm(p, k, &c->ampm)) k++;
    c->kind = CLK_CLOCK;
  } else if (parse_ampm(p, i + 1, &c->ampm)) {
    c->kind = CLK_CLOCK;
    k = i + 2;
  } else if (where == CLOCK_AT) {
    c->kind = CLK_BARE;
    k = i + 1;
  } else {
    return 0;
  }
  if (!check_hour(p, c)) return 0;
  when_skip(p, k - i);
  c->has = 1;
  return 1;
}

/* ---- zones (R10) ------------------------------------------------------------ */

typedef struct zone_name {
  const char *w1, *w2; /* one or two words */
  int rule, off_min;
} zone_name;

static const zone_name zone_names[] = {
    {"utc", NULL, Z_FIXED, 0},        {"gmt", NULL, Z_FIXED, 0},
    {"z", NULL, Z_FIXED, 0},          {"est", NULL, Z_FIXED, -300},
    {"edt", NULL, Z_FIXED, -240},     {"cst", NULL, Z_FIXED, -360},
    {"cdt", NULL, Z_FIXED, -300},     {"mst", NULL, Z_FIXED, -420},
    {"mdt", NULL, Z_FIXED, -360},     {"pst", NULL, Z_FIXED, -480},
    {"pdt", NULL, Z_FIXED, -420},     {"cet", NULL, Z_FIXED, 60},
    {"cest", NULL, Z_FIXED, 120},     {"bst", NULL, Z_FIXED, 60},
    {"ist", NULL, Z_FIXED, 330},      {"jst", NULL, Z_FIXED, 540},
    {"aest", NULL, Z_FIXED, 600},     {"aedt", NULL, Z_FIXED, 660},
    {"et", NULL, Z_US, -300},         {"ct", NULL, Z_US, -360},
    {"mt", NULL, Z_US, -420},         {"pt", NULL, Z_US, -480},
    {"eastern", NULL, Z_US, -300},    {"central", NULL, Z_US, -360},
    {"mountain", NULL, Z_US, -420},   {"pacific", NULL, Z_US, -480},
    {"new", "york", Z_US, -300},      {"nyc", NULL, Z_US, -300},
    {"chicago", NULL, Z_US, -360},    {"denver", NULL, Z_US, -420},
    {"los", "angeles", Z_US, -480},   {"la", NULL, Z_US, -480},
    {"san", "francisco", Z_US, -480}, {"seattle", NULL, Z_US, -480},
    {"london", NULL, Z_EU, 0},        {"uk", NULL, Z_EU, 0},
    {"paris", NULL, Z_EU, 60},        {"berlin", NULL, Z_EU, 60},
    {"madrid", NULL, Z_EU, 60},       {"rome", NULL, Z_EU, 60},
    {"amsterdam", NULL, Z_EU, 60},    {"tokyo", NULL, Z_FIXED, 540},
    {"india", NULL, Z_FIXED, 330},    {"singapore", NULL, Z_FIXED, 480}};

int when_zone_name_is(const char *w, size_t n) {
  if (n > 3 && (when_word_is(w, 3, "utc") || when_word_is(w, 3, "gmt")) &&
      (w[3] == '+' || w[3] == '-'))
    return 1; /* "utc+2", "gmt-5" */
  for (int k = 0; k < WHEN_COUNT(zone_names); k++) {
    const char *w1 = zone_names[k].w1; /* "new" alone is no zone */
    if (!zone_names[k].w2 && strcmp(w1, "z") != 0 && strcmp(w1, "la") != 0 &&
        when_word_is(w, n, w1))
      return 1;
  }
  return 0;
}

/* A named zone: an abbreviation ("pst"), or a place or region followed by
** "time" ("eastern time", "new york time"; "et" alone is enough), or
** either after "in" ("at 9am in tokyo": that place's clock). */
static int zone_word(when_parser *p, zone_spec *z) {
  int in = when_tok_word(p, p->pos, "in");
  int i = p->pos + in;
  for (int k = 0; k < WHEN_COUNT(zone_names); k++) {
    const zone_name *n = &zone_names[k];
    if (!when_tok_word(p, i, n->w1)) continue;
    int j = i + 1;
    if (n->w2) {
      if (!when_tok_word(p, j, n->w2)) continue;
      j++;
    }
    int has_time = when_tok_word(p, j, "time");
    int abbr = !n->w2 && strlen(n->w1) <= 4 && strcmp(n->w1, "la") != 0 &&
               strcmp(n->w1, "uk") != 0;
    if (!abbr && !has_time && !in) continue; /* "new york" alone: a place */
    z->has = 1, z->rule = n->rule, z->off_min = n->off_min;
    when_skip(p, j + has_time - p->pos);
    return 1;
  }
  return 0;
}

/* utc | gmt | z | ABBR | place "time" | (+|-)HH[[:]MM] */
int when_parse_zone(when_parser *p, zone_spec *z) {
  int i = p->pos, hh, mm = 0, used;
  if (zone_word(p, z)) return 1;
  if (!(when_tok_punct(p, i, '+') || when_tok_punct(p, i, '-'))) return 0;
  if (!(i + 1 < p->n && p->t[i + 1].kind == T_INT)) return 0;
  const when_tok *t = &p->t[i + 1];
  if (t->ndig == 4) {
    hh = t->value / 100, mm = t->value % 100, used = 2;
  } else if (t->ndig <= 2) {
    hh = t->value, used = 2;
    if (when_tok_punct(p, i + 2, ':')) {
      if (!(when_tok_int(p, i + 3, 2) && p->t[i + 3].ndig == 2))
        return when_fail(p, "zone offset minutes must have two digits");
      mm = p->t[i + 3].value, used = 4;
    }
  } else {
    return when_fail(p, "zone offset must be +HH, +HHMM or +HH:MM");
  }
  if (mm > 59 || hh * 60 + mm > 14 * 60)
    return when_fail(p,
                     "zone offset %c%02d:%02d is out of range -14:00..+14:00",
                     p->t[i].s[0], hh, mm);
  z->has = 1, z->rule = Z_FIXED;
  z->off_min = (p->t[i].s[0] == '-' ? -1 : 1) * (hh * 60 + mm);
  when_skip(p, used);
  return 1;
}

/* ---- parts of the day (R8) -------------------------------------------------- */

static const when_name part_names[] = {{"morning", P_MORNING},
                                       {"afternoon", P_AFTERNOON},
                                       {"evening", P_EVENING},
                                       {"night", P_NIGHT}};

const char *when_part_name(int part) {
  static const char *const names[] = {"morning", "afternoon", "evening",
                                      "night", "lunchtime"};
  return part >= 0 && part <= P_LUNCH ? names[part] : "";
}

int when_part_hour(int part) {
  static const int hours[] = {9, 15, 18, 20, 12};
  return part >= 0 && part <= P_LUNCH ? hours[part] : 0;
}

/* tonight | this part | in the part | at night | at lunch(time): the part,
** and *today when it names today's ("this evening", "tonight"). A bare
** part word is read only right after a day (after_day: "friday evening"). */
static int parse_part_of(when_parser *p, int *part, int *today, int after_day) {
  int save = p->pos;
  *today = 0;
  if (when_accept(p, "tonight")) {
    *part = P_NIGHT, *today = 1;
    return 1;
  }
  if (when_accept(p, "this")) {
    if (when_accept_from(p, part_names, WHEN_COUNT(part_names), part)) {
      *today = 1;
      return 1;
    }
  } else if (when_accept(p, "in")) {
    if (when_accept(p, "the") &&
        when_accept_from(p, part_names, 3, part)) /* not "in the night" */
      return 1;
  } else if (when_accept(p, "at")) {
    if (when_accept(p, "night")) {
      *part = P_NIGHT;
      return 1;
    }
    if (when_accept(p, "lunch") || when_accept(p, "lunchtime")) {
      *part = P_LUNCH;
      return 1;
    }
  } else if (after_day &&
             when_accept_from(p, part_names, WHEN_COUNT(part_names), part)) {
    return 1;
  }
  p->pos = save;
  return 0;
}

int when_parse_part(when_parser *p, int *part) {
  int today;
  return parse_part_of(p, part, &today, 0);
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
static int parse_day_num(when_parser *p, int *d) {
  int i = p->pos;
  if (!when_tok_int(p, i, 2)) return 0;
  *d = p->t[i].value;
  const when_tok *s = i + 1 < p->n ? &p->t[i + 1] : NULL;
  if (s && s->glued && s->kind == T_WORD &&
      (when_tok_word(p, i + 1, "st") || when_tok_word(p, i + 1, "nd") ||
       when_tok_word(p, i + 1, "rd") || when_tok_word(p, i + 1, "th"))) {
    if (memcmp(s->s, ordinal_suffix(*d), 2) != 0)
      return when_fail(p, "'%d%.2s' is not an ordinal (%d%s)", *d, s->s, *d,
                       ordinal_suffix(*d));
    when_skip(p, 2);
    return 1;
  }
  when_skip(p, 1);
  return 1;
}

static int parse_year(when_parser *p, int *y) {
  if (!(p->pos < p->n && p->t[p->pos].kind == T_INT && p->t[p->pos].ndig == 4))
    return 0;
  /* 0 in a day_spec means "no year": the year 0000, given, is kept as -1
  ** so that check_date refuses it instead of dropping it. */
  *y = p->t[p->pos].value ? p->t[p->pos].value : -1;
  when_skip(p, 1);
  return 1;
}

/* R12: the day must exist in the month (in the year when given). */
static int check_date(when_parser *p, day_spec *d) {
  if (d->month < 1 || d->month > 12)
    return when_fail(p, "month %d is out of range 1-12", d->month);
  if (d->dom < 1 || d->dom > 31)
    return when_fail(p, "day %d is out of range 1-31", d->dom);
  if (d->year < 0) /* the year 0000 (parse_year) */
    return when_fail(p, "year 0000 is out of range");
  int dim = civil_days_in_month(d->year ? d->year : 2000, d->month);
  if (d->dom > dim) {
    if (d->year && d->month == 2 && d->dom == 29)
      return when_fail(p, "%d-02-29 does not exist: %d is not a leap year",
                       d->year, d->year);
    return when_fail(p, "%s has no day %d", when_month_full[d->month], d->dom);
  }
  d->kind = D_DATE;
  return 1;
}

/* month_name day_num [[","] year] */
static int parse_month_first(when_parser *p, day_spec *d) {
  int save = p->pos;
  if (!when_accept_from(p, when_months, when_n_months, &d->month)) return 0;
  if (!parse_day_num(p, &d->dom)) {
    p->pos = save;
    return 0;
  }
  int before_year = p->pos;
  when_accept_punct(p, ',');
  if (!parse_year(p, &d->year)) p->pos = before_year;
  return check_date(p, d);
}

/* [the] day_num [of] month_name [year] | the day_num */
static int parse_day_first(when_parser *p, day_spec *d) {
  int save = p->pos;
  int the = when_accept(p, "the");
  if (!parse_day_num(p, &d->dom)) {
    p->pos = save;
    return 0;
  }
  int after_num = p->pos;
  when_accept(p, "of");
  if (when_accept_from(p, when_months, when_n_months, &d->month)) {
    int before_year = p->pos;
    when_accept_punct(p, ',');
    if (!parse_year(p, &d->year)) p->pos = before_year;
    return check_date(p, d);
  }
  p->pos = after_num;
  if (!the || p->fatal) {
    p->pos = save;
    return 0;
  }
  if (d->dom < 1 || d->dom > 31)
    return when_fail(p, "day %d is out of range 1-31", d->dom);
  d->kind = D_DOM;
  return 1;
}

/* A/B[/YYYY]: month first (12/25) or day first (25/12) when only one
** reading is a date; both (5/10) is refused, the reader cannot tell,
** unless the zone writes dates month first (the US and Canada). */
static int parse_slash_date(when_parser *p, day_spec *d) {
  int i = p->pos;
  if (!(when_tok_int(p, i, 2) && when_tok_punct(p, i + 1, '/') &&
        when_tok_int(p, i + 2, 2)))
    return 0;
  int a = p->t[i].value, b = p->t[i + 2].value;
  when_skip(p, 3);
  if (when_accept_punct(p, '/') && !parse_year(p, &d->year))
    return when_fail(p, "the year in M/D/YYYY must have four digits");
  if (d->year < 0) return when_fail(p, "year 0000 is out of range");
  if (a >= 1 && a <= 12 && b >= 1 && b <= 12 && a != b &&
      p->hints.month_first) { /* "7/4" in Toronto: July 4 */
    d->month = a, d->dom = b, d->slash_guess = 1;
    return check_date(p, d);
  }
  if (a >= 1 && a <= 12 && b >= 1 && b <= 12 && a != b)
    return when_fail(p, "%d/%d may be %s %d or %d %s: write the month's name",
                     a, b, when_month_full[a], b, a, when_month_full[b]);
  if (a > 12 && b >= 1 && b <= 12) d->month = b, d->dom = a;
  else d->month = a, d->dom = b;
  return check_date(p, d);
}

/* YYYY-MM-DD */
static int parse_iso_date(when_parser *p, day_spec *d) {
  int i = p->pos;
  if (!(i + 4 < p->n && p->t[i].kind == T_INT && p->t[i].ndig == 4 &&
        when_tok_punct(p, i + 1, '-') && when_tok_int(p, i + 2, 2) &&
        when_tok_punct(p, i + 3, '-') && when_tok_int(p, i + 4, 2)))
    return 0;
  d->year = p->t[i].value ? p->t[i].value : -1;
  d->month = p->t[i + 2].value;
  d->dom = p->t[i + 4].value;
  when_skip(p, 5);
  return check_date(p, d);
}

typedef struct holiday {
  const char *w1, *w2, *w3;
  int month, dom;
} holiday;

static const holiday holidays[] = {
    {"christmas", "eve", NULL, 12, 24},  {"christmas", "day", NULL, 12, 25},
    {"christmas", NULL, NULL, 12, 25},   {"xmas", NULL, NULL, 12, 25},
    {"boxing", "day", NULL, 12, 26},     {"new", "years", "eve", 12, 31},
    {"new", "years", "day", 1, 1},       {"new", "years", NULL, 1, 1},
    {"nye", NULL, NULL, 12, 31},         {"halloween", NULL, NULL, 10, 31},
    {"valentines", "day", NULL, 2, 14},  {"valentines", NULL, NULL, 2, 14},
    {"independence", "day", NULL, 7, 4}, {"st", "patricks", "day", 3, 17},
};

static int parse_holiday(when_parser *p, day_spec *d) {
  int i = p->pos;
  for (int k = 0; k < WHEN_COUNT(holidays); k++) {
    const holiday *h = &holidays[k];
    if (!when_tok_word(p, i, h->w1)) continue;
    if (h->w2 && !when_tok_word(p, i + 1, h->w2)) continue;
    if (h->w3 && !when_tok_word(p, i + 2, h->w3)) continue;
    when_skip(p, 1 + (h->w2 != NULL) + (h->w3 != NULL));
    d->kind = D_DATE, d->month = h->month, d->dom = h->dom, d->year = 0;
    return 1;
  }
  return 0;
}

static int parse_date(when_parser *p, day_spec *d) {
  return parse_month_first(p, d) || (!p->fatal && parse_iso_date(p, d)) ||
         (!p->fatal && parse_day_first(p, d)) ||
         (!p->fatal && parse_slash_date(p, d)) ||
         (!p->fatal && parse_holiday(p, d));
}

/* [on] [this | next | coming | this coming] weekday [next week]
** [[","] date] */
static int parse_weekday(when_parser *p, day_spec *d) {
  int save = p->pos, wd;
  int mod = 0; /* 1 this, 2 next, 3 coming */
  if (when_accept(p, "this")) mod = when_accept(p, "coming") ? 3 : 1;
  else if (when_accept(p, "next")) {
    mod = 2;
    if (when_accept(p, "week")) { /* "next week on friday" */
      when_accept(p, "on");
      mod = 4;
    }
  } else if (when_accept(p, "coming")) mod = 3;
  if (!when_accept_from(p, when_weekdays, when_n_weekdays, &wd)) {
    p->pos = save;
    return 0;
  }
  d->wd = wd;
  d->kind = mod == 2 ? D_NEXT_WEEKDAY : mod == 4 ? D_WEEK_AFTER : D_WEEKDAY;
  d->said_this = mod == 1;
  d->future = mod >= 2;
  if (mod == 0 && when_tok_word(p, p->pos, "next") &&
      when_tok_word(p, p->pos + 1, "week")) { /* "friday next week" */
    when_skip(p, 2);
    d->kind = D_WEEK_AFTER, d->future = 1;
    return 1;
  }
  if (mod == 0) { /* "friday the 14th", "mon, mar 3" */
    int before = p->pos;
    day_spec date;
    memset(&date, 0, sizeof date);
    when_accept_punct(p, ',');
    if (parse_date(p, &date)) {
      date.wd_check = wd;
      *d = date;
      return 1;
    }
    if (p->fatal) return 0;
    p->pos = before;
  }
  return 1;
}

/* today | tomorrow | [the] day after tomorrow | [on] weekday | [on] date */
static int parse_day(when_parser *p, day_spec *d) {
  int save = p->pos;
  memset(d, 0, sizeof *d);
  d->wd_check = -1;
  if (when_accept(p, "today") || when_accept(p, "tomorrow")) {
    d->kind = D_REL;
    d->rel = when_tok_word(p, p->pos - 1, "tomorrow");
    d->future = d->rel;
    return 1;
  }
  when_accept(p, "the");
  if (when_accept(p, "day") && when_accept(p, "after") &&
      when_accept(p, "tomorrow")) {
    d->kind = D_REL, d->rel = 2, d->future = 1;
    return 1;
  }
  p->pos = save;
  when_accept(p, "on");
  if (parse_weekday(p, d)) return 1;
  if (!p->fatal && parse_date(p, d)) return 1;
  if (p->fatal) return 0;
  p->pos = save;
  memset(d, 0, sizeof *d);
  d->wd_check = -1;
  return 0;
}

/* ---- the general form ------------------------------------------------------ */

/* clock [zone] ["to" | "until" | "-" clock]: a range gives its start, with
** the end's am/pm when the start has none ("from 10 to 11am"). */
static int parse_clock_part(when_parser *p, when_form *ph) {
  int from = when_accept(p, "from");
  int at = from || when_accept(p, "at");
  if (!when_parse_clock(p, &ph->clock, at ? CLOCK_AT : CLOCK_FREE)) return 0;
  when_parse_zone(p, &ph->zone);
  if (p->fatal) return 0;
  if (!from) return 1;
  clock_spec end;
  if (!(when_accept(p, "to") || when_accept(p, "until") ||
        when_accept(p, "till") || when_accept_punct(p, '-')))
    return 0;
  if (!when_parse_clock(p, &end, CLOCK_AT)) return 0;
  if (!ph->clock.ampm && end.ampm && ph->clock.kind != CLK_NOON &&
      ph->clock.kind != CLK_MIDNIGHT) {
    int s = ph->clock.h % 12, e = end.h % 12 + (end.ampm == 2 ? 12 : 0);
    ph->clock.ampm = end.ampm;
    if (end.ampm == 2 && s + 12 > e) ph->clock.ampm = 1; /* 10 to 1pm */
  }
  ph->range = 1;
  return 1;
}

int when_parse_general(when_parser *p, when_form *ph) {
  int have_day = 0, have_part = 0, have_clock = 0, after_day = 0;
  p->pos = 0;
  ph->form = F_GENERAL;
  while (!when_at_end(p)) {
    int save = p->pos, part, today;
    if (p->pos > 0) when_accept_punct(p, ',');
    int start = p->pos;
    if (!have_clock && parse_clock_part(p, ph)) {
      have_clock = 1, after_day = 0;
      continue;
    }
    if (p->fatal) return 0;
    p->pos = start;
    if (!have_clock) memset(&ph->clock, 0, sizeof ph->clock);
    if (have_clock && !ph->zone.has && when_parse_zone(p, &ph->zone)) continue;
    if (p->fatal) return 0;
    if (!have_part && parse_part_of(p, &part, &today, after_day)) {
      if (today) {
        if (have_day) return 0; /* "friday tonight" */
        ph->day.kind = D_REL, ph->day.rel = 0, have_day = 1;
      }
      ph->part = part, have_part = 1, after_day = 0;
      continue;
    }
    if (!have_day && parse_day(p, &ph->day)) {
      have_day = 1, after_day = 1;
      continue;
    }
    if (p->fatal) return 0;
    p->pos = save;
    break;
  }
  return when_at_end(p) && (have_day || have_part || have_clock);
}
