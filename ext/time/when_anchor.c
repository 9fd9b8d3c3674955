/*
** when_anchor.c -- a time said relative to another time the message names
** (docs/when.md "Times relative to another"):
**
**   - an offset before it: "the call is at 4pm, ping me 15 minutes before",
**     "remind me half an hour before the meeting at 10am", "... 30 minutes
**     earlier": that time minus the offset;
**   - its day: "the interview is on Tuesday at 2:30pm. Remind me at 1pm
**     that day", "... the day before at 7pm", "the night before at 10pm":
**     the clock time said, on that day (or the day before or after);
**   - its day, unsaid: "I have a meeting at 3pm tomorrow, remind me at
**     2pm" (when_anchor_day): a clock time alone in the request, before
**     the other time on its day, is on that day; after it, which day is
**     meant is asked.
**
** The other time is the one time the message names that is still ahead;
** when it names none, the finder goes on as usual; when it names several
** different ones, the answer is a refusal that asks which.
*/
#include <stdio.h>
#include <string.h>

#include "text/ascii.h"
#include "time/when_msg.h"

#define OFFSET_WORDS_MAX 6

static const char *const offset_words[] = {"before", "earlier", "prior"};

/* Are the n bytes at s the word w, ASCII case ignored? */
static int strncasecmp_ascii(const char *s, const char *w, size_t n) {
  for (size_t i = 0; i < n; i++)
    if (when_lower(s[i]) != w[i]) return 0;
  return 1;
}

/* The one time of seen[] still ahead, outside [xa, xb) (and, with
** want_day, naming a day); NULL when none; *second set when another one
** differs. */
static const when_cand *the_other(const when_cand *seen, int n, int64_t now,
                                  size_t xa, size_t xb, int want_day,
                                  const when_cand **second) {
  const when_cand *one = NULL;
  *second = NULL;
  for (int i = 0; i < n; i++) {
    const when_cand *c = &seen[i];
    if (c->r.kind != WHEN_ONCE || c->r.due_at < now) continue;
    if (c->a < xb && c->b > xa) continue;
    const when_form *f = &c->form;
    if (want_day && !(f->form == F_DAY_COUNT ||
                      (f->form == F_GENERAL && f->day.kind != D_NONE)))
      continue;
    if (!want_day && f->form == F_GENERAL && !f->clock.has)
      continue; /* "2 hours before" a day alone ("NYE") is not meant */
    if (!one) one = c;
    else if (one->r.due_at != c->r.due_at && !*second) *second = c;
  }
  return one;
}

static int ask_which(char *why, size_t n, const char *t, size_t pa, size_t pb,
                     const when_cand *x, const when_cand *y) {
  snprintf(why, n,
           "'%.*s' is said of another time, and the message names "
           "two, '%.*s' and '%.*s': which one is meant?",
           (int)(pb - pa > 40 ? 40 : pb - pa), t + pa,
           (int)(x->b - x->a > 40 ? 40 : x->b - x->a), t + x->a,
           (int)(y->b - y->a > 40 ? 40 : y->b - y->a), t + y->a);
  return 1;
}

static void answer(when_found *out, const when_result *r, size_t a, size_t b) {
  out->r = *r;
  if (out->r.confidence > 0.85) out->r.confidence = 0.85;
  out->start = a, out->end = b;
  out->start2 = out->end2 = 0;
}

/* The duration right before byte pos ("15 minutes", "half an hour"), read
** as a duration without a marker: its start and ms, or 0. */
static int offset_before(const char *t, size_t len, size_t pos, int64_t now,
                         const tz_zone *zone, size_t *start, int64_t *ms) {
  size_t starts[OFFSET_WORDS_MAX], wa, wb;
  int k = 0;
  for (size_t p = pos;
       k < OFFSET_WORDS_MAX && when_prev_word(t, len, p, &wa, &wb); p = wa)
    starts[k++] = wa;
  when_hints none;
  memset(&none, 0, sizeof none);
  none.quiet = 1;
  while (k-- > 0) {
    char buf[WHEN_PHRASE_MAX + 1];
    size_t n = pos - starts[k];
    while (n > 0 && when_is_blank(t[starts[k] + n - 1])) n--;
    if (n == 0 || n > WHEN_PHRASE_MAX) continue;
    memcpy(buf, t + starts[k], n);
    buf[n] = 0;
    when_result r;
    when_parser p;
    when_form f;
    int understood;
    if (when_read(buf, now, zone, &none, &r, &p, &f, &understood) == 0 &&
        f.form == F_DURATION && !f.dur.marker && !f.dur.calendar) {
      *start = starts[k], *ms = f.dur.ms;
      return 1;
    }
  }
  return 0;
}

/* Is the range c ("from 3pm to 5pm") a time changed from one to the other:
** a verb of change before it in its sentence ("the call was pushed from
** 3pm to 5pm")? Then "before" it could mean either. */
static int range_changed(const char *t, size_t len, const when_cand *c) {
  static const char *const changes[] = {
      "moved",      "move",     "pushed",    "push",     "changed",
      "change",     "shifted",  "shift",     "bumped",   "bump",
      "delayed",    "delay",    "postponed", "postpone", "rescheduled",
      "reschedule", "switched", "brought",   "updated",  "put"};
  size_t wa, wb;
  if (!c->form.range) return 0;
  for (size_t i = c->sa; when_next_word(t, len, i, &wa, &wb) && wb <= c->a;
       i = wb)
    if (when_word_in(t, wa, wb, changes, WHEN_COUNT(changes))) return 1;
  return 0;
}

/* "15 minutes before": 0 answered, 1 refused (why), -1 none. */
static int offset_anchor(const char *t, size_t len, int64_t now,
                         const tz_zone *zone, const when_cand *seen, int n,
                         when_found *out, char *why, size_t wn) {
  size_t wa, wb, sa, sb, da;
  int64_t ms;
  for (size_t i = 0; when_next_word(t, len, i, &wa, &wb); i = wb) {
    if (!when_word_in(t, wa, wb, offset_words, WHEN_COUNT(offset_words)) ||
        !offset_before(t, len, wa, now, zone, &da, &ms))
      continue;
    when_sentence(t, len, wa, &sa, &sb);
    if (!when_context_asks(t, len, sa, sb)) continue;
    const when_cand *second,
        *other = the_other(seen, n, now, da, wb, 0, &second);
    if (!other) continue;
    if (second) return ask_which(why, wn, t, da, wb, other, second);
    if (range_changed(t, len, other)) {
      snprintf(why, wn,
               "'%.*s' is said of another time, and '%.*s' moves it from "
               "one time to another: which one is meant?",
               (int)(wb - da > 40 ? 40 : wb - da), t + da,
               (int)(other->b - other->a > 40 ? 40 : other->b - other->a),
               t + other->a);
      return 1;
    }
    when_result r = other->r;
    r.due_at -= ms;
    if (r.due_at < now) {
      snprintf(why, wn, "'%.*s' '%.*s' is in the past",
               (int)(wb - da > 40 ? 40 : wb - da), t + da,
               (int)(other->b - other->a > 40 ? 40 : other->b - other->a),
               t + other->a);
      return 1;
    }
    snprintf(r.matched, sizeof r.matched, "%.*s %.*s",
             (int)(wb - da > 60 ? 60 : wb - da), t + da, 120, other->r.matched);
    answer(out, &r, da, wb);
    return 0;
  }
  return -1;
}

typedef struct day_ref {
  const char *words;
  int delta;
} day_ref;

static const day_ref day_refs[] = {
    {"that day", 0},          {"the same day", 0},
    {"same day", 0},          {"the day before", -1},
    {"the night before", -1}, {"the evening before", -1},
    {"the day after", 1},
};

/* Is one of day_refs at byte a? Its end and delta. */
static int day_ref_at(const char *t, size_t len, size_t a, size_t *end,
                      int *delta) {
  for (int k = 0; k < WHEN_COUNT(day_refs); k++) {
    const char *w = day_refs[k].words;
    size_t p = a, wa, wb;
    int ok = 1;
    while (*w && ok) {
      size_t n = strcspn(w, " ");
      ok = when_next_word(t, len, p, &wa, &wb) && (p != a || wa == a) &&
           wb - wa == n && strncasecmp_ascii(t + wa, w, n);
      p = wb, w += n + (w[n] == ' ');
    }
    if (ok) {
      *end = p, *delta = day_refs[k].delta;
      return 1;
    }
  }
  return 0;
}

/* The clock time of seen[] right next to [a, b) (blanks between). */
static const when_cand *clock_next_to(const char *t, const when_cand *seen,
                                      int n, size_t a, size_t b) {
  for (int i = 0; i < n; i++) {
    const when_cand *c = &seen[i];
    const when_form *f = &c->form;
    if (!(f->form == F_GENERAL && f->clock.has && f->day.kind == D_NONE))
      continue;
    size_t x = c->b <= a ? c->b : b, y = c->b <= a ? a : c->a;
    if (y < x) continue;
    int blank = 1;
    for (size_t j = x; j < y; j++)
      if (!when_is_blank(t[j])) blank = 0;
    if (blank) return c;
  }
  return NULL;
}

/* The local day (days since 1970-01-01) of the instant ms in zone. */
static int64_t local_day(const tz_zone *zone, int64_t ms) {
  int64_t s = civil_floor_div(ms, 1000);
  if (!zone) zone = tz_utc(); /* as when_read reads it */
  return civil_floor_div(s + tz_offset_at(zone, s), 86400);
}

/* The clock time of clock read on day (local days): 0 read into *r, 1
** refused (why, naming [a, b) of the message). */
static int clock_on_day(const char *t, size_t len, int64_t now,
                        const tz_zone *zone, const when_cand *clock,
                        int64_t day, size_t a, size_t b, when_result *r,
                        char *why, size_t wn) {
  int y, mo, d;
  civil_date_from_days(day, &y, &mo, &d);
  char buf[WHEN_PHRASE_MAX + 16];
  snprintf(buf, sizeof buf, "%04d-%02d-%02d %.*s", y, mo, d,
           (int)(clock->b - clock->a), t + clock->a);
  when_hints h;
  when_context_hints(t, len, clock->a, &h);
  h.quiet = 1;
  when_parser p;
  when_form f;
  int understood;
  memset(r, 0, sizeof *r);
  if (strlen(buf) > WHEN_PHRASE_MAX ||
      when_read(buf, now, zone, &h, r, &p, &f, &understood) != 0) {
    snprintf(why, wn, "'%.*s': %s", (int)(b - a > 40 ? 40 : b - a), t + a,
             r->reason[0] ? r->reason : "cannot read it");
    return 1;
  }
  return 0;
}

/* "at 1pm that day": 0 answered, 1 refused (why), -1 none. */
static int day_anchor(const char *t, size_t len, int64_t now,
                      const tz_zone *zone, const when_cand *seen, int n,
                      when_found *out, char *why, size_t wn) {
  size_t wa, wb, end;
  int delta;
  for (size_t i = 0; when_next_word(t, len, i, &wa, &wb); i = wb) {
    if (!day_ref_at(t, len, wa, &end, &delta)) continue;
    const when_cand *clock = clock_next_to(t, seen, n, wa, end);
    if (!clock) continue;
    size_t a = clock->a < wa ? clock->a : wa,
           b = clock->b > end ? clock->b : end;
    const when_cand *second, *other = the_other(seen, n, now, a, b, 1, &second);
    if (!other) continue;
    if (second) return ask_which(why, wn, t, a, b, other, second);
    when_result r;
    if (clock_on_day(t, len, now, zone, clock,
                     local_day(zone, other->r.due_at) + delta, a, b, &r, why,
                     wn))
      return 1;
    answer(out, &r, a, b);
    return 0;
  }
  return -1;
}

/* Does the sentence of c speak of a deadline ("the deadline is friday at
** 5pm", "the report is due ...")? Work before it may fall on any day. */
static int deadline_said(const char *t, size_t len, const when_cand *c) {
  static const char *const words[] = {"deadline", "due",    "expires",
                                      "closes",   "ends",   "submit",
                                      "by",       "before", "until"};
  size_t wa, wb;
  for (size_t i = c->sa; when_next_word(t, len, i, &wa, &wb) && wb <= c->sb;
       i = wb)
    if (when_word_in(t, wa, wb, words, WHEN_COUNT(words))) return 1;
  return 0;
}

int when_anchor_day(const char *t, size_t len, int64_t now, const tz_zone *zone,
                    const when_cand *seen, int n, const when_cand *clock,
                    when_found *out, char *why, size_t wn) {
  const when_cand *second,
      *other = the_other(seen, n, now, clock->ca, clock->cb, 1, &second);
  if (!other) return -1;
  if (second) return ask_which(why, wn, t, clock->a, clock->b, other, second);
  int64_t day = local_day(zone, other->r.due_at);
  if (day == local_day(zone, out->r.due_at)) return -1;
  when_result r;
  if (clock_on_day(t, len, now, zone, clock, day, clock->a, clock->b, &r, why,
                   wn))
    return 1;
  if (r.due_at > other->r.due_at || r.due_at < now ||
      deadline_said(t, len, other)) {
    snprintf(why, wn,
             "'%.*s' names no day, and the message speaks of '%.*s': "
             "which day is meant?",
             (int)(clock->b - clock->a > 40 ? 40 : clock->b - clock->a),
             t + clock->a,
             (int)(other->b - other->a > 40 ? 40 : other->b - other->a),
             t + other->a);
    return 1;
  }
  answer(out, &r, clock->a, clock->b);
  if (out->r.confidence > 0.8) out->r.confidence = 0.8;
  return 0;
}

int when_anchor(const char *t, size_t len, int64_t now, const tz_zone *zone,
                const when_cand *seen, int n, when_found *out, char *why,
                size_t wn) {
  int rc = offset_anchor(t, len, now, zone, seen, n, out, why, wn);
  if (rc >= 0) return rc;
  return day_anchor(t, len, now, zone, seen, n, out, why, wn);
}
