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

/* Streams the canonical text either into a buffer or into a hash. */
typedef struct sink {
  char *buf;
  size_t n, len;
  sha256_ctx *hash;
} sink;

static void put(sink *s, const char *p, size_t k) {
  if (s->hash) sha256_update(s->hash, p, k);
  for (size_t i = 0; i < k; i++, s->len++) {
    if (s->buf && s->len + 1 < s->n) s->buf[s->len] = p[i];
  }
}

static void put_json_string(sink *s, const char *str, int normalize) {
  put(s, "\"", 1);
  const unsigned char *p = (const unsigned char *)str;
  int pending_space = 0, started = 0;
  for (; *p; p++) {
    unsigned char c = *p;
    if (normalize) {
      if (is_ascii_space(c)) {
        pending_space = started;
        continue;
      }
      if (pending_space) put(s, " ", 1);
      pending_space = 0;
      started = 1;
      if (c >= 'A' && c <= 'Z') c = (unsigned char)(c - 'A' + 'a');
    }
    char esc[8];
    switch (c) {
      case '"': put(s, "\\\"", 2); break;
      case '\\': put(s, "\\\\", 2); break;
      case '\n': put(s, "\\n", 2); break;
      case '\r': put(s, "\\r", 2); break;
      case '\t': put(s, "\\t", 2); break;
      default:
        if (c < 0x20) {
          snprintf(esc, sizeof esc, "\\u%04x", c);
          put(s, esc, 6);
        } else {
          put(s, (const char *)&c, 1);
        }
    }
  }
  put(s, "\"", 1);
}

static void canonical(sink *s, const char *instructions, const char *type,
                      const char *schedule, const char *scope) {
  put(s, "[\"tdk1\",", 8);
  put_json_string(s, instructions ? instructions : "", 1);
  put(s, ",", 1);
  put_json_string(s, type ? type : "", 0);
  put(s, ",", 1);
  put_json_string(s, schedule ? schedule : "", 0);
  put(s, ",", 1);
  put_json_string(s, scope ? scope : "", 0);
  put(s, "]", 1);
}

size_t dedupe_canonical_text(const char *instructions, const char *type,
                             const char *schedule, const char *scope, char *out,
                             size_t n) {
  sink s = {out, n, 0, NULL};
  canonical(&s, instructions, type, schedule, scope);
  if (n) out[s.len < n ? s.len : n - 1] = 0;
  return s.len;
}

void dedupe_key(const char *instructions, const char *type,
                const char *schedule, const char *scope, char *key) {
  sha256_ctx h;
  unsigned char d[32];
  sink s = {NULL, 0, 0, &h};
  sha256_init(&h);
  canonical(&s, instructions, type, schedule, scope);
  sha256_final(&h, d);
  /* NOLINTNEXTLINE(bugprone-not-null-terminated-result): sha256_hex ends it */
  memcpy(key, "tdk1:", 5);
  sha256_hex(d, 16, key + 5);
}
