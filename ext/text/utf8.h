/*
** utf8.h -- the one place that decides whether a text is valid UTF-8
** without NUL, says what is wrong and where, and repairs it.
**
** Valid means UTF-8 as RFC 3629 and Unicode define it -- the shortest
** encoding, no surrogate U+D800..U+DFFF, nothing above U+10FFFF, no
** sequence cut short -- and no NUL byte. A JSON text is checked the same
** way, and its \u escapes too: \u0000 and a surrogate escape that is not a
** high one followed by a low one are refused, because a JSON parser would
** decode them into a NUL or into an encoded surrogate (SQLite's does).
**
** Repair replaces each maximal invalid subpart (Unicode ch. 3, "U+FFFD
** Substitution of Maximal Subparts", as Python's errors='replace' and the
** WHATWG decoder do) and each NUL with U+FFFD; in a JSON text each bad
** escape becomes \ufffd. Repairing valid text changes nothing.
**
** Pure: no SQLite, no allocation (the caller sizes the output with a NULL
** destination first). Used at every place text enters the extension
** (args.c, trigger.c, fn_create.c, tick_opts.c, fn_summary.c, xml_request.c) and
** by the host for a command's stderr.
*/
#ifndef TRIGGERS_UTF8_H
#define TRIGGERS_UTF8_H

#include <stddef.h>

typedef enum utf8_problem {
  UTF8_OK = 0,
  UTF8_NUL,          /* a NUL byte */
  UTF8_CONTINUATION, /* a continuation byte 0x80-0xBF without a lead byte */
  UTF8_NEVER,        /* 0xF8-0xFF: never part of UTF-8 */
  UTF8_OVERLONG,     /* a longer encoding than the shortest */
  UTF8_SURROGATE,    /* U+D800..U+DFFF encoded */
  UTF8_TOO_BIG,      /* above U+10FFFF */
  UTF8_TRUNCATED,    /* a lead byte without all its continuation bytes */
  UTF8_ESC_NUL,      /* JSON: the escape \u0000 */
  UTF8_ESC_SURROGATE /* JSON: a surrogate escape that is not in a pair */
} utf8_problem;

/* The first problem of a text. */
typedef struct utf8_err {
  utf8_problem what;
  size_t at;  /* byte offset in the text */
  size_t len; /* its bytes: the maximal invalid subpart, or the escape (6) */
  /* JSON only: the member of the top-level object whose value holds the
  ** problem, as its raw bytes between the quotes (key_len 0: none), and
  ** in_key when the problem is inside a key: one of those keys (key_len
  ** 0), or a key of an object inside that member's value. */
  size_t key_at, key_len;
  int in_key;
} utf8_err;

/*
** The character at s (n >= 1 bytes left): returns its length 1-4 when it
** is a valid character other than NUL; else 0, with *bad the length of
** the maximal invalid subpart (>= 1) and *why.
*/
size_t utf8_char(const unsigned char *s, size_t n, size_t *bad,
                 utf8_problem *why);

/* 1 when s[0..n) is valid text; else 0 and *e (e may be NULL). */
int utf8_check(const char *s, size_t n, utf8_err *e);
/* The same for a JSON text, escapes included. */
int utf8_json_check(const char *s, size_t n, utf8_err *e);

/*
** The repaired text: written to dst (no terminating NUL) when dst is not
** NULL; returns its length, at most 3 * n. Measure with dst NULL first.
*/
size_t utf8_repair(const char *s, size_t n, char *dst);
size_t utf8_json_repair(const char *s, size_t n, char *dst);

/*
** utf8_json_repair with another replacement, to tell where it repaired:
** each invalid sequence and NUL inside a string written as U+FFFE, each
** bad escape as \ufffe. A string that reads differently repaired and
** marked held a problem (trigger_run_finish_many refuses a report whose
** run_id or status did, and takes the repaired detail). A problem outside
** every string stops the walk: e says what and where (e->what UTF8_OK:
** none). Returns the length written to dst (NULL: measure), at most 3 * n.
*/
size_t utf8_json_mark(const char *s, size_t n, char *dst, utf8_err *e);

/*
** What is wrong, for a message after "<field>: ", e.g. "not valid UTF-8
** at byte 5 (0xed: an encoded surrogate, U+D800..U+DFFF)", "a NUL byte at
** byte 2", "the escape \udc80 at byte 6 is a lone surrogate". s is the
** text e describes (its escape is quoted; invalid bytes are shown in hex,
** never as themselves, so the message is valid text). Returns buf.
*/
char *utf8_describe(const utf8_err *e, const char *s, char *buf, size_t n);
#define UTF8_DESCRIBE_MAX 160

/* How many bytes of the valid text s[0..n) to show when at most max may
** be: n, or the largest length <= max that does not end inside a
** character (for "%.*s" in a message). */
int utf8_prefix(const char *s, size_t n, size_t max);
/* A message formatted into a fixed buffer may end inside a character
** (snprintf cuts bytes): drop such an incomplete last character. */
void utf8_cut_tail(char *s);

#endif
