/*
** test_describe.c -- unit tests for ext/time/describe.c: a table of cron
** expressions and their English, then intervals, once instants, bounds,
** zones and buffer limits.
**
** The third column records cronstrue 3.39.0 (npm, toString with
** use24HourTimeFormat: true), run on this machine: SAME where it prints
** exactly our text, REJECTS where it refuses an expression our dialect
** (docs/cron.md) takes, and otherwise its text, so each difference is a
** decision in view. The differences come from reading the compiled form
** (spellings that compile alike read alike: "0,30" and "*\/30" are both
** "Every 30 minutes"; "*\/2" in day-of-week lists the days), from stating
** docs/cron.md's OR of day-of-month and day-of-week ("..., and on Monday
** through Friday"), from saying nothing for day fields that let every day
** through ("1-31", "0-6"), and from ranges that end at their last value.
*/
#include "check.h"
#include "time/describe.h"
#include "time/tzdb.h"
#include "tzif_fixed.h"

#define SAME NULL
#define REJECTS "(cronstrue rejects it)"

static const struct {
  const char *expr, *want, *cronstrue;
} cases[] = {
    {"0 7 * * MON-FRI", "At 07:00, Monday through Friday", SAME},
    {"*/15 * * * *", "Every 15 minutes", SAME},
    {"30 9-17 * * *", "At 30 minutes past the hour, between 09:00 and 17:59",
     SAME},
    {"* * * * *", "Every minute", SAME},
    {"0 * * * *", "Every hour", SAME},
    {"0 */2 * * *", "On the hour, every 2 hours", SAME},
    {"0 0 */2 * *", "At 00:00, every 2 days in a month", SAME},
    {"0 0 1 * MON", "At 00:00, on day 1 of the month, and on Monday", SAME},
    {"0 0 L * *", "At 00:00, on the last day of the month", SAME},
    {"0 0 LW * *", "At 00:00, on the last weekday of the month", SAME},
    {"0 0 15W * *", "At 00:00, on the weekday nearest day 15 of the month",
     SAME},
    {"0 0 L-3 * *", "At 00:00, 3 days before the last day of the month", SAME},
    {"0 0 * * 5L", "At 00:00, on the last Friday of the month", SAME},
    {"0 0 * * 1#2", "At 00:00, on the second Monday of the month", SAME},
    {"0 0 * * FRI#3", "At 00:00, on the third Friday of the month", SAME},
    {"@daily", "At 00:00", SAME},
    {"@hourly", "Every hour", SAME},
    {"@weekly", "At 00:00, only on Sunday", SAME},
    {"@monthly", "At 00:00, on day 1 of the month", SAME},
    {"@yearly", "At 00:00, on day 1 of the month, only in January", SAME},
    {"0 0 9 * * MON", "At 09:00, only on Monday", SAME},
    {"*/30 * * * * *", "Every 30 seconds", SAME},
    {"0 0 * * 0,6", "At 00:00, only on Sunday and Saturday", SAME},
    {"0 0 * * WED-SUN", "At 00:00, Wednesday through Sunday", SAME},
    {"5/15 * * * *", "Every 15 minutes, starting at 5 minutes past the hour",
     SAME},
    {"0 9,17 * * *", "At 09:00 and 17:00", SAME},
    {"0-10 9 * * *", "Every minute between 09:00 and 09:10", SAME},
    {"*/5 9 * * *", "Every 5 minutes, between 09:00 and 09:59", SAME},
    {"0 0 1,15 * *", "At 00:00, on day 1 and 15 of the month", SAME},
    {"0 0 1-15 * *", "At 00:00, between day 1 and 15 of the month", SAME},
    {"0 0 * 1-3 *", "At 00:00, January through March", SAME},
    {"0 0 * JAN,JUN *", "At 00:00, only in January and June", SAME},
    {"0 0 * */3 *", "At 00:00, every 3 months", SAME},
    {"0 0 1 1 *", "At 00:00, on day 1 of the month, only in January", SAME},
    {"15 10 * * *", "At 10:15", SAME},
    {"0 12 * * 1,3,5", "At 12:00, only on Monday, Wednesday, and Friday", SAME},
    {"0 0 * * SAT-SUN", "At 00:00, only on Sunday and Saturday",
     "At 00:00, Saturday through Sunday"},
    {"0 0 * * FRI-SUN", "At 00:00, Friday through Sunday", SAME},
    {"0 0 * * 1-5", "At 00:00, Monday through Friday", SAME},
    {"0 0 * * 1,2,3", "At 00:00, Monday through Wednesday",
     "At 00:00, only on Monday, Tuesday, and Wednesday"},
    {"0 0 * * 1-3,5", "At 00:00, only on Monday through Wednesday and Friday",
     SAME},
    {"0 0 * * */2", "At 00:00, only on Sunday, Tuesday, Thursday, and Saturday",
     "At 00:00, every 2 days of the week"},
    {"0 0 * * 1/2", "At 00:00, only on Monday, Wednesday, and Friday",
     "At 00:00, every 2 days of the week, Monday through Saturday"},
    {"0 0 * * 1#1,5L",
     "At 00:00, on the first Monday of the month and on the last Friday of the month",
     SAME},
    {"0 0 1,15,L * *", "At 00:00, on day 1, 15, and the last day of the month",
     SAME},
    {"0 0 1-5,10 * *", "At 00:00, on day 1 through 5 and 10 of the month",
     SAME},
    {"0 0 */10 * *", "At 00:00, every 10 days in a month", SAME},
    {"0 0 5/10 * *",
     "At 00:00, every 10 days in a month, starting on day 5 of the month",
     SAME},
    {"0 0 2-20/3 * *",
     "At 00:00, every 3 days in a month, between day 2 and 20 of the month",
     SAME},
    {"*/10 9-17 * * 1-5",
     "Every 10 minutes, between 09:00 and 17:59, Monday through Friday", SAME},
    {"0 */15 9-17 * * 1-5",
     "Every 15 minutes, between 09:00 and 17:59, Monday through Friday", SAME},
    {"0 0/5 14,18 * * ?", "Every 5 minutes, at 14:00 and 18:00", SAME},
    {"0 15 10 ? * 6L", "At 10:15, on the last Saturday of the month", SAME},
    {"0 15 10 ? * 6#3", "At 10:15, on the third Saturday of the month", SAME},
    {"30 2 * * *", "At 02:30", SAME},
    {"0 30 2 * * *", "At 02:30", SAME},
    {"30 0 2 * * *", "At 02:00:30", SAME},
    {"15 30 2 * * *", "At 02:30:15", SAME},
    {"* * * * * *", "Every second", SAME},
    {"*/5 * * * * *", "Every 5 seconds", SAME},
    {"0 * * * * *", "Every minute", SAME},
    {"0 */5 * * * *", "Every 5 minutes", SAME},
    {"30 */5 * * * *", "At 30 seconds past the minute, every 5 minutes", SAME},
    {"10-20 * * * * *", "Seconds 10 through 20 past the minute", SAME},
    {"0 0 * * * *", "Every hour", SAME},
    {"0 0 */3 * * *", "On the hour, every 3 hours", SAME},
    {"0 0 0 * * *", "At 00:00", SAME},
    {"1,2,3 * * * *", "Minutes 1 through 3 past the hour",
     "At 1, 2, and 3 minutes past the hour"},
    {"0,30 * * * *", "Every 30 minutes", "At 0 and 30 minutes past the hour"},
    {"0-5 * * * *", "Minutes 0 through 5 past the hour", SAME},
    {"0-5,30 * * * *", "At 0 through 5 and 30 minutes past the hour", SAME},
    {"10-50/10 * * * *",
     "Every 10 minutes, minutes 10 through 50 past the hour", SAME},
    {"*/20 * * * *", "Every 20 minutes", SAME},
    {"0 0-3 * * *", "Every hour, between 00:00 and 03:00", SAME},
    {"0 0,12 * * *", "At 00:00 and 12:00", SAME},
    {"0 6,12,18 * * *", "At 06:00, 12:00 and 18:00", SAME},
    {"30 6,12,18 * * *", "At 06:30, 12:30 and 18:30", SAME},
    {"0 8-18/2 * * *", "On the hour, every 2 hours, between 08:00 and 18:00",
     SAME},
    {"0 */6 * * *", "On the hour, every 6 hours", SAME},
    {"0 1/6 * * *", "On the hour, every 6 hours, starting at 01:00", SAME},
    {"*/15 9 * * *", "Every 15 minutes, between 09:00 and 09:59", SAME},
    {"* 9 * * *", "Every minute, between 09:00 and 09:59", SAME},
    {"* 9-17 * * *", "Every minute, between 09:00 and 17:59", SAME},
    {"*/2 9-17 * * *", "Every 2 minutes, between 09:00 and 17:59", SAME},
    {"0 9-17 * * *", "Every hour, between 09:00 and 17:00", SAME},
    {"15 9-17/2 * * *",
     "At 15 minutes past the hour, every 2 hours, between 09:00 and 17:59",
     SAME},
    {"0 0 1 */2 *", "At 00:00, on day 1 of the month, every 2 months", SAME},
    {"0 0 1 1,4,7,10 *", "At 00:00, on day 1 of the month, every 3 months",
     "At 00:00, on day 1 of the month, only in January, April, July, and October"},
    {"0 0 1 2-11/3 *",
     "At 00:00, on day 1 of the month, every 3 months, February through November",
     SAME},
    {"0 0 29 2 *", "At 00:00, on day 29 of the month, only in February", SAME},
    {"0 0 31 * *", "At 00:00, on day 31 of the month", SAME},
    {"0 0 L 2 *", "At 00:00, on the last day of the month, only in February",
     SAME},
    {"0 0 1W * *", "At 00:00, on the first weekday of the month", SAME},
    {"0 0 L-1 * *", "At 00:00, 1 day before the last day of the month", SAME},
    {"0 12 * * 0", "At 12:00, only on Sunday", SAME},
    {"0 12 * * 7", "At 12:00, only on Sunday", SAME},
    {"0 12 * * SUN", "At 12:00, only on Sunday", SAME},
    {"0 12 * DEC SUN", "At 12:00, only on Sunday, only in December", SAME},
    {"0 12 1 * 1-5",
     "At 12:00, on day 1 of the month, and on Monday through Friday",
     "At 12:00, on day 1 of the month, Monday through Friday"},
    {"0 12 15 * 5L",
     "At 12:00, on day 15 of the month, and on the last Friday of the month",
     "At 12:00, on day 15 of the month, on the last Friday of the month"},
    {"0 12 ? * MON#1", "At 12:00, on the first Monday of the month", SAME},
    {"0 12 L * 1#1",
     "At 12:00, on the last day of the month, and on the first Monday of the month",
     "At 12:00, on the last day of the month, on the first Monday of the month"},
    {"0 22 * * 1-5", "At 22:00, Monday through Friday", SAME},
    {"5 4 * * sun", "At 04:05, only on Sunday", SAME},
    {"0 0,12 1 */2 *",
     "At 00:00 and 12:00, on day 1 of the month, every 2 months", SAME},
    {"0 4 8-14 * *", "At 04:00, between day 8 and 14 of the month", SAME},
    {"0 0 1 * *", "At 00:00, on day 1 of the month", SAME},
    {"0 0 * * 1", "At 00:00, only on Monday", SAME},
    {"5 0 * 8 *", "At 00:05, only in August", SAME},
    {"15 14 1 * *", "At 14:15, on day 1 of the month", SAME},
    {"23 0-20/2 * * *",
     "At 23 minutes past the hour, every 2 hours, between 00:00 and 20:59",
     SAME},
    {"0 */4 * * 1-5", "On the hour, every 4 hours, Monday through Friday",
     SAME},
    {"0 0 1 1 1",
     "At 00:00, on day 1 of the month, and on Monday, only in January", SAME},
    {"0 0 1 1 1-5",
     "At 00:00, on day 1 of the month, and on Monday through Friday, only in January",
     "At 00:00, on day 1 of the month, Monday through Friday, only in January"},
    {"0 9 * * 1-5", "At 09:00, Monday through Friday", SAME},
    {"1 * * * *", "At 1 minute past the hour", SAME},
    {"1 * * * * *", "At 1 second past the minute", SAME},
    {"30 0 * * * *", "At 30 seconds past the minute, on the hour", SAME},
    {"5 * 9 * * *", "At 5 seconds past the minute, between 09:00 and 09:59",
     SAME},
    {"* 5 * * * *", "Every second, at 5 minutes past the hour", SAME},
    {"*/5 * 9 * * *", "Every 5 seconds, between 09:00 and 09:59", SAME},
    {"0 1,2,3,5 * * *", "At 01:00, 02:00, 03:00 and 05:00", SAME},
    {"0 1-3,5 * * *", "At 01:00, 02:00, 03:00 and 05:00",
     "Every hour, at 01:00 through 03:00 and 05:00"},
    {"0 0 1-3,5 * *", "At 00:00, on day 1 through 3 and 5 of the month", SAME},
    {"0 0 1,L-2 * *",
     "At 00:00, on day 1 and 2 days before the last day of the month",
     "At 00:00, 2 days before the last day of the month"},
    {"0 0 * * 1,5L",
     "At 00:00, only on Monday and on the last Friday of the month", SAME},
    {"0 0 * * MON-FRI,5L",
     "At 00:00, Monday through Friday and on the last Friday of the month",
     SAME},
    {"0 0 1 * 5L",
     "At 00:00, on day 1 of the month, and on the last Friday of the month",
     "At 00:00, on day 1 of the month, on the last Friday of the month"},
    {"0 0 1 * 1,3",
     "At 00:00, on day 1 of the month, and on Monday and Wednesday", SAME},
    {"0 0 1,15 * 1-5",
     "At 00:00, on day 1 and 15 of the month, and on Monday through Friday",
     "At 00:00, on day 1 and 15 of the month, Monday through Friday"},
    {"0 0 * 1,2 *", "At 00:00, only in January and February", SAME},
    {"0 0 * 1-2 *", "At 00:00, only in January and February",
     "At 00:00, January through February"},
    {"0 0 * * 1,2", "At 00:00, only on Monday and Tuesday", SAME},
    {"0 0 * * 1-2", "At 00:00, only on Monday and Tuesday",
     "At 00:00, Monday through Tuesday"},
    {"0 0 * * 0-6", "At 00:00", "At 00:00, Sunday through Saturday"},
    {"0 0 1-31 * *", "At 00:00", "At 00:00, between day 1 and 31 of the month"},
    {"0 0 1 * 0-6", "At 00:00",
     "At 00:00, on day 1 of the month, Sunday through Saturday"},
    {"30 9-11 * * *", "At 30 minutes past the hour, between 09:00 and 11:59",
     SAME},
    {"0 0 * 2/3 *", "At 00:00, every 3 months, February through November",
     "At 00:00, every 3 months, February through December"},
    {"0 9 1 1 *", "At 09:00, on day 1 of the month, only in January", SAME},
    {"*/10 * * * *", "Every 10 minutes", SAME},
    {"0 */12 * * *", "At 00:00 and 12:00", "On the hour, every 12 hours"},
    {"0 0 L-2 * *", "At 00:00, 2 days before the last day of the month", SAME},
    {"0 0 2W * *", "At 00:00, on the weekday nearest day 2 of the month", SAME},
    {"0 0 * * 1#5", "At 00:00, on the fifth Monday of the month", SAME},
    {"0 0 * * 0#4", "At 00:00, on the fourth Sunday of the month", SAME},
    {"0 0 1,2 * *", "At 00:00, on day 1 and 2 of the month", SAME},
    {"0 0 * * 5,6,0,1", "At 00:00, Friday through Monday",
     "At 00:00, only on Sunday, Monday, Friday, and Saturday"},
    {"0 0 * * SUN-TUE", "At 00:00, Sunday through Tuesday", SAME},
    {"0 0 * * 0,1,2,3,4,6", "At 00:00, Saturday through Thursday",
     "At 00:00, only on Sunday, Monday, Tuesday, Wednesday, Thursday, and Saturday"},
    {"0 0 L,LW * *",
     "At 00:00, on the last day and the last weekday of the month", REJECTS},
    {"0 0 15W,L * *",
     "At 00:00, on the weekday nearest day 15 and the last day of the month",
     REJECTS},
    {"0 0 1,15W * *",
     "At 00:00, on day 1 and the weekday nearest day 15 of the month", REJECTS},
    {"0 0 */5,L * *",
     "At 00:00, on day 1, 6, 11, 16, 21, 26, 31, and the last day of the month",
     "At 00:00, every 5 days in a month and on day the last day of the month"},
    {"@midnight", "At 00:00", SAME},
    {"@annually", "At 00:00, on day 1 of the month, only in January", SAME},
    {"*/10 0 9 * * *", "Every 10 seconds, at 09:00",
     "Every 10 seconds, on the hour, between 09:00 and 09:00"},
    {"0 0 9,17 * * *", "At 09:00 and 17:00", SAME},
    {"30 0 9,17 * * *", "At 09:00:30 and 17:00:30",
     "At 30 seconds past the minute, on the hour, at 09:00 and 17:00"},
    {"* * 9 * * *", "Every second, between 09:00 and 09:59", SAME},
    {"0 0-30 9 * * *", "Every minute between 09:00 and 09:30", SAME},
    {"0 0-30 9,10 * * *",
     "Minutes 0 through 30 past the hour, at 09:00 and 10:00", SAME},
    {"0 0 29 2 1",
     "At 00:00, on day 29 of the month, and on Monday, only in February", SAME},
    {"0 0 L-30 * *", "At 00:00, 30 days before the last day of the month",
     SAME},
    {"0 0 31W * *", "At 00:00, on the weekday nearest day 31 of the month",
     SAME},
    {"0 0 * * 6L,0#5",
     "At 00:00, on the fifth Sunday of the month and on the last Saturday of the month",
     SAME},
    {"0 0 1,3,5,7,9,11,13,15,17,19,21,23,25,27,29,31 * *",
     "At 00:00, every 2 days in a month",
     "At 00:00, on day 1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, and 31 of the month"},
    {"1,3,5,7,11,13,17,19,23,29,31,37,41,43,47,53,59 * * * *",
     "At 1, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, and 59 minutes past the hour",
     SAME},
    {"0 0 12 ? JAN-MAR,JUL *",
     "At 12:00, only in January through March and July", SAME},
    {"0 30 9 ? * MON-FRI", "At 09:30, Monday through Friday", SAME},
    {"0 0 9 ? * 2-6", "At 09:00, Tuesday through Saturday", SAME},
    {"0 0 1-31 * MON", "At 00:00",
     "At 00:00, between day 1 and 31 of the month, and on Monday"},
    {"0 0 ? * ?", "At 00:00", SAME},
    {"0 0 * * mon-fri", "At 00:00, Monday through Friday", SAME},
    {"0 0 L * FRI", "At 00:00, on the last day of the month, and on Friday",
     SAME},
    {"45 23 * * 6", "At 23:45, only on Saturday", SAME},
    {"0 */30 * * * *", "Every 30 minutes", SAME},
    {"*/15 */2 * * *", "Every 15 minutes, every 2 hours", SAME},
    {"0 12 */3 * *", "At 12:00, every 3 days in a month", SAME},
    {"0 0 1-7 * 1", "At 00:00, between day 1 and 7 of the month, and on Monday",
     SAME},
    {"0 0 * 6-8 *", "At 00:00, June through August", SAME},
    /* blanks and tabs between fields, as docs/cron.md allows */
    {"0\t7\t*\t*\t*", "At 07:00", REJECTS},
    {"  0 7 * * *  ", "At 07:00", SAME},
};

static void test_cron_table(void) {
  size_t n = sizeof cases / sizeof cases[0], same = 0;
  char out[DESCRIBE_MAX], err[CRON_ERR_MAX];
  CHECK(n >= 100, "%zu expressions: want 100 or more", n);
  for (size_t k = 0; k < n; k++) {
    cron_expr c;
    if (cron_parse(cases[k].expr, &c, err, sizeof err) != 0) {
      CHECK(0, "'%s' does not parse: %s", cases[k].expr, err);
      continue;
    }
    int len = describe_cron(&c, out, sizeof out);
    CHECK(len == (int)strlen(out), "'%s': length %d", cases[k].expr, len);
    CHECK_STR(out, cases[k].want, cases[k].expr);
    if (!cases[k].cronstrue) same++;
  }
  /* most of the table is cronstrue's own text */
  CHECK(same * 4 >= n * 3, "%zu of %zu as cronstrue prints them", same, n);
}

static void check_schedule(const sched_spec *s, const char *want) {
  char out[DESCRIBE_MAX];
  int len = describe_schedule(s, out, sizeof out);
  CHECK(len >= 0 && len == (int)strlen(out), "length %d for '%s'", len, want);
  CHECK(strcmp(out, want) == 0, "got '%s', want '%s'", out, want);
}

static sched_spec spec_of(sched_type t, const tz_zone *z) {
  sched_spec s;
  memset(&s, 0, sizeof s);
  s.type = t;
  s.zone = z;
  s.start_at = s.end_at = SCHED_NONE;
  return s;
}

static void test_intervals(void) {
  static const struct {
    int64_t ms;
    const char *want;
  } iv[] = {
      {1000, "Every second"},
      {30000, "Every 30 seconds"},
      {90000, "Every 90 seconds"},
      {60000, "Every minute"},
      {900000, "Every 15 minutes"},
      {5400000, "Every 90 minutes"},
      {3600000, "Every hour"},
      {7200000, "Every 2 hours"},
      {86400000, "Every day"},
      {172800000, "Every 2 days"},
      {604800000, "Every week"},
      {1209600000, "Every 2 weeks"},
      {1500, "Every 1500 milliseconds"},
      {90061001, "Every 90061001 milliseconds"},
  };
  for (size_t k = 0; k < sizeof iv / sizeof iv[0]; k++) {
    sched_spec s = spec_of(SCHED_INTERVAL, tz_utc());
    s.interval_ms = iv[k].ms;
    check_schedule(&s, iv[k].want);
  }
}

static void test_zones_and_bounds(tzdb *db) {
  const tz_zone *ny = NULL, *berlin = NULL;
  char err[256], msg[CRON_ERR_MAX];
  CHECK(tzdb_get(db, "America/New_York", &ny, err, sizeof err) == 0, "%s", err);
  CHECK(tzdb_get(db, "Europe/Berlin", &berlin, err, sizeof err) == 0, "%s",
        err);
  if (!ny || !berlin) return;
  /* the examples of docs/functions.md#trigger_describe */
  sched_spec s = spec_of(SCHED_CRON, berlin);
  CHECK(cron_parse("0 7 * * MON-FRI", &s.cron, msg, sizeof msg) == 0, "%s",
        msg);
  check_schedule(&s, "At 07:00, Monday through Friday (Europe/Berlin)");
  s = spec_of(SCHED_INTERVAL, tz_utc());
  s.interval_ms = 900000;
  check_schedule(&s, "Every 15 minutes");
  s = spec_of(SCHED_ONCE, ny);
  s.scheduled_at = 1773054900000; /* 2026-03-09T11:15:00Z = 07:15 EDT */
  check_schedule(&s, "Once on 2026-03-09 at 07:15 (America/New_York)");
  /* UTC says nothing; seconds and milliseconds show when not zero */
  s = spec_of(SCHED_ONCE, tz_utc());
  s.scheduled_at = 1773054930250;
  check_schedule(&s, "Once on 2026-03-09 at 11:15:30.250");
  s.scheduled_at = 1773054900250;
  check_schedule(&s, "Once on 2026-03-09 at 11:15:00.250");
  s.scheduled_at = 1773054900000;
  check_schedule(&s, "Once on 2026-03-09 at 11:15");
  /* an interval shows its zone only when it shows a time */
  s = spec_of(SCHED_INTERVAL, berlin);
  s.interval_ms = 3600000;
  check_schedule(&s, "Every hour");
  s.start_at = 1772323200000; /* 2026-03-01T00:00:00Z */
  check_schedule(&s, "Every hour, from 2026-03-01 01:00 (Europe/Berlin)");
  s.end_at = 1775001600000; /* 2026-04-01T00:00:00Z, CEST */
  check_schedule(&s, "Every hour, from 2026-03-01 01:00 until 2026-04-01 02:00 "
                     "(Europe/Berlin)");
  s = spec_of(SCHED_CRON, tz_utc());
  CHECK(cron_parse("*/15 9-17 * * 1-5", &s.cron, msg, sizeof msg) == 0, "%s",
        msg);
  s.end_at = 1775001600000;
  check_schedule(&s, "Every 15 minutes, between 09:00 and 17:59, Monday "
                     "through Friday, until 2026-04-01 00:00");
  /* the zone a name was read as: Etc/UTC is UTC */
  const tz_zone *etc = NULL;
  CHECK(tzdb_get(db, "Etc/UTC", &etc, err, sizeof err) == 0 && etc == tz_utc(),
        "Etc/UTC");
}

static void test_buffer_limits(void) {
  char small[16], msg[CRON_ERR_MAX];
  cron_expr c;
  CHECK(cron_parse("0 7 * * MON-FRI", &c, msg, sizeof msg) == 0, "%s", msg);
  CHECK(describe_cron(&c, small, sizeof small) == -1, "too small: -1");
  CHECK(describe_cron(&c, small, 0) == -1, "no room at all: -1");
  /* the longest text there can be: lists that form no step or range in
  ** every field and every special day item (3756 bytes) fits DESCRIBE_MAX
  ** with room for bounds and a zone */
  static const char longest[] =
      "0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,40,42,44,46,48,"
      "50,52,54,56,59 1,3,5,7,9,11,13,15,17,19,21,23,25,27,29,31,33,35,37,39,"
      "41,43,45,47,49,51,53,55,58 0,2,4,6,8,10,12,14,16,18,20,23 1,3,5,7,9,11"
      ",13,15,17,19,21,23,25,27,29,31,1W,2W,3W,4W,5W,6W,7W,8W,9W,10W,11W,12W,"
      "13W,14W,15W,16W,17W,18W,19W,20W,21W,22W,23W,24W,25W,26W,27W,28W,29W,30"
      "W,31W,L,LW,L-1,L-2,L-3,L-4,L-5,L-6,L-7,L-8,L-9,L-10,L-11,L-12,L-13,L-1"
      "4,L-15,L-16,L-17,L-18,L-19,L-20,L-21,L-22,L-23,L-24,L-25,L-26,L-27,L-2"
      "8,L-29,L-30 1,3,5,7,9,12 0#1,0#2,0#3,0#4,0#5,1#1,1#2,1#3,1#4,1#5,2#1,2"
      "#2,2#3,2#4,2#5,3#1,3#2,3#3,3#4,3#5,4#1,4#2,4#3,4#4,4#5,5#1,5#2,5#3,5#4"
      ",5#5,6#1,6#2,6#3,6#4,6#5,0L,1L,2L,3L,4L,5L,6L";
  char out[DESCRIBE_MAX];
  CHECK(cron_parse(longest, &c, msg, sizeof msg) == 0, "%s", msg);
  int len = describe_cron(&c, out, sizeof out);
  CHECK(len > 3000 && len + 200 < DESCRIBE_MAX, "longest text: %d bytes", len);
  CHECK(strstr(out, "and 30 days before the last day of the month, and on the "
                    "last Sunday of the month and the first Sunday") != NULL,
        "every item is there");
  CHECK(describe_cron(&c, out, (size_t)len) == -1 &&
            describe_cron(&c, out, (size_t)len + 1) == len,
        "exactly len + 1 bytes are needed");
}

/* Branches the table does not reach: runs of weekdays through Saturday
** into Sunday, seconds and minutes as lists and ranges, stepped hours,
** a schedule of no type, no zone (UTC), a once instant before 1970, an
** interval of 0 ms, and a text that needs exactly its buffer. */
static void test_more_phrases(void) {
  static const struct {
    const char *expr, *want;
  } more[] = {
      {"0 0 * * FRI-SUN", "At 00:00, Friday through Sunday"},
      {"0 0 * * SAT,SUN,MON", "At 00:00, Saturday through Monday"},
      {"0 0 * * SAT-SUN", "At 00:00, only on Sunday and Saturday"},
      {"0 0 * * 0-6", "At 00:00"},
      {"0 0 * * MON-SAT", "At 00:00, Monday through Saturday"},
      {"0 0 * * SUN-FRI", "At 00:00, Sunday through Friday"},
      {"0 0 * * SAT,SUN-THU", "At 00:00, Saturday through Thursday"},
      {"5,10 * * * * *", "At 5 and 10 seconds past the minute"},
      {"5-10 * * * * *", "Seconds 5 through 10 past the minute"},
      {"0 5,10 * * * *", "At 5 and 10 minutes past the hour"},
      {"0 5-10 * * *", "Every hour, between 05:00 and 10:00"},
      {"0 0 9-17/2 * * *", "On the hour, every 2 hours, between 09:00 and "
                           "17:00"},
      {"0 0 1 1,7 *", "At 00:00, on day 1 of the month, every 6 months"},
      /* on the hour with seconds: the hours say when, or "on the hour" */
      {"*/5 0 6,12 * * *", "Every 5 seconds, at 06:00 and 12:00"},
      {"*/5 0 3 * * *", "Every 5 seconds, at 03:00"},
      {"*/5 0 * * * *", "Every 5 seconds, on the hour"},
      {"0 0 * * * *", "Every hour"},
  };
  char out[DESCRIBE_MAX], msg[CRON_ERR_MAX];
  for (size_t k = 0; k < sizeof more / sizeof more[0]; k++) {
    cron_expr c;
    CHECK(cron_parse(more[k].expr, &c, msg, sizeof msg) == 0, "%s", msg);
    describe_cron(&c, out, sizeof out);
    CHECK_STR(out, more[k].want, more[k].expr);
  }
  sched_spec s = spec_of(SCHED_INVALID, NULL);
  check_schedule(&s, "Never");
  s = spec_of(SCHED_ONCE, NULL);
  s.scheduled_at = -1500; /* 1969-12-31T23:59:58.500Z */
  check_schedule(&s, "Once on 1969-12-31 at 23:59:58.500");
  /* a zone's name is shown whole, however long (tz_parse takes any) */
  char name[301];
  memset(name, 'z', 300);
  name[300] = 0;
  tz_zone *z = NULL;
  CHECK(tz_parse(tzif_plus3, sizeof tzif_plus3, name, &z, msg, sizeof msg) == 0,
        "tz_parse: %s", msg);
  if (z) {
    char want[400];
    s = spec_of(SCHED_ONCE, z);
    s.scheduled_at = 0;
    snprintf(want, sizeof want, "Once on 1970-01-01 at 03:00 (%s)", name);
    check_schedule(&s, want);
    tz_free(z);
  }
  s = spec_of(SCHED_INTERVAL, NULL);
  s.interval_ms = 0;
  check_schedule(&s, "Every 0 milliseconds");
  s.interval_ms = 60000;
  CHECK(describe_schedule(&s, out, 0) == -1, "no buffer: -1");
  CHECK(describe_schedule(&s, out, 12) == -1 &&
            describe_schedule(&s, out, 13) == 12 &&
            strcmp(out, "Every minute") == 0,
        "exactly 13 bytes: '%s'", out);
}

int main(void) {
  tzdb *db = tzdb_new(NULL);
  test_cron_table();
  test_intervals();
  test_more_phrases();
  if (db) test_zones_and_bounds(db);
  CHECK(db != NULL, "tzdb_new");
  test_buffer_limits();
  tzdb_free(db);
  return check_report("describe");
}
