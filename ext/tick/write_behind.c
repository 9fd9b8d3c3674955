/*
** write_behind.c -- the tick's kept writes (write_behind.h).
**
** While the claim (claim.c) processes a batch of due rows, a fire's two
** writes, its run row and its trigger's state row (status unchanged), are
** kept and written when the batch ends by a few multi-row statements
** (run_rows.c, STORE_MANY rows each) instead of two statements per fire:
** the per-statement cost was half of a fire's (bench/README.md).
**
** It changes nothing a tick decides or writes. A claim's INSERT OR IGNORE
** inserts nothing only when its run_id exists already; the kept runs are
** written by INSERT OR IGNORE too, and when fewer went in than were kept
** (a run existed), the runs inserted after the mark taken before (the
** highest run rowid: new rows get higher ones) are deleted, the kept
** writes and what they did (result JSON, budget) are dropped, and the
** rows since the last write are read again and processed one by one,
** writing at once. What reads the tables the kept writes change
** (tick_settle's store_run_pending) and any other trigger write come after a
** tick_wb_barrier(): the kept writes are written first and the rest of that
** row writes at once.
** A write that changes a trigger's status (completed, expired, paused,
** ...) is never kept: it writes at once, and its event is kept to the
** call's end (events.c); a fire writes no event.
*/
#include "tick/write_behind.h"

#include <string.h>

#include "store/run_rows.h"
#include "store/trigger_rows.h"
#include "tick/call.h"
#include "tick/events.h"

SQLITE_EXTENSION_INIT3

typedef struct write_behind {
  trg_run *runs; /* kept runs; written when full (2 per row of the batch) */
  int nruns, cap;
  trg_row **rows; /* the batch's rows whose state row is kept */
  int nrows;
  sqlite3_str *out; /* result elements of the kept claims */
  int nout;         /* t->nout and t->budget when last written */
  i64 budget;
} write_behind;

/* Forget what is kept. */
static void tick_wb_clear(write_behind *w) {
  for (int i = 0; i < w->nruns; i++) trg_run_clear(&w->runs[i]);
  w->nruns = w->nrows = 0;
  sqlite3_str_reset(w->out);
}

/* Forget what is kept and what it did to the result and the budget. */
void tick_wb_sync(tick *t) {
  t->wb->nout = t->nout;
  t->wb->budget = t->budget;
}

void tick_wb_drop(tick *t) {
  if (!t->wb) return; /* TICK_REDO comes only from kept writes */
  tick_wb_clear(t->wb);
  t->nout = t->wb->nout;
  t->budget = t->wb->budget;
}

/* Write what is kept; TICK_REDO (nothing written) if a kept run exists. */
int tick_wb_flush(tick *t) {
  write_behind *w = t->wb;
  int rc = SQLITE_OK;
  if (w->nruns) {
    i64 mark;
    int all_new = 0;
    rc = store_run_mark(t->call.st, &mark);
    /* At the largest rowid SQLite picks new ones at random: no mark. */
    if (rc == SQLITE_OK && mark == INT64_MAX) return TICK_REDO;
    if (rc == SQLITE_OK)
      rc = store_run_insert_all(t->call.st, w->runs, w->nruns, &all_new);
    if (rc == SQLITE_OK && !all_new) {
      rc = store_runs_drop_after(t->call.st, mark);
      if (rc == SQLITE_OK) return TICK_REDO;
    }
  }
  if (rc == SQLITE_OK) rc = store_tick_hot_all(t->call.st, w->rows, w->nrows);
  if (rc == SQLITE_OK) rc = tick_str_status(t, w->out);
  if (rc != SQLITE_OK) return rc;
  if (sqlite3_str_length(w->out)) {
    sqlite3_str_append(t->out, sqlite3_str_value(w->out),
                       sqlite3_str_length(w->out));
  }
  tick_wb_clear(w);
  w->nout = t->nout;
  w->budget = t->budget;
  return SQLITE_OK;
}

/* Write what is kept; the rest of this row writes at once. */
int tick_wb_barrier(tick *t) {
  if (!t->wb_on) return SQLITE_OK;
  t->wb_on = 0;
  return tick_wb_flush(t);
}

/* Where this row's result elements go. */
sqlite3_str *tick_wb_out(tick *t) { return t->wb_on ? t->wb->out : t->out; }

/* Write (or keep) a run row. *stored: the row as written or kept (the
** caller's run is emptied when kept); *inserted: 0 when INSERT OR IGNORE
** found it existing. */
int tick_wb_write_run(tick *t, trg_run *run, trg_run **stored, int *inserted) {
  *stored = run;
  *inserted = 0;
  if (t->wb_on && t->wb->nruns == t->wb->cap) {
    int rc = tick_wb_barrier(t);
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
  int rc = store_run_insert(t->call.st, run);
  *inserted = rc == SQLITE_OK && sqlite3_changes(t->call.db) > 0;
  return rc;
}

int tick_wb_write_trigger(tick *t, trg_row *r) {
  trg_val_set_int(&r->v[TC_UPDATED_AT], t->now);
  int same = t->narrow && trg_row_status_stored(r);
  if (same && t->wb_on) {
    write_behind *w = t->wb; /* r is a row of the claim's batch */
    if (!w->nrows || w->rows[w->nrows - 1] != r) w->rows[w->nrows++] = r;
    return SQLITE_OK;
  }
  int rc = tick_wb_barrier(t);
  if (rc != SQLITE_OK) return rc;
  int outcome_same = trg_row_outcome_stored(r);
  int changed = (same ? 0 : SAVE_STATUS) |
                (trg_row_schedule_stored(r) ? 0 : SAVE_SCHEDULE) |
                (outcome_same ? SAVE_OUTCOME_SAME : 0);
  rc = !t->narrow ? store_trigger_save(t->call.st, r)
                  : store_trigger_save_tick(t->call.st, r, changed);
  /* the outcome columns as written are not those read any more */
  if (!t->narrow || !outcome_same || !(changed & SAVE_SCHEDULE))
    trg_row_forget_outcome(r);
  if (rc != SQLITE_OK || same || !r->stored.known) return rc;
  /* its status changed: the event (none for other changes), and the
  ** status as written is the one to compare with from now on */
  rc = tick_event_keep(t, r, r->stored.status);
  trg_row_note_stored(r);
  return rc;
}

write_behind *tick_wb_new(tick *t) {
  write_behind *w = sqlite3_malloc(sizeof *w);
  if (!w) return NULL; /* then every write is made at once */
  memset(w, 0, sizeof *w);
  w->out = sqlite3_str_new(t->call.db);
  w->nout = t->nout;
  w->budget = t->budget;
  return w;
}

/* Room for a batch of n rows; 0 when out of memory. */
int tick_wb_reserve(write_behind *w, int n) {
  if (w->cap >= 2 * n) return 1;
  trg_run *runs =
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

void tick_wb_free(tick *t) {
  if (!t->wb) return;
  tick_wb_clear(t->wb);
  sqlite3_free(sqlite3_str_finish(t->wb->out));
  sqlite3_free(t->wb->runs);
  sqlite3_free(t->wb->rows);
  sqlite3_free(t->wb);
  t->wb = NULL;
  t->wb_on = 0;
}
