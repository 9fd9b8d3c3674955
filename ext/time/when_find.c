/*
** when_find.c -- when_find: the time phrase a message means (when.h,
** docs/when.md "Finding a phrase in a message").
**
**   1. Candidates: from each word, the longest run of 1..WHEN_FIND_WORDS_MAX
**      words that the reader (when_read) accepts, read with the hints its
**      sentence gives (am/pm words, a timer). A run it understood but
**      refused (in the past, an invalid field, a calendar rule, am or pm
**      untold) is kept as a refusal, and no piece of it is read again:
**      "every other friday at 9am" is never "friday at 9am".
**   2. Context (when_context.c): each candidate is judged in its clause and
**      sentence: refused (past, vague, a deadline, a question, a
**      cancellation, an unread time-like word next to it), weak (not a time
**      in running text: "John 3:16", "for now"), or kept, and marked when
**      it is the time of a request ("remind me ...", an imperative).
**   3. The phrase meant: the request's candidates when there are any (a
**      refused request refuses the message: the statement next to it is
**      not what was asked), else the others. One left is the answer; a day
**      and a clock time apart in one sentence ("tomorrow ... at 6:15") are
**      read together, also a day in a clause before the request's clock time
**      ("tomorrow, call mom at 9pm"), or refused together; two different
**      times are refused, with both named.
*/
#include <stdio.h>
#include <string.h>

#include "text/ascii.h"
#include "time/when_msg.h"

#define CANDS_MAX 16

typedef struct finder {
  const char *t;
  size_t len;
  int64_t now;
  const tz_zone *zone;
  when_cand cands[CANDS_MAX];
  int n;
  char why[WHEN_REASON_MAX];     /* the first refusal, if any */
  char why_req[WHEN_REASON_MAX]; /* the first refusal in a request */
  size_t ref_a[CANDS_MAX], ref_b[CANDS_MAX]; /* refused single words */
  int n_ref;
  size_t other_a[CANDS_MAX], other_s[CANDS_MAX]; /* times refused for an */
  int n_other;                                   /* unread word next to them */
  when_cand seen[CANDS_MAX]; /* every phrase the reader accepted */
  int n_seen;
  /* Refused candidates that still bear on a time beside them, each with
  ** its reason in r.reason (keep_refused): days alone that still name the
  ** day of a clock time (day_binds), and clock times alone the reader
  ** refused (am or pm?) in a clause that took them as times. */
  when_cand refused[2 * CANDS_MAX];
  int n_refused;
  when_hints hints; /* of the sentence [hint_a, hint_b) */
  size_t hint_a, hint_b;
} finder;

/* Between two words of one phrase: only what the reader reads (and the
** apostrophe after a plural s: "in 3 days' time"). */
static int gap_ok(const char *t, size_t a, size_t b) {
  if (a > 0 && (t[a - 1] == 's' || t[a - 1] == 'S'))
    a += when_apostrophe_len(t, b, a); /* read no further than the gap */
  for (size_t i = a; i < b; i++)
    if (!when_is_blank(t[i]) && (!t[i] || !strchr(",.+-@", t[i]))) return 0;
  return 1;
}

static size_t code_points(const char *t, size_t n) {
  size_t c = 0;
  for (size_t i = 0; i < n; i++)
    if (((unsigned char)t[i] & 0xc0) != 0x80) c++;
  return c;
}

/* The hints of the sentence holding byte pos (computed once per sentence). */
static const when_hints *hints_at(finder *f, size_t pos) {
  if (pos < f->hint_a || pos >= f->hint_b) {
    when_sentence(f->t, f->len, pos, &f->hint_a, &f->hint_b);
    f->hint_b++; /* include the terminator */
    when_context_hints(f->t, f->len, pos, &f->hints);
    f->hints.quiet = 1;
  }
  return &f->hints;
}

/* Read text[a..b) as a phrase. 0: accepted (c filled); 1: understood but
** refused (reason in c->r); -1: not a phrase. */
static int read_span(finder *f, size_t a, size_t b, when_cand *c) {
  char buf[WHEN_PHRASE_MAX + 1];
  when_parser p;
  int understood;
  memcpy(buf, f->t + a, b - a);
  buf[b - a] = 0;
  memset(c, 0, sizeof *c);
  c->a = a, c->b = b;
  if (when_read(buf, f->now, f->zone, hints_at(f, a), &c->r, &p, &c->form,
                &understood) == 0)
    return 0;
  return understood ? 1 : -1;
}

static int day_only(const when_cand *c) {
  const when_form *p = &c->form;
  return p->form == F_GENERAL && p->day.kind != D_NONE && !p->clock.has;
}

static int clock_only(const when_cand *c) {
  const when_form *p = &c->form;
  return p->form == F_GENERAL && p->clock.has && p->day.kind == D_NONE &&
         p->part == P_NONE;
}

/* A day alone, refused, that still names the day of a clock time said
** beside it: one of two alternatives ("tomorrow or friday, call at 9am"),
** or today's part already past ("this morning, remind me at 9am"). Not a
** statement about another day ("I went there yesterday"). */
static int day_binds(const when_cand *c, const char *why, int parsed) {
  const day_spec *d = &c->form.day;
  if (!day_only(c) || c->sb <= c->sa) return 0;
  if (parsed) return d->kind == D_REL && d->rel == 0;
  return strstr(why, WHEN_WHY_ALTERNATIVE) != NULL;
}

/* Keep a refused candidate in f->refused with its reason: room for
** CANDS_MAX days and CANDS_MAX clock times. */
static void keep_refused(finder *f, const when_cand *c, const char *why) {
  int kind = 0;
  for (int i = 0; i < f->n_refused; i++)
    kind += day_only(&f->refused[i]) == day_only(c);
  if (kind == CANDS_MAX) return;
  f->refused[f->n_refused] = *c;
  snprintf(f->refused[f->n_refused++].r.reason, WHEN_REASON_MAX, "%s", why);
}

/* The first refused candidate of a kind (day_only, clock_only) in the
** sentence starting at byte sa, or NULL. */
static const when_cand *refused_in(const finder *f, size_t sa,
                                   int (*kind)(const when_cand *)) {
  for (int i = 0; i < f->n_refused; i++)
    if (f->refused[i].sa == sa && kind(&f->refused[i])) return &f->refused[i];
  return NULL;
}

/* Keep the first refusal's reason (and the first in a request). A phrase
** the reader refused (parsed: reason in c->r) is judged in its message
** first: not a time there ("John 3:16") gives no reason, and the context's
** reason ("tells of the past") says more than the reader's. */
static void note_refusal(finder *f, when_cand *c, const char *why, int parsed) {
  char ctx[WHEN_REASON_MAX];
  int clock = 0; /* "at 8 o'clock sharp tomorrow": am or pm? */
  if (parsed) {
    int v = when_context_judge(f->t, f->len, c, ctx, sizeof ctx);
    if (v == CTX_WEAK) return;
    if (v == CTX_REFUSED) why = ctx;
    clock = v == CTX_OK && clock_only(c);
  }
  /* kept with the reason given (an alternative's is the context's) */
  if (clock || day_binds(c, why, parsed)) keep_refused(f, c, why);
  if (!f->why[0]) snprintf(f->why, sizeof f->why, "%s", why);
  if (c->request && !f->why_req[0])
    snprintf(f->why_req, sizeof f->why_req, "%s", why);
}

/* Candidates from the words starting at a: the longest accepted run, or a
** refusal. Returns the end of what it covers (nothing starts inside it): a
** refused run covers all of its words ("every other friday at 9am" is not
** read again as "friday at 9am"), unless its first word alone is refused
** ("1:1", "13pm"): then that word is, and a phrase right next to it is
** refused with it (refused_next). */
static size_t candidates_at(finder *f, size_t a) {
  size_t ends[WHEN_FIND_WORDS_MAX];
  int n = 0;
  size_t s = a; /* "+2h": the sign belongs to the phrase */
  if (s > 0 && f->t[s - 1] == '+' &&
      (s == 1 || !when_word_byte((unsigned char)f->t[s - 2])))
    s--;
  for (size_t e = when_chunk_end(f->t, f->len, a);;) {
    if (e - s > WHEN_PHRASE_MAX) break;
    ends[n++] = e;
    size_t next = when_chunk_next(f->t, f->len, e);
    if (n == WHEN_FIND_WORDS_MAX || next >= f->len || !gap_ok(f->t, e, next))
      break;
    e = when_chunk_end(f->t, f->len, next);
  }
  for (int k = n - 1; k >= 0; k--) {
    when_cand c;
    char why[WHEN_REASON_MAX];
    int rc = read_span(f, s, ends[k], &c);
    if (rc < 0) continue;
    if (rc > 0) {
      int one = k == 0;
      if (!one) { /* is the first word alone refused the same way? */
        when_cand c1;
        one = read_span(f, s, ends[0], &c1) > 0 &&
              strcmp(c1.r.reason, c.r.reason) == 0;
      }
      note_refusal(f, &c, c.r.reason, 1);
      if (one && f->n_ref < CANDS_MAX) {
        f->ref_a[f->n_ref] = s, f->ref_b[f->n_ref++] = ends[0];
        return ends[0];
      }
      return ends[k];
    }
    int v = when_context_judge(f->t, f->len, &c, why, sizeof why);
    if (v != CTX_WEAK && f->n_seen < CANDS_MAX) f->seen[f->n_seen++] = c;
    if (v == CTX_REFUSED) note_refusal(f, &c, why, 0);
    if (v == CTX_REFUSED && strncmp(why, "cannot read", 11) == 0 &&
        f->n_other < CANDS_MAX) { /* still a time the message names */
      f->other_a[f->n_other] = c.a, f->other_s[f->n_other++] = c.sa;
    }
    if (v == CTX_OK && f->n < CANDS_MAX) f->cands[f->n++] = c;
    return ends[k];
  }
  return 0;
}

/* Is the candidate right after a refused word ("13pm tomorrow"), or right
** before one it leads to ("tomorrow at 13pm")? Only blanks, commas, "at"
** and "on" between. */
static int refused_next(const finder *f, const when_cand *c) {
  for (int i = 0; i < f->n_ref; i++) {
    int before = f->ref_b[i] <= c->a;
    size_t x = before ? f->ref_b[i] : c->b;
    size_t y = before ? c->a : f->ref_a[i];
    if (y < x) continue;
    if (!before) { /* after the phrase: only when "at" or "on" leads to it */
      size_t wa, wb;
      if (!when_next_word(f->t, f->len, x, &wa, &wb) || wa >= y ||
          !(when_word_eq(f->t, wa, wb, "at") ||
            when_word_eq(f->t, wa, wb, "on")))
        continue;
    }
    int ok = 1;
    size_t wa, wb;
    for (size_t j = x; j < y && ok; j++)
      if (!when_is_blank(f->t[j]) && f->t[j] != ',' &&
          !when_word_byte((unsigned char)f->t[j]))
        ok = 0;
    for (size_t j = x;
         ok && when_next_word(f->t, f->len, j, &wa, &wb) && wa < y; j = wb)
      if (!when_word_eq(f->t, wa, wb, "at") &&
          !when_word_eq(f->t, wa, wb, "on"))
        ok = 0;
    if (ok) return 1;
  }
  return 0;
}

static int same_schedule(const when_result *x, const when_result *y) {
  return x->kind == y->kind && x->due_at == y->due_at &&
         x->interval_ms == y->interval_ms && strcmp(x->cron, y->cron) == 0;
}

/* "tomorrow ... at 6:15": a day and a clock time apart in one sentence,
** read as one phrase. 0 when read (into out); 1 when the two are
** understood together but refused ("this morning ... at 9am" when 9am is
** past, "tomorrow morning ... at 9pm"): the reason is in f->why; -1 when
** they are not a day and a clock time of one sentence. */
static int merge(finder *f, const when_cand *x, const when_cand *y,
                 when_found *out) {
  const when_cand *d = day_only(x) ? x : y, *k = d == x ? y : x;
  char buf[2 * WHEN_PHRASE_MAX + 2];
  when_parser p;
  when_form form;
  when_result r;
  int understood;
  if (!(day_only(d) && clock_only(k)) || x->sa != y->sa) return -1;
  snprintf(buf, sizeof buf, "%.*s %.*s", (int)(d->b - d->a), f->t + d->a,
           (int)(k->b - k->a), f->t + k->a);
  if (strlen(buf) > WHEN_PHRASE_MAX) return -1;
  if (when_read(buf, f->now, f->zone, hints_at(f, k->a), &r, &p, &form,
                &understood) != 0) {
    if (!understood) return -1;
    snprintf(f->why, sizeof f->why, "'%.60s': %.130s", buf, r.reason);
    return 1;
  }
  out->r = r;
  if (out->r.confidence > 0.85) out->r.confidence = 0.85;
  out->start = k->a, out->end = k->b;
  out->start2 = d->a, out->end2 = d->b;
  return 0;
}

/* Two different times named: refuse, naming both. */
static int two_times(finder *f, const when_cand *x, const when_cand *y) {
  snprintf(f->why, sizeof f->why,
           "two times in the message, '%.*s' and '%.*s': which one is meant?",
           (int)(x->b - x->a > 40 ? 40 : x->b - x->a), f->t + x->a,
           (int)(y->b - y->a > 40 ? 40 : y->b - y->a), f->t + y->a);
  return -1;
}

/* The one candidate of the tier meant (*picked, NULL when two were read
** together), or a refusal reason. */
static int choose(finder *f, when_cand **tier, int n, when_found *out,
                  const when_cand **picked) {
  int k = 0, n_said = n, rc;
  *picked = NULL;
  /* a day and a clock time, also when they agree ("this morning ... at 9") */
  if (n == 2 && (rc = merge(f, tier[0], tier[1], out)) >= 0) return -rc;
  for (int i = 1; i < n; i++) /* the same schedule said twice is one */
    if (!same_schedule(&tier[i]->r, &tier[k]->r)) tier[++k] = tier[i];
  n = k + 1;
  if (n == 2 && n_said > 2 && (rc = merge(f, tier[0], tier[1], out)) >= 0)
    return -rc;
  int nexts = 0, pick = 0;
  for (int i = 0; i < n; i++)
    if (tier[i]->marker_next) nexts++, pick = i;
  if (n == 1 || nexts == 1) {
    out->r = tier[pick]->r;
    out->start = tier[pick]->a, out->end = tier[pick]->b;
    *picked = tier[pick];
    return 0;
  }
  return two_times(f, tier[0], tier[1]);
}

/* "tomorrow, call mom at 9pm": the request's time is a clock time alone,
** and its sentence names a day outside the request: the two are read
** together (or refused together); two different days are refused. */
static int day_beside(finder *f, const when_cand *clock, when_cand **other,
                      int no, when_found *out) {
  const when_cand *day = NULL;
  for (int i = 0; i < no; i++) {
    if (!day_only(other[i]) || other[i]->sa != clock->sa) continue;
    if (day && !same_schedule(&day->r, &other[i]->r))
      return two_times(f, day, other[i]);
    if (!day) day = other[i];
  }
  if (!day) { /* a day refused alone: "this morning ... at 11am" */
    day = refused_in(f, clock->sa, day_only);
    if (day && strstr(day->r.reason, WHEN_WHY_ALTERNATIVE)) {
      snprintf(f->why, sizeof f->why, "%s", day->r.reason);
      return -1;
    }
  }
  if (!day) return 0;
  when_found merged = *out;
  int rc = merge(f, day, clock, &merged);
  if (rc == 1) return -1;
  if (rc == 0) *out = merged;
  return 0;
}

/* The answer is a day alone, and its sentence has a clock time the reader
** refused ("remind me at 8 o'clock sharp tomorrow": am or pm?): the day
** alone is not what was asked. 1 (why set) when so. */
static int clock_refused(finder *f, const when_cand *day) {
  const when_cand *clock = refused_in(f, day->sa, clock_only);
  if (clock) snprintf(f->why, sizeof f->why, "%s", clock->r.reason);
  return clock != NULL;
}

/* Only blanks between bytes x and y? */
static int blanks_only(const char *t, size_t x, size_t y) {
  for (size_t i = x; i < y; i++)
    if (!when_is_blank(t[i])) return 0;
  return 1;
}

/* Another phrase right next to the answer, with only blanks between: the
** two are one longer phrase the reader could not read as a whole ("next
** year on march 3 at 9am"). 1 (why set) when there is one. */
static int abutted(finder *f, const when_found *out) {
  for (int i = 0; i < f->n; i++) {
    const when_cand *c = &f->cands[i];
    size_t a = c->a, b = c->b;
    if (a == out->start || (out->end2 > out->start2 && a == out->start2))
      continue; /* the answer itself */
    size_t x = b <= out->start ? b : out->end,
           y = b <= out->start ? out->start : a;
    if (y < x || !blanks_only(f->t, x, y)) continue;
    size_t s = a < out->start ? a : out->start, e = b > out->end ? b : out->end;
    snprintf(f->why, sizeof f->why,
             "cannot read '%.*s' as one time: say the whole time plainly",
             (int)(e - s > 60 ? 60 : e - s), f->t + s);
    return 1;
  }
  return 0;
}

static int not_found(when_found *out, int64_t now, const tz_zone *zone,
                     const char *why) {
  size_t n = strlen(why);
  when_parse("", now, zone, &out->r);
  if (n >= sizeof out->r.reason) n = sizeof out->r.reason - 1;
  memcpy(out->r.reason, why, n);
  out->r.reason[n] = 0;
  out->start = out->end = out->start2 = out->end2 = 0;
  return -1;
}

int when_find(const char *text, size_t len, int64_t now_ms, const tz_zone *zone,
              when_found *out) {
  finder local;
  finder *fp = &local;
  memset(out, 0, sizeof *out);
  if (!text) text = "", len = 0;
  if (len > WHEN_FIND_TEXT_MAX) {
    char why[64];
    snprintf(why, sizeof why, "text is longer than %d bytes",
             WHEN_FIND_TEXT_MAX);
    return not_found(out, now_ms, zone, why);
  }
  memset(fp, 0, sizeof *fp);
  fp->t = text, fp->len = len, fp->now = now_ms, fp->zone = zone;
  size_t covered = 0; /* no candidate starts inside an earlier one */
  for (size_t a = when_chunk_next(text, len, 0); a < len;
       a = when_chunk_next(text, len, when_chunk_end(text, len, a))) {
    if (a < covered) continue;
    size_t e = candidates_at(fp, a);
    if (e > covered) covered = e;
  }
  when_cand *req[CANDS_MAX], *other[CANDS_MAX];
  int nr = 0, no = 0, rc;
  rc = when_anchor(text, len, now_ms, zone, fp->seen, fp->n_seen, out, fp->why,
                   sizeof fp->why);
  if (rc == 1) return not_found(out, now_ms, zone, fp->why);
  if (rc == 0) goto found;
  for (int i = 0; i < fp->n; i++) {
    if (refused_next(fp, &fp->cands[i])) continue;
    if (fp->cands[i].request) req[nr++] = &fp->cands[i];
    else other[no++] = &fp->cands[i];
  }
  const when_cand *picked = NULL;
  if (nr) {
    rc = choose(fp, req, nr, out, &picked);
    if (rc == 0 && picked && clock_only(picked))
      rc = day_beside(fp, picked, other, no, out);
    if (rc == 0 && picked && clock_only(picked) && out->end2 == 0 &&
        when_anchor_day(text, len, now_ms, zone, fp->cands, fp->n, picked, out,
                        fp->why, sizeof fp->why) == 1)
      rc = -1; /* "I have a meeting at 3pm tomorrow, remind me at 2pm" */
  } else if (fp->why_req[0]) {
    return not_found(out, now_ms, zone, fp->why_req);
  } else if (no) {
    rc = choose(fp, other, no, out, &picked);
  } else {
    rc = -1;
  }
  if (rc == 0 && picked && day_only(picked) && clock_refused(fp, picked))
    rc = -1;
  if (rc == 0 && abutted(fp, out)) rc = -1;
  for (int i = 0; rc == 0 && i < fp->n_other; i++) {
    size_t sa, sb;
    when_sentence(text, len, out->start, &sa, &sb);
    if (fp->other_s[i] == sa &&
        (fp->other_a[i] < out->start || fp->other_a[i] >= out->end)) {
      snprintf(fp->why, sizeof fp->why,
               "more than one time in the message ('%.*s' and the one at "
               "byte %zu): which one is meant?",
               (int)(out->end - out->start > 40 ? 40 : out->end - out->start),
               text + out->start, fp->other_a[i]);
      rc = -1;
    }
  }
  if (rc != 0) {
    const char *why = fp->why[0] ? fp->why : when_context_vague(text, len);
    return not_found(out, now_ms, zone,
                     why ? why : "no time phrase found in the text");
  }
found:
  out->cp_start = code_points(text, out->start);
  out->cp_end =
      out->cp_start + code_points(text + out->start, out->end - out->start);
  return 0;
}
