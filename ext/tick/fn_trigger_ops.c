/*
** fn_trigger_ops.c -- what an application does to one trigger:
** trigger_fire(trigger_id [, now]) claims a run of it now, and
** trigger_pause, trigger_resume, trigger_cancel(trigger_id [, now]) change
** its status; each loads, checks, changes and saves the trigger in one
** transaction and returns its JSON (trigger_fire: the run's element).
*/
#include <string.h>

#include "base/args.h"
#include "base/register.h"
#include "store/run_rows.h"
#include "tick/call.h"
#include "tick/lifecycle.h"
#include "tick/quarantine.h"
#include "tick/write_behind.h"
#include "trigger/transition.h"
#include "trigger/trigger.h"
#include "trigger/write.h"

SQLITE_EXTENSION_INIT3

/* What a call asks of its trigger: a fire, or a change of its status
** (trigger/transition.h). */
typedef struct app_op {
  const char *fname;
  int fire;
  trigger_change change;
} app_op;
static const app_op op_fire = {"trigger_fire", 1, TRIGGER_PAUSE /* unused */};
static const app_op op_pause = {"trigger_pause", 0, TRIGGER_PAUSE};
static const app_op op_resume = {"trigger_resume", 0, TRIGGER_RESUME};
static const app_op op_cancel = {"trigger_cancel", 0, TRIGGER_CANCEL};

/* An op on a trigger whose stored row fails trigger_check (why, taken):
** pausing and cancelling take it out of the schedule (tick_quarantine); firing
** and resuming are refused until the value is fixed. */
static int op_on_bad_row(tick *t, trg_row *r, const char *trigger_id, char *why,
                         const app_op *op) {
  if (op == &op_pause || op == &op_cancel) {
    return tick_quarantine(t, r, why, op == &op_cancel ? "cancelled" : NULL, 0);
  }
  t->err = sqlite3_mprintf("trigger '%s' holds a value changed outside the "
                           "extension: %s (fix it in the shadow table first)",
                           trigger_id, why);
  sqlite3_free(why);
  return t->err ? SQLITE_CONSTRAINT_CHECK : SQLITE_NOMEM;
}

/* A run of the trigger claimed now (never of a cancelled one). */
static int fire(tick *t, trg_row *r) {
  if (strcmp(trg_val_text(&r->v[TC_STATUS]), "cancelled") == 0) {
    t->err = sqlite3_mprintf("trigger '%s' is cancelled",
                             trg_val_text(&r->v[TC_TRIGGER_ID]));
    return SQLITE_ERROR;
  }
  trg_run run;
  memset(&run, 0, sizeof run);
  int rc = tick_run_make(t, &run, r, t->now, 1, "running");
  if (rc == SQLITE_OK) tick_run_claim(t, &run);
  if (rc == SQLITE_OK) rc = store_run_insert(t->call.st, &run);
  if (rc == SQLITE_OK && sqlite3_changes(t->call.db) == 0) {
    t->err = sqlite3_mprintf("run '%s' already exists (fired twice at the "
                             "same instant)",
                             trg_val_text(&run.v[RC_RUN_ID]));
    rc = SQLITE_CONSTRAINT_UNIQUE;
  }
  if (rc == SQLITE_OK) {
    tick_note_claim(t, r);
    rc = tick_wb_write_trigger(t, r);
  }
  if (rc == SQLITE_OK) rc = tick_emit(t, &run, r);
  if (rc == SQLITE_OK) {
    /* trigger_fire returns the run element itself, not an array (an
    ** output lost to an allocation is an error, not an empty result:
    ** the caller would show the trigger instead). */
    rc = sqlite3_str_errcode(t->out);
    char *z = sqlite3_str_finish(t->out);
    t->out = sqlite3_str_new(t->call.db);
    if (rc == SQLITE_OK && z) sqlite3_str_appendall(t->out, z + 1);
    else rc = SQLITE_NOMEM;
    sqlite3_free(z);
  }
  trg_run_clear(&run);
  return rc;
}

/* A change of status, unless the trigger is so already; refused when its
** status forbids it (trigger_change_check). */
static int change(tick *t, trg_row *r, const sched_spec *spec,
                  trigger_change c) {
  int todo;
  int rc = trigger_change_check(r, c, &todo, &t->err);
  if (rc != SQLITE_OK || !todo) return rc;
  /* a paused duplicate stays out while the other is active */
  if (c == TRIGGER_RESUME &&
      (rc = trigger_write_rekey(t->call.st, r, spec, &t->err)) != SQLITE_OK)
    return rc;
  trigger_transition(r, c, spec, t->now);
  return tick_wb_write_trigger(t, r);
}

static void run_app_op(sqlite3_context *ctx, tick *t, const char *trigger_id,
                       const app_op *op) {
  store_txn txn;
  trg_row r;
  trg_row_init(&r);
  t->out = sqlite3_str_new(t->call.db);
  int rc = store_call_txn_begin(&t->call, &txn); /* its own statements */
  if (rc == SQLITE_OK) {
    int found = store_trigger_load(t->call.st, trigger_id, &r);
    if (found == SQLITE_ROW) {
      sched_spec spec;
      char *why;
      rc = tick_row_check(t, &r, &spec, 0, &why);
      if (rc == SQLITE_OK && why) {
        rc = op_on_bad_row(t, &r, trigger_id, why, op);
      } else if (rc == SQLITE_OK) {
        rc = op->fire ? fire(t, &r) : change(t, &r, &spec, op->change);
      }
      if (rc == SQLITE_OK && !sqlite3_str_length(t->out))
        trigger_json(t->out, &r);
    } else if (found == SQLITE_DONE) {
      t->err = sqlite3_mprintf("unknown trigger_id '%s'", trigger_id);
      rc = SQLITE_ERROR;
    } else {
      rc = found;
    }
    store_call_stmts_done(&t->call);
    rc = tick_txn_end(t, &txn, rc);
  }
  trg_row_clear(&r);
  tick_result(t, ctx, rc);
}

static void fn_fire(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  tick t;
  if (tick_begin(&t, ctx, op_fire.fname) != 0) return;
  const char *id = trg_arg_text(ctx, t.fname, argv, 0, "trigger_id");
  if (id &&
      trg_arg_instant(ctx, t.fname, argc, argv, 1, "now", 1, &t.now) == 0) {
    t.o.lease_ms = TRG_DEFAULT_LEASE_MS;
    t.o.ack = 1;
    t.budget = -1;
    run_app_op(ctx, &t, id, &op_fire);
  }
  tick_end(&t);
}

static void app_op_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                      const app_op *op) {
  tick t;
  const char *fname = op->fname;
  if (tick_begin(&t, ctx, fname) != 0) return;
  const char *id = trg_arg_text(ctx, fname, argv, 0, "trigger_id");
  t.by_app = 1; /* pause / resume / cancel: asked for */
  if (id && trg_arg_instant(ctx, fname, argc, argv, 1, "now", 1, &t.now) == 0) {
    run_app_op(ctx, &t, id, op);
  }
  tick_end(&t);
}

static void fn_pause(sqlite3_context *c, int n, sqlite3_value **v) {
  app_op_fn(c, n, v, &op_pause);
}
static void fn_resume(sqlite3_context *c, int n, sqlite3_value **v) {
  app_op_fn(c, n, v, &op_resume);
}
static void fn_cancel(sqlite3_context *c, int n, sqlite3_value **v) {
  app_op_fn(c, n, v, &op_cancel);
}

int tick_fn_trigger_ops_register(sqlite3 *db, trg_ctx *ctx) {
  static const trg_fn fns[] = {
      {"trigger_fire", 1, 2, TRG_FN_SIDE, fn_fire},
      {"trigger_pause", 1, 2, TRG_FN_SIDE, fn_pause},
      {"trigger_resume", 1, 2, TRG_FN_SIDE, fn_resume},
      {"trigger_cancel", 1, 2, TRG_FN_SIDE, fn_cancel},
  };
  return trg_fn_register(db, ctx, fns, sizeof fns / sizeof fns[0]);
}
