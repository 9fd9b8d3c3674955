/*
** json_shape.c -- see json_shape.h: a strict, conservative scan of one
** JSON object. Each step returns the position after what it read, or
** NULL for "not sure" (the caller then asks SQLite).
*/
#include "text/json_shape.h"

#include <string.h>

static const char *ws(const char *p) {
  while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
  return p;
}

static int is_hex(char c) {
  return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') ||
         (c >= 'A' && c <= 'F');
}

/* A string token at p (p[0] == '"'). */
static const char *string(const char *p) {
  for (p++;; p++) {
    unsigned char c = (unsigned char)*p;
    if (c == '"') return p + 1;
    if (c < 0x20) return NULL; /* a control character, or the text's end */
    if (c != '\\') continue;
    c = (unsigned char)*++p;
    if (c == 'u') {
      for (int i = 1; i <= 4; i++)
        if (!is_hex(p[i])) return NULL;
      p += 4;
    } else if (!strchr("\"\\/bfnrt", c) || c == 0) {
      return NULL;
    }
  }
}

/* An integer: -?(0|[1-9][0-9]*), not followed by a fraction or exponent. */
static const char *integer(const char *p) {
  if (*p == '-') p++;
  if (*p == '0') p++;
  else if (*p >= '1' && *p <= '9')
    while (*p >= '0' && *p <= '9') p++;
  else return NULL;
  return *p == '.' || *p == 'e' || *p == 'E' || (*p >= '0' && *p <= '9') ? NULL
                                                                         : p;
}

static const char *literal(const char *p, const char *word) {
  size_t n = strlen(word);
  return strncmp(p, word, n) == 0 ? p + n : NULL;
}

static const char *value(const char *p, int depth);

/* An object or array at p (its bracket), its members or elements. */
static const char *container(const char *p, int depth) {
  if (depth >= JSON_SHAPE_DEPTH) return NULL;
  int obj = *p == '{';
  char close = obj ? '}' : ']';
  p = ws(p + 1);
  if (*p == close) return p + 1;
  for (;;) {
    if (obj) {
      if (*p != '"' || !(p = string(p))) return NULL;
      p = ws(p);
      if (*p != ':') return NULL;
      p = ws(p + 1);
    }
    if (!(p = value(p, depth + 1))) return NULL;
    p = ws(p);
    if (*p == close) return p + 1;
    if (*p != ',') return NULL;
    p = ws(p + 1);
  }
}

static const char *value(const char *p, int depth) {
  switch (*p) {
    case '{':
    case '[': return container(p, depth);
    case '"': return string(p);
    case 't': return literal(p, "true");
    case 'f': return literal(p, "false");
    case 'n': return literal(p, "null");
    default: return integer(p);
  }
}

int json_shape_object(const char *s) {
  if (!s) return 0;
  const char *p = ws(s);
  if (*p != '{' || !(p = container(p, 0))) return 0;
  return *ws(p) == 0;
}

/* The string token at p decoded into dst (room for cap bytes with its
** NUL): its end, or NULL when it holds a \u escape or does not fit. */
static const char *decode(const char *p, char *dst, size_t cap) {
  const char *end = string(p);
  if (!end) return NULL;
  size_t n = 0;
  for (p++; p < end - 1; p++) {
    char c = *p;
    if (c == '\\') {
      /* string() let through only these escapes and \u */
      static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
      if (*++p == 'u') return NULL;
      c = to[strchr(from, *p) - from];
    }
    if (n + 1 >= cap) return NULL;
    dst[n++] = c;
  }
  dst[n] = 0;
  return end;
}

int json_shape_flat_array(const char *s, const json_shape_walk *w) {
  if (!s || w->cap < 2) return 0;
  const char *p = ws(s);
  if (*p++ != '[') return 0;
  p = ws(p);
  if (*p == ']') return *ws(p + 1) == 0;
  size_t half = w->cap / 2; /* key in the first half, value in the second */
  for (;;) {
    if (*p++ != '{') return 0;
    w->elem(w->arg);
    p = ws(p);
    if (*p == '}') {
      p++;
    } else {
      for (;;) {
        const char *val = NULL;
        if (*p != '"' || !(p = decode(p, w->buf, half))) return 0;
        p = ws(p);
        if (*p != ':') return 0;
        p = ws(p + 1);
        if (*p == '"') {
          if (!(p = decode(p, w->buf + half, w->cap - half))) return 0;
          val = w->buf + half;
        } else if (!(p = literal(p, "null"))) {
          return 0;
        }
        if (!w->member(w->arg, w->buf, val)) return 0;
        p = ws(p);
        if (*p == '}') break;
        if (*p++ != ',') return 0;
        p = ws(p);
      }
      p++;
    }
    p = ws(p);
    if (*p == ']') return *ws(p + 1) == 0;
    if (*p++ != ',') return 0;
    p = ws(p);
  }
}
