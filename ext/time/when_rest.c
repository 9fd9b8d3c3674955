/*
** when_rest.c -- the task a message asks for, once its time phrase is found
** (when.h's when_found_rest; docs/when.md "The rest"): "Remind me tomorrow
** at 9am to call Anna" -> "call Anna".
**
** What is cut:
**   - the phrase, and its second part when it had one;
**   - the sentences, and the clauses of the phrase's sentence, that are
**     about another time ("Party is Saturday at 8pm. Remind me Friday at
**     5pm to buy wine" -> "buy wine"), and those that are only greetings or
**     thanks ("Hey!", "Thanks so much!");
**   - in the phrase's sentence, what served the request: "remind me",
**     "can you", "please", "don't forget", "reminder:", then a "to",
**     "that" or "about" left at the head, and fillers ("so", "ok") there;
**   - a preposition left right before the phrase ("book the hall for
**     march 3rd" -> "book the hall");
**   - at every cut, the separators around it (blanks, , ; : - -> @, an
**     emptied pair of brackets or quotes), and symbols left at the head
**     ("⏰ tomorrow at 7am: gym 💪" -> "gym 💪").
** Everything else is the person's own words, kept as written.
*/
#include <string.h>

#include "text/ascii.h"
#include "time/when_msg.h"

#define CUTS_MAX 64

typedef struct rest {
  const char *t;
  size_t len;
  size_t cut_a[CUTS_MAX], cut_b[CUTS_MAX];
  int n;
  size_t sa, sb; /* the phrase's sentence */
} rest;

static void cut(rest *r, size_t a, size_t b) {
  if (a < b && r->n < CUTS_MAX) r->cut_a[r->n] = a, r->cut_b[r->n++] = b;
}

static int is_cut(const rest *r, size_t i) {
  for (int k = 0; k < r->n; k++)
    if (i >= r->cut_a[k] && i < r->cut_b[k]) return 1;
  return 0;
}

static int word_cut(const rest *r, size_t a, size_t b) {
  return b > a && is_cut(r, a) && is_cut(r, b - 1);
}

static const char *const greetings[] = {
    "hey",  "hi",    "hello", "thanks",  "thank",   "you",     "so",
    "much", "ok",    "okay",  "cheers",  "thx",     "ty",      "please",
    "pls",  "yo",    "heya",  "great",   "cool",    "awesome", "lol",
    "haha", "bom",   "dia",   "namaste", "morning", "good",    "a",
    "lot",  "many",  "in",    "advance", "again",   "very",    "mate",
    "x",    "xx",    "xo",    "sorry",   "oh",      "ah",      "hmm",
    "btw",  "anyway"};

static const char *const head_words[] = {"to", "2", "that", "about", "of"};
static const char *const head_fillers[] = {
    "so",     "and",  "then",   "ok",  "okay", "also", "just",   "but",
    "anyway", "now",  "please", "pls", "plz",  "hey",  "hi",     "hello",
    "yo",     "heya", "oh",     "um",  "hmm",  "btw",  "alright"};
static const char *const preps[] = {"at",   "on", "in", "for",
                                    "from", "by", "to"};
static const char *const tail_fillers[] = {"please", "pls", "plz", "thanks",
                                           "thx"};

/* Only greetings and thanks in [a, b)? */
static int greeting_only(const char *t, size_t len, size_t a, size_t b) {
  size_t wa, wb;
  int words = 0;
  for (size_t i = a; when_next_word(t, len, i, &wa, &wb) && wa < b; i = wb) {
    if (!when_word_in(t, wa, wb, greetings, WHEN_COUNT(greetings))) return 0;
    words++;
  }
  return words > 0;
}

/* Does [a, b) name a time (outside the cuts): a clock, a day, a part of
** the day, or a number after "at"? */
static int holds_time(const rest *r, size_t a, size_t b) {
  static const char *const days[] = {
      "today",    "tomorrow", "tonight",   "monday",  "tuesday", "wednesday",
      "thursday", "friday",   "saturday",  "sunday",  "noon",    "midnight",
      "morning",  "evening",  "afternoon", "weekend", "tmrw",    "yesterday"};
  size_t wa, wb, pa = 0, pb = 0;
  for (size_t i = a; when_next_word(r->t, r->len, i, &wa, &wb) && wa < b;
       i = wb) {
    if (is_cut(r, wa)) continue;
    int digits = 0, colon = 0;
    for (size_t j = wa; j < wb; j++) {
      if (ascii_is_digit(r->t[j])) digits++;
      else if (r->t[j] == ':' && digits) colon = 1;
    }
    if (colon) return 1;
    if (digits && wb - wa > 2 &&
        (when_word_is(r->t + wb - 2, 2, "am") ||
         when_word_is(r->t + wb - 2, 2, "pm")))
      return 1;
    if (digits && pb > pa &&
        (when_word_eq(r->t, pa, pb, "at") || when_word_eq(r->t, pa, pb, "@")))
      return 1;
    if (when_word_in(r->t, wa, wb, days, WHEN_COUNT(days))) return 1;
    pa = wa, pb = wb;
  }
  return 0;
}

/* Sentences other than the phrase's, and clauses of its own, that are
** about another time or only greet. */
static void cut_other_parts(rest *r, size_t p2a, size_t p2b) {
  size_t s = 0;
  while (s < r->len) {
    size_t e = s;
    while (e < r->len && !when_sentence_end(r->t, r->len, e)) e++;
    size_t end = e < r->len ? e + 1 : e;
    int own = s <= r->sa && r->sa <= e;
    int holds2 = p2b > p2a && p2a >= s && p2a <= e;
    if (!own && !holds2 &&
        (greeting_only(r->t, r->len, s, e) || holds_time(r, s, e)))
      cut(r, s, end);
    s = end;
  }
  /* clauses of the phrase's sentence */
  for (size_t c = r->sa; c < r->sb;) {
    size_t ca, cb;
    when_clause(r->t, r->len, c, &ca, &cb);
    if (cb <= c) cb = c + 1;
    int holds_phrase = 0;
    for (size_t i = ca; i < cb && !holds_phrase; i++)
      if (is_cut(r, i) && i >= r->sa) holds_phrase = 1;
    if (!holds_phrase &&
        (holds_time(r, ca, cb) || greeting_only(r->t, r->len, ca, cb)))
      cut(r, ca, cb);
    c = cb + 1;
  }
}

/* Request markers of the phrase's sentence, and what they leave at the
** head of the task. */
static void cut_markers(rest *r, size_t pa) {
  size_t wa, wb;
  int head = 1;
  for (size_t i = r->sa;
       when_next_word(r->t, r->len, i, &wa, &wb) && wa < r->sb; i = wb) {
    if (is_cut(r, wa)) continue;
    size_t e = when_context_marker_at(r->t, r->len, wa, head);
    head = 0;
    if (e) {
      cut(r, wa, e);
      wb = e;
      head = 1;
    }
  }
  /* a preposition left right before the phrase */
  if (when_prev_word(r->t, r->len, pa, &wa, &wb) && wa >= r->sa &&
      !is_cut(r, wa) && when_word_in(r->t, wa, wb, preps, WHEN_COUNT(preps))) {
    int only_blanks = 1;
    for (size_t i = wb; i < pa; i++)
      if (!when_is_blank(r->t[i])) only_blanks = 0;
    if (only_blanks) cut(r, wa, wb);
  }
  /* the head of what is left: "to call Anna", "so call Anna" */
  for (int guard = 0; guard < 8; guard++) {
    size_t i = r->sa;
    while (when_next_word(r->t, r->len, i, &wa, &wb) && wa < r->sb &&
           word_cut(r, wa, wb))
      i = wb;
    if (!when_next_word(r->t, r->len, i, &wa, &wb) || wa >= r->sb) break;
    int cut_before = 0;
    for (size_t j = r->sa; j < wa && !cut_before; j++)
      cut_before = is_cut(r, j);
    if (when_word_in(r->t, wa, wb, head_fillers, WHEN_COUNT(head_fillers)) ||
        (cut_before &&
         when_word_in(r->t, wa, wb, head_words, WHEN_COUNT(head_words))))
      cut(r, wa, wb);
    else break;
  }
  /* "please", "thanks" at the end */
  size_t last_a = 0, last_b = 0;
  for (size_t i = r->sa;
       when_next_word(r->t, r->len, i, &wa, &wb) && wa < r->sb; i = wb)
    if (!word_cut(r, wa, wb)) last_a = wa, last_b = wb;
  if (last_b > last_a && when_word_in(r->t, last_a, last_b, tail_fillers,
                                      WHEN_COUNT(tail_fillers)))
    cut(r, last_a, last_b);
}

/* ---- writing what is left ------------------------------------------------ */

enum { K_WORD, K_BLANK, K_PUNCT };

static int kind_at(const char *t, size_t len, size_t i, size_t *end) {
  if (when_is_blank(t[i])) {
    size_t e = i;
    while (e < len && when_is_blank(t[e])) e++;
    *end = e;
    return K_BLANK;
  }
  size_t n = when_sep_len(t, len, i);
  if (n) {
    *end = i + n;
    return K_PUNCT;
  }
  *end = when_chunk_end(t, len, i);
  if (*end == i) *end = i + 1;
  return K_WORD;
}

static int terminator(char ch) { return ch == '.' || ch == '!' || ch == '?'; }

/* An opening (open 1: ( [ { " ' « “ ‘) or closing (open 0: ) ] } " ' » ” ’)
** bracket or quote at byte i of t[0..len). */
static int bracket(const char *t, size_t len, size_t i, int open) {
  uint32_t cp;
  if (t[i] && strchr(open ? "([{\"'" : ")]}\"'", t[i])) return 1;
  if (!when_codepoint_at(t, len, i, &cp)) return 0;
  if (open) return cp == 0xab || cp == 0x201c || cp == 0x2018; /* « “ ‘ */
  return cp == 0xbb || cp == 0x201d || cp == 0x2019;           /* » ” ’ */
}

/* A word of symbols only (emoji): UTF-8 lead bytes E2 or F0..F4. */
static int symbol_word(const char *t, size_t a, size_t b) {
  for (size_t i = a; i < b; i++) {
    unsigned char u = (unsigned char)t[i];
    if (u < 0x80) return 0;
    if ((u & 0xc0) == 0x80) continue;
    if (u != 0xe2 && u < 0xf0) return 0;
  }
  return 1;
}

/* Is there a cut, or the text's edge, next to byte i across separators
** (dir -1: before i, +1: after)? */
static int at_cut(const rest *r, size_t i, int dir) {
  size_t end;
  if (dir < 0) {
    while (i > 0) {
      size_t j = i - 1;
      if (is_cut(r, j)) return 1;
      if (when_word_byte((unsigned char)r->t[j]) &&
          when_sep_len(r->t, r->len, j) == 0)
        return 0;
      if (terminator(r->t[j])) return 0;
      i = j;
    }
    return 0; /* the text's start: leading separators are dropped in emit */
  }
  while (i < r->len) {
    if (is_cut(r, i)) return 1;
    int k = kind_at(r->t, r->len, i, &end);
    if (k == K_WORD) return 0;
    if (terminator(r->t[i])) return 0;
    i = end;
  }
  return 1;
}

static size_t emit(rest *r, char *buf) {
  size_t o = 0, end, gap_a = 0, gap_b = 0;
  int gap = 0, cut_in_gap = 0, words = 0;
  int open = 0; /* brackets and quotes kept and not closed yet */
  for (size_t i = 0; i < r->len; i = end) {
    int k = kind_at(r->t, r->len, i, &end);
    if (is_cut(r, i) || k == K_BLANK) { /* what lies between kept pieces */
      if (!gap) gap_a = i;
      gap = 1, gap_b = end;
      if (is_cut(r, i)) cut_in_gap = 1;
      continue;
    }
    int closes = k == K_PUNCT && open > 0 && bracket(r->t, r->len, i, 0);
    if ((k == K_PUNCT && !terminator(r->t[i]) && !closes &&
         (at_cut(r, i, -1) || at_cut(r, end, +1))) || /* at a cut */
        (k == K_PUNCT && terminator(r->t[i]) && words == 0) ||
        (k == K_WORD && words == 0 && symbol_word(r->t, i, end)) ||
        (k == K_PUNCT && o == 0 && !bracket(r->t, r->len, i, 1))) {
      if (!gap) gap_a = i;
      gap = 1, gap_b = end, cut_in_gap = 1;
      continue;
    }
    if (gap && o > 0) {
      if (!cut_in_gap) { /* nothing cut: the blanks as written */
        memcpy(buf + o, r->t + gap_a, gap_b - gap_a);
        o += gap_b - gap_a;
      } else if (!(k == K_PUNCT &&
                   (terminator(r->t[i]) || strchr(",;:)]}", r->t[i])))) {
        buf[o++] = memchr(r->t + gap_a, '\n', gap_b - gap_a) ? '\n' : ' ';
      }
    }
    gap = cut_in_gap = 0;
    if (closes) open--;
    else if (k == K_PUNCT && bracket(r->t, r->len, i, 1)) open++;
    memcpy(buf + o, r->t + i, end - i);
    o += end - i;
    if (k == K_WORD) words++;
  }
  while (o > 0 &&
         (when_is_blank(buf[o - 1]) || strchr(",;:-([{@#", buf[o - 1])))
    o--;
  if (words == 0) o = 0;
  buf[o] = 0;
  return o;
}

size_t when_found_rest(const char *text, size_t len, const when_found *f,
                       char *buf) {
  rest r;
  memset(&r, 0, sizeof r);
  r.t = text, r.len = len;
  if (!text || f->end <= f->start || f->end > len) {
    buf[0] = 0;
    return 0;
  }
  cut(&r, f->start, f->end);
  if (f->end2 > f->start2 && f->end2 <= len) cut(&r, f->start2, f->end2);
  when_sentence(text, len, f->start, &r.sa, &r.sb);
  cut_other_parts(&r, f->start2, f->end2);
  size_t first =
      f->end2 > f->start2 && f->start2 < f->start ? f->start2 : f->start;
  cut_markers(&r, first);
  if (f->end2 > f->start2)
    cut_markers(&r, first == f->start ? f->start2 : f->start);
  return emit(&r, buf);
}

size_t when_find_rest(const char *text, size_t len, size_t start, size_t end,
                      char *buf) {
  when_found f;
  memset(&f, 0, sizeof f);
  f.start = start, f.end = end;
  return when_found_rest(text, len, &f, buf);
}
