/*
** sbuf.c -- the growing text buffer and its JSON and one-line writers
** (see sbuf.h). Bytes that are not UTF-8 are found with ext/text/utf8.c, the
** same decoder the extension repairs text with.
*/
#include "sbuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/utf8.h"

static const char fffd[] = "\xef\xbf\xbd"; /* U+FFFD */

static void grow(sbuf *b, size_t more) {
  if (b->n + more + 1 <= b->cap) return;
  size_t cap = b->cap ? b->cap : 128;
  while (cap < b->n + more + 1) cap *= 2;
  b->p = xrealloc(b->p, cap);
  b->cap = cap;
}

void sb_put(sbuf *b, const char *s, size_t n) {
  grow(b, n);
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = 0;
}

void sb_putc(sbuf *b, char c) { sb_put(b, &c, 1); }

void sb_puts(sbuf *b, const char *s) { sb_put(b, s, strlen(s)); }

void sb_printf(sbuf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  int n = vsnprintf(NULL, 0, fmt, ap);
  va_end(ap);
  if (n <= 0) return;
  grow(b, (size_t)n);
  va_start(ap, fmt);
  vsnprintf(b->p + b->n, (size_t)n + 1, fmt, ap);
  va_end(ap);
  b->n += (size_t)n;
}

const char *sb_str(const sbuf *b) { return b->p ? b->p : ""; }

void sb_free(sbuf *b) {
  free(b->p);
  memset(b, 0, sizeof *b);
}

/* s with each valid character passed to put (or escaped by it) and each
** invalid sequence written as U+FFFD. json: escape for a JSON string. */
static void put_escaped(sbuf *b, const char *s, int json) {
  const unsigned char *u = (const unsigned char *)s;
  size_t n = strlen(s);
  while (n > 0) {
    size_t bad = 0;
    utf8_problem why;
    size_t len = utf8_char(u, n, &bad, &why);
    if (len == 0) { /* not UTF-8 (NUL cannot occur: s ends there) */
      sb_puts(b, fffd);
      u += bad;
      n -= bad;
      continue;
    }
    unsigned char c = u[0];
    if (len > 1 || (c >= 0x20 && c != 0x7f && c != '"' && c != '\\')) {
      sb_put(b, (const char *)u, len);
    } else if (c == '\n') {
      sb_puts(b, "\\n");
    } else if (c == '\t') {
      sb_puts(b, "\\t");
    } else if (c == '\r') {
      sb_puts(b, "\\r");
    } else if (c == '"' || c == '\\') {
      if (json) sb_putc(b, '\\');
      sb_putc(b, (char)c);
    } else {
      sb_printf(b, json ? "\\u%04x" : "\\x%02x", c);
    }
    u += len;
    n -= len;
  }
}

void sb_line(sbuf *b, const char *s) { put_escaped(b, s ? s : "", 0); }

static void comma_key(sbuf *b, const char *key) {
  char last = b->n ? b->p[b->n - 1] : '{';
  if (last != '{' && last != '[') sb_putc(b, ',');
  if (!key) return;
  sb_putc(b, '"');
  put_escaped(b, key, 1);
  sb_puts(b, "\":");
}

void jw_str(sbuf *b, const char *key, const char *val) {
  comma_key(b, key);
  if (!val) {
    sb_puts(b, "null");
    return;
  }
  sb_putc(b, '"');
  put_escaped(b, val, 1);
  sb_putc(b, '"');
}

void jw_int(sbuf *b, const char *key, long long val) {
  comma_key(b, key);
  sb_printf(b, "%lld", val);
}

void jw_null(sbuf *b, const char *key) {
  comma_key(b, key);
  sb_puts(b, "null");
}

void jw_open(sbuf *b, const char *key, char brace) {
  comma_key(b, key);
  sb_putc(b, brace);
}

void jw_close(sbuf *b, char brace) { sb_putc(b, brace); }
