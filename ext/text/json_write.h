/*
** json_write.h -- JSON written without SQLite: a string literal and an
** integer's digits, for the extension's answers (base/json_out.c appends
** them to a sqlite3_str; tick/fire_json.c writes them into its arena) and
** for trigger-host's lines (host/core/out.c).
**
** Inside a literal a byte stands as itself unless it is '"', '\\' or a
** control byte below 0x20: those are written \" \\ \n \r \t, the others
** \u00XX (lowercase hex). Two kinds of text are quoted:
**   - the extension's, valid UTF-8 (checked or repaired where it entered):
**     every other byte as itself (json_plain_span, json_quote_to);
**   - the host's, any bytes (a path, a command's message): whole UTF-8
**     characters as themselves, DEL as \u007f, and each sequence that is
**     not UTF-8 (or a NUL inside n bytes) as U+FFFD, so the line is valid
**     JSON whatever it quotes (json_any_span, json_any_escape).
** A writer that appends walks s in pieces: a run of bytes that stand as
** themselves, then one escape, until the end.
**
** Pure: no SQLite, no allocation, no globals.
*/
#ifndef TRIGGERS_JSON_WRITE_H
#define TRIGGERS_JSON_WRITE_H

#include <stddef.h>

/* The escape of byte ch, one of '"', '\\', a control byte or DEL, inside
** a literal: a constant, or \u00XX formatted into buf. */
const char *json_escape(unsigned char ch, char buf[8]);

/* Valid UTF-8 s (NUL-terminated): how many leading bytes stand as
** themselves (s[0] is then '\0' or a byte for json_escape). */
size_t json_plain_span(const char *s);
/* The literal of s (not NULL), quotes included: its length, and writing
** it at dst (no NUL), returning the end. */
size_t json_quoted_len(const char *s);
char *json_quote_to(char *dst, const char *s);

/* Any bytes s[0..n): how many leading bytes are whole characters standing
** as themselves (none of them a control byte, DEL, '"' or '\\'). */
size_t json_any_span(const char *s, size_t n);
/* What stands at s[0..n) (n >= 1) after such a span: its escape, or
** U+FFFD for a sequence that is not UTF-8; *used says how many bytes the
** returned text stands for. */
const char *json_any_escape(const char *s, size_t n, size_t *used, char buf[8]);

/* The decimal digits of x, '-' first when negative, into buf (at least
** 21 bytes; no NUL); their count. */
int json_int_digits(char *buf, long long x);

#endif
