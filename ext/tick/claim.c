/*
** claim.c -- the tick's third step (claim.h,
** docs/lifecycle.md#what-one-tick-does): the triggers
** due (triggers_state_due, next_due_at <= now, in (next_due_at,
** trigger_id) order), each claimed once fire_at, the due time plus the
** trigger's jitter, is <= now: misfire, window, overlap and max_runs
** policies decide which occurrences run; the schedule advances from its
** anchor, never from now. run_id = "<trigger_id>@<scheduled_for>#<attempt>"
** (fire_json.h), so replays and concurrent ticks collide on the UNIQUE
** key instead of duplicating.
*/
#include "tick/claim.h"

#include <string.h>

#include "store/config.h"
#include "store/due.h"
#include "store/trigger_rows.h"
#include "tick/budget_hold.h"
#include "tick/lifecycle.h"
#include "tick/quarantine.h"
#include "tick/write_behind.h"
#include "time/civil.h"
#include "trigger/transition.h"
#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

static char *span_text(const char *what, i64 n, int more, i64 first, i64 last,
                       const char *policy) {
  char a[CIVIL_ISO_MAX], b[CIVIL_ISO_MAX];
  tick_iso_utc(first, a);
  tick_iso_utc(last, b);
  return sqlite3_mprintf("%s %s%lld occurrence%s from %s to %s "
                         "(misfire_policy %s)",
                         what, more ? "more than " : "", (long long)n,
                         n == 1 && !more ? "" : "s", a, b, policy);
}

/* misfire_grace_ms, read from the config once per tick. */
static i64 grace_ms(tick *t) {
  if (t->grace_ms < 0)
    t->grace_ms = store_config_int(t->call.st, "misfire_grace_ms");
  return t->grace_ms;
}

/* Claim one occurrence of r (window and overlap already decided). */
static int claim_occurrence(tick *t, trg_row *r, i64 sched) {
  trg_run run;
  memset(&run, 0, sizeof run);
  int rc = tick_run_make(t, &run, r, sched, 1, "running");
  if (rc == SQLITE_OK) tick_run_claim(t, &run);
  trg_run *stored = &run;
  int inserted = 0;
  if (rc == SQLITE_OK) rc = tick_wb_write_run(t, &run, &stored, &inserted);
  if (rc == SQLITE_OK && inserted) {
    rc = tick_emit(t, stored, r);
    tick_note_claim(t, r);
    t->budget--;
    /* ack false: recorded success at once, so its chain signals now */
    if (rc == SQLITE_OK && !t->o.ack)
      rc = tick_chain(t, trg_val_text(&r->v[TC_TRIGGER_ID]), "success");
  }
  trg_val_set_int(&r->v[TC_CLAIMS], r->v[TC_CLAIMS].i + 1);
  trg_run_clear(&run);
  return rc;
}

/* Run (or expire / skip) one chosen occurrence. */
static int take_occurrence(tick *t, trg_row *r, i64 sched, int overlap_skip) {
  const trg_val *win = &r->v[TC_WINDOW_MS];
  if (!win->null && t->now - sched > win->i) {
    char a[CIVIL_ISO_MAX];
    tick_iso_utc(sched, a);
    trg_val_set_int(&r->v[TC_CLAIMS], r->v[TC_CLAIMS].i + 1);
    return tick_record_outcome(
        t, r, sched, "expired",
        sqlite3_mprintf("not claimed within window_ms %lld "
                        "after %s",
                        (long long)win->i, a));
  }
  if (overlap_skip) {
    return tick_record_outcome(t, r, sched, "skipped",
                               sqlite3_mprintf("previous run still running "
                                               "(overlap_policy skip)"));
  }
  int stopped;
  int rc = tick_budget_claim(t, r, sched, &stopped);
  if (rc != SQLITE_OK || stopped) return rc;
  return claim_occurrence(t, r, sched);
}

/* max_runs reached: the schedule ends (claims count what ran or expired);
** or a budget paused the trigger (budget_hold.h): no more occurrences. */
static int runs_spent(const trg_row *r) {
  return (!r->v[TC_MAX_RUNS].null &&
          r->v[TC_CLAIMS].i >= r->v[TC_MAX_RUNS].i) ||
         !r->v[TC_ENABLED].i;
}

/* r's pending signals (event_*) read again. */
static int reload_event_state(tick *t, trg_row *r) {
  static const int cols[] = {TC_EVENT_COUNT, TC_EVENT_AT, TC_EVENT_PAYLOAD,
                             TC_EVENT_FIRST_AT};
  trg_row now;
  trg_row_init(&now);
  int rc = store_trigger_load_id(t->call.st, r->id, &now);
  if (rc == SQLITE_ROW) {
    rc = SQLITE_OK;
    for (size_t i = 0; i < 4 && rc == SQLITE_OK; i++)
      rc = trg_val_copy(&r->v[cols[i]], &now.v[cols[i]]);
  } else if (rc == SQLITE_DONE) {
    rc = SQLITE_OK;
  }
  trg_row_clear(&now);
  return rc;
}

/* An event trigger due (docs/reactive.md): one run of its pending
** signals (payload.event) or of its timeout; then it waits for the next
** signal (a timeout applies only until the first run: whichever comes
** first), unless max_runs is spent. Its signal state is written at once
** with the trigger, not kept: rows after a barrier write at once. */
static int process_event(tick *t, trg_row *r, int overlap_skip) {
  int rc = tick_wb_barrier(t);
  /* a chain of a run before it in this tick may have signalled it again
  ** since its row was read: the pending signals as they are now */
  if (rc == SQLITE_OK && t->chains > 0) rc = reload_event_state(t, r);
  if (rc == SQLITE_OK)
    rc = take_occurrence(t, r, r->v[TC_NEXT_DUE_AT].i, overlap_skip);
  if (rc != SQLITE_OK) return rc;
  trigger_event_taken(r);
  trigger_set_next(r, 0, 0);
  if (!t->o.ack && r->v[TC_RUNNING].i == 0) tick_occurrence_done(r, 1, NULL);
  rc = tick_settle(t->call.st, r);
  if (rc == SQLITE_OK) rc = tick_wb_write_trigger(t, r);
  if (rc == SQLITE_OK) rc = store_trigger_save_event(t->call.st, r);
  return rc;
}

static int process_due(tick *t, trg_row *r, const sched_spec *spec) {
  int rc = SQLITE_OK;
  const char *policy = trg_val_text(&r->v[TC_MISFIRE_POLICY]);
  const char *overlap = trg_val_text(&r->v[TC_OVERLAP_POLICY]);
  int busy = r->v[TC_RUNNING].i > 0;
  if (busy && strcmp(overlap, "queue") == 0) {
    trg_val_set_null(&r->v[TC_FIRE_AT]); /* held until the running run ends */
    return tick_wb_write_trigger(t, r);
  }
  int overlap_skip = busy && strcmp(overlap, "skip") == 0;
  if (spec->type == SCHED_EVENT) return process_event(t, r, overlap_skip);
  i64 due = r->v[TC_NEXT_DUE_AT].i;
  int all = strcmp(policy, "all") == 0;
  sched_catchup cu;
  sched_catch_up(spec, due, t->now,
                 all ? TRG_MAX_MISFIRE_RUNS : TRG_CATCHUP_CAP, &cu);
  int has_next = cu.has_next;
  i64 next = cu.next_after;

  if (all) {
    /* Oldest first while the catch-up lasts, max_runs allows and the
    ** limit has room: only a claim uses the limit, so an occurrence
    ** the overlap skipped or the window expired never cuts the ones
    ** after it (docs/lifecycle.md). occ: the first one not yet taken. */
    i64 occ = due, k = 0;
    int more_occ = 1;
    while (rc == SQLITE_OK && more_occ && k < cu.count && !runs_spent(r) &&
           t->budget != 0) {
      rc = take_occurrence(t, r, occ, overlap_skip);
      k++;
      more_occ = sched_next(spec, occ, &occ);
    }
    if (rc != SQLITE_OK) return rc;
    if (more_occ && !runs_spent(r) && k < cu.count) {
      has_next = 1; /* the limit cut the catch-up: the rest stays due */
      next = occ;
    } else if (more_occ && !runs_spent(r) && cu.more) {
      rc = tick_record_outcome(
          t, r, occ, "skipped",
          span_text("missed: skipped", 0, 1, occ, t->now, policy));
    }
  } else {
    i64 skipped = cu.count - 1;
    int run_latest = !runs_spent(r);
    if (strcmp(policy, "skip") == 0 && t->now - cu.latest > grace_ms(t)) {
      run_latest = 0;
      skipped = cu.count;
    }
    if (skipped > 0) {
      i64 last = run_latest ? cu.before_latest : cu.latest;
      rc = tick_record_outcome(
          t, r, due, "skipped",
          span_text("missed:", skipped, cu.more, due, last, policy));
    }
    if (rc == SQLITE_OK && run_latest) {
      rc = take_occurrence(t, r, cu.latest, overlap_skip);
    }
  }
  if (rc != SQLITE_OK) return rc;
  if (runs_spent(r)) has_next = 0;
  trigger_set_next(r, has_next, next);
  if (!has_next && spec->type == SCHED_ONCE && r->v[TC_RUNNING].i == 0 &&
      !r->v[TC_WINDOW_MS].null && t->now - due > r->v[TC_WINDOW_MS].i) {
    /* last_error (and so the event's detail.reason) says why */
    char a[CIVIL_ISO_MAX];
    tick_iso_utc(due, a);
    trg_val_set_text(&r->v[TC_STATUS], "expired");
    rc = trg_val_set_owned(
        &r->v[TC_LAST_ERROR],
        sqlite3_mprintf("expired: not claimed within window_ms %lld after %s",
                        (long long)r->v[TC_WINDOW_MS].i, a));
    if (rc != SQLITE_OK) return rc;
  }
  if (!t->o.ack && r->v[TC_RUNNING].i == 0) tick_occurrence_done(r, 1, NULL);
  /* tick_settle() reads this trigger's runs once its schedule ended */
  if (r->v[TC_NEXT_DUE_AT].null) rc = tick_wb_barrier(t);
  if (rc == SQLITE_OK) rc = tick_settle(t->call.st, r);
  if (rc == SQLITE_OK) rc = tick_wb_write_trigger(t, r);
  return rc;
}

/* One row of a batch: checked (a row that fails is paused, see
** tick_quarantine), then processed when due, claimable and allowed. */
static int claim_row(tick *t, trg_row *r) {
  if (t->budget == 0) return SQLITE_OK;
  sched_spec spec;
  char *why;
  int rc = tick_row_check(t, r, &spec, TRIGGER_NO_JSON, &why);
  if (rc != SQLITE_OK || why)
    return why ? tick_quarantine(t, r, why, NULL, 0) : rc;
  const trg_val *fire = &r->v[TC_FIRE_AT];
  if (!fire->null && fire->i > t->now) return SQLITE_OK;
  /* held (a queue's fire_at NULL, or skip's occurrences): by a run? */
  if ((rc = tick_hold_check(t, r, &why)) != SQLITE_OK || why)
    return why ? tick_quarantine(t, r, why, NULL, r->v[TC_RUNNING].i) : rc;
  if (fire->null || !tick_opts_allow_trigger(&t->o, r)) return SQLITE_OK;
  int held; /* an agent over its budget: stays due */
  if ((rc = tick_budget_agent_held(t, r, &held)) != SQLITE_OK || held)
    return rc;
  return process_due(t, r, &spec);
}

/* A kept run existed (TICK_REDO): drop what was kept, and process rows
** [from, to) of the batch again one by one, as they are in the database
** (nothing of theirs was written). */
static int redo_rows(tick *t, trg_row *rows, int from, int to) {
  tick_wb_drop(t);
  t->wb_on = 0;
  t->bud_row = 0; /* its budget counted again (budget_hold.c) */
  int rc = SQLITE_OK;
  for (int i = from; i < to && rc == SQLITE_OK; i++) {
    i64 id = rows[i].id;
    trg_row_clear(&rows[i]);
    rc = store_trigger_load_id(t->call.st, id, &rows[i]);
    if (rc == SQLITE_ROW) rc = claim_row(t, &rows[i]);
    else if (rc == SQLITE_DONE) rc = SQLITE_OK;
  }
  tick_wb_sync(t); /* all written: nothing kept */
  return rc;
}

/* The batches of tick_claim_due grow from CLAIM_BATCH_FIRST rows to
** CLAIM_BATCH_MAX: a tick that claims a few allocates little, a busy one
** works in long phases (read the rows, insert their runs, update their
** state) instead of alternating every few rows, so the page cache spills
** and reads back fewer pages. Busy tick at 100k fires vs the plain-SQL
** baseline (bench/README.md): at most 512 rows 0.55x, 2048 0.62x, 4096
** 0.66x, 8192 no better; 4096 rows hold ~10 MiB while the batch lasts
** (rows, kept runs and their texts; measured: peak RSS 7.6 MiB for a
** 100-fire tick, 16.8 MiB for 4096 fires with a 2.1 MiB result). */
#define CLAIM_BATCH_FIRST 16
#define CLAIM_BATCH_MAX 4096

int tick_claim_due(tick *t) {
  int rc = SQLITE_OK, batch = CLAIM_BATCH_FIRST, cap = 0;
  trg_row *rows = NULL;
  t->wb = t->narrow ? tick_wb_new(t) : NULL;
  /* Batches: rows are written while the probe is re-run, so read a batch,
  ** release the statement, process it, repeat until nothing is due. Each
  ** batch starts after the last (next_due_at, trigger_id) read, so rows
  ** passed over (another wake_mode; jitter not yet over, fire_at > now; a
  ** queue holding the trigger, fire_at NULL) never hide the ones behind
  ** them, and every due row is read at most once per pass. */
  store_due_pos pos = {INT64_MIN, NULL};
  for (;; batch = batch < CLAIM_BATCH_MAX ? 2 * batch : batch) {
    if (t->budget == 0) break;
    if (cap < batch) {
      trg_row *grown =
          sqlite3_realloc64(rows, (sqlite3_uint64)batch * sizeof *rows);
      if (!grown) {
        rc = SQLITE_NOMEM;
        break;
      }
      rows = grown; /* rows are empty between batches (trg_row_clear) */
      for (; cap < batch; cap++) trg_row_init(&rows[cap]);
      if (t->wb && !tick_wb_reserve(t->wb, batch)) {
        rc = SQLITE_NOMEM;
        break;
      }
    }
    /* No more rows than the budget can claim: a host with one free slot
    ** asks for one run, and each row read is a whole trigger. */
    int want = t->budget > 0 && t->budget < batch ? (int)t->budget : batch;
    int n = 0;
    rc = store_due_read(t->call.st, t->now, t->o.agents, &pos, rows, want, &n);
    t->rows += n;
    int first = 0; /* rows before it are written (or none kept) */
    for (int i = 0; i < n && rc == SQLITE_OK; i++) {
      t->wb_on = t->wb != NULL;
      rc = claim_row(t, &rows[i]);
      if (rc == TICK_REDO) rc = redo_rows(t, rows, first, i + 1);
      if (!t->wb_on) first = i + 1;
    }
    if (t->wb) {
      t->wb_on = 0;
      if (rc == SQLITE_OK) rc = tick_wb_flush(t);
      if (rc == TICK_REDO) rc = redo_rows(t, rows, first, n);
      if (rc != SQLITE_OK) tick_wb_drop(t);
    }
    for (int i = 0; i < n; i++) trg_row_clear(&rows[i]);
    trg_arena_reset(&t->mem); /* nothing kept or borrowed refers to it now */
    if (rc != SQLITE_OK || n < want) break;
  }
  store_due_pos_free(&pos);
  sqlite3_free(rows);
  tick_wb_free(t);
  return rc;
}
