/*
** sbuf.h -- a growing text buffer for trigger-host's output lines: the
** log (log.c) and `trigger-host status` (status.c). It writes JSON values
** (strings escaped, invalid UTF-8 and NULs as U+FFFD, so the output is
** always valid JSON) and one-line text (control characters escaped as
** \n, \t, \xNN, so a multi-line error stays on its line).
*/
#ifndef HOST_SBUF_H
#define HOST_SBUF_H

#include <stddef.h>

#include "util.h"

typedef struct sbuf {
  char *p; /* NUL-terminated; NULL until something is written */
  size_t n, cap;
} sbuf;

void sb_putc(sbuf *b, char c);
void sb_put(sbuf *b, const char *s, size_t n);
void sb_puts(sbuf *b, const char *s);
void sb_printf(sbuf *b, const char *fmt, ...) HOST_FORMAT(2, 3);
/* s on one line: control characters escaped (\n, \t, \xNN). */
void sb_line(sbuf *b, const char *s);
const char *sb_str(const sbuf *b); /* "" when empty */
void sb_free(sbuf *b);

/* JSON. Each of these writes ',' first unless it follows '{' or '[' (or
** nothing), then "key": unless key is NULL (an array element). A NULL
** string value is null. */
void jw_str(sbuf *b, const char *key, const char *val);
void jw_int(sbuf *b, const char *key, long long val);
void jw_null(sbuf *b, const char *key);
void jw_open(sbuf *b, const char *key, char brace); /* '{' or '[' */
void jw_close(sbuf *b, char brace);                 /* '}' or ']' */

#endif
