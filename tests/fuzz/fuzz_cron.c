/*
** fuzz_cron.c -- libFuzzer target for ext/time/cron.c.
**
** Input: expression text (bounded, NUL-terminated copy). On a successful
** parse: cron_next() is iterated a few times in UTC and in a DST zone
** (America/New_York, from the system zoneinfo, loaded once), asserting
** every result is strictly after its start, and cron_canonical() must
** produce text that parses back to the same canonical text; describe_cron()
** must fit DESCRIBE_MAX and read the same for the canonical spelling.
** Build and run (from the repo root):
**   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iext \
**     tests/fuzz/fuzz_cron.c ext/time/cron.c ext/time/tz.c ext/time/tzdb.c ext/time/tzdb_names.c \
**     ext/time/civil.c ext/time/describe.c ext/time/schedule.c \
**     -o build/fuzz_cron && ./build/fuzz_cron -max_total_time=60 \
**     tests/fuzz/corpus/cron
*/
#include "time/cron.h"
#include "time/describe.h"
#include "time/tzdb.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUT 512

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The one static of the target: zones loaded once per process. */
static const tz_zone *fuzz_zone(void) {
  static tzdb *db;
  static const tz_zone *z;
  if (!db) {
    char err[200];
    db = tzdb_new(NULL);
    if (!db || tzdb_get(db, "America/New_York", &z, err, sizeof err)) z = NULL;
  }
  return z ? z : tz_utc();
}

static void iterate(const cron_expr *c, const tz_zone *z, int64_t t) {
  int i;
  for (i = 0; i < 4; i++) {
    int64_t out;
    if (!cron_next(c, z, t, &out)) return;
    if (out <= t) abort();
    t = out;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  char text[MAX_INPUT + 1], err[CRON_ERR_MAX];
  char canon[CRON_CANON_MAX], again[CRON_CANON_MAX];
  cron_expr c, c2;
  int64_t start = 1700000000000LL;
  size_t n = size < MAX_INPUT ? size : MAX_INPUT;
  memcpy(text, data, n);
  text[n] = 0;
  if (cron_parse(text, &c, err, sizeof err) != 0) {
    if (strlen(err) >= sizeof err || strncmp(err, "cron", 4) != 0) abort();
    return 0;
  }
  /* A start derived from the input, within years 1970..2100. */
  if (size >= 4)
    start += (int64_t)((data[0] << 16) | (data[1] << 8) | data[2]) * 60000LL *
             (data[3] % 8);
  iterate(&c, tz_utc(), start);
  iterate(&c, fuzz_zone(), start);
  if (cron_canonical(&c, canon, sizeof canon) < 0) abort();
  if (cron_parse(canon, &c2, err, sizeof err) != 0) abort();
  if (cron_canonical(&c2, again, sizeof again) < 0 || strcmp(canon, again) != 0)
    abort();
  /* its English always fits DESCRIBE_MAX, and reads the same from the
  ** canonical spelling (it is made from the compiled form) */
  static char words[DESCRIBE_MAX], words2[DESCRIBE_MAX];
  int len = describe_cron(&c, words, sizeof words);
  if (len <= 0 || (size_t)len != strlen(words)) abort();
  if (describe_cron(&c2, words2, sizeof words2) != len || strcmp(words, words2))
    abort();
  return 0;
}
