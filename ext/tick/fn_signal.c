/*
** fn_signal.c -- trigger_signal(event_key [, payload [, now]]): every
** active event trigger waiting for event_key made due (trigger/signal.h),
** in one transaction (or SAVEPOINT); returns how many
** (docs/reactive.md).
*/
#include "base/args.h"
#include "base/register.h"
#include "tick/call.h"
#include "trigger/signal.h"

SQLITE_EXTENSION_INIT3

/* The payload argument at pos: NULL or absent -> *out NULL; else text,
** valid UTF-8 (its JSON is checked by trigger_signal). 0, or -1 with the
** error set. */
static int payload_arg(sqlite3_context *ctx, const char *fname, int argc,
                       sqlite3_value **argv, int pos, const char **out) {
  *out = NULL;
  if (argc <= pos || sqlite3_value_type(argv[pos]) == SQLITE_NULL) return 0;
  if (sqlite3_value_type(argv[pos]) != SQLITE_TEXT) {
    trg_result_error(ctx, SQLITE_MISMATCH, fname,
                     "argument %d (payload) must be a JSON object's text",
                     pos + 1);
    return -1;
  }
  return (*out = trg_arg_text(ctx, fname, argv, pos, "payload")) ? 0 : -1;
}

static void fn_signal(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  tick t;
  if (tick_begin(&t, ctx, "trigger_signal") != 0) return;
  const char *key = trg_arg_text(ctx, t.fname, argv, 0, "event_key");
  const char *payload;
  if (key && payload_arg(ctx, t.fname, argc, argv, 1, &payload) == 0 &&
      trg_arg_instant(ctx, t.fname, argc, argv, 2, "now", 1, &t.now) == 0) {
    store_call_take(&t.call);
    store_txn txn;
    i64 n = 0;
    int rc = store_call_txn_begin(&t.call, &txn);
    if (rc == SQLITE_OK) {
      rc = trigger_signal(t.call.ctx, t.call.st, key, payload, t.now, &n,
                          &t.err);
      store_call_stmts_done(&t.call);
      rc = tick_txn_end(&t, &txn, rc);
    }
    if (rc == SQLITE_OK) sqlite3_result_int64(ctx, n);
    else tick_fail(&t, ctx, rc);
  }
  tick_end(&t);
}

int tick_fn_signal_register(sqlite3 *db, trg_ctx *ctx) {
  static const trg_fn fns[] = {
      {"trigger_signal", 1, 3, TRG_FN_SIDE, fn_signal},
  };
  return trg_fn_register(db, ctx, fns, sizeof fns / sizeof fns[0]);
}
