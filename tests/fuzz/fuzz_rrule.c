/*
** fuzz_rrule.c -- libFuzzer target for ext/time/rrule*.c.
**
** Input: the first 4 bytes choose DTSTART and the query instant, the rest
** is rule text (bounded, NUL-terminated copy). A refused text must have a
** message that starts with "rrule" and fits. An accepted one: rrule_next
** is iterated a few times in UTC and in a DST zone (America/New_York, from
** the system zoneinfo, loaded once), every result strictly after its
** start; rrule_check agrees with the first rrule_next; the canonical text
** compiles back, prints itself again and gives the same first occurrence.
** Every call is bounded (RRULE_BUDGET): a slow input is a bug here too.
** Build and run (from the repo root): make fuzz, or
**   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iext \
**     tests/fuzz/fuzz_rrule.c ext/time/rrule_*.c ext/time/tz.c \
**     ext/time/tzdb.c ext/time/tzdb_names.c ext/time/civil.c \
**     ext/text/utf8.c -o build/fuzz_rrule && ./build/fuzz_rrule \
**     -max_total_time=60 tests/fuzz/corpus/rrule
*/
#include "time/civil.h"
#include "time/rrule.h"
#include "time/tzdb.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAX_INPUT 1024

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The one static of the target: the zone, loaded once per process. */
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

static void iterate(const rrule_set *s, int64_t dtstart, const tz_zone *z,
                    int64_t t) {
  char err[RRULE_ERR_MAX];
  int64_t out, first;
  int i, any = rrule_next(s, dtstart, z, -62135596801000LL, &first) == 1;
  if (!s->tzid[0] && (rrule_check(s, dtstart, z, err, sizeof err) == 0) != any)
    abort();
  for (i = 0; i < 4; i++) {
    if (rrule_next(s, dtstart, z, t, &out) != 1) return;
    if (out <= t || out % 1000 != 0) abort();
    t = out;
  }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static rrule_set s, s2;
  static char canon[RRULE_CANON_MAX], again[RRULE_CANON_MAX];
  char text[MAX_INPUT + 1], err[RRULE_ERR_MAX];
  int64_t dtstart, after, a, b;
  size_t n;
  if (size < 4) return 0;
  /* DTSTART within 1900..2100, the query up to ~25 years after it */
  dtstart = -2208988800LL + (int64_t)((data[0] << 8) | data[1]) * 96000LL;
  after = (dtstart - 1) * 1000 +
          (int64_t)((data[2] << 8) | data[3]) * 12000000LL * (data[3] % 3);
  data += 4;
  size -= 4;
  n = size < MAX_INPUT ? size : MAX_INPUT;
  memcpy(text, data, n);
  text[n] = 0;
  if (rrule_compile(text, &s, err, sizeof err) != 0) {
    if (strlen(err) >= sizeof err || strncmp(err, "rrule", 5) != 0) abort();
    return 0;
  }
  iterate(&s, dtstart, tz_utc(), after);
  iterate(&s, dtstart, fuzz_zone(), after);
  if (rrule_canonical(&s, canon, sizeof canon) < 0) abort();
  if (rrule_compile(canon, &s2, err, sizeof err) != 0) abort();
  if (rrule_canonical(&s2, again, sizeof again) < 0 || strcmp(canon, again))
    abort();
  {
    int ra = rrule_next(&s, dtstart, fuzz_zone(), after, &a);
    int rb = rrule_next(&s2, dtstart, fuzz_zone(), after, &b);
    if (ra != rb || (ra == 1 && a != b)) abort();
  }
  return 0;
}
