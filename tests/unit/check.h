/*
** check.h -- the tiny assertion kit shared by the C unit tests.
**
** Each test program includes this once, calls CHECK / CHECK_EQ_I64 /
** CHECK_STR, and ends main with `return check_report("name");`, which
** prints "name: N passed, M failed" (summed by tests/run_all.sh) and
** returns non-zero when anything failed.
*/
#ifndef TRIGGERS_CHECK_H
#define TRIGGERS_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

static int check_passed, check_failed;

#define CHECK(cond, ...)                                   \
  do {                                                     \
    if (cond) {                                            \
      check_passed++;                                      \
    } else {                                               \
      check_failed++;                                      \
      fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__); \
      fprintf(stderr, __VA_ARGS__);                        \
      fputc('\n', stderr);                                 \
    }                                                      \
  } while (0)

#define CHECK_EQ_I64(got, want, what)                                      \
  do {                                                                     \
    int64_t g_ = (int64_t)(got), w_ = (int64_t)(want);                     \
    CHECK(g_ == w_, "%s: got %" PRId64 ", want %" PRId64, (what), g_, w_); \
  } while (0)

#define CHECK_STR(got, want, what)                                      \
  do {                                                                  \
    const char *g_ = (got), *w_ = (want);                               \
    CHECK((g_ && w_ && strcmp(g_, w_) == 0), "%s: got '%s', want '%s'", \
          (what), g_ ? g_ : "(null)", w_ ? w_ : "(null)");              \
  } while (0)

static int check_report(const char *name) {
  printf("%s: %d passed, %d failed\n", name, check_passed, check_failed);
  return check_failed ? 1 : 0;
}

#endif
