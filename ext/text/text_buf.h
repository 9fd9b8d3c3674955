/*
** text_buf.h -- text appended into a caller's fixed buffer: every piece
** that fits is copied with its NUL; the first that does not marks the
** buffer full, and nothing more is written (the canonical texts of
** time/rrule_text.c, time/cron_rrule.c's RRULE).
**
** Pure: no SQLite, no allocation, no globals.
*/
#ifndef TRIGGERS_TEXT_BUF_H
#define TRIGGERS_TEXT_BUF_H

#include <stddef.h>

typedef struct text_buf {
  char *buf;
  size_t n, len;
  int full; /* a piece did not fit */
} text_buf;

/* An empty text in buf[0..n) (buf[0] = NUL when n > 0). */
void text_buf_init(text_buf *b, char *buf, size_t n);
void text_buf_put(text_buf *b, const char *s);
/* The decimal digits of v, '-' first when negative. */
void text_buf_put_int(text_buf *b, long long v);

#endif
