/*
** fn_run_due.c -- trigger_run_due([now [, options]]): the tick, in one
** transaction (BEGIN IMMEDIATE in autocommit mode, else a SAVEPOINT in the
** caller's), opened only when one read-only probe found something to do:
** expired leases and runs to re-offer (reoffer.c), then the
** due triggers (claim.c), each step work in proportion to what its index
** probe found; and trigger_last_tick(), what the last one cost.
*/
#include "base/args.h"
#include "base/register.h"
#include "store/due.h"
#include "tick/call.h"
#include "tick/claim.h"
#include "tick/reoffer.h"

SQLITE_EXTENSION_INIT3

static void fn_run_due(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  tick t;
  if (tick_begin(&t, ctx, "trigger_run_due") != 0) return;
  store_call_take(&t.call);
  int rc;
  if (tick_read_now_and_options(&t, ctx, argc, argv) != 0) goto out;
  t.budget = t.o.limit;
  int any = 0;
  if (!t.o.agents_empty && t.budget != 0) {
    rc = store_tick_any(t.call.st, t.now, &any);
    tick_record_cost(&t); /* the whole cost of a tick that stops here */
    if (rc != SQLITE_OK) {
      tick_fail(&t, ctx, rc);
      goto out;
    }
  }
  if (!any) { /* nothing due: no transaction, nothing allocated */
    sqlite3_result_text(ctx, "[]", 2, SQLITE_STATIC);
    goto out;
  }
  t.out = sqlite3_str_new(t.call.db);
  store_txn txn;
  t.narrow = 1;
  rc = store_call_txn_begin(&t.call, &txn);
  if (rc == SQLITE_OK) {
    rc = tick_reoffer(&t);
    if (rc == SQLITE_OK) rc = tick_claim_due(&t);
    if (rc == SQLITE_OK) sqlite3_str_appendall(t.out, t.nout ? "]" : "[]");
    if (rc == SQLITE_OK) rc = tick_str_status(&t, t.out);
    tick_record_cost(&t);
    store_call_stmts_done(&t.call);
    rc = tick_txn_end(&t, &txn, rc);
  }
  if (rc != SQLITE_OK) {
    sqlite3_free(sqlite3_str_finish(t.out));
    tick_fail(&t, ctx, rc);
    goto out;
  }
  trg_result_str(ctx, t.out);
out:
  store_call_give(&t.call);
  tick_end(&t);
}

static void fn_last_tick(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  (void)argv;
  trg_ctx *c = sqlite3_user_data(ctx);
  if (trg_refuse_in_preload(ctx, "trigger_last_tick") != 0) return;
  char *z = sqlite3_mprintf(
      "{\"vm_steps\":%lld,\"fullscan_steps\":%lld,"
      "\"rows_read\":%lld,\"claimed\":%lld}",
      (long long)c->last_tick.vm_steps, (long long)c->last_tick.fullscan_steps,
      (long long)c->last_tick.rows, (long long)c->last_tick.claimed);
  if (!z) {
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, z, -1, sqlite3_free);
}

int tick_fn_run_due_register(sqlite3 *db, trg_ctx *ctx) {
  static const trg_fn fns[] = {
      {"trigger_run_due", 0, 2, TRG_FN_SIDE, fn_run_due},
      {"trigger_last_tick", 0, 0, TRG_FN_SIDE, fn_last_tick},
  };
  return trg_fn_register(db, ctx, fns, sizeof fns / sizeof fns[0]);
}
