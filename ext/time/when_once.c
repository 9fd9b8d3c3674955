/*
** when_once.c -- which one-time form a phrase is (docs/when.md "One-time
** phrases"): now, a day count ("in 3 days at 8am"), a duration (when_duration.c),
** an anchor ("end of the month", "next week") or the general form of a day,
** a part of the day and a clock time (when_grammar.c).
**
**   once      := now | day_count | duration | anchor | general
**   day_count := ["in"] terms [from (today | tomorrow | now | day)] general
**
** It sits above the grammar and the durations, so neither calls the other.
*/
#include <string.h>

#include "time/when_int.h"

/* ---- day counts: "in 3 days at 8am", "a week from tomorrow" ---------------- */

int when_parse_day_count(when_parser *p, when_form *ph) {
  duration d;
  memset(&d, 0, sizeof d);
  p->pos = 0;
  int in = when_accept(p, "in");
  if (!when_parse_terms(p, &d)) return 0;
  if (!(d.whole_days || (d.calendar && d.ms == 0))) return 0;
  int from_tomorrow = 0, from_now = 0, from_day = 0;
  if (!in) {
    if (!when_accept(p, "from")) return 0;
    if (when_accept(p, "tomorrow")) from_tomorrow = 1;
    else if (when_accept(p, "now")) from_now = 1;
    else if (!when_accept(p, "today")) from_day = 1; /* "a week from monday" */
  }
  int rest = p->pos;
  when_form tail;
  when_form_init(&tail);
  if (!when_at_end(p)) { /* the time of that day */
    when_parser sub = *p;
    memmove(sub.t, p->t + rest, sizeof(when_tok) * (size_t)(p->n - rest));
    sub.n = p->n - rest, sub.pos = 0, sub.far = 0;
    if (sub.t[0].kind == T_PUNCT && sub.t[0].s[0] == ',') {
      memmove(sub.t, sub.t + 1, sizeof(when_tok) * (size_t)(sub.n - 1));
      sub.n--;
    }
    if (sub.n == 0 || !when_parse_general(&sub, &tail) ||
        (tail.day.kind != D_NONE) != from_day) {
      if (sub.fatal) when_fail(p, "%s", sub.reason);
      p->far = rest + sub.far;
      return 0;
    }
  } else if (in || from_now || from_day) {
    return 0; /* "in 3 days" alone is a duration (exact time) */
  }
  ph->form = F_DAY_COUNT;
  ph->dur = d;
  ph->day.kind = D_REL;
  ph->day.rel = d.days + from_tomorrow;
  ph->day.future = 1;
  if (from_day) { /* counted from the day named: resolved there */
    ph->day = tail.day;
    ph->day.future = 1;
    ph->count_days = d.days;
  }
  ph->clock = tail.clock;
  ph->part = tail.part;
  ph->zone = tail.zone;
  p->pos = p->n;
  return 1;
}

/* ---- anchors and "now" ------------------------------------------------------ */

/* end of [the] day|week|month|year | next week|month|year */
static int parse_anchor(when_parser *p, when_form *ph) {
  p->pos = 0;
  int the = when_accept(p, "the");
  if (when_accept(p, "end")) {
    if (!when_accept(p, "of")) return 0;
    when_accept(p, "the");
    ph->form = F_END_OF;
  } else if (!the && when_accept(p, "next")) {
    ph->form = F_NEXT_UNIT;
  } else {
    return 0;
  }
  if (when_accept(p, "day") && ph->form == F_END_OF) ph->unit = U_DAY;
  else if (when_accept(p, "week")) ph->unit = U_WEEK;
  else if (when_accept(p, "month")) ph->unit = U_MONTH;
  else if (when_accept(p, "year")) ph->unit = U_YEAR;
  else return 0;
  return when_at_end(p);
}

static int parse_now(when_parser *p, when_form *ph) {
  p->pos = 0;
  when_accept(p, "right");
  if (when_accept(p, "now") && when_at_end(p)) {
    ph->form = F_NOW;
    return 1;
  }
  return 0;
}

int when_parse_once(when_parser *p, when_form *ph) {
  when_form_init(ph);
  if (parse_now(p, ph)) return 1;
  when_form_init(ph);
  if (when_parse_day_count(p, ph)) return 1;
  if (p->fatal) return 0;
  when_form_init(ph);
  p->pos = 0;
  ph->form = F_DURATION;
  if (when_parse_duration(p, &ph->dur) && when_at_end(p)) return 1;
  if (p->fatal) return 0;
  when_form_init(ph);
  if (parse_anchor(p, ph)) return 1;
  when_form_init(ph);
  return when_parse_general(p, ph);
}
