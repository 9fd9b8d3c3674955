/*
** run_text.c -- see run_text.h. One pass over the input: each step reads
** one well-formed character (1-4 bytes, the ranges of Unicode's table
** 3-7) or one maximal ill-formed subsequence, which is written as U+FFFD.
*/
#include "run_text.h"

#include <string.h>

/* Bytes of the sequence that lead byte b begins (0: not a lead byte), and
** the range its second byte must lie in. */
static int lead_len(unsigned char b, unsigned char *lo, unsigned char *hi) {
  *lo = 0x80;
  *hi = 0xBF;
  if (b < 0x80) return 1;
  if (b < 0xC2) return 0; /* continuation byte, or overlong C0/C1 */
  if (b < 0xE0) return 2;
  if (b < 0xF0) {
    if (b == 0xE0) *lo = 0xA0; /* overlong */
    if (b == 0xED) *hi = 0x9F; /* surrogates */
    return 3;
  }
  if (b < 0xF5) {
    if (b == 0xF0) *lo = 0x90; /* overlong */
    if (b == 0xF4) *hi = 0x8F; /* above U+10FFFF */
    return 4;
  }
  return 0;
}

/* At p (n > 0 bytes left): the length of a well-formed character (*bad
** 0) or of the maximal ill-formed subsequence there (*bad 1). */
static size_t next_char(const unsigned char *p, size_t n, int *bad) {
  unsigned char lo, hi;
  int want = lead_len(p[0], &lo, &hi);
  *bad = 1;
  if (want == 0) return 1;
  size_t k = 1;
  for (; k < (size_t)want && k < n; k++) {
    unsigned char c = p[k];
    if (k == 1 ? (c < lo || c > hi) : (c < 0x80 || c > 0xBF)) return k;
  }
  *bad = k < (size_t)want;
  return k;
}

size_t run_text_clean(const char *in, size_t n, size_t max, char *out) {
  static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */
  const unsigned char *p = (const unsigned char *)in;
  size_t len = 0;
  while (n > 0 && *p) {
    int bad;
    size_t k = next_char(p, n, &bad);
    const char *src = bad ? replacement : (const char *)p;
    size_t w = bad ? 3 : k;
    if (len + w > max) break;
    memcpy(out + len, src, w);
    len += w;
    p += k;
    n -= k;
  }
  out[len] = 0;
  return len;
}
