/*
** ascii.h -- ASCII character classes for the parsers (cron, tz rules,
** ISO-8601, "when" phrases, redaction): locale-free, unlike <ctype.h>,
** and safe on any byte (a UTF-8 byte is never a digit or a letter here).
*/
#ifndef TRIGGERS_ASCII_H
#define TRIGGERS_ASCII_H

static inline int ascii_is_digit(int c) { return c >= '0' && c <= '9'; }
static inline int ascii_is_upper(int c) { return c >= 'A' && c <= 'Z'; }
static inline int ascii_is_lower(int c) { return c >= 'a' && c <= 'z'; }
static inline int ascii_is_alpha(int c) {
  return ascii_is_upper(c) || ascii_is_lower(c);
}
static inline int ascii_to_upper(int c) {
  return ascii_is_lower(c) ? c - 'a' + 'A' : c;
}

#endif
