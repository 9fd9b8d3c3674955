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
struct write_behind *wb_new(tick *t);
int wb_reserve(struct write_behind *w, int n);
void wb_free(tick *t);
/* Write what is kept; TICK_REDO (nothing written) if a kept run exists. */
int wb_flush(tick *t);
/* Forget what is kept and what it did to the result and the budget. */
void wb_drop(tick *t);
/* Nothing is kept: the result and the budget as they stand are what the
** next kept writes start from. */
void wb_sync(tick *t);
/* Write what is kept; the rest of this row writes at once. */
int wb_barrier(tick *t);
/* Where this row's result elements go. */
sqlite3_str *wb_out(tick *t);
/* Write (or keep) a run row. *stored: the row as written or kept (the
** caller's run is emptied when kept); *inserted: 0 when INSERT OR IGNORE
** found it existing. */
int wb_write_run(tick *t, run_row *run, run_row **stored, int *inserted);
/* Write (or keep) trigger r after the call changed it: only the columns
** a tick changes when the row was loaded by the call (t->narrow), with
** status and enabled only when they changed; else the whole row. */
int wb_write_trigger(tick *t, trg_row *r);

#endif
