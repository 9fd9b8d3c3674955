/*
** fuzz_when.c -- libFuzzer target for the English time phrase parser
** (ext/time/when_*.c).
**
** The input becomes a NUL-terminated phrase, read at a fixed reference
** instant in UTC and in a DST zone (America/New_York, or Lord Howe's
** half-hour DST when the first byte is odd), both loaded once through
** tzdb. Every result must be self-consistent: a rejection has kind NONE,
** confidence 0 and a reason; an acceptance has a confidence in 0.5..1, a
** due instant not before now, no reason, and its cron line parses. The
** input is also a message for when_find: a phrase found lies inside it,
** its reading is an accepted one, and the rest is no longer. Seeds:
** tests/fuzz/corpus/when/ (one phrase per file).
**
**   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iext \
**     tests/fuzz/fuzz_when.c ext/time/when*.c ext/time/cron.c ext/time/tz.c ext/time/tzdb.c ext/time/tzdb_names.c \
**     ext/time/civil.c ext/time/schedule.c ext/text/utf8.c -o build/fuzz_when
**   ./build/fuzz_when -max_total_time=60 tests/fuzz/corpus/when
*/
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "time/cron.h"
#include "time/tzdb.h"
#include "time/when.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Wed 2025-03-05T10:00:00Z, and the eve of New York's spring-forward. */
#define NOW_A 1741168800000LL
#define NOW_B 1741446000000LL

static void check(const char *phrase, int64_t now, const tz_zone *z) {
  when_result r;
  cron_expr e;
  char err[CRON_ERR_MAX];
  int rc = when_parse(phrase, now, z, &r);
  if (rc != 0) {
    if (r.kind != WHEN_NONE || r.confidence != 0.0 || !r.reason[0])
      __builtin_trap();
    return;
  }
  if (r.kind == WHEN_NONE || r.reason[0] || !r.matched[0]) __builtin_trap();
  if (r.confidence < 0.5 || r.confidence > 1.0) __builtin_trap();
  if (r.due_at < now) __builtin_trap();
  if (r.kind == WHEN_INTERVAL &&
      (r.interval_ms < 1000 || r.due_at != now + r.interval_ms))
    __builtin_trap();
  if (r.kind == WHEN_CRON && cron_parse(r.cron, &e, err, sizeof err) != 0)
    __builtin_trap();
  if (strlen(r.matched) > WHEN_PHRASE_MAX) __builtin_trap();
}

/* when_find on the raw bytes (not NUL-terminated): a refusal is clean; a
** phrase found lies inside the text, its reading is an accepted one (the
** words around it may have chosen am or pm, so it need not equal
** when_parse's), and the rest is no longer than the text. */
static void check_find(const uint8_t *data, size_t size, int64_t now,
                       const tz_zone *z) {
  when_found f;
  char *rest = malloc(size + 1);
  if (!rest) return;
  if (when_find((const char *)data, size, now, z, &f) != 0) {
    if (f.r.kind != WHEN_NONE || f.r.confidence != 0.0 || !f.r.reason[0])
      __builtin_trap();
  } else {
    const when_result *r = &f.r;
    if (f.start >= f.end || f.end > size || f.end - f.start > WHEN_PHRASE_MAX ||
        f.cp_start > f.start || f.cp_end - f.cp_start > f.end - f.start)
      __builtin_trap();
    if (f.end2 > f.start2 &&
        (f.end2 > size || f.end2 - f.start2 > WHEN_PHRASE_MAX))
      __builtin_trap();
    if (r->kind == WHEN_NONE || r->reason[0] || r->confidence < 0.5 ||
        r->confidence > 1.0 || r->due_at < now)
      __builtin_trap();
    if (when_found_rest((const char *)data, size, &f, rest) > size ||
        when_find_rest((const char *)data, size, f.start, f.end, rest) > size)
      __builtin_trap();
  }
  free(rest);
}

static tzdb *zones;
static const tz_zone *ny, *lh;

/*
** The zones are loaded before any input. When they cannot be (no tzdata,
** a TZDIR without them) that is reported here and the process exits 1:
** aborting inside the first input instead made libFuzzer record the
** empty input as a crash (crash-da39a3ee5e6b4b0d3255bfef95601890afd80709,
** the SHA-1 of nothing), although the parser never saw it.
*/
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  char err[160] = "out of memory";
  (void)argc;
  (void)argv;
  zones = tzdb_new(NULL);
  if (!zones || tzdb_get(zones, "America/New_York", &ny, err, sizeof err) ||
      tzdb_get(zones, "Australia/Lord_Howe", &lh, err, sizeof err)) {
    fprintf(stderr,
            "fuzz_when: cannot load its zones (install tzdata, see "
            "tests/deps.sh): %s\n",
            err);
    exit(1);
  }
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 4096) return 0;
  char *phrase = malloc(size + 1);
  if (!phrase) return 0;
  memcpy(phrase, data, size);
  phrase[size] = 0;
  check(phrase, NOW_A, tz_utc());
  check(phrase, NOW_B, (size && (data[0] & 1)) ? lh : ny);
  check_find(data, size, NOW_A, tz_utc());
  free(phrase);
  return 0;
}
