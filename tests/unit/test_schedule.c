/*
** test_schedule.c -- unit tests of ext/time/schedule.c that the cron and SQL
** tests do not reach directly: the misfire catch-up of a cron schedule
** missed for a long time (it scans SCHED_CRON_SCAN occurrences, then
** jumps to the latest by a backward search: checked here against a
** brute-force walk), and the instant / duration bounds that keep every
** schedule sum inside int64 (found by tests/fuzz/fuzz_sql.c), and the
** boundaries of a schedule on both sides: an occurrence exactly at end_at
** is the last one (inclusive, one ms earlier it is not), a once trigger
** is next only strictly after `after`; the catch-up's max_count (the
** 100 runs of misfire_policy 'all') exactly reached and one past it, for
** an interval and a cron schedule; a cron start_at in the future bounds
** sched_next as well as sched_first, an occurrence exactly at it included.
** Then the small API around them, every branch (check_api): type names,
** an invalid type, a cron expression that never matches, a catch-up of a
** once schedule or from a due time after now, instants as integers
** (signs, lengths) and ISO text (offsets, bad years), canonical text.
** rrule schedules (check_rrule) and holidays (check_calendar: each
** calendar_policy, business days, an .ics's days) too.
*/
#include "time/civil.h"
#include "time/cron.h"
#include "time/holiday_ics.h"
#include "time/rrule.h"
#include "time/schedule.h"
#include "time/tz.h"
#include "time/tzdb.h"

#include <math.h>
#include <stdlib.h>

#include "check.h"

#include "zones.h"

/* The catch-up from due to now against a plain walk of every occurrence. */
static void catch_up_vs_walk(const char *expr, const char *tz, int64_t due,
                             int64_t now, int want_more) {
  sched_spec s;
  memset(&s, 0, sizeof s);
  char err[CRON_ERR_MAX];
  if (cron_parse(expr, &s.cron, err, sizeof err)) {
    CHECK(0, "'%s' should parse: %s", expr, err);
    return;
  }
  s.type = SCHED_CRON;
  s.zone = zone(tz);
  s.start_at = s.end_at = SCHED_NONE;
  int64_t count = 1, latest = due, before = 0, nx;
  while (sched_next(&s, latest, &nx) && nx <= now) {
    before = latest;
    latest = nx;
    count++;
  }
  sched_catchup cu;
  sched_catch_up(&s, due, now, 1000000, &cu);
  CHECK_EQ_I64(cu.latest, latest, expr);
  if (count >= 2) CHECK_EQ_I64(cu.before_latest, before, expr);
  CHECK(cu.more == want_more, "'%s' %s: more %d, want %d", expr, tz, cu.more,
        want_more);
  if (!want_more) CHECK_EQ_I64(cu.count, count, expr);
  if (want_more)
    CHECK(cu.count > 1000 && cu.count <= count,
          "'%s': count %lld is not a lower bound above the scan", expr,
          (long long)cu.count);
  CHECK(cu.has_next && cu.next_after > now, "'%s': next after now", expr);
}

static void check_catch_up(void) {
  const int64_t day = 86400000;
  const int64_t now =
      1772928000000 + 37 * 60000 + 12345; /* 2026-03-08 00:37:12.345Z */
  /* few missed: exact count, no jump */
  catch_up_vs_walk("*/5 * * * *", "UTC", now - 2 * 3600000, now, 0);
  /* many missed: dense, bursty (hour 9 only, seconds), DST zones, L/W/# */
  catch_up_vs_walk("* * * * *", "UTC", now - 30 * day, now, 1);
  catch_up_vs_walk("* * 9 * * *", "Europe/Berlin", now - 3 * day, now, 1);
  catch_up_vs_walk("*/10 * 2 * * *", "America/New_York", 1772780000000,
                   now + 2 * day, 1);
  catch_up_vs_walk("0 * * * *", "Australia/Lord_Howe", now - 200 * day, now, 1);
  catch_up_vs_walk("0 0 L * *", "UTC", now - 200 * 365 * day, now, 1);
  catch_up_vs_walk("30 2 LW * 5#2", "America/New_York", now - 2000 * 30 * day,
                   now, 1);
}

static void check_bounds(void) {
  int64_t v = 0;
  CHECK(sched_instant_ok(SCHED_MS_MIN) && sched_instant_ok(SCHED_MS_MAX),
        "range ends");
  CHECK(!sched_instant_ok(SCHED_MS_MAX + 1) &&
            !sched_instant_ok(SCHED_MS_MIN - 1),
        "outside");
  CHECK(!sched_instant_ok(INT64_MAX) && !sched_instant_ok(INT64_MIN),
        "int64 ends");
  CHECK(sched_ms_from_double(1772928000000.0, &v) && v == 1772928000000,
        "whole double");
  CHECK(!sched_ms_from_double(1e300, &v), "huge double");
  CHECK(!sched_ms_from_double(-1e300, &v), "huge negative double");
  CHECK(!sched_ms_from_double(0.5, &v), "fraction");
  CHECK(!sched_ms_from_double(NAN, &v), "NaN");
  CHECK(!sched_ms_from_double(9223372036854775807.0, &v), "2^63");
  /* the largest sums the bounds allow stay inside int64 */
  CHECK(SCHED_MS_MAX + 2 * SCHED_SPAN_MAX < INT64_MAX / 4, "sum headroom");
  char err[SCHED_ERR_MAX];
  CHECK(sched_parse_instant("999999999999999", tz_utc(), &v, err, sizeof err) !=
                0 &&
            strstr(err, "outside the years 1-9999"),
        "15-digit ms out of range: %s", err);
  CHECK(sched_parse_instant("253402300799999", tz_utc(), &v, err, sizeof err) ==
                0 &&
            v == SCHED_MS_MAX,
        "last ms of 9999");
  /* An occurrence after 9999-12-31 is none: the trigger completes. */
  sched_spec s;
  memset(&s, 0, sizeof s);
  s.type = SCHED_INTERVAL;
  s.zone = tz_utc();
  s.start_at = SCHED_MS_MAX - 86400000 + 1; /* 9999-12-31T00:00:00Z */
  s.end_at = SCHED_NONE;
  s.interval_ms = 86400000;
  CHECK(sched_first(&s, s.start_at - 5, &v) && v == s.start_at, "last day");
  CHECK(!sched_next(&s, s.start_at, &v), "no day after 9999-12-31");
  CHECK(!sched_first(&s, s.start_at + 1, &v), "first: none after 9999");
  s.start_at = SCHED_MS_MAX + 1 - 3600000; /* 23:00 on the last day */
  s.interval_ms = 3600000;
  CHECK(sched_next(&s, s.start_at - 1, &v) && v == s.start_at, "23:00");
  CHECK(!sched_next(&s, s.start_at, &v), "no 24:00");
  s.start_at = SCHED_NONE;
  s.created_at = SCHED_MS_MAX - 1000; /* anchor = created_at + interval */
  CHECK(!sched_first(&s, s.created_at, &v), "anchor after 9999");
  sched_catchup c;
  s.created_at = SCHED_MS_MAX + 1 - 2 * 3600000; /* due at 23:00 */
  sched_catch_up(&s, s.created_at + 3600000, SCHED_MS_MAX, 100, &c);
  CHECK(c.count == 1 && !c.has_next, "catch-up at the end: %lld, next %d",
        (long long)c.count, c.has_next);
}

/* end_at is inclusive: an occurrence at end_at runs, one after does not;
** the catch-up stops at end_at (not at now) when end_at comes first. */
static void check_end_at(void) {
  const int64_t a = 1767225600000, iv = 60000; /* 2026-01-01T00:00:00Z */
  int64_t v = 0;
  sched_spec s;
  memset(&s, 0, sizeof s);
  s.type = SCHED_INTERVAL;
  s.zone = tz_utc();
  s.interval_ms = iv;
  s.start_at = a;
  s.end_at = a + 2 * iv; /* exactly the third occurrence */
  CHECK(sched_next(&s, a + iv, &v) && v == a + 2 * iv,
        "interval: the occurrence at end_at is kept");
  CHECK(!sched_next(&s, a + 2 * iv, &v), "interval: none after end_at");
  sched_catchup c;
  sched_catch_up(&s, a, a + 10 * iv, 100, &c);
  CHECK(c.count == 3 && c.latest == a + 2 * iv && !c.has_next,
        "catch-up up to end_at inclusive: count %lld, latest %lld",
        (long long)c.count, (long long)c.latest);
  s.end_at = a + 2 * iv - 1; /* one ms before it */
  CHECK(!sched_next(&s, a + iv, &v), "interval: end_at 1 ms before: none");
  sched_catch_up(&s, a, a + 10 * iv, 100, &c);
  CHECK(c.count == 2 && c.latest == a + iv, "catch-up: end_at - 1 ms: %lld",
        (long long)c.count);
  s.end_at = a; /* the anchor itself */
  CHECK(sched_first(&s, a - 5, &v) && v == a, "first at end_at");
  s.end_at = a - 1;
  CHECK(!sched_first(&s, a - 5, &v), "first after end_at: none");
  /* end_at after now: the catch-up counts up to now */
  s.end_at = a + 100 * iv;
  sched_catch_up(&s, a, a + 3 * iv + 5, 100, &c);
  CHECK(c.count == 4 && c.latest == a + 3 * iv && c.has_next &&
            c.next_after == a + 4 * iv,
        "end_at later than now: count %lld", (long long)c.count);

  char err[CRON_ERR_MAX];
  memset(&s, 0, sizeof s);
  s.type = SCHED_CRON;
  s.zone = tz_utc();
  s.start_at = SCHED_NONE;
  CHECK(cron_parse("0 * * * *", &s.cron, err, sizeof err) == 0, "%s", err);
  s.end_at = a + 3600000; /* 01:00, an occurrence */
  CHECK(sched_next(&s, a, &v) && v == a + 3600000,
        "cron: the occurrence at end_at is kept");
  s.end_at = a + 3600000 - 1;
  CHECK(!sched_next(&s, a, &v), "cron: end_at 1 ms before it: none");

  memset(&s, 0, sizeof s);
  s.type = SCHED_ONCE;
  s.zone = tz_utc();
  s.start_at = s.end_at = SCHED_NONE;
  s.scheduled_at = a;
  CHECK(sched_next(&s, a - 1, &v) && v == a, "once: next 1 ms before it");
  CHECK(!sched_next(&s, a, &v), "once: not next at its own instant");
  s.end_at = a;
  CHECK(sched_first(&s, a + 5, &v) && v == a, "once: at end_at is kept");
  s.end_at = a - 1;
  CHECK(!sched_first(&s, a + 5, &v), "once: after end_at: none");
}

/* Due at a, one occurrence a minute: 100 missed (the max_count) are all
** counted; 101 are capped at 100, with `more`. */
static void catch_up_cap(const sched_spec *s, int64_t a, const char *what) {
  const int64_t iv = 60000;
  sched_catchup c;
  for (int64_t missed = 100; missed <= 101; missed++) {
    sched_catch_up(s, a, a + (missed - 1) * iv, 100, &c);
    CHECK(c.count == 100 && c.more == (missed > 100) &&
              c.latest == a + (missed - 1) * iv,
          "%s: %lld missed: count %lld more %d", what, (long long)missed,
          (long long)c.count, c.more);
  }
}

static void check_catch_up_cap(void) {
  const int64_t a = 1767225600000; /* 2026-01-01T00:00Z */
  sched_spec s;
  char err[CRON_ERR_MAX];
  memset(&s, 0, sizeof s);
  s.type = SCHED_INTERVAL;
  s.zone = tz_utc();
  s.start_at = s.end_at = SCHED_NONE;
  s.created_at = a - 60000;
  s.interval_ms = 60000;
  catch_up_cap(&s, a, "interval");
  s.type = SCHED_CRON;
  CHECK(cron_parse("* * * * *", &s.cron, err, sizeof err) == 0, "%s", err);
  catch_up_cap(&s, a, "cron");
}

/* A cron schedule whose start_at is ahead: nothing before it, from
** sched_first (creation) or sched_next (resume, the tick). */
static void check_cron_start_at(void) {
  const int64_t a = 1767225600000, h = 3600000; /* 2026-01-01T00:00Z */
  sched_spec s;
  int64_t v = 0;
  char err[CRON_ERR_MAX];
  memset(&s, 0, sizeof s);
  s.type = SCHED_CRON;
  s.zone = tz_utc();
  s.end_at = SCHED_NONE;
  CHECK(cron_parse("*/15 * * * *", &s.cron, err, sizeof err) == 0, "%s", err);
  s.start_at = a + h; /* 01:00, an occurrence: kept */
  CHECK(sched_next(&s, a, &v) && v == a + h, "next: at start_at: %lld",
        (long long)(v - a));
  CHECK(sched_first(&s, a, &v) && v == a + h, "first: at start_at: %lld",
        (long long)(v - a));
  s.start_at = a + h + 1; /* 1 ms after it: the next quarter */
  CHECK(sched_next(&s, a, &v) && v == a + h + 900000,
        "next: after start_at: %lld", (long long)(v - a));
  CHECK(sched_first(&s, a, &v) && v == a + h + 900000,
        "first: after start_at: %lld", (long long)(v - a));
  s.start_at = a - h; /* in the past: from now on */
  CHECK(sched_first(&s, a + 1, &v) && v == a + 900000,
        "first: start_at past: %lld", (long long)(v - a));
}

/* A cron catch-up past the scan (1000 steps) jumps to the latest, which
** end_at bounds when it comes before now; with exactly one occurrence
** after the scan, the one before the latest is where the scan stopped. */
static void check_catch_up_jump(void) {
  const int64_t a = 1767225600000, sec = 1000; /* 2026-01-01T00:00Z */
  sched_spec s;
  sched_catchup c;
  char err[CRON_ERR_MAX];
  memset(&s, 0, sizeof s);
  s.type = SCHED_CRON;
  s.zone = tz_utc();
  s.start_at = s.end_at = SCHED_NONE;
  CHECK(cron_parse("* * * * * *", &s.cron, err, sizeof err) == 0, "%s", err);
  sched_catch_up(&s, a, a + 1001 * sec, 1000000, &c);
  CHECK(c.more && c.latest == a + 1001 * sec &&
            c.before_latest == a + 1000 * sec,
        "1001 after due: latest %lld before %lld", (long long)(c.latest - a),
        (long long)(c.before_latest - a));
  s.end_at = a + 1500 * sec;
  sched_catch_up(&s, a, a + 5000 * sec, 1000000, &c);
  CHECK(c.more && c.latest == a + 1500 * sec &&
            c.before_latest == a + 1499 * sec && !c.has_next,
        "end_at before now: latest %lld", (long long)(c.latest - a));
  s.end_at = a + 9000 * sec;
  sched_catch_up(&s, a, a + 5000 * sec, 1000000, &c);
  CHECK(c.more && c.latest == a + 5000 * sec && c.has_next &&
            c.next_after == a + 5001 * sec,
        "end_at after now: latest %lld", (long long)(c.latest - a));
}

/* A trigger created (or rescheduled) exactly on an occurrence: its first
** occurrence is strictly after, as sched_next(now) says, for a cron and
** for an interval whose past anchor's grid meets now; an interval's
** anchor (start_at) at now is the one exception: it names that instant. */
static void check_first_after_now(void) {
  const int64_t a = 1767258000000, d = 86400000; /* 2026-01-01T09:00Z */
  sched_spec s;
  int64_t v = 0, n = 0;
  char err[CRON_ERR_MAX];
  memset(&s, 0, sizeof s);
  s.type = SCHED_CRON;
  s.zone = tz_utc();
  s.start_at = s.end_at = SCHED_NONE;
  CHECK(cron_parse("0 9 * * *", &s.cron, err, sizeof err) == 0, "%s", err);
  CHECK(sched_first(&s, a, &v) && sched_next(&s, a, &n) && v == a + d && n == v,
        "cron created at 09:00: first %lld", (long long)(v - a));
  CHECK(sched_first(&s, a - 1, &v) && v == a, "cron created 1 ms before");
  s.start_at = a; /* start_at at the creation instant: still after it */
  CHECK(sched_first(&s, a, &v) && v == a + d, "cron start_at = now");
  s.type = SCHED_INTERVAL;
  s.interval_ms = 60000;
  s.start_at = a - 120000; /* the grid meets now */
  CHECK(sched_first(&s, a, &v) && sched_next(&s, a, &n) && v == a + 60000 &&
            n == v,
        "interval grid at now: first %lld", (long long)(v - a));
  s.start_at = a; /* the anchor is now: an occurrence the trigger names */
  CHECK(sched_first(&s, a, &v) && v == a, "interval anchor = now");
  s.start_at = a + 1;
  CHECK(sched_first(&s, a, &v) && v == a + 1, "interval anchor after now");
}

static void check_api(void) {
  const int64_t a = 1767225600000; /* 2026-01-01T00:00Z */
  sched_spec s;
  sched_catchup c;
  int64_t v = 0;
  char err[SCHED_ERR_MAX], buf[64];
  static const char *const names[] = {"invalid", "interval", "once", "cron"};
  for (int t = 0; t < 4; t++) {
    CHECK_STR(sched_type_name((sched_type)t), names[t], "type name");
    CHECK(sched_type_parse(names[t]) == (sched_type)(t ? t : SCHED_INVALID),
          "parse %s", names[t]);
  }
  CHECK(sched_type_parse(NULL) == SCHED_INVALID, "parse NULL");
  CHECK_STR(sched_type_name((sched_type)9), "invalid", "type 9");
  /* an invalid type has no occurrence and no canonical text */
  memset(&s, 0, sizeof s);
  s.zone = tz_utc();
  s.start_at = s.end_at = SCHED_NONE;
  CHECK(!sched_next(&s, a, &v) && !sched_first(&s, a, &v), "invalid type");
  CHECK(sched_canonical(&s, buf, sizeof buf) == -1, "invalid: canonical");
  /* a once schedule: catch-up counts the one occurrence */
  s.type = SCHED_ONCE;
  s.scheduled_at = a;
  sched_catch_up(&s, a, a + 5, 100, &c);
  CHECK(c.count == 1 && c.latest == a && !c.has_next, "once catch-up");
  CHECK(sched_canonical(&s, buf, sizeof buf) == 13 &&
            strcmp(buf, "1767225600000") == 0,
        "once canonical: %s", buf);
  CHECK(sched_canonical(&s, buf, 13) == -1, "canonical: no room for NUL");
  /* an interval: a due time after now still counts itself */
  s.type = SCHED_INTERVAL;
  s.interval_ms = 60000;
  s.created_at = a - 60000;
  sched_catch_up(&s, a, a - 1, 100, &c);
  CHECK(c.count == 1 && c.latest == a, "interval: due after now");
  CHECK(sched_canonical(&s, buf, sizeof buf) == 5 && !strcmp(buf, "60000"),
        "interval canonical: %s", buf);
  /* a cron expression that never matches (30 February) */
  s.type = SCHED_CRON;
  CHECK(cron_parse("0 0 30 2 *", &s.cron, buf, sizeof buf) == 0, "%s", buf);
  CHECK(!sched_first(&s, a, &v) && !sched_next(&s, a, &v), "no 30 February");
  s.start_at = a + 86400000;
  CHECK(!sched_first(&s, a, &v), "no 30 February after start_at");
  sched_catch_up(&s, a, a + 86400000, 100, &c);
  CHECK(c.count == 1 && !c.has_next && !c.more, "catch-up, none next");
  CHECK(sched_canonical(&s, buf, sizeof buf) > 0, "cron canonical");
  /* instants: integers with a sign, up to 15 digits; else ISO text */
  static const struct {
    const char *text;
    int ok;
    int64_t want;
  } inst[] = {
      {"1767225600000", 1, 1767225600000},
      {"+1767225600000", 1, 1767225600000},
      {"-1000", 1, -1000},
      {"-", 0, 0},
      {"+", 0, 0},
      {"", 0, 0},
      {"12a4", 0, 0},
      {"1767225600000000", 0, 0}, /* 16 digits: read as ISO, refused */
      {"2026-01-01T00:00:00Z", 1, 1767225600000},
      {"2026-01-01T01:00:00+01:00", 1, 1767225600000},
      {"2026-01-01T00:00:00.250", 1, 1767225600250},
      {"0000-01-01T00:00:00Z", 0, 0},
      {"2026-13-01T00:00:00Z", 0, 0},
  };
  for (size_t i = 0; i < sizeof inst / sizeof inst[0]; i++) {
    int rc = sched_parse_instant(inst[i].text, tz_utc(), &v, err, sizeof err);
    CHECK(inst[i].ok ? rc == 0 && v == inst[i].want : rc != 0 && *err,
          "instant '%s': rc %d, %lld, %s", inst[i].text, rc, (long long)v,
          rc ? err : "");
  }
}

/* An rrule schedule (docs/calendar.md): DTSTART from start_at, else
** created_at (whole seconds, wall clock in the zone); sched_first the
** first occurrence strictly after now (DTSTART included when it is one
** and not past); start_at bounding sched_next; the catch-up stepping the
** occurrences; the end of the set is none; the canonical text with
** DTSTART only when start_at is given. */
static void check_rrule(void) {
  const int64_t a = 1767225600000, h = 3600000, d = 24 * h; /* 2026-01-01 */
  sched_spec s;
  char err[RRULE_ERR_MAX], canon[SCHED_CANON_MAX];
  int64_t v = 0;
  sched_spec_clear(&s);
  CHECK(sched_type_parse("rrule") == SCHED_RRULE, "type rrule");
  CHECK(strcmp(sched_type_name(SCHED_RRULE), "rrule") == 0, "name rrule");
  CHECK(rrule_compile("FREQ=DAILY;COUNT=3;BYHOUR=9,18", &s.rrule, err,
                      sizeof err) == 0,
        "%s", err);
  s.type = SCHED_RRULE;
  s.zone = zone("Europe/Berlin"); /* UTC+1 in January */
  s.start_at = s.end_at = SCHED_NONE;
  s.created_at = a + 1500; /* 01:00:01.500 local: DTSTART 01:00:01 */
  s.dtstart = sched_rrule_dtstart(&s);
  CHECK_EQ_I64(s.dtstart, a / 1000 + 3601, "dtstart from created_at");
  /* 09:00:01 local = 08:00:01Z, 18:00:01, then the 2nd's 09:00:01 */
  CHECK(sched_first(&s, s.created_at, &v) && v == a + 8 * h + 1000,
        "first: %lld", (long long)(v - a));
  CHECK(sched_next(&s, v, &v) && v == a + 17 * h + 1000, "second: %lld",
        (long long)(v - a));
  CHECK(sched_next(&s, v, &v) && v == a + d + 8 * h + 1000, "third: %lld",
        (long long)(v - a));
  CHECK(!sched_next(&s, v, &v), "COUNT=3 ends the set");
  sched_catchup c;
  sched_catch_up(&s, a + 8 * h + 1000, a + 2 * d, 100, &c);
  CHECK(c.count == 3 && c.latest == a + d + 8 * h + 1000 && !c.has_next,
        "catch-up: %lld occurrences, latest %lld", (long long)c.count,
        (long long)(c.latest - a));
  CHECK(sched_canonical(&s, canon, sizeof canon) > 0 &&
            strcmp(canon, "FREQ=DAILY;COUNT=3;BYHOUR=9,18") == 0,
        "canonical '%s'", canon);
  /* start_at is DTSTART, and an occurrence when it matches the rule */
  CHECK(rrule_compile("FREQ=DAILY", &s.rrule, err, sizeof err) == 0, "%s", err);
  s.start_at = a + 10 * d + 9 * h; /* 2026-01-11T10:00 local */
  s.dtstart = sched_rrule_dtstart(&s);
  CHECK(sched_first(&s, a, &v) && v == s.start_at, "first at start_at: %lld",
        (long long)(v - a));
  CHECK(sched_next(&s, a, &v) && v == s.start_at, "next from before start_at");
  CHECK(sched_first(&s, s.start_at, &v) && v == s.start_at + d,
        "first strictly after now");
  CHECK(sched_canonical(&s, canon, sizeof canon) > 0 &&
            strcmp(canon, "FREQ=DAILY\nDTSTART:20260111T100000") == 0,
        "canonical with DTSTART '%s'", canon);
  CHECK(sched_canonical(&s, canon, 12) == -1, "canonical: buffer too small");
  s.end_at = s.start_at + d; /* end_at inclusive: two occurrences */
  CHECK(sched_next(&s, s.start_at, &v) && v == s.end_at, "end_at kept");
  CHECK(!sched_next(&s, s.end_at, &v), "end_at ends it");
}

/* Holidays (schedule_calendar.c): a daily 09:00 UTC cron over a calendar
** holding Friday 2026-01-02 and Monday 2026-01-05; each policy, business
** days MO..FR; an .ics's days (holiday_ics.c) and its errors. */
static int ics_days[16], ics_n;
static int take_day(void *arg, int64_t day, const char *name) {
  (void)arg;
  (void)name;
  if (ics_n < 16) ics_days[ics_n++] = (int)day;
  return 0;
}

static void check_calendar(void) {
  const int64_t d0 = 20454, h9 = 9 * 3600000LL; /* 2026-01-01, Thursday */
  static sched_spec s;
  char err[ICS_ERR_MAX];
  int64_t v = 0;
  sched_spec_clear(&s);
  CHECK(cron_parse("0 9 * * *", &s.cron, err, sizeof err) == 0, "%s", err);
  s.type = SCHED_CRON;
  s.zone = tz_utc();
  s.start_at = s.end_at = SCHED_NONE;
  s.business_days = SCHED_BUSINESS_DEFAULT;
  s.ncal = 2;
  s.cal_days[0] = (int32_t)(d0 + 1);
  s.cal_days[1] = (int32_t)(d0 + 4);
  static const struct {
    int policy;
    int64_t after_day, want_day;
  } cases[] = {
      {SCHED_CAL_SKIP, 0, 2},     /* Fri skipped: Sat */
      {SCHED_CAL_SKIP, 3, 5},     /* Mon skipped: Tue */
      {SCHED_CAL_PREVIOUS, 0, 2}, /* Fri -> Thu 09:00 (== Thu's own) */
      {SCHED_CAL_PREVIOUS, 2, 3}, /* Sun, then Mon -> Fri, a holiday: Thu */
      {SCHED_CAL_NEXT, 0, 2},     /* Fri -> Mon, a holiday -> Tue; Sat first */
      {SCHED_CAL_NEXT, 4, 5},     /* Tue 09:00: Fri's, Mon's and its own */
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    s.cal_policy = cases[i].policy;
    int64_t after = (d0 + cases[i].after_day) * 86400000 + h9;
    CHECK(sched_next(&s, after, &v) &&
              v == (d0 + cases[i].want_day) * 86400000 + h9,
          "policy %d after day %lld: day %lld", cases[i].policy,
          (long long)cases[i].after_day,
          (long long)(civil_floor_div(v, 86400000) - d0));
  }
  uint8_t bits;
  CHECK(sched_business_days_parse(" mo,Tu , SU", &bits) == 0 && bits == 0x43,
        "business days");
  CHECK(sched_business_days_parse("MO,MO", &bits) != 0, "a day twice");
  CHECK(sched_business_days_parse("", &bits) != 0, "none");
  CHECK(sched_cal_policy_parse("next_business_day") == SCHED_CAL_NEXT &&
            !sched_cal_policy_parse("never") &&
            strcmp(sched_cal_policy_name(SCHED_CAL_PREVIOUS),
                   "previous_business_day") == 0,
        "policy names");
  const char *ics = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:"
                    "20260102\r\nDTEND;VALUE=DATE:20260104\r\nSUMMARY:two "
                    "\r\n days\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nDTSTART:"
                    "20000101\r\nRRULE:FREQ=YEARLY\r\nEND:VEVENT\r\n"
                    "END:VCALENDAR\r\n";
  ics_n = 0;
  CHECK(ics_holidays(ics, strlen(ics), d0, d0 + 730, take_day, NULL, err,
                     sizeof err) == 0 &&
            ics_n == 4 && ics_days[0] == d0 + 1 && ics_days[1] == d0 + 2 &&
            ics_days[2] == d0 && ics_days[3] == d0 + 365,
        "ics days: %d %s", ics_n, err);
  CHECK(ics_holidays("BEGIN:VCALENDAR\n", 16, d0, d0 + 1, take_day, NULL, err,
                     sizeof err) == -1 &&
            strstr(err, "no END:VCALENDAR"),
        "ics cut short: %s", err);
}

int main(void) {
  db = tzdb_new(NULL);
  check_rrule();
  check_calendar();
  check_api();
  check_catch_up_cap();
  check_cron_start_at();
  check_first_after_now();
  check_catch_up_jump();
  check_catch_up();
  check_bounds();
  check_end_at();
  tzdb_free(db);
  return check_report("schedule");
}
