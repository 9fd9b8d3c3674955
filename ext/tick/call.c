/*
** call.c -- one call of a tick function (call.h): begun and ended (its
** statements and transaction are the store's call, store/kept.h), its
** now and options arguments, its events written before COMMIT, and its
** result or error.
*/
#include "tick/call.h"

#include <string.h>

#include "base/args.h"
#include "tick/events.h"

SQLITE_EXTENSION_INIT3

int tick_begin(tick *t, sqlite3_context *ctx, const char *fname) {
  memset(t, 0, sizeof *t);
  t->fname = fname;
  t->grace_ms = -1; /* read when first needed (claim.c) */
  t->chains = -1;   /* probed at the first run's end (lifecycle.c) */
  return store_call_begin(&t->call, ctx, fname);
}

void tick_end(tick *t) {
  tick_events_free(t);
  sqlite3_free(t->held_agent); /* budget_hold.c */
  trg_arena_free(&t->mem);
  store_call_end(&t->call);
  tick_opts_free(&t->o);
  sqlite3_free(t->err);
}

int tick_str_status(tick *t, sqlite3_str *s) {
  int rc = sqlite3_str_errcode(s);
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM && !t->err) {
    t->err = sqlite3_mprintf("%s", sqlite3_errstr(rc));
  }
  return rc;
}

/* End the transaction; on failure keep its message for tick_fail(), since
** the rollback resets the connection's error. */
int tick_txn_end(tick *t, store_txn *txn, int rc) {
  if (rc == SQLITE_OK) rc = tick_events_write(t); /* in the transaction */
  if (rc == SQLITE_OK && t->call.st->err)
    rc = t->call.st->err; /* e.g. a config read */
  /* The result is complete before COMMIT: after it, nothing may fail. */
  if (rc == SQLITE_OK && t->out) rc = tick_str_status(t, t->out);
  rc = store_txn_end(t->call.db, txn, rc);
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM && !t->err) {
    t->err = sqlite3_mprintf("%s", store_txn_errmsg(txn, t->call.db));
  }
  return rc;
}

void tick_in_txn(tick *t, sqlite3_context *ctx, tick_body body, void *arg) {
  store_txn txn;
  int rc = store_call_txn_begin(&t->call, &txn);
  if (rc == SQLITE_OK) {
    rc = body(t, arg);
    store_call_stmts_done(&t->call);
    rc = tick_txn_end(t, &txn, rc);
  }
  tick_result(t, ctx, rc);
}

/* Report rc/err of a failed transaction body as the function's error. */
void tick_fail(tick *t, sqlite3_context *ctx, int rc) {
  if (t->err) {
    trg_result_error(ctx, rc, t->fname, "%s", t->err);
  } else if (rc == SQLITE_NOMEM) {
    sqlite3_result_error_nomem(ctx);
  } else {
    trg_result_error(ctx, rc, t->fname, "%s", trg_errmsg(t->call.db, rc));
  }
}

/* The function's result: t->out, or the error of the failed call. */
void tick_result(tick *t, sqlite3_context *ctx, int rc) {
  if (rc != SQLITE_OK) {
    sqlite3_free(sqlite3_str_finish(t->out));
    tick_fail(t, ctx, rc);
  } else {
    trg_result_str(ctx, t->out);
  }
}

/* Keep what this tick cost for trigger_last_tick(). */
void tick_record_cost(tick *t) {
  trg_ctx *c = t->call.ctx;
  store_cost(t->call.st, &c->last_tick.vm_steps, &c->last_tick.fullscan_steps);
  c->last_tick.rows = t->rows;
  c->last_tick.claimed = t->nout;
}

/* Arguments 1 (now) and 2 (options) of trigger_run_due and
** trigger_next_wakeup into t. A host passes the same options every call:
** the last text parsed and its result are kept on the connection
** (trg_ctx.last_opts). 0 ok, -1 error already reported. */
int tick_read_now_and_options(tick *t, sqlite3_context *ctx, int argc,
                              sqlite3_value **argv) {
  if (argc > 0 &&
      trg_arg_instant(ctx, t->fname, argc, argv, 0, "now", 1, &t->now) != 0)
    return -1;
  if (argc == 0) t->now = trg_wall_clock_ms();
  const char *opts = NULL;
  int rc = SQLITE_OK;
  if (argc > 1 && sqlite3_value_type(argv[1]) != SQLITE_NULL) {
    if (sqlite3_value_type(argv[1]) != SQLITE_TEXT) {
      trg_result_error(ctx, SQLITE_MISMATCH, t->fname,
                       "argument 2 (options) must be text");
      return -1;
    }
    /* The owner is stored: no byte or escape may be a NUL or invalid. */
    rc = trg_value_text(argv[1], 1, "options", &opts, &t->err);
  }
  if (rc == SQLITE_OK)
    rc = tick_opts_read(t->call.st, t->call.ctx, opts, &t->o, &t->err);
  if (rc != SQLITE_OK) {
    tick_fail(t, ctx, rc);
    return -1;
  }
  return 0;
}
