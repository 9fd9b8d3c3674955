/*
** when.h -- English temporal phrases ("tomorrow at 9am", "in 2 hours",
** "every weekday at 8:30") -> a schedule plus a confidence, following the
** grammar, resolution rules, confidence table and recurring table
** of docs/when.md.
**
** Pure: no SQLite, no clock (the caller passes `now`), no files, no
** allocation; everything lands in the caller's when_result. Deterministic:
** the same phrase, now and zone give the same result.
**
** The whole phrase must be understood. Nothing is extracted from the
** middle of a sentence: "after the meeting tomorrow" is rejected, not read
** as "tomorrow". A rejected phrase (vague, in the past, invalid fields,
** words the grammar does not know) gets kind WHEN_NONE, confidence 0 and a
** reason that says why.
*/
#ifndef TRIGGERS_WHEN_H
#define TRIGGERS_WHEN_H

#include <stddef.h>
#include <stdint.h>

#include "time/tz.h"

#define WHEN_PHRASE_MAX 200 /* longer input is rejected */
#define WHEN_REASON_MAX 200
#define WHEN_CRON_MAX 48
#define WHEN_TZ_MAX 72
#define WHEN_TAGS_MAX 8
#define WHEN_RRULE_MAX 128

typedef enum when_kind {
  WHEN_NONE = 0,     /* rejected: see reason */
  WHEN_ONCE = 1,     /* one instant: due_at */
  WHEN_INTERVAL = 2, /* every interval_ms, first at due_at = now + interval */
  WHEN_CRON = 3,     /* cron text evaluated in tz; due_at = first firing */
  WHEN_RRULE = 4     /* RFC 5545 rule in tz from start_at; due_at = start_at */
} when_kind;

typedef struct when_result {
  when_kind kind;
  int64_t due_at;           /* UTC ms (kind != WHEN_NONE) */
  int64_t interval_ms;      /* WHEN_INTERVAL, else 0 */
  char cron[WHEN_CRON_MAX]; /* WHEN_CRON: 5 fields, or 6 when seconds != 0 */
  char tz[WHEN_TZ_MAX];     /* the zone the phrase was read in (tz_name) */
  /* WHEN_RRULE: the RECUR value ("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;
  ** BYHOUR=9;BYMINUTE=0;BYSECOND=0"), its DTSTART (UTC ms: the first
  ** occurrence, whose wall-clock time in tz anchors INTERVAL), and whether
  ** the phrase excepts holidays ("except holidays": the caller names the
  ** calendar, config default_calendar, docs/when.md#calendar-rules). */
  char rrule[WHEN_RRULE_MAX];
  int64_t start_at;
  int holidays;
  double
      confidence; /* 0 when rejected, else 0.5 .. 1 (docs/when.md#confidence) */
  /* Components not stated in the phrase but filled in: "year", "month",
  ** "day", "time" (R8's time_implied), "meridiem" (bare hour after "at"). */
  const char *implied[WHEN_TAGS_MAX];
  int n_implied;
  /* What happened on the way: "dst_shifted", "dst_repeated",
  ** "rolled_forward", "month_clamped", "zone_named",
  ** "next_weekday_ambiguous", "this_weekday_today",
  ** "midnight_start_of_day", "short_months_skipped". */
  const char *flags[WHEN_TAGS_MAX];
  int n_flags;
  /* The normalized phrase (lower-case, blanks collapsed, dots after words
  ** dropped) when accepted; "" when rejected. */
  char matched[WHEN_PHRASE_MAX + 1];
  char reason[WHEN_REASON_MAX]; /* "" when accepted */
} when_result;

/*
** Read `phrase` at reference instant now_ms (UTC ms) in zone `zone` (NULL
** means UTC). Returns 0 when the phrase was understood (out->kind set,
** confidence > 0), -1 when rejected (kind WHEN_NONE, confidence 0, reason
** set). Never reads anything but its arguments.
*/
int when_parse(const char *phrase, int64_t now_ms, const tz_zone *zone,
               when_result *out);

/*
** Finding the time a message means ("remind me tomorrow at 9am to call
** Anna"): trigger_find_when, docs/when.md "Finding a phrase in a message".
** Candidates are the longest runs of 1..WHEN_FIND_WORDS_MAX words the
** reader accepts, read with the hints of their sentence ("dinner at 8" is
** 20:00); each is then judged in its clause: past tense, narration,
** questions, cancellations, hedges ("around", "by"), numbers that are not
** times and time-like words the phrase did not read refuse it. The time of
** a request ("remind me", an imperative) beats a time in a statement; two
** different times left are refused, a day and a clock time apart in one
** sentence are read together. Work is bounded: at most WHEN_FIND_TEXT_MAX
** bytes, WHEN_FIND_WORDS_MAX words and WHEN_PHRASE_MAX bytes per
** candidate, so at most (words x WHEN_FIND_WORDS_MAX) parses.
*/
#define WHEN_FIND_TEXT_MAX 16384 /* longer text: confidence 0, reason */
#define WHEN_FIND_WORDS_MAX 12

typedef struct when_found {
  when_result r; /* the phrase's reading, or WHEN_NONE + reason */
  size_t start;  /* byte offsets [start, end) of the phrase in text */
  size_t end;
  size_t cp_start; /* the same as Unicode code point offsets */
  size_t cp_end;
  /* A second part read with it ("tomorrow" in "tomorrow remind me at
  ** 6:15"): byte offsets, or 0, 0. */
  size_t start2;
  size_t end2;
} when_found;

/*
** Find the time text[0..len) means (any bytes; the phrase itself is
** ASCII). Returns 0 when found (out->r accepted, span set), -1 when not
** (out->r.kind WHEN_NONE, confidence 0, a reason that says why; span 0, 0).
*/
int when_find(const char *text, size_t len, int64_t now_ms, const tz_zone *zone,
              when_found *out);

/*
** The task the message asks for, as a person would write it (docs/when.md
** "The rest"): the message without the phrase (and its second part) and
** without what only served the request: "remind me", "please", "can you",
** "don't forget to", the "to" after them, a preposition left before the
** phrase, greetings and thanks, and the sentences or clauses about another
** time ("the dentist is on friday at 3pm, remind me ..."). buf must hold
** len + 1 bytes; returns the length written (NUL added).
*/
size_t when_found_rest(const char *text, size_t len, const when_found *f,
                       char *buf);
/* The same for a phrase at text[start..end) alone. */
size_t when_find_rest(const char *text, size_t len, size_t start, size_t end,
                      char *buf);

/* "once", "interval", "cron" or NULL for WHEN_NONE. */
const char *when_kind_name(when_kind k);

#endif
