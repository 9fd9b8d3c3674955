/*
** when_recur.c -- the recurring forms of a time phrase (docs/when.md
** "Recurring phrases"): tokens -> a cron or interval when_form.
**
**   recurring := ("every" | "each") body | "daily" rest | "nightly" rest
**              | "hourly" | "weekly" ["on"] days rest | weekdays rest
**              | weekends rest | ["on"] plural_days rest  ("mondays and
**                thursdays at 7pm") | ["in the"] plural_part rest
**                ("mornings at 7") | ["on"] days plural_part rest ("monday
**                mornings at 8") | ["on"] "the" N "of" ("every" | "each")
**                "month" times
**   body      := [qty] sec|min|hour ["on the hour"] | "day" rest
**              | part rest | "weekday" rest | "weekend" rest | days rest
**              | "week" "on" days rest | "month" "on the" N times
**              | N "of the month" times | "year" "on" date times
**   rest      := [part] [times]     ; every monday evening at 8
**   times     := "at" clock {("and" | ",") ["at"] clock}  ; at 8am and 8pm
**
** Calendar rules that one cron line cannot say ("every other tuesday", "the
** 2nd and 4th friday", "the last weekday of the month", "every 3 days")
** are read by when_rrule.c first; the ones it cannot read are refused
** here with a reason that names them (a cron line that runs more often,
** or on other days, would be a confident wrong answer). A yearly date and
** a phrase that excepts holidays become rules too. The pieces both
** grammars read (day lists, ordinals, times) are in when_recur_parts.c.
*/
#include <string.h>

#include "time/when_int.h"

/* p->fatal's value for a refused calendar rule (when_parse_recurring
** looks for a rule in a prefix of the phrase then) */
#define FATAL_RULE 2

static int refuse_rule(when_parser *p, const char *what) {
  when_fail(p,
            "'%s' is a calendar rule (%s) that this reader cannot read: "
            "name the dates, or say it as 'every other tuesday at 9am', "
            "'the 2nd and 4th friday of every month at 10am', 'every 3 "
            "days at 8am' (docs/when.md#calendar-rules)",
            p->norm, what);
  p->fatal = FATAL_RULE;
  return 0;
}

/* A calendar rule in the first 2..n-1 tokens ("every other tuesday at
** 9am" in "every other tuesday at 9am pay the cleaner"): 1, else 0. p is
** left as it was. */
static int rule_in_prefix(when_parser *p) {
  int n = p->n, pos = p->pos, fatal = p->fatal, found = 0;
  char why[WHEN_REASON_MAX];
  memcpy(why, p->reason, sizeof why);
  when_form probe;
  for (int k = n - 1; k >= 2 && !found; k--) {
    p->n = k;
    p->fatal = 0;
    found = when_parse_rrule(p, &probe);
  }
  p->n = n, p->pos = pos, p->fatal = fatal;
  memcpy(p->reason, why, sizeof why);
  return found;
}

/* Where a phrase's own words begin: after "on", "the", or a leading clock
** time ("at 9am every other friday"). */
static int lead_end(when_parser *p) {
  int save = p->pos, j = 0;
  clock_spec c;
  p->pos = 0;
  if (when_accept(p, "at") && when_parse_clock(p, &c, CLOCK_AT)) {
    when_accept_punct(p, ',');
    j = p->pos;
  } else {
    p->pos = 0;
    when_accept(p, "on");
    when_accept(p, "the");
    j = p->pos;
  }
  p->fatal = 0;
  p->pos = save;
  return j;
}

/* A calendar rule at token `at` that this reader cannot read: refused
** (fatal) when the phrase begins with it; when other words come first
** ("me every other tuesday"), the phrase is only not read, so that the
** rule itself is read, or refused, from its own first word. */
static int refuse_rule_at(when_parser *p, int at, const char *what) {
  if (at > lead_end(p)) return 0;
  return refuse_rule(p, what);
}

/* The calendar rules cron cannot say, anywhere in the phrase. Returns 0
** (and fails) when one is found. */
static int no_calendar_rule(when_parser *p) {
  int n, w, v;
  for (int i = 0; i < p->n; i++) {
    int every = when_tok_word(p, i, "every") || when_tok_word(p, i, "each");
    if (when_tok_word(p, i, "biweekly") || when_tok_word(p, i, "fortnightly"))
      return refuse_rule_at(p, i, "every 2 weeks");
    if (every && (when_tok_word(p, i + 1, "other") ||
                  when_tok_word(p, i + 1, "alternate")))
      return refuse_rule_at(p, i, "every 2nd time");
    if (every && when_tok_word(p, i + 1, "fortnight"))
      return refuse_rule_at(p, i, "every 2 weeks");
    /* every N days | weeks | months | years, N >= 2 */
    if (every) {
      int k = i + 1;
      if (when_tok_int(p, k, 4)) {
        n = p->t[k].value;
      } else if (when_lookup(p, k, when_numbers, when_n_numbers, &n) &&
                 !when_tok_word(p, k, "a") && !when_tok_word(p, k, "an")) {
      } else {
        n = 0;
      }
      k += when_unit_hyphen_at(p, k + 1); /* "every 3-weeks" */
      if (n >= 2 && when_lookup(p, k + 1, when_units, when_n_units, &v) &&
          v >= U_DAY)
        return refuse_rule_at(p, i, "every so many days, weeks or months");
    }
    /* [every] first|2nd [and 4th]|last weekday|day|monday [of the month] */
    if (!when_ordinal_at(p, i, &n, &w)) continue;
    int k = i + w, w2;
    while ((when_tok_word(p, k, "and") || when_tok_punct(p, k, ',')) &&
           when_ordinal_at(p, k + 1, &n, &w2))
      k += 1 + w2;
    if (!when_is_day_word(p, k)) continue;
    int after_every = i > 0 && (when_tok_word(p, i - 1, "every") ||
                                when_tok_word(p, i - 1, "each"));
    /* "the 1st day of the month" is a day of the month */
    int plain_dom = when_tok_word(p, k, "day") &&
                    !when_tok_word(p, i, "last") && !after_every;
    int of_month = 0;
    for (int j = k; j < p->n && j < k + 6; j++)
      if (when_tok_word(p, j, "month")) of_month = 1;
    if (!plain_dom && (of_month || after_every))
      return refuse_rule_at(p, after_every ? i - 1 : i,
                            "a day counted within the month or every so "
                            "many weeks");
  }
  return 1;
}

/* every/each [qty] sec|min|hour -> interval ("every hour on the hour" is
** minute 0 of every hour: cron). */
static int parse_rec_interval(when_parser *p, when_form *ph) {
  int save = p->pos, den = 1, unit;
  int64_t num = 1;
  int has_qty = when_parse_qty(p, &num, &den);
  if (has_qty) when_skip_unit_hyphen(p); /* "every 15-minutes" */
  if (!when_accept_from(p, when_units, when_n_units, &unit)) {
    p->pos = save;
    return 0;
  }
  if (unit > U_HOUR) { /* "every day" is a cron form; "every 1 day" too */
    p->pos = has_qty && num == 1 && den == 1 ? p->pos - 1 : save;
    return 0;
  }
  if (unit == U_HOUR && !has_qty && when_tok_word(p, p->pos, "on")) {
    if (when_accept(p, "on") && when_accept(p, "the") &&
        when_accept(p, "hour")) {
      ph->form = F_CRON, ph->hourly = 1;
      return 1;
    }
    p->pos = save;
    return 0;
  }
  if (when_tok_word(p, p->pos, "and") && when_tok_word(p, p->pos + 1, "a") &&
      when_tok_word(p, p->pos + 2, "half") && den == 1) {
    when_skip(p, 3);
    num = num * 2 + 1, den = 2;
  }
  ph->form = F_INTERVAL;
  ph->dur.ms = num * when_unit_ms[unit] / den;
  if (ph->dur.ms < 1000)
    return when_fail(p, "an interval must be at least 1 second");
  return 1;
}

/* The body after "every"/"each". */
static int parse_rec_body(when_parser *p, when_form *ph) {
  int v, dom;
  if (when_tok_word(p, p->pos, "few") || when_tok_word(p, p->pos, "couple") ||
      when_tok_word(p, p->pos, "now") || when_tok_word(p, p->pos, "so"))
    return when_fail(p, "'%s' is vague: give a number ('every 2 hours')",
                     p->norm);
  if (parse_rec_interval(p, ph)) return when_at_end(p);
  if (p->fatal) return 0;
  ph->form = F_CRON;
  if (when_accept(p, "day")) return when_parse_rec_rest(p, ph, 0);
  if (when_accept_rec_part(p, &ph->part, 0))
    return when_parse_rec_rest(p, ph, 0); /* "every morning": 09:00 (R8) */
  if (when_accept(p, "weekday")) {
    ph->dow_mask = 0x3e;
    return when_parse_rec_rest(p, ph, 0);
  }
  if (when_accept(p, "weekend")) {
    ph->dow_mask = 0x41;
    return when_parse_rec_rest(p, ph, 0);
  }
  if (when_parse_day_list(p, ph, 0)) return when_parse_rec_rest(p, ph, 0);
  if (when_accept(p, "week")) {
    if (!when_accept(p, "on") || !when_parse_day_list(p, ph, 0))
      return when_fail(p, "'every week' does not say which day: name it "
                          "('every monday at 9am')");
    return when_parse_rec_rest(p, ph, 0);
  }
  if (when_accept(p, "month")) {
    if (!when_accept(p, "on"))
      return when_fail(p, "'every month' does not say which day: name it "
                          "('every month on the 1st at 9am')");
    if (!when_parse_the_day(p, &ph->cron_dom)) return 0;
    return when_parse_rec_rest(p, ph, 0);
  }
  if (when_accept(p, "year")) {
    day_spec d;
    int save = p->pos;
    when_accept(p, "on");
    if (!when_lookup(p, p->pos, when_months, when_n_months, &v)) {
      p->pos = save;
      return when_fail(p, "'every year' does not say which day: name it "
                          "('every year on march 3 at 9am')");
    }
    when_skip(p, 1);
    if (!when_tok_int(p, p->pos, 2)) return 0;
    memset(&d, 0, sizeof d);
    d.month = v, d.dom = p->t[p->pos].value;
    when_skip(p, 1);
    if (p->pos < p->n && p->t[p->pos].glued && p->t[p->pos].kind == T_WORD)
      when_skip(p, 1);
    if (d.dom < 1 || d.dom > civil_days_in_month(2000, d.month))
      return when_fail(p, "%s has no day %d", when_month_full[d.month], d.dom);
    ph->cron_month = d.month, ph->cron_dom = d.dom;
    return when_parse_rec_rest(p, ph, 0);
  }
  /* every 1st of the month */
  int save = p->pos;
  if (when_parse_the_day(p, &dom) && when_accept(p, "of") &&
      (when_accept(p, "the") || when_accept(p, "each") ||
       when_accept(p, "every")) &&
      when_accept(p, "month")) {
    ph->cron_dom = dom;
    return when_parse_rec_rest(p, ph, 0);
  }
  if (!p->fatal) p->pos = save;
  return 0;
}

static int parse_recurring_at(when_parser *p, when_form *ph);

static int parse_cron_form(when_parser *p, when_form *ph);

int when_form_recurs(const when_form *ph) {
  return ph->form == F_CRON || ph->form == F_INTERVAL || ph->form == F_RRULE;
}

/* Returns 1 parsed, 0 not a recurring phrase (or fatal): a calendar rule
** (when_rrule.c), else a cron or interval form; a yearly date, or a
** phrase that excepts holidays, as a rule. */
int when_parse_recurring(when_parser *p, when_form *ph) {
  int n = p->n;
  int holidays = when_cut_holidays(p);
  int ok = when_parse_rrule(p, ph);
  if (!ok && !p->fatal) ok = parse_cron_form(p, ph);
  if (!ok && p->fatal == FATAL_RULE) {
    if (rule_in_prefix(p)) { /* a rule and other words: not refused */
      p->fatal = 0, p->reason[0] = 0;
    }
  }
  p->n = n;
  if (!ok) return 0;
  p->pos = n;
  if (holidays && (ph->form == F_INTERVAL || ph->hourly))
    return when_fail(p,
                     "'%s': an interval cannot skip holidays: say the "
                     "days and time ('every weekday at 9am except "
                     "holidays')",
                     p->norm);
  if (ph->form == F_CRON && (holidays || ph->cron_month))
    when_cron_to_rrule(ph);
  ph->rr_holidays = holidays;
  return 1;
}

/* A time may come first: "at 7:45am every weekday". */
static int parse_cron_form(when_parser *p, when_form *ph) {
  clock_spec lead;
  p->pos = 0;
  if (!no_calendar_rule(p)) return 0;
  if (when_tok_word(p, 0, "at") &&
      (p->pos = 1, when_parse_clock(p, &lead, CLOCK_AT)) && p->pos < p->n) {
    when_accept_punct(p, ',');
    if (when_tok_word(p, p->pos, "every") || when_tok_word(p, p->pos, "each") ||
        when_tok_word(p, p->pos, "daily")) {
      when_parser sub = *p;
      int skip = p->pos;
      memmove(sub.t, p->t + skip, sizeof(when_tok) * (size_t)(p->n - skip));
      sub.n = p->n - skip, sub.pos = 0, sub.far = 0;
      if (parse_recurring_at(&sub, ph) && ph->form == F_CRON &&
          !ph->clock.has && !ph->hourly) {
        ph->clock = lead;
        p->pos = p->n;
        return 1;
      }
      if (sub.fatal) {
        when_fail(p, "%s", sub.reason);
        return 0;
      }
      p->far = skip + sub.far;
    }
  }
  if (p->fatal) return 0;
  return parse_recurring_at(p, ph);
}

static int parse_recurring_at(when_parser *p, when_form *ph) {
  int dom;
  when_form_init(ph);
  ph->form = F_CRON;
  p->pos = 0;
  if (when_accept(p, "every") || when_accept(p, "each"))
    return parse_rec_body(p, ph);
  if (when_accept(p, "daily") || when_accept(p, "everyday"))
    return when_parse_rec_rest(p, ph, 0);
  if (when_accept(p, "nightly")) {
    ph->part = P_NIGHT;
    return when_parse_rec_rest(p, ph, 1);
  }
  if (when_accept(p, "hourly") && when_at_end(p)) {
    ph->form = F_INTERVAL;
    ph->dur.ms = WHEN_HOUR_MS;
    return 1;
  }
  p->pos = 0;
  if (when_accept(p, "weekly")) {
    when_accept(p, "on");
    if (!when_parse_day_list(p, ph, 0) && !when_parse_day_list(p, ph, 1))
      return when_fail(p, "'weekly' does not say which day: name it "
                          "('every monday at 9am')");
    return when_parse_rec_rest(p, ph, 0);
  }
  if (when_accept(p, "monthly")) {
    when_accept(p, "on");
    if (!when_parse_the_day(p, &ph->cron_dom))
      return when_fail(p, "'monthly' does not say which day: name it "
                          "('every month on the 1st at 9am')");
    return when_parse_rec_rest(p, ph, 0);
  }
  if (when_accept(p, "weekdays")) {
    ph->dow_mask = 0x3e;
    return when_parse_rec_rest(p, ph, 1);
  }
  if (when_accept(p, "weekends")) {
    ph->dow_mask = 0x41;
    return when_parse_rec_rest(p, ph, 1);
  }
  p->pos = 0; /* "mornings at 7", "in the evenings at 9": every one */
  if (when_accept(p, "in") && !when_accept(p, "the")) p->pos = 0;
  if (when_accept_rec_part(p, &ph->part, 1))
    return when_parse_rec_rest(p, ph, 1);
  p->pos = 0; /* "monday mornings at 8", "on fridays at 5pm" */
  when_accept(p, "on");
  if (when_parse_day_list(p, ph, 0) && when_accept_rec_part(p, &ph->part, 1))
    return when_parse_rec_rest(p, ph, 1);
  ph->dow_mask = 0x7f, ph->part = P_NONE;
  p->pos = 0;
  when_accept(p, "on");
  if (when_parse_day_list(p, ph, 1)) return when_parse_rec_rest(p, ph, 1);
  p->pos = 0; /* "mon-fri at 8am": a range of days needs its time */
  when_accept(p, "on");
  if (when_parse_day_list(p, ph, 0) &&
      ph->dow_mask != (ph->dow_mask & -ph->dow_mask))
    return when_parse_rec_rest(p, ph, 1);
  ph->dow_mask = 0x7f;
  /* [on] the N(th) of every|each month [at time] */
  p->pos = 0;
  when_accept(p, "on");
  if (when_tok_word(p, p->pos, "the") && when_parse_the_day(p, &dom)) {
    if (!(when_accept(p, "of") &&
          (when_accept(p, "every") || when_accept(p, "each")) &&
          when_accept(p, "month"))) {
      p->pos = 0;
      return 0;
    }
    ph->cron_dom = dom;
    return when_parse_rec_rest(p, ph, 0);
  }
  return 0;
}
