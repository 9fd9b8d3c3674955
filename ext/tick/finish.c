/*
** finish.c -- see finish.h: a host's report of one run's end, from the
** run's row to its trigger's counters, in one transaction (or SAVEPOINT).
*/
#include "tick/finish.h"

#include <string.h>

#include "store/run_rows.h"
#include "store/stored.h"
#include "text/run_text.h"
#include "tick/call.h"
#include "tick/lifecycle.h"
#include "tick/quarantine.h"
#include "tick/write_behind.h"
#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

int tick_finish_status_ok(const char *s) {
  return strcmp(s, "success") == 0 || strcmp(s, "failed") == 0 ||
         strcmp(s, "skipped") == 0 || strcmp(s, "deferred") == 0 ||
         strcmp(s, "cancelled") == 0;
}

/* The detail as stored (run_text.h): valid UTF-8, and for a result at
** most TRG_RESULT_MAX bytes; NULL stays NULL. An sqlite3_malloc'd copy in
** *out; SQLITE_NOMEM. */
static int clean_detail(const char *detail, size_t n, int is_result,
                        char **out) {
  *out = NULL;
  if (!detail) return SQLITE_OK;
  size_t cap = 3 * n; /* each byte -> U+FFFD at most */
  if (is_result && cap > TRG_RESULT_MAX) cap = TRG_RESULT_MAX;
  if (!(*out = sqlite3_malloc64(cap + 1))) return SQLITE_NOMEM;
  run_text_clean(detail, n, cap, *out);
  return SQLITE_OK;
}

int tick_finish_detail(const char *status, const char *detail, size_t n,
                       char **error, char **result) {
  int failed = strcmp(status, "failed") == 0;
  *error = *result = NULL;
  return clean_detail(detail, n, !failed, failed ? error : result);
}

/* The work on a running run and its trigger r (NULL when deleted or
** another incarnation, run_trigger_load). why: what store_run_check found
** wrong with the run, or NULL; taken. error / result: the detail as
** tick_finish_detail made it. A run that cannot be used is closed as
** failed and its trigger paused; a trigger that cannot (trigger_check) gets
** the run as reported, without retry, and is paused. */
static int finish_run(tick *t, trg_run *run, trg_row *r, char *why,
                      const char *status, const char *error,
                      const char *result) {
  int rc = SQLITE_OK;
  if (why) {
    char *closing =
        sqlite3_mprintf("%s; run closed (reported: %s)", why, status);
    rc = closing
             ? store_run_close(t->call.st, run->id, "failed", closing, t->now)
             : SQLITE_NOMEM;
    sqlite3_free(closing);
    if (rc == SQLITE_OK && r) return tick_quarantine(t, r, why, NULL, 1);
    sqlite3_free(why);
    return rc;
  }
  sched_spec spec;
  if (r && (rc = tick_row_check(t, r, &spec, 0, &why)) != SQLITE_OK) return rc;
  trg_row *usable = why ? NULL : r;
  if (t->usage && (rc = trg_val_set_text(&run->v[RC_USAGE], t->usage)))
    return rc;
  int failed = strcmp(status, "failed") == 0;
  /* a run whose cancel was asked for and that failed (its command
  ** stopped) is cancelled: never retried (docs/reactive.md#cancel) */
  if (strcmp(status, "cancelled") == 0 ||
      (failed && !run->v[RC_CANCEL_REQUESTED_AT].null)) {
    rc = trg_val_set_text(&run->v[RC_RESULT], result ? result : error);
    if (rc == SQLITE_OK) rc = tick_run_cancelled(t, run, usable);
  } else if (failed && usable) {
    rc = tick_fail_run(t->call.st, usable, run, t->now,
                       error ? error : "failed", 1);
  } else {
    int deferred = strcmp(status, "deferred") == 0;
    trg_val_set_text(&run->v[RC_STATUS], status);
    trg_val_set_text(&run->v[RC_ERROR], failed && !error ? "failed" : error);
    trg_val_set_text(&run->v[RC_RESULT], result);
    if (deferred) {
      trg_val_set_int(&run->v[RC_RETRY_AT], t->now); /* re-offer next tick */
      trg_val_set_int(&run->v[RC_DEFERRALS], run->v[RC_DEFERRALS].i + 1);
    } else {
      tick_run_ended(run, t->now);
    }
    rc = deferred ? store_run_save(t->call.st, run)
                  : store_run_save_end(t->call.st, run);
    if (usable) {
      tick_note_finish(usable, t->now, status, error);
      if (strcmp(status, "success") == 0) tick_occurrence_done(usable, 1, NULL);
      if (strcmp(status, "skipped") == 0) tick_unclaim(usable, &spec, t->now);
      if (rc == SQLITE_OK) rc = tick_settle(t->call.st, usable);
    }
  }
  if (rc == SQLITE_OK && usable) rc = tick_wb_write_trigger(t, usable);
  if (rc == SQLITE_OK) {
    rc = tick_chain(t, trg_val_text(&run->v[RC_TRIGGER_ID]),
                    trg_val_text(&run->v[RC_STATUS]));
  }
  if (rc == SQLITE_OK && why) return tick_quarantine(t, r, why, NULL, 1);
  sqlite3_free(why);
  return rc;
}

int tick_run_cancelled(tick *t, trg_run *run, trg_row *r) {
  int was_running = strcmp(trg_val_text(&run->v[RC_STATUS]), "running") == 0;
  trg_val_set_text(&run->v[RC_STATUS], "cancelled");
  int rc = run->v[RC_ERROR].null
               ? trg_val_set_text(&run->v[RC_ERROR], "cancelled")
               : SQLITE_OK;
  trg_val_set_null(&run->v[RC_RETRY_AT]);
  if (!run->v[RC_CLAIMED_AT].null) tick_run_ended(run, t->now);
  else trg_val_set_int(&run->v[RC_FINISHED_AT], t->now);
  if (rc == SQLITE_OK) rc = store_run_save(t->call.st, run);
  if (rc == SQLITE_OK && r) {
    if (was_running) tick_note_finish(r, t->now, "cancelled", NULL);
    rc = tick_settle(t->call.st, r);
  }
  return rc;
}

/* The run as loaded, refused when it is already finished. */
int tick_refuse_finished(tick *t, const char *run_id, const trg_run *run) {
  char b1[STORED_SHOWN + 4], b2[STORED_SHOWN + 4];
  t->err =
      sqlite3_mprintf("run '%s' is already finished (%s%s%s)", run_id,
                      store_stored_shown(run->v[RC_STATUS].t, b1),
                      run->v[RC_ERROR].null ? "" : ": ",
                      store_stored_shown(trg_val_text(&run->v[RC_ERROR]), b2));
  return t->err ? SQLITE_ERROR : SQLITE_NOMEM;
}

int tick_finish_find(tick *t, const char *run_id, trg_run *run, trg_row *r,
                     int *have, char **why) {
  *have = 0;
  *why = NULL;
  int found = store_run_load(t->call.st, run_id, run);
  if (found == SQLITE_DONE) {
    t->err = sqlite3_mprintf("unknown run_id '%s'", run_id);
    return t->err ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  if (found != SQLITE_ROW) return found;
  int rc = tick_run_check(t, run, why);
  const trg_val *rs = &run->v[RC_STATUS];
  if (rc == SQLITE_OK && !rs->bad && strcmp(rs->t, "running") != 0 &&
      (!*why || store_run_status_known(rs->t))) {
    sqlite3_free(*why);
    *why = NULL;
    return tick_refuse_finished(t, run_id, run);
  }
  /* A run of a deleted trigger (or of an earlier incarnation of its id)
  ** is finished alone. */
  found = rc == SQLITE_OK ? tick_run_trigger_load(t->call.st, run, r) : rc;
  *have = found == SQLITE_ROW;
  if (found == SQLITE_ROW || found == SQLITE_DONE) return SQLITE_OK;
  sqlite3_free(*why);
  *why = NULL;
  return found;
}

/* The body of tick_finish, inside its transaction. */
static int finish_in_txn(tick *t, const char *run_id, const char *status,
                         const char *error, const char *result,
                         sqlite3_str *json, trg_run *run, trg_row *r) {
  int have;
  char *why; /* what is wrong with the run as stored */
  int rc = tick_finish_find(t, run_id, run, r, &have, &why);
  if (rc != SQLITE_OK) return rc;
  t->narrow = 1; /* only the columns a run's end changes: as the tick */
  rc = finish_run(t, run, have ? r : NULL, why, status, error, result);
  if (rc == SQLITE_OK && json) { /* its trigger's JSON; null when gone */
    if (have) trigger_json(json, r);
    else sqlite3_str_appendall(json, "null");
  }
  return rc;
}

int tick_finish_in(tick *t, const char *run_id, const char *status,
                   const char *error, const char *result, sqlite3_str *json) {
  trg_run run;
  trg_row r;
  memset(&run, 0, sizeof run);
  trg_row_init(&r);
  int rc = finish_in_txn(t, run_id, status, error, result, json, &run, &r);
  trg_run_clear(&run);
  trg_row_clear(&r);
  return rc;
}

int tick_finish(tick *t, const char *run_id, const char *status,
                const char *error, const char *result, sqlite3_str *json) {
  store_txn txn;
  int rc = store_call_txn_begin(&t->call, &txn);
  if (rc == SQLITE_OK) {
    rc = tick_finish_in(t, run_id, status, error, result, json);
    store_call_stmts_done(&t->call);
    rc = tick_txn_end(t, &txn, rc);
  }
  return rc;
}
