/*
** run_rows.h -- a run's row in triggers_rundata (trigger_runs and the
** internal columns), read and written as one trg_run.
*/
#ifndef TRIGGERS_RUN_ROWS_H
#define TRIGGERS_RUN_ROWS_H

#include "store/store.h"

/* Load a run by run_id: SQLITE_ROW found, SQLITE_DONE not. */
int store_run_load(store *s, const char *run_id, trg_run *r);
int store_run_insert(store *s, const trg_run *r); /* changes() 0 = existed */
/* UPDATE of a run's changing columns (never its identity or payload). */
int store_run_save(store *s, const trg_run *r);
/* The same for a running run that ended as loaded and then changed only
** in status, finished_at, latency_ms, error and result. */
int store_run_save_end(store *s, const trg_run *r);
/* A run whose stored row cannot be used any more is finished with only
** status, error and finished_at = now written (retry_at cleared). */
int store_run_close(store *s, i64 id, const char *status, const char *error,
                    i64 now);
/* DELETE of one run by rowid (trigger_runs): a running run is refused,
** its run_id in *running (sqlite3_malloc'd), SQLITE_CONSTRAINT_CHECK. */
int store_run_delete(store *s, i64 id, char **running);

/* The tick's write-behind, STORE_MANY rows per statement: the highest run
** rowid (*mark, 0 when there is none); INSERT OR IGNORE of n runs
** (*all_new: every one was inserted, none existed); delete the runs
** inserted after a mark (undoes an insert_all whose rows did not all go
** in). */
int store_run_mark(store *s, i64 *mark);
int store_run_insert_all(store *s, const trg_run *runs, int n, int *all_new);
int store_runs_drop_after(store *s, i64 mark);

/* The incarnation of a trigger (re)created under trigger_id: one more than
** the highest of the runs in its history (an index probe), 1 without. */
int store_next_incarnation(store *s, const char *trigger_id, i64 *inc);
/* The last attempt of an occurrence (trigger_id, incarnation,
** scheduled_for) into r: SQLITE_ROW, or SQLITE_DONE when it has none. */
int store_run_latest_attempt(store *s, const char *trigger_id, i64 incarnation,
                             i64 scheduled_for, trg_run *r);
/* *pending: whether a run of (trigger_id, incarnation) is running or a
** retry or deferral of it is pending. SQLITE_OK or the error. */
int store_run_pending(store *s, const char *trigger_id, i64 incarnation,
                      int *pending);
/* *holding: whether a run of (trigger_id, incarnation) is running (one
** probe of the trigger's runs, newest first). SQLITE_OK or the error. */
int store_run_holding(store *s, const char *trigger_id, i64 incarnation,
                      int *holding);

#endif
