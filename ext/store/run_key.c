/*
** run_key.c -- a run's key read back from its run_id (run_key.h). The part
** after the run_id's last '@' holds no '@' (docs/tables.md#the-trigger_runs-table),
** so the trigger_id is everything before it, whatever it contains.
*/
#include "store/run_key.h"

#include <string.h>

SQLITE_EXTENSION_INIT3

/* An optionally negative decimal integer at *p within the range of i64;
** *p moved past it. 0 when there is none. */
static int read_int(const char **p, i64 *out) {
  const char *s = *p;
  int neg = *s == '-';
  if (neg) s++;
  uint64_t v = 0, max = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
  const char *digits = s;
  for (; *s >= '0' && *s <= '9'; s++) {
    unsigned d = (unsigned)(*s - '0');
    if (v > (max - d) / 10) return 0;
    v = v * 10 + d;
  }
  if (s == digits) return 0;
  *out = neg ? (i64)(0 - v) : (i64)v;
  *p = s;
  return 1;
}

int store_run_key_parse(const char *run_id, store_run_key *k) {
  const char *at = run_id ? strrchr(run_id, '@') : NULL;
  if (!at) return 0;
  const char *p = at + 1;
  k->trigger_id = run_id;
  k->trigger_id_len = (int)(at - run_id);
  k->incarnation = 1;
  if (!read_int(&p, &k->scheduled_for) || *p++ != '#' ||
      !read_int(&p, &k->attempt))
    return 0;
  if (*p == '~') {
    p++;
    if (!read_int(&p, &k->incarnation)) return 0;
  }
  return *p == '\0';
}

int store_run_key_bind(sqlite3_stmt *st, int first, const store_run_key *k) {
  int rc = sqlite3_bind_text(st, first, k->trigger_id, k->trigger_id_len,
                             SQLITE_TRANSIENT);
  if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, first + 1, k->incarnation);
  if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, first + 2, k->scheduled_for);
  if (rc == SQLITE_OK) rc = sqlite3_bind_int64(st, first + 3, k->attempt);
  return rc;
}
