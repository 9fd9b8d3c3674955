/*
** fuzz_tzdb_links.c -- libFuzzer target for the tzdata.zi link reader
** (ext/time/tzdb_links.c).
**
** Feeds arbitrary bytes to tzdb_links_parse as a zic input text; then
** looks up every name that appears as a field of the input, checking that
** an answer is a valid zone name (or "UTC"), that a link never answers
** itself (but "UTC"), and that the answer is no link in turn (chains end at a zone).
** Seeds: tests/fuzz/corpus/tzdb_links/ (pieces of a real tzdata.zi).
**
**   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iext \
**     tests/fuzz/fuzz_tzdb_links.c ext/time/tzdb_links.c -o build/fuzz_tzdb_links
**   ./build/fuzz_tzdb_links -max_total_time=30 tests/fuzz/corpus/tzdb_links
*/
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "time/tzdb_links.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_answer(const tzdb_links *l, const char *name) {
  const char *zone = tzdb_links_zone(l, name);
  if (!zone) return;
  size_t n = strlen(zone);
  if (n == 0 || n > 64) __builtin_trap();
  /* a link is never its own zone ("UTC", a link to Etc/UTC, is "UTC") */
  if (strcmp(zone, name) == 0 && strcmp(zone, "UTC") != 0) __builtin_trap();
  if (strcmp(zone, "UTC") != 0 && tzdb_links_zone(l, zone) != NULL)
    __builtin_trap();                            /* a chain ends at a zone */
  if (tzdb_links_is_utc(zone)) __builtin_trap(); /* reported as "UTC" */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > 1 << 16) return 0;
  tzdb_links *l = tzdb_links_parse((const char *)data, size);
  if (!l) return 0;
  if (tzdb_links_count(l) > size) __builtin_trap();
  /* every whitespace-separated field of the input, as a name */
  char name[80];
  size_t k = 0;
  while (k < size) {
    while (k < size && (data[k] == ' ' || data[k] == '\t' || data[k] == '\n' ||
                        data[k] == '\r'))
      k++;
    size_t from = k;
    while (k < size && data[k] != ' ' && data[k] != '\t' && data[k] != '\n' &&
           data[k] != '\r')
      k++;
    if (k > from && k - from < sizeof name) {
      memcpy(name, data + from, k - from);
      name[k - from] = 0;
      check_answer(l, name);
    }
  }
  tzdb_links_free(l);
  return 0;
}
