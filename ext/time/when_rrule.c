/*
** when_rrule.c -- the recurring phrases one cron line cannot say, read as
** RFC 5545 rules (docs/when.md#calendar-rules): tokens -> an F_RRULE
** when_form, and the form -> its RECUR value and first occurrence.
**
**   rrule   := ("every" | "each") ("other" | "alternate" | N) unit_rest
**            | ("every" | "each") "second" days rest      ; not "of the month"
**            | ("every" | "each") "fortnight" "on" days rest
**            | ("biweekly" | "fortnightly") ["on"] days rest
**            | ["every" | "each" | "on"] ["the"] ordinals target
**              "of" ("every" | "each" | "the") "month" rest
**   unit_rest := days rest | "day"["s"] rest | "week"["s"] "on" days rest
**            | "month"["s"] "on" "the" N rest
**            | "year"["s"] "on" month N rest
**   ordinals := ordinal {("and" | ",") ordinal}       ; 2nd and 4th, last
**   target  := weekday | "weekday" | ("business" | "working") "day"
**            | "workday" | "day" (after "last" only)
**
** A cron form whose date is yearly ("every year on march 3") or that
** excepts holidays ("every weekday at 9 except holidays") is a rule too
** (when_cron_to_rrule). The first occurrence is the first one strictly
** after now of the rule without its INTERVAL; it is the rule's DTSTART,
** so "every other tuesday" said on a wednesday starts next tuesday.
*/
#include <stdio.h>
#include <string.h>

#include "time/rrule.h"
#include "time/when_int.h"

/* A number of periods after "every": 2..99 ("other", "alternate", "3",
** "three"), else 0. */
static int periods(when_parser *p) {
  int n;
  if (when_accept(p, "other") || when_accept(p, "alternate")) return 2;
  if (when_tok_int(p, p->pos, 2) && p->t[p->pos].value >= 2) {
    n = p->t[p->pos].value;
    when_skip(p, 1);
    when_skip_unit_hyphen(p); /* "every 3-days" */
    return n;
  }
  if (!when_tok_word(p, p->pos, "a") && !when_tok_word(p, p->pos, "an") &&
      when_lookup(p, p->pos, when_numbers, when_n_numbers, &n) && n >= 2 &&
      n <= 99) {
    when_skip(p, 1);
    when_skip_unit_hyphen(p);
    return n;
  }
  return 0;
}

static int accept_unit(when_parser *p, const char *one, const char *many) {
  return when_accept(p, one) || when_accept(p, many);
}

/* "on" (optional) and a weekday list, singular or plural. */
static int days_after(when_parser *p, when_form *ph) {
  when_accept(p, "on");
  return when_parse_day_list(p, ph, 0) || when_parse_day_list(p, ph, 1);
}

/* After "every N": the unit and what it needs, then the rest. */
static int unit_rest(when_parser *p, when_form *ph, int n) {
  ph->rr_interval = n;
  if (when_parse_day_list(p, ph, 0) || when_parse_day_list(p, ph, 1)) {
    ph->rr_freq = RRULE_WEEKLY; /* "every other tuesday" */
  } else if (accept_unit(p, "day", "days")) {
    ph->rr_freq = RRULE_DAILY;
  } else if (accept_unit(p, "week", "weeks")) {
    ph->rr_freq = RRULE_WEEKLY;
    if (!days_after(p, ph)) return 0; /* which day: refused by the caller */
  } else if (accept_unit(p, "month", "months")) {
    ph->rr_freq = RRULE_MONTHLY;
    if (!when_accept(p, "on") || !when_parse_the_day(p, &ph->cron_dom))
      return 0;
  } else if (accept_unit(p, "year", "years")) {
    int v;
    ph->rr_freq = RRULE_YEARLY;
    when_accept(p, "on");
    if (!when_lookup(p, p->pos, when_months, when_n_months, &v)) return 0;
    when_skip(p, 1);
    ph->cron_month = v;
    if (!when_parse_the_day(p, &ph->cron_dom)) return 0;
    if (ph->cron_dom > civil_days_in_month(2000, v))
      return when_fail(p, "%s has no day %d", when_month_full[v], ph->cron_dom);
  } else {
    return 0;
  }
  return when_parse_rec_rest(p, ph, 0);
}

static int mentions_month(const when_parser *p) {
  for (int i = p->pos; i < p->n; i++)
    if (when_tok_word(p, i, "month")) return 1;
  return 0;
}

/* ordinals target "of" (every|each|the) "month" rest; "of the month"
** only after "every" ("the last day of the month" alone is this month's) */
static int monthly_ordinals(when_parser *p, when_form *ph, int every) {
  int n, w, last_day = 0;
  when_accept(p, "on");
  when_accept(p, "the");
  if (!when_ordinal_at(p, p->pos, &n, &w)) return 0;
  for (;;) {
    if (n == 2 && (when_tok_word(p, p->pos, "other") ||
                   when_tok_word(p, p->pos, "alternate")))
      return 0;
    ph->rr_nth |= 1u << (n < 0 ? 0 : n);
    when_skip(p, w);
    int save = p->pos;
    if ((when_accept(p, "and") || when_accept_punct(p, ',')) &&
        when_ordinal_at(p, p->pos, &n, &w))
      continue;
    p->pos = save;
    break;
  }
  int one = (ph->rr_nth & (ph->rr_nth - 1)) ? 0 : 1;
  int nth = (ph->rr_nth & 1) ? -1 : 0;
  for (int b = 1; b <= 5 && !nth; b++)
    if (ph->rr_nth & (1u << b)) nth = b;
  if (when_parse_day_list(p, ph, 0) || when_parse_day_list(p, ph, 1)) {
  } else if (when_accept(p, "weekday") || when_accept(p, "workday") ||
             ((when_accept(p, "business") || when_accept(p, "working")) &&
              when_accept(p, "day"))) {
    if (!one) return 0;
    ph->dow_mask = 0x3e, ph->rr_setpos = nth, ph->rr_nth = 0;
  } else if (one && nth == -1 && when_accept(p, "day")) {
    last_day = 1;
  } else {
    return 0;
  }
  if (!(when_accept(p, "of") &&
        (when_accept(p, "every") || when_accept(p, "each") ||
         (every && when_accept(p, "the"))) &&
        when_accept(p, "month")))
    return 0;
  ph->rr_freq = RRULE_MONTHLY;
  if (last_day) ph->cron_dom = -1, ph->rr_nth = 0;
  return when_parse_rec_rest(p, ph, 0);
}

static int rrule_at(when_parser *p, when_form *ph) {
  int every = when_accept(p, "every") || when_accept(p, "each");
  if (every) {
    int start = p->pos, n;
    if (when_accept(p, "fortnight")) {
      ph->rr_freq = RRULE_WEEKLY, ph->rr_interval = 2;
      return days_after(p, ph) && when_parse_rec_rest(p, ph, 0);
    }
    if (when_tok_word(p, p->pos, "second") && !mentions_month(p)) {
      when_skip(p, 1); /* "every second tuesday": every other one */
      ph->rr_freq = RRULE_WEEKLY, ph->rr_interval = 2;
      return (when_parse_day_list(p, ph, 0) || when_parse_day_list(p, ph, 1)) &&
             when_parse_rec_rest(p, ph, 0);
    }
    if ((n = periods(p)) != 0) return unit_rest(p, ph, n);
    if (p->fatal) return 0;
    p->pos = start;
    return monthly_ordinals(p, ph, 1);
  }
  if (when_accept(p, "biweekly") || when_accept(p, "fortnightly")) {
    ph->rr_freq = RRULE_WEEKLY, ph->rr_interval = 2;
    return days_after(p, ph) && when_parse_rec_rest(p, ph, 0);
  }
  return monthly_ordinals(p, ph, 0);
}

static void rrule_form_init(when_form *ph) {
  when_form_init(ph);
  ph->form = F_RRULE;
  ph->rr_interval = 1;
}

/* "at 9am every other friday": the time first, the rule after it. */
static int lead_time(when_parser *p, when_form *ph) {
  clock_spec lead;
  p->pos = 0;
  if (!when_accept(p, "at") || !when_parse_clock(p, &lead, CLOCK_AT) ||
      p->pos >= p->n)
    return 0;
  when_accept_punct(p, ',');
  when_parser sub = *p;
  int skip = p->pos;
  memmove(sub.t, p->t + skip, sizeof(when_tok) * (size_t)(p->n - skip));
  sub.n = p->n - skip, sub.pos = 0, sub.far = 0;
  rrule_form_init(ph);
  if (!rrule_at(&sub, ph) || !when_at_end(&sub) || ph->clock.has) {
    if (sub.fatal) when_fail(p, "%s", sub.reason);
    return 0;
  }
  ph->clock = lead;
  p->pos = p->n;
  return 1;
}

int when_parse_rrule(when_parser *p, when_form *ph) {
  int far = p->far; /* a failed try leaves the reason to the other forms */
  rrule_form_init(ph);
  p->pos = 0;
  if (rrule_at(p, ph) && when_at_end(p)) return 1;
  if (!p->fatal && lead_time(p, ph)) return 1;
  if (!p->fatal) p->pos = 0, p->far = far;
  when_form_init(ph);
  return 0;
}

int when_cut_holidays(when_parser *p) {
  for (int k = 1; k < p->n; k++) {
    int i = k;
    if (when_tok_word(p, i, "except") || when_tok_word(p, i, "excluding") ||
        when_tok_word(p, i, "skipping")) {
      i++;
    } else if (when_tok_word(p, i, "but") && when_tok_word(p, i + 1, "not")) {
      i += 2;
    } else {
      continue;
    }
    if (when_tok_word(p, i, "on") || when_tok_word(p, i, "for")) i++;
    if (when_tok_word(p, i, "the")) i++;
    if (when_tok_word(p, i, "public") || when_tok_word(p, i, "bank") ||
        when_tok_word(p, i, "national") || when_tok_word(p, i, "statutory"))
      i++;
    if (!(when_tok_word(p, i, "holidays") || when_tok_word(p, i, "holiday")) ||
        i + 1 != p->n)
      continue;
    p->n = k > 0 && when_tok_punct(p, k - 1, ',') ? k - 1 : k;
    return 1;
  }
  return 0;
}

void when_cron_to_rrule(when_form *ph) {
  ph->form = F_RRULE;
  ph->rr_interval = 1;
  if (ph->cron_month) ph->rr_freq = RRULE_YEARLY;
  else if (ph->cron_dom) ph->rr_freq = RRULE_MONTHLY;
  else if (ph->dow_mask != 0x7f) ph->rr_freq = RRULE_WEEKLY;
  else ph->rr_freq = RRULE_DAILY;
}

static const char *const freq_names[] = {"YEARLY", "MONTHLY", "WEEKLY",
                                         "DAILY"};
/* RFC 5545 weekday names by when's numbering (0 = Sunday), listed from
** Monday as the RFC's examples do */
static const char *const day_names[] = {"SU", "MO", "TU", "WE",
                                        "TH", "FR", "SA"};

/* BYDAY: the weekdays of dow_mask, each with the ordinals of rr_nth. */
static size_t byday(const when_form *ph, char *buf, size_t n) {
  size_t o = 0;
  for (int k = 1; k <= 7; k++) {
    int d = k % 7;
    if (!(ph->dow_mask & (1u << d))) continue;
    if (!ph->rr_nth) {
      o += (size_t)snprintf(buf + o, n - o, "%s%s", o ? "," : "", day_names[d]);
      continue;
    }
    for (int b = 1; b <= 6; b++) { /* 1st .. 5th, then the last */
      int nth = b == 6 ? -1 : b;
      if (ph->rr_nth & (1u << (b == 6 ? 0 : b)))
        o += (size_t)snprintf(buf + o, n - o, "%s%d%s", o ? "," : "", nth,
                              day_names[d]);
    }
  }
  return o;
}

/* The RECUR value, with INTERVAL when `interval`. */
static void rule_text(const when_form *ph, const char *hours, int minute,
                      int second, int interval, char *buf, size_t n) {
  char days[96] = "";
  size_t o = (size_t)snprintf(buf, n, "FREQ=%s", freq_names[ph->rr_freq]);
  if (interval && ph->rr_interval > 1)
    o += (size_t)snprintf(buf + o, n - o, ";INTERVAL=%d", ph->rr_interval);
  if (ph->cron_month)
    o += (size_t)snprintf(buf + o, n - o, ";BYMONTH=%d", ph->cron_month);
  if (ph->dow_mask != 0x7f && byday(ph, days, sizeof days))
    o += (size_t)snprintf(buf + o, n - o, ";BYDAY=%s", days);
  if (ph->cron_dom)
    o += (size_t)snprintf(buf + o, n - o, ";BYMONTHDAY=%d", ph->cron_dom);
  if (ph->rr_setpos)
    o += (size_t)snprintf(buf + o, n - o, ";BYSETPOS=%d", ph->rr_setpos);
  snprintf(buf + o, n - o, ";BYHOUR=%s;BYMINUTE=%d;BYSECOND=%d", hours, minute,
           second);
}

int when_rrule_finish(const when_form *ph, const char *hours, int minute,
                      int second, int64_t now, const tz_zone *zone,
                      when_result *out) {
  rrule_set set; /* ~12 KB, once per phrase read */
  char text[WHEN_RRULE_MAX], err[RRULE_ERR_MAX];
  int64_t first;
  rule_text(ph, hours, minute, second, 0, text, sizeof text);
  if (rrule_compile(text, &set, err, sizeof err) != 0) {
    snprintf(out->reason, sizeof out->reason, "internal: %.150s", err);
    return -1;
  }
  int rc = rrule_next(&set, rrule_wall_of(zone, now), zone, now, &first);
  if (rc != 1) {
    snprintf(out->reason, sizeof out->reason, "the rule '%s' never occurs",
             text);
    return -1;
  }
  rule_text(ph, hours, minute, second, 1, out->rrule, sizeof out->rrule);
  out->kind = WHEN_RRULE;
  out->start_at = out->due_at = first;
  out->holidays = ph->rr_holidays;
  return 0;
}
