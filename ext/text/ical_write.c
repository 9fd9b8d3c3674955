/*
** ical_write.c -- iCalendar content lines (ical_write.h): folding at 75
** octets on character boundaries, TEXT escaping, CRLF.
**
** Every byte goes through put(), which knows the unit it belongs to (a
** UTF-8 character, or an escape such as "\;"): a unit that would pass the
** 75th octet of the line starts a new folded line (CRLF + one space, the
** space counting as the new line's first octet).
*/
#include "text/ical_write.h"

#include <string.h>

void ical_writer_init(ical_writer *w,
                      int (*sink)(void *arg, const char *bytes, size_t n),
                      void *arg) {
  w->sink = sink;
  w->arg = arg;
  w->col = 0;
  w->err = 0;
}

static void emit(ical_writer *w, const char *b, size_t n) {
  if (w->err || n == 0) return;
  w->err = w->sink(w->arg, b, n);
}

/* One unit of n bytes (n <= 4), folded before it when it would not fit. */
static void put_unit(ical_writer *w, const char *b, size_t n) {
  if (w->col + n > ICAL_LINE_MAX) {
    emit(w, "\r\n ", 3);
    w->col = 1;
  }
  emit(w, b, n);
  w->col += n;
}

/* How many bytes the UTF-8 character starting with byte c has (1 for a
** byte that cannot start one: the text is valid UTF-8 where it comes
** from, and a stray byte is then kept whole rather than split). */
static size_t char_len(unsigned char c) {
  if (c >= 0xF0 && c < 0xF8) return 4;
  if (c >= 0xE0) return c < 0xF0 ? 3 : 1;
  if (c >= 0xC0) return 2;
  return 1;
}

/* The bytes of s as they are, a character at a time; a run of ASCII that
** fits on the line goes to the sink at once. */
static void put_plain(ical_writer *w, const char *s, size_t n) {
  size_t i = 0;
  while (i < n && !w->err) {
    size_t room = ICAL_LINE_MAX - w->col, run = 0;
    while (i + run < n && run < room && (unsigned char)s[i + run] < 0x80) run++;
    if (run) {
      emit(w, s + i, run);
      w->col += run;
      i += run;
      continue;
    }
    size_t k = char_len((unsigned char)s[i]);
    if (k > n - i) k = n - i;
    put_unit(w, s + i, k);
    i += k;
  }
}

void ical_name(ical_writer *w, const char *name) {
  put_plain(w, name, strlen(name));
}

void ical_param(ical_writer *w, const char *name, const char *value) {
  int quote = strpbrk(value, ":;,") != NULL;
  put_unit(w, ";", 1);
  put_plain(w, name, strlen(name));
  put_unit(w, "=", 1);
  if (quote) put_unit(w, "\"", 1);
  for (const char *p = value; *p && !w->err;) {
    size_t run = strcspn(p, "\"");
    put_plain(w, p, run);
    p += run;
    if (*p == '"') p++;
  }
  if (quote) put_unit(w, "\"", 1);
}

void ical_colon(ical_writer *w) { put_unit(w, ":", 1); }

void ical_raw(ical_writer *w, const char *s) { put_plain(w, s, strlen(s)); }

void ical_text(ical_writer *w, const char *s) {
  while (*s && !w->err) {
    size_t run = strcspn(s, "\\;,\r\n\x01\x02\x03\x04\x05\x06\x07\x08\t\x0b"
                            "\x0c\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17"
                            "\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f\x7f");
    put_plain(w, s, run);
    s += run;
    if (!*s) break;
    char esc[2] = {'\\', *s};
    if (*s == '\r' && s[1] == '\n') s++; /* CRLF is one newline */
    if (*s == '\n' || *s == '\r') {
      esc[1] = 'n';
      put_unit(w, esc, 2);
    } else if (*s == '\\' || *s == ';' || *s == ',') {
      put_unit(w, esc, 2);
    } else if (*s == '\t') {
      put_unit(w, "\t", 1); /* HTAB is allowed in TEXT */
    } else {
      put_unit(w, " ", 1);
    }
    s++;
  }
}

void ical_end(ical_writer *w) {
  emit(w, "\r\n", 2);
  w->col = 0;
}

void ical_line(ical_writer *w, const char *name, const char *value) {
  ical_name(w, name);
  ical_colon(w);
  ical_raw(w, value);
  ical_end(w);
}

void ical_line_text(ical_writer *w, const char *name, const char *value) {
  ical_name(w, name);
  ical_colon(w);
  ical_text(w, value);
  ical_end(w);
}
