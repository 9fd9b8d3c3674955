/*
** json_write.c -- JSON string literals and integer digits (see
** json_write.h). The host's kind of text is read a character at a time
** with utf8.c, the decoder the extension repairs text with.
*/
#include "text/json_write.h"

#include <string.h>

#include "text/utf8.h"

static const char fffd[] = "\xef\xbf\xbd"; /* U+FFFD */

/* Bytes that stand as themselves inside a literal of valid UTF-8. */
static int json_plain(unsigned char ch) {
  return ch >= 0x20 && ch != '"' && ch != '\\';
}

const char *json_escape(unsigned char ch, char buf[8]) {
  switch (ch) {
    case '"': return "\\\"";
    case '\\': return "\\\\";
    case '\n': return "\\n";
    case '\r': return "\\r";
    case '\t': return "\\t";
    default: {
      static const char hex[] = "0123456789abcdef";
      memcpy(buf, "\\u00", 4);
      buf[4] = hex[ch >> 4];
      buf[5] = hex[ch & 15];
      buf[6] = 0;
      return buf;
    }
  }
}

/* json_plain() of every byte: one load a byte where a busy tick scans
** its run texts (bench/README.md). */
static const unsigned char plain_byte[256] = {
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

size_t json_plain_span(const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  while (plain_byte[*p]) p++;
  return (size_t)(p - (const unsigned char *)s);
}

size_t json_quoted_len(const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  size_t n = 2;
  char buf[8];
  for (; *p; p++) n += json_plain(*p) ? 1 : strlen(json_escape(*p, buf));
  return n;
}

char *json_quote_to(char *dst, const char *s) {
  char buf[8];
  *dst++ = '"';
  for (;;) {
    size_t run = json_plain_span(s);
    memcpy(dst, s, run);
    dst += run;
    s += run;
    if (!*s) break;
    const char *esc = json_escape((unsigned char)*s++, buf);
    size_t n = strlen(esc);
    /* not a C string: the quoted text has no NUL (see json_write.h) */
    memcpy(dst, esc, n); /* NOLINT(bugprone-not-null-terminated-result) */
    dst += n;
  }
  *dst++ = '"';
  return dst;
}

/* The character at u[0..n) when it stands as itself in the host's kind of
** text: its length; else 0. */
static size_t any_plain(const unsigned char *u, size_t n) {
  size_t bad = 0;
  utf8_problem why;
  size_t len = utf8_char(u, n, &bad, &why);
  if (len == 1 && (u[0] == 0x7f || !json_plain(u[0]))) return 0;
  return len;
}

size_t json_any_span(const char *s, size_t n) {
  const unsigned char *u = (const unsigned char *)s;
  size_t i = 0, len;
  while (i < n && (len = any_plain(u + i, n - i)) > 0) i += len;
  return i;
}

const char *json_any_escape(const char *s, size_t n, size_t *used,
                            char buf[8]) {
  const unsigned char *u = (const unsigned char *)s;
  size_t bad = 0;
  utf8_problem why;
  if (utf8_char(u, n, &bad, &why) == 0) {
    *used = bad;
    return fffd;
  }
  *used = 1;
  return json_escape(u[0], buf);
}

int json_int_digits(char *buf, long long x) {
  char tmp[24];
  int n = 0, k = 0;
  unsigned long long u =
      x < 0 ? 0ULL - (unsigned long long)x : (unsigned long long)x;
  do {
    tmp[n++] = (char)('0' + u % 10);
    u /= 10;
  } while (u);
  if (x < 0) buf[k++] = '-';
  while (n) buf[k++] = tmp[--n];
  return k;
}
