/*
** utf8.c -- validating, describing and repairing UTF-8 text and JSON
** texts. See utf8.h.
**
** One walk serves the five entry points: it copies each valid character
** (to dst, or only counts it), and at a problem records the first one and
** either stops (check) or writes the replacement and goes on (repair; a
** JSON mark, another replacement inside strings). For
** JSON it also follows strings, escapes and the top-level object's keys,
** so a message can name the member that holds the problem.
*/
#include "text/utf8.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static const char REPLACEMENT[] = "\xEF\xBF\xBD"; /* U+FFFD */
static const char MARK[] = "\xEF\xBF\xBE";        /* U+FFFE: utf8_json_mark */

static int is_cont(unsigned char c) { return (c & 0xC0) == 0x80; }

size_t utf8_char(const unsigned char *s, size_t n, size_t *bad,
                 utf8_problem *why) {
  unsigned char c = s[0];
  /* The second byte of some lead bytes has a narrower range; a
  ** continuation byte outside it is the `off` problem. */
  unsigned char lo = 0x80, hi = 0xBF;
  utf8_problem off = UTF8_OK;
  size_t need;
  *bad = 1;
  if (c == 0) {
    *why = UTF8_NUL;
    return 0;
  }
  if (c < 0x80) return 1;
  if (c < 0xC0) {
    *why = UTF8_CONTINUATION;
    return 0;
  }
  if (c < 0xC2) { /* C0, C1: a 2-byte encoding of U+0000..U+007F */
    *why = UTF8_OVERLONG;
    return 0;
  }
  if (c < 0xE0) {
    need = 1;
  } else if (c < 0xF0) {
    need = 2;
    if (c == 0xE0) lo = 0xA0, off = UTF8_OVERLONG;
    if (c == 0xED) hi = 0x9F, off = UTF8_SURROGATE;
  } else if (c < 0xF5) {
    need = 3;
    if (c == 0xF0) lo = 0x90, off = UTF8_OVERLONG;
    if (c == 0xF4) hi = 0x8F, off = UTF8_TOO_BIG;
  } else {
    *why = c < 0xF8 ? UTF8_TOO_BIG : UTF8_NEVER;
    return 0;
  }
  if (n > 1 && is_cont(s[1]) && (s[1] < lo || s[1] > hi)) {
    *why = off;
    return 0;
  }
  for (size_t k = 1; k <= need; k++) {
    if (k >= n || !is_cont(s[k])) {
      *bad = k; /* the lead byte and the continuation bytes it had */
      *why = UTF8_TRUNCATED;
      return 0;
    }
  }
  return need + 1;
}

/* Where a JSON walk is: in a string or not (a key of the top-level object,
** or a key of an object inside it), nesting depth, which of the first 64
** levels are objects, and the key of the top-level member being read. */
typedef struct jstate {
  int in_str, str_is_key, str_is_inner_key, expect_key, top_obj;
  size_t depth, str_at, key_at, key_len;
  uint64_t objects; /* bit d: the container at depth d + 1 is an object */
} jstate;

/* 1 when the container the walk is in is an object (beyond 64 levels: not
** known, 0: a problem there is reported under its top-level member). */
static int in_object(const jstate *j) {
  return j->depth >= 1 && j->depth <= 64 &&
         ((j->objects >> (j->depth - 1)) & 1) != 0;
}

static void json_track(jstate *j, unsigned char c, size_t i) {
  if (j->in_str) {
    if (c == '"') {
      j->in_str = 0;
      if (j->str_is_key) j->key_at = j->str_at, j->key_len = i - j->str_at;
    }
    return;
  }
  switch (c) {
    case '"':
      j->in_str = 1;
      j->str_at = i + 1;
      j->str_is_key = j->depth == 1 && j->expect_key;
      j->str_is_inner_key = j->depth > 1 && j->expect_key;
      j->expect_key = 0;
      break;
    case '{':
    case '[':
      if (j->depth < 64) {
        uint64_t bit = (uint64_t)1 << j->depth;
        j->objects = c == '{' ? j->objects | bit : j->objects & ~bit;
      }
      if (j->depth++ == 0 && c == '{') j->top_obj = 1;
      j->expect_key = c == '{';
      break;
    case '}':
    case ']':
      if (j->depth) j->depth--;
      j->expect_key = 0;
      break;
    case ',': j->expect_key = in_object(j); break;
    default: break;
  }
}

/* Four hex digits at p (n bytes left) -> 0..0xFFFF, or -1. */
static long hex4(const unsigned char *p, size_t n) {
  long v = 0;
  if (n < 4) return -1;
  for (int i = 0; i < 4; i++) {
    unsigned char c = p[i];
    int d = c >= '0' && c <= '9'   ? c - '0'
            : c >= 'a' && c <= 'f' ? c - 'a' + 10
            : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                   : -1;
    if (d < 0) return -1;
    v = v * 16 + d;
  }
  return v;
}

/* The escape at s[i] (a backslash inside a string): its length, and the
** problem it is (UTF8_OK when it is fine). */
static size_t escape_at(const unsigned char *s, size_t n, size_t i,
                        utf8_problem *why) {
  *why = UTF8_OK;
  long cp = i + 1 < n && s[i + 1] == 'u' ? hex4(s + i + 2, n - i - 2) : -1;
  if (cp < 0) {
    /* \n, \" ...: the backslash and the ASCII byte after it; anything
    ** else is the JSON parser's to refuse. */
    return i + 1 < n && s[i + 1] > 0 && s[i + 1] < 0x80 ? 2 : 1;
  }
  if (cp == 0) {
    *why = UTF8_ESC_NUL;
  } else if (cp >= 0xD800 && cp <= 0xDBFF) {
    long low = i + 7 < n && s[i + 6] == '\\' && s[i + 7] == 'u'
                   ? hex4(s + i + 8, n - i - 8)
                   : -1;
    if (low >= 0xDC00 && low <= 0xDFFF) return 12; /* a pair */
    *why = UTF8_ESC_SURROGATE;
  } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
    *why = UTF8_ESC_SURROGATE;
  }
  return 6;
}

typedef struct out {
  char *dst; /* NULL: only count */
  size_t len;
} out;

static void put(out *o, const void *p, size_t n) {
  if (o->dst) memcpy(o->dst + o->len, p, n);
  o->len += n;
}

/* Record the problem in e (if any): the first, since a walk given an e
** stops at it (a repair passes none). */
static void note(utf8_err *e, const jstate *j, utf8_problem what, size_t at,
                 size_t len) {
  if (!e) return;
  e->what = what;
  e->at = at;
  e->len = len;
  if (j->in_str && j->str_is_key) {
    e->in_key = 1;
  } else if (j->depth >= 1) {
    e->key_at = j->key_at;
    e->key_len = j->key_len;
    e->in_key = j->in_str && j->str_is_inner_key;
  }
}

/* What a walk does at a problem. */
typedef enum walk_mode {
  WALK_CHECK,  /* record the first one in e and stop */
  WALK_REPAIR, /* write U+FFFD (\ufffd for a bad escape) and go on */
  WALK_MARK    /* JSON: inside a string write U+FFFE (\ufffe) and go on;
                  outside one record it in e and stop */
} walk_mode;

/* The walk (see the header comment). Returns the length of the output. */
static size_t walk(const char *text, size_t n, int json, walk_mode mode,
                   utf8_err *e, char *dst) {
  const unsigned char *s = (const unsigned char *)text;
  out o = {dst, 0};
  jstate j;
  memset(&j, 0, sizeof j);
  if (e) memset(e, 0, sizeof *e);
  size_t i = 0;
  while (i < n) {
    unsigned char c = s[i];
    size_t k;
    utf8_problem why;
    if (c == 0 || c >= 0x80) {
      size_t bad;
      if ((k = utf8_char(s + i, n - i, &bad, &why)) > 0) {
        put(&o, s + i, k);
        i += k;
        continue;
      }
      if (mode == WALK_CHECK || (mode == WALK_MARK && !j.in_str)) {
        note(e, &j, why, i, bad);
        return o.len;
      }
      put(&o, mode == WALK_MARK ? MARK : REPLACEMENT, 3);
      i += bad;
      continue;
    }
    if (json && j.in_str && c == '\\') {
      k = escape_at(s, n, i, &why);
      if (why == UTF8_OK) {
        put(&o, s + i, k);
      } else if (mode == WALK_CHECK) {
        note(e, &j, why, i, k);
        return o.len;
      } else {
        put(&o, mode == WALK_MARK ? "\\ufffe" : "\\ufffd", 6);
      }
      i += k;
      continue;
    }
    if (json) json_track(&j, c, i);
    put(&o, s + i, 1);
    i++;
  }
  return o.len;
}

int utf8_check(const char *s, size_t n, utf8_err *e) {
  utf8_err mine;
  if (!e) e = &mine;
  /* Most text is ASCII without NUL: nothing to walk. Eight bytes at a
  ** time while none has its high bit set or is zero (a busy tick checks
  ** every text of every row it reads: bench/README.md). */
  const uint64_t high = 0x8080808080808080u, ones = 0x0101010101010101u;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w;
    memcpy(&w, s + i, 8);
    if ((w & high) || ((w - ones) & ~w & high)) break;
  }
  while (i < n && s[i] != 0 && (unsigned char)s[i] < 0x80) i++;
  if (i == n) {
    memset(e, 0, sizeof *e);
    return 1;
  }
  walk(s, n, 0, WALK_CHECK, e, NULL);
  return e->what == UTF8_OK;
}

int utf8_json_check(const char *s, size_t n, utf8_err *e) {
  utf8_err mine;
  if (!e) e = &mine;
  walk(s, n, 1, WALK_CHECK, e, NULL);
  return e->what == UTF8_OK;
}

size_t utf8_repair(const char *s, size_t n, char *dst) {
  return walk(s, n, 0, WALK_REPAIR, NULL, dst);
}

size_t utf8_json_repair(const char *s, size_t n, char *dst) {
  return walk(s, n, 1, WALK_REPAIR, NULL, dst);
}

size_t utf8_json_mark(const char *s, size_t n, char *dst, utf8_err *e) {
  utf8_err mine;
  if (!e) e = &mine;
  memset(e, 0, sizeof *e);
  return walk(s, n, 1, WALK_MARK, e, dst);
}

char *utf8_describe(const utf8_err *e, const char *s, char *buf, size_t n) {
  static const char *const why[] = {
      [UTF8_CONTINUATION] = "a continuation byte without a lead byte",
      [UTF8_NEVER] = "a byte that never appears in UTF-8",
      [UTF8_OVERLONG] = "an overlong encoding",
      [UTF8_SURROGATE] = "an encoded surrogate, U+D800..U+DFFF",
      [UTF8_TOO_BIG] = "above U+10FFFF",
      [UTF8_TRUNCATED] = "a truncated sequence",
  };
  const unsigned char *p = (const unsigned char *)s + e->at;
  char hex[24] = "";
  switch (e->what) {
    case UTF8_OK: snprintf(buf, n, "valid text"); break;
    case UTF8_NUL:
      snprintf(buf, n, "a NUL byte at byte %zu (text may not contain NUL)",
               e->at);
      break;
    case UTF8_ESC_NUL:
      snprintf(buf, n,
               "the escape %.6s at byte %zu is a NUL (text may not contain "
               "NUL)",
               (const char *)p, e->at);
      break;
    case UTF8_ESC_SURROGATE:
      snprintf(buf, n,
               "the escape %.6s at byte %zu is a lone surrogate (only a "
               "high surrogate followed by a low one is a character)",
               (const char *)p, e->at);
      break;
    default:
      for (size_t k = 0; k < e->len && k < 4; k++) {
        size_t m = strlen(hex);
        snprintf(hex + m, sizeof hex - m, "%s0x%02x", k ? " " : "", p[k]);
      }
      snprintf(buf, n, "not valid UTF-8 at byte %zu (%s: %s)", e->at, hex,
               why[e->what]);
      break;
  }
  return buf;
}

int utf8_prefix(const char *s, size_t n, size_t max) {
  if (n <= max) return (int)n;
  while (max > 0 && is_cont((unsigned char)s[max])) max--;
  return (int)max;
}

void utf8_cut_tail(char *s) {
  size_t n = strlen(s), k = n;
  while (k > 0 && n - k < 4 && is_cont((unsigned char)s[k - 1])) k--;
  if (k == 0) return;
  size_t bad;
  utf8_problem why;
  if (!utf8_char((const unsigned char *)s + k - 1, n - k + 1, &bad, &why) &&
      why == UTF8_TRUNCATED && k - 1 + bad == n) {
    s[k - 1] = 0;
  }
}
