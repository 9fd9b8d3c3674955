/*
** test_cron.c -- unit tests for ext/time/cron.c: every rejected form of
** the dialect (docs/cron.md) with its message, every accepted form with
** its canonical text, next() in UTC (steps, lists, L, L-n, LW, nW, nL,
** n#k, leap years, years past 2038, impossible expressions), the DST
** rules in five zones (New York, Berlin, Lord Howe, Sydney, Sao Paulo,
** plus Apia's skipped day), property
** checks against a brute-force oracle over random expressions, canonical
** equality, and regressions found by the fuzzer.
**
** Zones come from the system zoneinfo through tzdb.
*/
#include "time/civil.h"
#include "time/cron.h"
#include "time/tzdb.h"

#include <stdlib.h>

#include "check.h"

#include "zones.h"

/* ISO text with an offset -> UTC ms. */
static int64_t iso_ms(const char *s) {
  civil_time t;
  int has_off;
  int32_t off;
  char err[200];
  if (civil_parse_iso(s, strlen(s), &t, &has_off, &off, err, sizeof err)) {
    CHECK(0, "bad ISO '%s' in test: %s", s, err);
    return 0;
  }
  return civil_to_ms(&t) - (int64_t)off * 1000;
}

static void fmt(const tz_zone *z, int64_t ms, char *buf) {
  int64_t s = ms >= 0 ? ms / 1000 : -((-ms + 999) / 1000);
  civil_format_iso(ms, tz_offset_at(z, s), z == tz_utc(), buf);
}

/*
** Iterate next() from start in zone tz and compare each result with want
** (ISO text in the zone's offset, "Z" for UTC); "none" means next() must
** report no occurrence. The list ends with NULL.
*/
static void seq(const char *expr, const char *tz, const char *start,
                const char *const *want) {
  cron_expr c;
  char err[CRON_ERR_MAX], got[CIVIL_ISO_MAX];
  const tz_zone *z = zone(tz);
  int64_t t = iso_ms(start), out = 0;
  int i;
  if (cron_parse(expr, &c, err, sizeof err)) {
    CHECK(0, "'%s' should parse: %s", expr, err);
    return;
  }
  for (i = 0; want[i]; i++) {
    int ok = cron_next(&c, z, t, &out);
    if (strcmp(want[i], "none") == 0) {
      CHECK(!ok, "'%s' %s after %s: want none, got %s", expr, tz, start,
            ok ? (fmt(z, out, got), got) : "");
      return;
    }
    if (!ok) {
      CHECK(0, "'%s' %s from %s: #%d want %s, got none", expr, tz, start, i,
            want[i]);
      return;
    }
    fmt(z, out, got);
    CHECK(strcmp(got, want[i]) == 0, "'%s' %s from %s: #%d want %s, got %s",
          expr, tz, start, i, want[i], got);
    CHECK(out > t, "'%s': result not after start", expr);
    t = out;
  }
}

#define SEQ(expr, tz, start, ...) \
  seq(expr, tz, start, (const char *const[]){__VA_ARGS__, NULL})

/* ---- Rejected forms ---------------------------------------------------- */

static void rej(const char *expr, const char *want) {
  cron_expr c;
  char err[CRON_ERR_MAX];
  int rc = cron_parse(expr, &c, err, sizeof err);
  CHECK(rc == -1, "'%s' should be rejected", expr);
  if (rc == -1) CHECK_STR(err, want, expr);
}

static void test_rejected(void) {
  /* Field count and whole-expression errors. */
  rej("1 2 3 4 5 6 7", "cron: expected 5 or 6 fields, got 7");
  rej("0 15 10 * * ? 2023", "cron: expected 5 or 6 fields, got 7");
  rej("* * * *", "cron: expected 5 or 6 fields, got 4");
  rej("* * *", "cron: expected 5 or 6 fields, got 3");
  rej("", "cron: expected 5 or 6 fields, got 0");
  rej(" \t ", "cron: expected 5 or 6 fields, got 0");
  rej("* * * * * * * *ASD", "cron: expected 5 or 6 fields, got 8");
  rej("@reboot", "cron: @reboot is not supported");
  rej("@REBOOT", "cron: @reboot is not supported");
  rej("@wekly",
      "cron: unknown macro '@wekly' (allowed @yearly @annually @monthly "
      "@weekly @daily @midnight @hourly)");
  rej("@every 5m",
      "cron: unknown macro '@every' (allowed @yearly @annually @monthly "
      "@weekly @daily @midnight @hourly)");
  rej("@daily 5", "cron: unexpected text after @daily: '5'");
  /* Out of range, each field, both forms. */
  rej("60 * * * *", "cron field 1 (minute): 60 is out of range 0-59");
  rej("0 24 * * *", "cron field 2 (hour): 24 is out of range 0-23");
  rej("0 0 32 * *", "cron field 3 (day-of-month): 32 is out of range 1-31");
  rej("0 0 0 * *", "cron field 3 (day-of-month): 0 is out of range 1-31");
  rej("0 0 1 13 *", "cron field 4 (month): 13 is out of range 1-12");
  rej("0 0 1 0 *", "cron field 4 (month): 0 is out of range 1-12");
  rej("0 0 * * 8", "cron field 5 (day-of-week): 8 is out of range 0-7");
  rej("61 * * * * *", "cron field 1 (second): 61 is out of range 0-59");
  rej("* 77 * * * *", "cron field 2 (minute): 77 is out of range 0-59");
  rej("* * 23-28 * * *", "cron field 3 (hour): 28 is out of range 0-23");
  rej("* * * 28-45 * *",
      "cron field 4 (day-of-month): 45 is out of range 1-31");
  rej("* * * * 11-13 *", "cron field 5 (month): 13 is out of range 1-12");
  rej("* * * * * 9", "cron field 6 (day-of-week): 9 is out of range 0-7");
  rej("0-10000000 * * * *",
      "cron field 1 (minute): 10000000 is out of range 0-59");
  rej("* 0-5,55,60 * * * *", "cron field 2 (minute): 60 is out of range 0-59");
  /* Reversed ranges (the Sunday rule only helps ranges ending in Sunday). */
  rej("0 0 * * FRI-MON", "cron field 5 (day-of-week): reversed range FRI-MON");
  rej("0 17-9 * * *", "cron field 2 (hour): reversed range 17-9");
  rej("* * * NOV-MAR *", "cron field 4 (month): reversed range NOV-MAR");
  rej("0 0 * * 7-3", "cron field 5 (day-of-week): reversed range 7-3");
  rej("0 0 * * 6-1", "cron field 5 (day-of-week): reversed range 6-1");
  rej("* 50-40/5 * * * *", "cron field 2 (minute): reversed range 50-40");
  /* Steps. */
  rej("*/0 * * * *",
      "cron field 1 (minute): step 0 in '*/0' is out of range 1-60");
  rej("0 */0 * * *",
      "cron field 2 (hour): step 0 in '*/0' is out of range 1-24");
  rej("* 10-20/0 * * * *",
      "cron field 2 (minute): step 0 in '10-20/0' is out of range 1-60");
  rej("*/61 * * * *",
      "cron field 1 (minute): step 61 in '*/61' is out of range 1-60");
  rej("0/120 0 8-18 ? * 2-6",
      "cron field 1 (second): step 120 in '0/120' is out of range 1-60");
  rej("0 0 0/120 ? * 2-6",
      "cron field 3 (hour): step 120 in '0/120' is out of range 1-24");
  rej("0 0 0 ? 0/120 2-6", "cron field 5 (month): 0 is out of range 1-12");
  rej("0 0 0 ? 1/13 2-6",
      "cron field 5 (month): step 13 in '1/13' is out of range 1-12");
  rej("0 0 0 ? * 0/8",
      "cron field 6 (day-of-week): step 8 in '0/8' is out of range 1-7");
  rej("0 0 */32 * *",
      "cron field 3 (day-of-month): step 32 in '*/32' is out of range 1-31");
  rej("0 0 * * 7/2",
      "cron field 5 (day-of-week): start 7 of '7/2' is out of range 0-6");
  rej("0 5/5/5 * * *", "cron field 2 (hour): more than one '/' in '5/5/5'");
  rej("*/a * * * *",
      "cron field 1 (minute): invalid step 'a' in '*/a' (allowed 1-60)");
  rej("0 */-5 * * *",
      "cron field 2 (hour): invalid step '-5' in '*/-5' (allowed 1-24)");
  rej("/5 * * * *", "cron field 1 (minute): missing value in '/5'");
  rej("0/ * * * *", "cron field 1 (minute): missing step in '0/'");
  rej("* */* * * * *",
      "cron field 2 (minute): invalid step '*' in '*/*' (allowed 1-60)");
  rej("* 5/* * * * *",
      "cron field 2 (minute): invalid step '*' in '5/*' (allowed 1-60)");
  /* Empty items and malformed values. */
  rej("0 1,,2 * * *", "cron field 2 (hour): empty list item in '1,,2'");
  rej("1, * * * *", "cron field 1 (minute): empty list item in '1,'");
  rej("*/10 * * * * ,", "cron field 6 (day-of-week): empty list item in ','");
  rej("-5 * * * *", "cron field 1 (minute): missing value in '-5'");
  rej("* 0- * * * *", "cron field 2 (minute): missing value in '0-'");
  rej("* 0-0-0 * * * *", "cron field 2 (minute): invalid range '0-0-0'");
  rej("10 x 12 8 0", "cron field 2 (hour): invalid value 'x' (allowed 0-23)");
  rej("10 ) 12 8 0", "cron field 2 (hour): invalid value ')' (allowed 0-23)");
  rej("0 +12 * * *", "cron field 2 (hour): invalid value '+12' (allowed 0-23)");
  rej("0 0 1 * +",
      "cron field 5 (day-of-week): invalid value '+' (allowed 0-7, SUN-SAT, "
      "nL, n#k)");
  rej("1-1_0 * * * *",
      "cron field 1 (minute): invalid value '1_0' (allowed 0-59)");
  rej("0\n0 * * * *",
      "cron field 1 (minute): invalid value '0?0' (allowed 0-59)");
  rej("0 0\x01 * * *",
      "cron field 2 (hour): invalid value '0?' (allowed 0-23)");
  /* Names. */
  rej("* * * janu-jun *",
      "cron field 4 (month): unknown name 'janu' (allowed 1-12, JAN-DEC)");
  rej("15 10 * * MON-TUR",
      "cron field 5 (day-of-week): unknown name 'TUR' (allowed 0-7, SUN-SAT, "
      "nL, n#k)");
  rej("0 0 * JANUARY *",
      "cron field 4 (month): unknown name 'JANUARY' (allowed 1-12, JAN-DEC)");
  rej("0 0 MON * *",
      "cron field 3 (day-of-month): invalid value 'MON' (allowed 1-31, L, "
      "L-n, LW, nW)");
  rej("0 0 * * JAN",
      "cron field 5 (day-of-week): unknown name 'JAN' (allowed 0-7, SUN-SAT, "
      "nL, n#k)");
  rej("JAN * * * *",
      "cron field 1 (minute): invalid value 'JAN' (allowed 0-59)");
  /* H, ?, L, W and # where not allowed. */
  rej("H * * * *",
      "cron field 1 (minute): H (hashed value) is not supported: 'H'");
  rej("H(0-29) * * * *",
      "cron field 1 (minute): H (hashed value) is not supported: 'H(0-29)'");
  rej("* * H/0 * *",
      "cron field 3 (day-of-month): H (hashed value) is not supported: 'H/0'");
  rej("? * * * *",
      "cron field 1 (minute): '?' is only allowed in day-of-month and "
      "day-of-week");
  rej("0 0 * ? *",
      "cron field 4 (month): '?' is only allowed in day-of-month and "
      "day-of-week");
  rej("1,? * * * *",
      "cron field 1 (minute): '?' is only allowed in day-of-month and "
      "day-of-week");
  rej("* * ?,* * *",
      "cron field 3 (day-of-month): '?' must be the whole field: '?'");
  rej("0 0 * * 1,?",
      "cron field 5 (day-of-week): '?' must be the whole field: '?'");
  rej("0 0 ?"
      "? * *",
      "cron field 3 (day-of-month): '?' must be the whole field: '?"
      "?'");
  rej("0 L * * *",
      "cron field 2 (hour): 'L' is only allowed in day-of-month and "
      "day-of-week: 'L'");
  rej("0 0 * L *",
      "cron field 4 (month): 'L' is only allowed in day-of-month and "
      "day-of-week: 'L'");
  rej("0 15W * * * *",
      "cron field 2 (minute): 'W' is only allowed in day-of-month: '15W'");
  rej("0 0 * * * 2W",
      "cron field 6 (day-of-week): 'W' is only allowed in day-of-month: '2W'");
  rej("0 0 1#1 * *",
      "cron field 3 (day-of-month): '#' is only allowed in day-of-week: '1#1'");
  rej("1#2 * * * *",
      "cron field 1 (minute): '#' is only allowed in day-of-week: '1#2'");
  rej("0 0 12 W * ?",
      "cron field 4 (day-of-month): invalid value 'W' (allowed 1-31, L, L-n, "
      "LW, nW)");
  rej("0 9 W15 * *",
      "cron field 3 (day-of-month): invalid value 'W15' (allowed 1-31, L, "
      "L-n, LW, nW)");
  rej("0 0 * * L",
      "cron field 5 (day-of-week): 'L' in day-of-week must follow a weekday "
      "(nL, e.g. 5L): 'L'");
  rej("0 0 0 * * 1,L",
      "cron field 6 (day-of-week): 'L' in day-of-week must follow a weekday "
      "(nL, e.g. 5L): 'L'");
  rej("0 0 * * L-1",
      "cron field 5 (day-of-week): 'L' in day-of-week must follow a weekday "
      "(nL, e.g. 5L): 'L-1'");
  rej("0 0 * * 5,L6",
      "cron field 5 (day-of-week): 'L' in day-of-week must follow a weekday "
      "(nL, e.g. 5L): 'L6'");
  rej("0 0 * * #2",
      "cron field 5 (day-of-week): '#' needs one weekday and a number 1-5: "
      "'#2'");
  /* Special items never in a range or with a step. */
  rej("0 12 10-15W * *",
      "cron field 3 (day-of-month): '15W' cannot be used in a range or with a "
      "step: '10-15W'");
  rej("0 0 0 15W-20 * *",
      "cron field 4 (day-of-month): '15W' cannot be used in a range or with a "
      "step: '15W-20'");
  rej("4 0 L/2 2 0",
      "cron field 3 (day-of-month): 'L' cannot be used in a range or with a "
      "step: 'L/2'");
  rej("0 0 L-5/2 * *",
      "cron field 3 (day-of-month): 'L' cannot be used in a range or with a "
      "step: 'L-5/2'");
  rej("0 0 1-L * *",
      "cron field 3 (day-of-month): 'L' cannot be used in a range or with a "
      "step: '1-L'");
  rej("0 0 * * 5-L",
      "cron field 5 (day-of-week): 'L' cannot be used in a range or with a "
      "step: '5-L'");
  rej("0 0 * * 1-5L",
      "cron field 5 (day-of-week): 'L' cannot be used in a range or with a "
      "step: '1-5L'");
  rej("0 0 0 ? * 2-4#2",
      "cron field 6 (day-of-week): '#' needs one weekday and a number 1-5: "
      "'2-4#2'");
  rej("0 0 0 ? * 1/2#3",
      "cron field 6 (day-of-week): '#' needs one weekday and a number 1-5: "
      "'1/2#3'");
  rej("0 0 0 ? * 0##4",
      "cron field 6 (day-of-week): '#' needs one weekday and a number 1-5: "
      "'0##4'");
  /* Ranges of the special items' numbers. */
  rej("0 0 L-31 * *",
      "cron field 3 (day-of-month): 31 in 'L-31' is out of range 1-30");
  rej("0 0 L-0 * *",
      "cron field 3 (day-of-month): 0 in 'L-0' is out of range 1-30");
  rej("0 9 0W * *",
      "cron field 3 (day-of-month): 0 in '0W' is out of range 1-31");
  rej("0 9 32W * *",
      "cron field 3 (day-of-month): 32 in '32W' is out of range 1-31");
  rej("0 0 * * 1#0",
      "cron field 5 (day-of-week): 0 in '1#0' is out of range 1-5");
  rej("0 0 * * 1#6",
      "cron field 5 (day-of-week): 6 in '1#6' is out of range 1-5");
  rej("0 0 0 ? * 1#",
      "cron field 6 (day-of-week): invalid week number '' in '1#' (allowed "
      "1-5)");
  rej("0 0 * * 8#1", "cron field 5 (day-of-week): 8 is out of range 0-7");
  rej("0 0 * * 8L", "cron field 5 (day-of-week): 8 is out of range 0-7");
  rej("0 0 * * FOOL",
      "cron field 5 (day-of-week): unknown name 'FOO' (allowed 0-7, SUN-SAT, "
      "nL, n#k)");
  rej("0 0 0 ? * 1.2#2",
      "cron field 6 (day-of-week): invalid value '1.2' (allowed 0-7, SUN-SAT, "
      "nL, n#k)");
  /* Long and binary text is shown bounded. */
  rej("0 0 xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx * *",
      "cron field 3 (day-of-month): invalid value "
      "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (allowed 1-31, L, L-n, LW, nW)");
  {
    cron_expr c;
    char err[20];
    CHECK(cron_parse("0 0 32 * *", &c, err, sizeof err) == -1, "small buf");
    CHECK(strlen(err) == 19, "message truncated to the buffer: '%s'", err);
    CHECK(cron_parse("0 0 32 * *", &c, NULL, 0) == -1, "NULL err buffer");
    CHECK(cron_parse(NULL, &c, err, sizeof err) == -1, "NULL expression");
    /* a buffer too small for even the prefix: cut, still terminated */
    char tiny[4];
    CHECK(cron_parse("0 0 32 * *", &c, tiny, sizeof tiny) == -1 &&
              strcmp(tiny, "cro") == 0,
          "prefix cut: '%s'", tiny);
    CHECK(cron_parse("* * *", &c, tiny, sizeof tiny) == -1 &&
              strcmp(tiny, "cro") == 0,
          "expression error cut: '%s'", tiny);
    CHECK(cron_parse("0 0 32 * *", &c, tiny, 0) == -1, "no room at all");
    CHECK(cron_parse("* * *", &c, tiny, 0) == -1, "no room: expression");
  }
  /* the special characters out of their field or inside a range/step */
  rej("0 0 5#2 * *", "cron field 3 (day-of-month): '#' is only allowed in "
                     "day-of-week: '5#2'");
  rej("0 0 * 5W *",
      "cron field 4 (month): 'W' is only allowed in day-of-month: '5W'");
  rej("0 L * * *", "cron field 2 (hour): 'L' is only allowed in day-of-month "
                   "and day-of-week: 'L'");
  rej("0 0 * L *", "cron field 4 (month): 'L' is only allowed in "
                   "day-of-month and day-of-week: 'L'");
  rej("0 0 LW-3 * *", "cron field 3 (day-of-month): 'LW' cannot be used in a "
                      "range or with a step: 'LW-3'");
  rej("0 0 1-LW * *", "cron field 3 (day-of-month): 'LW' cannot be used in a "
                      "range or with a step: '1-LW'");
  rej("0 0 * * 5L-6", "cron field 5 (day-of-week): '5L' cannot be used in a "
                      "range or with a step: '5L-6'");
  rej("0 0 * * 5/2L", "cron field 5 (day-of-week): 'L' cannot be used in a "
                      "range or with a step: '5/2L'");
  rej("Hx 0 * * *", "cron field 1 (minute): invalid value 'Hx' (allowed 0-59)");
  rej("0 0 * XYZ *", "cron field 4 (month): unknown name 'XYZ' (allowed "
                     "1-12, JAN-DEC)");
  rej("0 0 LX * *", "cron field 3 (day-of-month): invalid value 'LX' "
                    "(allowed 1-31, L, L-n, LW, nW)");
  /* a control byte shown as '?', a long value cut at a character (32
  ** bytes at most): after 16 whole 2-byte ones, or before the one that
  ** 32 bytes would cut (x and 15 of them) */
  rej("0 0 \x01 * *", "cron field 3 (day-of-month): invalid value '?' "
                      "(allowed 1-31, L, L-n, LW, nW)");
  rej("0 0 * * "
      "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
      "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
      "cron field 5 (day-of-week): invalid value "
      "'\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
      "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9...' (allowed 0-7, SUN-SAT, nL, n#k)");
  rej("0 0 * * x"
      "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
      "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9",
      "cron field 5 (day-of-week): invalid value 'x"
      "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9"
      "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9...' (allowed 0-7, SUN-SAT, nL, n#k)");
  /* 3-byte characters: 10 whole ones (30 bytes), the 11th would be cut */
  rej("0 0 * * "
      "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
      "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
      "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac",
      "cron field 5 (day-of-week): invalid value '"
      "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
      "\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac\xe2\x82\xac"
      "...' (allowed 0-7, SUN-SAT, nL, n#k)");
  /* a weekday name with W outside day-of-month, a month name with L
  ** outside the day fields: neither is a misplaced W or L */
  rej("0 0 * WED *", "cron field 4 (month): unknown name 'WED' (allowed "
                     "1-12, JAN-DEC)");
  rej("0 JUL * * *", "cron field 2 (hour): invalid value 'JUL' (allowed "
                     "0-23)");
  /* DEL is a control byte too; a long ASCII value is cut after 32 bytes */
  rej("0 0 \x7f * *", "cron field 3 (day-of-month): invalid value '?' "
                      "(allowed 1-31, L, L-n, LW, nW)");
  rej("0 0 * * xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
      "cron field 5 (day-of-week): unknown name "
      "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (allowed 0-7, SUN-SAT, nL, n#k)");
  /* the letters of the special forms, where they are not allowed */
  rej("0 0 L-x * *", "cron field 3 (day-of-month): 'L' cannot be used in a "
                     "range or with a step: 'L-x'");
  rej("0 0 1-5L * *", "cron field 3 (day-of-month): '5L' cannot be used in a "
                      "range or with a step: '1-5L'");
  rej("0 0 1-2W * *", "cron field 3 (day-of-month): '2W' cannot be used in a "
                      "range or with a step: '1-2W'");
  rej("0 0 1#2 * *", "cron field 3 (day-of-month): '#' is only allowed in "
                     "day-of-week: '1#2'");
  rej("0 0 * * 2W", "cron field 5 (day-of-week): 'W' is only allowed in "
                    "day-of-month: '2W'");
  rej("0 W * * *", "cron field 2 (hour): 'W' is only allowed in day-of-month: "
                   "'W'");
  rej("0 0 * * 1#2-3", "cron field 5 (day-of-week): '#' needs one weekday and "
                       "a number 1-5: '1#2-3'");
  rej("0 0 * 1a *", "cron field 4 (month): invalid value '1a' (allowed 1-12, "
                    "JAN-DEC)");
  /* no room for a message, or a short one: still rejected, cut */
  cron_expr c;
  char err[8] = "unset";
  CHECK(cron_parse("0 0 32 * *", &c, NULL, 0) == -1, "no err buffer");
  CHECK(cron_parse("0 0 32 * *", &c, err, 0) == -1 && !strcmp(err, "unset"),
        "errlen 0: untouched");
  CHECK(cron_parse("0 0 32 * *", &c, err, 4) == -1 && !strcmp(err, "cro"),
        "errlen 4: '%s'", err);
  CHECK(cron_parse("1 2 3", &c, NULL, 0) == -1, "no err buffer, expression");
  CHECK(cron_parse("1 2 3", &c, err, 4) == -1 && !strcmp(err, "cro"),
        "errlen 4, whole expression: '%s'", err);
  CHECK(cron_parse("1 2 3", &c, err, 7) == -1 && !strcmp(err, "cron: "),
        "errlen 7, whole expression: '%s'", err);
}

/* ---- Accepted forms and their canonical text --------------------------- */

static void acc(const char *expr, const char *canon) {
  cron_expr c, c2;
  char err[CRON_ERR_MAX], buf[CRON_CANON_MAX], buf2[CRON_CANON_MAX];
  int n;
  if (cron_parse(expr, &c, err, sizeof err)) {
    CHECK(0, "'%s' should parse: %s", expr, err);
    return;
  }
  n = cron_canonical(&c, buf, sizeof buf);
  CHECK(n == (int)strlen(buf), "'%s': canonical length", expr);
  CHECK_STR(buf, canon, expr);
  /* The canonical text parses, and is its own canonical text. */
  if (cron_parse(buf, &c2, err, sizeof err)) {
    CHECK(0, "canonical '%s' of '%s' should parse: %s", buf, expr, err);
    return;
  }
  cron_canonical(&c2, buf2, sizeof buf2);
  CHECK_STR(buf2, buf, "canonical is a fixed point");
}

static void test_accepted(void) {
  /* Plain forms. */
  acc("0 0 l-5 * *", "0 0 0 L-5 * *"); /* specials in lower case */
  acc("0 0 lw * *", "0 0 0 LW * *");
  acc("0 0 15w * *", "0 0 0 15W * *");
  acc("0 0 * * 5l", "0 0 0 * * 5L");
  acc("0 0 * * mon#2", "0 0 0 * * 1#2");
  acc("0 0 * jan-Mar *", "0 0 0 * 1-3 *");
  acc("* * * * *", "0 * * * * *");
  acc("* * * * * *", "* * * * * *");
  acc("  0\t9  * *   MON-FRI  ", "0 0 9 * * 1-5");
  acc("0 9 * * 1-5", "0 0 9 * * 1-5");
  acc("5 4 3 2 1", "0 5 4 3 2 1");
  acc("1 2 3 4 5 6", "1 2 3 4 5 6");
  acc("0 */15 * * *", "0 0 0,15 * * *");
  acc("0 */6 * * *", "0 0 */6 * * *");
  acc("*/15 * * * *", "0 */15 * * * *");
  acc("0/15 * * * *", "0 */15 * * * *");
  acc("0-59/15 * * * *", "0 */15 * * * *");
  acc("0,15,30,45 * * * *", "0 */15 * * * *");
  acc("5/15 * * * *", "0 5/15 * * * *");
  acc("5-50/15 * * * *", "0 5/15 * * * *");
  acc("5-49/15 * * * *", "0 5,20,35 * * * *");
  acc("59/15 * * * *", "0 59 * * * *");
  acc("*/60 * * * *", "0 0 * * * *");
  acc("0 */24 * * *", "0 0 0 * * *");
  acc("*/2 * * * * *", "*/2 * * * * *");
  acc("1/2 * * * * *", "1/2 * * * * *");
  acc("0-58/2 * * * * *", "*/2 * * * * *");
  acc("0-56/2 * * * * *",
      "0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,48,"
      "50,52,54,56 * * * * *");
  acc("0 0-5 14 * * ?", "0 0-5 14 * * *");
  acc("0 0 8-10,14-16 * * ?", "0 0 8-10,14-16 * * *");
  acc("0 9,10 * * *", "0 0 9-10 * * *");
  acc("0 0-23 * * *", "0 0 * * * *");
  acc("0 23-23 * * *", "0 0 23 * * *");
  acc("0 1,1,1 * * *", "0 0 1 * * *");
  acc("0,0 * * * *", "0 0 * * * *");
  acc("0 9 * * 1,2,3,4,5", "0 0 9 * * 1-5");
  acc("0 05 * * *", "0 0 5 * * *");
  /* Names, any case; months and weekdays. */
  acc("0 0 1 jan,FEB,Mar *", "0 0 0 1 1-3 *");
  acc("0 0 1 JAN-DEC *", "0 0 0 1 * *");
  acc("0 0 1 */3 *", "0 0 0 1 */3 *");
  acc("0 0 1 2/3 *", "0 0 0 1 2/3 *");
  acc("0 0 * * sun,Mon,TUE", "0 0 0 * * 0-2");
  acc("0 0 * * SAT,SUN", "0 0 0 * * 0,6");
  acc("0 0 * 1-feb *", "0 0 0 * 1-2 *");
  /* Day-of-week Sunday rules. */
  acc("0 0 * * 7", "0 0 0 * * 0");
  acc("0 0 * * 0,7", "0 0 0 * * 0");
  acc("0 0 * * 7,0", "0 0 0 * * 0");
  acc("0 0 * * 0,0", "0 0 0 * * 0");
  acc("0 0 * * SUN-SUN", "0 0 0 * * 0");
  acc("0 0 * * 0-0", "0 0 0 * * 0");
  acc("0 0 * * 7-7", "0 0 0 * * 0");
  acc("0 0 * * WED-SUN", "0 0 0 * * 0,3-6");
  acc("0 0 * * 3-7", "0 0 0 * * 0,3-6");
  acc("0 0 * * 3-0", "0 0 0 * * 0,3-6");
  acc("0 0 * * sat-0", "0 0 0 * * 0,6");
  acc("0 0 * * mon-0", "0 0 0 * * *");
  acc("0 0 * * 1-7", "0 0 0 * * *");
  acc("0 0 * * 0-6", "0 0 0 * * *");
  acc("0 0 * * */2", "0 0 0 * * */2");
  acc("0 0 * * 1/3", "0 0 0 * * 1,4");
  acc("0 0 * * 1-7/2", "0 0 0 * * 0-1,3,5");
  acc("0 0 * * 0/3", "0 0 0 * * */3");
  acc("0 0 * * */7", "0 0 0 * * 0");
  /* ? in the day fields only, as the whole field. */
  acc("0 0 ? * *", "0 0 0 * * *");
  acc("0 0 * * ?", "0 0 0 * * *");
  acc("0 0 ? * MON", "0 0 0 * * 1");
  acc("0 0 1 * ?", "0 0 0 1 * *");
  /* Macros, any case. */
  acc("@yearly", "0 0 0 1 1 *");
  acc("@annually", "0 0 0 1 1 *");
  acc("@monthly", "0 0 0 1 * *");
  acc("@weekly", "0 0 0 * * 0");
  acc("@daily", "0 0 0 * * *");
  acc("@midnight", "0 0 0 * * *");
  acc("@hourly", "0 0 * * * *");
  acc("  @Daily  ", "0 0 0 * * *");
  acc("@HOURLY", "0 0 * * * *");
  /* Day-of-month specials, any case, alone and in lists. */
  acc("0 0 L * *", "0 0 0 L * *");
  acc("0 0 l * *", "0 0 0 L * *");
  acc("0 0 LW * *", "0 0 0 LW * *");
  acc("0 0 lw * *", "0 0 0 LW * *");
  acc("0 0 L-2 * *", "0 0 0 L-2 * *");
  acc("0 0 l-30 * *", "0 0 0 L-30 * *");
  acc("0 0 L-1 * *", "0 0 0 L-1 * *");
  acc("0 9 15W * *", "0 0 9 15W * *");
  acc("0 9 1w * *", "0 0 9 1W * *");
  acc("0 9 31W * *", "0 0 9 31W * *");
  acc("0 0 1,15,L * *", "0 0 0 1,15,L * *");
  acc("0 0 L,15,1 * *", "0 0 0 1,15,L * *");
  acc("0 9 15W,16 * *", "0 0 9 16,15W * *");
  acc("0 9 1,15W * *", "0 0 9 1,15W * *");
  acc("0 0 L-3,LW,15w,l,1-5 * *", "0 0 0 1-5,15W,L,LW,L-3 * *");
  acc("0 0 */2,L * *", "0 0 0 */2,L * *");
  acc("0 0 2W,1W,L-2,L-1 * *", "0 0 0 1W,2W,L-1,L-2 * *");
  /* Day-of-week specials, numbers or names, any case. */
  acc("0 0 * * 5L", "0 0 0 * * 5L");
  acc("0 0 * * FRIL", "0 0 0 * * 5L");
  acc("0 0 * * fril", "0 0 0 * * 5L");
  acc("0 0 * * 7L", "0 0 0 * * 0L");
  acc("0 0 * * 1#1", "0 0 0 * * 1#1");
  acc("0 0 * * FRI#3", "0 0 0 * * 5#3");
  acc("0 0 * * fri#5", "0 0 0 * * 5#5");
  acc("0 0 * * 7#2", "0 0 0 * * 0#2");
  acc("0 0 * * 1#1,5L", "0 0 0 * * 5L,1#1");
  acc("0 0 0 ? * 0,6#4", "0 0 0 * * 0,6#4");
  acc("0 0 12 ? * 1#1,3#3,5#5", "0 0 12 * * 1#1,3#3,5#5");
  acc("0 0 * * 5,6#3", "0 0 0 * * 5,6#3");
  acc("0 0 * * *,sat#3", "0 0 0 * * *");
  /* Both day fields restricted keep both (OR semantics). */
  acc("0 0 13 * FRI", "0 0 0 13 * 5");
  acc("0 0 1 2 fri#2", "0 0 0 1 2 5#2");
  acc("0 0 */2 * 1", "0 0 0 */2 * 1");
  acc("0 0 1-31/2 * *", "0 0 0 */2 * *");
  acc("0 0 */1 * *", "0 0 0 * * *");
  acc("0 0 */1 * 1", "0 0 0 * * *");
  acc("0 0 1-31 * MON", "0 0 0 * * *");
  acc("0 0 * * */1", "0 0 0 * * *");
  acc("0 0 15 * */1", "0 0 0 * * *");
  acc("0 0 ? * 0-7", "0 0 0 * * *");
  acc("0 0 L * 0-6", "0 0 0 * * *");
  /* Never-occurring dates are valid. */
  acc("0 0 31 2 *", "0 0 0 31 2 *");
  acc("0 0 30 2 *", "0 0 0 30 2 *");
  acc("0 0 31 4 *", "0 0 0 31 4 *");
  /* Vectors' validity lines that docs/cron.md accepts. */
  acc("* 5/5 * * * *", "* 5/5 * * * *");
  acc("* 1,2/5 * * * *", "* 1-2,7,12,17,22,27,32,37,42,47,52,57 * * * *");
  acc("0 10,44 14 ? 3 WED", "0 10,44 14 * 3 3");
  acc("0 6,9,12,16,20,24 0 * 2,4,6,8,9,10 *",
      "0 6,9,12,16,20,24 0 * 2,4,6,8-10 *");
}

/* Fixed-time flag: exactly one second, minute and hour value. */
static void test_fixed_time(void) {
  static const struct {
    const char *expr;
    int fixed;
  } cases[] = {
      {"30 2 * * *", 1},     {"0 0 9 * * MON", 1}, {"0 23-23 * * *", 1},
      {"0 0 * * *", 1},      {"@daily", 1},        {"@weekly", 1},
      {"0 * * * *", 0},      {"@hourly", 0},       {"*/15 * * * *", 0},
      {"0 1,13 * * *", 0},   {"0 1-2 * * *", 0},   {"* 0 0 * * *", 0},
      {"0,30 0 0 * * *", 0}, {"59/15 0 * * *", 1}, {"0 0 */24 * *", 1},
  };
  size_t i;
  for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    cron_expr c;
    char err[CRON_ERR_MAX];
    CHECK(cron_parse(cases[i].expr, &c, err, sizeof err) == 0, "%s: %s",
          cases[i].expr, err);
    CHECK(c.fixed_time == cases[i].fixed, "fixed_time of '%s' = %d",
          cases[i].expr, c.fixed_time);
  }
}

/* ---- Canonical equality ------------------------------------------------ */

static void canon_of(const char *expr, char *buf) {
  cron_expr c;
  char err[CRON_ERR_MAX];
  buf[0] = 0;
  if (cron_parse(expr, &c, err, sizeof err)) {
    CHECK(0, "'%s' should parse: %s", expr, err);
    return;
  }
  CHECK(cron_canonical(&c, buf, CRON_CANON_MAX) > 0, "canonical of %s", expr);
}

static void same(const char *a, const char *b, int want_same) {
  char x[CRON_CANON_MAX], y[CRON_CANON_MAX];
  canon_of(a, x);
  canon_of(b, y);
  if (want_same)
    CHECK(strcmp(x, y) == 0,
          "'%s' and '%s' should share a canonical form: "
          "'%s' vs '%s'",
          a, b, x, y);
  else
    CHECK(strcmp(x, y) != 0, "'%s' and '%s' must differ: both '%s'", a, b, x);
}

static void test_canonical_equality(void) {
  same("0 9 * * MON-FRI", "0 9 * * 1-5", 1);
  same("0 9 * * MON-FRI", "0 0 9 ? * mon,tue,wed,thu,fri", 1);
  same("@daily", "0 0 * * *", 1);
  same("@midnight", "0 0 0 * * ?", 1);
  same("@weekly", "0 0 * * 7", 1);
  same("@weekly", "0 0 * * SUN", 1);
  same("@yearly", "0 0 1 JAN *", 1);
  same("0 0 * * 7", "0 0 * * 0", 1);
  same("0 0 * * 0,7", "0 0 * * 0", 1);
  same("0 0 ? * *", "0 0 * * *", 1);
  same("*/15 * * * *", "0,15,30,45 * * * *", 1);
  same("*/15 * * * *", "0 0-59/15 * * * *", 1);
  same("0 0 L,1 * *", "0 0 1,L * *", 1);
  same("0 0 * * 5L,1#1", "0 0 * * 1#1,FRIL", 1);
  same("0 0 * * WED-SUN", "0 0 * * 3,4,5,6,0", 1);
  same("0 0 * * mon-0", "0 0 * * *", 1);
  same("0 0 1-31 * *", "0 0 * * *", 1);
  same("0 0 */1 * 1", "0 0 * * *", 1);
  same("0 9-10 * * *", "0 9,10 * * *", 1);
  same("0 0 1 * *", "@monthly", 1);
  /* Different schedules, or different OR/AND semantics. */
  same("0 0 * * 1", "0 0 */1 * 1", 0); /* Mondays vs every day */
  same("0 0 */2 * 1", "0 0 * * 1", 0); /* odd days or Mondays vs Mondays */
  same("0 0 */2 * *", "0 0 * * *", 0);
  same("0 0 13 * 5", "0 0 13 * *", 0);
  same("0 0 L * *", "0 0 31 * *", 0);
  same("0 0 LW * *", "0 0 L * *", 0);
  same("0 0 * * 5L", "0 0 * * 5#4", 0);
  same("0 0 15W * *", "0 0 15 * *", 0);
  same("0 0 * * *", "0 0 0 * * *", 1);
  same("0 0 * * *", "* 0 0 * * *", 0);
  same("0 0 * * 6,0", "0 0 * * 6", 0);
  same("0 9 * * *", "0 9 * * * *", 0);
  /* Worst-case length fits CRON_CANON_MAX. */
  {
    cron_expr c;
    char err[CRON_ERR_MAX], buf[CRON_CANON_MAX];
    const char *worst =
        "0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,"
        "48,50,52,54,56,59 "
        "0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,"
        "48,50,52,54,56,59 "
        "0,2,4,6,8,10,12,14,16,18,20,23 "
        "1,3,5,7,9,11,13,15,17,19,21,23,25,27,29,1W,2W,3W,4W,5W,6W,7W,8W,9W,"
        "10W,11W,12W,13W,14W,15W,16W,17W,18W,19W,20W,21W,22W,23W,24W,25W,26W,"
        "27W,28W,29W,30W,31W,L,LW,L-1,L-2,L-3,L-4,L-5,L-6,L-7,L-8,L-9,L-10,"
        "L-11,L-12,L-13,L-14,L-15,L-16,L-17,L-18,L-19,L-20,L-21,L-22,L-23,"
        "L-24,L-25,L-26,L-27,L-28,L-29,L-30 "
        "1,3,5,7,9,12 "
        "1,3,5,0L,1L,2L,3L,4L,5L,6L,0#1,0#2,0#3,0#4,0#5,1#1,1#2,1#3,1#4,1#5,"
        "2#1,2#2,2#3,2#4,2#5,3#1,3#2,3#3,3#4,3#5,4#1,4#2,4#3,4#4,4#5,5#1,5#2,"
        "5#3,5#4,5#5,6#1,6#2,6#3,6#4,6#5";
    int n;
    CHECK(cron_parse(worst, &c, err, sizeof err) == 0, "worst: %s", err);
    n = cron_canonical(&c, buf, sizeof buf);
    CHECK(n > 600 && n < CRON_CANON_MAX, "worst canonical length %d", n);
    CHECK(cron_canonical(&c, buf, 100) == -1, "too small a buffer");
    CHECK(cron_canonical(&c, buf, 0) == -1, "empty buffer");
  }
}

/* ---- next() in UTC ----------------------------------------------------- */

static void test_next_utc(void) {
  /* Steps and lists. */
  SEQ("*/15 * * * *", "UTC", "2026-01-01T00:07:00Z", "2026-01-01T00:15:00Z",
      "2026-01-01T00:30:00Z", "2026-01-01T00:45:00Z", "2026-01-01T01:00:00Z");
  SEQ("5/20 * * * *", "UTC", "2026-01-01T00:00:00Z", "2026-01-01T00:05:00Z",
      "2026-01-01T00:25:00Z", "2026-01-01T00:45:00Z", "2026-01-01T01:05:00Z");
  SEQ("0 9-17/4 * * *", "UTC", "2026-01-01T09:00:00Z", "2026-01-01T13:00:00Z",
      "2026-01-01T17:00:00Z", "2026-01-02T09:00:00Z");
  SEQ("30 23 31 12 *", "UTC", "2025-06-01T00:00:00Z", "2025-12-31T23:30:00Z",
      "2026-12-31T23:30:00Z");
  SEQ("0 0 1,15 * *", "UTC", "2026-01-15T00:00:00Z", "2026-02-01T00:00:00Z",
      "2026-02-15T00:00:00Z", "2026-03-01T00:00:00Z");
  SEQ("0 12 * 2,4 *", "UTC", "2026-02-28T12:00:00Z", "2026-04-01T12:00:00Z");
  /* Seconds, and sub-second starts. */
  SEQ("*/20 * * * * *", "UTC", "2026-01-01T00:00:00.500Z",
      "2026-01-01T00:00:20Z", "2026-01-01T00:00:40Z", "2026-01-01T00:01:00Z");
  SEQ("* * * * * *", "UTC", "2026-01-01T00:00:00.999Z", "2026-01-01T00:00:01Z");
  SEQ("* * * * * *", "UTC", "2026-01-01T00:00:01Z", "2026-01-01T00:00:02Z");
  SEQ("* * * * *", "UTC", "2026-01-01T00:00:59.999Z", "2026-01-01T00:01:00Z");
  SEQ("* * * * *", "UTC", "2026-01-01T00:01:00Z", "2026-01-01T00:02:00Z");
  SEQ("59 59 23 31 12 *", "UTC", "2026-12-31T23:59:58.999Z",
      "2026-12-31T23:59:59Z", "2027-12-31T23:59:59Z");
  /* Before 1970. */
  SEQ("0 0 * * MON", "UTC", "1969-12-31T12:00:00Z", "1970-01-05T00:00:00Z");
  SEQ("0 0 1 1 *", "UTC", "1900-06-01T00:00:00Z", "1901-01-01T00:00:00Z");
  /* L, L-n, LW. */
  SEQ("0 0 L * *", "UTC", "2024-01-15T00:00:00Z", "2024-01-31T00:00:00Z",
      "2024-02-29T00:00:00Z", "2024-03-31T00:00:00Z", "2024-04-30T00:00:00Z");
  SEQ("0 0 L 2 *", "UTC", "2025-03-01T00:00:00Z", "2026-02-28T00:00:00Z",
      "2027-02-28T00:00:00Z", "2028-02-29T00:00:00Z");
  SEQ("0 0 L-2 * *", "UTC", "2024-01-01T00:00:00Z", "2024-01-29T00:00:00Z",
      "2024-02-27T00:00:00Z", "2024-03-29T00:00:00Z", "2024-04-28T00:00:00Z");
  SEQ("0 0 L-30 * *", "UTC", "2023-12-15T00:00:00Z", "2024-01-01T00:00:00Z",
      "2024-03-01T00:00:00Z", "2024-05-01T00:00:00Z");
  SEQ("0 0 L-28 2 *", "UTC", "2023-01-01T00:00:00Z", "2024-02-01T00:00:00Z",
      "2028-02-01T00:00:00Z");
  SEQ("0 0 LW * *", "UTC", "2024-01-01T00:00:00Z", "2024-01-31T00:00:00Z",
      "2024-02-29T00:00:00Z", "2024-03-29T00:00:00Z", "2024-04-30T00:00:00Z",
      "2024-05-31T00:00:00Z", "2024-06-28T00:00:00Z");
  SEQ("0 0 LW 8 *", "UTC", "2024-01-01T00:00:00Z", "2024-08-30T00:00:00Z",
      "2025-08-29T00:00:00Z");
  SEQ("0 0 1,L * *", "UTC", "2024-12-31T00:00:00Z", "2025-01-01T00:00:00Z",
      "2025-01-31T00:00:00Z", "2025-02-01T00:00:00Z", "2025-02-28T00:00:00Z");
  /* nW: never leaves the month; nothing in a month without day n. */
  SEQ("0 0 15W * *", "UTC", "2024-06-01T00:00:00Z", "2024-06-14T00:00:00Z",
      "2024-07-15T00:00:00Z", "2024-08-15T00:00:00Z", "2024-09-16T00:00:00Z");
  SEQ("0 0 1W * *", "UTC", "2024-05-15T00:00:00Z", "2024-06-03T00:00:00Z",
      "2024-07-01T00:00:00Z");
  SEQ("0 0 1W 2 *", "UTC", "2025-01-01T00:00:00Z", "2025-02-03T00:00:00Z");
  SEQ("0 0 31W * *", "UTC", "2025-07-01T00:00:00Z", "2025-07-31T00:00:00Z",
      "2025-08-29T00:00:00Z", "2025-10-31T00:00:00Z", "2025-12-31T00:00:00Z");
  SEQ("0 0 30W 2 *", "UTC", "2024-01-01T00:00:00Z", "none");
  SEQ("0 0 29W 2 *", "UTC", "2025-01-01T00:00:00Z", "2028-02-29T00:00:00Z",
      "2032-02-27T00:00:00Z");
  SEQ("0 0 5W,L * *", "UTC", "2025-01-01T00:00:00Z", "2025-01-06T00:00:00Z",
      "2025-01-31T00:00:00Z", "2025-02-05T00:00:00Z");
  /* nL and n#k, across month and year ends. */
  SEQ("0 0 * * 5L", "UTC", "2024-01-01T00:00:00Z", "2024-01-26T00:00:00Z",
      "2024-02-23T00:00:00Z", "2024-03-29T00:00:00Z");
  SEQ("0 0 * * 0L", "UTC", "2024-12-01T00:00:00Z", "2024-12-29T00:00:00Z",
      "2025-01-26T00:00:00Z");
  SEQ("0 0 * * 1#1", "UTC", "2024-01-01T00:00:00Z", "2024-02-05T00:00:00Z",
      "2024-03-04T00:00:00Z");
  SEQ("0 0 * * FRI#5", "UTC", "2024-01-01T00:00:00Z", "2024-03-29T00:00:00Z",
      "2024-05-31T00:00:00Z", "2024-08-30T00:00:00Z", "2024-11-29T00:00:00Z",
      "2025-01-31T00:00:00Z");
  SEQ("0 0 * * 1#1,5L", "UTC", "2024-12-15T00:00:00Z", "2024-12-27T00:00:00Z",
      "2025-01-06T00:00:00Z", "2025-01-31T00:00:00Z");
  SEQ("0 0 * * 0#2,6", "UTC", "2026-02-01T00:00:00Z", "2026-02-07T00:00:00Z",
      "2026-02-08T00:00:00Z", "2026-02-14T00:00:00Z");
  /* Day-of-month OR day-of-week when both are restricted. */
  SEQ("0 0 13 * FRI", "UTC", "2026-02-01T00:00:00Z", "2026-02-06T00:00:00Z",
      "2026-02-13T00:00:00Z", "2026-02-20T00:00:00Z", "2026-02-27T00:00:00Z",
      "2026-03-06T00:00:00Z", "2026-03-13T00:00:00Z");
  SEQ("0 0 */10 * 1", "UTC", "2026-03-01T00:00:00Z", "2026-03-02T00:00:00Z",
      "2026-03-09T00:00:00Z", "2026-03-11T00:00:00Z", "2026-03-16T00:00:00Z");
  SEQ("0 0 1 2 fri#2", "UTC", "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z",
      "2026-02-13T00:00:00Z", "2027-02-01T00:00:00Z");
  SEQ("0 0 31W 2 SUN", "UTC", "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z",
      "2026-02-08T00:00:00Z");
  /* AND when one side is * or ?. */
  SEQ("0 0 ? * MON", "UTC", "2026-03-01T00:00:00Z", "2026-03-02T00:00:00Z",
      "2026-03-09T00:00:00Z");
  SEQ("0 0 13 * ?", "UTC", "2026-03-01T00:00:00Z", "2026-03-13T00:00:00Z",
      "2026-04-13T00:00:00Z");
  SEQ("0 0 * * SUN-SUN", "UTC", "2024-01-01T00:00:00Z", "2024-01-07T00:00:00Z",
      "2024-01-14T00:00:00Z");
  SEQ("0 0 * * mon-0", "UTC", "2024-01-01T00:00:00Z", "2024-01-02T00:00:00Z",
      "2024-01-03T00:00:00Z");
  /* Leap years, and years after 2038. */
  SEQ("0 0 29 2 *", "UTC", "2025-01-01T00:00:00Z", "2028-02-29T00:00:00Z",
      "2032-02-29T00:00:00Z");
  SEQ("0 0 29 2 *", "UTC", "2096-03-01T00:00:00Z", "2104-02-29T00:00:00Z");
  SEQ("0 0 29 2 *", "UTC", "2399-01-01T00:00:00Z", "2400-02-29T00:00:00Z");
  SEQ("0 0 1 1 *", "UTC", "2100-06-01T00:00:00Z", "2101-01-01T00:00:00Z");
  SEQ("0 12 * * MON", "UTC", "2040-02-27T12:00:00Z", "2040-03-05T12:00:00Z");
  SEQ("@yearly", "UTC", "9998-06-01T00:00:00Z", "9999-01-01T00:00:00Z", "none");
  SEQ("59 23 31 12 *", "UTC", "9999-12-31T23:58:00Z", "9999-12-31T23:59:00Z",
      "none");
  /* Never, or not within 50 years: no next time. */
  SEQ("0 0 30 2 *", "UTC", "2025-01-01T00:00:00Z", "none");
  SEQ("0 0 31 2 *", "UTC", "2025-01-01T00:00:00Z", "none");
  SEQ("0 0 31 4,6,9,11 *", "UTC", "2025-01-01T00:00:00Z", "none");
  SEQ("0 0 L-30 2 *", "UTC", "2025-01-01T00:00:00Z", "none");
  SEQ("0 0 30W 2 *", "UTC", "2025-01-01T00:00:00Z", "none");
  SEQ("* * 30 2 *", "UTC", "2025-01-01T00:00:00Z", "none");
  {
    cron_expr c;
    char err[CRON_ERR_MAX];
    int64_t out;
    int i, found = 0;
    cron_parse("0 0 30 2 *", &c, err, sizeof err);
    for (i = 0; i < 2000; i++)
      found += cron_next(&c, zone("America/New_York"),
                         (int64_t)i * 86400000 * 7, &out);
    CHECK(found == 0, "impossible expression found %d times", found);
    memset(&c, 0, sizeof c);
    CHECK(cron_next(&c, tz_utc(), 0, &out) == 0, "zeroed expression");
    cron_parse("@hourly", &c, err, sizeof err);
    CHECK(cron_next(&c, tz_utc(), INT64_MIN, &out) == 1 &&
              out == iso_ms("0001-01-01T00:00:00Z"),
          "INT64_MIN start clamps to year 1");
    CHECK(cron_next(&c, tz_utc(), INT64_MAX, &out) == 0, "INT64_MAX start");
    CHECK(cron_next(&c, NULL, 0, &out) == 1 && out == 3600000, "NULL zone");
  }
}

/* ---- DST --------------------------------------------------------------- */

static void test_dst_new_york(void) {
  /* Spring forward 2025-03-09 02:00 EST -> 03:00 EDT. */
  SEQ("30 2 * * *", "America/New_York", "2025-03-08T12:00:00-05:00",
      "2025-03-09T03:00:00-04:00", "2025-03-10T02:30:00-04:00");
  SEQ("0 2 * * *", "America/New_York", "2025-03-09T00:00:00-05:00",
      "2025-03-09T03:00:00-04:00", "2025-03-10T02:00:00-04:00");
  SEQ("59 2 * * *", "America/New_York", "2025-03-09T01:59:00-05:00",
      "2025-03-09T03:00:00-04:00", "2025-03-10T02:59:00-04:00");
  SEQ("0 3 * * *", "America/New_York", "2025-03-09T00:00:00-05:00",
      "2025-03-09T03:00:00-04:00", "2025-03-10T03:00:00-04:00");
  SEQ("0 30 2 * * *", "America/New_York", "2025-03-09T01:00:00-05:00",
      "2025-03-09T03:00:00-04:00", "2025-03-10T02:30:00-04:00");
  SEQ("*/15 * * * *", "America/New_York", "2025-03-09T01:40:00-05:00",
      "2025-03-09T01:45:00-05:00", "2025-03-09T03:00:00-04:00",
      "2025-03-09T03:15:00-04:00");
  SEQ("0 * * * *", "America/New_York", "2025-03-09T00:30:00-05:00",
      "2025-03-09T01:00:00-05:00", "2025-03-09T03:00:00-04:00",
      "2025-03-09T04:00:00-04:00");
  SEQ("30 * * * *", "America/New_York", "2025-03-09T01:00:00-05:00",
      "2025-03-09T01:30:00-05:00", "2025-03-09T03:30:00-04:00");
  SEQ("*/30 2 * * *", "America/New_York", "2025-03-09T00:00:00-05:00",
      "2025-03-10T02:00:00-04:00", "2025-03-10T02:30:00-04:00");
  /* Fall back 2025-11-02 02:00 EDT -> 01:00 EST. */
  SEQ("30 1 * * *", "America/New_York", "2025-11-01T12:00:00-04:00",
      "2025-11-02T01:30:00-04:00", "2025-11-03T01:30:00-05:00");
  SEQ("30 1 * * *", "America/New_York", "2025-11-02T01:30:00-04:00",
      "2025-11-03T01:30:00-05:00");
  SEQ("30 1 * * *", "America/New_York", "2025-11-02T01:10:00-05:00",
      "2025-11-03T01:30:00-05:00");
  SEQ("5 1 * * *", "America/New_York", "2025-11-02T01:50:00-04:00",
      "2025-11-03T01:05:00-05:00");
  SEQ("0 1 * * *", "America/New_York", "2025-11-02T00:59:59-04:00",
      "2025-11-02T01:00:00-04:00", "2025-11-03T01:00:00-05:00");
  SEQ("0 2 * * *", "America/New_York", "2025-11-02T01:30:00-05:00",
      "2025-11-02T02:00:00-05:00");
  SEQ("*/15 * * * *", "America/New_York", "2025-11-02T01:40:00-04:00",
      "2025-11-02T01:45:00-04:00", "2025-11-02T01:00:00-05:00",
      "2025-11-02T01:15:00-05:00", "2025-11-02T01:30:00-05:00",
      "2025-11-02T01:45:00-05:00", "2025-11-02T02:00:00-05:00");
  SEQ("0 * * * *", "America/New_York", "2025-11-02T00:30:00-04:00",
      "2025-11-02T01:00:00-04:00", "2025-11-02T01:00:00-05:00",
      "2025-11-02T02:00:00-05:00");
  SEQ("*/20 * * * *", "America/New_York", "2025-11-02T01:10:00-05:00",
      "2025-11-02T01:20:00-05:00", "2025-11-02T01:40:00-05:00",
      "2025-11-02T02:00:00-05:00");
  SEQ("5 1,13 * * *", "America/New_York", "2025-11-02T01:50:00-04:00",
      "2025-11-02T01:05:00-05:00", "2025-11-02T13:05:00-05:00");
  /* After 2038 the zone's POSIX rule decides (DST from 2040-03-11). */
  SEQ("30 2 * * *", "America/New_York", "2040-03-10T12:00:00-05:00",
      "2040-03-11T03:00:00-04:00", "2040-03-12T02:30:00-04:00");
  SEQ("0 * * * *", "America/New_York", "2040-11-04T00:30:00-04:00",
      "2040-11-04T01:00:00-04:00", "2040-11-04T01:00:00-05:00",
      "2040-11-04T02:00:00-05:00");
}

static void test_dst_berlin(void) {
  /* 2025-03-30 02:00 CET -> 03:00 CEST; 2025-10-26 03:00 CEST -> 02:00 CET. */
  SEQ("30 2 * * *", "Europe/Berlin", "2025-03-29T12:00:00+01:00",
      "2025-03-30T03:00:00+02:00", "2025-03-31T02:30:00+02:00");
  SEQ("30 2 * * *", "Europe/Berlin", "2025-10-25T12:00:00+02:00",
      "2025-10-26T02:30:00+02:00", "2025-10-27T02:30:00+01:00");
  SEQ("0 * * * *", "Europe/Berlin", "2025-10-26T01:30:00+02:00",
      "2025-10-26T02:00:00+02:00", "2025-10-26T02:00:00+01:00",
      "2025-10-26T03:00:00+01:00");
  SEQ("*/15 * * * *", "Europe/Berlin", "2025-03-30T01:50:00+01:00",
      "2025-03-30T03:00:00+02:00", "2025-03-30T03:15:00+02:00");
  SEQ("30 59 1 * * *", "Europe/Berlin", "2025-03-30T00:00:00+01:00",
      "2025-03-30T01:59:30+01:00", "2025-03-31T01:59:30+02:00");
  SEQ("0 0 2 * * *", "Europe/Berlin", "2025-03-30T01:59:59+01:00",
      "2025-03-30T03:00:00+02:00");
  SEQ("*/30 * 2 * * *", "Europe/Berlin", "2025-10-26T02:59:00+02:00",
      "2025-10-26T02:59:30+02:00", "2025-10-26T02:00:00+01:00",
      "2025-10-26T02:00:30+01:00");
  SEQ("0 0 * * SUN", "Europe/Berlin", "2025-03-29T00:00:00+01:00",
      "2025-03-30T00:00:00+01:00", "2025-04-06T00:00:00+02:00");
}

static void test_dst_lord_howe(void) {
  /* 2024-10-06 02:00 +10:30 -> 02:30 +11; 2025-04-06 02:00 +11 -> 01:30. */
  SEQ("15 2 * * *", "Australia/Lord_Howe", "2024-10-05T12:00:00+10:30",
      "2024-10-06T02:30:00+11:00", "2024-10-07T02:15:00+11:00");
  SEQ("0 0 2 * * *", "Australia/Lord_Howe", "2024-10-06T01:59:59+10:30",
      "2024-10-06T02:30:00+11:00", "2024-10-07T02:00:00+11:00");
  SEQ("30 2 * * *", "Australia/Lord_Howe", "2024-10-05T12:00:00+10:30",
      "2024-10-06T02:30:00+11:00", "2024-10-07T02:30:00+11:00");
  SEQ("*/10 * * * *", "Australia/Lord_Howe", "2024-10-06T01:55:00+10:30",
      "2024-10-06T02:30:00+11:00", "2024-10-06T02:40:00+11:00");
  SEQ("45 1 * * *", "Australia/Lord_Howe", "2025-04-05T12:00:00+11:00",
      "2025-04-06T01:45:00+11:00", "2025-04-07T01:45:00+10:30");
  SEQ("*/20 * * * *", "Australia/Lord_Howe", "2025-04-06T01:50:00+11:00",
      "2025-04-06T01:40:00+10:30", "2025-04-06T02:00:00+10:30",
      "2025-04-06T02:20:00+10:30");
}

static void test_dst_southern(void) {
  /* Sydney: 2025-04-06 03:00 AEDT -> 02:00 AEST; 2025-10-05 02:00 -> 03:00. */
  SEQ("30 2 * * *", "Australia/Sydney", "2025-04-05T12:00:00+11:00",
      "2025-04-06T02:30:00+11:00", "2025-04-07T02:30:00+10:00");
  SEQ("30 2 * * *", "Australia/Sydney", "2025-10-04T12:00:00+10:00",
      "2025-10-05T03:00:00+11:00", "2025-10-06T02:30:00+11:00");
  SEQ("0 * * * *", "Australia/Sydney", "2025-04-06T01:30:00+11:00",
      "2025-04-06T02:00:00+11:00", "2025-04-06T02:00:00+10:00",
      "2025-04-06T03:00:00+10:00");
  SEQ("0 * * * *", "Australia/Sydney", "2025-10-05T01:30:00+10:00",
      "2025-10-05T03:00:00+11:00", "2025-10-05T04:00:00+11:00");
  /* Sao Paulo (2018-19): the gap and the overlap straddle midnight. */
  SEQ("0 0 * * *", "America/Sao_Paulo", "2018-11-03T12:00:00-03:00",
      "2018-11-04T01:00:00-02:00", "2018-11-05T00:00:00-02:00");
  SEQ("0 0 4 11 *", "America/Sao_Paulo", "2018-01-01T00:00:00-02:00",
      "2018-11-04T01:00:00-02:00", "2019-11-04T00:00:00-03:00");
  SEQ("30 23 * * *", "America/Sao_Paulo", "2019-02-16T12:00:00-02:00",
      "2019-02-16T23:30:00-02:00", "2019-02-17T23:30:00-03:00");
  SEQ("0,30 23 * * *", "America/Sao_Paulo", "2019-02-16T22:50:00-02:00",
      "2019-02-16T23:00:00-02:00", "2019-02-16T23:30:00-02:00",
      "2019-02-16T23:00:00-03:00", "2019-02-16T23:30:00-03:00",
      "2019-02-17T23:00:00-03:00");
  SEQ("0 * * * *", "America/Sao_Paulo", "2018-11-03T22:30:00-03:00",
      "2018-11-03T23:00:00-03:00", "2018-11-04T01:00:00-02:00");
}

static void test_dst_apia(void) {
  /* Apia skipped 2011-12-30: 2011-12-29T23:59:59-10 -> 12-31T00:00+14. */
  SEQ("0 0 30 12 *", "Pacific/Apia", "2011-12-29T00:00:01-10:00",
      "2011-12-31T00:00:00+14:00", "2012-12-30T00:00:00+14:00");
  SEQ("0 9 * * *", "Pacific/Apia", "2011-12-29T10:00:00-10:00",
      "2011-12-31T00:00:00+14:00", "2011-12-31T09:00:00+14:00");
  SEQ("0 12 * * FRI", "Pacific/Apia", "2011-12-28T00:00:00-10:00",
      "2011-12-31T00:00:00+14:00", "2012-01-06T12:00:00+14:00");
  SEQ("0 */6 * * *", "Pacific/Apia", "2011-12-29T20:00:00-10:00",
      "2011-12-31T00:00:00+14:00", "2011-12-31T06:00:00+14:00");
  SEQ("0 0 * * *", "Pacific/Apia", "2011-12-29T00:00:00-10:00",
      "2011-12-31T00:00:00+14:00", "2012-01-01T00:00:00+14:00");
}

/* ---- Property checks against a brute-force oracle ---------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ULL;

static uint32_t rnd(uint32_t n) {
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state % n);
}

/* Day match straight from the definitions (no masks). */
static int ref_day(const cron_expr *c, int y, int m, int d) {
  int dim = civil_days_in_month(y, m), n, k, w;
  int wd = civil_weekday(civil_days_from_date(y, m, d));
  int dom_ok = (c->dom >> d & 1) || (c->dom_last && d == dim);
  int dow_ok = c->dow >> wd & 1;
  for (n = 1; n <= 30; n++)
    if ((c->dom_last_minus >> n & 1) && d == dim - n) dom_ok = 1;
  if (c->dom_last_weekday) {
    int e = dim;
    while (civil_weekday(civil_days_from_date(y, m, e)) % 6 == 0) e--;
    if (d == e) dom_ok = 1;
  }
  for (n = 1; n <= dim; n++) {
    int best = -1, dist;
    if (!(c->dom_nearest_wd >> n & 1)) continue;
    for (dist = 0; best < 0 && dist < 3; dist++) {
      int cand[2] = {n - dist, n + dist}, j;
      for (j = 0; j < 2 && best < 0; j++)
        if (cand[j] >= 1 && cand[j] <= dim &&
            civil_weekday(civil_days_from_date(y, m, cand[j])) % 6 != 0)
          best = cand[j];
    }
    if (best == d) dom_ok = 1;
  }
  for (w = 0; w < 7; w++) {
    if (w != wd) continue;
    if ((c->dow_last >> w & 1) && d + 7 > dim) dow_ok = 1;
    for (k = 1; k <= 5; k++)
      if ((c->dow_nth[w] >> k & 1) && (d - 1) / 7 + 1 == k) dow_ok = 1;
  }
  if (c->dom_star && c->dow_star) return 1;
  if (c->dom_star) return dow_ok;
  if (c->dow_star) return dom_ok;
  return dom_ok || dow_ok;
}

static int ref_match(const cron_expr *c, int64_t wall) {
  civil_time t;
  civil_from_ms(wall * 1000, &t);
  return (c->seconds >> t.second & 1) && (c->minutes >> t.minute & 1) &&
         (c->hours >> t.hour & 1) && (c->months >> t.month & 1) &&
         ref_day(c, t.year, t.month, t.day);
}

static int64_t wall_of(const tz_zone *z, int64_t t) {
  return t + tz_offset_at(z, t);
}

/*
** First run instant in (a, a + span] by brute force, stepping `step`
** seconds (60 when only second 0 is allowed; offsets are whole minutes in
** the years used). -1 if none. Fixed-time jobs run when the highest wall
** time reached so far first reaches a match.
*/
static int64_t brute_next(const cron_expr *c, const tz_zone *z, int64_t a,
                          int64_t span, int step) {
  int64_t t = (a / step + 1) * step, hi = a + span, m = INT64_MIN, b;
  if (c->fixed_time) {
    m = wall_of(z, a);
    for (b = (a / 60) * 60; b > a - 2 * 86400; b -= 60)
      if (wall_of(z, b - 1) > m) m = wall_of(z, b - 1);
  }
  for (; t <= hi; t += step) {
    int64_t w = wall_of(z, t), v;
    if (!c->fixed_time) {
      if (ref_match(c, w)) return t;
      continue;
    }
    if (w <= m) continue;
    for (v = (m / step + 1) * step; v <= w; v += step)
      if (ref_match(c, v)) return t;
    m = w;
  }
  return -1;
}

static void gen_value(char *out, int lo, int hi) {
  sprintf(out + strlen(out), "%d", lo + (int)rnd((uint32_t)(hi - lo + 1)));
}

/* A random valid item list for a plain field. */
static void gen_plain(char *out, int lo, int hi, int small) {
  int items = 1 + (rnd(4) == 0) + (rnd(6) == 0), i;
  for (i = 0; i < items; i++) {
    int a = lo + (int)rnd((uint32_t)(hi - lo + 1));
    int b = a + (int)rnd((uint32_t)(hi - a + 1));
    int step = 1 + (int)rnd((uint32_t)(small ? 3 : (hi - lo + 1) / 2));
    if (i) strcat(out, ",");
    switch (rnd(small ? 4 : 7)) {
      case 0: gen_value(out, lo, hi); break;
      case 1: sprintf(out + strlen(out), "%d-%d", a, b); break;
      case 2: sprintf(out + strlen(out), "%d", a); break;
      case 3: sprintf(out + strlen(out), "%d-%d/%d", a, b, step); break;
      case 4: sprintf(out + strlen(out), "*/%d", step); break;
      case 5: sprintf(out + strlen(out), "%d/%d", a, step); break;
      default: strcat(out, "*"); break;
    }
  }
}

static void gen_dom(char *out) {
  int r = (int)rnd(10), items = 1 + (rnd(3) == 0), i;
  if (r < 4) {
    strcat(out, r < 3 ? "*" : "?");
    return;
  }
  for (i = 0; i < items; i++) {
    if (i) strcat(out, ",");
    switch (rnd(7)) {
      case 0: strcat(out, "L"); break;
      case 1: sprintf(out + strlen(out), "L-%d", 1 + (int)rnd(30)); break;
      case 2: strcat(out, "LW"); break;
      case 3: sprintf(out + strlen(out), "%dW", 1 + (int)rnd(31)); break;
      default: gen_plain(out, 1, 31, 0); break;
    }
  }
}

static void gen_dow(char *out) {
  static const char *names[7] = {"SUN", "MON", "TUE", "WED",
                                 "THU", "FRI", "SAT"};
  int r = (int)rnd(10), items = 1 + (rnd(3) == 0), i;
  if (r < 4) {
    strcat(out, r < 3 ? "*" : "?");
    return;
  }
  for (i = 0; i < items; i++) {
    int w = (int)rnd(7);
    if (i) strcat(out, ",");
    switch (rnd(6)) {
      case 0: sprintf(out + strlen(out), "%sL", rnd(2) ? names[w] : "5"); break;
      case 1:
        sprintf(out + strlen(out), "%s#%d", names[w], 1 + (int)rnd(5));
        break;
      case 2: sprintf(out + strlen(out), "%s-SUN", names[w]); break;
      default: gen_plain(out, 0, 6, 0); break;
    }
  }
}

/* A random valid expression; 5 fields unless with_seconds. */
static void gen_expr(char *out, int with_seconds) {
  out[0] = 0;
  if (with_seconds) {
    gen_plain(out, 0, 59, 1);
    strcat(out, " ");
  }
  if (rnd(3) == 0) gen_value(out, 0, 59);
  else gen_plain(out, 0, 59, 0);
  strcat(out, " ");
  if (rnd(3) == 0) gen_value(out, 0, 23);
  else gen_plain(out, 0, 23, 0);
  strcat(out, " ");
  gen_dom(out);
  strcat(out, " ");
  if (rnd(2)) strcat(out, "*");
  else gen_plain(out, 1, 12, 0);
  strcat(out, " ");
  gen_dow(out);
}

/* Random start: near a transition of z when it has one, else anywhere. */
static int64_t gen_start(const tz_zone *z) {
  int64_t t = (int64_t)946684800 + (int64_t)rnd(40u * 365) * 86400 +
              (int64_t)rnd(86400);
  int64_t s = tz_next_transition(z, t);
  if (s != INT64_MAX && s - t < 400LL * 86400 && rnd(4) != 0)
    t = s - 3 * 3600 + (int64_t)rnd(5 * 3600);
  return t;
}

static int oracle_found, oracle_cases;

static void property_case(const char *expr, const tz_zone *z, int64_t a,
                          int step, int64_t span) {
  cron_expr c;
  char err[CRON_ERR_MAX], buf[CRON_CANON_MAX];
  int64_t out, t, want;
  int ok;
  if (cron_parse(expr, &c, err, sizeof err)) {
    CHECK(0, "generated '%s' should parse: %s", expr, err);
    return;
  }
  /* Canonical text parses to the same matching. */
  {
    cron_expr c2;
    cron_canonical(&c, buf, sizeof buf);
    CHECK(cron_parse(buf, &c2, err, sizeof err) == 0, "canonical '%s' of '%s'",
          buf, expr);
  }
  ok = cron_next(&c, z, a * 1000 + (int64_t)rnd(1000), &out);
  t = ok ? out / 1000 : -1;
  want = brute_next(&c, z, a, span, step);
  oracle_cases++;
  if (want >= 0) oracle_found++;
  if (ok) {
    CHECK(t > a, "'%s' %s: next %lld not after %lld", expr, tz_name(z),
          (long long)t, (long long)a);
    CHECK(ref_match(&c, wall_of(z, t)) ||
              (c.fixed_time && tz_next_transition(z, t - 1) == t),
          "'%s' %s: result %lld does not match in local time", expr, tz_name(z),
          (long long)t);
  }
  if (want >= 0)
    CHECK(ok && t == want, "'%s' %s after %lld: next %lld, brute force %lld",
          expr, tz_name(z), (long long)a, (long long)t, (long long)want);
  else
    CHECK(!ok || t > a + span,
          "'%s' %s after %lld: next %lld but brute force saw nothing", expr,
          tz_name(z), (long long)a, (long long)t);
}

static void test_properties(void) {
  static const char *zones[] = {"UTC", "America/New_York", "Europe/Berlin",
                                "Australia/Lord_Howe", "Australia/Sydney"};
  char expr[400];
  int i;
  for (i = 0; i < 1500; i++) {
    const tz_zone *z = zone(zones[i % 5]);
    gen_expr(expr, 0);
    property_case(expr, z, gen_start(z), 60, 3 * 86400);
  }
  for (i = 0; i < 300; i++) {
    const tz_zone *z = zone(zones[i % 5]);
    gen_expr(expr, 1);
    property_case(expr, z, gen_start(z), 1, 4 * 3600);
  }
  /* Fixed-time jobs near transitions, every minute of the day. */
  for (i = 0; i < 400; i++) {
    const tz_zone *z = zone(zones[1 + i % 4]);
    sprintf(expr, "%d %d * * *", (int)rnd(60), (int)rnd(24));
    property_case(expr, z, gen_start(z), 60, 3 * 86400);
  }
  /* The oracle must see runs in most cases, or it tests nothing. */
  CHECK(oracle_found * 2 > oracle_cases, "oracle found runs in %d of %d",
        oracle_found, oracle_cases);
}

/* Every iteration of next() moves forward, over long runs in DST zones. */
static void test_long_iteration(void) {
  static const char *exprs[] = {"*/7 * * * *", "30 2 * * *",     "0 * * * *",
                                "0 1 * * SUN", "*/15 1-3 * * *", "0 0 L * *"};
  static const char *zones[] = {"America/New_York", "Australia/Lord_Howe",
                                "Pacific/Apia", "America/Sao_Paulo"};
  size_t i, j;
  for (i = 0; i < sizeof exprs / sizeof exprs[0]; i++)
    for (j = 0; j < sizeof zones / sizeof zones[0]; j++) {
      cron_expr c;
      char err[CRON_ERR_MAX];
      int64_t t = iso_ms("2010-01-01T00:00:00Z"), out;
      int k, bad = 0;
      cron_parse(exprs[i], &c, err, sizeof err);
      for (k = 0; k < 3000; k++) {
        if (!cron_next(&c, zone(zones[j]), t, &out) || out <= t) {
          bad = 1;
          break;
        }
        t = out;
      }
      CHECK(!bad, "'%s' in %s stopped moving after %d steps", exprs[i],
            zones[j], k);
    }
}

/* ---- Regressions ------------------------------------------------------- */

static void test_regressions(void) {
  /* Canonical step detection on a non-progression whose "last" value would
  ** lie past bit 63 (UBSan: shift exponent 80). */
  acc("0,40,41 * * * * *", "0,40-41 * * * * *");
  acc("0,40,41 * * * *", "0 0,40-41 * * * *");
  /* names with the letters of the special forms: JUL (L), WED (W) */
  acc("0 0 * JUL *", "0 0 0 * 7 *");
  acc("0 0 * JUL-AUG/2 *", "0 0 0 * 7 *");
  acc("0 0 * * MON-WED/2", "0 0 0 * * 1,3");
  /* cron_next of an expression that was not parsed (a field with no
  ** value) has no occurrence; cron_canonical needs a buffer */
  cron_expr c;
  int64_t t;
  char buf[CRON_CANON_MAX];
  CHECK(cron_parse("* * * * * *", &c, NULL, 0) == 0, "all stars");
  c.minutes = 0;
  CHECK(!cron_next(&c, NULL, 0, &t), "no minutes");
  c.minutes = 1;
  c.hours = 0;
  CHECK(!cron_next(&c, NULL, 0, &t), "no hours");
  c.hours = 1;
  c.months = 0;
  CHECK(!cron_next(&c, NULL, 0, &t), "no months");
  c.months = 2;
  CHECK(cron_next(&c, NULL, -1, &t) && t == 0,
        "January, minute 0, hour 0: %lld", (long long)t);
  CHECK(cron_canonical(&c, NULL, 10) == -1 && cron_canonical(&c, buf, 0) == -1,
        "canonical: no buffer");
  /* next() after+1 landing exactly on a transition instant. */
  SEQ("0 0 2 * * *", "Australia/Lord_Howe", "2024-10-06T01:59:59+10:30",
      "2024-10-06T02:30:00+11:00");
  SEQ("0 30 1 * * *", "America/New_York", "2025-11-02T01:59:59-04:00",
      "2025-11-03T01:30:00-05:00");
}

/* A zone (TZif v1, built here) whose wall clock skips 02:00-03:00 every
** day from 1970 to 2030: +1 h at 02:00, back at 05:00. A job whose times
** all lie in that gap never fires: the search gives up after 50 years of
** segments (HORIZON_SECS) and says so; one time outside the gap fires. */
static void test_daily_gap(void) {
  enum { DAYS = 60 * 366, NT = 2 * DAYS };
  size_t len = 44 + (size_t)NT * 5 + 2 * 6 + 4;
  unsigned char *buf = calloc(1, len), *p;
  if (!buf) return;
  static const unsigned char counts[24] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                                           0, 0, 0, 0, 0, 0, 0, 2, 0, 0, 0, 4};
  memcpy(buf, "TZif", 4);
  memcpy(buf + 20, counts, sizeof counts);
  p = buf + 32; /* transition count, big-endian */
  p[0] = (unsigned char)(NT >> 24);
  p[1] = (unsigned char)(NT >> 16);
  p[2] = (unsigned char)(NT >> 8);
  p[3] = (unsigned char)NT;
  p = buf + 44;
  for (int k = 0; k < NT; k++) {
    uint32_t t = (uint32_t)(k / 2) * 86400u + (k % 2 ? 4u : 2u) * 3600u;
    *p++ = (unsigned char)(t >> 24);
    *p++ = (unsigned char)(t >> 16);
    *p++ = (unsigned char)(t >> 8);
    *p++ = (unsigned char)t;
  }
  for (int k = 0; k < NT; k++) *p++ = (unsigned char)(k % 2 ? 0 : 1);
  static const unsigned char types[] = {0,   0, 0,    0,    0, 0, /* UTC */
                                        0,   0, 0x0e, 0x10, 1, 0, /* +1 h */
                                        'X', 0, 0,    0};
  memcpy(p, types, sizeof types);
  tz_zone *z = NULL;
  char err[160];
  CHECK(tz_parse(buf, len, "Gap/Daily", &z, err, sizeof err) == 0, "%s", err);
  free(buf);
  if (!z) return;
  cron_expr c;
  int64_t at = -1;
  CHECK(cron_parse("0,30 2 * * *", &c, err, sizeof err) == 0, "%s", err);
  CHECK(cron_next(&c, z, 0, &at) == 0 && at == -1,
        "02:00 and 02:30 never happen: %" PRId64, at);
  CHECK(cron_parse("30 2,6 * * *", &c, err, sizeof err) == 0, "%s", err);
  CHECK(cron_next(&c, z, 0, &at) == 1 && at == (6 * 3600 + 1800) * 1000LL,
        "06:30 (UTC+0 again) of day one: %" PRId64, at);
  tz_free(z);
}

int main(void) {
  db = tzdb_new(NULL);
  if (!db) return 1;
  test_rejected();
  test_accepted();
  test_fixed_time();
  test_canonical_equality();
  test_next_utc();
  test_dst_new_york();
  test_dst_berlin();
  test_dst_lord_howe();
  test_dst_southern();
  test_dst_apia();
  test_properties();
  test_long_iteration();
  test_regressions();
  test_daily_gap();
  tzdb_free(db);
  return check_report("cron");
}
