/*
** tick.c -- the tick and the run lifecycle (DESIGN.md §6).
**
** trigger_run_due([now [, options]]) works in one transaction (BEGIN
** IMMEDIATE in autocommit mode, else a SAVEPOINT in the caller's
** transaction) and does three index probes, each followed by work
** proportional to what it found:
**   1. runs whose lease passed (triggers_rundata_lease): recorded failed
**      "lease expired"; with attempts left a retry is queued for now;
**   2. runs to re-offer (triggers_rundata_retry): deferred runs are
**      claimed again with the same run_id, failed ones as attempt n+1;
**   3. triggers due (triggers_state_due, next_due_at <= now, ordered by
**      (next_due_at, trigger_id); claimed once fire_at, the due time plus
**      the trigger's jitter, is <= now): misfire, window, overlap and max_runs
**      policies decide which occurrences run; the schedule advances from
**      its anchor, never from now.
** run_id = "<trigger_id>@<scheduled_for>#<attempt>" (with "~<incarnation>"
** after it for a trigger re-created under a deleted one's id: fire_json.h),
** so replays and concurrent ticks collide on the UNIQUE key instead of
** duplicating. A run belongs to the incarnation that made it: a run of a
** deleted trigger (finished, reclaimed or re-offered) never touches a
** trigger created later under the same id (run_trigger_load).
*/
#include "base/register.h"
#include "base/triggers_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/args.h"
#include "store/config.h"
#include "store/due.h"
#include "store/json.h"
#include "store/run_rows.h"
#include "store/schema.h"
#include "store/stored.h"
#include "store/txn.h"
#include "store/wake.h"
#include "text/run_text.h"
#include "tick/fire_json.h"
#include "tick/tick_opts.h"
#include "time/civil.h"
#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

typedef struct tick {
  sqlite3 *db;
  trg_ctx *ctx;
  store st;
  i64 now;
  tick_opts o;
  sqlite3_str *out; /* JSON array of claimed runs */
  int nout;
  i64 budget;   /* runs still claimable (limit) */
  i64 grace_ms; /* misfire_grace_ms */
  const char *fname;
  char *err; /* message for a failed tick */
  i64 rows;  /* rows read by the probes */
  /* The tick's own writes update only the columns a tick changes; the
  ** status and enabled of the row as loaded tell whether those two (and
  ** the indexes on them) need writing too. Not set: full-row save. */
  int narrow;
  i64 snap_id, snap_enabled;
  int snap_enabled_null;
  char snap_status[16];
  arena mem; /* run texts (fire_json.h); reset per batch, see run_make */
  struct write_behind *wb; /* claim_due's kept writes, see below */
  int wb_on;               /* writes are kept (else written at once) */
  const char *gone; /* why a run's trigger is unusable, when it is NULL */
} tick;

/* ---- write-behind ---------------------------------------------------- */

/*
** While claim_due processes a batch of due rows, a fire's two writes, its
** run row and its trigger's state row (status unchanged), are kept and
** written when the batch ends by a few multi-row statements (run_rows.c,
** STORE_MANY rows each) instead of two statements per fire: the per-
** statement cost was half of a fire's (bench/README.md).
**
** It changes nothing a tick decides or writes. A claim's INSERT OR IGNORE
** inserts nothing only when its run_id exists already; the kept runs are
** written by INSERT OR IGNORE too, and when fewer went in than were kept
** (a run existed), the runs inserted after the mark taken before (the
** highest run rowid: new rows get higher ones) are deleted, the kept
** writes and what they did (result JSON, budget) are dropped, and the
** rows since the last write are read again and processed one by one,
** writing at once. What reads the tables the kept writes change
** (settle's pending_for) and any other trigger write come after a
** wb_barrier(): the kept writes are written first and the rest of that
** row writes at once.
*/
/* rc of a kept write whose run exists: process those rows again */
#define TICK_REDO (SQLITE_ABORT | (99 << 8))

typedef struct write_behind {
  run_row *runs; /* kept runs; written when full (2 per row of the batch) */
  int nruns, cap;
  trg_row **rows; /* the batch's rows whose state row is kept */
  int nrows;
  sqlite3_str *out; /* result elements of the kept claims */
  int nout;         /* t->nout and t->budget when last written */
  i64 budget;
} write_behind;

/* Forget what is kept. */
static void wb_clear(write_behind *w) {
  for (int i = 0; i < w->nruns; i++) run_clear(&w->runs[i]);
  w->nruns = w->nrows = 0;
  sqlite3_str_reset(w->out);
}

/* Forget what is kept and what it did to the result and the budget. */
static void wb_drop(tick *t) {
  if (!t->wb) return; /* TICK_REDO comes only from kept writes */
  wb_clear(t->wb);
  t->nout = t->wb->nout;
  t->budget = t->wb->budget;
}

/* Write what is kept; TICK_REDO (nothing written) if a kept run exists. */
static int wb_flush(tick *t) {
  write_behind *w = t->wb;
  int rc = SQLITE_OK;
  if (w->nruns) {
    i64 mark;
    int all_new = 0;
    rc = store_run_mark(&t->st, &mark);
    /* At the largest rowid SQLite picks new ones at random: no mark. */
    if (rc == SQLITE_OK && mark == INT64_MAX) return TICK_REDO;
    if (rc == SQLITE_OK)
      rc = store_run_insert_all(&t->st, w->runs, w->nruns, &all_new);
    if (rc == SQLITE_OK && !all_new) {
      rc = store_runs_drop_after(&t->st, mark);
      if (rc == SQLITE_OK) return TICK_REDO;
    }
  }
  if (rc == SQLITE_OK) rc = store_tick_hot_all(&t->st, w->rows, w->nrows);
  if (rc == SQLITE_OK && sqlite3_str_errcode(w->out)) rc = SQLITE_NOMEM;
  if (rc != SQLITE_OK) return rc;
  if (sqlite3_str_length(w->out)) {
    sqlite3_str_append(t->out, sqlite3_str_value(w->out),
                       sqlite3_str_length(w->out));
  }
  wb_clear(w);
  w->nout = t->nout;
  w->budget = t->budget;
  return SQLITE_OK;
}

/* Write what is kept; the rest of this row writes at once. */
static int wb_barrier(tick *t) {
  if (!t->wb_on) return SQLITE_OK;
  t->wb_on = 0;
  return wb_flush(t);
}

/* Where this row's result elements go. */
static sqlite3_str *tick_out(tick *t) { return t->wb_on ? t->wb->out : t->out; }

/* Write (or keep) a run row. *stored: the row as written or kept (the
** caller's run is emptied when kept); *inserted: 0 when INSERT OR IGNORE
** found it existing. */
static int run_write(tick *t, run_row *run, run_row **stored, int *inserted) {
  *stored = run;
  *inserted = 0;
  if (t->wb_on && t->wb->nruns == t->wb->cap) {
    int rc = wb_barrier(t);
    if (rc != SQLITE_OK) return rc;
  }
  if (t->wb_on) {
    write_behind *w = t->wb;
    *stored = &w->runs[w->nruns++];
    **stored = *run;
    memset(run, 0, sizeof *run);
    *inserted = 1;
    return SQLITE_OK;
  }
  int rc = store_run_insert(&t->st, run);
  *inserted = rc == SQLITE_OK && sqlite3_changes(t->db) > 0;
  return rc;
}

/* ---- run rows -------------------------------------------------------- */

static void iso_utc(i64 ms, char *buf) { civil_format_iso(ms, 0, 1, buf); }

/* Fill a run row for occurrence `sched` of trigger r. Its texts are
** borrowed: run_id and payload from the tick's arena, trigger_id and
** agent_id from r, status a literal; r and the arena outlive the run's
** write (claim_due resets the arena once a batch is written). */
static int run_make(tick *t, run_row *run, trg_row *r, i64 sched, i64 attempt,
                    const char *status) {
  run_clear(run);
  const char *tid = val_text(&r->v[TC_TRIGGER_ID]);
  i64 inc = r->v[TC_INCARNATION].i;
  char *id = fire_run_id(&t->mem, tid, inc, sched, attempt);
  char *payload = id ? fire_payload(&t->mem, r, id, sched) : NULL;
  if (!payload) return SQLITE_NOMEM;
  val_borrow(&run->v[RC_RUN_ID], id);
  val_borrow(&run->v[RC_PAYLOAD], payload);
  val_borrow(&run->v[RC_TRIGGER_ID], tid);
  val_borrow(&run->v[RC_AGENT_ID], val_text(&r->v[TC_AGENT_ID]));
  val_borrow(&run->v[RC_STATUS], status);
  val_set_int(&run->v[RC_SCHEDULED_FOR], sched);
  val_set_int(&run->v[RC_ATTEMPT], attempt);
  val_set_int(&run->v[RC_DEFERRALS], 0);
  val_set_int(&run->v[RC_INCARNATION], inc);
  return SQLITE_OK;
}

/* Mark a run claimed (running, or success at once when ack is false). */
static void run_claim(tick *t, run_row *run) {
  val_set_int(&run->v[RC_CLAIMED_AT], t->now);
  val_borrow(&run->v[RC_OWNER], t->o.owner ? t->o.owner : "");
  if (t->o.ack) {
    val_set_int(&run->v[RC_LEASE_UNTIL], t->now + t->o.lease_ms);
    val_set_int(&run->v[RC_LEASE_MS], t->o.lease_ms);
    val_borrow(&run->v[RC_STATUS], "running");
  } else {
    val_set_int(&run->v[RC_FINISHED_AT], t->now);
    val_set_int(&run->v[RC_LATENCY_MS], 0);
    val_borrow(&run->v[RC_STATUS], "success");
  }
  val_set_null(&run->v[RC_RETRY_AT]);
}

/* Append the claimed run to the result array. */
static int emit(tick *t, const run_row *run, trg_row *r) {
  sqlite3_str *s = tick_out(t);
  sqlite3_str_appendall(s, t->nout++ ? "," : "[");
  return fire_element(&t->mem, s, run, r);
}

/* Record a finished-at-once row (skipped / expired) with a reason. */
static int record_outcome(tick *t, trg_row *r, i64 sched, const char *status,
                          char *error) {
  run_row run;
  memset(&run, 0, sizeof run);
  int rc = error ? run_make(t, &run, r, sched, 1, status) : SQLITE_NOMEM;
  if (rc == SQLITE_OK) rc = val_set_text(&run.v[RC_ERROR], error);
  val_set_int(&run.v[RC_FINISHED_AT], t->now);
  run_row *stored;
  int inserted;
  if (rc == SQLITE_OK) rc = run_write(t, &run, &stored, &inserted);
  run_clear(&run);
  sqlite3_free(error);
  return rc;
}

/* ---- trigger bookkeeping --------------------------------------------- */

static int trigger_write(tick *t, trg_row *r) {
  val_set_int(&r->v[TC_UPDATED_AT], t->now);
  int same = t->narrow && r->id == t->snap_id &&
             strcmp(val_text(&r->v[TC_STATUS]), t->snap_status) == 0 &&
             r->v[TC_ENABLED].null == t->snap_enabled_null &&
             r->v[TC_ENABLED].i == t->snap_enabled;
  if (same && t->wb_on) {
    write_behind *w = t->wb; /* r is a row of claim_due's batch */
    if (!w->nrows || w->rows[w->nrows - 1] != r) w->rows[w->nrows++] = r;
    return SQLITE_OK;
  }
  int rc = wb_barrier(t);
  if (rc != SQLITE_OK) return rc;
  if (!t->narrow) return store_trigger_save(&t->st, r);
  return store_trigger_save_tick(&t->st, r, !same);
}

/* Remember status and enabled of a row just loaded by the tick. */
static void snapshot(tick *t, const trg_row *r) {
  const char *st = val_text(&r->v[TC_STATUS]);
  t->snap_id = strlen(st) < sizeof t->snap_status ? r->id : 0;
  if (t->snap_id) memcpy(t->snap_status, st, strlen(st) + 1);
  t->snap_enabled = r->v[TC_ENABLED].i;
  t->snap_enabled_null = r->v[TC_ENABLED].null;
}

/* A claimed run started: counters for ack / no-ack. */
static void note_claim(tick *t, trg_row *r) {
  if (t->o.ack) {
    val_set_int(&r->v[TC_RUNNING], r->v[TC_RUNNING].i + 1);
  } else {
    val_set_int(&r->v[TC_RUN_COUNT], r->v[TC_RUN_COUNT].i + 1);
    val_set_int(&r->v[TC_LAST_RUN_AT], t->now);
    val_set_text(&r->v[TC_LAST_STATUS], "success");
    val_set_int(&r->v[TC_FAIL_STREAK], 0);
  }
}

/*
** After a run ended or a claim: restore a queued trigger, and complete
** one whose schedule is exhausted once nothing is in flight any more.
*/
static int settle(store *s, trg_row *r) {
  if (strcmp(val_text(&r->v[TC_STATUS]), "scheduled") != 0) return SQLITE_OK;
  if (!r->v[TC_NEXT_DUE_AT].null) {
    if (r->v[TC_FIRE_AT].null && r->v[TC_RUNNING].i == 0) {
      trg_set_next(r, 1, r->v[TC_NEXT_DUE_AT].i); /* queue released */
    }
    return SQLITE_OK;
  }
  if (r->v[TC_RUNNING].i > 0) return SQLITE_OK;
  int p = store_run_pending(s, val_text(&r->v[TC_TRIGGER_ID]),
                            r->v[TC_INCARNATION].i);
  if (p < 0) return store_err(s);
  if (!p) val_set_text(&r->v[TC_STATUS], "completed");
  return SQLITE_OK;
}

/* An occurrence ended for good with success or failure. */
static void occurrence_done(trg_row *r, int success, const char *error) {
  if (success) {
    val_set_int(&r->v[TC_FAIL_STREAK], 0);
    return;
  }
  val_set_int(&r->v[TC_FAIL_STREAK], r->v[TC_FAIL_STREAK].i + 1);
  const trg_val *limit = &r->v[TC_PAUSE_AFTER_FAILURES];
  if (!limit->null && r->v[TC_FAIL_STREAK].i >= limit->i && trg_is_active(r)) {
    trg_pause(r);
    char *why = sqlite3_mprintf("paused after %lld consecutive failures; "
                                "last: %s",
                                (long long)r->v[TC_FAIL_STREAK].i,
                                error ? error : "failed");
    val_set_owned(&r->v[TC_LAST_ERROR], why); /* NULL: the save fails */
  }
}

/* Counters for a run that finished (success or failed). last_error is
** the last failure's error: a success leaves it (last_status tells). */
static void note_finish(trg_row *r, i64 now, const char *status,
                        const char *error) {
  val_set_int(&r->v[TC_RUNNING],
              r->v[TC_RUNNING].i > 0 ? r->v[TC_RUNNING].i - 1 : 0);
  int failed = strcmp(status, "failed") == 0;
  if (failed || strcmp(status, "success") == 0) {
    val_set_int(&r->v[TC_RUN_COUNT], r->v[TC_RUN_COUNT].i + 1);
    val_set_int(&r->v[TC_LAST_RUN_AT], now);
    val_set_text(&r->v[TC_LAST_STATUS], status);
  }
  if (failed) val_set_text(&r->v[TC_LAST_ERROR], error);
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
** the run (trg_check, run_check) refuse it, so the trigger is paused. */
static int run_trigger_load(store *s, const run_row *run, trg_row *r) {
  int rc = store_trigger_load(s, val_text(&run->v[RC_TRIGGER_ID]), r);
  const trg_val *ti = &r->v[TC_INCARNATION], *ri = &run->v[RC_INCARNATION];
  if (rc == SQLITE_ROW && incarnation_ok(ti) && incarnation_ok(ri) &&
      ti->i != ri->i) {
    row_clear(r);
    rc = SQLITE_DONE;
  }
  return rc;
}

/* ---- rows changed outside the extension ------------------------------ */

/*
** DESIGN.md §4: a shadow-table row holding a value the extension would
** refuse never crashes or stops a tick. The row is checked when it is
** read (trg_check with TRG_STORED, the validator INSERT uses; run_check
** for a run) and one that fails is taken out of the schedule, writing
** only what that takes (store_trigger_quarantine), never its other
** values: paused (a completed, cancelled or expired trigger keeps its
** status; `status` given: that one), next_due_at NULL, and last_error
** "<table>.<column>: <what is wrong>; trigger paused". closed: a running
** run of it was just closed, so its running count goes down by one (when
** that count can be read). Takes why.
*/
static int quarantine(tick *t, trg_row *r, char *why, const char *status,
                      int closed) {
  static const char *const kept[] = {"completed", "cancelled", "expired", 0};
  const trg_val *st = &r->v[TC_STATUS], *run = &r->v[TC_RUNNING];
  if (!status) {
    status = "paused";
    for (int i = 0; kept[i]; i++) {
      if (!st->bad && strcmp(val_text(st), kept[i]) == 0) status = kept[i];
    }
  }
  int paused = strcmp(status, "paused") == 0;
  i64 running = -1;
  if (closed && !run->bad && !run->null && run->i > 0 &&
      run->i <= TRG_COUNT_MAX)
    running = run->i - 1;
  char *msg = why ? sqlite3_mprintf("%s; %s", why,
                                    paused ? "trigger paused"
                                    : strcmp(status, "cancelled") == 0
                                        ? "trigger cancelled"
                                        : "taken out of the schedule")
                  : NULL;
  sqlite3_free(why);
  int rc = msg ? wb_barrier(t) : SQLITE_NOMEM;
  if (rc == SQLITE_OK) {
    rc = store_trigger_quarantine(&t->st, r->id, status, paused, msg, t->now,
                                  running);
  }
  /* The row as written now, for the JSON the lifecycle calls return. */
  if (rc == SQLITE_OK) rc = val_set_text(&r->v[TC_STATUS], status);
  if (paused) val_set_int(&r->v[TC_ENABLED], 0);
  if (running >= 0) val_set_int(&r->v[TC_RUNNING], running);
  val_set_null(&r->v[TC_NEXT_DUE_AT]);
  val_set_null(&r->v[TC_FIRE_AT]);
  val_set_int(&r->v[TC_UPDATED_AT], t->now);
  if (rc == SQLITE_OK) rc = val_set_owned(&r->v[TC_LAST_ERROR], msg);
  else sqlite3_free(msg);
  return rc;
}

/* Check a trigger row read back (flags: TRG_NO_JSON or 0). SQLITE_OK with
** *why NULL (usable, *spec its schedule) or with *why the message of what
** is wrong; else an error such as SQLITE_NOMEM. */
static int row_check(tick *t, trg_row *r, sched_spec *spec, int flags,
                     char **why) {
  *why = NULL;
  int rc = trg_check(t->ctx, &t->st, r, spec, t->now, TRG_STORED | flags, why);
  return *why ? SQLITE_OK : rc;
}

/* Check a run row read back; its message names the run. */
static int run_row_check(tick *t, const run_row *run, char **why) {
  char *err = NULL;
  int rc = run_check(&t->st, run, &err);
  *why = NULL;
  if (!err) return rc;
  *why = sqlite3_mprintf("%s (run '%s')", err, val_text(&run->v[RC_RUN_ID]));
  sqlite3_free(err);
  return *why ? SQLITE_OK : SQLITE_NOMEM;
}

static int for_each_run(tick *t, store_runs_kind kind,
                        int (*fn)(tick *, trg_row *, run_row *));

/* A stray run that passes its check after all is left alone. */
static int leave_run(tick *t, trg_row *r, run_row *run) {
  (void)t;
  (void)r;
  (void)run;
  return SQLITE_OK;
}

/* Rows the probes never reach (a time that is not a number or is past
** the instant range, due.c STRAY): each fails its check, so it is
** paused (a run closed) instead of lost, STRAY_BATCH of each kind per
** tick. */
#define STRAY_BATCH 8
static int pause_strays(tick *t) {
  int rc = for_each_run(t, STORE_RUNS_STRAY_LEASE, leave_run);
  if (rc == SQLITE_OK) rc = for_each_run(t, STORE_RUNS_STRAY_RETRY, leave_run);
  if (rc != SQLITE_OK) return rc;
  trg_row rows[STRAY_BATCH];
  int n = 0;
  for (int i = 0; i < STRAY_BATCH; i++) row_init(&rows[i]);
  rc = store_due_strays(&t->st, rows, STRAY_BATCH, &n);
  for (int i = 0; i < n; i++) {
    sched_spec spec;
    char *why = NULL;
    if (rc == SQLITE_OK) rc = row_check(t, &rows[i], &spec, TRG_NO_JSON, &why);
    if (rc == SQLITE_OK && why) rc = quarantine(t, &rows[i], why, NULL, 0);
    row_clear(&rows[i]);
  }
  return rc;
}

/* ---- step 1: expired leases ------------------------------------------ */

static int wake_allowed(tick *t, const trg_row *r) {
  return !t->o.wake_mode ||
         strcmp(t->o.wake_mode, val_text(&r->v[TC_WAKE_MODE])) == 0;
}

/* Fail a run (lease expired); queue a retry when attempts remain. */
static int fail_run(store *s, trg_row *r, run_row *run, i64 now,
                    const char *error, int allow_retry) {
  val_set_text(&run->v[RC_STATUS], "failed");
  val_set_text(&run->v[RC_ERROR], error);
  val_set_int(&run->v[RC_FINISHED_AT], now);
  val_set_int(&run->v[RC_LATENCY_MS], now - run->v[RC_CLAIMED_AT].i);
  note_finish(r, now, "failed", error);
  int retry = allow_retry && run->v[RC_ATTEMPT].i < r->v[TC_MAX_ATTEMPTS].i;
  if (retry) {
    i64 backoff = r->v[TC_BACKOFF_MS].i;
    for (i64 k = 1; k < run->v[RC_ATTEMPT].i && backoff < ((i64)1 << 50); k++)
      backoff *= 2;
    val_set_int(&run->v[RC_RETRY_AT], now + backoff);
  } else {
    occurrence_done(r, 0, error);
  }
  int rc = store_run_save(s, run);
  if (rc == SQLITE_OK) rc = settle(s, r);
  return rc;
}

/* What unusable() found. */
enum { USABLE, RUN_CLOSED, TRIGGER_PAUSED };

/* A run (and its trigger r, when found) read back by a probe of step 1
** or 2 (counted: a running run, counted in its trigger's `running`): a
** run that fails run_check is closed and its trigger paused (*how
** RUN_CLOSED); a trigger that fails trg_check is paused, and the run is
** then handled as one whose trigger is gone (TRIGGER_PAUSED). */
static int unusable(tick *t, trg_row *r, run_row *run, int counted, int *how) {
  char *why = NULL;
  *how = USABLE;
  int rc = run_row_check(t, run, &why);
  if (rc == SQLITE_OK && why) {
    *how = RUN_CLOSED;
    char *closing = sqlite3_mprintf("%s; run closed", why);
    rc = closing ? store_run_close(&t->st, run->id, "failed", closing, t->now)
                 : SQLITE_NOMEM;
    sqlite3_free(closing);
    if (rc == SQLITE_OK && r) return quarantine(t, r, why, NULL, counted);
    sqlite3_free(why);
    return rc;
  }
  if (rc == SQLITE_OK && r) {
    sched_spec spec;
    rc = row_check(t, r, &spec, TRG_NO_JSON, &why);
    if (rc == SQLITE_OK && why) {
      *how = TRIGGER_PAUSED;
      rc = quarantine(t, r, why, NULL, counted);
    }
  }
  return rc;
}

/* A run the tick's options let it take (store_runs_read's keep). */
static int allowed_run(void *arg, const run_row *run) {
  return tick_opts_allow_agent(arg, val_text(&run->v[RC_AGENT_ID]));
}

static int for_each_run(tick *t, store_runs_kind kind,
                        int (*fn)(tick *, trg_row *, run_row *)) {
  /* Collect first: the callbacks write to the table being read. */
  int n = 0;
  run_row *runs = NULL;
  int rc = store_runs_read(&t->st, kind, t->now, allowed_run, &t->o, &runs, &n,
                           &t->rows);
  for (int i = 0; i < n && rc == SQLITE_OK; i++) {
    trg_row r;
    row_init(&r);
    int found = run_trigger_load(&t->st, &runs[i], &r);
    int how = USABLE;
    if (found == SQLITE_ROW || found == SQLITE_DONE) {
      rc = unusable(t, found == SQLITE_ROW ? &r : NULL, &runs[i],
                    kind == STORE_RUNS_LEASED || kind == STORE_RUNS_STRAY_LEASE,
                    &how);
    } else {
      rc = found;
    }
    if (rc == SQLITE_OK && how == TRIGGER_PAUSED) { /* as if it were gone */
      t->gone = "trigger is no longer active";
      rc = fn(t, NULL, &runs[i]);
      t->gone = NULL;
    } else if (rc == SQLITE_OK && how == USABLE && found == SQLITE_ROW) {
      snapshot(t, &r);
      if (wake_allowed(t, &r)) rc = fn(t, &r, &runs[i]);
    } else if (rc == SQLITE_OK && how == USABLE) {
      rc = fn(t, NULL, &runs[i]);
    }
    row_clear(&r);
    arena_reset(&t->mem); /* the texts of the run(s) written for r */
  }
  for (int i = 0; i < n; i++) run_clear(&runs[i]);
  sqlite3_free(runs);
  return rc;
}

static int on_lease_expired(tick *t, trg_row *r, run_row *run) {
  if (!r) { /* trigger deleted: just close the run */
    val_set_text(&run->v[RC_STATUS], "failed");
    val_set_text(&run->v[RC_ERROR], "lease expired");
    val_set_int(&run->v[RC_FINISHED_AT], t->now);
    return store_run_save(&t->st, run);
  }
  int rc = fail_run(&t->st, r, run, t->now, "lease expired", 1);
  if (rc == SQLITE_OK && !run->v[RC_RETRY_AT].null) {
    val_set_int(&run->v[RC_RETRY_AT], t->now); /* reclaim at once */
    rc = store_run_save(&t->st, run);
  }
  if (rc == SQLITE_OK) rc = trigger_write(t, r);
  return rc;
}

/* ---- step 2: retries and deferred runs ------------------------------- */

static int on_retry(tick *t, trg_row *r, run_row *run) {
  int rc;
  int deferred = strcmp(val_text(&run->v[RC_STATUS]), "deferred") == 0;
  if (!r || !trg_is_active(r) ||
      strcmp(val_text(&r->v[TC_STATUS]), "paused") == 0) {
    val_set_null(&run->v[RC_RETRY_AT]);
    if (deferred) {
      val_set_text(&run->v[RC_STATUS], "skipped");
      val_set_text(&run->v[RC_ERROR], r         ? "trigger is no longer active"
                                      : t->gone ? t->gone
                                                : "trigger was deleted");
      val_set_int(&run->v[RC_FINISHED_AT], t->now);
    }
    rc = store_run_save(&t->st, run);
    if (rc == SQLITE_OK && r) {
      rc = settle(&t->st, r);
      if (rc == SQLITE_OK) rc = trigger_write(t, r);
    }
    return rc;
  }
  if (t->budget == 0) return SQLITE_OK;
  if (deferred) {
    if (run->v[RC_DEFERRALS].i >= TRG_MAX_DEFERRALS) {
      val_set_null(&run->v[RC_RETRY_AT]);
      val_set_text(&run->v[RC_STATUS], "expired");
      val_set_text(&run->v[RC_ERROR], "deferred too many times");
      val_set_int(&run->v[RC_FINISHED_AT], t->now);
      rc = store_run_save(&t->st, run);
      if (rc == SQLITE_OK) rc = settle(&t->st, r);
      /* A once trigger whose only occurrence expired unrun is expired, as
      ** when its window passes, not completed. */
      if (rc == SQLITE_OK &&
          strcmp(val_text(&r->v[TC_STATUS]), "completed") == 0 &&
          strcmp(val_text(&r->v[TC_TRIGGER_TYPE]), "once") == 0) {
        val_set_text(&r->v[TC_STATUS], "expired");
        rc = val_set_text(&r->v[TC_LAST_ERROR], "deferred too many times");
      }
      if (rc == SQLITE_OK) rc = trigger_write(t, r);
      return rc;
    }
    val_set_null(&run->v[RC_ERROR]);
    val_set_null(&run->v[RC_RESULT]);
    val_set_null(&run->v[RC_FINISHED_AT]);
    val_set_null(&run->v[RC_LATENCY_MS]);
    run_claim(t, run);
    rc = store_run_save(&t->st, run);
    if (rc == SQLITE_OK) rc = emit(t, run, r);
  } else {
    run_row next;
    memset(&next, 0, sizeof next);
    val_set_null(&run->v[RC_RETRY_AT]);
    rc = store_run_save(&t->st, run);
    if (rc == SQLITE_OK) {
      rc = run_make(t, &next, r, run->v[RC_SCHEDULED_FOR].i,
                    run->v[RC_ATTEMPT].i + 1, "running");
    }
    if (rc == SQLITE_OK) run_claim(t, &next);
    if (rc == SQLITE_OK) rc = store_run_insert(&t->st, &next);
    if (rc == SQLITE_OK) rc = emit(t, &next, r);
    run_clear(&next);
  }
  t->budget--;
  note_claim(t, r);
  if (!t->o.ack) occurrence_done(r, 1, NULL);
  if (rc == SQLITE_OK) rc = settle(&t->st, r);
  if (rc == SQLITE_OK) rc = trigger_write(t, r);
  return rc;
}

/* ---- step 3: due triggers -------------------------------------------- */

static char *span_text(const char *what, i64 n, int more, i64 first, i64 last,
                       const char *policy) {
  char a[CIVIL_ISO_MAX], b[CIVIL_ISO_MAX];
  iso_utc(first, a);
  iso_utc(last, b);
  return sqlite3_mprintf("%s %s%lld occurrence%s from %s to %s "
                         "(misfire_policy %s)",
                         what, more ? "more than " : "", (long long)n,
                         n == 1 && !more ? "" : "s", a, b, policy);
}

/* misfire_grace_ms, read from the config once per tick. */
static i64 grace_ms(tick *t) {
  if (t->grace_ms < 0) t->grace_ms = config_int(&t->st, "misfire_grace_ms");
  return t->grace_ms;
}

/* Claim one occurrence of r (window and overlap already decided). */
static int claim_occurrence(tick *t, trg_row *r, i64 sched) {
  run_row run;
  memset(&run, 0, sizeof run);
  int rc = run_make(t, &run, r, sched, 1, "running");
  if (rc == SQLITE_OK) run_claim(t, &run);
  run_row *stored = &run;
  int inserted = 0;
  if (rc == SQLITE_OK) rc = run_write(t, &run, &stored, &inserted);
  if (rc == SQLITE_OK && inserted) {
    rc = emit(t, stored, r);
    note_claim(t, r);
    t->budget--;
  }
  val_set_int(&r->v[TC_CLAIMS], r->v[TC_CLAIMS].i + 1);
  run_clear(&run);
  return rc;
}

/* Run (or expire / skip) one chosen occurrence. */
static int take_occurrence(tick *t, trg_row *r, i64 sched, int overlap_skip) {
  const trg_val *win = &r->v[TC_WINDOW_MS];
  if (!win->null && t->now - sched > win->i) {
    char a[CIVIL_ISO_MAX];
    iso_utc(sched, a);
    val_set_int(&r->v[TC_CLAIMS], r->v[TC_CLAIMS].i + 1);
    return record_outcome(t, r, sched, "expired",
                          sqlite3_mprintf("not claimed within window_ms %lld "
                                          "after %s",
                                          (long long)win->i, a));
  }
  if (overlap_skip) {
    return record_outcome(t, r, sched, "skipped",
                          sqlite3_mprintf("previous run still running "
                                          "(overlap_policy skip)"));
  }
  return claim_occurrence(t, r, sched);
}

static int process_due(tick *t, trg_row *r, const sched_spec *spec) {
  int rc = SQLITE_OK;
  const char *policy = val_text(&r->v[TC_MISFIRE_POLICY]);
  const char *overlap = val_text(&r->v[TC_OVERLAP_POLICY]);
  int busy = r->v[TC_RUNNING].i > 0;
  if (busy && strcmp(overlap, "queue") == 0) {
    val_set_null(&r->v[TC_FIRE_AT]); /* held until the running run ends */
    return trigger_write(t, r);
  }
  int overlap_skip = busy && strcmp(overlap, "skip") == 0;
  i64 due = r->v[TC_NEXT_DUE_AT].i;
  i64 room = r->v[TC_MAX_RUNS].null ? INT64_MAX
                                    : r->v[TC_MAX_RUNS].i - r->v[TC_CLAIMS].i;
  int all = strcmp(policy, "all") == 0;
  sched_catchup cu;
  sched_catch_up(spec, due, t->now,
                 all ? TRG_MAX_MISFIRE_RUNS : TRG_CATCHUP_CAP, &cu);
  int has_next = cu.has_next;
  i64 next = cu.next_after;

  if (all) {
    i64 n = cu.count;
    if (n > room) n = room;
    if (t->budget >= 0 && n > t->budget) n = t->budget;
    i64 occ = due, k = 0;
    for (; k < n && rc == SQLITE_OK; k++) {
      rc = take_occurrence(t, r, occ, overlap_skip);
      if (k + 1 < n && !sched_next(spec, occ, &occ)) break;
    }
    if (rc != SQLITE_OK) return rc;
    if (n < cu.count && n < room && t->budget == 0) {
      /* The limit cut the catch-up: the rest stays due. */
      i64 rest;
      if (n == 0) rest = due;
      else if (!sched_next(spec, occ, &rest)) rest = next;
      has_next = 1;
      next = rest;
    } else if (cu.more) {
      i64 from;
      sched_next(spec, occ, &from);
      rc = record_outcome(
          t, r, from, "skipped",
          span_text("missed: skipped", 0, 1, from, t->now, policy));
    }
  } else {
    i64 skipped = cu.count - 1;
    int run_latest = room > 0;
    if (strcmp(policy, "skip") == 0 && t->now - cu.latest > grace_ms(t)) {
      run_latest = 0;
      skipped = cu.count;
    }
    if (skipped > 0) {
      i64 last = run_latest ? cu.before_latest : cu.latest;
      rc = record_outcome(
          t, r, due, "skipped",
          span_text("missed:", skipped, cu.more, due, last, policy));
    }
    if (rc == SQLITE_OK && run_latest) {
      rc = take_occurrence(t, r, cu.latest, overlap_skip);
    }
  }
  if (rc != SQLITE_OK) return rc;
  if (!r->v[TC_MAX_RUNS].null && r->v[TC_CLAIMS].i >= r->v[TC_MAX_RUNS].i) {
    has_next = 0;
  }
  trg_set_next(r, has_next, next);
  if (!has_next && spec->type == SCHED_ONCE && r->v[TC_RUNNING].i == 0 &&
      !r->v[TC_WINDOW_MS].null && t->now - due > r->v[TC_WINDOW_MS].i) {
    val_set_text(&r->v[TC_STATUS], "expired");
  }
  if (!t->o.ack && r->v[TC_RUNNING].i == 0) occurrence_done(r, 1, NULL);
  /* settle() reads this trigger's runs once its schedule ended */
  if (r->v[TC_NEXT_DUE_AT].null) rc = wb_barrier(t);
  if (rc == SQLITE_OK) rc = settle(&t->st, r);
  if (rc == SQLITE_OK) rc = trigger_write(t, r);
  return rc;
}

/* One row of a batch: checked (a row that fails is paused, see
** quarantine), then processed when due, claimable and allowed. */
static int claim_row(tick *t, trg_row *r) {
  if (t->budget == 0) return SQLITE_OK;
  sched_spec spec;
  char *why;
  int rc = row_check(t, r, &spec, TRG_NO_JSON, &why);
  if (rc != SQLITE_OK || why) return why ? quarantine(t, r, why, NULL, 0) : rc;
  const trg_val *fire = &r->v[TC_FIRE_AT];
  if (fire->null || fire->i > t->now || !wake_allowed(t, r)) return SQLITE_OK;
  snapshot(t, r);
  return process_due(t, r, &spec);
}

/* A kept run existed (TICK_REDO): drop what was kept, and process rows
** [from, to) of the batch again one by one, as they are in the database
** (nothing of theirs was written). */
static int wb_redo(tick *t, trg_row *rows, int from, int to) {
  wb_drop(t);
  t->wb_on = 0;
  int rc = SQLITE_OK;
  for (int i = from; i < to && rc == SQLITE_OK; i++) {
    i64 id = rows[i].id;
    row_clear(&rows[i]);
    rc = store_trigger_load_id(&t->st, id, &rows[i]);
    if (rc == SQLITE_ROW) rc = claim_row(t, &rows[i]);
    else if (rc == SQLITE_DONE) rc = SQLITE_OK;
  }
  t->wb->nout = t->nout; /* all written: nothing kept */
  t->wb->budget = t->budget;
  return rc;
}

static write_behind *wb_new(tick *t) {
  write_behind *w = sqlite3_malloc(sizeof *w);
  if (!w) return NULL; /* then every write is made at once */
  memset(w, 0, sizeof *w);
  w->out = sqlite3_str_new(t->db);
  w->nout = t->nout;
  w->budget = t->budget;
  return w;
}

/* Room for a batch of n rows; 0 when out of memory. */
static int wb_reserve(write_behind *w, int n) {
  if (w->cap >= 2 * n) return 1;
  run_row *runs =
      sqlite3_realloc64(w->runs, 2 * (sqlite3_uint64)n * sizeof *runs);
  if (!runs) return 0;
  w->runs = runs;
  trg_row **rows =
      sqlite3_realloc64(w->rows, (sqlite3_uint64)n * sizeof(trg_row *));
  if (!rows) return 0;
  w->rows = rows;
  w->cap = 2 * n;
  return 1;
}

static void wb_free(tick *t) {
  if (!t->wb) return;
  wb_clear(t->wb);
  sqlite3_free(sqlite3_str_finish(t->wb->out));
  sqlite3_free(t->wb->runs);
  sqlite3_free(t->wb->rows);
  sqlite3_free(t->wb);
  t->wb = NULL;
  t->wb_on = 0;
}

/* The batches of claim_due grow from CLAIM_BATCH_FIRST rows to
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

static int claim_due(tick *t) {
  int rc = SQLITE_OK, batch = CLAIM_BATCH_FIRST, cap = 0;
  trg_row *rows = NULL;
  t->wb = t->narrow ? wb_new(t) : NULL;
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
      rows = grown; /* rows are empty between batches (row_clear) */
      for (; cap < batch; cap++) row_init(&rows[cap]);
      if (t->wb && !wb_reserve(t->wb, batch)) {
        rc = SQLITE_NOMEM;
        break;
      }
    }
    /* No more rows than the budget can claim: a host with one free slot
    ** asks for one run, and each row read is a whole trigger. */
    int want = t->budget > 0 && t->budget < batch ? (int)t->budget : batch;
    int n = 0;
    rc = store_due_read(&t->st, t->now, t->o.agents, &pos, rows, want, &n);
    t->rows += n;
    int first = 0; /* rows before it are written (or none kept) */
    for (int i = 0; i < n && rc == SQLITE_OK; i++) {
      t->wb_on = t->wb != NULL;
      rc = claim_row(t, &rows[i]);
      if (rc == TICK_REDO) rc = wb_redo(t, rows, first, i + 1);
      if (!t->wb_on) first = i + 1;
    }
    if (t->wb) {
      t->wb_on = 0;
      if (rc == SQLITE_OK) rc = wb_flush(t);
      if (rc == TICK_REDO) rc = wb_redo(t, rows, first, n);
      if (rc != SQLITE_OK) wb_drop(t);
    }
    for (int i = 0; i < n; i++) row_clear(&rows[i]);
    arena_reset(&t->mem); /* nothing kept or borrowed refers to it now */
    if (rc != SQLITE_OK || n < want) break;
  }
  store_due_pos_free(&pos);
  sqlite3_free(rows);
  wb_free(t);
  return rc;
}

/* ---- SQL functions --------------------------------------------------- */

static int tick_begin(tick *t, sqlite3_context *ctx, const char *fname) {
  memset(t, 0, sizeof *t);
  t->db = sqlite3_context_db_handle(ctx);
  t->ctx = sqlite3_user_data(ctx);
  t->fname = fname;
  store_init(&t->st, t->db);
  if (!trg_ctx_has_table(t->ctx) && !store_installed(t->db)) {
    trg_result_error(ctx, SQLITE_ERROR, fname,
                     "sqlite-triggers is not installed in this database "
                     "(run sql/install.sql)");
    return -1;
  }
  return 0;
}

static void tick_end(tick *t) {
  arena_free(&t->mem);
  store_close(&t->st);
  tick_opts_free(&t->o);
  sqlite3_free(t->err);
}

/* End the transaction; on failure keep its message for tick_fail(), since
** the rollback resets the connection's error. */
static int txn_end(tick *t, store_txn *txn, int rc) {
  if (rc == SQLITE_OK && t->st.err) rc = t->st.err; /* e.g. a config read */
  /* The result is complete before COMMIT: after it, nothing may fail. */
  if (rc == SQLITE_OK && t->out && sqlite3_str_errcode(t->out))
    rc = SQLITE_NOMEM;
  rc = store_txn_end(t->db, txn, rc);
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM && !t->err) {
    t->err = sqlite3_mprintf("%s", store_txn_errmsg(txn, t->db));
  }
  return rc;
}

/* Report rc/err of a failed transaction body as the function's error. */
static void tick_fail(tick *t, sqlite3_context *ctx, int rc) {
  if (t->err) {
    trg_result_error(ctx, rc, t->fname, "%s", t->err);
  } else if (rc == SQLITE_NOMEM) {
    sqlite3_result_error_nomem(ctx);
  } else {
    trg_result_error(ctx, rc, t->fname, "%s", sqlite3_errmsg(t->db));
  }
}

/* Keep what this tick cost for trigger_last_tick(). */
static void record_cost(tick *t) {
  trg_ctx *c = t->ctx;
  store_cost(&t->st, &c->last_tick.vm_steps, &c->last_tick.fullscan_steps);
  c->last_tick.rows = t->rows;
  c->last_tick.claimed = t->nout;
}

/* ---- the tick's statement cache (trg_ctx.stmts) ----------------------- */

/* Borrow the statements the connection keeps for this call (connecting
** main.triggers first if needed: they are kept only while it is). NULL:
** none, the call prepares its own. */
static store *cache_take(tick *t) {
  void *kept;
  if (!trg_ctx_has_table(t->ctx)) store_connect_table(t->db);
  if (!trg_ctx_stmts_begin(t->ctx, &kept)) return NULL;
  store *cache = kept ? kept : store_new(t->db);
  if (!cache) {
    trg_ctx_stmts_end(t->ctx, NULL, NULL);
    return NULL;
  }
  store_cost_start(cache); /* per-call cost, record_cost() */
  t->st = *cache;
  t->st.err = 0; /* store.err is per call: never carried between users */
  return cache;
}

/* Hand them back (with any prepared meanwhile) for the next call. */
static void cache_give(tick *t, store *cache) {
  if (!cache) return;
  store_reset_all(&t->st);
  t->st.err = 0;
  *cache = t->st;
  store_init(&t->st, t->db);
  trg_ctx_stmts_end(t->ctx, cache, store_free);
}

/* Begin the call's transaction with the cached statements if it has them. */
static int txn_begin(tick *t, const store *cache, store_txn *txn) {
  return cache ? store_txn_begin_cached(&t->st, txn)
               : store_txn_begin(t->db, txn);
}

/* Before COMMIT no statement may stay active: reset the cached ones, or
** finalize the call's own. */
static void stmts_done(tick *t, const store *cache) {
  if (cache) store_reset_all(&t->st);
  else store_close(&t->st);
}

/* Arguments 1 (now) and 2 (options) of trigger_run_due and
** trigger_next_wakeup into t. A host passes the same options every call:
** the last text parsed and its result are kept on the connection
** (trg_ctx.last_opts). 0 ok, -1 error already reported. */
static int read_now_and_options(tick *t, sqlite3_context *ctx, int argc,
                                sqlite3_value **argv) {
  if (argc > 0 &&
      arg_instant(ctx, t->fname, argc, argv, 0, "now", 1, &t->now) != 0)
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
    rc = value_text(argv[1], 1, "options", &opts, &t->err);
  }
  if (rc == SQLITE_OK)
    rc = tick_opts_read(&t->st, t->ctx, opts, &t->o, &t->err);
  if (rc != SQLITE_OK) {
    tick_fail(t, ctx, rc);
    return -1;
  }
  return 0;
}

static void fn_run_due(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  tick t;
  if (tick_begin(&t, ctx, "trigger_run_due") != 0) return;
  store *cache = cache_take(&t);
  int rc;
  if (read_now_and_options(&t, ctx, argc, argv) != 0) goto out;
  t.budget = t.o.limit;
  t.out = sqlite3_str_new(t.db);
  if (t.o.agents_empty || t.budget == 0) {
    sqlite3_result_text(ctx, "[]", 2, SQLITE_STATIC);
    sqlite3_free(sqlite3_str_finish(t.out));
    goto out;
  }
  store_txn txn;
  t.narrow = 1;
  rc = txn_begin(&t, cache, &txn);
  if (rc == SQLITE_OK) {
    t.grace_ms = -1;         /* read when first needed (grace_ms()) */
    int due = 0, strays = 0; /* nothing to re-offer: skip two sorts */
    rc = store_runs_any(&t.st, t.now, &due, &strays);
    if (rc == SQLITE_OK && strays) rc = pause_strays(&t);
    if (rc == SQLITE_OK && due)
      rc = for_each_run(&t, STORE_RUNS_LEASED, on_lease_expired);
    if (rc == SQLITE_OK && due)
      rc = for_each_run(&t, STORE_RUNS_RETRY, on_retry);
    if (rc == SQLITE_OK) rc = claim_due(&t);
    if (rc == SQLITE_OK) sqlite3_str_appendall(t.out, t.nout ? "]" : "[]");
    if (rc == SQLITE_OK && sqlite3_str_errcode(t.out)) rc = SQLITE_NOMEM;
    record_cost(&t);
    stmts_done(&t, cache);
    rc = txn_end(&t, &txn, rc);
  }
  if (rc != SQLITE_OK) {
    sqlite3_free(sqlite3_str_finish(t.out));
    tick_fail(&t, ctx, rc);
    goto out;
  }
  result_str(ctx, t.out);
out:
  cache_give(&t, cache);
  tick_end(&t);
}

static void fn_last_tick(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  (void)argv;
  trg_ctx *c = sqlite3_user_data(ctx);
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

/* The function's result: t->out, or the error of the failed call. */
static void call_result(tick *t, sqlite3_context *ctx, int rc) {
  if (rc != SQLITE_OK) {
    sqlite3_free(sqlite3_str_finish(t->out));
    tick_fail(t, ctx, rc);
  } else {
    result_str(ctx, t->out);
  }
}

/* Shared body of fire / pause / resume / cancel: load, check, change,
** save the trigger in one transaction, return its JSON. */
typedef int (*trigger_op)(tick *t, trg_row *r, const sched_spec *spec);
static int op_pause(tick *t, trg_row *r, const sched_spec *spec);
static int op_cancel(tick *t, trg_row *r, const sched_spec *spec);

/* An op on a trigger whose stored row fails trg_check (why, taken):
** pausing and cancelling take it out of the schedule (quarantine); firing
** and resuming are refused until the value is fixed. */
static int op_on_bad_row(tick *t, trg_row *r, const char *trigger_id, char *why,
                         trigger_op op) {
  if (op == op_pause || op == op_cancel) {
    return quarantine(t, r, why, op == op_cancel ? "cancelled" : NULL, 0);
  }
  t->err = sqlite3_mprintf("trigger '%s' holds a value changed outside the "
                           "extension: %s (fix it in the shadow table first)",
                           trigger_id, why);
  sqlite3_free(why);
  return t->err ? SQLITE_CONSTRAINT_CHECK : SQLITE_NOMEM;
}

static void run_trigger_op(sqlite3_context *ctx, tick *t,
                           const char *trigger_id, trigger_op op) {
  store_txn txn;
  trg_row r;
  row_init(&r);
  t->out = sqlite3_str_new(t->db);
  int rc = store_txn_begin(t->db, &txn);
  if (rc == SQLITE_OK) {
    int found = store_trigger_load(&t->st, trigger_id, &r);
    if (found == SQLITE_ROW) {
      sched_spec spec;
      char *why;
      rc = row_check(t, &r, &spec, 0, &why);
      if (rc == SQLITE_OK && why) {
        rc = op_on_bad_row(t, &r, trigger_id, why, op);
      } else if (rc == SQLITE_OK) {
        rc = op(t, &r, &spec);
      }
      if (rc == SQLITE_OK && !sqlite3_str_length(t->out)) trg_json(t->out, &r);
    } else if (found == SQLITE_DONE) {
      t->err = sqlite3_mprintf("unknown trigger_id '%s'", trigger_id);
      rc = SQLITE_ERROR;
    } else {
      rc = found;
    }
    store_close(&t->st);
    rc = txn_end(t, &txn, rc);
  }
  row_clear(&r);
  call_result(t, ctx, rc);
}

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
    rc = closing ? store_run_close(&t->st, run->id, "failed", closing, t->now)
                 : SQLITE_NOMEM;
    sqlite3_free(closing);
    if (rc == SQLITE_OK && r) return quarantine(t, r, why, NULL, 1);
    sqlite3_free(why);
    return rc;
  }
  sched_spec spec;
  if (r && (rc = row_check(t, r, &spec, 0, &why)) != SQLITE_OK) return rc;
  trg_row *usable = why ? NULL : r;
  int failed = strcmp(status, "failed") == 0;
  if (failed && usable) {
    rc = fail_run(&t->st, usable, run, t->now, error ? error : "failed", 1);
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
    rc = store_run_save(&t->st, run);
    if (usable) {
      note_finish(usable, t->now, status, error);
      if (strcmp(status, "success") == 0) occurrence_done(usable, 1, NULL);
      if (rc == SQLITE_OK) rc = settle(&t->st, usable);
    }
  }
  if (rc == SQLITE_OK && usable) rc = trigger_write(t, usable);
  if (rc == SQLITE_OK && why) return quarantine(t, r, why, NULL, 1);
  sqlite3_free(why);
  return rc;
}

/* A host finishes its runs one call each, often many in one transaction
** of its own: the connection's cached statements (and SAVEPOINT) serve. */
static void fn_run_finish(sqlite3_context *ctx, int argc,
                          sqlite3_value **argv) {
  tick t;
  store *cache = NULL;
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
  cache = cache_take(&t);
  store_txn txn;
  int rc = txn_begin(&t, cache, &txn);
  if (rc == SQLITE_OK) {
    int found = store_run_load(&t.st, run_id, &run);
    char *why = NULL; /* what is wrong with the run as stored */
    if (found == SQLITE_ROW) rc = run_row_check(&t, &run, &why);
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
      found = run_trigger_load(&t.st, &run, &r);
      int have = found == SQLITE_ROW;
      t.narrow = 1; /* only the columns a run's end changes: as the tick */
      if (have) snapshot(&t, &r);
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
    stmts_done(&t, cache);
    rc = txn_end(&t, &txn, rc);
  }
  call_result(&t, ctx, rc);
out:
  cache_give(&t, cache);
  sqlite3_free(error);
  sqlite3_free(result);
  run_clear(&run);
  row_clear(&r);
  tick_end(&t);
}

static int op_fire(tick *t, trg_row *r, const sched_spec *spec) {
  (void)spec;
  if (strcmp(val_text(&r->v[TC_STATUS]), "cancelled") == 0) {
    t->err = sqlite3_mprintf("trigger '%s' is cancelled",
                             val_text(&r->v[TC_TRIGGER_ID]));
    return SQLITE_ERROR;
  }
  run_row run;
  memset(&run, 0, sizeof run);
  int rc = run_make(t, &run, r, t->now, 1, "running");
  if (rc == SQLITE_OK) run_claim(t, &run);
  if (rc == SQLITE_OK) rc = store_run_insert(&t->st, &run);
  if (rc == SQLITE_OK && sqlite3_changes(t->db) == 0) {
    t->err = sqlite3_mprintf("run '%s' already exists (fired twice at the "
                             "same instant)",
                             val_text(&run.v[RC_RUN_ID]));
    rc = SQLITE_CONSTRAINT_UNIQUE;
  }
  if (rc == SQLITE_OK) {
    note_claim(t, r);
    rc = trigger_write(t, r);
  }
  if (rc == SQLITE_OK) rc = emit(t, &run, r);
  if (rc == SQLITE_OK) {
    /* trigger_fire returns the run element itself, not an array. */
    char *z = sqlite3_str_finish(t->out);
    t->out = sqlite3_str_new(t->db);
    sqlite3_str_appendall(t->out, z ? z + 1 : "");
    sqlite3_free(z);
  }
  run_clear(&run);
  return rc;
}

static void fn_fire(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  tick t;
  if (tick_begin(&t, ctx, "trigger_fire") != 0) return;
  const char *id = arg_text(ctx, t.fname, argv, 0, "trigger_id");
  if (id && arg_instant(ctx, t.fname, argc, argv, 1, "now", 1, &t.now) == 0) {
    t.o.lease_ms = TRG_DEFAULT_LEASE_MS;
    t.o.ack = 1;
    t.budget = -1;
    run_trigger_op(ctx, &t, id, op_fire);
  }
  tick_end(&t);
}

static int op_pause(tick *t, trg_row *r, const sched_spec *spec) {
  (void)spec;
  const char *st = val_text(&r->v[TC_STATUS]);
  if (strcmp(st, "paused") == 0) return SQLITE_OK;
  if (strcmp(st, "scheduled") != 0) {
    t->err = sqlite3_mprintf("trigger '%s' is %s and cannot be paused",
                             val_text(&r->v[TC_TRIGGER_ID]), st);
    return SQLITE_ERROR;
  }
  trg_pause(r);
  return trigger_write(t, r);
}

static int op_resume(tick *t, trg_row *r, const sched_spec *spec) {
  const char *st = val_text(&r->v[TC_STATUS]);
  if (strcmp(st, "scheduled") == 0) return SQLITE_OK;
  if (strcmp(st, "paused") != 0) {
    t->err = sqlite3_mprintf("trigger '%s' is %s and cannot be resumed",
                             val_text(&r->v[TC_TRIGGER_ID]), st);
    return SQLITE_ERROR;
  }
  trg_resume(r, spec, t->now);
  val_set_int(&r->v[TC_FAIL_STREAK], 0);
  return trigger_write(t, r);
}

static int op_cancel(tick *t, trg_row *r, const sched_spec *spec) {
  (void)spec;
  if (strcmp(val_text(&r->v[TC_STATUS]), "cancelled") == 0) return SQLITE_OK;
  trg_set_next(r, 0, 0);
  val_set_text(&r->v[TC_STATUS], "cancelled");
  return trigger_write(t, r);
}

static void trigger_op_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv,
                          const char *fname, trigger_op op) {
  tick t;
  if (tick_begin(&t, ctx, fname) != 0) return;
  const char *id = arg_text(ctx, fname, argv, 0, "trigger_id");
  if (id && arg_instant(ctx, fname, argc, argv, 1, "now", 1, &t.now) == 0) {
    run_trigger_op(ctx, &t, id, op);
  }
  tick_end(&t);
}

static void fn_pause(sqlite3_context *c, int n, sqlite3_value **v) {
  trigger_op_fn(c, n, v, "trigger_pause", op_pause);
}
static void fn_resume(sqlite3_context *c, int n, sqlite3_value **v) {
  trigger_op_fn(c, n, v, "trigger_resume", op_resume);
}
static void fn_cancel(sqlite3_context *c, int n, sqlite3_value **v) {
  trigger_op_fn(c, n, v, "trigger_cancel", op_cancel);
}

/* ---- trigger_run_heartbeat ------------------------------------------- */

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
  int found = store_run_load(&t->st, run_id, run);
  if (found == SQLITE_DONE) {
    t->err = sqlite3_mprintf("unknown run_id '%s'", run_id);
    return SQLITE_ERROR;
  }
  if (found != SQLITE_ROW) return found;
  char *why = NULL;
  int rc = run_check(&t->st, run, &why);
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
    iso_utc(until, was);
    iso_utc(t->now, now);
    t->err =
        sqlite3_mprintf("run '%s': its lease passed at %s (now %s); "
                        "the next tick reclaims it",
                        run_id, run->v[RC_LEASE_UNTIL].null ? "?" : was, now);
    return SQLITE_ERROR;
  }
  val_set_int(&run->v[RC_LEASE_UNTIL],
              t->now + (lease_ms ? lease_ms : claim_lease_ms(run)));
  return store_run_save(&t->st, run);
}

static void fn_run_heartbeat(sqlite3_context *ctx, int argc,
                             sqlite3_value **argv) {
  tick t;
  store *cache = NULL;
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
  cache = cache_take(&t);
  store_txn txn;
  int rc = txn_begin(&t, cache, &txn);
  if (rc == SQLITE_OK) {
    rc = run_find(&t, run_id, &run);
    if (rc == SQLITE_OK) rc = renew_lease(&t, &run, run_id, lease_ms);
    if (rc == SQLITE_OK) run_json(t.out, &run);
    stmts_done(&t, cache);
    rc = txn_end(&t, &txn, rc);
  }
  call_result(&t, ctx, rc);
out:
  cache_give(&t, cache);
  run_clear(&run);
  tick_end(&t);
}

/* The earliest fire of the triggers a wakeup walk visits (store_wake_walk
** in next_due_at order) that the tick's wake_mode filter lets through.
** fire_at >= next_due_at, so the walk stops once next_due_at reaches the
** best fire_at seen: it reads only rows due before the earliest fire (held
** by a queue, inside their jitter, or of another wake_mode), however many
** triggers there are. */
typedef struct earliest {
  const char *wake_mode; /* the tick's filter; NULL: any */
  int have;
  i64 best;
} earliest;

static int earliest_fire(void *arg, const store_wake_row *w) {
  earliest *e = arg;
  /* Values changed outside the extension (DESIGN.md §4) must not wake a
  ** host for nothing, over and over: a next_due_at that is not a number
  ** sorts after every number and is never due, so the walk ends there;
  ** the tick reads a row only once next_due_at has come, so a fire_at
  ** before it counts as next_due_at (as does one that is not a number:
  ** the tick pauses that row when it reads it). */
  if (w->due_type != SQLITE_INTEGER && w->due_type != SQLITE_FLOAT) return 1;
  if (e->have && w->due >= e->best) return 1;
  if (w->fire_type == SQLITE_NULL) return 0;
  i64 fire = w->fire_type == SQLITE_INTEGER ? w->fire : w->due;
  if (e->wake_mode &&
      (!w->wake_mode || strcmp(w->wake_mode, e->wake_mode) != 0))
    return 0;
  if (fire < w->due) fire = w->due;
  if (!e->have || fire < e->best) e->best = fire;
  e->have = 1;
  return 0;
}

/* The earliest fire of the triggers the tick's options may claim: all,
** or one index walk per agent of options.agents. */
static int earliest_claimable(tick *t, earliest *e) {
  if (!t->o.agents) return store_wake_walk(&t->st, NULL, earliest_fire, e);
  store_json_each it;
  int step = SQLITE_DONE;
  int rc = store_json_each_open(&t->st, t->o.agents, &it);
  while (rc == SQLITE_OK && (step = store_json_each_next(&it)) == SQLITE_ROW) {
    if (strcmp(it.m.type, "text") != 0) continue; /* matches no agent */
    rc = store_wake_walk(&t->st, it.m.text, earliest_fire, e);
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
  if (read_now_and_options(&t, ctx, argc, argv) != 0) goto out;
  if (t.o.agents_empty) { /* a tick with these options takes nothing */
    sqlite3_result_null(ctx);
    goto out;
  }
  earliest e = {t.o.wake_mode, 0, 0};
  int have = 0;
  i64 at = 0;
  int rc = earliest_claimable(&t, &e);
  if (rc == SQLITE_OK)
    rc = store_wake_runs(&t.st, t.o.agents, t.o.wake_mode, &have, &at);
  if (have && (!e.have || at < e.best)) e.best = at;
  e.have |= have;
  if (rc != SQLITE_OK) tick_fail(&t, ctx, rc);
  else if (!e.have) sqlite3_result_null(ctx);
  else sqlite3_result_int64(ctx, e.best > t.now ? e.best - t.now : 0);
out:
  tick_end(&t);
}

int tick_register(sqlite3 *db, trg_ctx *ctx) {
  static const trg_fn fns[] = {
      {"trigger_run_due", 0, 2, TRG_FN_SIDE, fn_run_due},
      {"trigger_run_finish", 2, 4, TRG_FN_SIDE, fn_run_finish},
      {"trigger_fire", 1, 2, TRG_FN_SIDE, fn_fire},
      {"trigger_pause", 1, 2, TRG_FN_SIDE, fn_pause},
      {"trigger_resume", 1, 2, TRG_FN_SIDE, fn_resume},
      {"trigger_cancel", 1, 2, TRG_FN_SIDE, fn_cancel},
      {"trigger_next_wakeup", 0, 2, TRG_FN_SIDE, fn_next_wakeup},
      {"trigger_last_tick", 0, 0, TRG_FN_SIDE, fn_last_tick},
      {"trigger_run_heartbeat", 1, 3, TRG_FN_SIDE, fn_run_heartbeat},
  };
  return trg_fn_register(db, ctx, fns, sizeof fns / sizeof fns[0]);
}
