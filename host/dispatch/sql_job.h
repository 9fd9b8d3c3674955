/*
** sql_job.h -- a claimed SQL job run (trigger-host --sql, docs/sql-jobs.md):
** its statements and its finish in one transaction of the loop's
** connection, so that the job's effect and its run record commit together
** or not at all. Run on the loop's thread, one job at a time: the job
** holds the database's write lock while it runs.
**
**   BEGIN IMMEDIATE
**   per job: SAVEPOINT
**            each statement of action_sql (:trigger_id, :run_id,
**            :scheduled_for, :now bound where named), under --sql-timeout
**            (a progress handler)
**            SELECT trigger_run_finish(run_id, 'success', rows changed)
**            RELEASE
**   COMMIT
**
** A job that fails is rolled back to its SAVEPOINT, and its run finished
** 'failed' with SQLite's message in its place (retries as configured). A
** host killed at any point leaves, for each job, both or neither; a run
** left 'running' is reclaimed when its lease passes.
**
** With --via (a dqlite cluster) each statement is a transaction of its own
** on the far side: a job is one statement there,
** `SELECT trigger_run_sql_job(run_id, timeout_ms)`, which runs it and
** records its end in the same way inside the extension (no batch). The
** local path keeps its own loop: measured with `make bench`'s SQL jobs
** row, one call per job reached 0.39x-0.54x of the plain loop against
** 0.71x-0.72x for the batch's savepoints (the call loads the run and
** prepares the job's statements each time).
*/
#ifndef HOST_SQL_JOB_H
#define HOST_SQL_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "core/run.h"
#include "db/hostdb.h"

/* A batch: the jobs of one claim, up to SQL_BATCH_JOBS or SQL_BATCH_MS,
** share one transaction (one commit instead of one per job; each its own
** SAVEPOINT, so a job that fails is undone alone, its failure recorded in
** its place). */
#define SQL_BATCH_JOBS 256
#define SQL_BATCH_MS 20

/* The statements of the last job's text kept for the next job of the
** same text (jobs of one kind prepared once per batch), at most this many. */
#define SQL_JOB_KEPT 8

typedef struct sql_batch {
  hostdb *h;
  sqlite3_stmt *savepoint, *release, *undo;
  char *kept_text; /* the text whose statements are kept */
  sqlite3_stmt *kept[SQL_JOB_KEPT];
  size_t kept_len[SQL_JOB_KEPT]; /* each one's text's length */
  int nkept;
  int64_t began_ms;
  int jobs;
} sql_batch;

typedef enum {
  SQL_JOB_DONE,   /* its effect and its 'success' in the batch */
  SQL_JOB_FAILED, /* undone; its 'failed' (*detail) in the batch */
  SQL_JOB_REFUSED /* undone; nothing recorded: the finish was refused (the
                      run is no longer ours) */
} sql_job_outcome;

/* BEGIN IMMEDIATE on h (busy_timeout applies; nothing with --via). 0, or
** -1 with *err. */
int sql_batch_begin(sql_batch *b, hostdb *h, char **err);
/* 1 when the batch should commit before its next job. */
int sql_batch_full(const sql_batch *b);
/* Run run's action_sql in b under timeout_ms (0: none) and record its
** finish. *detail (malloc'ed): the rows changed for DONE, else why. Its
** outcome holds once the batch commits. */
sql_job_outcome sql_job_run(sql_batch *b, const host_run *run,
                            long long timeout_ms, char **detail);
/* COMMIT: 0; else -1 with *err, and nothing of the batch stays. Ends b. */
int sql_batch_commit(sql_batch *b, char **err);
/* Ends b (rolled back when still open). */
void sql_batch_end(sql_batch *b);

#endif
