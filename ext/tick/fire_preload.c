/*
** fire_preload.c -- see fire_preload.h. A row is a JSON object of its
** columns by name: INTEGER and REAL as numbers (an infinity as 9.0e+999,
** as json1 writes it), TEXT as a string (invalid UTF-8 and NUL repaired
** to U+FFFD), a BLOB as the string of its hex digits (hex()), NULL as
** null. Rows are added while the array's text stays within
** preload_max_bytes; the first that does not fit, or one past
** PRELOAD_MAX_ROWS, ends it with preloadTruncated.
*/
#include "tick/fire_preload.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/args.h"
#include "base/json_out.h"
#include "store/preload_sql.h"
#include "text/coverage.h"
#include "text/utf8.h"

SQLITE_EXTENSION_INIT3

/* Text p[0..n) (NUL-terminated at n) as a JSON string. */
static int put_text(sqlite3_str *o, const char *p, size_t n) {
  if (utf8_check(p, n, NULL)) {
    json_str(o, p);
    return SQLITE_OK;
  }
  char *fixed = trg_text_repair(p, n, 0);
  if (!fixed) return SQLITE_NOMEM;
  json_str(o, fixed);
  sqlite3_free(fixed);
  return SQLITE_OK;
}

static void put_real(sqlite3_str *o, double r) {
  char buf[40];
  if (NEVER(isnan(r))) { /* SQLite keeps a NaN as NULL */
    sqlite3_str_append(o, "null", 4);
    return;
  }
  if (isinf(r)) {
    sqlite3_str_appendall(o, r < 0 ? "-9.0e+999" : "9.0e+999");
    return;
  }
  sqlite3_snprintf(sizeof buf, buf, "%!.15g", r);
  if (strtod(buf, NULL) != r) sqlite3_snprintf(sizeof buf, buf, "%!.17g", r);
  sqlite3_str_appendall(o, buf);
}

static void put_hex(sqlite3_str *o, const unsigned char *p, int n) {
  static const char digits[] = "0123456789ABCDEF";
  sqlite3_str_appendchar(o, 1, '"');
  for (int i = 0; i < n; i++) {
    char two[2] = {digits[p[i] >> 4], digits[p[i] & 15]};
    sqlite3_str_append(o, two, 2);
  }
  sqlite3_str_appendchar(o, 1, '"');
}

/* The current row as a JSON object into o: SQLITE_OK or SQLITE_NOMEM. */
static int put_row(sqlite3_str *o, store *s) {
  int n = store_preload_ncol(s), rc = SQLITE_OK;
  sqlite3_str_appendchar(o, 1, '{');
  for (int i = 0; i < n && rc == SQLITE_OK; i++) {
    store_preload_val v;
    rc = store_preload_col(s, i, &v);
    if (i) sqlite3_str_appendchar(o, 1, ',');
    if (rc == SQLITE_OK) rc = put_text(o, v.name, strlen(v.name));
    sqlite3_str_appendchar(o, 1, ':');
    if (rc != SQLITE_OK) break;
    switch (v.type) {
      case SQLITE_INTEGER:
        sqlite3_str_appendf(o, "%lld", (long long)v.i);
        break;
      case SQLITE_FLOAT: put_real(o, v.r); break;
      case SQLITE_TEXT: rc = put_text(o, v.p, (size_t)v.n); break;
      case SQLITE_BLOB: put_hex(o, (const unsigned char *)v.p, v.n); break;
      default: sqlite3_str_append(o, "null", 4); break;
    }
  }
  sqlite3_str_appendchar(o, 1, '}');
  return rc == SQLITE_OK && sqlite3_str_errcode(o) ? SQLITE_NOMEM : rc;
}

/* The rows of the started query into arr ("[...]"), bounded; *truncated
** when a bound cut rows off. SQLITE_OK, SQLITE_ERROR with *why, or a
** fatal code (store_preload_step). */
static int read_rows(store *s, i64 max_bytes, sqlite3_str *arr,
                     sqlite3_str *row, int *truncated, char **why) {
  int nrows = 0, rc;
  sqlite3_str_appendchar(arr, 1, '[');
  while ((rc = store_preload_step(s, why)) == SQLITE_ROW) {
    if (nrows == PRELOAD_MAX_ROWS) {
      *truncated = 1;
      break;
    }
    sqlite3_str_reset(row);
    if (put_row(row, s) != SQLITE_OK) return SQLITE_NOMEM;
    i64 len = (i64)sqlite3_str_length(arr) + (nrows > 0) +
              sqlite3_str_length(row) + 1;
    if (len > max_bytes) {
      *truncated = 1;
      break;
    }
    if (nrows++) sqlite3_str_appendchar(arr, 1, ',');
    sqlite3_str_append(arr, sqlite3_str_value(row), sqlite3_str_length(row));
  }
  sqlite3_str_appendchar(arr, 1, ']');
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* *payload without its closing brace, then the keys in out, then "}",
** into the arena. */
static int merge(tick *t, char **payload, sqlite3_str *keys) {
  size_t n = strlen(*payload);
  if (n == 0 || (*payload)[n - 1] != '}') return SQLITE_OK; /* not ours */
  if (sqlite3_str_errcode(keys)) return SQLITE_NOMEM;
  size_t k = (size_t)sqlite3_str_length(keys);
  char *out = trg_arena_alloc(&t->mem, n + k + 1);
  if (!out) return SQLITE_NOMEM;
  memcpy(out, *payload, n - 1);
  memcpy(out + n - 1, sqlite3_str_value(keys), k);
  out[n - 1 + k] = '}';
  out[n + k] = 0;
  *payload = out;
  return SQLITE_OK;
}

int tick_preload_payload(tick *t, trg_row *r, char **payload) {
  i64 max_bytes;
  int on;
  int rc = store_preload_ready(t->call.st, &max_bytes, &on);
  if (rc != SQLITE_OK || !on) return rc;
  store_preload_args a = {
      trg_val_text(&r->v[TC_SCOPE]), trg_val_text(&r->v[TC_TRIGGER_ID]),
      trg_val_text(&r->v[TC_AGENT_ID]), t->now, t->call.ctx};
  sqlite3_str *arr = sqlite3_str_new(t->call.db),
              *keys = sqlite3_str_new(t->call.db);
  char *why = NULL;
  int truncated = 0;
  rc = store_preload_open(t->call.st, &a, &why);
  if (rc == SQLITE_OK)
    rc = read_rows(t->call.st, max_bytes, arr, keys, &truncated, &why);
  store_preload_close(t->call.st);
  sqlite3_str_reset(keys);
  if (rc == SQLITE_OK) {
    sqlite3_str_appendall(keys, ",\"preload\":");
    sqlite3_str_append(keys, sqlite3_str_value(arr), sqlite3_str_length(arr));
    if (truncated) sqlite3_str_appendall(keys, ",\"preloadTruncated\":true");
    rc = sqlite3_str_errcode(arr) ? SQLITE_NOMEM : SQLITE_OK;
  } else if (rc == SQLITE_ERROR && why) {
    sqlite3_str_appendall(keys, ",\"preloadError\":");
    rc = put_text(keys, why, strlen(why));
  }
  if (rc == SQLITE_OK) rc = merge(t, payload, keys);
  sqlite3_free(why);
  sqlite3_free(sqlite3_str_finish(arr));
  sqlite3_free(sqlite3_str_finish(keys));
  return rc;
}
