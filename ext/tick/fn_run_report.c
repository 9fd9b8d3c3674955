/*
** fn_run_report.c -- what a host reports about a run it claimed:
** trigger_run_finish(run_id, status [, detail [, now]]), its end (success,
** failed with a retry when attempts remain, skipped, deferred), and
** trigger_run_heartbeat(run_id [, lease_ms [, now]]), that it is still
** working (its lease renewed). A host finishes its runs one call each,
** often many in one transaction of its own: the connection's kept
** statements (and SAVEPOINT) serve.
*/
#include <string.h>

#include "base/args.h"
#include "base/register.h"
#include "store/run_rows.h"
#include "store/stored.h"
#include "text/run_text.h"
#include "tick/call.h"
#include "tick/lifecycle.h"
#include "tick/quarantine.h"
#include "tick/write_behind.h"
#include "time/civil.h"
#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

static int is_run_status(const char *s) {
  return strcmp(s, "success") == 0 || strcmp(s, "failed") == 0 ||
         strcmp(s, "skipped") == 0 || strcmp(s, "deferred") == 0;
}

/* The detail of trigger_run_finish as stored (run_text.h): valid UTF-8,
** and for a result at most TRG_RESULT_MAX bytes; NULL stays NULL. An
** sqlite3_malloc'd copy in *out; SQLITE_NOMEM. */
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

/* trigger_run_finish's work on a running run and its trigger r (NULL when
** deleted or another incarnation, run_trigger_load). why: what run_check
** found wrong with the run, or NULL; taken. error / result: the detail
** as clean_detail made it (error for a failed run, result for another).
** A run that cannot be used is closed as failed and its trigger paused;
** a trigger that cannot (trg_check) gets the run as reported, without
** retry, and is paused. */
static int finish_run(tick *t, run_row *run, trg_row *r, char *why,
                      const char *status, const char *error,
                      const char *result) {
  int rc = SQLITE_OK;
  if (why) {
    char *closing =
        sqlite3_mprintf("%s; run closed (reported: %s)", why, status);
    rc = closing ? store_run_close(t->st, run->id, "failed", closing, t->now)
                 : SQLITE_NOMEM;
    sqlite3_free(closing);
    if (rc == SQLITE_OK && r) return tick_quarantine(t, r, why, NULL, 1);
    sqlite3_free(why);
    return rc;
  }
  sched_spec spec;
  if (r && (rc = tick_row_check(t, r, &spec, 0, &why)) != SQLITE_OK) return rc;
  trg_row *usable = why ? NULL : r;
  int failed = strcmp(status, "failed") == 0;
  if (failed && usable) {
    rc = tick_fail_run(t->st, usable, run, t->now, error ? error : "failed", 1);
  } else {
    int deferred = strcmp(status, "deferred") == 0;
    val_set_text(&run->v[RC_STATUS], status);
    val_set_text(&run->v[RC_ERROR], failed && !error ? "failed" : error);
    val_set_text(&run->v[RC_RESULT], result);
    if (deferred) {
      val_set_int(&run->v[RC_RETRY_AT], t->now); /* re-offer next tick */
      val_set_int(&run->v[RC_DEFERRALS], run->v[RC_DEFERRALS].i + 1);
    } else {
      val_set_int(&run->v[RC_FINISHED_AT], t->now);
      val_set_int(&run->v[RC_LATENCY_MS], t->now - run->v[RC_CLAIMED_AT].i);
    }
    rc = store_run_save(t->st, run);
    if (usable) {
      tick_note_finish(usable, t->now, status, error);
      if (strcmp(status, "success") == 0) tick_occurrence_done(usable, 1, NULL);
      if (strcmp(status, "skipped") == 0) tick_unclaim(usable, &spec, t->now);
      if (rc == SQLITE_OK) rc = tick_settle(t->st, usable);
    }
  }
  if (rc == SQLITE_OK && usable) rc = wb_write_trigger(t, usable);
  if (rc == SQLITE_OK && why) return tick_quarantine(t, r, why, NULL, 1);
  sqlite3_free(why);
  return rc;
}

/* A host finishes its runs one call each, often many in one transaction
** of its own: the connection's cached statements (and SAVEPOINT) serve. */
static void fn_run_finish(sqlite3_context *ctx, int argc,
                          sqlite3_value **argv) {
  tick t;
  if (tick_begin(&t, ctx, "trigger_run_finish") != 0) return;
  run_row run;
  trg_row r;
  memset(&run, 0, sizeof run);
  row_init(&r);
  const char *run_id = arg_text(ctx, t.fname, argv, 0, "run_id");
  const char *status =
      run_id ? arg_text(ctx, t.fname, argv, 1, "status") : NULL;
  const char *detail = NULL;
  size_t detail_len = 0;
  char *error = NULL, *result = NULL; /* the detail, as one or the other */
  if (!status) goto out;
  if (!is_run_status(status)) {
    trg_result_error(ctx, SQLITE_ERROR, t.fname,
                     "argument 2 (status): '%s' is not one of 'success', "
                     "'failed', 'skipped', 'deferred'",
                     status);
    goto out;
  }
  if (argc > 2 && sqlite3_value_type(argv[2]) != SQLITE_NULL) {
    /* A host's report is never refused for its bytes: repaired instead
    ** (a BLOB too: a command's raw output passed as it came). */
    int type = sqlite3_value_type(argv[2]);
    if (type != SQLITE_TEXT && type != SQLITE_BLOB) {
      trg_result_error(ctx, SQLITE_MISMATCH, t.fname,
                       "argument 3 (detail) must be text");
      goto out;
    }
    detail = (const char *)sqlite3_value_text(argv[2]);
    detail_len = (size_t)sqlite3_value_bytes(argv[2]);
    if (!detail) {
      sqlite3_result_error_nomem(ctx);
      goto out;
    }
  }
  if (arg_instant(ctx, t.fname, argc, argv, 3, "now", 1, &t.now) != 0) goto out;
  int failed = strcmp(status, "failed") == 0;
  if (clean_detail(detail, detail_len, !failed, failed ? &error : &result) !=
      SQLITE_OK) {
    sqlite3_result_error_nomem(ctx);
    goto out;
  }
  t.out = sqlite3_str_new(t.db);
  tick_cache_take(&t);
  store_txn txn;
  int rc = tick_txn_begin(&t, &txn);
  if (rc == SQLITE_OK) {
    int found = store_run_load(t.st, run_id, &run);
    char *why = NULL; /* what is wrong with the run as stored */
    if (found == SQLITE_ROW) rc = tick_run_check(&t, &run, &why);
    const trg_val *rs = &run.v[RC_STATUS];
    if (found == SQLITE_DONE) {
      t.err = sqlite3_mprintf("unknown run_id '%s'", run_id);
      rc = SQLITE_ERROR;
    } else if (found != SQLITE_ROW) {
      rc = found;
    } else if (rc == SQLITE_OK && !rs->bad && strcmp(rs->t, "running") != 0 &&
               (!why || run_status_known(rs->t))) {
      char b1[STORED_SHOWN + 4], b2[STORED_SHOWN + 4];
      t.err = sqlite3_mprintf("run '%s' is already finished (%s%s%s)", run_id,
                              stored_shown(rs->t, b1),
                              run.v[RC_ERROR].null ? "" : ": ",
                              stored_shown(val_text(&run.v[RC_ERROR]), b2));
      rc = SQLITE_ERROR;
    } else if (rc == SQLITE_OK) {
      /* A run of a deleted trigger (or of an earlier incarnation of its
      ** id) is finished alone: the result is JSON null. */
      found = tick_run_trigger_load(t.st, &run, &r);
      int have = found == SQLITE_ROW;
      t.narrow = 1; /* only the columns a run's end changes: as the tick */
      if (have) tick_snapshot(&t, &r);
      if (found != SQLITE_ROW && found != SQLITE_DONE) rc = found;
      if (rc == SQLITE_OK) {
        rc = finish_run(&t, &run, have ? &r : NULL, why, status, error, result);
        why = NULL;
      }
      if (rc == SQLITE_OK) {
        if (have) trg_json(t.out, &r);
        else sqlite3_str_appendall(t.out, "null");
      }
    }
    sqlite3_free(why);
    tick_stmts_done(&t);
    rc = tick_txn_end(&t, &txn, rc);
  }
  tick_result(&t, ctx, rc);
out:
  tick_cache_give(&t);
  sqlite3_free(error);
  sqlite3_free(result);
  run_clear(&run);
  row_clear(&r);
  tick_end(&t);
}

/* The lease length a heartbeat renews by default: the claim's (rows
** claimed before schema version 4 have no lease_ms: their lease as
** claimed, never renewed then). */
static i64 claim_lease_ms(const run_row *run) {
  if (!run->v[RC_LEASE_MS].null && run->v[RC_LEASE_MS].i > 0)
    return run->v[RC_LEASE_MS].i;
  i64 ms = run->v[RC_LEASE_UNTIL].i - run->v[RC_CLAIMED_AT].i;
  return ms > 0 ? ms : TRG_DEFAULT_LEASE_MS;
}

/* Load run run_id and check it as stored (run_check): SQLITE_OK, or an
** error (t->err: unknown run_id, or a value changed outside the extension,
** refused until it is fixed; the tick closes such a run when it reads it). */
static int run_find(tick *t, const char *run_id, run_row *run) {
  int found = store_run_load(t->st, run_id, run);
  if (found == SQLITE_DONE) {
    t->err = sqlite3_mprintf("unknown run_id '%s'", run_id);
    return SQLITE_ERROR;
  }
  if (found != SQLITE_ROW) return found;
  char *why = NULL;
  int rc = run_check(t->st, run, &why);
  if (!why) return rc;
  t->err = sqlite3_mprintf("run '%s' holds a value changed outside the "
                           "extension: %s (fix it in the shadow table first)",
                           run_id, why);
  sqlite3_free(why);
  return t->err ? SQLITE_CONSTRAINT_CHECK : SQLITE_NOMEM;
}

/* Extend the lease of a running run to now + lease_ms (0: the claim's);
** refused for a run not running or whose lease passed at or before now
** (the tick reclaims exactly those). */
static int renew_lease(tick *t, run_row *run, const char *run_id,
                       i64 lease_ms) {
  const char *status = val_text(&run->v[RC_STATUS]);
  if (strcmp(status, "running") != 0) {
    t->err = sqlite3_mprintf("run '%s' is not running (%s%s%s)", run_id, status,
                             run->v[RC_ERROR].null ? "" : ": ",
                             val_text(&run->v[RC_ERROR]));
    return SQLITE_ERROR;
  }
  i64 until = run->v[RC_LEASE_UNTIL].i;
  if (run->v[RC_LEASE_UNTIL].null || until <= t->now) {
    char was[CIVIL_ISO_MAX], now[CIVIL_ISO_MAX];
    tick_iso_utc(until, was);
    tick_iso_utc(t->now, now);
    t->err =
        sqlite3_mprintf("run '%s': its lease passed at %s (now %s); "
                        "the next tick reclaims it",
                        run_id, run->v[RC_LEASE_UNTIL].null ? "?" : was, now);
    return SQLITE_ERROR;
  }
  val_set_int(&run->v[RC_LEASE_UNTIL],
              t->now + (lease_ms ? lease_ms : claim_lease_ms(run)));
  return store_run_save(t->st, run);
}

static void fn_run_heartbeat(sqlite3_context *ctx, int argc,
                             sqlite3_value **argv) {
  tick t;
  if (tick_begin(&t, ctx, "trigger_run_heartbeat") != 0) return;
  run_row run;
  memset(&run, 0, sizeof run);
  i64 lease_ms = 0;
  const char *run_id = arg_text(ctx, t.fname, argv, 0, "run_id");
  if (!run_id) goto out;
  if (argc > 1 && sqlite3_value_type(argv[1]) != SQLITE_NULL) {
    lease_ms = sqlite3_value_int64(argv[1]);
    if (sqlite3_value_type(argv[1]) != SQLITE_INTEGER || lease_ms < 1 ||
        lease_ms > SCHED_SPAN_MAX) {
      trg_result_error(ctx, SQLITE_MISMATCH, t.fname,
                       "argument 2 (lease_ms) must be an integer 1..%lld",
                       (long long)SCHED_SPAN_MAX);
      goto out;
    }
  }
  if (arg_instant(ctx, t.fname, argc, argv, 2, "now", 1, &t.now) != 0) goto out;
  t.out = sqlite3_str_new(t.db);
  tick_cache_take(&t);
  store_txn txn;
  int rc = tick_txn_begin(&t, &txn);
  if (rc == SQLITE_OK) {
    rc = run_find(&t, run_id, &run);
    if (rc == SQLITE_OK) rc = renew_lease(&t, &run, run_id, lease_ms);
    if (rc == SQLITE_OK) run_json(t.out, &run);
    tick_stmts_done(&t);
    rc = tick_txn_end(&t, &txn, rc);
  }
  tick_result(&t, ctx, rc);
out:
  tick_cache_give(&t);
  run_clear(&run);
  tick_end(&t);
}

int fn_run_report_register(sqlite3 *db, trg_ctx *ctx) {
  static const trg_fn fns[] = {
      {"trigger_run_finish", 2, 4, TRG_FN_SIDE, fn_run_finish},
      {"trigger_run_heartbeat", 1, 3, TRG_FN_SIDE, fn_run_heartbeat},
  };
  return trg_fn_register(db, ctx, fns, sizeof fns / sizeof fns[0]);
}
