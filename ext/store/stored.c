/*
** stored.c -- values read back from the shadow tables (see stored.h):
** messages for a value of the wrong type or range, and the check of a
** run row before the tick or trigger_run_finish uses it.
**
** A run row is never written through a virtual table (trigger_runs takes
** only DELETE), so its check is the one place that says what a run may
** hold: the values the tick itself writes (ext/tick/).
*/
#include "store/stored.h"

#include "base/args.h"
#include "store/json.h"
#include "text/utf8.h"

#include <stdarg.h>
#include <string.h>

SQLITE_EXTENSION_INIT3

const char *store_stored_shown(const char *t, char buf[STORED_SHOWN + 4]) {
  size_t n = strlen(t);
  if (n <= STORED_SHOWN && utf8_check(t, n, NULL)) return t;
  /* whole characters while they fit, each invalid sequence as U+FFFD */
  size_t i = 0, o = 0;
  while (i < n) {
    size_t bad;
    utf8_problem why;
    size_t k = utf8_char((const unsigned char *)t + i, n - i, &bad, &why);
    size_t w = k ? k : 3;
    if (o + w > STORED_SHOWN) break;
    memcpy(buf + o, k ? t + i : "\xEF\xBF\xBD", w);
    o += w;
    i += k ? k : bad;
  }
  if (i < n) memcpy(buf + o, "...", 3), o += 3;
  buf[o] = 0;
  return buf;
}

int store_stored_text_repair(trg_val *v, char *why) {
  if (v->bad != TRG_BAD_TEXT || !v->t) return SQLITE_OK;
  if (why) {
    utf8_err e;
    utf8_check(v->t, (size_t)v->i, &e);
    utf8_describe(&e, v->t, why, UTF8_DESCRIBE_MAX);
  }
  int rc = trg_val_set_owned(v, trg_text_repair(v->t, (size_t)v->i, 0));
  v->bad = TRG_BAD_TEXT; /* still a value the extension never wrote */
  return rc;
}

int store_stored_err(char **err, const char *table, const char *column,
                     const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char *msg = sqlite3_vmprintf(fmt, ap);
  va_end(ap);
  *err = msg ? sqlite3_mprintf("%s.%s: %s", table, column, msg) : NULL;
  sqlite3_free(msg);
  return *err ? SQLITE_CONSTRAINT_CHECK : SQLITE_NOMEM;
}

const char *store_stored_type_word(int t) {
  switch (t) {
    case SQLITE_INTEGER: return "an integer";
    case SQLITE_FLOAT: return "a real";
    case SQLITE_TEXT: return "text";
    case SQLITE_BLOB: return "a blob";
    default: return "NULL";
  }
}

int store_stored_type_error(char **err, const char *table,
                            const store_coldef *d, int type, const char *text,
                            int stored) {
  char buf[STORED_SHOWN + 4];
  const char *want = d->kind == 'T' || d->kind == 'J' ? "text"
                     : d->kind != 'S'                 ? "an integer"
                     : stored                         ? "an integer (ms)"
                              : "an integer (ms) or ISO-8601 text";
  if (!text || (type != SQLITE_TEXT && type != SQLITE_FLOAT)) {
    return store_stored_err(err, table, d->name, "must be %s, got %s", want,
                            store_stored_type_word(type));
  }
  return store_stored_err(
      err, table, d->name,
      type == SQLITE_TEXT ? "must be %s, got %s '%s'" : "must be %s, got %s %s",
      want, store_stored_type_word(type), store_stored_shown(text, buf));
}

int store_stored_texts_repair(trg_val *v, int n, int *first, char *why) {
  *first = -1;
  for (int i = 0; i < n; i++) {
    if (!v[i].bad) continue;
    int rc = store_stored_text_repair(&v[i], *first < 0 ? why : NULL);
    if (rc != SQLITE_OK) return rc;
    if (*first < 0) *first = i;
  }
  return SQLITE_OK;
}

/* ---- run rows ---------------------------------------------------------- */

#define RUNS "triggers_rundata"

static const char *const run_statuses[] = {"running",  "success",  "failed",
                                           "skipped",  "deferred", "expired",
                                           "cancelled"};

int store_run_status_known(const char *status) {
  for (size_t i = 0; i < sizeof run_statuses / sizeof run_statuses[0]; i++) {
    if (strcmp(status, run_statuses[i]) == 0) return 1;
  }
  return 0;
}

void store_run_statuses_sql(sqlite3_str *s) {
  for (size_t i = 0; i < sizeof run_statuses / sizeof run_statuses[0]; i++) {
    sqlite3_str_appendf(s, "%s'%s'", i ? ", " : "", run_statuses[i]);
  }
}

/* A counter of the run within min..TRG_COUNT_MAX (adding one is safe). */
static int run_count_check(const trg_run *run, int col, i64 min, char **err) {
  i64 n = run->v[col].i;
  if (n >= min && n <= TRG_COUNT_MAX) return SQLITE_OK;
  return store_stored_err(err, RUNS, store_run_cols[col].name,
                          "must be within %lld..%lld, got %lld", (long long)min,
                          (long long)TRG_COUNT_MAX, (long long)n);
}

int store_run_check(store *s, trg_run *run, char **err) {
  static const int required[] = {RC_RUN_ID,  RC_TRIGGER_ID, RC_AGENT_ID,
                                 RC_STATUS,  RC_PAYLOAD,    RC_SCHEDULED_FOR,
                                 RC_ATTEMPT, RC_DEFERRALS,  RC_INCARNATION};
  static const int instants[] = {RC_SCHEDULED_FOR, RC_CLAIMED_AT,
                                 RC_LEASE_UNTIL,   RC_FINISHED_AT,
                                 RC_RETRY_AT,      RC_CANCEL_REQUESTED_AT};
  const trg_val *v = run->v;
  char why[UTF8_DESCRIBE_MAX];
  int bad;
  *err = NULL;
  int rc = store_stored_texts_repair(run->v, RC_NCOL, &bad, why);
  if (rc != SQLITE_OK) return rc;
  if (bad >= 0 && v[bad].bad == TRG_BAD_TEXT)
    return store_stored_err(err, RUNS, store_run_cols[bad].name, "%s", why);
  if (bad >= 0)
    return store_stored_type_error(err, RUNS, &store_run_cols[bad], v[bad].bad,
                                   v[bad].t, 1);
  for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
    if (v[required[i]].null) {
      return store_stored_err(err, RUNS, store_run_cols[required[i]].name,
                              "must not be NULL");
    }
  }
  for (size_t i = 0; i < sizeof instants / sizeof instants[0]; i++) {
    const trg_val *x = &v[instants[i]];
    char msg[SCHED_ERR_MAX];
    if (!x->null && sched_instant_check(x->i, msg, sizeof msg) != 0) {
      return store_stored_err(err, RUNS, store_run_cols[instants[i]].name, "%s",
                              msg);
    }
  }
  rc = run_count_check(run, RC_ATTEMPT, 1, err);
  if (rc == SQLITE_OK) rc = run_count_check(run, RC_DEFERRALS, 0, err);
  if (rc == SQLITE_OK) rc = run_count_check(run, RC_INCARNATION, 1, err);
  if (rc != SQLITE_OK) return rc;
  /* NULL: claimed before schema version 4 (a heartbeat then renews by
  ** lease_until - claimed_at); else what a claim's lease_ms option takes */
  const trg_val *lease = &v[RC_LEASE_MS];
  if (!lease->null && (lease->i < 1 || lease->i > SCHED_SPAN_MAX)) {
    return store_stored_err(err, RUNS, "lease_ms",
                            "must be within 1..%lld, got %lld",
                            (long long)SCHED_SPAN_MAX, (long long)lease->i);
  }
  const char *st = v[RC_STATUS].t;
  if (!store_run_status_known(st)) {
    char buf[STORED_SHOWN + 4];
    return store_stored_err(
        err, RUNS, "status",
        "'%s' is not one of 'running', 'success', 'failed', "
        "'skipped', 'deferred', 'expired', 'cancelled'",
        store_stored_shown(st, buf));
  }
  if (strcmp(st, "running") == 0) { /* claimed, with a lease */
    if (v[RC_CLAIMED_AT].null)
      return store_stored_err(err, RUNS, "claimed_at", "NULL on a running run");
    if (v[RC_LEASE_UNTIL].null)
      return store_stored_err(err, RUNS, "lease_until",
                              "NULL on a running run");
  }
  int ok;
  if (store_json_is_object(s, v[RC_PAYLOAD].t, &ok) != SQLITE_OK)
    return SQLITE_NOMEM;
  if (!ok)
    return store_stored_err(err, RUNS, "payload", "must be a JSON object");
  if (!v[RC_USAGE].null) {
    if (store_json_is_object(s, v[RC_USAGE].t, &ok) != SQLITE_OK)
      return SQLITE_NOMEM;
    if (!ok)
      return store_stored_err(err, RUNS, "usage", "must be a JSON object");
  }
  return SQLITE_OK;
}
