/*
** cron.h -- the cron dialect of docs/cron.md: parse to a compiled
** bitmask form, find the next occurrence in an IANA zone, and print the
** canonical spelling (for dedupe keys).
**
** Pure: no SQLite, no clock, no allocation. cron_next() follows the
** fixed-time / interval DST rules of
** docs/cron.md#time-zones-and-daylight-saving-time and gives up after a
** 50-year horizon.
*/
#ifndef TRIGGERS_CRON_H
#define TRIGGERS_CRON_H

#include <stddef.h>
#include <stdint.h>
#include "time/tz.h"

/*
** Compiled expression. Fields are owned by cron.c; treat as opaque (other
** modules may read fixed_time, dom_star and dow_star).
*/
typedef struct cron_expr {
  uint64_t seconds;   /* bit s set: second s allowed (0..59) */
  uint64_t minutes;   /* 0..59 */
  uint32_t hours;     /* 0..23 */
  uint32_t dom;       /* bit d: day-of-month d (1..31), plain items only */
  uint16_t months;    /* bit m: month m (1..12) */
  uint8_t dow;        /* bit w: weekday w (0=Sunday..6), plain items only */
  uint8_t dom_star;   /* day-of-month was exactly '*' or '?' */
  uint8_t dow_star;   /* day-of-week was exactly '*' or '?' */
  uint8_t fixed_time; /* exactly one second, minute and hour value */
  /* Day-of-month specials. */
  uint8_t dom_last;         /* L */
  uint8_t dom_last_weekday; /* LW */
  uint32_t dom_last_minus;  /* bit n: L-n (n=1..30) */
  uint32_t dom_nearest_wd;  /* bit n: nW (n=1..31) */
  /* Day-of-week specials. */
  uint8_t dow_last;   /* bit w: wL (last weekday w of the month) */
  uint8_t dow_nth[7]; /* [w] bit k: w#k (k=1..5) */
  /* Derived at parse time (cron.c), for the search. */
  uint8_t dom_special; /* any of L, L-n, LW, nW */
  uint8_t dow_special; /* any of wL, w#k */
  uint8_t day_any;     /* the day fields let every day through */
  int32_t first_sod;   /* earliest allowed second of a day */
} cron_expr;

#define CRON_ERR_MAX 160

/*
** Parse expr. Returns 0 on success, -1 with a message naming the field by
** number and name, the offending text and the allowed range:
** "cron field 3 (day-of-month): 32 is out of range 1-31". Field numbers are
** of the 6-field form when seconds are given, else of the 5-field form
** (minute is field 1). Messages never start with the caller's name: the
** SQL layer prefixes it. Messages about the whole expression start with
** "cron: " ("cron: expected 5 or 6 fields, got 7").
*/
int cron_parse(const char *expr, cron_expr *out, char *err, size_t errlen);

/*
** First matching instant strictly after after_ms (UTC ms), evaluated in
** the wall clock of zone z (NULL means UTC). Returns 1 and *out_ms (always
** a whole second), or 0 when the expression never matches within 50
** years of after_ms, or the next match would fall after 9999-12-31.
*/
int cron_next(const cron_expr *c, const tz_zone *z, int64_t after_ms,
              int64_t *out_ms);

/*
** Canonical text, part of the pinned dedupe-key format
** (docs/cron.md#canonical-form). Spellings that compile to the same
** cron_expr print the same bytes, and so do day fields that let every day
** through (below); the text parses back to an expression with the same
** matches and the same canonical text. It is formed as:
**
**   - Six fields, seconds first, separated by one space (5-field input
**     gets second "0"); macros are expanded before anything is printed.
**   - Second, minute, hour, month: "*" when every value is allowed;
**     otherwise the sorted set of values printed by the VALUE-SET rule.
**   - Day-of-month and day-of-week (their matching depends on whether each
**     is restricted, docs/cron.md#day-of-month-or-day-of-week): when the
**     two together let every day through -- both '*'/'?', or a
**     restricted field whose plain values cover every day (day-of-month
**     1-31, day-of-week 0-6, e.g. "*\/1", "1-31", "0-7", "*,5") -- both
**     print "*". Otherwise a field given as '*' or
**     '?' prints "*", and a restricted field prints its items: the plain
**     values by the VALUE-SET rule (omitted when there are none), then the
**     special items in this order, comma-separated:
**       day-of-month: nW by ascending n, then L, then LW, then L-n by
**                     ascending n;
**       day-of-week:  wL by ascending w, then w#k by ascending w, then k.
**     Weekdays are numbers 0-6 (Sunday is 0: "7" and "SUN" print "0").
**   - VALUE-SET rule (values ascending, lo/hi being the field's range,
**     with day-of-week hi = 6): when the set has at least 3 values and
**     is exactly {a, a+n, a+2n, ...} for a step n >= 2 with its last value
**     + n > hi, it prints "*\/n" if a == lo, else "a/n". Otherwise it is
**     the comma-separated list of maximal runs of consecutive values: a
**     run of one value prints "a", a longer run "a-b".
**
** Examples: "0 9 * * MON-FRI" -> "0 0 9 * * 1-5"; "@daily" and "0 0 * * ?"
** -> "0 0 0 * * *"; "*\/15 * * * *" -> "0 *\/15 * * * *";
** "0 0 L,1,15 * *" -> "0 0 0 1,15,L * *"; "0 0 1-31 * MON" -> "0 0 0 * * *";
** "0 0 *\/2 * *" -> "0 0 0 *\/2 * *" (restricted, unlike "*"). (Here
** "*\/" stands for star-slash, which a C comment cannot hold.)
** Returns the length (excluding the NUL), or -1 if buf is too small
** (CRON_CANON_MAX always suffices).
*/
#define CRON_CANON_MAX 1024
int cron_canonical(const cron_expr *c, char *buf, size_t n);

#endif
