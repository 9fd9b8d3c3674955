/*
** when_int.h -- what the files of the time-phrase reader share (not part of
** the module's interface, which is when.h). The reader is cut by concept:
**
**   when_lex.c      a phrase -> tokens; words normalized (case, dots,
**                   shorthand and typos: "tmrw", "thrusday", "2nite")
**   when_grammar.c  tokens -> the general one-time form (clock, day, part
**                   of day, zone)
**   when_duration.c durations ("in 2.5 hours", "2h15m")
**   when_once.c     which one-time form: now, a day count ("in 3 days at
**                   8am"), a duration, an anchor, the general form
**   when_recur.c    tokens -> a parsed recurring form (cron, interval), and
**                   the calendar rules it refuses ("every other tuesday")
**   when_recur_parts.c  ordinals, weekday lists, times: read by both
**                   recurring grammars
**   when_rrule.c    the calendar rules cron cannot say -> an RFC 5545
**                   rule form, and its RECUR value and first occurrence
**   when_resolve.c  a parsed form + now + zone -> instant(s), confidence
**   when_parse.c    when_parse: the steps above, and why a phrase failed
**   when_msg.c      a message -> words, sentences, clauses (when_find)
**   when_context.c  what the words around a phrase say: a request, the
**                   past, a question, a cancellation, a vague hedge
**   when_find.c     when_find: candidates, context, the phrase meant
**   when_rest.c     when_find_rest: the task without the phrase
**
** docs/when.md is the manual: the grammar, the rules, what is refused.
*/
#ifndef TRIGGERS_WHEN_INT_H
#define TRIGGERS_WHEN_INT_H

#include <stddef.h>
#include <stdint.h>

#include "time/civil.h"
#include "time/when.h"

#define WHEN_TOKENS_MAX 48
#define WHEN_NORM_MAX (2 * WHEN_PHRASE_MAX)
#define WHEN_COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))
#define WHEN_DAY_MS CIVIL_MS_PER_DAY
#define WHEN_HOUR_MS 3600000LL
#define WHEN_MIN_MS 60000LL

/* ---- tokens (when_lex.c) ------------------------------------------------- */

enum { T_INT, T_DEC, T_WORD, T_PUNCT };

typedef struct when_tok {
  int kind;
  const char *s; /* into the parser's norm, not NUL-terminated */
  int len;
  int value; /* T_INT; T_DEC: the whole part */
  int ndig;  /* T_INT: digits; T_DEC: digits after the point */
  int frac;  /* T_DEC: the digits after the point as a number */
  int glued; /* no blank before it */
} when_tok;

/* What the words around a phrase in a message tell the reader
** (when_find); when_parse reads a phrase alone with none. */
enum { HINT_NONE, HINT_AM, HINT_PM, HINT_DAYTIME };

typedef struct when_hints {
  int meridiem;    /* how to read a clock time without am/pm */
  int timer;       /* a duration without "in" is a timer's length: from now */
  int quiet;       /* no reason is needed for a phrase not understood */
  int month_first; /* the zone writes dates month first (US, Canada) */
} when_hints;

typedef struct when_parser {
  when_tok t[WHEN_TOKENS_MAX];
  int n, pos, far;
  int fatal; /* an invalid field was found: reason is final */
  char reason[WHEN_REASON_MAX];
  char norm[WHEN_NORM_MAX + 1];
  when_hints hints;
} when_parser;

int when_tokenize(when_parser *p, const char *phrase);
int when_fail(when_parser *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* token tests and moves */
int when_tok_word(const when_parser *p, int i, const char *w);
int when_tok_punct(const when_parser *p, int i, char ch);
int when_tok_int(const when_parser *p, int i, int maxdig);
int when_accept(when_parser *p, const char *w);
int when_accept_punct(when_parser *p, char ch);
void when_skip(when_parser *p, int k);
int when_at_end(const when_parser *p);

typedef struct when_name {
  const char *name;
  int v;
} when_name;

int when_lookup(const when_parser *p, int i, const when_name *tab, int n,
                int *v);
int when_accept_from(when_parser *p, const when_name *tab, int n, int *v);

/* A word (len bytes, lower case) rewritten to the grammar's spelling:
** shorthand and typos ("tmrw", "thrusday"); NULL when it is none. */
const char *when_canonical_word(const char *w, size_t len);

extern const when_name when_weekdays[];
extern const int when_n_weekdays;
extern const when_name when_months[];
extern const int when_n_months;
extern const char *const when_month_full[];
extern const when_name when_units[];
extern const int when_n_units;
extern const when_name when_numbers[];
extern const int when_n_numbers;
extern const int64_t when_unit_ms[];

enum { U_SEC, U_MIN, U_HOUR, U_DAY, U_WEEK, U_FORTNIGHT, U_MONTH, U_YEAR };

/* ---- parsed forms (when_grammar.c, when_recur.c) -------------------------- */

enum { CLK_CLOCK, CLK_BARE, CLK_NOON, CLK_MIDNIGHT };

typedef struct clock_spec {
  int has;
  int kind;
  int h, m, s;
  int ampm;       /* 0: not said, 1: am, 2: pm */
  int two_digit;  /* the hour was written with two digits ("07", "19") */
  int said_words; /* "half past 4", "quarter to 6", "3 o'clock" */
} clock_spec;

enum {
  D_NONE,
  D_REL,          /* today + rel */
  D_WEEKDAY,      /* the first such weekday still ahead */
  D_NEXT_WEEKDAY, /* that weekday in next week */
  D_WEEK_AFTER,   /* "friday next week": the same, said unambiguously */
  D_DATE,
  D_DOM
};

typedef struct day_spec {
  int kind;
  int rel;       /* D_REL: days from today */
  int wd;        /* weekdays: 0 = Sunday */
  int said_this; /* "this friday" */
  int wd_check;  /* a weekday said with a date ("friday the 14th"), or -1 */
  int year;      /* D_DATE: 0 when not given */
  int month, dom;
  int future;      /* said as ahead of now: tomorrow, next, this coming */
  int slash_guess; /* "7/4" read month first because the zone does */
} day_spec;

enum { Z_FIXED, Z_US, Z_EU };

typedef struct zone_spec {
  int has;
  int rule;    /* Z_FIXED: off_min; Z_US / Z_EU: standard off_min + DST */
  int off_min; /* minutes east of UTC */
} zone_spec;

typedef struct duration {
  int marker;     /* "in", "+", "from now", "later" (or a timer's "for") */
  int later;      /* the marker was "later" or "after" (narration says
                     them too: "after 2 hours we left") */
  int calendar;   /* a month or year unit was used */
  int months;     /* R2 part */
  int64_t ms;     /* R1 part */
  unsigned seen;  /* bit per unit */
  int whole_days; /* only days, weeks and fortnights, in whole days */
  int days;       /* that number of days */
} duration;

enum { P_NONE = -1, P_MORNING, P_AFTERNOON, P_EVENING, P_NIGHT, P_LUNCH };

enum {
  F_NOW,
  F_DURATION,
  F_END_OF,
  F_NEXT_UNIT,
  F_GENERAL,
  F_DAY_COUNT,
  F_INTERVAL,
  F_CRON,
  F_RRULE
};

#define WHEN_HOURS_MAX 4

typedef struct when_form {
  int form;
  duration dur;     /* F_DURATION, F_DAY_COUNT (days), F_INTERVAL (ms) */
  int unit;         /* F_END_OF, F_NEXT_UNIT */
  int part;         /* P_NONE or a part of the day */
  day_spec day;     /* F_GENERAL, F_DAY_COUNT (the day counted from) */
  clock_spec clock; /* F_GENERAL, F_DAY_COUNT, F_CRON */
  zone_spec zone;   /* F_GENERAL */
  int range;        /* "from 10 to 11am": the start */
  int count_days;   /* F_DAY_COUNT from a named day: days after it */
  /* F_CRON */
  unsigned dow_mask; /* bit w; 0x7f = every day */
  int cron_dom;      /* 0 = every day of the month */
  int cron_month;    /* 0 = every month */
  int hourly;        /* "every hour on the hour": minute 0 of every hour */
  int n_more;        /* more clock times: "at 8am and 8pm" */
  clock_spec more[WHEN_HOURS_MAX];
  /* F_RRULE (when_rrule.c): also dow_mask (the BYDAY weekdays), cron_dom
  ** (BYMONTHDAY, -1 the last), cron_month (BYMONTH), the clock times */
  int rr_freq;     /* RRULE_YEARLY .. RRULE_DAILY */
  int rr_interval; /* 1 or more */
  unsigned rr_nth; /* ordinals of the weekdays in the month: bit n for
                       1..5, bit 0 for the last */
  int rr_setpos;   /* 0, or the n-th (-1 last) of the days: a weekday */
  int rr_holidays; /* "except holidays" */
} when_form;

void when_form_init(when_form *ph);
int when_parse_once(when_parser *p, when_form *ph);
int when_parse_recurring(when_parser *p, when_form *ph);
/* 1 when the form is a recurring one (cron, interval, calendar rule). */
int when_form_recurs(const when_form *ph);
/* Pieces of the recurring grammar both grammars read (when_recur_parts.c):
** an ordinal at i ("2nd", "last": *n, -1 for last; *width tokens); a
** weekday list, singular or plural (ph->dow_mask); "the" N(th) (*dom);
** the rest: [part] [times] [part] to the end (a time needed when
** `required`). */
int when_ordinal_at(const when_parser *p, int i, int *n, int *width);
int when_parse_day_list(when_parser *p, when_form *ph, int plural);
int when_parse_the_day(when_parser *p, int *dom);
int when_parse_rec_rest(when_parser *p, when_form *ph, int required);
/* a weekday, plural weekday, "weekday", "day", "week" or "weekend" at i */
int when_is_day_word(const when_parser *p, int i);
/* "morning" | "afternoon" | "evening" | "night" (plural: "mornings" ...):
** 1 and *part, else 0 */
int when_accept_rec_part(when_parser *p, int *part, int plural);
/* ---- calendar rules (when_rrule.c) --------------------------------------- */
/* The rules one cron line cannot say ("every other tuesday", "the 2nd and
** 4th friday of every month"): 1 and ph an F_RRULE form, or 0 (p->pos
** back at 0; p->fatal when a field was invalid). */
int when_parse_rrule(when_parser *p, when_form *ph);
/* A trailing "except (public) holidays" clause: the tokens before it
** (p->n shortened), 1; else 0. */
int when_cut_holidays(when_parser *p);
/* A parsed cron form as a calendar rule (a yearly date, or one that
** excepts holidays): ph becomes F_RRULE. */
void when_cron_to_rrule(when_form *ph);
/* The RECUR value of ph with hours (the BYHOUR list) into out->rrule, and
** its first occurrence strictly after now in zone: out->start_at, due_at.
** 0, or -1 with out->reason. */
int when_rrule_finish(const when_form *ph, const char *hours, int minute,
                      int second, int64_t now, const tz_zone *zone,
                      when_result *out);
/* Where a clock time stands, for when_parse_clock: free (no "at"; only a
** time that says itself: "9am", "17:45", "half past 6"), right after "at"
** (also a bare hour, "at 10", or a word, "at nine"), or in a recurring
** phrase's time slot without "at" ("every weekday 8.30", "daily 0700"):
** as free, plus "8.30" and "0830", never a bare hour. */
enum { CLOCK_FREE, CLOCK_AT, CLOCK_SLOT };
int when_parse_clock(when_parser *p, clock_spec *c, int where);
/* Tokens i, i+1 are a 24-hour time in four digits and "hours" or "hrs"
** ("1700 hours", "0930 hrs": a clock time, not a duration). */
int when_military_time_at(const when_parser *p, int i);
int when_parse_zone(when_parser *p, zone_spec *z);
/* The word w (n bytes) begins a zone's name ("pacific", "pst", "london",
** "utc+2"): a message's words next to a time that did not read them. */
int when_zone_name_is(const char *w, size_t n);
int when_parse_part(when_parser *p, int *part);
int when_part_hour(int part);
int when_parse_qty(when_parser *p, int64_t *num, int *den);
/* Token i is a '-' glued between a count and the unit glued after it
** ("20-minute", "every 3-days"): 1, else 0. when_skip_unit_hyphen steps
** over such a '-' at p->pos. */
int when_unit_hyphen_at(const when_parser *p, int i);
void when_skip_unit_hyphen(when_parser *p);
int when_parse_duration(when_parser *p, duration *d);
int when_parse_terms(when_parser *p, duration *d);
int when_parse_day_count(when_parser *p, when_form *ph);
int when_parse_general(when_parser *p, when_form *ph);
const char *when_part_name(int part);

/* ---- resolution (when_resolve.c) ----------------------------------------- */

int when_resolve(const when_form *ph, const when_hints *hints, int64_t now,
                 const tz_zone *zone, when_result *out);
int when_resolve_iso(const char *s, size_t n, int64_t now, const tz_zone *zone,
                     when_result *out);

/* The clock's hour on the 24-hour clock, given the part of the day and the
** hints; -1 with a reason when am or pm cannot be told. *conf gets the
** confidence cap that reading allows (hundredths). */
int when_clock_hour(const clock_spec *c, int part, const when_hints *hints,
                    int *conf, char *why, size_t n);

/* ---- the parse (when_parse.c) -------------------------------------------- */

/* when_parse with hints, also giving the parser and the form (form -1 for
** ISO-8601) and whether a refused phrase was still understood (an invalid
** field, a time in the past: *understood = 1). */
int when_read(const char *phrase, int64_t now_ms, const tz_zone *zone,
              const when_hints *hints, when_result *out, when_parser *p,
              when_form *ph, int *understood);

/* Set out to "refused, with this reason". Returns -1. */
int when_refuse(when_result *out, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* ---- helpers on plain text ------------------------------------------------ */

int when_is_blank(char ch);
char when_lower(char ch);
/* Is text[0..n) the word w, ignoring ASCII case (’ in text is ' in w)? */
int when_word_is(const char *text, size_t n, const char *w);

/* ---- characters (when_chars.c) -------------------------------------------- */

/* The character at byte i of t[0..len): its length in bytes (1..4, *cp its
** code point), or 0 at the end or on a malformed sequence (a sequence cut
** short by len, an overlong one, a surrogate, a continuation byte). No
** byte at or after len is read. */
size_t when_codepoint_at(const char *t, size_t len, size_t i, uint32_t *cp);
/* The bytes of an apostrophe at byte i of t[0..len): 1 for ', 3 for the
** typographic ’ (U+2019), else 0. */
size_t when_apostrophe_len(const char *t, size_t len, size_t i);

#endif
