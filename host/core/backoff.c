/*
** backoff.c -- the wait and the log decision of a repeated failure (see
** backoff.h). A message is compared by an FNV-1a hash of its text, so
** nothing is copied or freed.
*/
#include "core/backoff.h"

#include <string.h>

static uint64_t text_hash(const char *s) {
  uint64_t h = 14695981039346656037ULL;
  for (; s && *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ULL;
  return h;
}

backoff_step backoff_failed(backoff *b, const char *msg, int64_t now_ms,
                            int64_t first_ms, int64_t cap_ms) {
  backoff_step s = {0, 0, 0};
  int64_t wait = b->wait_ms ? b->wait_ms * 2 : first_ms;
  if (wait > cap_ms) wait = cap_ms;
  if (wait < 1) wait = 1;
  uint64_t h = text_hash(msg);
  s.log = b->failures == 0 || h != b->logged_msg ||
          now_ms - b->logged_at >= BACKOFF_LOG_MS;
  b->failures++;
  b->wait_ms = s.wait_ms = wait;
  if (!s.log) {
    b->unlogged++;
    return s;
  }
  s.unlogged = b->unlogged;
  b->unlogged = 0;
  b->logged_at = now_ms;
  b->logged_msg = h;
  return s;
}

long backoff_ok(backoff *b) {
  long n = b->failures;
  memset(b, 0, sizeof *b);
  return n;
}
