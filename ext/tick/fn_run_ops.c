/*
** fn_run_ops.c -- what an application does to one run
** (docs/reactive.md#cancel, #retry):
**   trigger_run_cancel(run_id [, reason [, now]]): a running run is
**     marked cancel-requested (cancel_requested_at; the reason kept as its
**     error): its JSON and trigger_run_heartbeat's answer say so, the host
**     stops its command and reports it cancelled, and its lease's end
**     makes it cancelled; a run waiting to be re-offered (deferred) is
**     cancelled at once. A finished run is refused.
**   trigger_run_retry(run_id [, now]): a finished run's occurrence runs
**     again: attempt n+1 of the same scheduled_for, with its payload
**     (payload.retryOf the run retried, triggerRunId the new one),
**     recorded deferred and re-offered by the next tick at or after now.
**     The trigger's schedule and status are unchanged. Asked again before
**     the tick claims it, the same pending run is the answer.
** Each in one transaction (or SAVEPOINT); returns the run's JSON.
*/
#include <string.h>

#include "base/args.h"
#include "base/json_out.h"
#include "base/register.h"
#include "store/json.h"
#include "store/run_rows.h"
#include "tick/call.h"
#include "tick/finish.h"
#include "tick/fire_json.h"
#include "tick/lifecycle.h"
#include "tick/quarantine.h"
#include "tick/write_behind.h"
#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

/* t->err = message, SQLITE_ERROR (SQLITE_NOMEM without one). */
static int refuse(tick *t, char *msg) {
  t->err = msg;
  return msg ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* The run run_id, loaded and checked: SQLITE_OK, or the refusal. */
static int load_run(tick *t, const char *run_id, trg_run *run) {
  int rc = store_run_load(t->call.st, run_id, run);
  if (rc == SQLITE_DONE)
    return refuse(t, sqlite3_mprintf("unknown run_id '%s'", run_id));
  if (rc != SQLITE_ROW) return rc;
  char *why = NULL;
  rc = tick_run_check(t, run, &why);
  if (rc == SQLITE_OK && why) return refuse(t, why);
  return rc;
}

static int is(const trg_run *run, const char *status) {
  return strcmp(trg_val_text(&run->v[RC_STATUS]), status) == 0;
}

/* One call's body: in the call's transaction, the run's JSON its answer. */
typedef int (*run_op_body)(tick *t, const char *run_id, const char *arg,
                           trg_run *run, trg_run *spare, trg_row *r);

static void run_op(sqlite3_context *ctx, tick *t, const char *run_id,
                   const char *arg, run_op_body body) {
  trg_run run, spare;
  trg_row r;
  memset(&run, 0, sizeof run);
  memset(&spare, 0, sizeof spare);
  trg_row_init(&r);
  store_txn txn;
  t->out = sqlite3_str_new(t->call.db);
  int rc = store_call_txn_begin(&t->call, &txn);
  if (rc == SQLITE_OK) {
    rc = body(t, run_id, arg, &run, &spare, &r);
    if (rc == SQLITE_OK) trigger_run_json(t->out, &run);
    store_call_stmts_done(&t->call);
    rc = tick_txn_end(t, &txn, rc);
  }
  tick_result(t, ctx, rc);
  trg_run_clear(&run);
  trg_run_clear(&spare);
  trg_row_clear(&r);
}

/* ---- trigger_run_cancel ------------------------------------------------ */

static int cancel_in_txn(tick *t, const char *run_id, const char *reason,
                         trg_run *run, trg_row *r) {
  int rc = load_run(t, run_id, run);
  if (rc != SQLITE_OK) return rc;
  if (is(run, "running")) {
    if (!run->v[RC_CANCEL_REQUESTED_AT].null) return SQLITE_OK; /* asked */
    trg_val_set_int(&run->v[RC_CANCEL_REQUESTED_AT], t->now);
    if (reason) rc = trg_val_set_text(&run->v[RC_ERROR], reason);
    return rc == SQLITE_OK ? store_run_save(t->call.st, run) : rc;
  }
  if (!is(run, "deferred")) return tick_refuse_finished(t, run_id, run);
  /* waiting to be re-offered: cancelled now */
  if (reason) rc = trg_val_set_text(&run->v[RC_ERROR], reason);
  int found = tick_run_trigger_load(t->call.st, run, r);
  if (found != SQLITE_ROW && found != SQLITE_DONE) return found;
  trg_row *usable = found == SQLITE_ROW ? r : NULL;
  t->narrow = 1;
  if (rc == SQLITE_OK) rc = tick_run_cancelled(t, run, usable);
  if (rc == SQLITE_OK && usable) rc = tick_wb_write_trigger(t, usable);
  if (rc == SQLITE_OK)
    rc = tick_chain(t, trg_val_text(&run->v[RC_TRIGGER_ID]), "cancelled");
  return rc;
}

static int cancel_body(tick *t, const char *run_id, const char *reason,
                       trg_run *run, trg_run *spare, trg_row *r) {
  (void)spare;
  return cancel_in_txn(t, run_id, reason, run, r);
}

static void fn_run_cancel(sqlite3_context *ctx, int argc,
                          sqlite3_value **argv) {
  tick t;
  if (tick_begin(&t, ctx, "trigger_run_cancel") != 0) return;
  const char *run_id = trg_arg_text(ctx, t.fname, argv, 0, "run_id");
  const char *reason = NULL;
  int ok = run_id != NULL;
  if (ok && argc > 1 && sqlite3_value_type(argv[1]) != SQLITE_NULL) {
    reason = trg_arg_text(ctx, t.fname, argv, 1, "reason");
    ok = reason != NULL;
  }
  if (ok && trg_arg_instant(ctx, t.fname, argc, argv, 2, "now", 1, &t.now) == 0)
    run_op(ctx, &t, run_id, reason, cancel_body);
  tick_end(&t);
}

/* ---- trigger_run_retry ------------------------------------------------- */

/* The payload of the retry `next` of run `old`: old's, with triggerRunId
** next's run_id and retryOf old's (store/json.c), into next (owned). */
static int retry_payload(tick *t, const trg_run *old, trg_run *next) {
  sqlite3_str *q = sqlite3_str_new(NULL);
  json_str(q, trg_val_text(&next->v[RC_RUN_ID]));
  char *id_json = sqlite3_str_finish(q);
  q = sqlite3_str_new(NULL);
  json_str(q, trg_val_text(&old->v[RC_RUN_ID]));
  char *of_json = sqlite3_str_finish(q);
  char *with_id = NULL, *payload = NULL;
  int rc = id_json && of_json ? SQLITE_OK : SQLITE_NOMEM;
  const char *from = old->v[RC_PAYLOAD].null ? NULL : old->v[RC_PAYLOAD].t;
  if (rc == SQLITE_OK)
    rc = store_json_set(t->call.st, from, "triggerRunId", id_json, &with_id);
  if (rc == SQLITE_OK)
    rc = store_json_set(t->call.st, with_id, "retryOf", of_json, &payload);
  if (rc == SQLITE_OK) rc = trg_val_set_owned(&next->v[RC_PAYLOAD], payload);
  else sqlite3_free(payload);
  sqlite3_free(id_json);
  sqlite3_free(of_json);
  sqlite3_free(with_id);
  return rc;
}

/* Why trigger r (NULL: deleted) cannot run a retry now, or NULL. */
static char *retry_blocked(const trg_run *run, const trg_row *r) {
  const char *tid = trg_val_text(&run->v[RC_TRIGGER_ID]);
  if (!r)
    return sqlite3_mprintf("trigger '%s' of run '%s' was deleted", tid,
                           trg_val_text(&run->v[RC_RUN_ID]));
  const char *st = trg_val_text(&r->v[TC_STATUS]);
  if (strcmp(st, "cancelled") == 0 || strcmp(st, "paused") == 0)
    return sqlite3_mprintf("trigger '%s' is %s (resume it first to retry "
                           "its runs)",
                           tid, st);
  return NULL;
}

static int retry_in_txn(tick *t, const char *run_id, trg_run *run,
                        trg_run *latest, trg_row *r) {
  int rc = load_run(t, run_id, run);
  if (rc != SQLITE_OK) return rc;
  if (is(run, "running")) {
    return refuse(t, sqlite3_mprintf("run '%s' is running (cancel it, or "
                                     "retry it once it has ended)",
                                     run_id));
  }
  int found = tick_run_trigger_load(t->call.st, run, r);
  if (found != SQLITE_ROW && found != SQLITE_DONE) return found;
  char *why = retry_blocked(run, found == SQLITE_ROW ? r : NULL);
  if (why) return refuse(t, why);
  /* the occurrence's last attempt: pending already (asked before, or
  ** deferred) is the answer; running is refused */
  const char *tid = trg_val_text(&run->v[RC_TRIGGER_ID]);
  i64 inc = run->v[RC_INCARNATION].i, sched = run->v[RC_SCHEDULED_FOR].i;
  rc = store_run_latest_attempt(t->call.st, tid, inc, sched, latest);
  if (rc != SQLITE_ROW) return rc == SQLITE_DONE ? SQLITE_CORRUPT : rc;
  if (is(latest, "deferred") || !latest->v[RC_RETRY_AT].null) {
    trg_run_clear(run);
    *run = *latest; /* the answer */
    memset(latest, 0, sizeof *latest);
    return SQLITE_OK;
  }
  if (is(latest, "running")) {
    return refuse(t, sqlite3_mprintf("the occurrence of run '%s' is running "
                                     "again as attempt %lld ('%s')",
                                     run_id, (long long)latest->v[RC_ATTEMPT].i,
                                     trg_val_text(&latest->v[RC_RUN_ID])));
  }
  i64 attempt = latest->v[RC_ATTEMPT].i + 1;
  char *id = tick_fire_run_id(&t->mem, tid, inc, sched, attempt);
  if (!id) return SQLITE_NOMEM;
  trg_run_clear(latest);
  trg_run *next = latest;
  rc = trg_val_set_text(&next->v[RC_RUN_ID], id);
  if (rc == SQLITE_OK)
    rc = trg_val_copy(&next->v[RC_TRIGGER_ID], &run->v[RC_TRIGGER_ID]);
  if (rc == SQLITE_OK)
    rc = trg_val_copy(&next->v[RC_AGENT_ID], &run->v[RC_AGENT_ID]);
  if (rc == SQLITE_OK) rc = trg_val_set_text(&next->v[RC_STATUS], "deferred");
  if (rc == SQLITE_OK)
    rc = trg_val_copy(&next->v[RC_RETRY_OF], &run->v[RC_RUN_ID]);
  if (rc == SQLITE_OK) rc = retry_payload(t, run, next);
  trg_val_set_int(&next->v[RC_SCHEDULED_FOR], sched);
  trg_val_set_int(&next->v[RC_ATTEMPT], attempt);
  trg_val_set_int(&next->v[RC_INCARNATION], inc);
  trg_val_set_int(&next->v[RC_DEFERRALS], 0);
  trg_val_set_int(&next->v[RC_RETRY_AT], t->now);
  if (rc == SQLITE_OK) rc = store_run_insert(t->call.st, next);
  if (rc != SQLITE_OK) return rc;
  trg_run_clear(run);
  *run = *next;
  memset(next, 0, sizeof *next);
  return SQLITE_OK;
}

static int retry_body(tick *t, const char *run_id, const char *unused,
                      trg_run *run, trg_run *latest, trg_row *r) {
  (void)unused;
  return retry_in_txn(t, run_id, run, latest, r);
}

static void fn_run_retry(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  tick t;
  if (tick_begin(&t, ctx, "trigger_run_retry") != 0) return;
  const char *run_id = trg_arg_text(ctx, t.fname, argv, 0, "run_id");
  if (run_id &&
      trg_arg_instant(ctx, t.fname, argc, argv, 1, "now", 1, &t.now) == 0)
    run_op(ctx, &t, run_id, NULL, retry_body);
  tick_end(&t);
}

int tick_fn_run_ops_register(sqlite3 *db, trg_ctx *ctx) {
  static const trg_fn fns[] = {
      {"trigger_run_cancel", 1, 3, TRG_FN_SIDE, fn_run_cancel},
      {"trigger_run_retry", 1, 2, TRG_FN_SIDE, fn_run_retry},
  };
  return trg_fn_register(db, ctx, fns, sizeof fns / sizeof fns[0]);
}
