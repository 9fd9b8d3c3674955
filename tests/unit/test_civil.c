/*
** test_civil.c -- unit tests for ext/time/civil.c: day counting, weekdays,
** ms <-> fields (negative instants included), ISO-8601 parsing (accepted
** forms and the messages of rejected ones) and formatting.
*/
#include "time/civil.h"

#include "check.h"

/* Day count by brute force (counting years and months), the oracle for
** the closed-form civil_days_from_date. */
static int64_t slow_days(int64_t year, int month, int day) {
  int64_t d = 0, y;
  int m;
  if (year >= 1970)
    for (y = 1970; y < year; y++) d += civil_is_leap(y) ? 366 : 365;
  else
    for (y = year; y < 1970; y++) d -= civil_is_leap(y) ? 366 : 365;
  for (m = 1; m < month; m++) d += civil_days_in_month(year, m);
  return d + day - 1;
}

static void test_leap_and_lengths(void) {
  CHECK(civil_days_in_month(2026, 0) == 0 && civil_days_in_month(2026, 13) == 0,
        "no month 0 or 13");
  CHECK(civil_is_leap(2000), "2000 is leap");
  CHECK(!civil_is_leap(1900), "1900 is not leap");
  CHECK(civil_is_leap(2024), "2024 is leap");
  CHECK(!civil_is_leap(2026), "2026 is not leap");
  CHECK(civil_is_leap(0), "year 0 is leap");
  CHECK(civil_is_leap(-4), "year -4 is leap");
  CHECK(!civil_is_leap(-100), "year -100 is not leap");
  CHECK_EQ_I64(civil_days_in_month(2000, 2), 29, "Feb 2000");
  CHECK_EQ_I64(civil_days_in_month(2100, 2), 28, "Feb 2100");
  CHECK_EQ_I64(civil_days_in_month(2026, 4), 30, "Apr");
  CHECK_EQ_I64(civil_days_in_month(2026, 12), 31, "Dec");
  CHECK_EQ_I64(civil_days_in_month(2026, 13), 0, "month 13");
}

static void test_known_dates(void) {
  int y, m, d;
  CHECK_EQ_I64(civil_days_from_date(1970, 1, 1), 0, "epoch");
  CHECK_EQ_I64(civil_weekday(0), 4, "1970-01-01 is a Thursday");
  CHECK_EQ_I64(civil_days_from_date(2000, 2, 29), 11016, "2000-02-29");
  CHECK_EQ_I64(civil_weekday(11016), 2, "2000-02-29 is a Tuesday");
  CHECK_EQ_I64(civil_days_from_date(2038, 1, 19), 24855, "2038-01-19");
  CHECK_EQ_I64(civil_weekday(24855), 2, "2038-01-19 is a Tuesday");
  CHECK_EQ_I64(civil_days_from_date(9999, 12, 31), 2932896, "9999-12-31");
  CHECK_EQ_I64(civil_weekday(2932896), 5, "9999-12-31 is a Friday");
  CHECK_EQ_I64(civil_days_from_date(1, 1, 1), -719162, "0001-01-01");
  CHECK_EQ_I64(civil_weekday(-719162), 1, "0001-01-01 is a Monday");
  CHECK_EQ_I64(civil_days_from_date(1969, 12, 31), -1, "1969-12-31");
  CHECK_EQ_I64(civil_weekday(-1), 3, "1969-12-31 is a Wednesday");
  CHECK_EQ_I64(civil_days_from_date(2026, 3, 8), 20520, "2026-03-08");
  CHECK_EQ_I64(civil_weekday(20520), 0, "2026-03-08 is a Sunday");
  civil_date_from_days(11016, &y, &m, &d);
  CHECK(y == 2000 && m == 2 && d == 29, "11016 -> %d-%d-%d", y, m, d);
  civil_date_from_days(-719162, &y, &m, &d);
  CHECK(y == 1 && m == 1 && d == 1, "-719162 -> %d-%d-%d", y, m, d);
  civil_date_from_days(2932896, &y, &m, &d);
  CHECK(y == 9999 && m == 12 && d == 31, "2932896 -> %d-%d-%d", y, m, d);
}

/* Every day from year -1000 to 12000 round-trips and advances by one date;
** a sample of dates agrees with the brute-force count. */
static void test_round_trips(void) {
  int64_t days, first = civil_days_from_date(-1000, 1, 1);
  int64_t last = civil_days_from_date(12000, 12, 31);
  int py = -1001, pm = 12, pd = 31, bad = 0, badseq = 0, badwd = 0;
  for (days = first; days <= last; days++) {
    int y, m, d, next_ok;
    civil_date_from_days(days, &y, &m, &d);
    if (civil_days_from_date(y, m, d) != days) bad++;
    next_ok = (y == py && m == pm && d == pd + 1) ||
              (y == py && m == pm + 1 && d == 1 &&
               pd == civil_days_in_month(py, pm)) ||
              (y == py + 1 && m == 1 && d == 1 && pm == 12 && pd == 31);
    if (!next_ok) badseq++;
    if (civil_weekday(days) != civil_weekday(days - 1) % 7 + 1 &&
        !(civil_weekday(days) == 0 && civil_weekday(days - 1) == 6))
      badwd++;
    py = y, pm = m, pd = d;
  }
  CHECK_EQ_I64(bad, 0, "days -> date -> days mismatches");
  CHECK_EQ_I64(badseq, 0, "consecutive days not consecutive dates");
  CHECK_EQ_I64(badwd, 0, "weekday sequence breaks");
  {
    static const int sample[][3] = {{1600, 3, 1}, {1899, 12, 31}, {1900, 3, 1},
                                    {1969, 1, 1}, {1999, 12, 31}, {2024, 2, 29},
                                    {2100, 3, 1}, {2400, 2, 29},  {3001, 7, 4}};
    size_t k;
    for (k = 0; k < sizeof sample / sizeof sample[0]; k++)
      CHECK_EQ_I64(
          civil_days_from_date(sample[k][0], sample[k][1], sample[k][2]),
          slow_days(sample[k][0], sample[k][1], sample[k][2]),
          "brute-force day count");
  }
}

static void test_ms_fields(void) {
  civil_time t;
  civil_from_ms(-1, &t);
  CHECK(t.year == 1969 && t.month == 12 && t.day == 31 && t.hour == 23 &&
            t.minute == 59 && t.second == 59 && t.ms == 999,
        "-1 ms is 1969-12-31T23:59:59.999");
  CHECK_EQ_I64(civil_to_ms(&t), -1, "back to -1");
  civil_from_ms(1772960400250LL, &t); /* 2026-03-08T09:00:00.250Z */
  CHECK(t.year == 2026 && t.month == 3 && t.day == 8 && t.hour == 9 &&
            t.minute == 0 && t.second == 0 && t.ms == 250,
        "2026-03-08T09:00:00.250");
  CHECK_EQ_I64(civil_to_ms(&t), 1772960400250LL, "back to ms");
  civil_from_ms(-62135596800000LL, &t);
  CHECK(t.year == 1 && t.month == 1 && t.day == 1 && t.hour == 0,
        "0001-01-01T00:00Z");
  {
    int64_t ms, bad = 0;
    for (ms = -400LL * 365 * CIVIL_MS_PER_DAY;
         ms < 400LL * 365 * CIVIL_MS_PER_DAY; ms += 7777777777LL) {
      civil_from_ms(ms, &t);
      if (civil_to_ms(&t) != ms || t.hour > 23 || t.ms < 0) bad++;
    }
    CHECK_EQ_I64(bad, 0, "ms round trips");
  }
}

typedef struct iso_ok {
  const char *text;
  int64_t ms; /* wall-clock ms */
  int has_offset;
  int32_t offset_s;
} iso_ok;

static void test_parse_ok(void) {
  static const iso_ok cases[] = {
      {"2026-03-08T09:00:00Z", 1772960400000LL, 1, 0},
      {"2026-03-08t09:00:00z", 1772960400000LL, 1, 0},
      {"2026-03-08 09:00:00", 1772960400000LL, 0, 0},
      {"2026-03-08T09:00", 1772960400000LL, 0, 0},
      {"2026-03-08", 1772928000000LL, 0, 0},
      {"2026-03-08T09:00:00.25Z", 1772960400250LL, 1, 0},
      {"2026-03-08T09:00:00.123456789Z", 1772960400123LL, 1, 0},
      {"2026-03-08T09:00:00.5+01:00", 1772960400500LL, 1, 3600},
      {"2026-03-08T09:00:00-05:30", 1772960400000LL, 1, -19800},
      {"2026-03-08T09:00+0530", 1772960400000LL, 1, 19800},
      {"2026-03-08T09:00:00+14", 1772960400000LL, 1, 50400},
      {"2026-03-08T09:00:00-00:00", 1772960400000LL, 1, 0},
      {"2000-02-29T23:59:59.999", 951868799999LL, 0, 0},
      {"0001-01-01T00:00:00Z", -62135596800000LL, 1, 0},
      {"9999-12-31T23:59:59.999Z", 253402300799999LL, 1, 0},
      {"1969-12-31T23:59:59Z", -1000, 1, 0},
  };
  size_t k;
  for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    civil_time t;
    int has = -1;
    int32_t off = -1;
    char err[128] = "";
    int rc = civil_parse_iso(cases[k].text, strlen(cases[k].text), &t, &has,
                             &off, err, sizeof err);
    CHECK(rc == 0, "parse '%s' failed: %s", cases[k].text, err);
    if (rc) continue;
    CHECK_EQ_I64(civil_to_ms(&t), cases[k].ms, cases[k].text);
    CHECK_EQ_I64(has, cases[k].has_offset, cases[k].text);
    CHECK_EQ_I64(off, cases[k].offset_s, cases[k].text);
  }
  {
    /* Length is honoured: the text need not be NUL-terminated. */
    civil_time t;
    int has;
    int32_t off;
    char err[64];
    CHECK(civil_parse_iso("2026-03-08T09:00Zjunk", 17, &t, &has, &off, err,
                          sizeof err) == 0 &&
              has == 1,
          "length-limited parse");
  }
}

typedef struct iso_bad {
  const char *text;
  const char *message;
} iso_bad;

static void test_parse_errors(void) {
  static const iso_bad cases[] = {
      {"", "empty date/time text"},
      {"2026-13-01", "month 13 is out of range 1-12"},
      {"2026-00-10", "month 0 is out of range 1-12"},
      {"2026-02-29", "day 29 is out of range 1-28 for 2026-02"},
      {"2026-02-30T00:00", "day 30 is out of range 1-28 for 2026-02"},
      {"2026-04-31", "day 31 is out of range 1-30 for 2026-04"},
      {"2026-01-00", "day 0 is out of range 1-31 for 2026-01"},
      {"0000-01-01", "year 0 is out of range 1-9999"},
      {"2026-03-08T24:00", "hour 24 is out of range 0-23"},
      {"2026-03-08T23:60", "minute 60 is out of range 0-59"},
      {"2026-03-08T23:59:60", "second 60 is out of range 0-59"},
      {"2026-03-08T09:00+24:00", "offset hour 24 is out of range 0-23"},
      {"2026-03-08T09:00+01:60", "offset minute 60 is out of range 0-59"},
      {"2026-03-08T09:00+1",
       "expected 2-digit offset hour at offset 17, found '1'"},
      {"2026-03-08T09:00+01:",
       "expected 2-digit offset minute at offset 20, found end of text"},
      {"2026-03-08T09:00:00Zjunk", "unexpected 'j' at offset 20"},
      {"2026-03-08T09:00:00 ", "unexpected ' ' at offset 19"},
      {" 2026-03-08", "expected 4-digit year at offset 0, found ' 202'"},
      {"2026/03/08", "expected '-' at offset 4, found '/'"},
      {"2026-3-08", "expected 2-digit month at offset 5, found '3-'"},
      {"2026-03-08X09:00", "expected 'T' or ' ' at offset 10, found 'X'"},
      {"2026-03-08T0900", "expected ':' at offset 13, found '0'"},
      {"2026-03-08T09", "expected ':' at offset 13, found end of text"},
      {"2026-03-08T09:00:00.",
       "expected digits after '.' at offset 20, found end of text"},
      {"2026-03-08T", "expected 2-digit hour at offset 11, found end of text"},
      {"2026-03-08Z", "expected 'T' or ' ' at offset 10, found 'Z'"},
      {"20260308", "expected '-' at offset 4, found '0'"},
      {"2026-03-08T09:00+01:00:6",
       "expected 2-digit offset second at offset 23, found '6'"},
      {"2026-03-08T09:00+01:00:60", "offset second 60 is out of range 0-59"},
      {"12026-03-08", "expected '-' at offset 4, found '6'"},
      {"2026-03-08T09:00:00+01:00:00:00", "unexpected ':' at offset 28"},
      {"2026-03-08T09:00:00\x01", "unexpected byte 0x01 at offset 19"},
      {"2026-03-08\x7f", "expected 'T' or ' ' at offset 10, found byte 0x7f"},
      {"2026-\x01\x7f-08", "expected 2-digit month at offset 5, found '?"
                           "?'"},
      {"2026-03x08", "expected '-' at offset 7, found 'x'"},
      {"2026-03-0x", "expected 2-digit day at offset 8, found '0x'"},
      {"2026-03-08Tx", "expected 2-digit hour at offset 11, found 'x'"},
      {"2026-03-08T09:x0", "expected 2-digit minute at offset 14, found 'x0'"},
      {"2026-03-08T09:00:x", "expected 2-digit second at offset 17, found 'x'"},
      {"2026-03-08T09:00:00.x",
       "expected digits after '.' at offset 20, found 'x'"},
      {"2026-03-08T09:00+01x", "unexpected 'x' at offset 19"},
      {"2026-03-08T09:00+015",
       "expected 2-digit offset minute at offset 19, found '5'"},
  };
  size_t k;
  for (k = 0; k < sizeof cases / sizeof cases[0]; k++) {
    civil_time t;
    int has = 7;
    int32_t off = 7;
    char err[128] = "";
    int rc = civil_parse_iso(cases[k].text, strlen(cases[k].text), &t, &has,
                             &off, err, sizeof err);
    CHECK(rc == -1, "'%s' should be rejected", cases[k].text);
    CHECK_STR(err, cases[k].message, cases[k].text);
  }
  /* The error buffer may be absent or tiny. */
  {
    civil_time t;
    int has;
    int32_t off;
    char tiny[4];
    CHECK(civil_parse_iso("x", 1, &t, &has, &off, NULL, 0) == -1, "NULL err");
    CHECK(civil_parse_iso("x", 1, &t, &has, &off, tiny, 0) == -1,
          "no room for a message");
    CHECK(civil_parse_iso(NULL, 5, &t, &has, &off, NULL, 0) == -1, "NULL text");
    /* a NUL byte inside the length is a byte like another */
    char err[64];
    CHECK(civil_parse_iso("2026-03-08T09:00\0", 17, &t, &has, &off, err,
                          sizeof err) == -1 &&
              strcmp(err, "unexpected byte 0x00 at offset 16") == 0,
          "NUL inside: %s", err);
    CHECK(civil_parse_iso("2026-03-08T09:00+01", 19, &t, &has, &off, err,
                          sizeof err) == 0 &&
              off == 3600,
          "+hh at the end");
    CHECK(civil_parse_iso("x", 1, &t, &has, &off, tiny, sizeof tiny) == -1 &&
              strlen(tiny) == 3,
          "truncated message");
  }
}

static void test_format(void) {
  char buf[CIVIL_ISO_MAX];
  int n = civil_format_iso(1772960400000LL, 0, 1, buf);
  CHECK_STR(buf, "2026-03-08T09:00:00Z", "UTC");
  CHECK_EQ_I64(n, 20, "UTC length");
  civil_format_iso(1772960400000LL, 3600, 0, buf);
  CHECK_STR(buf, "2026-03-08T10:00:00+01:00", "+01:00");
  civil_format_iso(1772960400250LL, 0, 1, buf);
  CHECK_STR(buf, "2026-03-08T09:00:00.250Z", "ms shown");
  civil_format_iso(1772960400000LL, -16200, 0, buf);
  CHECK_STR(buf, "2026-03-08T04:30:00-04:30", "-04:30");
  civil_format_iso(1772960400000LL, 0, 0, buf);
  CHECK_STR(buf, "2026-03-08T09:00:00+00:00", "+00:00 when not UTC");
  civil_format_iso(-1, 0, 1, buf);
  CHECK_STR(buf, "1969-12-31T23:59:59.999Z", "negative ms");
  civil_format_iso(1772960400000LL, 3723, 0, buf); /* LMT-style seconds */
  CHECK_STR(buf, "2026-03-08T10:02:03+01:02:03", "offset with seconds");
  /* the digits written without snprintf in range, with it beyond */
  civil_format_iso(1772960400007LL, -3723, 0, buf);
  CHECK_STR(buf, "2026-03-08T07:57:57.007-01:02:03", "ms and - seconds");
  civil_format_iso(-62167219200000LL, 0, 1, buf);
  CHECK_STR(buf, "0000-01-01T00:00:00Z", "year 0");
  civil_format_iso(253402300800000LL, 0, 1, buf);
  CHECK_STR(buf, "10000-01-01T00:00:00Z", "year 10000");
  civil_format_iso(1772960400000LL, 360000, 0, buf);
  CHECK_STR(buf, "2026-03-12T13:00:00+100:00", "offset of 100 h");
  civil_format_iso(253402300799999LL, 0, 1, buf);
  CHECK_STR(buf, "9999-12-31T23:59:59.999Z", "year 9999");
  n = civil_format_iso(INT64_MAX / 2, INT32_MIN + 1, 0, buf);
  CHECK(n == (int)strlen(buf) && n < CIVIL_ISO_MAX,
        "absurd input stays in buf");
  {
    /* format -> parse round trip */
    civil_time t;
    int has;
    int32_t off;
    char err[64];
    static const int32_t offsets[] = {-18000, 0, 3723, -17762, 50400};
    size_t k;
    for (k = 0; k < sizeof offsets / sizeof offsets[0]; k++) {
      civil_format_iso(1234567890123LL, offsets[k], 0, buf);
      CHECK(civil_parse_iso(buf, strlen(buf), &t, &has, &off, err,
                            sizeof err) == 0 &&
                off == offsets[k] &&
                civil_to_ms(&t) - (int64_t)off * 1000 == 1234567890123LL,
            "round trip of %s", buf);
    }
  }
}

int main(void) {
  test_leap_and_lengths();
  test_known_dates();
  test_round_trips();
  test_ms_fields();
  test_parse_ok();
  test_parse_errors();
  test_format();
  return check_report("civil");
}
