/*
** text_buf.c -- text appended into a fixed buffer (text_buf.h).
*/
#include "text/text_buf.h"

#include <stdio.h>
#include <string.h>

void text_buf_init(text_buf *b, char *buf, size_t n) {
  b->buf = buf;
  b->n = n;
  b->len = 0;
  b->full = 0;
  if (n) buf[0] = 0;
}

void text_buf_put(text_buf *b, const char *s) {
  size_t k = strlen(s);
  if (b->full || b->len + k >= b->n) {
    b->full = 1;
    return;
  }
  memcpy(b->buf + b->len, s, k + 1);
  b->len += k;
}

void text_buf_put_int(text_buf *b, long long v) {
  char d[24];
  snprintf(d, sizeof d, "%lld", v);
  text_buf_put(b, d);
}
