/*
** fuzz_iso.c -- libFuzzer target for the ISO-8601 parser (ext/time/civil.c).
**
** Every accepted text must have in-range fields, and formatting the
** instant it names and parsing that again must give the same instant.
**
**   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iext \
**     tests/fuzz/fuzz_iso.c ext/time/civil.c -o build/fuzz_iso
**   ./build/fuzz_iso -max_total_time=30 tests/fuzz/corpus/iso
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "time/civil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  civil_time t, t2;
  int has, has2;
  int32_t off, off2;
  char err[96], buf[CIVIL_ISO_MAX];
  int64_t utc;
  int n;
  if (civil_parse_iso((const char *)data, size, &t, &has, &off, err,
                      sizeof err) != 0) {
    if (err[0] == '\0') __builtin_trap();
    return 0;
  }
  if (t.year < CIVIL_MIN_YEAR || t.year > CIVIL_MAX_YEAR || t.month < 1 ||
      t.month > 12 || t.day < 1 ||
      t.day > civil_days_in_month(t.year, t.month) || t.hour > 23 ||
      t.minute > 59 || t.second > 59 || t.ms > 999)
    __builtin_trap();
  utc = civil_to_ms(&t) - (int64_t)off * 1000;
  n = civil_format_iso(utc, off, !has || off == 0, buf);
  if (n <= 0 || n >= CIVIL_ISO_MAX || strlen(buf) != (size_t)n)
    __builtin_trap();
  if (civil_parse_iso(buf, (size_t)n, &t2, &has2, &off2, err, sizeof err) != 0)
    __builtin_trap();
  if (civil_to_ms(&t2) - (int64_t)off2 * 1000 != utc) __builtin_trap();
  return 0;
}
