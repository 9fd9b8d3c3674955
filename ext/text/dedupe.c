/*
** dedupe.c -- canonical text and stable hash of a trigger's identity
** (instructions, type, schedule, scope). See dedupe.h for the format.
*/
#include "text/dedupe.h"

#include <stdio.h>
#include <string.h>

#include "text/sha256.h"

static int is_ascii_space(unsigned char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' ||
         c == '\f';
}

size_t dedupe_normalize(const char *in, char *out, size_t n) {
  size_t len = 0;
  int pending_space = 0;
  const unsigned char *p = (const unsigned char *)in;
  while (*p && is_ascii_space(*p)) p++;
  for (; *p; p++) {
    if (is_ascii_space(*p)) {
      pending_space = 1;
      continue;
    }
    if (pending_space) {
      if (len + 1 < n) out[len] = ' ';
      len++;
      pending_space = 0;
    }
    unsigned char c = *p;
    if (c >= 'A' && c <= 'Z') c = (unsigned char)(c - 'A' + 'a');
    if (len + 1 < n) out[len] = (char)c;
    len++;
  }
  if (n) out[len < n ? len : n - 1] = 0;
  return len;
}

/* Streams the canonical text either into a buffer or into a hash (a key
** is computed on every INSERT INTO triggers: in pieces, see chunk). */
typedef struct sink {
  char *buf;
  size_t n, len;
  sha256_ctx *hash;
} sink;

static void put(sink *s, const char *p, size_t k) {
  if (s->hash) sha256_update(s->hash, p, k);
  if (s->buf && s->len + 1 < s->n) {
    size_t room = s->n - 1 - s->len;
    memcpy(s->buf + s->len, p, k < room ? k : room);
  }
  s->len += k;
}

/* The canonical text of one string is gathered in a chunk and put in
** pieces of up to 256 bytes, not byte by byte. */
typedef struct chunk {
  sink *s;
  size_t k;
  char b[256];
} chunk;

static void chunk_put(chunk *c, const char *p, size_t k) {
  while (c->k + k > sizeof c->b) {
    size_t room = sizeof c->b - c->k;
    memcpy(c->b + c->k, p, room);
    put(c->s, c->b, sizeof c->b);
    c->k = 0;
    p += room;
    k -= room;
  }
  memcpy(c->b + c->k, p, k);
  c->k += k;
}

/* A byte the canonical text keeps as it is (normalize: the
** instructions, whose white space and ASCII capitals change). */
static int kept_as_is(unsigned char ch, int normalize) {
  if (ch < 0x20 || ch == '"' || ch == '\\') return 0;
  return !normalize || (ch != ' ' && !(ch >= 'A' && ch <= 'Z'));
}

/* The JSON escaping of str (no quotes) into c. */
static void json_body(chunk *c, const char *str, int normalize) {
  const unsigned char *p = (const unsigned char *)str;
  int pending_space = 0, started = 0;
  while (*p) {
    const unsigned char *run = p;
    while (kept_as_is(*p, normalize)) p++;
    if (p > run) {
      if (pending_space) chunk_put(c, " ", 1);
      pending_space = 0;
      started = 1;
      chunk_put(c, (const char *)run, (size_t)(p - run));
      continue;
    }
    unsigned char ch = *p++;
    if (normalize) {
      if (is_ascii_space(ch)) {
        pending_space = started;
        continue;
      }
      if (pending_space) chunk_put(c, " ", 1);
      pending_space = 0;
      started = 1;
      if (ch >= 'A' && ch <= 'Z') ch = (unsigned char)(ch - 'A' + 'a');
    }
    char esc[8];
    switch (ch) {
      case '"': chunk_put(c, "\\\"", 2); break;
      case '\\': chunk_put(c, "\\\\", 2); break;
      case '\n': chunk_put(c, "\\n", 2); break;
      case '\r': chunk_put(c, "\\r", 2); break;
      case '\t': chunk_put(c, "\\t", 2); break;
      default:
        if (ch < 0x20) {
          snprintf(esc, sizeof esc, "\\u%04x", ch);
          chunk_put(c, esc, 6);
        } else {
          chunk_put(c, (const char *)&ch, 1); /* a lowered capital */
        }
    }
  }
}

/* One field as a JSON string; zone (not NULL) follows after a space. */
static void put_json_string(sink *s, const char *str, int normalize,
                            const char *zone) {
  chunk c;
  c.s = s;
  c.k = 0;
  chunk_put(&c, "\"", 1);
  json_body(&c, str, normalize);
  if (zone) {
    chunk_put(&c, " ", 1);
    json_body(&c, zone, 0);
  }
  chunk_put(&c, "\"", 1);
  put(s, c.b, c.k);
}

static void canonical(sink *s, const char *instructions, const char *type,
                      const char *schedule, const char *tz, const char *scope) {
  put(s, "[\"tdk2\",", 8);
  /* a cron's or rrule's schedule is followed by its zone (none: UTC) */
  const char *zone = NULL;
  if (type && (strcmp(type, "cron") == 0 || strcmp(type, "rrule") == 0))
    zone = tz && *tz ? tz : "UTC";
  put_json_string(s, instructions ? instructions : "", 1, NULL);
  put(s, ",", 1);
  put_json_string(s, type ? type : "", 0, NULL);
  put(s, ",", 1);
  put_json_string(s, schedule ? schedule : "", 0, zone);
  put(s, ",", 1);
  put_json_string(s, scope ? scope : "", 0, NULL);
  put(s, "]", 1);
}

size_t dedupe_canonical_text(const char *instructions, const char *type,
                             const char *schedule, const char *tz,
                             const char *scope, char *out, size_t n) {
  sink s = {out, n, 0, NULL};
  canonical(&s, instructions, type, schedule, tz, scope);
  if (n) out[s.len < n ? s.len : n - 1] = 0;
  return s.len;
}

void dedupe_key(const char *instructions, const char *type,
                const char *schedule, const char *tz, const char *scope,
                char *key) {
  sha256_ctx h;
  unsigned char d[32];
  sink s = {NULL, 0, 0, &h};
  sha256_init(&h);
  canonical(&s, instructions, type, schedule, tz, scope);
  sha256_final(&h, d);
  /* NOLINTNEXTLINE(bugprone-not-null-terminated-result): sha256_hex ends it */
  memcpy(key, DEDUPE_PREFIX, 5);
  sha256_hex(d, 16, key + 5);
}
