/*
** run_text.c -- see run_text.h. One pass over the input with utf8.c's
** decoder: each step reads one valid character (copied) or one maximal
** invalid subpart or NUL (written as U+FFFD), stopping before the first
** character that would pass max.
*/
#include "text/run_text.h"

#include <string.h>

#include "text/utf8.h"

size_t run_text_clean(const char *in, size_t n, size_t max, char *out) {
  static const char replacement[] = "\xEF\xBF\xBD"; /* U+FFFD */
  const unsigned char *p = (const unsigned char *)in;
  size_t len = 0;
  while (n > 0) {
    size_t bad = 0;
    utf8_problem why;
    size_t k = utf8_char(p, n, &bad, &why);
    const char *src = k ? (const char *)p : replacement;
    size_t w = k ? k : 3;
    if (len + w > max) break;
    memcpy(out + len, src, w);
    len += w;
    if (!k) k = bad;
    p += k;
    n -= k;
  }
  out[len] = 0;
  return len;
}
