/*
** json.c -- the scanner of the claim's JSON (see json.h). No recursion,
** no tree: a value's end is found by skipping strings whole and counting
** brackets; strings are decoded only when a field is wanted.
*/
#include "db/json.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

enum { IT_START, IT_IN, IT_DONE };

static const char *skip_ws(const char *p, const char *end) {
  while (p < end && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')) p++;
  return p;
}

/* Past the string token at p (a '"'), or NULL: unterminated, or a raw
** control byte inside (JSON requires those escaped). */
static const char *skip_string(const char *p, const char *end) {
  for (p++; p < end; p++) {
    unsigned char c = (unsigned char)*p;
    if (c == '"') return p + 1;
    if (c == '\\') {
      if (++p == end) return NULL;
    } else if (c < 0x20) {
      return NULL;
    }
  }
  return NULL;
}

static int scalar_byte(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
         (c >= 'A' && c <= 'Z') || c == '-' || c == '+' || c == '.';
}

/* Past the value at p, or NULL. */
static const char *skip_value(const char *p, const char *end) {
  if (p >= end) return NULL;
  if (*p == '"') return skip_string(p, end);
  if (*p == '{' || *p == '[') {
    size_t depth = 0;
    while (p < end) {
      char c = *p;
      if (c == '"') {
        if (!(p = skip_string(p, end))) return NULL;
        continue;
      }
      if (c == '{' || c == '[') depth++;
      else if ((c == '}' || c == ']') && --depth == 0) return p + 1;
      p++;
    }
    return NULL;
  }
  const char *s = p;
  while (p < end && scalar_byte(*p)) p++;
  return p > s ? p : NULL;
}

static json_span span(const char *from, const char *to) {
  return (json_span){from, (size_t)(to - from)};
}

void json_iter_init(json_iter *it, json_span text) {
  it->p = text.p;
  it->end = text.p + text.n;
  it->state = IT_START;
}

/* The walk ends malformed: -1, nothing found. */
static int iter_fail(json_iter *it, int *found) {
  it->state = IT_DONE;
  *found = 0;
  return -1;
}

/* To the start of the next item of the container open..close: 0 with
** *found (1: it->p is there; 0: after its last item), -1 malformed. */
static int next_item(json_iter *it, char open, char close, int *found) {
  *found = 0;
  if (it->state == IT_DONE) return 0;
  const char *p = skip_ws(it->p, it->end);
  int first = it->state == IT_START;
  if (first) {
    if (p == it->end || *p != open) return iter_fail(it, found);
    p = skip_ws(p + 1, it->end);
    it->state = IT_IN;
  }
  if (p < it->end && *p == close) {
    it->p = p + 1;
    it->state = IT_DONE;
    return 0;
  }
  if (!first) {
    if (p == it->end || *p != ',') return iter_fail(it, found);
    p = skip_ws(p + 1, it->end);
  }
  it->p = p;
  *found = 1;
  return 0;
}

int json_next_element(json_iter *it, json_span *elem, int *found) {
  if (next_item(it, '[', ']', found) != 0) return -1;
  if (!*found) return 0;
  const char *e = skip_value(it->p, it->end);
  if (!e) return iter_fail(it, found);
  *elem = span(it->p, e);
  it->p = e;
  return 0;
}

int json_next_element_members(json_iter *it, json_span *elem,
                              json_member_fn member, void *arg, int *found) {
  if (next_item(it, '[', ']', found) != 0) return -1;
  if (!*found) return 0;
  const char *start = it->p, *e = NULL;
  if (*start == '{') {
    json_iter o;
    json_span k, v;
    int m, more;
    json_iter_init(&o, span(start, it->end));
    while ((m = json_next_member(&o, &k, &v, &more)) == 0 && more)
      member(arg, k, v);
    if (m == 0) e = o.p; /* just past its '}' */
  }
  /* not an object, or malformed inside: its end by its brackets, as
  ** json_next_element finds it */
  if (!e) e = skip_value(start, it->end);
  if (!e) return iter_fail(it, found);
  *elem = span(start, e);
  it->p = e;
  return 0;
}

int json_next_member(json_iter *it, json_span *key, json_span *val,
                     int *found) {
  if (next_item(it, '{', '}', found) != 0) return -1;
  if (!*found) return 0;
  const char *p = it->p;
  const char *k = p < it->end && *p == '"' ? skip_string(p, it->end) : NULL;
  if (!k) return iter_fail(it, found);
  *key = span(p, k);
  p = skip_ws(k, it->end);
  if (p == it->end || *p != ':') return iter_fail(it, found);
  p = skip_ws(p + 1, it->end);
  const char *v = skip_value(p, it->end);
  if (!v) return iter_fail(it, found);
  *val = span(p, v);
  it->p = v;
  return 0;
}

int json_key_is(json_span key, const char *name) {
  size_t n = strlen(name);
  if (key.n < 2) return 0;
  if (!memchr(key.p, '\\', key.n))
    return key.n - 2 == n && memcmp(key.p + 1, name, n) == 0;
  char *k = json_string(key);
  int same = k && strcmp(k, name) == 0;
  free(k);
  return same;
}

static int hex4(const char *p, unsigned *out) {
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    char c = p[i];
    unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
                 : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                 : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10)
                                        : 16;
    if (d == 16) return -1;
    v = v * 16 + d;
  }
  *out = v;
  return 0;
}

static char *put_utf8(char *d, uint32_t cp) {
  if (cp < 0x80) {
    *d++ = (char)cp;
  } else if (cp < 0x800) {
    *d++ = (char)(0xC0 | (cp >> 6));
    *d++ = (char)(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    *d++ = (char)(0xE0 | (cp >> 12));
    *d++ = (char)(0x80 | ((cp >> 6) & 0x3F));
    *d++ = (char)(0x80 | (cp & 0x3F));
  } else {
    *d++ = (char)(0xF0 | (cp >> 18));
    *d++ = (char)(0x80 | ((cp >> 12) & 0x3F));
    *d++ = (char)(0x80 | ((cp >> 6) & 0x3F));
    *d++ = (char)(0x80 | (cp & 0x3F));
  }
  return d;
}

/* The code point of the \u escape at p (after "\u"), a surrogate pair
** read whole; *p moves past it. 0 on a bad or lone-surrogate escape. */
static uint32_t unicode_escape(const char **p, const char *end) {
  unsigned hi, lo;
  if (end - *p < 4 || hex4(*p, &hi)) return 0;
  *p += 4;
  if (hi >= 0xDC00 && hi <= 0xDFFF) return 0;
  if (hi < 0xD800 || hi > 0xDBFF) return hi;
  const char *q = *p;
  if (end - q < 6 || q[0] != '\\' || q[1] != 'u' || hex4(q + 2, &lo) ||
      lo < 0xDC00 || lo > 0xDFFF)
    return 0;
  *p += 6;
  return 0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
}

char *json_string(json_span v) {
  if (v.n < 2 || v.p[0] != '"' || skip_string(v.p, v.p + v.n) != v.p + v.n)
    return NULL;
  /* decoding never grows the text: an escape is longer than its bytes */
  char *out = xmalloc(v.n), *d = out;
  const char *p = v.p + 1, *end = v.p + v.n - 1;
  while (p < end) {
    if (*p != '\\') {
      *d++ = *p++;
      continue;
    }
    p++; /* skip_string checked: an escaped byte precedes the quote */
    char c = *p++;
    uint32_t cp;
    switch (c) {
      case '"':
      case '\\':
      case '/': *d++ = c; break;
      case 'b': *d++ = '\b'; break;
      case 'f': *d++ = '\f'; break;
      case 'n': *d++ = '\n'; break;
      case 'r': *d++ = '\r'; break;
      case 't': *d++ = '\t'; break;
      case 'u':
        if (!(cp = unicode_escape(&p, end))) goto bad;
        d = put_utf8(d, cp);
        break;
      default: goto bad;
    }
  }
  *d = 0;
  return out;
bad:
  free(out);
  return NULL;
}

int json_int64(json_span v, long long *out) {
  char buf[24];
  if (v.n == 0 || v.n >= sizeof buf) return -1;
  size_t i = v.p[0] == '-';
  if (i == v.n) return -1;
  for (size_t k = i; k < v.n; k++)
    if (v.p[k] < '0' || v.p[k] > '9') return -1;
  memcpy(buf, v.p, v.n);
  buf[v.n] = 0;
  char *e;
  errno = 0;
  long long x = strtoll(buf, &e, 10);
  if (*e || errno) return -1;
  *out = x;
  return 0;
}
