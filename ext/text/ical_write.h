/*
** ical_write.h -- iCalendar (RFC 5545) content lines written without
** SQLite: a property's name, its parameters and its value, folded so that
** no line is longer than 75 octets (a fold is CRLF and one space, never
** inside a UTF-8 character or a TEXT escape), each line ended by CRLF
** (docs/ical.md).
**
** A value is written either as it is (dates, RECUR values: ASCII the
** caller formed) or as TEXT, where '\\', ';' and ',' are escaped with a
** backslash and a newline (LF, or CRLF as one) is written "\n"; other
** control bytes, which TEXT may not hold, become a space.
**
** The bytes go to the caller's sink, which returns 0, or non-zero to stop
** (out of memory): the writer then writes nothing more and keeps the code
** in w->err. Pure: no SQLite, no allocation, no globals.
*/
#ifndef TRIGGERS_ICAL_WRITE_H
#define TRIGGERS_ICAL_WRITE_H

#include <stddef.h>

#define ICAL_LINE_MAX 75 /* octets of a content line, CRLF not counted */

typedef struct ical_writer {
  int (*sink)(void *arg, const char *bytes, size_t n);
  void *arg;
  size_t col; /* octets written on the current line */
  int err;    /* the sink's first non-zero answer */
} ical_writer;

void ical_writer_init(ical_writer *w,
                      int (*sink)(void *arg, const char *bytes, size_t n),
                      void *arg);

/* A property's name ("DTSTART"): starts a content line. */
void ical_name(ical_writer *w, const char *name);
/* ";NAME=value", the value in double quotes when it holds ':', ';' or ','
** (RFC 5545 3.2: a quoted value may not hold '"': those are dropped). */
void ical_param(ical_writer *w, const char *name, const char *value);
/* The ':' between the name (and parameters) and the value. */
void ical_colon(ical_writer *w);
/* Value bytes as they are, folded. */
void ical_raw(ical_writer *w, const char *s);
/* Value text escaped as TEXT, folded. */
void ical_text(ical_writer *w, const char *s);
/* CRLF: ends the content line. */
void ical_end(ical_writer *w);

/* Whole lines: "NAME:value\r\n" with the value as it is, or as TEXT. */
void ical_line(ical_writer *w, const char *name, const char *value);
void ical_line_text(ical_writer *w, const char *name, const char *value);

#endif
