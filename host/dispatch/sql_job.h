/*
** sql_job.h -- a claimed SQL job run (trigger-host --sql, docs/sql-jobs.md):
** its statements and its finish in one transaction of the loop's
** connection, so that the job's effect and its run record commit together
** or not at all. Run on the loop's thread, one job at a time: the job
** holds the database's write lock while it runs.
**
**   BEGIN IMMEDIATE
**   each statement of action_sql (:trigger_id, :run_id, :scheduled_for,
**   :now bound where named), under --sql-timeout (a progress handler)
**   SELECT trigger_run_finish(run_id, 'success', rows changed)
**   COMMIT
**
** Any failure before COMMIT rolls the whole transaction back: the run is
** then reported 'failed' with SQLite's message (retries as configured) in
** a transaction of its own, which holds nothing of the job's. A host
** killed at any point leaves either both or neither; a run left 'running'
** is reclaimed when its lease passes.
*/
#ifndef HOST_SQL_JOB_H
#define HOST_SQL_JOB_H

#include "core/run.h"
#include "db/hostdb.h"

typedef enum {
  SQL_JOB_DONE,     /* committed with its finish ('success') */
  SQL_JOB_FAILED,   /* rolled back: report 'failed' with *detail */
  SQL_JOB_DEFERRED, /* not started (the write lock could not be had):
                       report 'deferred', re-offered next tick */
  SQL_JOB_REFUSED   /* rolled back: the finish was refused (the run is no
                       longer ours); nothing to report */
} sql_job_outcome;

/* Run run's action_sql on h under timeout_ms (0: none). *detail
** (malloc'ed): the rows changed for DONE, else why. */
sql_job_outcome sql_job_run(hostdb *h, const host_run *run,
                            long long timeout_ms, char **detail);

#endif
