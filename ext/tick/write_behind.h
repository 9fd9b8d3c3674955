/*
** write_behind.h -- a tick's writes kept while it processes a batch of due
** rows, and written by a few multi-row statements when the batch ends;
** every write of a run or of a trigger's tick columns goes through here.
*/
#ifndef TRIGGERS_WRITE_BEHIND_H
#define TRIGGERS_WRITE_BEHIND_H

#include "tick/tick.h"

/* rc of a kept write whose run exists: process those rows again */
#define TICK_REDO (SQLITE_ABORT | (99 << 8))

/* Kept writes for batches of up to n rows: new (NULL: out of memory, then
** every write is made at once), room (0: out of memory), free. */
struct write_behind *tick_wb_new(tick *t);
int tick_wb_reserve(struct write_behind *w, int n);
void tick_wb_free(tick *t);
/* Write what is kept; TICK_REDO (nothing written) if a kept run exists. */
int tick_wb_flush(tick *t);
/* Forget what is kept and what it did to the result and the budget. */
void tick_wb_drop(tick *t);
/* Nothing is kept: the result and the budget as they stand are what the
** next kept writes start from. */
void tick_wb_sync(tick *t);
/* Write what is kept; the rest of this row writes at once. */
int tick_wb_barrier(tick *t);
/* Where this row's result elements go. */
sqlite3_str *tick_wb_out(tick *t);
/* Write (or keep) a run row. *stored: the row as written or kept (the
** caller's run is emptied when kept); *inserted: 0 when INSERT OR IGNORE
** found it existing. */
int tick_wb_write_run(tick *t, trg_run *run, trg_run **stored, int *inserted);
/* Write (or keep) trigger r after the call changed it. r carries what
** the database holds of it (r->stored, noted when the store read it):
** with t->narrow only the columns a tick changes are written, status and
** enabled only when they differ from it, next_due_at and fire_at only
** when they do (else the whole row). An unchanged status is kept with the
** batch's writes (when wb_on); a changed one is written at once, its
** event kept to the call's end (events.h), and r->stored becomes the row
** as written. */
int tick_wb_write_trigger(tick *t, trg_row *r);

#endif
