/*
** finish.h -- one run's end as a host reports it (trigger_run_finish, and
** each element of trigger_run_finish_many): the run checked and closed,
** its trigger's counters, a failure's retry, in a transaction of its own
** (a SAVEPOINT inside the caller's).
*/
#ifndef TRIGGERS_FINISH_H
#define TRIGGERS_FINISH_H

#include "tick/tick.h"

/* 1 for 'success', 'failed', 'skipped', 'deferred', 'cancelled'. */
int tick_finish_status_ok(const char *status);
/* The detail as stored (valid UTF-8; a result at most TRG_RESULT_MAX
** bytes), sqlite3_malloc'd into *error for a failed run, else *result;
** NULL stays NULL. SQLITE_OK or SQLITE_NOMEM. */
int tick_finish_detail(const char *status, const char *detail, size_t n,
                       char **error, char **result);
/* Finish run run_id with status (checked) and the detail as
** tick_finish_detail made it, in its own transaction. json: where the
** trigger's JSON goes (null for a run whose trigger is gone), or NULL.
** SQLITE_OK, or the failure (t->err: why it was refused), undone. */
int tick_finish(tick *t, const char *run_id, const char *status,
                const char *error, const char *result, sqlite3_str *json);
/* The same inside the call's own transaction. A refusal (t->err set:
** unknown run_id, already finished) is found before anything is written,
** so the transaction goes on; any other failure is the transaction's. */
int tick_finish_in(tick *t, const char *run_id, const char *status,
                   const char *error, const char *result, sqlite3_str *json);

/* Run run_id loaded for its end, inside the call's transaction: run, and
** its trigger into r (*have 1; 0 when it was deleted or another
** incarnation holds its id); *why (taken, or NULL) what is wrong with the
** run as stored, which its end closes it for. SQLITE_OK; a refusal with
** t->err (unknown run_id, already finished) before anything is written;
** or the store's failure. */
int tick_finish_find(tick *t, const char *run_id, trg_run *run, trg_row *r,
                     int *have, char **why);
/* Refuse run run_id as loaded (run) because it is already finished:
** t->err "run 'x' is already finished (status: error)", SQLITE_ERROR. */
int tick_refuse_finished(tick *t, const char *run_id, const trg_run *run);
/* A run that ended cancelled at t->now: status, finished_at, latency,
** error (the cancel's reason as stored, else "cancelled"), no retry; its
** trigger r (NULL: gone) no longer holds it, and nothing counts it as
** run or failed (docs/reactive.md#cancel). Saved, r written. */
int tick_run_cancelled(tick *t, trg_run *run, trg_row *r);

#endif
