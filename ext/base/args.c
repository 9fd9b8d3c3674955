/*
** args.c -- argument checking and error reporting shared by the SQL
** functions. See args.h.
*/
#include "base/args.h"

#include "text/run_text.h"
#include "text/utf8.h"
#include "time/civil.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

SQLITE_EXTENSION_INIT3

const char *trg_errmsg(sqlite3 *db, int rc) {
  int ec = sqlite3_errcode(db);
  return ec == SQLITE_OK || ec == SQLITE_ROW || ec == SQLITE_DONE
             ? sqlite3_errstr(rc)
             : sqlite3_errmsg(db);
}

void trg_result_error(sqlite3_context *ctx, int code, const char *fname,
                      const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = sqlite3_vmprintf(fmt, ap);
  va_end(ap);
  char *full = msg ? sqlite3_mprintf("%s: %s", fname, msg) : NULL;
  if (!full) {
    sqlite3_result_error_nomem(ctx);
  } else {
    sqlite3_result_error(ctx, full, -1);
    if (code != SQLITE_ERROR) sqlite3_result_error_code(ctx, code);
  }
  sqlite3_free(msg);
  sqlite3_free(full);
}

int trg_refuse_in_preload(sqlite3_context *ctx, const char *fname) {
  const trg_ctx *c = sqlite3_user_data(ctx);
  if (!c->in_preload) return 0;
  trg_result_error(ctx, SQLITE_ERROR, fname,
                   "may not be called from preload_sql (a preload is a "
                   "read-only query; it may not call a function of "
                   "sqlite-triggers with side effects)");
  return -1;
}

int trg_int_of(sqlite3_value *v, i64 *out, int *is) {
  *is = 0;
  switch (sqlite3_value_type(v)) {
    case SQLITE_INTEGER:
      *out = sqlite3_value_int64(v);
      *is = 1;
      return SQLITE_OK;
    case SQLITE_FLOAT:
      *is = sched_ms_from_double(sqlite3_value_double(v), out);
      return SQLITE_OK;
    case SQLITE_TEXT: {
      /* SQLite's own affinity on a copy (the value may be unprotected). */
      sqlite3_value *d = sqlite3_value_dup(v);
      if (!d) return SQLITE_NOMEM;
      int t = sqlite3_value_numeric_type(d);
      if (t == SQLITE_INTEGER) {
        *out = sqlite3_value_int64(d);
        *is = 1;
      } else if (t == SQLITE_FLOAT) {
        *is = sched_ms_from_double(sqlite3_value_double(d), out);
      }
      sqlite3_value_free(d);
      return SQLITE_OK;
    }
    default: return SQLITE_OK;
  }
}

const char *trg_int_unit(const char *name) {
  size_t n = strlen(name);
  return n > 3 && strcmp(name + n - 3, "_ms") == 0 ? " number of milliseconds"
                                                   : "";
}

const char *trg_echo(const char *text, char *buf) {
  size_t n = strlen(text);
  if (n <= 60 && utf8_check(text, n, NULL)) return text;
  /* cut on a character boundary, bad bytes shown as U+FFFD: a message
  ** is valid text whatever it quotes */
  size_t len = run_text_clean(text, n, 60, buf);
  if (utf8_repair(text, n, NULL) > len) memcpy(buf + len, "...", 4);
  return buf;
}

int trg_errf(char **err, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  *err = sqlite3_vmprintf(fmt, ap);
  va_end(ap);
  return *err ? SQLITE_ERROR : SQLITE_NOMEM;
}

int trg_instant_of(sqlite3_value *v, int pos, const char *name, i64 *out,
                   char **err) {
  char msg[SCHED_ERR_MAX];
  int t = sqlite3_value_type(v);
  *err = NULL;
  if (t == SQLITE_NULL) {
    return trg_errf(err, "argument %d (%s) must not be NULL", pos + 1, name);
  }
  if (t == SQLITE_BLOB) {
    return trg_errf(err,
                    "argument %d (%s) must be an integer (ms) or "
                    "ISO-8601 text",
                    pos + 1, name);
  }
  /* INTEGER, a whole REAL, or integer-valued text ('1767225600000'): ms */
  int num;
  if (trg_int_of(v, out, &num) != SQLITE_OK) return SQLITE_NOMEM;
  if (num) {
    if (sched_instant_check(*out, msg, sizeof msg) == 0) return SQLITE_OK;
    return trg_errf(err, "argument %d (%s): %s", pos + 1, name, msg);
  }
  if (t == SQLITE_FLOAT) {
    return trg_errf(err,
                    "argument %d (%s): %g is not a whole number of "
                    "ms within the years %d-%d",
                    pos + 1, name, sqlite3_value_double(v), CIVIL_MIN_YEAR,
                    CIVIL_MAX_YEAR);
  }
  char what[80];
  const char *text;
  sqlite3_snprintf(sizeof what, what, "argument %d (%s)", pos + 1, name);
  int rc = trg_value_text(v, 0, what, &text, err);
  if (rc != SQLITE_OK) return rc;
  if (sched_parse_instant(text, tz_utc(), out, msg, sizeof msg) == 0) {
    return SQLITE_OK;
  }
  return trg_errf(err, "argument %d (%s): cannot read '%s' as an instant: %s",
                  pos + 1, name, text, msg);
}

int trg_arg_instant(sqlite3_context *ctx, const char *fname, int argc,
                    sqlite3_value **argv, int pos, const char *name,
                    int allow_default, i64 *out) {
  if (allow_default &&
      (pos >= argc || sqlite3_value_type(argv[pos]) == SQLITE_NULL)) {
    *out = trg_wall_clock_ms();
    return 0;
  }
  char *err;
  int rc = trg_instant_of(argv[pos], pos, name, out, &err);
  if (rc == SQLITE_OK) return 0;
  trg_result_error(ctx, rc, fname, "%s", err ? err : sqlite3_errstr(rc));
  sqlite3_free(err);
  return -1;
}

const char *trg_arg_text(sqlite3_context *ctx, const char *fname,
                         sqlite3_value **argv, int pos, const char *name) {
  if (sqlite3_value_type(argv[pos]) != SQLITE_TEXT) {
    trg_result_error(ctx, SQLITE_MISMATCH, fname,
                     "argument %d (%s) must be text", pos + 1, name);
    return NULL;
  }
  char what[80], *err;
  const char *t;
  sqlite3_snprintf(sizeof what, what, "argument %d (%s)", pos + 1, name);
  int rc = trg_value_text(argv[pos], 0, what, &t, &err);
  if (rc == SQLITE_OK) return t;
  trg_result_error(ctx, rc, fname, "%s", err ? err : sqlite3_errstr(rc));
  sqlite3_free(err);
  return NULL;
}

int trg_arg_zone(sqlite3_context *ctx, const char *fname, int argc,
                 sqlite3_value **argv, int pos, const char *def,
                 const tz_zone **z, const char **canon) {
  trg_ctx *c = sqlite3_user_data(ctx);
  const char *name = def, *spelled;
  if (pos < argc && sqlite3_value_type(argv[pos]) != SQLITE_NULL) {
    if (!(name = trg_arg_text(ctx, fname, argv, pos, "tz"))) return -1;
  }
  char msg[160];
  if (trg_zone_canon(c, name, z, &spelled, msg, sizeof msg) != 0) {
    trg_result_error(ctx, SQLITE_ERROR, fname, "argument %d (tz): %s", pos + 1,
                     msg);
    return -1;
  }
  if (canon) *canon = spelled;
  return 0;
}

int trg_text_check(const char *t, size_t n, int json, const char *what,
                   char **err) {
  utf8_err e;
  *err = NULL;
  if (json ? utf8_json_check(t, n, &e) : utf8_check(t, n, &e)) {
    return SQLITE_OK;
  }
  char why[UTF8_DESCRIBE_MAX];
  utf8_describe(&e, t, why, sizeof why);
  if (e.key_len) {
    return trg_errf(err, "%s.%.*s%s: %s", what,
                    utf8_prefix(t + e.key_at, e.key_len, 64), t + e.key_at,
                    e.in_key ? " (in a key)" : "", why);
  }
  return trg_errf(err, "%s%s: %s", what, e.in_key ? " (in a key)" : "", why);
}

int trg_value_text(sqlite3_value *v, int json, const char *what,
                   const char **out, char **err) {
  *err = NULL;
  *out = (const char *)sqlite3_value_text(v);
  if (!*out) return SQLITE_NOMEM;
  return trg_text_check(*out, (size_t)sqlite3_value_bytes(v), json, what, err);
}

char *trg_text_repair(const char *t, size_t n, int json) {
  size_t len = json ? utf8_json_repair(t, n, NULL) : utf8_repair(t, n, NULL);
  char *z = sqlite3_malloc64(len + 1);
  if (!z) return NULL;
  if (json) utf8_json_repair(t, n, z);
  else utf8_repair(t, n, z);
  z[len] = 0;
  return z;
}

void trg_result_str(sqlite3_context *ctx, sqlite3_str *s) {
  int rc = sqlite3_str_errcode(s);
  char *z = sqlite3_str_finish(s);
  if (rc != SQLITE_OK || !z) {
    sqlite3_free(z);
    if (rc == SQLITE_TOOBIG) sqlite3_result_error_toobig(ctx);
    else sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, z, -1, sqlite3_free);
}
