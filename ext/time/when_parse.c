/*
** when_parse.c -- when_parse: a whole time phrase -> schedule + confidence
** (when.h, docs/when.md), and the reason when it is refused.
**
**   1. An ISO-8601 instant is read as a whole by civil_parse_iso.
**   2. Otherwise the phrase is cut into tokens (when_lex.c) and parsed:
**      recurring forms first (when_recur.c), then one-time forms
**      (when_grammar.c); an alternative must read every token.
**   3. The parsed form is resolved against `now` in the zone
**      (when_resolve.c).
**   4. A refusal says why: an invalid field (the parser's own reason), a
**      vague, past or event-bound word it recognizes ("soon", "ago",
**      "after ..."), or the first word nothing could read.
*/
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "text/ascii.h"
#include "time/when_int.h"

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
    {"bit", "'a bit' is vague: give a number ('in 20 minutes')"},
    {"sec", "'a sec' is vague: give a number ('in 1 minute')"},
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
    {"twice", "repetitions per period ('twice a day') are not supported: "
              "name the times ('every day at 8am and 8pm')"},
    {"thrice", "repetitions per period are not supported: name the times"},
    {"times", "repetitions per period ('3 times a day') are not supported: "
              "name the times"},
    {"yearly", "'yearly' does not say which day: say 'every year on march 3 "
               "at 9am'"},
    {"annually", "'annually' does not say which day: say 'every year on "
                 "march 3 at 9am'"},
    {"yesterday", "'yesterday' is in the past: only future times can be "
                  "scheduled"},
    {"ago", "'... ago' is in the past: only future times can be scheduled"},
    {"previous", "'previous' points to the past: only future times can be "
                 "scheduled"},
    {"earlier", "'earlier' points to the past: only future times can be "
                "scheduled"},
    {"weekend", "'weekend' does not say which day or time: name them "
                "('saturday at 10am')"},
};

/* "last friday", "last week" ... (but not "last day of the month"). */
static const char *past_last(const when_parser *p, int i) {
  int v;
  if (!when_tok_word(p, i, "last")) return NULL;
  if (when_lookup(p, i + 1, when_weekdays, when_n_weekdays, &v) ||
      when_tok_word(p, i + 1, "week") || when_tok_word(p, i + 1, "month") ||
      when_tok_word(p, i + 1, "year") || when_tok_word(p, i + 1, "night") ||
      when_lookup(p, i + 1, when_months, when_n_months, &v))
    return "'last ...' points to the past: only future times can be scheduled";
  return NULL;
}

static const char *classify_failure(const when_parser *p) {
  for (int i = 0; i < p->n; i++) {
    for (int k = 0; k < WHEN_COUNT(vague_words); k++)
      if (when_tok_word(p, i, vague_words[k].word) &&
          !(i > 0 && (when_tok_word(p, i - 1, "every") ||
                      when_tok_word(p, i - 1, "each"))))
        return vague_words[k].why;
    const char *why = past_last(p, i); /* not "last day of the month" */
    if (why) return why;
    if (when_tok_punct(p, i, '-') && when_tok_int(p, i + 1, 4) &&
        (i == 0 || when_tok_word(p, i - 1, "in")))
      return "a negative duration is in the past: only future times can be "
             "scheduled";
  }
  return NULL;
}

static void explain_failure(when_parser *p) {
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

/* Zones of the countries that write dates month first (the US and
** Canada): "7/4" there is July 4. */
static int month_first_zone(const char *name) {
  static const char *const prefixes[] = {"US/",
                                         "Canada/",
                                         "America/Indiana/",
                                         "America/Kentucky/",
                                         "America/North_Dakota/",
                                         "EST5EDT",
                                         "CST6CDT",
                                         "MST7MDT",
                                         "PST8PDT"};
  static const char *const zones[] = {
      "New_York",    "Chicago",       "Denver",       "Los_Angeles",
      "Phoenix",     "Anchorage",     "Detroit",      "Boise",
      "Juneau",      "Sitka",         "Nome",         "Adak",
      "Metlakatla",  "Yakutat",       "Menominee",    "Indianapolis",
      "Louisville",  "Toronto",       "Vancouver",    "Edmonton",
      "Winnipeg",    "Halifax",       "St_Johns",     "Regina",
      "Moncton",     "Glace_Bay",     "Goose_Bay",    "Whitehorse",
      "Dawson",      "Iqaluit",       "Rankin_Inlet", "Cambridge_Bay",
      "Inuvik",      "Swift_Current", "Creston",      "Dawson_Creek",
      "Fort_Nelson", "Atikokan",      "Montreal",     "Thunder_Bay",
      "Nipigon",     "Rainy_River",   "Yellowknife",  "Pangnirtung"};
  for (int k = 0; k < WHEN_COUNT(prefixes); k++)
    if (strncmp(name, prefixes[k], strlen(prefixes[k])) == 0) return 1;
  if (strcmp(name, "Pacific/Honolulu") == 0) return 1;
  if (strncmp(name, "America/", 8) != 0) return 0;
  for (int k = 0; k < WHEN_COUNT(zones); k++)
    if (strcmp(name + 8, zones[k]) == 0) return 1;
  return 0;
}

/* ---- the entry points ------------------------------------------------------ */

const char *when_kind_name(when_kind k) {
  switch (k) {
    case WHEN_ONCE: return "once";
    case WHEN_INTERVAL: return "interval";
    case WHEN_CRON: return "cron";
    case WHEN_RRULE: return "rrule";
    default: return NULL;
  }
}

/* Refused: wipe what resolution may have filled in. */
static int refused(when_result *out) {
  out->kind = WHEN_NONE;
  out->due_at = 0;
  out->interval_ms = 0;
  out->cron[0] = 0;
  out->rrule[0] = 0;
  out->start_at = 0;
  out->holidays = 0;
  out->confidence = 0;
  out->n_implied = out->n_flags = 0;
  out->matched[0] = 0;
  if (!out->reason[0])
    snprintf(out->reason, sizeof out->reason, "not understood");
  return -1;
}

int when_refuse(when_result *out, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(out->reason, sizeof out->reason, fmt, ap);
  va_end(ap);
  return refused(out);
}

/* Trimmed bounds of the phrase; -1 when too long. */
static int trim(const char *phrase, const char **s, size_t *n) {
  size_t len = 0;
  while (len <= WHEN_PHRASE_MAX && phrase[len]) len++;
  if (len > WHEN_PHRASE_MAX) return -1;
  while (len && when_is_blank(phrase[len - 1])) len--;
  while (len && when_is_blank(*phrase)) phrase++, len--;
  *s = phrase;
  *n = len;
  return 0;
}

/* "2026-01-15...": four digits and a '-'. */
static int looks_iso(const char *s, size_t n) {
  if (n < 5) return 0;
  for (int i = 0; i < 4; i++)
    if (!ascii_is_digit(s[i])) return 0;
  return s[4] == '-';
}

static int refused_as(when_result *out, when_parser *p) {
  if (!p->fatal && p->hints.quiet) { /* the finder drops it anyway */
    snprintf(out->reason, sizeof out->reason, "not understood");
    return refused(out);
  }
  if (!p->fatal) explain_failure(p);
  snprintf(out->reason, sizeof out->reason, "%s", p->reason);
  return refused(out);
}

/* The grammar's reading of the phrase (not ISO-8601). */
static int read_words(const char *phrase, int64_t now_ms, const tz_zone *zone,
                      when_result *out, when_parser *p, when_form *ph,
                      int *understood) {
  if (when_tokenize(p, phrase) != 0) return refused_as(out, p);
  int first_rec =
      when_tok_word(p, 0, "every") || when_tok_word(p, 0, "each") ||
      when_tok_word(p, 0, "daily") || when_tok_word(p, 0, "weekdays") ||
      when_tok_word(p, 0, "hourly") || when_tok_word(p, 0, "weekly") ||
      when_tok_word(p, 0, "monthly") || when_tok_word(p, 0, "nightly") ||
      when_tok_word(p, 0, "everyday") || when_tok_word(p, 0, "biweekly") ||
      when_tok_word(p, 0, "fortnightly") || when_tok_word(p, 0, "yearly") ||
      when_tok_word(p, 0, "annually");
  int ok = when_parse_recurring(p, ph);
  if (!ok && !p->fatal && !first_rec) ok = when_parse_once(p, ph);
  if (!ok) {
    *understood = p->fatal; /* an invalid field: the phrase was read */
    return refused_as(out, p);
  }
  *understood = 1;
  if (when_resolve(ph, &p->hints, now_ms, zone, out) != 0) return refused(out);
  size_t len = strlen(p->norm); /* at most WHEN_PHRASE_MAX (when_tokenize) */
  memcpy(out->matched, p->norm, len + 1);
  return 0;
}

int when_read(const char *phrase, int64_t now_ms, const tz_zone *zone,
              const when_hints *hints, when_result *out, when_parser *p,
              when_form *ph, int *understood) {
  const char *s;
  size_t n;
  memset(out, 0, sizeof *out);
  memset(p, 0, sizeof *p);
  if (hints) p->hints = *hints;
  if (!zone) zone = tz_utc();
  p->hints.month_first = month_first_zone(tz_name(zone));
  when_form_init(ph);
  ph->form = -1;
  *understood = 0;
  if (!zone) zone = tz_utc();
  snprintf(out->tz, sizeof out->tz, "%s", tz_name(zone));
  if (!phrase) phrase = "";
  int64_t lo = civil_days_from_date(CIVIL_MIN_YEAR, 1, 2) * WHEN_DAY_MS;
  int64_t hi = civil_days_from_date(CIVIL_MAX_YEAR + 1, 1, 1) * WHEN_DAY_MS - 1;
  if (now_ms < lo || now_ms > hi)
    return when_refuse(out, "the reference time is outside years 0001-9999");
  if (trim(phrase, &s, &n) != 0)
    return when_refuse(out, "phrase is longer than %d bytes", WHEN_PHRASE_MAX);
  size_t skip = 0; /* "at 2025-12-02T08:00:00Z" */
  if (n > 3 && (when_word_is(s, 2, "at") || when_word_is(s, 2, "on")) &&
      s[2] == ' ')
    skip = 3;
  if (looks_iso(s + skip, n - skip)) {
    if (when_resolve_iso(s + skip, n - skip, now_ms, zone, out) == 0) {
      memcpy(out->matched, s, n);
      out->matched[n] = 0;
      *understood = 1;
      return 0;
    }
    if (strncmp(out->reason, "cannot read the ISO", 19) != 0) {
      *understood = 1; /* read, but in the past */
      return refused(out);
    }
    when_result iso = *out;
    out->reason[0] = 0;
    when_form_init(ph);
    if (read_words(phrase, now_ms, zone, out, p, ph, understood) == 0) return 0;
    *out = iso; /* the ISO-8601 reason says more */
    *understood = 0;
    return refused(out);
  }
  return read_words(phrase, now_ms, zone, out, p, ph, understood);
}

int when_parse(const char *phrase, int64_t now_ms, const tz_zone *zone,
               when_result *out) {
  when_parser p;
  when_form ph;
  int understood;
  return when_read(phrase, now_ms, zone, NULL, out, &p, &ph, &understood);
}
