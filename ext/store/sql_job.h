/*
** sql_job.h -- a SQL job's statements run (trigger_run_sql_job,
** docs/sql-jobs.md): each statement of a trigger's action_sql read again
** for what a job may not hold (text/sql_job_rules.h), prepared, its
** parameters bound and stepped to its end inside the caller's
** transaction, the whole job under a timeout (a progress handler).
*/
#ifndef TRIGGERS_SQL_JOB_H
#define TRIGGERS_SQL_JOB_H

#include "store/store.h"

/* One run of a job: its statements and the values its parameters name. */
typedef struct store_sql_job {
  const char *sql;        /* action_sql */
  const char *trigger_id; /* :trigger_id */
  const char *run_id;     /* :run_id */
  i64 scheduled_for;      /* :scheduled_for */
  i64 now;                /* :now */
  i64 timeout_ms;         /* 0: none */
} store_sql_job;

/* Run job's statements on db, which must be inside a transaction (the
** job's SAVEPOINT). SQLITE_OK with *changes (the rows they changed, as
** sqlite3_total_changes64 counts them). A statement that fails (refused,
** not compiling, a constraint, the timeout: "action_sql: statement 2
** (DELETE FROM nope): no such table: nope") is the job's failure:
** SQLITE_ERROR with *err (sqlite3_malloc'd), for the caller to undo and
** record, unless SQLite rolled back the whole transaction meanwhile (a
** full disk, an I/O error: sqlite3_get_autocommit). Else SQLITE_NOMEM. */
int store_sql_job_run(sqlite3 *db, const store_sql_job *job, i64 *changes,
                      char **err);

#endif
