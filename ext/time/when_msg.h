/*
** when_msg.h -- a message as the finder (when_find.c, when_rest.c) reads it:
** its characters (a code point, an apostrophe: read within the text's
** length, as the text need not end in a NUL), words, sentences and clauses
** of any text, found by scanning the bytes around a position (nothing is
** allocated, so a 16 KiB message needs no table), what one word is
** (when_words.c) and what the words around a phrase say (when_context.c).
** Internal to the time-phrase reader; docs/when.md "Finding a phrase in a
** message" is the manual.
*/
#ifndef TRIGGERS_WHEN_MSG_H
#define TRIGGERS_WHEN_MSG_H

#include <stddef.h>

#include "time/when_int.h"

/* ---- words (when_msg.c) --------------------------------------------------- */

/* A word ("chunk"): ASCII letters and digits and non-ASCII characters
** other than punctuation, glued by the joiners of "9:30", "12/25", "2.5",
** "a.m.", "tomorrow's", "9am-5pm". */
size_t when_chunk_end(const char *t, size_t len, size_t i);
/* Start of the next chunk at or after i, or len. */
size_t when_chunk_next(const char *t, size_t len, size_t i);
/* Bytes of a separator at i (0 inside a word). */
size_t when_sep_len(const char *t, size_t len, size_t i);
/* A byte of a word, seen alone. */
int when_word_byte(unsigned char ch);

/* The word before byte pos / at or after byte pos, [*a, *b); 0 when none
** (or when a sentence ends in between and stop_at_sentence). */
int when_prev_word(const char *t, size_t len, size_t pos, size_t *a, size_t *b);
int when_next_word(const char *t, size_t len, size_t pos, size_t *a, size_t *b);

/* Is the word [a, b) one of the list (ASCII case ignored)? */
int when_word_in(const char *t, size_t a, size_t b, const char *const *list,
                 int count);
int when_word_eq(const char *t, size_t a, size_t b, const char *w);

/* Sentence / clause bounds around byte pos: [*a, *b). A sentence ends at
** . ! ? ; or a line break (not the dots of "2.5" or "a.m."); a clause also
** at , : ( ) and dashes, and before "but", "so", "because". */
void when_sentence(const char *t, size_t len, size_t pos, size_t *a, size_t *b);
void when_clause(const char *t, size_t len, size_t pos, size_t *a, size_t *b);
/* Is byte i a sentence's end / a clause's? */
int when_sentence_end(const char *t, size_t len, size_t i);
int when_clause_end(const char *t, size_t len, size_t i);

/* Does the text [a, b) hold a word of the list, outside [xa, xb)?
** Returns the word's start + 1, or 0. Phrases of several words ("make sure")
** are matched word by word. */
size_t when_find_word(const char *t, size_t len, size_t a, size_t b, size_t xa,
                      size_t xb, const char *const *list, int count);

/* ---- what a word is (when_words.c) ------------------------------------------ */

/* "3ish", "9am-ish", "tomorrow-ish" (not "publish"). */
int when_ish_word(const char *t, size_t a, size_t b);
/* Is [a, b) time-like: a clock ("9:30", "5pm", "9am-ish"), a day, a part
** of the day, a unit of time, an end of day ("eod", "sunrise")? */
int when_time_like(const char *t, size_t a, size_t b);
/* A date in numbers the grammar does not read ("2025/03/07",
** "07.03.2025"; after_on: "on 7.3.25"). */
int when_numeric_date(const char *t, size_t len, size_t a, size_t b,
                      int after_on);
/* "1st", "22nd" ... */
int when_ordinal_word(const char *t, size_t a, size_t b);
/* "first", "twelfth", "twenty-first", "thirtieth" */
int when_ordinal_in_words(const char *t, size_t a, size_t b);
/* A day said of the word after it: "5th", "first" ... "last", "day", a
** time-like word. */
int when_day_of_word(const char *t, size_t a, size_t b);
/* A month's full name other than "may". */
int when_month_name_at(const char *t, size_t a, size_t b);
/* A number in words of two letters or more ("two"; not "a"). */
int when_number_word(const char *t, size_t a, size_t b);
/* A unit of time ("hours", "wk", "months"). */
int when_unit_word(const char *t, size_t a, size_t b);
/* A duration at [a, b): "a week", "5 days", "the next 3 days". */
int when_duration_at(const char *t, size_t len, size_t a, size_t b);
/* "close of business" starting at [a, b) (dir +1) or ending there (-1). */
int when_business_end(const char *t, size_t len, size_t a, size_t b, int dir);

/* ---- what the words say (when_context.c) ---------------------------------- */

enum {
  CTX_OK,     /* nothing against the phrase */
  CTX_WEAK,   /* not a time in running text: no reason worth giving */
  CTX_REFUSED /* a time, but not one to schedule: reason set */
};

typedef struct when_cand {
  size_t a, b;     /* bytes of the phrase */
  when_result r;   /* its reading */
  when_form form;  /* the parsed form (form -1: ISO-8601) */
  size_t ca, cb;   /* its clause(s) */
  size_t sa, sb;   /* its sentence */
  int request;     /* in a request ("remind me", an imperative) */
  int marker_next; /* right after or before the request's marker */
} when_cand;

/* The hints the sentence around byte pos gives the reader. */
void when_context_hints(const char *t, size_t len, size_t pos,
                        when_hints *hints);

/* The end of the reason of a candidate that is one of two alternatives
** ("tomorrow or friday"). */
#define WHEN_WHY_ALTERNATIVE "is one of two alternatives: which one is meant?"

/* Judge a candidate in its message: CTX_OK, CTX_WEAK, or CTX_REFUSED with
** why set. Fills c's clause, sentence, request fields. */
int when_context_judge(const char *t, size_t len, when_cand *c, char *why,
                       size_t n);

/* A reason for a message in which no phrase was taken: its vague or
** event-bound words ("in a bit", "after work"), or NULL. */
const char *when_context_vague(const char *t, size_t len);

/* Does [a, b) hold a request's marker ("remind", "ping me", "can you")? */
int when_context_asks(const char *t, size_t len, size_t a, size_t b);

/* ---- a time said relative to another (when_anchor.c) ----------------------- */

/* seen[]: the phrases the reader accepted in the message. 0: the message
** says a time relative to one of them ("15 minutes before", "at 1pm that
** day"), read into out; 1: it does, but which time is unclear (why set);
** -1: it does not. */
int when_anchor(const char *t, size_t len, int64_t now, const tz_zone *zone,
                const when_cand *seen, int n, when_found *out, char *why,
                size_t wn);

/* clock: the request's clock time alone, read into out as today's or
** tomorrow's. When another time of seen[] (the phrases nothing in the
** message refused: not "last friday was fun") names a day ("I have a meeting
** at 3pm tomorrow, remind me at 2pm"), the clock time is on that day:
** 0 read into out, 1 refused (why: it falls after that time, or two such
** times), -1 nothing to change. */
int when_anchor_day(const char *t, size_t len, int64_t now, const tz_zone *zone,
                    const when_cand *seen, int n, const when_cand *clock,
                    when_found *out, char *why, size_t wn);

/* Does a request marker the rest drops ("remind me", "can you") start at
** byte a? Returns its end, or 0. at_head: a is the first word left of its
** sentence ("Reminder: ..."). */
size_t when_context_marker_at(const char *t, size_t len, size_t a, int at_head);

#endif
