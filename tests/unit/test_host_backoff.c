/*
** test_host_backoff.c -- unit tests of host/core/backoff.c, the pacing of a
** failure that repeats (linked alone): the wait doubles from the first
** delay to the cap and starts over after a success; a failure is logged
** the first time, again when its message changes, then once per
** BACKOFF_LOG_MS with the count of tries not logged meanwhile; a success
** tells how many tries failed before it.
**   make build/unit/test_host_backoff && build/unit/test_host_backoff
*/
#include "check.h"
#include "core/backoff.h"

static void waits_double_to_the_cap(void) {
  backoff b = {0};
  int64_t want[] = {1000, 2000, 4000, 5000, 5000};
  for (int i = 0; i < 5; i++) {
    backoff_step s = backoff_failed(&b, "disk full", i * 10, 1000, 5000);
    CHECK_EQ_I64(s.wait_ms, want[i], "wait");
  }
  CHECK_EQ_I64(backoff_ok(&b), 5, "failures before the success");
  CHECK_EQ_I64(backoff_ok(&b), 0, "a second success: nothing failed");
  CHECK_EQ_I64(backoff_failed(&b, "disk full", 0, 1000, 5000).wait_ms, 1000,
               "after a success the wait starts over");
  backoff c = {0};
  CHECK_EQ_I64(backoff_failed(&c, "x", 0, 300, 200).wait_ms, 200,
               "a first delay above the cap: the cap");
  CHECK_EQ_I64(backoff_failed(&c, "x", 0, 0, 0).wait_ms, 1, "never 0");
}

static void logged_once_per_interval(void) {
  backoff b = {0};
  int64_t t = 5000;
  backoff_step s = backoff_failed(&b, "disk full", t, 1000, 5000);
  CHECK(s.log && s.unlogged == 0, "the first failure is logged");
  int logged = 0;
  for (int i = 1; i < 12; i++) { /* one a second: none logged */
    s = backoff_failed(&b, "disk full", t + i * 1000, 1000, 5000);
    logged += s.log;
  }
  CHECK_EQ_I64(logged, 0, "the same failure within the interval");
  s = backoff_failed(&b, "read-only", t + 12000, 1000, 5000);
  CHECK(s.log && s.unlogged == 11, "another message: logged, 11 unlogged");
  s = backoff_failed(&b, "read-only", t + 13000, 1000, 5000);
  CHECK(!s.log, "the new message again: not logged");
  s = backoff_failed(&b, "read-only", t + 12000 + BACKOFF_LOG_MS, 1000, 5000);
  CHECK(s.log && s.unlogged == 1, "an interval later: logged, 1 unlogged");
  CHECK_EQ_I64(backoff_ok(&b), 15, "failures in a row");
  s = backoff_failed(&b, "read-only", t + 12001 + BACKOFF_LOG_MS, 1000, 5000);
  CHECK(s.log && s.unlogged == 0, "after a success: logged again");
}

int main(void) {
  waits_double_to_the_cap();
  logged_once_per_interval();
  return check_report("test_host_backoff");
}
