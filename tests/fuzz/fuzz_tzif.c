/*
** fuzz_tzif.c -- libFuzzer target for the TZif reader (ext/time/tz.c).
**
** Feeds arbitrary bytes to tz_parse; when they parse, exercises every
** lookup at instants taken from the input's last bytes, around the zone's
** transitions and at the extremes. Seeds: tests/fuzz/corpus/tzif/ (small
** zic outputs, fat and slim).
**
**   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iext \
**     tests/fuzz/fuzz_tzif.c ext/time/tz.c ext/time/civil.c -o build/fuzz_tzif
**   ./build/fuzz_tzif -max_total_time=30 tests/fuzz/corpus/tzif
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "time/tz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int64_t instant_from(const uint8_t *data, size_t size) {
  uint64_t v = 0;
  size_t k;
  for (k = 0; k < 8 && k < size; k++) v = v << 8 | data[size - 1 - k];
  return (int64_t)v;
}

static void exercise(const tz_zone *z, int64_t t) {
  tz_local r;
  int32_t off = tz_offset_at(z, t);
  int64_t next = tz_next_transition(z, t);
  if (next != INT64_MAX && next <= t) __builtin_trap();
  if (off < -93599 || off > 93599) __builtin_trap();
  tz_local_lookup(z, t, &r);
  if (r.count < 0 || r.count > 2) __builtin_trap();
  if (r.count == 2 && !(r.utc[0] < r.utc[1])) __builtin_trap();
  (void)tz_local_to_utc(z, t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  tz_zone *z = NULL;
  char err[128];
  int64_t t,
      probes[] = {
          0,         1700000000, -2208988800LL, 4102444800LL, 253402300799LL,
          INT64_MIN, INT64_MAX};
  size_t k;
  int steps;
  if (tz_parse(data, size, "fuzz", &z, err, sizeof err) != 0) {
    if (strncmp(err, "TZif: ", 6) != 0) __builtin_trap();
    return 0;
  }
  (void)tz_name(z);
  for (k = 0; k < sizeof probes / sizeof probes[0]; k++) exercise(z, probes[k]);
  exercise(z, instant_from(data, size));
  /* step through a few transitions, checking both sides of each */
  t = -2208988800LL;
  for (steps = 0; steps < 16; steps++) {
    int64_t next = tz_next_transition(z, t);
    if (next == INT64_MAX) break;
    exercise(z, next - 1);
    exercise(z, next);
    t = next;
  }
  tz_free(z);
  return 0;
}
