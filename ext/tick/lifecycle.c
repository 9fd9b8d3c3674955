/*
** lifecycle.c -- the run lifecycle's steps (lifecycle.h, docs/lifecycle.md):
** a run made and claimed, its element of the result, a trigger's counters
** after a claim or a run's end, a failure with its retry, and settling a
** trigger once nothing of it is in flight.
*/
#include "tick/lifecycle.h"

#include <string.h>

#include "store/run_rows.h"
#include "store/trigger_rows.h"
#include "tick/fire_json.h"
#include "tick/fire_preload.h"
#include "tick/write_behind.h"
#include "time/civil.h"
#include "trigger/signal.h"
#include "trigger/transition.h"
#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

void tick_iso_utc(i64 ms, char *buf) { civil_format_iso(ms, 0, 1, buf); }

/* Fill a run row for occurrence `sched` of trigger r. Its texts are
** borrowed: run_id and payload from the tick's arena, trigger_id and
** agent_id from r, status a literal; r and the arena outlive the run's
** write (tick_claim_due resets the arena once a batch is written). */
int tick_run_make(tick *t, trg_run *run, trg_row *r, i64 sched, i64 attempt,
                  const char *status) {
  trg_run_clear(run);
  const char *tid = trg_val_text(&r->v[TC_TRIGGER_ID]);
  i64 inc = r->v[TC_INCARNATION].i;
  char *id = tick_fire_run_id(&t->mem, tid, inc, sched, attempt);
  char *payload = id ? tick_fire_payload(&t->mem, r, id, sched) : NULL;
  if (!payload) return SQLITE_NOMEM;
  if (strcmp(status, "running") == 0) { /* a claim: its preload */
    int rc = tick_preload_payload(t, r, &payload);
    if (rc != SQLITE_OK) return rc;
  }
  trg_val_borrow(&run->v[RC_RUN_ID], id);
  trg_val_borrow(&run->v[RC_PAYLOAD], payload);
  trg_val_borrow(&run->v[RC_TRIGGER_ID], tid);
  trg_val_borrow(&run->v[RC_AGENT_ID], trg_val_text(&r->v[TC_AGENT_ID]));
  trg_val_borrow(&run->v[RC_STATUS], status);
  trg_val_set_int(&run->v[RC_SCHEDULED_FOR], sched);
  trg_val_set_int(&run->v[RC_ATTEMPT], attempt);
  trg_val_set_int(&run->v[RC_DEFERRALS], 0);
  trg_val_set_int(&run->v[RC_INCARNATION], inc);
  return SQLITE_OK;
}

/* Mark a run claimed (running, or success at once when ack is false). */
void tick_run_claim(tick *t, trg_run *run) {
  trg_val_set_int(&run->v[RC_CLAIMED_AT], t->now);
  trg_val_borrow(&run->v[RC_OWNER], t->o.owner ? t->o.owner : "");
  if (t->o.ack) {
    trg_val_set_int(&run->v[RC_LEASE_UNTIL], t->now + t->o.lease_ms);
    trg_val_set_int(&run->v[RC_LEASE_MS], t->o.lease_ms);
    trg_val_borrow(&run->v[RC_STATUS], "running");
  } else {
    trg_val_set_int(&run->v[RC_FINISHED_AT], t->now);
    trg_val_set_int(&run->v[RC_LATENCY_MS], 0);
    trg_val_borrow(&run->v[RC_STATUS], "success");
  }
  trg_val_set_null(&run->v[RC_RETRY_AT]);
}

/* A run's end at now: finished_at, and latency_ms from its claim, 0 when
** now is before the claim (a finisher's clock behind the claimer's). */
void tick_run_ended(trg_run *run, i64 now) {
  i64 latency = now - run->v[RC_CLAIMED_AT].i;
  trg_val_set_int(&run->v[RC_FINISHED_AT], now);
  trg_val_set_int(&run->v[RC_LATENCY_MS], latency > 0 ? latency : 0);
}

/* Append the claimed run to the result array. */
int tick_emit(tick *t, const trg_run *run, trg_row *r) {
  sqlite3_str *s = tick_wb_out(t);
  sqlite3_str_appendall(s, t->nout++ ? "," : "[");
  return tick_fire_element(&t->mem, s, run, r);
}

/* Record a finished-at-once row (skipped / expired) with a reason. */
int tick_record_outcome(tick *t, trg_row *r, i64 sched, const char *status,
                        char *error) {
  trg_run run;
  memset(&run, 0, sizeof run);
  int rc = error ? tick_run_make(t, &run, r, sched, 1, status) : SQLITE_NOMEM;
  if (rc == SQLITE_OK) rc = trg_val_set_text(&run.v[RC_ERROR], error);
  trg_val_set_int(&run.v[RC_FINISHED_AT], t->now);
  trg_run *stored;
  int inserted;
  if (rc == SQLITE_OK) rc = tick_wb_write_run(t, &run, &stored, &inserted);
  trg_run_clear(&run);
  sqlite3_free(error);
  if (rc == SQLITE_OK)
    rc = tick_chain(t, trg_val_text(&r->v[TC_TRIGGER_ID]), status);
  return rc;
}

/* A claimed run started: counters for ack / no-ack. */
void tick_note_claim(tick *t, trg_row *r) {
  if (t->o.ack) {
    trg_val_set_int(&r->v[TC_RUNNING], r->v[TC_RUNNING].i + 1);
  } else {
    trg_val_set_int(&r->v[TC_RUN_COUNT], r->v[TC_RUN_COUNT].i + 1);
    trg_val_set_int(&r->v[TC_LAST_RUN_AT], t->now);
    trg_val_set_text(&r->v[TC_LAST_STATUS], "success");
    trg_val_set_int(&r->v[TC_FAIL_STREAK], 0);
  }
}

/*
** After a run ended or a claim: restore a queued trigger, and complete
** one whose schedule is exhausted once nothing is in flight any more.
*/
int tick_settle(store *s, trg_row *r) {
  if (strcmp(trg_val_text(&r->v[TC_STATUS]), "scheduled") != 0)
    return SQLITE_OK;
  if (!r->v[TC_NEXT_DUE_AT].null) {
    if (r->v[TC_FIRE_AT].null && r->v[TC_RUNNING].i == 0) {
      trigger_set_next(r, 1, r->v[TC_NEXT_DUE_AT].i); /* queue released */
    }
    return SQLITE_OK;
  }
  if (r->v[TC_RUNNING].i > 0) return SQLITE_OK;
  int pending;
  int rc = store_run_pending(s, trg_val_text(&r->v[TC_TRIGGER_ID]),
                             r->v[TC_INCARNATION].i, &pending);
  if (rc != SQLITE_OK) return rc;
  if (!pending && !trigger_event_waits(r))
    trg_val_set_text(&r->v[TC_STATUS], "completed");
  return SQLITE_OK;
}

/* An occurrence ended for good with success or failure. */
void tick_occurrence_done(trg_row *r, int success, const char *error) {
  if (success) {
    trg_val_set_int(&r->v[TC_FAIL_STREAK], 0);
    return;
  }
  trg_val_set_int(&r->v[TC_FAIL_STREAK], r->v[TC_FAIL_STREAK].i + 1);
  const trg_val *limit = &r->v[TC_PAUSE_AFTER_FAILURES];
  if (!limit->null && r->v[TC_FAIL_STREAK].i >= limit->i &&
      trigger_is_active(r)) {
    trigger_transition(r, TRIGGER_PAUSE, NULL, 0);
    char *why = sqlite3_mprintf("paused after %lld consecutive failures; "
                                "last: %s",
                                (long long)r->v[TC_FAIL_STREAK].i,
                                error ? error : "failed");
    trg_val_set_owned(&r->v[TC_LAST_ERROR], why); /* NULL: the save fails */
  }
}

/* Counters for a run that finished (success or failed). last_error is
** the last failure's error: a success leaves it (last_status tells). */
void tick_note_finish(trg_row *r, i64 now, const char *status,
                      const char *error) {
  trg_val_set_int(&r->v[TC_RUNNING],
                  r->v[TC_RUNNING].i > 0 ? r->v[TC_RUNNING].i - 1 : 0);
  int failed = strcmp(status, "failed") == 0;
  if (failed || strcmp(status, "success") == 0) {
    trg_val_set_int(&r->v[TC_RUN_COUNT], r->v[TC_RUN_COUNT].i + 1);
    trg_val_set_int(&r->v[TC_LAST_RUN_AT], now);
    trg_val_set_text(&r->v[TC_LAST_STATUS], status);
  }
  if (failed) trg_val_set_text(&r->v[TC_LAST_ERROR], error);
}

void tick_unclaim(trg_row *r, const sched_spec *spec, i64 now) {
  if (r->v[TC_CLAIMS].i > 0)
    trg_val_set_int(&r->v[TC_CLAIMS], r->v[TC_CLAIMS].i - 1);
  i64 next;
  if (!r->v[TC_MAX_RUNS].null && r->v[TC_NEXT_DUE_AT].null &&
      strcmp(trg_val_text(&r->v[TC_STATUS]), "scheduled") == 0 &&
      r->v[TC_CLAIMS].i < r->v[TC_MAX_RUNS].i && sched_next(spec, now, &next)) {
    trigger_set_next(r, 1, next);
  }
}

/* An incarnation as stored that can be compared: 1..TRG_COUNT_MAX. */
static int incarnation_ok(const trg_val *v) {
  return !v->null && !v->bad && v->i >= 1 && v->i <= TRG_COUNT_MAX;
}

/* The trigger a run belongs to: SQLITE_ROW with r loaded, SQLITE_DONE when
** it was deleted, also when a trigger created later under its id (another
** incarnation) holds the id now. An incarnation that no write leaves (NULL,
** not an integer, out of range: changed outside the extension) on either
** side decides nothing: the row is loaded, and the checks of the row and
** the run (trigger_check, store_run_check) refuse it, so the trigger is
** paused. */
int tick_run_trigger_load(store *s, const trg_run *run, trg_row *r) {
  int rc = store_trigger_load(s, trg_val_text(&run->v[RC_TRIGGER_ID]), r);
  const trg_val *ti = &r->v[TC_INCARNATION], *ri = &run->v[RC_INCARNATION];
  if (rc == SQLITE_ROW && incarnation_ok(ti) && incarnation_ok(ri) &&
      ti->i != ri->i) {
    trg_row_clear(r);
    rc = SQLITE_DONE;
  }
  return rc;
}

int tick_chain(tick *t, const char *trigger_id, const char *status) {
  if (t->chains < 0) {
    int any;
    int rc = store_event_any_chain(t->call.st, &any);
    if (rc != SQLITE_OK) return rc;
    t->chains = any;
  }
  if (!t->chains) return SQLITE_OK;
  char *err = NULL;
  int rc = trigger_signal_run_end(t->call.ctx, t->call.st, trigger_id, status,
                                  t->now, &err);
  if (err && !t->err) t->err = err;
  else sqlite3_free(err);
  return rc;
}

/* Fail a run (lease expired); queue a retry when attempts remain. */
int tick_fail_run(store *s, trg_row *r, trg_run *run, i64 now,
                  const char *error, int allow_retry) {
  trg_val_set_text(&run->v[RC_STATUS], "failed");
  trg_val_set_text(&run->v[RC_ERROR], error);
  tick_run_ended(run, now);
  tick_note_finish(r, now, "failed", error);
  int retry = allow_retry && run->v[RC_ATTEMPT].i < r->v[TC_MAX_ATTEMPTS].i;
  if (retry) {
    i64 backoff = r->v[TC_BACKOFF_MS].i;
    for (i64 k = 1; k < run->v[RC_ATTEMPT].i && backoff < ((i64)1 << 50); k++)
      backoff *= 2;
    trg_val_set_int(&run->v[RC_RETRY_AT], now + backoff);
  } else {
    tick_occurrence_done(r, 0, error);
  }
  int rc = store_run_save(s, run);
  if (rc == SQLITE_OK) rc = tick_settle(s, r);
  return rc;
}
