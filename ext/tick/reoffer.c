/*
** reoffer.c -- the tick's first two steps (reoffer.h,
** docs/lifecycle.md#what-one-tick-does):
**   1. runs whose lease passed (triggers_rundata_lease): recorded failed
**      "lease expired"; with attempts left a retry is queued for now;
**   2. runs to re-offer (triggers_rundata_retry): deferred runs are
**      claimed again with the same run_id, failed ones as attempt n+1;
** (a time these probes would never reach is refused by SQLite: schema
** version 6, docs/tables.md#changed-shadow-tables). A run belongs to the incarnation
** that made it: a run of a deleted trigger never touches a trigger
** created later under the same id (tick_run_trigger_load).
*/
#include "tick/reoffer.h"

#include <string.h>

#include "store/due.h"
#include "store/run_rows.h"
#include "tick/finish.h"
#include "tick/lifecycle.h"
#include "tick/quarantine.h"
#include "tick/write_behind.h"
#include "trigger/transition.h"
#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

/* What unusable() found. */
enum { USABLE, RUN_CLOSED, TRIGGER_PAUSED };

/* A run (and its trigger r, when found) read back by a probe of step 1
** or 2 (counted: a running run, counted in its trigger's `running`): a
** run that fails store_run_check is closed and its trigger paused (*how
** RUN_CLOSED); a trigger that fails trigger_check is paused, and the run is
** then handled as one whose trigger is gone (TRIGGER_PAUSED). */
static int unusable(tick *t, trg_row *r, trg_run *run, int counted, int *how) {
  char *why = NULL;
  *how = USABLE;
  int rc = tick_run_check(t, run, &why);
  if (rc == SQLITE_OK && why) {
    *how = RUN_CLOSED;
    char *closing = sqlite3_mprintf("%s; run closed", why);
    rc = closing
             ? store_run_close(t->call.st, run->id, "failed", closing, t->now)
             : SQLITE_NOMEM;
    sqlite3_free(closing);
    if (rc == SQLITE_OK && r) return tick_quarantine(t, r, why, NULL, counted);
    sqlite3_free(why);
    return rc;
  }
  if (rc == SQLITE_OK && r) {
    sched_spec spec;
    rc = tick_row_check(t, r, &spec, TRIGGER_NO_JSON, &why);
    if (rc == SQLITE_OK && why) {
      *how = TRIGGER_PAUSED;
      rc = tick_quarantine(t, r, why, NULL, counted);
    }
  }
  return rc;
}

/* A run the tick's options let it take (store_runs_read's keep). */
static int allowed_run(void *arg, const trg_run *run) {
  return tick_opts_allow_agent(arg, trg_val_text(&run->v[RC_AGENT_ID]));
}

static int for_each_run(tick *t, store_runs_kind kind,
                        int (*fn)(tick *, trg_row *, trg_run *)) {
  /* Collect first: the callbacks write to the table being read. */
  int n = 0;
  trg_run *runs = NULL;
  int rc = store_runs_read(t->call.st, kind, t->now, allowed_run, &t->o, &runs,
                           &n, &t->rows);
  for (int i = 0; i < n && rc == SQLITE_OK; i++) {
    trg_row r;
    trg_row_init(&r);
    int found = tick_run_trigger_load(t->call.st, &runs[i], &r);
    int how = USABLE;
    if (found == SQLITE_ROW || found == SQLITE_DONE) {
      rc = unusable(t, found == SQLITE_ROW ? &r : NULL, &runs[i],
                    kind == STORE_RUNS_LEASED, &how);
    } else {
      rc = found;
    }
    if (rc == SQLITE_OK && how == TRIGGER_PAUSED) { /* as if it were gone */
      t->gone = "trigger is no longer active";
      rc = fn(t, NULL, &runs[i]);
      t->gone = NULL;
    } else if (rc == SQLITE_OK && how == USABLE && found == SQLITE_ROW) {
      if (tick_opts_allow_trigger(&t->o, &r)) rc = fn(t, &r, &runs[i]);
    } else if (rc == SQLITE_OK && how == USABLE) {
      rc = fn(t, NULL, &runs[i]);
    }
    trg_row_clear(&r);
    trg_arena_reset(&t->mem); /* the texts of the run(s) written for r */
  }
  for (int i = 0; i < n; i++) trg_run_clear(&runs[i]);
  sqlite3_free(runs);
  return rc;
}

static int on_lease_expired(tick *t, trg_row *r, trg_run *run) {
  if (!run->v[RC_CANCEL_REQUESTED_AT].null) { /* never retried */
    int rc = tick_run_cancelled(t, run, r);
    if (rc == SQLITE_OK && r) rc = tick_wb_write_trigger(t, r);
    return rc == SQLITE_OK ? tick_chain(t, trg_val_text(&run->v[RC_TRIGGER_ID]),
                                        "cancelled")
                           : rc;
  }
  if (!r) { /* trigger deleted: just close the run */
    trg_val_set_text(&run->v[RC_STATUS], "failed");
    trg_val_set_text(&run->v[RC_ERROR], "lease expired");
    trg_val_set_int(&run->v[RC_FINISHED_AT], t->now);
    int rc = store_run_save(t->call.st, run);
    return rc == SQLITE_OK
               ? tick_chain(t, trg_val_text(&run->v[RC_TRIGGER_ID]), "failed")
               : rc;
  }
  int rc = tick_fail_run(t->call.st, r, run, t->now, "lease expired", 1);
  if (rc == SQLITE_OK && !run->v[RC_RETRY_AT].null) {
    trg_val_set_int(&run->v[RC_RETRY_AT], t->now); /* reclaim at once */
    rc = store_run_save(t->call.st, run);
  }
  if (rc == SQLITE_OK) rc = tick_wb_write_trigger(t, r);
  if (rc == SQLITE_OK)
    rc = tick_chain(t, trg_val_text(&run->v[RC_TRIGGER_ID]), "failed");
  return rc;
}

static int on_retry(tick *t, trg_row *r, trg_run *run) {
  int rc;
  int deferred = strcmp(trg_val_text(&run->v[RC_STATUS]), "deferred") == 0;
  /* a retry asked for (trigger_run_retry) runs for a completed or
  ** expired trigger too: only a paused or cancelled one holds it back */
  const char *tst = r ? trg_val_text(&r->v[TC_STATUS]) : "";
  int asked = deferred && !run->v[RC_RETRY_OF].null && r &&
              (strcmp(tst, "completed") == 0 || strcmp(tst, "expired") == 0);
  if (!asked && (!r || !trigger_is_active(r) || strcmp(tst, "paused") == 0)) {
    trg_val_set_null(&run->v[RC_RETRY_AT]);
    if (deferred) {
      trg_val_set_text(&run->v[RC_STATUS], "skipped");
      trg_val_set_text(&run->v[RC_ERROR], r ? "trigger is no longer active"
                                          : t->gone ? t->gone
                                                    : "trigger was deleted");
      trg_val_set_int(&run->v[RC_FINISHED_AT], t->now);
    }
    rc = store_run_save(t->call.st, run);
    if (rc == SQLITE_OK && r) {
      rc = tick_settle(t->call.st, r);
      if (rc == SQLITE_OK) rc = tick_wb_write_trigger(t, r);
    }
    return rc;
  }
  if (t->budget == 0) return SQLITE_OK;
  if (deferred) {
    if (run->v[RC_DEFERRALS].i >= TRG_MAX_DEFERRALS) {
      trg_val_set_null(&run->v[RC_RETRY_AT]);
      trg_val_set_text(&run->v[RC_STATUS], "expired");
      trg_val_set_text(&run->v[RC_ERROR], "deferred too many times");
      trg_val_set_int(&run->v[RC_FINISHED_AT], t->now);
      rc = store_run_save(t->call.st, run);
      if (rc == SQLITE_OK) rc = tick_settle(t->call.st, r);
      /* A once trigger whose only occurrence expired unrun is expired, as
      ** when its window passes, not completed. */
      if (rc == SQLITE_OK &&
          strcmp(trg_val_text(&r->v[TC_STATUS]), "completed") == 0 &&
          strcmp(trg_val_text(&r->v[TC_TRIGGER_TYPE]), "once") == 0) {
        trg_val_set_text(&r->v[TC_STATUS], "expired");
        rc = trg_val_set_text(&r->v[TC_LAST_ERROR], "deferred too many times");
      }
      if (rc == SQLITE_OK) rc = tick_wb_write_trigger(t, r);
      if (rc == SQLITE_OK)
        rc = tick_chain(t, trg_val_text(&run->v[RC_TRIGGER_ID]), "expired");
      return rc;
    }
    trg_val_set_null(&run->v[RC_ERROR]);
    trg_val_set_null(&run->v[RC_RESULT]);
    trg_val_set_null(&run->v[RC_FINISHED_AT]);
    trg_val_set_null(&run->v[RC_LATENCY_MS]);
    tick_run_claim(t, run);
    rc = store_run_save(t->call.st, run);
    if (rc == SQLITE_OK) rc = tick_emit(t, run, r);
  } else {
    trg_run next;
    memset(&next, 0, sizeof next);
    trg_val_set_null(&run->v[RC_RETRY_AT]);
    rc = store_run_save(t->call.st, run);
    if (rc == SQLITE_OK) {
      rc = tick_run_make(t, &next, r, run->v[RC_SCHEDULED_FOR].i,
                         run->v[RC_ATTEMPT].i + 1, "running");
    }
    if (rc == SQLITE_OK) tick_run_claim(t, &next);
    if (rc == SQLITE_OK) rc = store_run_insert(t->call.st, &next);
    if (rc == SQLITE_OK) rc = tick_emit(t, &next, r);
    trg_run_clear(&next);
  }
  t->budget--;
  tick_note_claim(t, r);
  if (!t->o.ack) tick_occurrence_done(r, 1, NULL);
  if (rc == SQLITE_OK) rc = tick_settle(t->call.st, r);
  if (rc == SQLITE_OK) rc = tick_wb_write_trigger(t, r);
  if (rc == SQLITE_OK && !t->o.ack) /* recorded success at once */
    rc = tick_chain(t, trg_val_text(&r->v[TC_TRIGGER_ID]), "success");
  return rc;
}

int tick_reoffer(tick *t) {
  int due = 0; /* nothing to re-offer: skip two sorts */
  int rc = store_runs_any(t->call.st, t->now, &due);
  if (rc == SQLITE_OK && due)
    rc = for_each_run(t, STORE_RUNS_LEASED, on_lease_expired);
  if (rc == SQLITE_OK && due) rc = for_each_run(t, STORE_RUNS_RETRY, on_retry);
  return rc;
}
