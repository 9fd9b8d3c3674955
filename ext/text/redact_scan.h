/*
** redact_scan.h -- what the matchers of the redaction rules share
** (redact.c, redact_kv.c): the normalized view of the input (invisible
** characters skipped, full-width forms read as their ASCII twins), the
** character classes they test, and the types of the rule table. Internal
** to the redact module; static inline, as the matchers read every
** character through it.
*/
#ifndef TRIGGERS_REDACT_SCAN_H
#define TRIGGERS_REDACT_SCAN_H

#include <stddef.h>

#include "text/ascii.h"

/* ---- reading: the normalized view of the input ------------------------ */

typedef struct src {
  const char *in;
  size_t n;
  size_t *steps; /* characters read, for redact_probe */
} src;

/* An invisible character at i: its length in bytes (U+00AD, the soft
** hyphen: 2; U+200B..U+200D, U+2060, U+FEFF: 3), else 0. */
static inline size_t zero_width(const src *s, size_t i) {
  const unsigned char *p = (const unsigned char *)s->in + i;
  if (s->n - i >= 2 && p[0] == 0xC2 && p[1] == 0xAD) return 2;
  if (s->n - i < 3) return 0;
  if (p[0] == 0xE2 && p[1] == 0x80) return p[2] >= 0x8B && p[2] <= 0x8D ? 3 : 0;
  if (p[0] == 0xE2 && p[1] == 0x81) return p[2] == 0xA0 ? 3 : 0;
  return p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF ? 3 : 0;
}

/* The character at i (not a zero-width one), *next set past it: U+FF01..
** U+FF3F are EF BC 81..BF, U+FF40..U+FF5E are EF BD 80..9E, U+3000 is
** E3 80 80; any other byte reads as itself. */
static inline int decode(const src *s, size_t i, size_t *next) {
  const unsigned char *p = (const unsigned char *)s->in + i;
  (*s->steps)++;
  if (s->n - i >= 3) {
    if (p[0] == 0xEF && p[1] == 0xBC && p[2] >= 0x81 && p[2] <= 0xBF) {
      *next = i + 3;
      return 0x21 + (p[2] - 0x81);
    }
    if (p[0] == 0xEF && p[1] == 0xBD && p[2] >= 0x80 && p[2] <= 0x9E) {
      *next = i + 3;
      return 0x60 + (p[2] - 0x80);
    }
    if (p[0] == 0xE3 && p[1] == 0x80 && p[2] == 0x80) {
      *next = i + 3;
      return ' ';
    }
  }
  *next = i + 1;
  return p[0];
}

/* The next visible character from i (zero-width ones skipped), or -1 at
** the end; *next is set past it (to n at the end). */
static inline int rd(const src *s, size_t i, size_t *next) {
  size_t w;
  while (i < s->n && (w = zero_width(s, i)) > 0) {
    (*s->steps)++;
    i += w;
  }
  if (i >= s->n) {
    *next = s->n;
    return -1;
  }
  return decode(s, i, next);
}

/* ---- character classes ------------------------------------------------ */

enum {
  CS_ALNUM = 1,
  CS_WORD,       /* letters, digits, _ */
  CS_URLSAFE,    /* base64url: letters, digits, _ - */
  CS_ALNUM_DASH, /* letters, digits, - */
  CS_UPPER_DIGIT,
  CS_HEX,
  CS_B64,     /* base64: letters, digits, + / */
  CS_TOKEN68, /* RFC 7235 token68 */
  CS_PATH     /* URL path: letters, digits, _ - / */
};

static inline int is_alnum(int c) {
  return ascii_is_alpha(c) || ascii_is_digit(c);
}
static inline int to_lower(int c) {
  return ascii_is_upper(c) ? c + ('a' - 'A') : c;
}
static inline int is_space(int c) { return c == ' ' || c == '\t'; }

static inline int in_class(int cs, int c) {
  switch (cs) {
    case CS_ALNUM: return is_alnum(c);
    case CS_WORD: return is_alnum(c) || c == '_';
    case CS_URLSAFE: return is_alnum(c) || c == '_' || c == '-';
    case CS_ALNUM_DASH: return is_alnum(c) || c == '-';
    case CS_UPPER_DIGIT: return ascii_is_upper(c) || ascii_is_digit(c);
    case CS_HEX:
      return ascii_is_digit(c) || (to_lower(c) >= 'a' && to_lower(c) <= 'f');
    case CS_B64: return is_alnum(c) || c == '+' || c == '/';
    case CS_TOKEN68:
      return is_alnum(c) || c == '-' || c == '.' || c == '_' || c == '~' ||
             c == '+' || c == '/' || c == '=';
    default: /* CS_PATH */
      return is_alnum(c) || c == '_' || c == '-' || c == '/';
  }
}

static inline int key_char(int c) {
  return is_alnum(c) || c == '_' || c == '.' || c == '-';
}

/* Characters of class cs from i, counting at most cap; *end is after the
** last one counted. */
static inline size_t span(const src *s, size_t i, int cs, size_t cap,
                          size_t *end) {
  size_t k = 0, nx;
  while (k < cap && in_class(cs, rd(s, i, &nx))) {
    i = nx;
    k++;
  }
  *end = i;
  return k;
}

/* Does one of the '|'-separated alternatives of lit start at i? Sets
** *end past it. With nocase, lit is lower case and matches any case. */
static inline int lit_at(const src *s, size_t i, const char *lit, int nocase,
                         size_t *end) {
  while (*lit) {
    size_t j = i, nx;
    const char *p = lit;
    for (; *p && *p != '|'; p++) {
      int c = rd(s, j, &nx);
      if ((nocase ? to_lower(c) : c) != (unsigned char)*p) break;
      j = nx;
    }
    if (!*p || *p == '|') {
      *end = j;
      return 1;
    }
    while (*p && *p != '|') p++;
    lit = *p ? p + 1 : p;
  }
  return 0;
}

/* Spaces and tabs from i: the position after them. */
static inline size_t skip_spaces(const src *s, size_t i) {
  size_t nx;
  while (is_space(rd(s, i, &nx))) i = nx;
  return i;
}

/* Base64 (standard or url alphabet, '=' ends it) decoded from [a, b):
** how many bytes, how many of them are ':', control bytes, non-digits. */
typedef struct b64_info {
  size_t bytes, colons, controls, nondigits;
} b64_info;

static inline int b64_value(int c) {
  if (ascii_is_upper(c)) return c - 'A';
  if (ascii_is_lower(c)) return c - 'a' + 26;
  if (ascii_is_digit(c)) return c - '0' + 52;
  if (c == '+' || c == '-') return 62;
  if (c == '/' || c == '_') return 63;
  return -1;
}

static inline b64_info b64_scan(const src *s, size_t a, size_t b) {
  b64_info o = {0, 0, 0, 0};
  unsigned acc = 0;
  int bits = 0;
  size_t nx;
  while (a < b) {
    int v = b64_value(rd(s, a, &nx));
    if (v < 0) break;
    acc = (acc << 6 | (unsigned)v) & 0xFFFu;
    bits += 6;
    if (bits >= 8) {
      int byte = (int)(acc >> (bits - 8)) & 0xFF;
      bits -= 8;
      o.bytes++;
      o.colons += byte == ':';
      o.controls += byte < 0x20 || byte == 0x7F;
      o.nondigits += !ascii_is_digit(byte);
    }
    a = nx;
  }
  return o;
}

/* ---- the rule table ---------------------------------------------------- */

typedef struct hit {
  size_t vs, ve; /* the secret: [vs, ve); [i, vs) goes through the rules */
} hit;

typedef struct rule rule;

/* A matcher: does r match at i? On a failure it may raise *skip to a
** position before which r cannot match either. */
typedef int (*rule_fn)(const rule *r, const src *s, size_t i, hit *h,
                       size_t *skip);

/* What the character before a match must not be (judged on the output);
** EDGE_SPACE: it must be a space or a tab (an option of a command). */
enum { EDGE_NONE, EDGE_ALNUM, EDGE_WORD, EDGE_KEY, EDGE_SPACE };

enum { R_NOCASE = 1, R_MIXED = 2 };

typedef struct seglen {
  unsigned short min, max; /* max 0: unbounded */
} seglen;

struct rule {
  const char *name;        /* as listed in docs/summary.md */
  rule_fn match;           /* what it matches, with the fields below */
  unsigned char edge;      /* EDGE_*: what may not come before */
  unsigned char cmd;       /* CMD_*: only in that command (CMD_NONE: any) */
  unsigned char flags;     /* R_NOCASE: lit in any case; R_MIXED: m_pair */
  const char *lit;         /* starts with one of these ('|'), NULL: any */
  unsigned char cls, cls2; /* character classes of the body (and pair) */
  unsigned char nseg;      /* '.'-separated segments (m_segments) */
  seglen seg[3];           /* body / segment lengths */
  const char *label;       /* what replaces the secret */
};

/* ---- quotes ----------------------------------------------------------- */

/* At most this many backslashes before a quote (JSON escaped 4 times). */
#define ESC_MAX 15

/* At i, a quote opened by 2^L - 1 backslashes (L levels of JSON string
** escaping: ", \", \\\"): *q the quote, *esc the backslashes, *end after
** it. */
static inline int open_quote(const src *s, size_t i, int *q, size_t *esc,
                             size_t *end) {
  size_t k = 0, nx;
  int c;
  while ((c = rd(s, i, &nx)) == '\\' && k <= ESC_MAX) {
    i = nx;
    k++;
  }
  if ((c != '"' && c != '\'') || (k & (k + 1)) != 0) return 0;
  *q = c;
  *esc = k;
  *end = nx;
  return 1;
}

/* From i, inside a quote q opened with esc backslashes: the position where
** its closing delimiter (or the line, or the text) starts. A quote closes
** when the backslashes before it number esc modulo 2 * (esc + 1): for
** esc = 0 an even count, for \" one, five, nine... */
static inline size_t close_quote(const src *s, size_t i, int q, size_t esc) {
  size_t run = 0, run_at = i, nx;
  int c;
  while ((c = rd(s, i, &nx)) >= 0 && c != '\n') {
    if (c == q && run % (2 * (esc + 1)) == esc) return run ? run_at : i;
    if (c == '\\') {
      if (!run) run_at = i;
      run++;
    } else {
      run = 0;
    }
    i = nx;
  }
  return i;
}

/* The key = value rule (redact_kv.c). */
int redact_m_kv(const rule *r, const src *s, size_t i, hit *h, size_t *skip);

#endif
