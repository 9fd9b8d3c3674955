/*
** when_chars.c -- the characters of a message the phrase reader looks at
** one by one (when_int.h): a code point read inside the text's length,
** and the apostrophe, plain or typographic (docs/when.md "How input is
** read"). The lexer and the message finder both use them.
*/
#include "text/utf8.h"
#include "time/when_int.h"

size_t when_codepoint_at(const char *t, size_t len, size_t i, uint32_t *cp) {
  const unsigned char *s;
  size_t bad, n;
  utf8_problem why;
  if (i >= len) return 0;
  s = (const unsigned char *)t + i;
  if (s[0] < 0x80) { /* NUL too: a character here, not the text's end */
    *cp = s[0];
    return 1;
  }
  n = utf8_char(s, len - i, &bad, &why);
  if (n == 0) return 0;
  uint32_t v = s[0] & (0x7fu >> n); /* the lead byte's bits */
  for (size_t k = 1; k < n; k++) v = v << 6 | (s[k] & 0x3fu);
  *cp = v;
  return n;
}

size_t when_apostrophe_len(const char *t, size_t len, size_t i) {
  uint32_t cp;
  size_t n = when_codepoint_at(t, len, i, &cp);
  return n && (cp == '\'' || cp == 0x2019) ? n : 0;
}
