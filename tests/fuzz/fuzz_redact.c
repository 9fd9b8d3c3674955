/*
** fuzz_redact.c -- libFuzzer target for secret redaction (ext/text/redact.c).
**
** For any input: the measured length equals the written one and the
** output is terminated; a small buffer gets a terminated prefix of it; a
** second pass changes nothing; when no rule fired the text is unchanged;
** and the characters read stay within REDACT_STEPS_PER_BYTE per input
** byte (a superlinear input traps instead of merely timing out).
**
**   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iext \
**     tests/fuzz/fuzz_redact.c ext/text/redact.c -o build/fuzz_redact
**   ./build/fuzz_redact -max_total_time=30 tests/fuzz/corpus/redact
*/
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "text/redact.h"

/* Must match the bound of tests/unit/test_redact.c. */
#define REDACT_STEPS_PER_BYTE 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const char *in = (const char *)data;
  const char *rule = NULL;
  size_t steps = redact_probe(in, size, &rule);
  if (steps > REDACT_STEPS_PER_BYTE * (size + 1)) __builtin_trap();
  size_t len = redact(in, size, NULL, 0);
  char *out = malloc(len + 1), *again = malloc(len + 1), small[16];
  if (!out || !again) abort();
  if (redact(in, size, out, len + 1) != len || out[len] != '\0')
    __builtin_trap();
  if (!rule && (len != size || memcmp(out, in, size) != 0)) __builtin_trap();
  if (redact(out, len, again, len + 1) != len || memcmp(out, again, len) != 0)
    __builtin_trap();
  redact(in, size, small, sizeof small);
  size_t cut = len < sizeof small ? len : sizeof small - 1;
  if (small[cut] != '\0' || memcmp(small, out, cut) != 0) __builtin_trap();
  free(out);
  free(again);
  return 0;
}
