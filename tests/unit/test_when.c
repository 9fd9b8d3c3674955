/*
** test_when.c -- unit tests for when_parse, the English time phrase reader
** (ext/time/when_lex.c, when_grammar.c, when_duration.c, when_recur.c,
** when_resolve.c, when_parse.c; docs/when.md: the forms, the resolution
** rules, the confidence table and the recurring phrases).
**
** One table of phrase cases: phrase, reference instant, zone, and what
** must come out (kind, due instant written as ISO-8601 with the zone's
** offset, confidence in hundredths, the cron line or interval, and tags
** that must -- or with '!' must not -- be among implied ("i:") / flags
** ("f:")). Rejection cases give the words the reason must contain. Zones
** come from the system zoneinfo through tzdb: UTC, America/New_York,
** Europe/Berlin, Asia/Kolkata, Australia/Lord_Howe; DST days of each,
** month and year ends and leap days are covered. Expected values were
** worked out by hand from the rules, not copied from the parser's output.
*/
#include "time/civil.h"
#include "time/tzdb.h"
#include "time/when.h"

#include <stdlib.h>

#include "check.h"

typedef struct wcase {
  int line;
  const char *phrase;
  const char *now; /* ISO-8601 with offset */
  const char *zone;
  const char *kind; /* "once" | "interval" | "cron" | NULL (rejected) */
  const char *due;  /* ISO-8601 with offset; NULL for interval (now + ms) */
  int conf;         /* hundredths */
  const char *cron; /* cron line, or NULL */
  int64_t every;    /* interval ms, or 0 */
  const char *tags; /* "i:x f:y !f:z", or the reason words when rejected */
} wcase;

#define ONCE(ph, now, zone, due, conf, tags) \
  { __LINE__, ph, now, zone, "once", due, conf, NULL, 0, tags }
#define CRON(ph, now, zone, cron, due, conf, tags) \
  { __LINE__, ph, now, zone, "cron", due, conf, cron, 0, tags }
/* a calendar rule: rule is the RECUR value, due its first occurrence */
#define RRULE(ph, now, zone, rule, due, conf, tags) \
  { __LINE__, ph, now, zone, "rrule", due, conf, rule, 0, tags }
#define EVERY(ph, now, zone, ms) \
  { __LINE__, ph, now, zone, "interval", NULL, 95, NULL, ms, "" }
#define REJECT(ph, now, zone, why) \
  { __LINE__, ph, now, zone, NULL, NULL, 0, NULL, 0, why }

/* Reference instants. */
#define WED "2025-03-05T10:00:00Z" /* Wednesday, UTC */
#define NY_SPRING \
  "2025-03-08T10:00:00-05:00" /* Sat before 03-09 02:00->03:00 */
#define NY_FALL \
  "2025-11-01T12:00:00-04:00" /* Sat before 11-02 01:00-02:00 x2 */
#define BER_SPRING "2025-03-29T12:00:00+01:00" /* Sat before 03-30 02->03 */
#define BER_FALL \
  "2025-10-25T12:00:00+02:00" /* Sat before 10-26 02:00-03:00 x2 */
#define BER_NYE "2025-12-31T23:30:00+01:00" /* Wednesday, year end */
#define KOL "2025-01-31T18:00:00+05:30"     /* Friday, month end */
#define LH_SPRING \
  "2025-10-04T12:00:00+10:30" /* Sat before 10-05 02:00->02:30 */
#define LH_FALL \
  "2025-04-05T12:00:00+11:00"       /* Sat before 04-06 01:30-02:00 x2 */
#define LEAP "2024-02-29T09:00:00Z" /* Thursday, leap day */

#define UTC "UTC"
#define NY "America/New_York"
#define BER "Europe/Berlin"
#define KOLKATA "Asia/Kolkata"
#define LH "Australia/Lord_Howe"

static const wcase cases[] = {
    /* ---- "now" and durations: R1 exact elapsed time, R2 months/years ----- */
    ONCE("now", WED, UTC, WED, 100, "!i:time"),
    ONCE("NOW", WED, UTC, WED, 100, ""),
    ONCE("in 2 hours", WED, UTC, "2025-03-05T12:00:00Z", 95, ""),
    ONCE("2 hours", WED, UTC, "2025-03-05T12:00:00Z", 85, ""),
    ONCE("in 90 minutes", WED, UTC, "2025-03-05T11:30:00Z", 95, ""),
    /* a hyphen glued between the count and the unit, as in "a 20-minute" */
    ONCE("in 90-minutes", WED, UTC, "2025-03-05T11:30:00Z", 95, ""),
    ONCE("2-hours from now", WED, UTC, "2025-03-05T12:00:00Z", 95, ""),
    ONCE("in a half-hour", WED, UTC, "2025-03-05T10:30:00Z", 95, ""),
    ONCE("in a quarter-hour", WED, UTC, "2025-03-05T10:15:00Z", 95, ""),
    ONCE("in 1 hour and 30 minutes", WED, UTC, "2025-03-05T11:30:00Z", 95, ""),
    ONCE("in 1 hour, 30 minutes", WED, UTC, "2025-03-05T11:30:00Z", 95, ""),
    ONCE("in 1 hour, and 30 minutes", WED, UTC, "2025-03-05T11:30:00Z", 95, ""),
    ONCE("3 days from now", WED, UTC, "2025-03-08T10:00:00Z", 95, ""),
    /* "time" closing an "in" duration; ' and the typographic ’ alike */
    ONCE("in 3 days time", WED, UTC, "2025-03-08T10:00:00Z", 95, ""),
    ONCE("in 3 days' time", WED, UTC, "2025-03-08T10:00:00Z", 95, ""),
    ONCE("in 3 days\xe2\x80\x99 time", WED, UTC, "2025-03-08T10:00:00Z", 95,
         ""),
    ONCE("in an hour's time", WED, UTC, "2025-03-05T11:00:00Z", 95, ""),
    ONCE("in an hour\xe2\x80\x99s time", WED, UTC, "2025-03-05T11:00:00Z", 95,
         ""),
    REJECT("3 days time", WED, UTC, "cannot read 'time'"),
    ONCE("in a week", WED, UTC, "2025-03-12T10:00:00Z", 95, ""),
    ONCE("in a fortnight", WED, UTC, "2025-03-19T10:00:00Z", 95, ""),
    ONCE("in half an hour", WED, UTC, "2025-03-05T10:30:00Z", 95, ""),
    ONCE("half a day from now", WED, UTC, "2025-03-05T22:00:00Z", 95, ""),
    ONCE("in 45 secs", WED, UTC, "2025-03-05T10:00:45Z", 95, ""),
    ONCE("in 5m", WED, UTC, "2025-03-05T10:05:00Z", 95, ""),
    ONCE("in 2h", WED, UTC, "2025-03-05T12:00:00Z", 95, ""),
    ONCE("in 1h30m", WED, UTC, "2025-03-05T11:30:00Z", 95, ""),
    ONCE("2h15m10s", WED, UTC, "2025-03-05T12:15:10Z", 85, ""),
    ONCE("in 3 hrs 15 mins", WED, UTC, "2025-03-05T13:15:00Z", 95, ""),
    ONCE("+2 hours", WED, UTC, "2025-03-05T12:00:00Z", 95, ""),
    ONCE("2 hours later", WED, UTC, "2025-03-05T12:00:00Z", 95, ""),
    ONCE("in two days", WED, UTC, "2025-03-07T10:00:00Z", 95, ""),
    ONCE("in twelve hours", WED, UTC, "2025-03-05T22:00:00Z", 95, ""),
    ONCE("in an hour", WED, UTC, "2025-03-05T11:00:00Z", 95, ""),
    ONCE("in 0 minutes", WED, UTC, WED, 95, ""),
    ONCE("in 1 month", WED, UTC, "2025-04-05T10:00:00Z", 90,
         "!f:month_clamped"),
    ONCE("in 1 year", WED, UTC, "2026-03-05T10:00:00Z", 90, ""),
    ONCE("in 1 year and 2 months", WED, UTC, "2026-05-05T10:00:00Z", 90, ""),
    ONCE("in 1 month and 2 days", WED, UTC, "2025-04-07T10:00:00Z", 90, ""),
    ONCE("in half a year", WED, UTC, "2025-09-05T10:00:00Z", 90, ""),
    ONCE("2 weeks", WED, UTC, "2025-03-19T10:00:00Z", 85, ""),

    /* ---- day words (R3) -------------------------------------------------- */
    ONCE("tomorrow", WED, UTC, "2025-03-06T10:00:00Z", 80, "i:time"),
    ONCE("today", WED, UTC, WED, 80, "i:time"),
    ONCE("tomorrow at 9am", WED, UTC, "2025-03-06T09:00:00Z", 95, "!i:time"),
    ONCE("9am tomorrow", WED, UTC, "2025-03-06T09:00:00Z", 95, ""),
    ONCE("tomorrow 9am", WED, UTC, "2025-03-06T09:00:00Z", 95, ""),
    ONCE("at 9am tomorrow", WED, UTC, "2025-03-06T09:00:00Z", 95, ""),
    ONCE("tomorrow, 9am", WED, UTC, "2025-03-06T09:00:00Z", 95, ""),
    ONCE("Tomorrow at 9:30 PM", WED, UTC, "2025-03-06T21:30:00Z", 95, ""),
    ONCE("tomorrow at noon", WED, UTC, "2025-03-06T12:00:00Z", 95, ""),
    ONCE("noon tomorrow", WED, UTC, "2025-03-06T12:00:00Z", 95, ""),
    ONCE("tomorrow at midnight", WED, UTC, "2025-03-06T00:00:00Z", 60,
         "f:midnight_start_of_day"),
    ONCE("the day after tomorrow", WED, UTC, "2025-03-07T10:00:00Z", 80,
         "i:time"),
    ONCE("day after tomorrow at 10am", WED, UTC, "2025-03-07T10:00:00Z", 95,
         ""),
    ONCE("today at 5pm", WED, UTC, "2025-03-05T17:00:00Z", 95, ""),
    ONCE("today at 10:00", WED, UTC, WED, 95, ""), /* == now: due now */

    /* ---- weekdays (R4, R5) ----------------------------------------------- */
    ONCE("friday", WED, UTC, "2025-03-07T00:00:00Z", 80, "i:time"),
    ONCE("on friday", WED, UTC, "2025-03-07T00:00:00Z", 80, "i:time"),
    ONCE("fri", WED, UTC, "2025-03-07T00:00:00Z", 80, ""),
    ONCE("this friday", WED, UTC, "2025-03-07T00:00:00Z", 80,
         "!f:this_weekday_today"),
    ONCE("friday 3pm", WED, UTC, "2025-03-07T15:00:00Z", 95, ""),
    ONCE("3pm on friday", WED, UTC, "2025-03-07T15:00:00Z", 95, ""),
    ONCE("friday at 15:00", WED, UTC, "2025-03-07T15:00:00Z", 95, ""),
    ONCE("next friday", WED, UTC, "2025-03-14T00:00:00Z", 60,
         "f:next_weekday_ambiguous"),
    ONCE("next friday at 9am", WED, UTC, "2025-03-14T09:00:00Z", 60,
         "f:next_weekday_ambiguous"),
    ONCE("next monday", WED, UTC, "2025-03-10T00:00:00Z", 80,
         "!f:next_weekday_ambiguous"),
    ONCE("next tuesday", WED, UTC, "2025-03-11T00:00:00Z", 80, ""),
    ONCE("next wednesday", WED, UTC, "2025-03-12T00:00:00Z", 80, ""),
    ONCE("wednesday", WED, UTC, "2025-03-12T00:00:00Z", 80, "f:rolled_forward"),
    ONCE("wednesday at 11am", WED, UTC, "2025-03-05T11:00:00Z", 95,
         "!f:rolled_forward"),
    ONCE("wed 9am", WED, UTC, "2025-03-12T09:00:00Z", 95, "f:rolled_forward"),
    ONCE("this wednesday at 11am", WED, UTC, "2025-03-05T11:00:00Z", 60,
         "f:this_weekday_today"),
    ONCE("thurs at 8:15", WED, UTC, "2025-03-06T08:15:00Z", 95, ""),
    ONCE("on saturday at 10am", WED, UTC, "2025-03-08T10:00:00Z", 95, ""),
    ONCE("sunday at 9", WED, UTC, "2025-03-09T09:00:00Z", 60, "i:meridiem"),
    ONCE("this friday", "2025-03-07T10:00:00Z", UTC, "2025-03-14T00:00:00Z", 60,
         "f:this_weekday_today"),
    ONCE("friday 3pm", "2025-03-07T10:00:00Z", UTC, "2025-03-07T15:00:00Z", 95,
         ""),
    ONCE("friday 3pm", "2025-03-07T15:30:00Z", UTC, "2025-03-14T15:00:00Z", 95,
         "f:rolled_forward"),
    ONCE("next friday", "2025-03-07T10:00:00Z", UTC, "2025-03-14T00:00:00Z", 80,
         ""),
    ONCE("next sunday", "2025-03-08T10:00:00Z", UTC, "2025-03-16T00:00:00Z", 60,
         "f:next_weekday_ambiguous"),
    ONCE("next monday", "2025-03-09T10:00:00Z", UTC, "2025-03-10T00:00:00Z", 80,
         ""),

    /* ---- parts of the day (R8) ------------------------------------------- */
    ONCE("friday morning", WED, UTC, "2025-03-07T09:00:00Z", 70, "i:time"),
    ONCE("friday evening", WED, UTC, "2025-03-07T18:00:00Z", 70, ""),
    ONCE("tomorrow afternoon", WED, UTC, "2025-03-06T15:00:00Z", 70, ""),
    ONCE("tomorrow night", WED, UTC, "2025-03-06T20:00:00Z", 70, ""),
    ONCE("tonight", WED, UTC, "2025-03-05T20:00:00Z", 70, "i:time"),
    ONCE("this evening", WED, UTC, "2025-03-05T18:00:00Z", 70, ""),
    ONCE("this afternoon", WED, UTC, "2025-03-05T15:00:00Z", 70, ""),
    ONCE("on march 10 morning", WED, UTC, "2025-03-10T09:00:00Z", 70, ""),

    /* ---- clock times (R7, R12) ------------------------------------------- */
    ONCE("9am", WED, UTC, "2025-03-06T09:00:00Z", 90, "i:day f:rolled_forward"),
    ONCE("11am", WED, UTC, "2025-03-05T11:00:00Z", 90, "!f:rolled_forward"),
    ONCE("at 10:00", WED, UTC, WED, 90, "!f:rolled_forward"),
    ONCE("17:45", WED, UTC, "2025-03-05T17:45:00Z", 90, ""),
    ONCE("5:45:30 pm", WED, UTC, "2025-03-05T17:45:30Z", 90, ""),
    /* a bare hour: 7 am and 7 pm are both plausible; 10 is the 24-hour
    ** reading; 15 can only be 15:00 */
    REJECT("at 7", WED, UTC, "'at 7' has no am/pm: say 7am or 7pm"),
    ONCE("at 11", WED, UTC, "2025-03-05T11:00:00Z", 60, "i:meridiem"),
    ONCE("at 15", WED, UTC, "2025-03-05T15:00:00Z", 90, "i:meridiem"),
    REJECT("at 5:30", WED, UTC, "'5:30' has no am/pm"),
    ONCE("at 7 tonight", WED, UTC, "2025-03-05T19:00:00Z", 95, "!i:meridiem"),
    ONCE("noon", WED, UTC, "2025-03-05T12:00:00Z", 90, ""),
    ONCE("midday", WED, UTC, "2025-03-05T12:00:00Z", 90, ""),
    ONCE("midnight", WED, UTC, "2025-03-06T00:00:00Z", 90,
         "!f:midnight_start_of_day"),
    ONCE("at midnight", "2025-03-05T00:00:00Z", UTC, "2025-03-05T00:00:00Z", 90,
         ""),
    ONCE("12am", WED, UTC, "2025-03-06T00:00:00Z", 90, ""),
    ONCE("12pm", WED, UTC, "2025-03-05T12:00:00Z", 90, ""),
    ONCE("12:30am", WED, UTC, "2025-03-06T00:30:00Z", 90, ""),
    ONCE("9 a.m.", WED, UTC, "2025-03-06T09:00:00Z", 90, ""),
    ONCE("9 P.M.", WED, UTC, "2025-03-05T21:00:00Z", 90, ""),
    ONCE("at 09:05", WED, UTC, "2025-03-06T09:05:00Z", 90, ""),
    ONCE("  at   9pm  ", WED, UTC, "2025-03-05T21:00:00Z", 90, ""),

    /* ---- dates (R6) ------------------------------------------------------ */
    ONCE("march 3rd", WED, UTC, "2026-03-03T00:00:00Z", 80,
         "i:time i:year f:rolled_forward"),
    ONCE("march 5", WED, UTC, "2026-03-05T00:00:00Z", 80, "f:rolled_forward"),
    ONCE("march 5 at 11am", WED, UTC, "2025-03-05T11:00:00Z", 85, "i:year"),
    ONCE("on march 10th", WED, UTC, "2025-03-10T00:00:00Z", 80,
         "!f:rolled_forward"),
    ONCE("10 march", WED, UTC, "2025-03-10T00:00:00Z", 80, ""),
    ONCE("10th of march", WED, UTC, "2025-03-10T00:00:00Z", 80, ""),
    ONCE("the 10th of march at 9am", WED, UTC, "2025-03-10T09:00:00Z", 85, ""),
    ONCE("march 10, 2026", WED, UTC, "2026-03-10T00:00:00Z", 80, "!i:year"),
    ONCE("march 10 2026 at 9am", WED, UTC, "2026-03-10T09:00:00Z", 95, ""),
    ONCE("3 april 2025 at 14:00", WED, UTC, "2025-04-03T14:00:00Z", 95, ""),
    ONCE("at 9am on march 10th", WED, UTC, "2025-03-10T09:00:00Z", 85, ""),
    ONCE("Dec. 25th", WED, UTC, "2025-12-25T00:00:00Z", 80, ""),
    ONCE("sept 1", WED, UTC, "2025-09-01T00:00:00Z", 80, ""),
    ONCE("the 15th", WED, UTC, "2025-03-15T00:00:00Z", 80, "i:month i:year"),
    ONCE("the 5th", WED, UTC, "2025-04-05T00:00:00Z", 80, "f:rolled_forward"),
    ONCE("the 5th at 11am", WED, UTC, "2025-03-05T11:00:00Z", 85, ""),
    ONCE("on the 31st", WED, UTC, "2025-03-31T00:00:00Z", 80, ""),
    ONCE("on the 22nd at 8pm", WED, UTC, "2025-03-22T20:00:00Z", 85, ""),
    ONCE("12/25", WED, UTC, "2025-12-25T00:00:00Z", 80, "i:year"),
    ONCE("12/25 at 9am", WED, UTC, "2025-12-25T09:00:00Z", 85, ""),
    ONCE("12/25/2026 at 9am", WED, UTC, "2026-12-25T09:00:00Z", 95, ""),
    REJECT("1/2", WED, UTC, "1/2 may be january 2 or 1 february"),

    /* ---- anchors --------------------------------------------------------- */
    ONCE("end of day", WED, UTC, "2025-03-05T23:59:00Z", 70, "i:time"),
    ONCE("end of the day", WED, UTC, "2025-03-05T23:59:00Z", 70, ""),
    ONCE("end of week", WED, UTC, "2025-03-09T23:59:00Z", 70, ""),
    ONCE("end of the week", "2025-03-09T12:00:00Z", UTC, "2025-03-09T23:59:00Z",
         70, ""),
    ONCE("end of month", WED, UTC, "2025-03-31T23:59:00Z", 70, ""),
    ONCE("end of the year", WED, UTC, "2025-12-31T23:59:00Z", 70, ""),
    ONCE("next week", WED, UTC, "2025-03-12T10:00:00Z", 70, ""),
    ONCE("next month", WED, UTC, "2025-04-05T10:00:00Z", 70, ""),
    ONCE("next year", WED, UTC, "2026-03-05T10:00:00Z", 70, ""),

    /* ---- ISO-8601 -------------------------------------------------------- */
    ONCE("2025-12-31T23:00:00Z", WED, UTC, "2025-12-31T23:00:00Z", 100, ""),
    ONCE("2025-03-05T11:00:00+01:00", WED, UTC, WED, 100, ""),
    ONCE("2026-01-15 09:00", WED, UTC, "2026-01-15T09:00:00Z", 95, ""),
    ONCE("2026-01-15", WED, UTC, "2026-01-15T00:00:00Z", 80, "i:time"),
    ONCE("2025-03-05t12:00:00z", WED, UTC, "2025-03-05T12:00:00Z", 100, ""),
    ONCE(" 2026-01-15T09:00:00.250+05:30 ", WED, UTC,
         "2026-01-15T03:30:00.250Z", 100, ""),

    /* ---- zones named in the phrase (R10) --------------------------------- */
    ONCE("9am UTC", WED, UTC, "2025-03-06T09:00:00Z", 90, "f:zone_named"),
    ONCE("3pm EST", WED, UTC, "2025-03-05T20:00:00Z", 90, "f:zone_named"),
    ONCE("tomorrow 8am JST", WED, UTC, "2025-03-05T23:00:00Z", 90, ""),
    ONCE("10:00 +0530", WED, UTC, "2025-03-06T04:30:00Z", 90,
         "f:rolled_forward"),
    ONCE("friday at 3pm +05:30", WED, UTC, "2025-03-07T09:30:00Z", 90, ""),
    ONCE("9am -08:00", WED, UTC, "2025-03-05T17:00:00Z", 90, ""),
    ONCE("noon gmt", WED, UTC, "2025-03-05T12:00:00Z", 90, ""),
    ONCE("9am e.s.t.", WED, UTC, "2025-03-05T14:00:00Z", 90, ""),
    ONCE("5pm cest", WED, UTC, "2025-03-05T15:00:00Z", 90, ""),
    ONCE("9am ist", WED, UTC, "2025-03-06T03:30:00Z", 90, ""),
    ONCE("8pm aedt", WED, UTC, "2025-03-06T09:00:00Z", 90, ""),
    ONCE("9am pst on friday", WED, UTC, "2025-03-07T17:00:00Z", 90, ""),
    ONCE("at 18:00 z", WED, UTC, "2025-03-05T18:00:00Z", 90, ""),
    ONCE("tomorrow at 6pm cdt", WED, UTC, "2025-03-06T23:00:00Z", 90, ""),
    ONCE("9am -5", WED, UTC, "2025-03-05T14:00:00Z", 90, ""),

    /* ---- recurring (§6) -------------------------------------------------- */
    CRON("every day at 9", WED, UTC, "0 9 * * *", "2025-03-06T09:00:00Z", 60,
         "i:meridiem"),
    CRON("every day at 9am", WED, UTC, "0 9 * * *", "2025-03-06T09:00:00Z", 95,
         ""),
    CRON("daily at 9", WED, UTC, "0 9 * * *", "2025-03-06T09:00:00Z", 60, ""),
    CRON("daily at 9am", WED, UTC, "0 9 * * *", "2025-03-06T09:00:00Z", 95, ""),
    CRON("every morning at 6", WED, UTC, "0 6 * * *", "2025-03-06T06:00:00Z",
         95, ""),
    CRON("every morning at 6:30am", WED, UTC, "30 6 * * *",
         "2025-03-06T06:30:00Z", 95, ""),
    CRON("every day at noon", WED, UTC, "0 12 * * *", "2025-03-05T12:00:00Z",
         95, ""),
    CRON("every day at midnight", WED, UTC, "0 0 * * *", "2025-03-06T00:00:00Z",
         95, ""),
    CRON("every weekday at 8:30", WED, UTC, "30 8 * * 1-5",
         "2025-03-06T08:30:00Z", 95, ""),
    /* a plural part of the day is every one of them; its time is needed */
    CRON("mornings at 7", WED, UTC, "0 7 * * *", "2025-03-06T07:00:00Z", 95,
         ""),
    CRON("in the evenings at 9", WED, UTC, "0 21 * * *", "2025-03-05T21:00:00Z",
         95, ""),
    CRON("monday mornings at 8", WED, UTC, "0 8 * * 1", "2025-03-10T08:00:00Z",
         95, ""),
    CRON("on friday nights at 11", WED, UTC, "0 23 * * 5",
         "2025-03-07T23:00:00Z", 95, ""),
    REJECT("mornings", WED, UTC, "'mornings' needs a time"),
    REJECT("monday mornings", WED, UTC, "'mornings' needs a time"),
    CRON("weekdays at 8:30", WED, UTC, "30 8 * * 1-5", "2025-03-06T08:30:00Z",
         95, ""),
    CRON("every weekend at 10am", WED, UTC, "0 10 * * 0,6",
         "2025-03-08T10:00:00Z", 95, ""),
    CRON("every monday", WED, UTC, "0 0 * * 1", "2025-03-10T00:00:00Z", 80,
         "i:time"),
    CRON("every monday at 9am", WED, UTC, "0 9 * * 1", "2025-03-10T09:00:00Z",
         95, ""),
    CRON("every tuesday and thursday at 18:30", WED, UTC, "30 18 * * 2,4",
         "2025-03-06T18:30:00Z", 95, ""),
    CRON("every month on the 15th at 10:00", WED, UTC, "0 10 15 * *",
         "2025-03-15T10:00:00Z", 95, ""),
    CRON("on the 1st of every month at 9am", WED, UTC, "0 9 1 * *",
         "2025-04-01T09:00:00Z", 95, ""),
    CRON("every mon, wed and fri at 9am", WED, UTC, "0 9 * * 1,3,5",
         "2025-03-07T09:00:00Z", 95, ""),
    CRON("every monday, tuesday and wednesday", WED, UTC, "0 0 * * 1-3",
         "2025-03-10T00:00:00Z", 80, ""),
    CRON("every saturday and sunday at 10am", WED, UTC, "0 10 * * 0,6",
         "2025-03-08T10:00:00Z", 95, ""),
    CRON("every day at 9:30:15", WED, UTC, "15 30 9 * * *",
         "2025-03-06T09:30:15Z", 95, ""),
    CRON("every sunday at midnight", WED, UTC, "0 0 * * 0",
         "2025-03-09T00:00:00Z", 95, ""),
    CRON("every wednesday at 10am", WED, UTC, "0 10 * * 3",
         "2025-03-12T10:00:00Z", 95, ""), /* strictly after now */
    CRON("every day", WED, UTC, "0 0 * * *", "2025-03-06T00:00:00Z", 80,
         "i:time"),
    CRON("daily", WED, UTC, "0 0 * * *", "2025-03-06T00:00:00Z", 80, ""),
    CRON("every weekday", WED, UTC, "0 0 * * 1-5", "2025-03-06T00:00:00Z", 80,
         ""),
    CRON("each friday at 5pm", WED, UTC, "0 17 * * 5", "2025-03-07T17:00:00Z",
         95, ""),
    CRON("on the 31st of every month", WED, UTC, "0 0 31 * *",
         "2025-03-31T00:00:00Z", 80, "f:short_months_skipped"),
    CRON("every month on the 30th at 9am", "2025-02-01T00:00:00Z", UTC,
         "0 9 30 * *", "2025-03-30T09:00:00Z", 95, "f:short_months_skipped"),
    EVERY("every 15 minutes", WED, UTC, 900000),
    EVERY("every 5 min", WED, UTC, 300000),
    EVERY("every 30 seconds", WED, UTC, 30000),
    EVERY("every 90 minutes", WED, UTC, 5400000),
    /* a hyphen glued between the count and the unit reads as a blank */
    EVERY("every 15-minutes", WED, UTC, 900000),
    EVERY("every 2-hours", WED, UTC, 7200000),
    EVERY("every 90-minutes", WED, UTC, 5400000),
    EVERY("every quarter-hour", WED, UTC, 900000),
    EVERY("every half-hour", WED, UTC, 1800000),
    RRULE("every 3-days at 7am", WED, UTC,
          "FREQ=DAILY;INTERVAL=3;BYHOUR=7;BYMINUTE=0;BYSECOND=0",
          "2025-03-06T07:00:00Z", 95, ""),
    REJECT("every two-weeks", WED, UTC, "calendar rule"),
    REJECT("every 15 - minutes", WED, UTC, "cannot read '-'"),
    EVERY("every hour", WED, UTC, 3600000),
    EVERY("every 2 hours", WED, UTC, 7200000),
    EVERY("each hour", WED, UTC, 3600000),
    EVERY("every half an hour", WED, UTC, 1800000),
    EVERY("every minute", WED, UTC, 60000),
    EVERY("every 1 second", WED, UTC, 1000),
    EVERY("every two hours", NY_SPRING, NY, 7200000),

    /* ---- America/New_York: spring forward 2025-03-09 02:00 -> 03:00 ------ */
    ONCE("tomorrow at 2:30am", NY_SPRING, NY, "2025-03-09T03:30:00-04:00", 70,
         "f:dst_shifted"),
    ONCE("tomorrow", NY_SPRING, NY, "2025-03-09T10:00:00-04:00", 80,
         "!f:dst_shifted"),
    ONCE("in 1 day", NY_SPRING, NY, "2025-03-09T11:00:00-04:00", 95, ""),
    ONCE("in 24 hours", NY_SPRING, NY, "2025-03-09T11:00:00-04:00", 95, ""),
    ONCE("tomorrow at 9am", NY_SPRING, NY, "2025-03-09T09:00:00-04:00", 95, ""),
    ONCE("sunday 2:30am", NY_SPRING, NY, "2025-03-09T03:30:00-04:00", 70,
         "f:dst_shifted"),
    ONCE("2025-03-09 02:30", NY_SPRING, NY, "2025-03-09T03:30:00-04:00", 70,
         "f:dst_shifted"),
    ONCE("2:30am", NY_SPRING, NY, "2025-03-09T03:30:00-04:00", 70,
         "f:dst_shifted f:rolled_forward"),
    ONCE("in 1 month", NY_SPRING, NY, "2025-04-08T10:00:00-04:00", 90, ""),
    ONCE("next week", NY_SPRING, NY, "2025-03-15T11:00:00-04:00", 70, ""),
    ONCE("at 2:30am EST", NY_SPRING, NY, "2025-03-09T03:30:00-04:00", 90,
         "f:zone_named !f:dst_shifted"),
    ONCE("end of day", NY_SPRING, NY, "2025-03-08T23:59:00-05:00", 70, ""),
    ONCE("tomorrow", "2025-03-08T02:30:00-05:00", NY,
         "2025-03-09T03:30:00-04:00", 70, "f:dst_shifted"),
    CRON("every day at 2:30am", NY_SPRING, NY, "30 2 * * *",
         "2025-03-09T03:00:00-04:00", 70, "f:dst_shifted"),
    CRON("every day at 9am", NY_SPRING, NY, "0 9 * * *",
         "2025-03-09T09:00:00-04:00", 95, ""),

    /* ---- America/New_York: fall back 2025-11-02 01:00-02:00 twice -------- */
    ONCE("tomorrow at 1:30am", NY_FALL, NY, "2025-11-02T01:30:00-04:00", 70,
         "f:dst_repeated"),
    ONCE("tomorrow at 2:30am", NY_FALL, NY, "2025-11-02T02:30:00-05:00", 95,
         ""),
    ONCE("in 1 day", NY_FALL, NY, "2025-11-02T11:00:00-05:00", 95, ""),
    ONCE("tomorrow", NY_FALL, NY, "2025-11-02T12:00:00-05:00", 80, ""),
    ONCE("sunday at 9am", NY_FALL, NY, "2025-11-02T09:00:00-05:00", 95, ""),
    ONCE("next friday", NY_FALL, NY, "2025-11-07T00:00:00-05:00", 80, ""),
    ONCE("2025-11-02T01:30:00-05:00", NY_FALL, NY, "2025-11-02T01:30:00-05:00",
         100, "!f:dst_repeated"),
    ONCE("in 1 month", "2025-10-31T20:00:00-04:00", NY,
         "2025-11-30T20:00:00-05:00", 90, "f:month_clamped"),
    CRON("every day at 1:30am", NY_FALL, NY, "30 1 * * *",
         "2025-11-02T01:30:00-04:00", 70, "f:dst_repeated"),

    /* ---- Europe/Berlin: spring forward 2025-03-30 02:00 -> 03:00 --------- */
    ONCE("tomorrow at 2:30am", BER_SPRING, BER, "2025-03-30T03:30:00+02:00", 70,
         "f:dst_shifted"),
    ONCE("tomorrow at 02:00", BER_SPRING, BER, "2025-03-30T03:00:00+02:00", 70,
         "f:dst_shifted"),
    ONCE("tomorrow at 3am", BER_SPRING, BER, "2025-03-30T03:00:00+02:00", 95,
         ""),
    ONCE("in 1 day", BER_SPRING, BER, "2025-03-30T13:00:00+02:00", 95, ""),
    ONCE("tomorrow", BER_SPRING, BER, "2025-03-30T12:00:00+02:00", 80, ""),
    ONCE("end of month", BER_SPRING, BER, "2025-03-31T23:59:00+02:00", 70, ""),
    CRON("every day at 2:30am", BER_SPRING, BER, "30 2 * * *",
         "2025-03-30T03:00:00+02:00", 70, "f:dst_shifted"),

    /* ---- Europe/Berlin: fall back 2025-10-26 02:00-03:00 twice ----------- */
    ONCE("tomorrow at 2:30am", BER_FALL, BER, "2025-10-26T02:30:00+02:00", 70,
         "f:dst_repeated"),
    ONCE("2025-10-26 02:30", BER_FALL, BER, "2025-10-26T02:30:00+02:00", 70,
         "f:dst_repeated"),
    ONCE("2025-10-26T02:30:00+01:00", BER_FALL, BER,
         "2025-10-26T02:30:00+01:00", 100, ""),
    ONCE("tomorrow at 3am", BER_FALL, BER, "2025-10-26T03:00:00+01:00", 95, ""),
    ONCE("in 1 day", BER_FALL, BER, "2025-10-26T11:00:00+01:00", 95, ""),
    ONCE("next sunday", BER_FALL, BER, "2025-11-02T00:00:00+01:00", 60,
         "f:next_weekday_ambiguous"),
    ONCE("sunday", BER_FALL, BER, "2025-10-26T00:00:00+02:00", 80, ""),
    ONCE("tonight", BER_FALL, BER, "2025-10-25T20:00:00+02:00", 70, ""),
    ONCE("9am UTC", BER_FALL, BER, "2025-10-26T10:00:00+01:00", 90,
         "f:rolled_forward"),
    CRON("every day at 2:30am", BER_FALL, BER, "30 2 * * *",
         "2025-10-26T02:30:00+02:00", 70, "f:dst_repeated"),

    /* ---- Europe/Berlin: year end ----------------------------------------- */
    ONCE("tomorrow 8am JST", "2025-12-31T23:59:00+01:00", BER,
         "2026-01-01T00:00:00+01:00", 90, "f:zone_named"),
    ONCE("in 1 month", BER_NYE, BER, "2026-01-31T23:30:00+01:00", 90, ""),
    ONCE("tomorrow", BER_NYE, BER, "2026-01-01T23:30:00+01:00", 80, ""),
    ONCE("end of year", BER_NYE, BER, "2025-12-31T23:59:00+01:00", 70, ""),
    ONCE("next year", BER_NYE, BER, "2026-12-31T23:30:00+01:00", 70, ""),
    ONCE("midnight", BER_NYE, BER, "2026-01-01T00:00:00+01:00", 90, ""),
    ONCE("january 1st", BER_NYE, BER, "2026-01-01T00:00:00+01:00", 80,
         "f:rolled_forward"),
    ONCE("end of week", BER_NYE, BER, "2026-01-04T23:59:00+01:00", 70, ""),
    ONCE("next monday", BER_NYE, BER, "2026-01-05T00:00:00+01:00", 80, ""),
    ONCE("12/31", BER_NYE, BER, "2026-12-31T00:00:00+01:00", 80,
         "f:rolled_forward"),
    ONCE("the 1st", BER_NYE, BER, "2026-01-01T00:00:00+01:00", 80,
         "f:rolled_forward"),
    CRON("every monday at 9am", BER_NYE, BER, "0 9 * * 1",
         "2026-01-05T09:00:00+01:00", 95, ""),

    /* ---- Asia/Kolkata (+05:30, no DST): month end ------------------------ */
    ONCE("in 1 month", KOL, KOLKATA, "2025-02-28T18:00:00+05:30", 90,
         "f:month_clamped"),
    ONCE("next month", KOL, KOLKATA, "2025-02-28T18:00:00+05:30", 70,
         "f:month_clamped"),
    ONCE("in 13 months", KOL, KOLKATA, "2026-02-28T18:00:00+05:30", 90, ""),
    ONCE("in 2 months", KOL, KOLKATA, "2025-03-31T18:00:00+05:30", 90,
         "!f:month_clamped"),
    ONCE("in 1 year", KOL, KOLKATA, "2026-01-31T18:00:00+05:30", 90, ""),
    ONCE("tomorrow at 9am", KOL, KOLKATA, "2025-02-01T09:00:00+05:30", 95, ""),
    ONCE("9am utc", KOL, KOLKATA, "2025-02-01T14:30:00+05:30", 90, ""),
    ONCE("9am IST", KOL, KOLKATA, "2025-02-01T09:00:00+05:30", 90, ""),
    ONCE("end of month", KOL, KOLKATA, "2025-01-31T23:59:00+05:30", 70, ""),
    ONCE("the 31st", KOL, KOLKATA, "2025-03-31T00:00:00+05:30", 80,
         "f:rolled_forward"),
    ONCE("the 30th at 9am", KOL, KOLKATA, "2025-03-30T09:00:00+05:30", 85, ""),
    ONCE("friday at 7pm", KOL, KOLKATA, "2025-01-31T19:00:00+05:30", 95, ""),
    ONCE("this friday", KOL, KOLKATA, "2025-02-07T00:00:00+05:30", 60,
         "f:this_weekday_today"),
    ONCE("tonight", KOL, KOLKATA, "2025-01-31T20:00:00+05:30", 70, ""),
    ONCE("in 2 hours and 30 minutes", KOL, KOLKATA, "2025-01-31T20:30:00+05:30",
         95, ""),
    ONCE("feb 14 at 8pm", KOL, KOLKATA, "2025-02-14T20:00:00+05:30", 85, ""),
    CRON("every weekday at 9am", KOL, KOLKATA, "0 9 * * 1-5",
         "2025-02-03T09:00:00+05:30", 95, ""),
    EVERY("every 2 hours", KOL, KOLKATA, 7200000),

    /* ---- Australia/Lord_Howe: 30-minute DST ------------------------------ */
    ONCE("tomorrow at 2:15am", LH_SPRING, LH, "2025-10-05T02:45:00+11:00", 70,
         "f:dst_shifted"),
    ONCE("tomorrow at 2am", LH_SPRING, LH, "2025-10-05T02:30:00+11:00", 70,
         "f:dst_shifted"),
    ONCE("tomorrow at 2:30am", LH_SPRING, LH, "2025-10-05T02:30:00+11:00", 95,
         ""),
    ONCE("tomorrow", LH_SPRING, LH, "2025-10-05T12:00:00+11:00", 80, ""),
    ONCE("in 1 day", LH_SPRING, LH, "2025-10-05T12:30:00+11:00", 95, ""),
    CRON("every day at 2:15am", LH_SPRING, LH, "15 2 * * *",
         "2025-10-05T02:30:00+11:00", 70, "f:dst_shifted"),
    ONCE("tomorrow at 1:45am", LH_FALL, LH, "2025-04-06T01:45:00+11:00", 70,
         "f:dst_repeated"),
    ONCE("tomorrow at 2am", LH_FALL, LH, "2025-04-06T02:00:00+10:30", 95, ""),
    ONCE("in 1 day", LH_FALL, LH, "2025-04-06T11:30:00+10:30", 95, ""),
    ONCE("tomorrow", LH_FALL, LH, "2025-04-06T12:00:00+10:30", 80, ""),
    ONCE("next week", LH_FALL, LH, "2025-04-12T11:30:00+10:30", 70, ""),
    CRON("every day at 1:45am", LH_FALL, LH, "45 1 * * *",
         "2025-04-06T01:45:00+11:00", 70, "f:dst_repeated"),

    /* ---- leap days and month ends (UTC) ---------------------------------- */
    ONCE("in 1 year", LEAP, UTC, "2025-02-28T09:00:00Z", 90, "f:month_clamped"),
    ONCE("in 4 years", LEAP, UTC, "2028-02-29T09:00:00Z", 90,
         "!f:month_clamped"),
    ONCE("in 1 month", LEAP, UTC, "2024-03-29T09:00:00Z", 90, ""),
    ONCE("feb 29 at 10am", LEAP, UTC, "2024-02-29T10:00:00Z", 85, ""),
    ONCE("the 29th at 10am", LEAP, UTC, "2024-02-29T10:00:00Z", 85, ""),
    ONCE("feb 29 2028", LEAP, UTC, "2028-02-29T00:00:00Z", 80, ""),
    ONCE("tomorrow", LEAP, UTC, "2024-03-01T09:00:00Z", 80, ""),
    ONCE("end of month", LEAP, UTC, "2024-02-29T23:59:00Z", 70, ""),
    ONCE("end of month", "2025-02-10T00:00:00Z", UTC, "2025-02-28T23:59:00Z",
         70, ""),
    ONCE("feb 29", "2027-12-01T09:00:00Z", UTC, "2028-02-29T00:00:00Z", 80,
         "f:rolled_forward"),
    ONCE("in 1 month", "2025-01-31T12:00:00Z", UTC, "2025-02-28T12:00:00Z", 90,
         "f:month_clamped"),
    ONCE("in 3 months", "2025-01-31T12:00:00Z", UTC, "2025-04-30T12:00:00Z", 90,
         "f:month_clamped"),
    ONCE("tomorrow at 9am", "2025-12-31T22:00:00Z", UTC, "2026-01-01T09:00:00Z",
         95, ""),
    ONCE("the 29th", "2025-01-30T00:00:00Z", UTC, "2025-03-29T00:00:00Z", 80,
         "f:rolled_forward"),
    CRON("every month on the 29th at 9am", "2025-02-01T00:00:00Z", UTC,
         "0 9 29 * *", "2025-03-29T09:00:00Z", 95, "f:short_months_skipped"),
    ONCE("in 7974 years", WED, UTC, "9999-03-05T10:00:00Z", 90, ""),

    /* ---- rejections: vague (§5) ------------------------------------------ */
    REJECT("", WED, UTC, "empty"),
    REJECT("   ", WED, UTC, "empty"),
    REJECT("soon", WED, UTC, "vague"),
    REJECT("later", WED, UTC, "vague"),
    REJECT("someday", WED, UTC, "vague"),
    REJECT("sometime next week", WED, UTC, "vague"),
    REJECT("in a while", WED, UTC, "vague"),
    REJECT("in a few minutes", WED, UTC, "vague"),
    REJECT("asap", WED, UTC, "vague"),
    REJECT("every few hours", WED, UTC, "vague"),
    ONCE("in a couple of hours", WED, UTC, "2025-03-05T12:00:00Z", 95, ""),
    ONCE("after 30 mins", WED, UTC, "2025-03-05T10:30:00Z", 95, ""),
    REJECT("every couple of hours", WED, UTC, "vague"),
    REJECT("after the meeting", WED, UTC, "event"),
    REJECT("after the meeting tomorrow", WED, UTC, "event"),
    REJECT("before lunch", WED, UTC, "event"),
    REJECT("tomorrow around 9am", WED, UTC, "vague"),
    /* past (R11) */
    REJECT("yesterday", WED, UTC, "past"),
    REJECT("2 hours ago", WED, UTC, "past"),
    REJECT("last friday", WED, UTC, "past"),
    REJECT("in -2 hours", WED, UTC, "past"),
    REJECT("today at 9am", WED, UTC,
           "in the past: resolves to 2025-03-05T09:00:00Z"),
    REJECT("this morning", WED, UTC, "in the past"),
    REJECT("2025-01-01T00:00:00Z", WED, UTC, "in the past"),
    REJECT("march 3 2025", WED, UTC, "in the past"),
    REJECT("12/25/2024", WED, UTC, "in the past"),
    REJECT("end of day", "2025-03-05T23:59:30Z", UTC, "in the past"),
    REJECT("tonight", "2025-03-05T21:00:00Z", UTC, "in the past"),
    REJECT("friday at 3pm yesterday", WED, UTC, "past"),
    REJECT("feb 29", LEAP, UTC, "does not exist in 2025"),
    /* invalid fields (R12) */
    REJECT("february 30", WED, UTC, "february has no day 30"),
    REJECT("april 31st", WED, UTC, "april has no day 31"),
    REJECT("feb 29 2025", WED, UTC, "not a leap year"),
    REJECT("feb 29", KOL, KOLKATA, "does not exist in 2025"),
    REJECT("25:00", WED, UTC, "hour 25 is out of range 0-23"),
    REJECT("13pm", WED, UTC, "hour 13 is out of range 1-12"),
    REJECT("0am", WED, UTC, "hour 0 is out of range 1-12"),
    REJECT("9:60", WED, UTC, "minute 60"),
    REJECT("tomorrow at 9:5", WED, UTC, "two digits"),
    REJECT("13/25", WED, UTC, "month 13"),
    REJECT("march 32", WED, UTC, "day 32"),
    REJECT("the 0th", WED, UTC, "day 0"),
    REJECT("2025-13-01", WED, UTC, "month 13"),
    REJECT("at 24", WED, UTC, "hour 24"),
    REJECT("next friday at 25:00", WED, UTC, "hour 25"),
    REJECT("3th of may", WED, UTC, "not an ordinal"),
    REJECT("12/25/25", WED, UTC, "four digits"),
    REJECT("9am +15", WED, UTC, "out of range"),
    REJECT("at 5pm +5:3", WED, UTC, "minutes must have two digits"),
    REJECT("at 5pm +123", WED, UTC, "must be +HH, +HHMM or +HH:MM"),
    REJECT("on the 32nd", WED, UTC, "day 32 is out of range 1-31"),
    REJECT("on jan 1 0000", WED, UTC, "year 0000 is out of range"),
    REJECT("1/2/0000", WED, UTC, "year 0000 is out of range"),
    REJECT("in 2 hours 2 hours", WED, UTC, "twice"),
    REJECT("in half a month", WED, UTC, "half a month"),
    REJECT("in 9999 years", WED, UTC, "too far"),
    REJECT("123456", WED, UTC, "too long"),
    /* not expressible as one schedule (§6) */
    RRULE("every other day", WED, UTC,
          "FREQ=DAILY;INTERVAL=2;BYHOUR=0;BYMINUTE=0;BYSECOND=0",
          "2025-03-06T00:00:00Z", 80, "i:time"),
    REJECT("twice a day", WED, UTC, "twice a day"),
    REJECT("3 times a day", WED, UTC, "repetitions"),
    RRULE("every 2 days at 9am", WED, UTC,
          "FREQ=DAILY;INTERVAL=2;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
          "2025-03-06T09:00:00Z", 95, ""),
    CRON("every 1 day", WED, UTC, "0 0 * * *", "2025-03-06T00:00:00Z", 80,
         "i:time"),
    REJECT("every week", WED, UTC, "does not say which day"),
    REJECT("every month", WED, UTC, "does not say which day"),
    EVERY("hourly", WED, UTC, 3600000),
    REJECT("every day at 9am UTC", WED, UTC, "zone"),
    REJECT("every morning at 6pm", WED, UTC, "not in the morning"),
    /* a part of the day without a time: its hour (R8), as for one time */
    CRON("every morning", WED, UTC, "0 9 * * *", "2025-03-06T09:00:00Z", 70,
         "i:time"),
    CRON("every evening", WED, UTC, "0 18 * * *", "2025-03-05T18:00:00Z", 70,
         "i:time"),
    REJECT("weekdays", WED, UTC, "needs a time"),
    REJECT("every 0 minutes", WED, UTC, "at least 1 second"),
    REJECT("every half a second", WED, UTC, "at least 1 second"),
    /* gibberish and partial matches: the whole phrase must be understood */
    REJECT("gibberish", WED, UTC, "cannot read 'gibberish' (word 1)"),
    REJECT("tomorrow please", WED, UTC, "cannot read 'please' (word 2)"),
    REJECT("now please", WED, UTC, "cannot read 'please'"),
    REJECT("remind me tomorrow at 9am", WED, UTC, "cannot read 'remind'"),
    REJECT("the meeting tomorrow", WED, UTC, "cannot read 'meeting'"),
    REJECT("tomorrow at 9am or 10am", WED, UTC, "cannot read 'or'"),
    REJECT("9am XYZ", WED, UTC, "cannot read 'xyz'"),
    REJECT("tomorrow 9", WED, UTC, "cannot read '9'"),
    REJECT("this week", WED, UTC, "cannot read 'week'"),
    REJECT("next weekday", WED, UTC, "cannot read 'weekday'"),
    REJECT("tomorrow at", WED, UTC, "incomplete"),
    REJECT("in 2", WED, UTC, "incomplete"),
    REJECT("in 1 day and", WED, UTC, "incomplete"),
    ONCE("at 11 o'clock", WED, UTC, "2025-03-05T11:00:00Z", 60, "i:meridiem"),
    ONCE("half six tomorrow evening", WED, UTC, "2025-03-06T18:30:00Z", 95, ""),
    ONCE("at half 7 pm", WED, UTC, "2025-03-05T19:30:00Z", 90, ""),
    ONCE("tomorrow arvo", WED, UTC, "2025-03-06T15:00:00Z", 70, ""),
    ONCE("at 5 o\xe2\x80\x99"
         "clock pm",
         WED, UTC, "2025-03-05T17:00:00Z", 90, ""),
    /* a bare hour 9-12 whose morning has passed and whose evening has not:
    ** tonight or tomorrow morning? (said at 10:00, 14:30); once both have
    ** passed (22:40) the next one is the morning's */
    REJECT("at 9 o'clock", WED, UTC, "21:00 tonight or 09:00 tomorrow"),
    REJECT("at 12", "2025-03-05T14:30:00Z", UTC, "midnight tonight or noon"),
    ONCE("at 9", "2025-03-05T22:40:00Z", UTC, "2025-03-06T09:00:00Z", 60,
         "i:meridiem f:rolled_forward"),
    ONCE("sunday at 9", WED, UTC, "2025-03-09T09:00:00Z", 60, "i:meridiem"),
    ONCE("in 1.5 hours", WED, UTC, "2025-03-05T11:30:00Z", 95, ""),
    REJECT("tomorrow at 9am \xe2\x98\x83", WED, UTC, "unexpected byte"),
    ONCE("2026-01-15 at 9am", WED, UTC, "2026-01-15T09:00:00Z", 95, ""),
    /* found by fuzzing: words glued to numbers were read as separate */
    REJECT("at8", WED, UTC, "put a blank between 'at' and '8'"),
    REJECT("tomorrow2:00", WED, UTC, "put a blank between 'tomorrow' and '2'"),
    REJECT("mar3", WED, UTC, "put a blank"),
    REJECT("in1hour", WED, UTC, "put a blank"),
    REJECT("2mar2200", WED, UTC, "put a blank between '2' and 'mar'"),
    REJECT("the15at2", WED, UTC, "put a blank"),
    REJECT("every90 minutes", WED, UTC, "put a blank"),
    REJECT("ev.ery 90s", WED, UTC, "cannot read 'ev'"),
    REJECT("tomor.row", WED, UTC, "cannot read 'tomor'"),
    /* a word after a whole recurring phrase is not read */
    REJECT("every day at 9 foo", WED, UTC, "cannot read 'foo' (word 5)"),
    REJECT("every morning at 8 zz", WED, UTC, "cannot read 'zz' (word 5)"),
    REJECT("every weekday at 9 xyz", WED, UTC, "cannot read 'xyz' (word 5)"),
    REJECT("every weekend at 9 xyz", WED, UTC, "cannot read 'xyz' (word 5)"),
    REJECT("every monday at 9 x", WED, UTC, "cannot read 'x' (word 5)"),
    REJECT("daily at 9 x", WED, UTC, "cannot read 'x' (word 4)"),
    REJECT("weekdays at 9 x", WED, UTC, "cannot read 'x' (word 4)"),
    REJECT("on the 3rd of every month at 9 x", WED, UTC,
           "cannot read 'x' (word 10)"),
    REJECT("every month on the 3rd at 9 x", WED, UTC,
           "cannot read 'x' (word 9)"),
    REJECT("every morning 8", WED, UTC, "cannot read '8' (word 3)"),
    REJECT("weekdays 9", WED, UTC, "cannot read '9' (word 2)"),
    CRON("on the 3rd of each month", WED, UTC, "0 0 3 * *",
         "2025-04-03T00:00:00Z", 80, "i:time"),
    REJECT("on the 3rd of month", WED, UTC, "cannot read 'month'"),
    REJECT("on the 3rd of every week", WED, UTC, "cannot read 'week'"),
    REJECT("in 5 minutes from then", WED, UTC, "cannot read 'then'"),
    /* ... nor a bad time in one */
    REJECT("every weekday at", WED, UTC, "missing after 'at'"),
    REJECT("every weekend at 25", WED, UTC, "hour 25 is out of range 0-23"),
    REJECT("daily at 25", WED, UTC, "hour 25 is out of range 0-23"),
    REJECT("every monday at 25", WED, UTC, "hour 25 is out of range 0-23"),
    REJECT("on the 3rd of every month at 25", WED, UTC,
           "hour 25 is out of range 0-23"),
    REJECT("every month on the 32nd", WED, UTC, "day 32 is out of range 1-31"),
    REJECT("on the 32nd of every month", WED, UTC,
           "day 32 is out of range 1-31"),
    REJECT("on the 0th of every month", WED, UTC, "day 0 is out of range 1-31"),
    REJECT("every morning at 13", WED, UTC, "13:00 is not in the morning"),
    REJECT("every morning at 12", WED, UTC, "12:00 is not in the morning"),
    /* clock, offset and date fields out of range */
    REJECT("at 10:30:75", WED, UTC, "second 75 is out of range 0-59"),
    REJECT("at 10:30:5", WED, UTC, "second after ':' must have two digits"),
    REJECT("at 9 +14:30", WED, UTC,
           "zone offset +14:30 is out of range -14:00..+14:00"),
    REJECT("at 9 +13:75", WED, UTC, "zone offset +13:75 is out of range"),
    REJECT("at 9 -0560", WED, UTC, "zone offset -05:60 is out of range"),
    REJECT("tomorrow at 9 +15", WED, UTC, "zone offset +15:00 is out of range"),
    ONCE("on 13/5", WED, UTC, "2025-05-13T00:00:00Z", 80, "i:time"),
    ONCE("on 13/5/2025", WED, UTC, "2025-05-13T00:00:00Z", 80, "i:time"),
    REJECT("on 5/10", WED, UTC, "may be may 10 or 5 october"),
    REJECT("on 5/0", WED, UTC, "day 0 is out of range 1-31"),
    REJECT("on 5/32", WED, UTC, "day 32 is out of range 1-31"),
    REJECT("on feb 29 2025", WED, UTC,
           "2025-02-29 does not exist: 2025 is not a leap year"),
    REJECT("on 2/29/2025", WED, UTC, "2025-02-29 does not exist"),
    /* numbers: at most 4 digits, quoted up to 12 */
    REJECT("at 1234567890123", WED, UTC, "number '123456789012' is too long"),
    REJECT("at 9:am5", WED, UTC, "put a blank between 'am' and '5'"),
    /* a date this year or next: an earlier day of this month is next year */
    ONCE("on march 3", WED, UTC, "2026-03-03T00:00:00Z", 80,
         "i:time i:year f:rolled_forward"),
    ONCE("on march 7", WED, UTC, "2025-03-07T00:00:00Z", 80,
         "i:time i:year !f:rolled_forward"),
    CRON("every month on the 3rd", WED, UTC, "0 0 3 * *",
         "2025-04-03T00:00:00Z", 80, "i:time"),
    /* a final '.' ends the sentence, blanks after it too */
    ONCE("tomorrow at 9.", WED, UTC, "2025-03-06T09:00:00Z", 60, "i:meridiem"),
    ONCE("tomorrow at 9.  ", WED, UTC, "2025-03-06T09:00:00Z", 60,
         "i:meridiem"),
    REJECT("on apr 31 2025", WED, UTC, "april has no day 31"),
    REJECT("on feb 30 2024", WED, UTC, "february has no day 30"),
    REJECT("on friday at 9 +15", WED, UTC,
           "zone offset +15:00 is out of range"),
    REJECT("every month at 9", WED, UTC, "does not say which day"),
    REJECT("every month on the 3rd at 25", WED, UTC, "hour 25 is out of range"),
    REJECT("weekends", WED, UTC, "'weekends' needs a time"),
    REJECT("at 9 tomorrow +15", WED, UTC, "zone offset +15:00 is out of range"),
    /* a run of three weekdays after a single one: "0,2-4" */
    CRON("every sunday, tuesday, wednesday and thursday at 9", WED, UTC,
         "0 9 * * 0,2-4", "2025-03-06T09:00:00Z", 60, "i:meridiem"),

    /* ---- issue 34: the whole phrase a person means ------------------------ */
    /* a part of the day with a clock time: that half of the day */
    ONCE("tomorrow evening at 7:15", WED, UTC, "2025-03-06T19:15:00Z", 95, ""),
    ONCE("7:15 tomorrow evening", WED, UTC, "2025-03-06T19:15:00Z", 95, ""),
    ONCE("tonight at 11", WED, UTC, "2025-03-05T23:00:00Z", 95, "!i:meridiem"),
    ONCE("at 10 tonight", WED, UTC, "2025-03-05T22:00:00Z", 95, ""),
    ONCE("this afternoon at 4", WED, UTC, "2025-03-05T16:00:00Z", 95, ""),
    ONCE("at 5 in the afternoon tomorrow", WED, UTC, "2025-03-06T17:00:00Z", 95,
         ""),
    ONCE("at half past nine tomorrow morning", WED, UTC, "2025-03-06T09:30:00Z",
         95, ""),
    ONCE("at quarter to 6 this evening", WED, UTC, "2025-03-05T17:45:00Z", 95,
         ""),
    ONCE("tonight at 1am", WED, UTC, "2025-03-06T01:00:00Z", 95, ""),
    REJECT("tonight at 12", WED, UTC, "midnight or noon"),
    REJECT("this morning at 8pm", WED, UTC, "20:00 is not in the morning"),
    /* the morning's last hour (the morning is 4:00 to 11:59) */
    ONCE("tomorrow morning at 11:45am", WED, UTC, "2025-03-06T11:45:00Z", 95,
         ""),
    ONCE("tomorrow morning at 11am", WED, UTC, "2025-03-06T11:00:00Z", 95, ""),
    REJECT("tomorrow morning at 12pm", WED, UTC, "12:00 is not in the morning"),
    /* a day count with a time: that date, at that time */
    ONCE("in 3 days at 8am", WED, UTC, "2025-03-08T08:00:00Z", 95, ""),
    ONCE("two weeks from today at noon", WED, UTC, "2025-03-19T12:00:00Z", 95,
         ""),
    ONCE("a week from tomorrow at 9am", WED, UTC, "2025-03-13T09:00:00Z", 95,
         ""),
    ONCE("a week from today", WED, UTC, "2025-03-12T10:00:00Z", 80, "i:time"),
    ONCE("a week from monday at 10am", WED, UTC, "2025-03-17T10:00:00Z", 95,
         ""),
    ONCE("in 2 days at 9am", NY_SPRING, NY, "2025-03-10T09:00:00-04:00", 95,
         ""),
    /* fractions */
    ONCE("in two hours and a half", WED, UTC, "2025-03-05T12:30:00Z", 95, ""),
    ONCE("in an hour and a quarter", WED, UTC, "2025-03-05T11:15:00Z", 95, ""),
    ONCE("in 4\xc2\xbd hours", WED, UTC, "2025-03-05T14:30:00Z", 95, ""),
    ONCE("in a day and a half", WED, UTC, "2025-03-06T22:00:00Z", 95, ""),
    ONCE("in three quarters of an hour", WED, UTC, "2025-03-05T10:45:00Z", 95,
         ""),
    ONCE("in twenty-five minutes", WED, UTC, "2025-03-05T10:25:00Z", 95, ""),
    /* recurring with a part of the day, several times, a leading time */
    CRON("every monday evening at 8", WED, UTC, "0 20 * * 1",
         "2025-03-10T20:00:00Z", 95, ""),
    CRON("every night at 11pm", WED, UTC, "0 23 * * *", "2025-03-05T23:00:00Z",
         95, ""),
    CRON("every evening at 9", WED, UTC, "0 21 * * *", "2025-03-05T21:00:00Z",
         95, ""),
    CRON("every day at 8am and 8pm", WED, UTC, "0 8,20 * * *",
         "2025-03-05T20:00:00Z", 95, ""),
    CRON("at 7:45am every weekday", WED, UTC, "45 7 * * 1-5",
         "2025-03-06T07:45:00Z", 95, ""),
    CRON("mon-fri at 8am", WED, UTC, "0 8 * * 1-5", "2025-03-06T08:00:00Z", 95,
         ""),
    RRULE("every year on march 3 at 8am", WED, UTC,
          "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3;BYHOUR=8;BYMINUTE=0;BYSECOND=0",
          "2026-03-03T08:00:00Z", 95, ""),
    CRON("every hour on the hour", WED, UTC, "0 * * * *",
         "2025-03-05T11:00:00Z", 95, ""),
    /* calendar rules (docs/when.md#calendar-rules): an RFC 5545 rule,
    ** never a cron line that runs on other days; what is not read is
    ** refused */
    RRULE("every second tuesday of the month at 9am", WED, UTC,
          "FREQ=MONTHLY;BYDAY=2TU;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
          "2025-03-11T09:00:00Z", 95, ""),
    RRULE("the 2nd and 4th friday of every month", WED, UTC,
          "FREQ=MONTHLY;BYDAY=2FR,4FR;BYHOUR=0;BYMINUTE=0;BYSECOND=0",
          "2025-03-14T00:00:00Z", 80, "i:time"),
    RRULE("every 3 days at 7am", WED, UTC,
          "FREQ=DAILY;INTERVAL=3;BYHOUR=7;BYMINUTE=0;BYSECOND=0",
          "2025-03-06T07:00:00Z", 95, ""),
    RRULE("biweekly on monday", WED, UTC,
          "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=0;BYMINUTE=0;BYSECOND=0",
          "2025-03-10T00:00:00Z", 80, "i:time"),
    RRULE("every other tuesday at 9", WED, UTC,
          "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
          "2025-03-11T09:00:00Z", 60, "i:meridiem"),
    RRULE("the last weekday of every month at 5pm", WED, UTC,
          "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=17;"
          "BYMINUTE=0;BYSECOND=0",
          "2025-03-31T17:00:00Z", 95, ""),
    RRULE("every weekday at 9am except holidays", WED, UTC,
          "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
          "2025-03-06T09:00:00Z", 95, ""),
    /* a DST gap: 02:30 on 2025-03-09 in New York moves to 03:30 (RFC 5545) */
    RRULE("every other sunday at 2:30am", NY_SPRING, "America/New_York",
          "FREQ=WEEKLY;INTERVAL=2;BYDAY=SU;BYHOUR=2;BYMINUTE=30;BYSECOND=0",
          "2025-03-09T03:30:00-04:00", 95, ""),
    REJECT("every 2 weeks at 10am", WED, UTC, "calendar rule"),
    REJECT("every other week", WED, UTC, "calendar rule"),
    REJECT("every hour except holidays", WED, UTC, "cannot skip holidays"),
    /* a weekday with a date must agree; holidays; ranges */
    ONCE("friday the 7th at 9am", WED, UTC, "2025-03-07T09:00:00Z", 85, ""),
    REJECT("friday the 13th", WED, UTC, "is a thursday, not a friday"),
    ONCE("christmas eve at 5pm", WED, UTC, "2025-12-24T17:00:00Z", 85, ""),
    ONCE("from 10 to 11am", WED, UTC, WED, 80, "f:range_start"),
    /* zones with their summer time */
    ONCE("at 3pm ET", WED, UTC, "2025-03-05T20:00:00Z", 90, "f:zone_named"),
    ONCE("at 3pm ET", "2025-07-01T10:00:00Z", UTC, "2025-07-01T19:00:00Z", 90,
         "f:zone_named"),
    /* shorthand, typos, other ways to write a clock time */
    ONCE("tmrw at 9am", WED, UTC, "2025-03-06T09:00:00Z", 95, ""),
    ONCE("thrusday at 2pm", WED, UTC, "2025-03-06T14:00:00Z", 95, ""),
    ONCE("2moro @ 6pm", WED, UTC, "2025-03-06T18:00:00Z", 95, ""),
    ONCE("at 8.30pm", WED, UTC, "2025-03-05T20:30:00Z", 90, ""),
    ONCE("at 1830", WED, UTC, "2025-03-05T18:30:00Z", 90, ""),
    /* four digits and "hours": military time, unless said as a duration */
    ONCE("1700 hours", WED, UTC, "2025-03-05T17:00:00Z", 90, ""),
    ONCE("at 0930 hrs", WED, UTC, "2025-03-06T09:30:00Z", 90, ""),
    ONCE("tomorrow at 1700 hours", WED, UTC, "2025-03-06T17:00:00Z", 95, ""),
    ONCE("1700 hours from now", WED, UTC, "2025-05-15T06:00:00Z", 95, ""),
    ONCE("in 1700 hours", WED, UTC, "2025-05-15T06:00:00Z", 95, ""),
    CRON("every day at 1700 hours", WED, UTC, "0 17 * * *",
         "2025-03-05T17:00:00Z", 95, ""),
    ONCE("12 noon", WED, UTC, "2025-03-05T12:00:00Z", 90, ""),
    ONCE("at 19h30", WED, UTC, "2025-03-05T19:30:00Z", 90, ""),
    ONCE("at 20h", WED, UTC, "2025-03-05T20:00:00Z", 90, ""),
    ONCE("at 8.30", WED, UTC, "2025-03-06T08:30:00Z", 90, "f:rolled_forward"),
    ONCE("in 19h30", WED, UTC, "2025-03-06T05:30:00Z", 95, ""), /* a duration */
    /* a recurring phrase's time without "at", and its typos */
    CRON("daily 9 am", WED, UTC, "0 9 * * *", "2025-03-06T09:00:00Z", 95, ""),
    CRON("each friday 17:00", WED, UTC, "0 17 * * 5", "2025-03-07T17:00:00Z",
         95, ""),
    CRON("every weekday 8.30", WED, UTC, "30 8 * * 1-5", "2025-03-06T08:30:00Z",
         95, ""),
    CRON("evry monday at 10am", WED, UTC, "0 10 * * 1", "2025-03-10T10:00:00Z",
         95, ""),
    CRON("everyday at 7am", WED, UTC, "0 7 * * *", "2025-03-06T07:00:00Z", 95,
         ""),
    CRON("every evening 9pm", WED, UTC, "0 21 * * *", "2025-03-05T21:00:00Z",
         95, ""),
    REJECT("daily 9", WED, UTC, "cannot read"),
    /* a slash date both ways valid: month first only where that is usual */
    ONCE("7/4", "2025-03-05T10:00:00-05:00", NY, "2025-07-04T00:00:00-04:00",
         80, "f:month_first"),
    REJECT("7/4", WED, UTC, "7/4 may be july 4 or 7 april"),
};

/* ---- the harness --------------------------------------------------------- */

static tzdb *zones;

static int64_t iso_ms(const char *s) {
  civil_time t;
  int has_off = 0;
  int32_t off = 0;
  char err[160];
  if (civil_parse_iso(s, strlen(s), &t, &has_off, &off, err, sizeof err) != 0) {
    CHECK(0, "bad ISO in the test table: '%s': %s", s, err);
    return 0;
  }
  return civil_to_ms(&t) - (int64_t)off * 1000;
}

static int has_tag(const char *const *tags, int n, const char *tag) {
  for (int i = 0; i < n; i++)
    if (strcmp(tags[i], tag) == 0) return 1;
  return 0;
}

/* Each word of spec: "i:x" / "f:x" must be present, "!i:x" / "!f:x" not. */
static void check_tags(const wcase *c, const when_result *r) {
  char buf[256], *save = NULL;
  snprintf(buf, sizeof buf, "%s", c->tags);
  for (char *w = strtok_r(buf, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
    int neg = w[0] == '!';
    const char *t = w + neg;
    int in = t[0] == 'i' ? has_tag(r->implied, r->n_implied, t + 2)
                         : has_tag(r->flags, r->n_flags, t + 2);
    CHECK(in != neg, "line %d '%s': tag %s", c->line, c->phrase, w);
  }
}

static void check_accepted(const wcase *c, const when_result *r, int rc,
                           int64_t now) {
  CHECK(rc == 0 && r->kind != WHEN_NONE, "line %d '%s': rejected: %s", c->line,
        c->phrase, r->reason);
  if (rc != 0) return;
  CHECK_STR(when_kind_name(r->kind), c->kind, c->phrase);
  int64_t want = c->due ? iso_ms(c->due) : now + c->every;
  char got[CIVIL_ISO_MAX];
  civil_format_iso(r->due_at, 0, 1, got);
  CHECK(r->due_at == want, "line %d '%s': due %s, want %s", c->line, c->phrase,
        got, c->due ? c->due : "now + interval");
  CHECK(r->confidence > c->conf / 100.0 - 1e-9 &&
            r->confidence < c->conf / 100.0 + 1e-9,
        "line %d '%s': confidence %.2f, want %.2f", c->line, c->phrase,
        r->confidence, c->conf / 100.0);
  if (c->cron && r->kind == WHEN_RRULE) {
    CHECK_STR(r->rrule, c->cron, c->phrase);
    CHECK(r->start_at == r->due_at, "line %d '%s': start_at", c->line,
          c->phrase);
  } else if (c->cron) {
    CHECK_STR(r->cron, c->cron, c->phrase);
  }
  if (c->every) CHECK_EQ_I64(r->interval_ms, c->every, c->phrase);
  CHECK(r->reason[0] == 0 && r->matched[0] != 0, "line %d '%s': reason/matched",
        c->line, c->phrase);
  check_tags(c, r);
}

static void check_rejected(const wcase *c, const when_result *r, int rc) {
  CHECK(rc == -1 && r->kind == WHEN_NONE && r->confidence == 0.0,
        "line %d '%s': accepted (kind %d, conf %.2f)", c->line, c->phrase,
        r->kind, r->confidence);
  CHECK(strstr(r->reason, c->tags) != NULL,
        "line %d '%s': reason '%s' lacks '%s'", c->line, c->phrase, r->reason,
        c->tags);
  CHECK(r->matched[0] == 0 && r->n_flags == 0 && r->n_implied == 0,
        "line %d '%s': rejected result not clean", c->line, c->phrase);
}

static void run_table(int *n_accept, int *n_reject) {
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const wcase *c = &cases[i];
    const tz_zone *z;
    char err[160];
    when_result r;
    if (tzdb_get(zones, c->zone, &z, err, sizeof err) != 0) {
      CHECK(0, "zone %s: %s", c->zone, err);
      continue;
    }
    int64_t now = iso_ms(c->now);
    int rc = when_parse(c->phrase, now, z, &r);
    CHECK_STR(r.tz, c->zone, c->phrase);
    if (c->kind) {
      check_accepted(c, &r, rc, now);
      ++*n_accept;
    } else {
      check_rejected(c, &r, rc);
      ++*n_reject;
    }
  }
}

/* ---- properties the table does not show ---------------------------------- */

static void check_misc(void) {
  when_result r, r2;
  int64_t now = iso_ms(WED);
  char long_phrase[400];
  /* deterministic: the same input twice gives the same bytes */
  when_parse("every weekday at 8:30", now, NULL, &r);
  when_parse("every weekday at 8:30", now, NULL, &r2);
  CHECK(r.due_at == r2.due_at && strcmp(r.cron, r2.cron) == 0 &&
            strcmp(r.matched, r2.matched) == 0,
        "deterministic");
  CHECK_STR(r.tz, "UTC", "NULL zone is UTC");
  /* matched is the normalized phrase */
  when_parse("  Tomorrow   AT 9 A.M. ", now, NULL, &r);
  CHECK_STR(r.matched, "tomorrow at 9 am", "normalized");
  /* a weekday and a date that disagree: March 3, 2026 is a Tuesday */
  when_parse("Mon.,  Mar. 3", now, NULL, &r);
  CHECK(r.kind == WHEN_NONE && strstr(r.reason, "not a monday") != NULL,
        "weekday plus date rejected: %s", r.reason);
  /* NULL phrase, reference instants out of range */
  CHECK(when_parse(NULL, now, NULL, &r) == -1, "NULL phrase");
  CHECK(strstr(r.reason, "empty") != NULL, "NULL phrase reason: %s", r.reason);
  CHECK(when_parse("now", INT64_MAX, NULL, &r) == -1, "now = INT64_MAX");
  CHECK(strstr(r.reason, "reference") != NULL, "reason: %s", r.reason);
  CHECK(when_parse("now", INT64_MIN, NULL, &r) == -1, "now = INT64_MIN");
  /* too long */
  memset(long_phrase, 'a', sizeof long_phrase - 1);
  long_phrase[sizeof long_phrase - 1] = 0;
  CHECK(when_parse(long_phrase, now, NULL, &r) == -1 &&
            strstr(r.reason, "longer than") != NULL,
        "long phrase: %s", r.reason);
  /* many words */
  snprintf(long_phrase, sizeof long_phrase, "%s",
           "in 1 s 1 m 1 h 1 day 1 week 1 fortnight 1 month 1 year , , , , , "
           ", , , , , , , , , , , , , , , , , , , , , , , , , , , , , , , ,");
  CHECK(when_parse(long_phrase, now, NULL, &r) == -1 &&
            strstr(r.reason, "too many") != NULL,
        "many words: %s", r.reason);
  CHECK(when_kind_name(WHEN_NONE) == NULL, "kind name none");
  /* near the end of time */
  CHECK(when_parse("in 2 days", iso_ms("9999-12-30T12:00:00Z"), NULL, &r) ==
                -1 &&
            strstr(r.reason, "too far") != NULL,
        "past 9999: %s", r.reason);
  CHECK(when_parse("every day at 9am", iso_ms("9999-12-31T12:00:00Z"), NULL,
                   &r) == -1 &&
            strstr(r.reason, "never fires") != NULL,
        "cron past 9999: %s", r.reason);
  CHECK(when_parse("tonight", iso_ms("9999-12-31T12:00:00Z"), NULL, &r) == 0 &&
            r.due_at == iso_ms("9999-12-31T20:00:00Z"),
        "last day of 9999: %s", r.reason);
  CHECK(when_parse("every hour", iso_ms("9999-12-31T23:30:00Z"), NULL, &r) ==
                -1 &&
            strstr(r.reason, "too far") != NULL,
        "interval past 9999: %s", r.reason);
  CHECK(when_parse("now", iso_ms("0001-01-01T12:00:00Z"), NULL, &r) == -1,
        "first day of year 1 is outside the reference range");
  CHECK(when_parse("in 1 year", iso_ms("0001-01-02T00:00:00Z"), NULL, &r) ==
                0 &&
            r.due_at == iso_ms("0002-01-02T00:00:00Z"),
        "year 1: %s", r.reason);
}

/*
** More forms, each reaching a branch of the parser the table above does
** not (found with `make coverage`): every ASCII blank, a sentence's final
** '.', glued tokens, clock fields and zone offsets cut short, ordinals
** 11th-13th, dates that do not exist, anchors, the recurring forms with
** and without a time, and the failures that explain themselves ("last
** ...", negative durations). At WED in UTC: the due instant (and cron
** line), or the start of the reason.
*/
static void check_more_forms(void) {
  static const struct {
    const char *phrase, *due, *cron_or_reason;
  } more[] = {
      {"in\t2\rhours", "2025-03-05T12:00:00Z", NULL},
      {"in\f2\vhours\n", "2025-03-05T12:00:00Z", NULL},
      {"at 9 \x01", NULL, "unexpected byte 0x01"},
      {"at 9 \xc3\xa9", NULL, "unexpected byte 0xc3"},
      {"in 2 hours from now", "2025-03-05T12:00:00Z", NULL},
      {"in 2 hours.", "2025-03-05T12:00:00Z", NULL},
      {"in 1h30m", "2025-03-05T11:30:00Z", NULL},
      {"at9", NULL, "put a blank between 'at' and '9'"},
      {"at 9 x1", NULL, "put a blank between 'x' and '1'"},
      {"in 2.5 hours", "2025-03-05T12:30:00Z", NULL},
      {"at 9:", NULL, "minute after ':' must have two digits"},
      {"at 9:xx", NULL, "minute after ':' must have two digits"},
      {"at 9 +", NULL, "cannot read '+' (word 3): the whole phrase m"},
      {"at 9 +05:", NULL, "zone offset minutes must have two digits"},
      {"at 9 + x", NULL, "cannot read '+' (word 3): the whole phrase m"},
      {"on the 11th", "2025-03-11T00:00:00Z", NULL},
      {"on the 12th at 9", "2025-03-12T09:00:00Z", NULL},
      {"the 13th", "2025-03-13T00:00:00Z", NULL},
      {"the 11st", NULL, "'11st' is not an ordinal (11th)"},
      {"the 2nd", "2025-04-02T00:00:00Z", NULL},
      {"the 45", NULL, "day 45 is out of range 1-31"},
      {"the 5th", "2025-04-05T00:00:00Z", NULL},
      {"5/x", NULL, "cannot read '/' (word 2): the whole phrase m"},
      {"13/5", "2025-05-13T00:00:00Z", NULL},
      {"5/32", NULL, "day 32 is out of range 1-31"},
      {"5/3/20", NULL, "the year in M/D/YYYY must have four digits"},
      {"2/29/2027", NULL, "2027-02-29 does not exist: 2027 is not a lea"},
      {"feb 29 2027", NULL, "2027-02-29 does not exist: 2027 is not a lea"},
      {"april 31", NULL, "april has no day 31"},
      {"feb 29", NULL, "february 29 does not exist in 2026 (not a le"},
      {"the day after tomorrow", "2025-03-07T10:00:00Z", NULL},
      {"the day after x", NULL, "'after ...' ties the time to an event, not t"},
      {"end of day", "2025-03-05T23:59:00Z", NULL},
      {"end of the week", "2025-03-09T23:59:00Z", NULL},
      {"next day", NULL, "incomplete phrase: something is missing afte"},
      {"end day", NULL, "cannot read 'day' (word 2): the whole phrase"},
      {"every morning", "2025-03-06T09:00:00Z", "0 9 * * *"},
      {"every morning at x", NULL,
       "cannot read 'x' (word 4): the whole phrase m"},
      {"every morning at 1pm", NULL, "13:00 is not in the morning"},
      {"every month on the 5th", "2025-04-05T00:00:00Z", "0 0 5 * *"},
      {"every 2 months", NULL, "'every 2 months' is a calendar rule"},
      {"every 2 weeks", NULL, "'every 2 weeks' is a calendar rule"},
      {"every 3 years", NULL, "'every 3 years' is a calendar rule"},
      {"every 2 days", "2025-03-06T00:00:00Z", NULL}, /* a rule */
      {"every week", NULL, "'every week' does not say which day"},
      {"every monday and tuesday", "2025-03-10T00:00:00Z", "0 0 * * 1,2"},
      {"every monday, x", NULL, "cannot read 'x' (word 4): the whole phrase m"},
      {"every monday, tuesday and wednesday", "2025-03-10T00:00:00Z",
       "0 0 * * 1-3"},
      {"every monday, wednesday and friday at 9", "2025-03-07T09:00:00Z",
       "0 9 * * 1,3,5"},
      {"every month on the x", NULL,
       "cannot read 'x' (word 5): the whole phrase m"},
      {"every month on 5th", "2025-04-05T00:00:00Z", "0 0 5 * *"},
      {"every month on the 45", NULL, "day 45 is out of range 1-31"},
      {"every month on the 31st at 9", "2025-03-31T09:00:00Z", "0 9 31 * *"},
      {"every weekday at 9 extra", NULL,
       "cannot read 'extra' (word 5): the whole phra"},
      {"every weekend at 9", "2025-03-08T09:00:00Z", "0 9 * * 0,6"},
      {"every weekend", "2025-03-08T00:00:00Z", "0 0 * * 0,6"},
      {"every monday at 9 x", NULL,
       "cannot read 'x' (word 5): the whole phrase m"},
      {"daily at 9", "2025-03-06T09:00:00Z", "0 9 * * *"},
      {"daily at 9 x", NULL, "cannot read 'x' (word 4): the whole phrase m"},
      {"weekdays at 9", "2025-03-06T09:00:00Z", "0 9 * * 1-5"},
      {"weekdays", NULL, "'weekdays' needs a time: add 'at <time>'"},
      {"on the 5th of every month at 9", "2025-04-05T09:00:00Z", "0 9 5 * *"},
      {"on the 5th of each month", "2025-04-05T00:00:00Z", "0 0 5 * *"},
      {"on the 45th of every month", NULL, "day 45 is out of range 1-31"},
      {"every 30 seconds", "2025-03-05T10:00:30Z", NULL},
      {"every half hour", "2025-03-05T10:30:00Z", NULL},
      {"every 0.5 seconds", NULL, "an interval must be at least 1 second"},
      {"last friday", NULL, "'last ...' points to the past: only future t"},
      {"last week", NULL, "'last ...' points to the past: only future t"},
      {"last month", NULL, "'last ...' points to the past: only future t"},
      {"last year", NULL, "'last ...' points to the past: only future t"},
      {"last night", NULL, "'last ...' points to the past: only future t"},
      {"last march", NULL, "'last ...' points to the past: only future t"},
      {"last day of the month", NULL, "'last day of the month' is a calendar"},
      {"in -2 hours", NULL, "a negative duration is in the past: only fut"},
      {"-2 hours", NULL, "a negative duration is in the past: only fut"},
      {"2 hours ago", NULL, "'... ago' is in the past: only future times "},
      {"every other day", "2025-03-06T00:00:00Z", NULL},
      {"tonight", "2025-03-05T20:00:00Z", NULL},
      {"this morning", NULL, "in the past: resolves to 2025-03-05T09:00:00"},
      {"this evening", "2025-03-05T18:00:00Z", NULL},
      {"this x", NULL, "cannot read 'x' (word 2): the whole phrase m"},
      {"next week", "2025-03-12T10:00:00Z", NULL},
      {"next month", "2025-04-05T10:00:00Z", NULL},
      {"next year", "2026-03-05T10:00:00Z", NULL},
      {"end of the month", "2025-03-31T23:59:00Z", NULL},
      {"end of year", "2025-12-31T23:59:00Z", NULL},
      {"at noon tomorrow", "2025-03-06T12:00:00Z", NULL},
      {"at midnight", "2025-03-06T00:00:00Z", NULL},
      {"tomorrow at 9 utc", "2025-03-06T09:00:00Z", NULL},
      {"tomorrow at 9pm +05:30", "2025-03-06T15:30:00Z", NULL},
      {"at 9 tomorrow utc", "2025-03-06T09:00:00Z", NULL},
      {"at 9 utc tomorrow", "2025-03-06T09:00:00Z", NULL},
      {"at 9 on friday", "2025-03-07T09:00:00Z", NULL},
      {"monday morning", "2025-03-10T09:00:00Z", NULL},
      {"next friday", "2025-03-14T00:00:00Z", NULL},
      {"this friday", "2025-03-07T00:00:00Z", NULL},
      {"on 3/15/2027", "2027-03-15T00:00:00Z", NULL},
      {"march 15, 2027 at 9", "2027-03-15T09:00:00Z", NULL},
      {"15 march 2027", "2027-03-15T00:00:00Z", NULL},
      {"the 15th of march", "2025-03-15T00:00:00Z", NULL},
      {"the 31st", "2025-03-31T00:00:00Z", NULL},
  };
  int64_t now = iso_ms(WED);
  for (size_t i = 0; i < sizeof more / sizeof more[0]; i++) {
    when_result r;
    int rc = when_parse(more[i].phrase, now, NULL, &r);
    if (more[i].due) {
      CHECK(rc == 0 && r.due_at == iso_ms(more[i].due) &&
                (more[i].cron_or_reason
                     ? strcmp(r.cron, more[i].cron_or_reason) == 0
                     : r.kind != WHEN_CRON),
            "'%s': rc %d, cron '%s', %s", more[i].phrase, rc, r.cron, r.reason);
    } else {
      CHECK(rc == -1 && strncmp(r.reason, more[i].cron_or_reason,
                                strlen(more[i].cron_or_reason)) == 0,
            "'%s': rc %d, reason '%s'", more[i].phrase, rc, r.reason);
    }
  }
}

/*
** Regression (crash-da39a3ee5e6b4b0d3255bfef95601890afd80709, libFuzzer's
** name for the empty input): fuzz_when aborted on its first, empty input
** when its zones could not be loaded. The empty phrase at the target's
** two reference instants in each of its zones is a clean rejection, and a
** zone directory without the zone is an error with a message, not a crash.
*/
static void check_fuzz_empty_input(void) {
  static const char *const names[] = {"UTC", "America/New_York",
                                      "Australia/Lord_Howe"};
  static const int64_t nows[] = {1741168800000LL, 1741446000000LL};
  char err[160];
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    const tz_zone *z = NULL;
    CHECK(tzdb_get(zones, names[i], &z, err, sizeof err) == 0, "zone %s",
          names[i]);
    for (size_t k = 0; z && k < sizeof nows / sizeof nows[0]; k++) {
      when_result r;
      CHECK(when_parse("", nows[k], z, &r) == -1 && r.kind == WHEN_NONE &&
                r.confidence == 0.0 && strstr(r.reason, "empty") != NULL &&
                r.matched[0] == 0,
            "empty phrase in %s: '%s'", names[i], r.reason);
    }
  }
  tzdb *none = tzdb_new("/nonexistent/zoneinfo");
  const tz_zone *z = NULL;
  err[0] = 0;
  CHECK(none && tzdb_get(none, "America/New_York", &z, err, sizeof err) != 0 &&
            z == NULL && strstr(err, "America/New_York") != NULL,
        "missing zoneinfo: '%s'", err);
  tzdb_free(none);
}

int main(void) {
  int n_accept = 0, n_reject = 0;
  zones = tzdb_new(NULL);
  if (!zones) return 1;
  run_table(&n_accept, &n_reject);
  check_misc();
  check_more_forms();
  check_fuzz_empty_input();
  printf("when: %d phrase cases (%d accepted, %d rejected)\n",
         n_accept + n_reject, n_accept, n_reject);
  CHECK(n_accept + n_reject >= 200 && n_reject >= 40, "table size");
  tzdb_free(zones);
  return check_report("when");
}
