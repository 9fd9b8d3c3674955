/*
** test_ical.c -- the pure parts of the iCalendar feed: content lines
** (text/ical_write.c: folding at 75 octets never inside a character or an
** escape, TEXT escapes, CRLF), cron as an RRULE (time/cron_rrule.c: the
** exact cases, the ones no RRULE says, and that the rule's occurrences
** are cron's in wall-clock time), and a zone's VTIMEZONE
** (time/ical_zone.c: its observances over a range, DATE-TIME values).
*/
#include <stdlib.h>

#include "check.h"
#include "text/ical_write.h"
#include "time/civil.h"
#include "time/cron_rrule.h"
#include "time/ical_zone.h"
#include "time/rrule.h"
#include "zones.h"

/* ---- a writer into a buffer ------------------------------------------ */

typedef struct out_buf {
  char b[8192];
  size_t n;
  int fail_after; /* the sink fails once this many bytes were written */
} out_buf;

static int sink(void *arg, const char *bytes, size_t n) {
  out_buf *o = arg;
  if (o->fail_after >= 0 && o->n + n > (size_t)o->fail_after) return 7;
  if (o->n + n >= sizeof o->b) return 7;
  memcpy(o->b + o->n, bytes, n);
  o->n += n;
  o->b[o->n] = 0;
  return 0;
}

static void out_init(out_buf *o, ical_writer *w) {
  o->n = 0;
  o->b[0] = 0;
  o->fail_after = -1;
  ical_writer_init(w, sink, o);
}

/* Every line of text ends in CRLF and has at most 75 octets; unfolded
** (CRLF + space removed) it is `want`. */
static void check_folded(const char *text, const char *want, const char *what) {
  char unfolded[8192];
  size_t k = 0;
  const char *line = text;
  while (*line) {
    const char *crlf = strstr(line, "\r\n");
    CHECK(crlf != NULL, "%s: a line without CRLF", what);
    if (!crlf) return;
    CHECK(crlf - line <= ICAL_LINE_MAX, "%s: a line of %d octets", what,
          (int)(crlf - line));
    /* a fold never splits a UTF-8 character: the next line's first
    ** byte after the space is not a continuation byte */
    if (crlf[2] == ' ')
      CHECK(((unsigned char)crlf[3] & 0xC0) != 0x80,
            "%s: a fold inside a character", what);
    memcpy(unfolded + k, line, (size_t)(crlf - line));
    k += (size_t)(crlf - line);
    line = crlf + 2;
    if (*line == ' ') line++;
    else if (*line) {
      unfolded[k++] = '\n'; /* a new content line */
    }
  }
  unfolded[k] = 0;
  CHECK_STR(unfolded, want, what);
}

static void test_writer(void) {
  ical_writer w;
  out_buf o;
  out_init(&o, &w);
  ical_line(&w, "BEGIN", "VCALENDAR");
  CHECK_STR(o.b, "BEGIN:VCALENDAR\r\n", "a short line");

  out_init(&o, &w);
  ical_line_text(&w, "SUMMARY", "a, b; c\\d\nnext\r\nthird\x01 tab\tend");
  CHECK_STR(o.b, "SUMMARY:a\\, b\\; c\\\\d\\nnext\\nthird  tab\tend\r\n",
            "TEXT escapes: , ; \\ and newlines (CRLF as one)");

  /* 200 ASCII bytes: folded into lines of 75 octets */
  char long_text[256];
  memset(long_text, 'x', 200);
  long_text[200] = 0;
  out_init(&o, &w);
  ical_line_text(&w, "DESCRIPTION", long_text);
  char want[512];
  snprintf(want, sizeof want, "DESCRIPTION:%s", long_text);
  check_folded(o.b, want, "ASCII folded at 75 octets");
  CHECK(strncmp(o.b + 75, "\r\n ", 3) == 0, "the first fold after 75 octets");

  /* multi-byte characters across the fold: never split */
  char utf[400] = "";
  for (int i = 0; i < 60; i++) strcat(utf, "\xC3\xA9\xE2\x82\xAC"); /* é€ */
  out_init(&o, &w);
  ical_line_text(&w, "SUMMARY", utf);
  snprintf(want, sizeof want, "SUMMARY:%s", utf);
  check_folded(o.b, want, "UTF-8 folded on character boundaries");
  out_init(&o, &w);
  ical_line_text(&w, "X", "\xF0\x9F\x98\x80 four-byte \xF0\x9F\x98\x80");
  CHECK_STR(o.b, "X:\xF0\x9F\x98\x80 four-byte \xF0\x9F\x98\x80\r\n",
            "four-byte characters kept");

  /* an escape is never split by a fold */
  char commas[200];
  memset(commas, ',', 150);
  commas[150] = 0;
  out_init(&o, &w);
  ical_line_text(&w, "SUMMARY", commas);
  for (const char *p = o.b; (p = strstr(p, "\r\n ")) != NULL; p += 3)
    CHECK(p[-1] == ',' && p[3] == '\\', "a fold between escapes");

  /* parameters: quoted when they hold : ; or , */
  out_init(&o, &w);
  ical_name(&w, "DTSTART");
  ical_param(&w, "TZID", "Europe/Berlin");
  ical_colon(&w);
  ical_raw(&w, "20260329T020000");
  ical_end(&w);
  CHECK_STR(o.b, "DTSTART;TZID=Europe/Berlin:20260329T020000\r\n",
            "a parameter");
  out_init(&o, &w);
  ical_name(&w, "X");
  ical_param(&w, "P", "a:b\"c");
  ical_colon(&w);
  ical_end(&w);
  CHECK_STR(o.b, "X;P=\"a:bc\":\r\n", "a quoted parameter, '\"' dropped");

  /* the sink's failure stops the writer and is kept */
  out_init(&o, &w);
  o.fail_after = 10;
  ical_line_text(&w, "DESCRIPTION", long_text);
  ical_line(&w, "END", "VEVENT");
  CHECK_EQ_I64(w.err, 7, "the sink's code kept");
  CHECK(o.n <= 10, "nothing written after the failure");
}

/* ---- cron -> RRULE --------------------------------------------------- */

static void rule_of(const char *cron, const char *want) {
  cron_expr c;
  char err[CRON_ERR_MAX], buf[CRON_RRULE_MAX];
  const char *why = NULL;
  CHECK(cron_parse(cron, &c, err, sizeof err) == 0, "%s: %s", cron, err);
  int n = cron_rrule(&c, buf, sizeof buf, &why);
  if (!want) {
    CHECK(n == 0 && why != NULL, "%s: not exact, got '%s'", cron,
          n > 0 ? buf : "");
    return;
  }
  CHECK(n > 0, "%s: exact (%s)", cron, why ? why : "");
  if (n > 0) CHECK_STR(buf, want, cron);
}

/* The rule's occurrences, expanded by the pure RFC 5545 expander with
** DTSTART = the first cron occurrence after `from`, in UTC, are cron's
** for the next `count` occurrences. */
static void same_occurrences(const char *cron, const char *from, int count) {
  cron_expr c;
  char err[RRULE_ERR_MAX], buf[CRON_RRULE_MAX];
  CHECK(cron_parse(cron, &c, err, sizeof err) == 0, "%s: %s", cron, err);
  int n = cron_rrule(&c, buf, sizeof buf, NULL);
  CHECK(n > 0, "%s: exact", cron);
  if (n <= 0) return;
  static rrule_set set;
  CHECK(rrule_compile(buf, &set, err, sizeof err) == 0, "%s: %s: %s", cron, buf,
        err);
  civil_time t;
  int has, ok = 1;
  int32_t off;
  civil_parse_iso(from, strlen(from), &t, &has, &off, err, sizeof err);
  int64_t after = civil_to_ms(&t), first;
  if (!cron_next(&c, tz_utc(), after, &first)) return;
  int64_t dtstart = first / 1000, a = first - 1, b = a;
  for (int i = 0; i < count && ok; i++) {
    int64_t x, y;
    int hx = cron_next(&c, tz_utc(), a, &x);
    int hy = rrule_next(&set, dtstart, tz_utc(), b, &y);
    ok = hx == hy && (!hx || x == y);
    CHECK(ok, "%s (%s): occurrence %d: cron %lld, rrule %lld", cron, buf, i,
          (long long)x, (long long)y);
    a = x;
    b = y;
  }
}

static void test_cron_rrule(void) {
  rule_of("0 9 * * 1-5",
          "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0");
  rule_of("0 9 * * MON-FRI",
          "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0");
  rule_of("30 7 * * *", "FREQ=DAILY;BYHOUR=7;BYMINUTE=30;BYSECOND=0");
  rule_of("@daily", "FREQ=DAILY;BYHOUR=0;BYMINUTE=0;BYSECOND=0");
  rule_of("*/15 9-17 * * *",
          "FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16,17;BYMINUTE=0,15,30,45;"
          "BYSECOND=0");
  rule_of("0 0 1,15 * *", "FREQ=MONTHLY;BYMONTHDAY=1,15;BYHOUR=0;BYMINUTE=0;"
                          "BYSECOND=0");
  rule_of("0 0 L * *",
          "FREQ=MONTHLY;BYMONTHDAY=-1;BYHOUR=0;BYMINUTE=0;BYSECOND=0");
  rule_of("0 0 1,L-2 * *", "FREQ=MONTHLY;BYMONTHDAY=1,-3;BYHOUR=0;BYMINUTE=0;"
                           "BYSECOND=0");
  rule_of("0 10 * * MON#2,FRI#4",
          "FREQ=MONTHLY;BYDAY=2MO,4FR;BYHOUR=10;BYMINUTE=0;BYSECOND=0");
  rule_of("0 17 * * 5L,1#1", "FREQ=MONTHLY;BYDAY=1MO,-1FR;BYHOUR=17;"
                             "BYMINUTE=0;BYSECOND=0");
  rule_of("0 17 * * 5L,SUN", NULL); /* plain and ordinal weekdays */
  rule_of("0 8 3 3 *", "FREQ=MONTHLY;BYMONTH=3;BYMONTHDAY=3;BYHOUR=8;"
                       "BYMINUTE=0;BYSECOND=0");
  rule_of("15 30 6 * 1,7 SAT,SUN", "FREQ=WEEKLY;BYMONTH=1,7;BYDAY=SA,SU;"
                                   "BYHOUR=6;BYMINUTE=30;BYSECOND=15");
  rule_of("0 0 1-31 * MON", "FREQ=DAILY;BYHOUR=0;BYMINUTE=0;BYSECOND=0");
  /* what no RRULE says */
  rule_of("0 0 13 * FRI", NULL); /* the 13th OR a Friday */
  rule_of("0 0 */2 * MON", NULL);
  rule_of("0 9 15W * *", NULL);
  rule_of("0 9 LW * *", NULL);
  /* every value listed: the longest text fits */
  cron_expr c;
  char err[CRON_ERR_MAX], buf[CRON_RRULE_MAX];
  cron_parse("* * * * * *", &c, err, sizeof err);
  CHECK(cron_rrule(&c, buf, sizeof buf, NULL) > 0, "every second fits");
  cron_parse("* * * 1-30,L-1,L-2,L-3,L-4,L-5,L-6,L-7,L-8,L-9,L-10,L-11,L-12,"
             "L-13,L-14,L-15,L-16,L-17,L-18,L-19,L-20,L-21,L-22,L-23,L-24,"
             "L-25,L-26,L-27,L-28,L-29,L-30 1-11 *",
             &c, err, sizeof err);
  int n = cron_rrule(&c, buf, sizeof buf, NULL);
  CHECK(n > 0 && (size_t)n < sizeof buf, "the longest rule fits: %d", n);
  CHECK_EQ_I64(cron_rrule(&c, buf, 20, NULL), -1, "a small buffer");
  /* the rules mean cron's occurrences (UTC: no DST here) */
  same_occurrences("0 9 * * 1-5", "2026-01-01T00:00:00Z", 300);
  same_occurrences("*/15 9-17 * * *", "2026-02-27T00:00:00Z", 500);
  same_occurrences("0 0 31 * *", "2026-01-01T00:00:00Z", 40);
  same_occurrences("0 0 L-2 * *", "2024-01-01T00:00:00Z", 40);
  same_occurrences("0 10 * * MON#5,FRI#4", "2026-01-01T00:00:00Z", 60);
  same_occurrences("0 17 * * 5L,1#1", "2026-01-01T00:00:00Z", 100);
  same_occurrences("0 0 29 2 *", "2026-01-01T00:00:00Z", 5);
  same_occurrences("*/7 */5 * 2-4 *", "2026-01-01T00:00:00Z", 2000);
}

/* ---- VTIMEZONE -------------------------------------------------------- */

static int64_t at(const char *iso) {
  civil_time t;
  int has;
  int32_t off;
  char err[100];
  civil_parse_iso(iso, strlen(iso), &t, &has, &off, err, sizeof err);
  return civil_to_ms(&t) / 1000 - (has ? off : 0);
}

static void test_vtimezone(void) {
  char buf[ICAL_TIME_MAX];
  ical_time_format(at("2026-03-29T01:00:00Z"), 1, buf);
  CHECK_STR(buf, "20260329T010000Z", "UTC DATE-TIME");
  ical_time_format(at("0001-01-01T00:00:00Z"), 0, buf);
  CHECK_STR(buf, "00010101T000000", "year 1");

  ical_writer w;
  out_buf o;
  out_init(&o, &w);
  const tz_zone *berlin = zone("Europe/Berlin");
  ical_vtimezone(&w, berlin, "Europe/Berlin", at("2026-01-01T00:00:00Z"),
                 at("2026-12-31T00:00:00Z"));
  CHECK_STR(o.b,
            "BEGIN:VTIMEZONE\r\nTZID:Europe/Berlin\r\n"
            "BEGIN:STANDARD\r\nDTSTART:20251026T030000\r\n"
            "TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\n"
            "BEGIN:DAYLIGHT\r\nDTSTART:20260329T020000\r\n"
            "TZOFFSETFROM:+0100\r\nTZOFFSETTO:+0200\r\nEND:DAYLIGHT\r\n"
            "BEGIN:STANDARD\r\nDTSTART:20261025T030000\r\n"
            "TZOFFSETFROM:+0200\r\nTZOFFSETTO:+0100\r\nEND:STANDARD\r\n"
            "END:VTIMEZONE\r\n",
            "Berlin over 2026");

  out_init(&o, &w);
  ical_vtimezone(&w, zone("Asia/Tokyo"), "Asia/Tokyo",
                 at("2026-01-01T00:00:00Z"), at("2026-03-01T00:00:00Z"));
  CHECK_STR(o.b,
            "BEGIN:VTIMEZONE\r\nTZID:Asia/Tokyo\r\n"
            "BEGIN:STANDARD\r\nDTSTART:16010101T000000\r\n"
            "TZOFFSETFROM:+0900\r\nTZOFFSETTO:+0900\r\nEND:STANDARD\r\n"
            "END:VTIMEZONE\r\n",
            "a fixed zone");

  /* southern hemisphere: DST at the range's start */
  out_init(&o, &w);
  ical_vtimezone(&w, zone("Australia/Sydney"), "Australia/Sydney",
                 at("2026-01-10T00:00:00Z"), at("2026-05-01T00:00:00Z"));
  CHECK(strstr(o.b, "BEGIN:DAYLIGHT\r\nDTSTART:20251005T020000\r\n"
                    "TZOFFSETFROM:+1000\r\nTZOFFSETTO:+1100\r\n") != NULL,
        "Sydney: the DST in effect at the start:\n%s", o.b);
  CHECK(strstr(o.b, "BEGIN:STANDARD\r\nDTSTART:20260405T030000\r\n"
                    "TZOFFSETFROM:+1100\r\nTZOFFSETTO:+1000\r\n") != NULL,
        "Sydney: its end in April:\n%s", o.b);

  /* an offset with seconds (LMT) */
  out_init(&o, &w);
  ical_vtimezone(&w, zone("Europe/Amsterdam"), "Europe/Amsterdam",
                 at("1900-01-01T00:00:00Z"), at("1900-02-01T00:00:00Z"));
  CHECK(strstr(o.b, "TZOFFSETTO:+001932\r\n") != NULL,
        "Amsterdam 1900: +00:19:32:\n%s", o.b);

  /* wall times a reader finds the instant back from */
  int64_t wall;
  CHECK(ical_wall_of(berlin, at("2026-10-25T00:30:00Z"), &wall),
        "the first 02:30 of the repeated hour");
  CHECK(!ical_wall_of(berlin, at("2026-10-25T01:30:00Z"), &wall),
        "not the second");
  CHECK(ical_wall_of(berlin, at("2026-03-29T01:00:00Z"), &wall) &&
            wall == at("2026-03-29T03:00:00Z"),
        "03:00 after the gap");
}

int main(void) {
  db = tzdb_new(NULL);
  test_writer();
  test_cron_rrule();
  test_vtimezone();
  tzdb_free(db);
  return check_report("test_ical");
}
