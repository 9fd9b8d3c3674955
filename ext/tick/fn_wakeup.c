/*
** fn_wakeup.c -- trigger_next_wakeup([now [, options]]): the ms until
** the next thing a tick with these options would take (a trigger's fire,
** a retry, a lease end), or NULL when there is none: a host sleeps that
** long instead of polling.
*/
#include <string.h>

#include "base/register.h"
#include "store/json.h"
#include "store/wake.h"
#include "tick/call.h"

SQLITE_EXTENSION_INIT3

/* The earliest fire of the triggers a wakeup walk visits (store_wake_walk
** in next_due_at order) that the tick's wake_mode filter lets through.
** fire_at >= next_due_at, so the walk stops once next_due_at reaches the
** best fire_at seen: it reads only rows due before the earliest fire (held
** by a queue, inside their jitter, or of another wake_mode), however many
** triggers there are. */
typedef struct earliest {
  const char *wake_mode; /* the tick's filter; NULL: any */
  int sql;               /* SQL jobs (1) or the other triggers (0) */
  int have;
  i64 best;
} earliest;

static int earliest_fire(void *arg, const store_wake_row *w) {
  earliest *e = arg;
  /* Values changed outside the extension
  ** (docs/tables.md#changed-shadow-tables) must not wake a host for
  ** nothing, over and over: a next_due_at that is not a number sorts after
  ** every number and is never due, so the walk ends there; the tick reads a
  ** row only once next_due_at has come, so a fire_at before it counts as
  ** next_due_at (as does one that is not a number: the tick pauses that row
  ** when it reads it). */
  if (w->due_type != SQLITE_INTEGER && w->due_type != SQLITE_FLOAT) return 1;
  if (e->have && w->due >= e->best) return 1;
  if (w->fire_type == SQLITE_NULL) return 0;
  i64 fire = w->fire_type == SQLITE_INTEGER ? w->fire : w->due;
  if (e->wake_mode &&
      (!w->wake_mode || strcmp(w->wake_mode, e->wake_mode) != 0))
    return 0;
  if (w->sql != e->sql) return 0;
  if (fire < w->due) fire = w->due;
  if (!e->have || fire < e->best) e->best = fire;
  e->have = 1;
  return 0;
}

/* The earliest fire of the triggers the tick's options may claim: all,
** or one index walk per agent of options.agents. */
static int earliest_claimable(tick *t, earliest *e) {
  if (!t->o.agents) return store_wake_walk(t->call.st, NULL, earliest_fire, e);
  store_json_each it;
  int step = SQLITE_DONE;
  int rc = store_json_each_open(t->call.st, t->o.agents, &it);
  while (rc == SQLITE_OK && (step = store_json_each_next(&it)) == SQLITE_ROW) {
    if (strcmp(it.m.type, "text") != 0) continue; /* matches no agent */
    rc = store_wake_walk(t->call.st, it.m.text, earliest_fire, e);
  }
  if (rc == SQLITE_OK && step != SQLITE_DONE) rc = step;
  store_json_each_close(&it);
  return rc;
}

static void fn_next_wakeup(sqlite3_context *ctx, int argc,
                           sqlite3_value **argv) {
  /* Only what a tick with the same options would take: its agents and
  ** wake_mode (a host serving some agents is not woken for others). */
  tick t;
  if (tick_begin(&t, ctx, "trigger_next_wakeup") != 0) return;
  if (tick_read_now_and_options(&t, ctx, argc, argv) != 0) goto out;
  if (t.o.agents_empty) { /* a tick with these options takes nothing */
    sqlite3_result_null(ctx);
    goto out;
  }
  earliest e = {t.o.wake_mode, t.o.sql, 0, 0};
  int have = 0;
  i64 at = 0;
  int rc = earliest_claimable(&t, &e);
  if (rc == SQLITE_OK)
    rc = store_wake_runs(t.call.st, t.o.agents, t.o.wake_mode, t.o.sql, &have,
                         &at);
  if (have && (!e.have || at < e.best)) e.best = at;
  e.have |= have;
  if (rc != SQLITE_OK) tick_fail(&t, ctx, rc);
  else if (!e.have) sqlite3_result_null(ctx);
  else sqlite3_result_int64(ctx, e.best > t.now ? e.best - t.now : 0);
out:
  tick_end(&t);
}

int tick_fn_wakeup_register(sqlite3 *db, trg_ctx *ctx) {
  static const trg_fn fns[] = {
      {"trigger_next_wakeup", 0, 2, TRG_FN_SIDE, fn_next_wakeup},
  };
  return trg_fn_register(db, ctx, fns, 1);
}
