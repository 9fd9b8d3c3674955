/*
** when_recur_parts.c -- the pieces of a recurring phrase that both
** recurring grammars read (when_recur.c for cron and interval forms,
** when_rrule.c for calendar rules; docs/when.md "Recurring phrases"):
** ordinal words, weekday lists (singular and plural, ranges), "the" N,
** a part of the day, and the trailing [part] [times] [part]. Below both
** grammars, so neither calls the other back for them.
*/
#include <string.h>

#include "time/when_int.h"

static const when_name plural_days[] = {
    {"sundays", 0},   {"mondays", 1}, {"tuesdays", 2}, {"wednesdays", 3},
    {"thursdays", 4}, {"fridays", 5}, {"saturdays", 6}};

static const when_name ordinals[] = {
    {"first", 1}, {"1st", 1},    {"second", 2},   {"2nd", 2},   {"third", 3},
    {"3rd", 3},   {"fourth", 4}, {"4th", 4},      {"fifth", 5}, {"5th", 5},
    {"last", -1}, {"other", 2},  {"alternate", 2}};

/* An ordinal word at i ("second", "2nd", "last"): 1 and *n, else 0. The
** number tokens "2" + "nd" count as one word. */
int when_ordinal_at(const when_parser *p, int i, int *n, int *width) {
  if (when_tok_int(p, i, 1) && i + 1 < p->n && p->t[i + 1].glued &&
      p->t[i + 1].kind == T_WORD &&
      (when_tok_word(p, i + 1, "st") || when_tok_word(p, i + 1, "nd") ||
       when_tok_word(p, i + 1, "rd") || when_tok_word(p, i + 1, "th"))) {
    *n = p->t[i].value, *width = 2;
    return *n >= 1 && *n <= 5;
  }
  *width = 1;
  return when_lookup(p, i, ordinals, WHEN_COUNT(ordinals), n);
}

int when_is_day_word(const when_parser *p, int i) {
  int v;
  return when_lookup(p, i, when_weekdays, when_n_weekdays, &v) ||
         when_lookup(p, i, plural_days, WHEN_COUNT(plural_days), &v) ||
         when_tok_word(p, i, "weekday") || when_tok_word(p, i, "day") ||
         when_tok_word(p, i, "week") || when_tok_word(p, i, "weekend");
}

/* One or more clock times: "at 8", "at 8am and 8pm", "at 9:00, 13:00";
** "at" may be left out before a time that says itself ("daily 9 am",
** "each friday 17:00", "every weekday 8.30"), not before a bare hour. */
static int parse_times(when_parser *p, when_form *ph) {
  int start = p->pos;
  int where = when_accept(p, "at") ? CLOCK_AT : CLOCK_SLOT;
  if (!when_parse_clock(p, &ph->clock, where)) {
    p->pos = start;
    return 0;
  }
  zone_spec z;
  memset(&z, 0, sizeof z);
  for (;;) {
    if (when_parse_zone(p, &z))
      return when_fail(p, "a zone inside a recurring phrase is not supported: "
                          "pass the IANA zone as the tz argument");
    if (p->fatal) return 0;
    int save = p->pos;
    int sep = when_accept_punct(p, ',');
    sep |= when_accept(p, "and");
    if (!sep) return 1;
    int at = when_accept(p, "at");
    if (ph->n_more == WHEN_HOURS_MAX ||
        !when_parse_clock(p, &ph->more[ph->n_more],
                          at ? CLOCK_AT : CLOCK_SLOT)) {
      if (p->fatal) return 0;
      p->pos = save;
      return 1;
    }
    ph->n_more++;
  }
}

static const when_name rec_parts[] = {{"morning", P_MORNING},
                                      {"afternoon", P_AFTERNOON},
                                      {"evening", P_EVENING},
                                      {"night", P_NIGHT}};

static const when_name rec_parts_plural[] = {{"mornings", P_MORNING},
                                             {"afternoons", P_AFTERNOON},
                                             {"evenings", P_EVENING},
                                             {"nights", P_NIGHT}};

/* "morning" | "afternoon" | "evening" | "night" (plural: "mornings" ...):
** 1 and *part, else 0 */
int when_accept_rec_part(when_parser *p, int *part, int plural) {
  return plural ? when_accept_from(p, rec_parts_plural,
                                   WHEN_COUNT(rec_parts_plural), part)
                : when_accept_from(p, rec_parts, WHEN_COUNT(rec_parts), part);
}

/* [part] [times] [part]; the time is needed after a part ("every
** morning"), after "weekdays", and wherever `required`. */
int when_parse_rec_rest(when_parser *p, when_form *ph, int required) {
  int word = p->pos - 1, part;
  if (when_accept_rec_part(p, &part, 0) || when_parse_part(p, &part)) {
    ph->part = part; /* "every morning": its hour (R8) when none is said */
    required = 0;
  }
  if (!parse_times(p, ph)) {
    if (p->fatal) return 0;
    if (required && when_at_end(p))
      return when_fail(p, "'%.*s' needs a time: add 'at <time>'",
                       p->t[word].len, p->t[word].s);
    return !required && when_at_end(p);
  }
  if (ph->part == P_NONE && when_parse_part(p, &part)) ph->part = part;
  return when_at_end(p);
}

/* weekday {("," | "and") weekday}, singular or plural */
int when_parse_day_list(when_parser *p, when_form *ph, int plural) {
  int wd, last;
  const when_name *tab = plural ? plural_days : when_weekdays;
  int n = plural ? WHEN_COUNT(plural_days) : when_n_weekdays;
  if (!when_accept_from(p, tab, n, &wd)) return 0;
  ph->dow_mask = 1u << wd;
  int at = p->pos; /* "mon-fri", "monday to friday": a range */
  if ((when_accept_punct(p, '-') || when_accept(p, "to") ||
       when_accept(p, "through") || when_accept(p, "thru") ||
       when_accept(p, "till") || when_accept(p, "until")) &&
      when_accept_from(p, tab, n, &last)) {
    for (int d = wd; d != last; d = (d + 1) % 7) ph->dow_mask |= 1u << d;
    ph->dow_mask |= 1u << last;
    return 1;
  }
  p->pos = at;
  for (;;) {
    int save = p->pos;
    int sep = when_accept_punct(p, ',');
    sep |= when_accept(p, "and");
    if (!sep || !when_accept_from(p, tab, n, &wd)) {
      p->pos = save;
      return 1;
    }
    ph->dow_mask |= 1u << wd;
  }
}

/* "the" day_num: the day (1-31), else 0. */
int when_parse_the_day(when_parser *p, int *dom) {
  int save = p->pos;
  when_accept(p, "the");
  if (!when_tok_int(p, p->pos, 2)) {
    p->pos = save;
    return 0;
  }
  *dom = p->t[p->pos].value;
  when_skip(p, 1);
  if (p->pos < p->n && p->t[p->pos].glued &&
      (when_accept(p, "st") || when_accept(p, "nd") || when_accept(p, "rd") ||
       when_accept(p, "th"))) {
  }
  if (*dom < 1 || *dom > 31)
    return when_fail(p, "day %d is out of range 1-31", *dom);
  return 1;
}
