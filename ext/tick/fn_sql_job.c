/*
** fn_sql_job.c -- trigger_run_sql_job(run_id [, timeout_ms [, now]]): a
** claimed SQL job run and its end recorded inside ONE statement
** (docs/sql-jobs.md#one-statement-trigger_run_sql_job). The job's
** statements run in the call's transaction, under a SAVEPOINT of their
** own: a job that fails is rolled back to it and its run finished
** 'failed' with SQLite's message in its place; a job that succeeds is
** finished 'success' with the rows it changed. Both through the finish
** code of trigger_run_finish (retries, budgets, chains), so the effect
** and the record commit together even when the caller is one autocommit
** statement (a dqlite cluster through `--via`, where each statement is a
** transaction of its own).
*/
#include <stdio.h>
#include <string.h>

#include "base/args.h"
#include "base/register.h"
#include "store/run_rows.h"
#include "store/sql_job.h"
#include "tick/call.h"
#include "tick/finish.h"
#include "trigger/trigger.h"

SQLITE_EXTENSION_INIT3

#define SQL_JOB_TIMEOUT_MS 60000 /* trigger-host's --sql-timeout default */

/* What a job's run is, copied out of its rows (which the job may change). */
typedef struct job_run {
  store_sql_job job;
  char *sql, *trigger_id;
} job_run;

/* Run run_id loaded and checked for a job: SQLITE_OK with j filled (or
** j->sql NULL: a run its end closes as stored wrongly, *why kept for
** that), or a refusal (t->err) before anything is written. */
static int job_find(tick *t, const char *run_id, job_run *j) {
  trg_run run;
  trg_row r;
  memset(&run, 0, sizeof run);
  trg_row_init(&r);
  int have;
  char *why = NULL;
  int rc = tick_finish_find(t, run_id, &run, &r, &have, &why);
  if (rc == SQLITE_OK && !why) {
    if (!have) {
      t->err = sqlite3_mprintf("run '%s' is not a SQL job (its trigger was "
                               "deleted)",
                               run_id);
      rc = t->err ? SQLITE_ERROR : SQLITE_NOMEM;
    } else if (r.v[TC_ACTION_SQL].null) {
      t->err = sqlite3_mprintf("run '%s' is not a SQL job (trigger '%s' has "
                               "no action_sql)",
                               run_id, trg_val_text(&r.v[TC_TRIGGER_ID]));
      rc = t->err ? SQLITE_ERROR : SQLITE_NOMEM;
    } else {
      j->sql = sqlite3_mprintf("%s", r.v[TC_ACTION_SQL].t);
      j->trigger_id = sqlite3_mprintf("%s", trg_val_text(&r.v[TC_TRIGGER_ID]));
      j->job.scheduled_for = run.v[RC_SCHEDULED_FOR].i;
      if (!j->sql || !j->trigger_id) rc = SQLITE_NOMEM;
    }
  }
  sqlite3_free(why); /* found again by the finish, which closes the run */
  trg_run_clear(&run);
  trg_row_clear(&r);
  return rc;
}

/* The job run under a SAVEPOINT of its own: SQLITE_OK with *status and
** *detail (sqlite3_malloc'd: the rows changed, or why it failed, its
** effect undone), or the call's failure. */
static int job_do(tick *t, job_run *j, const char **status, char **detail) {
  store_txn txn;
  i64 changes = 0;
  char *err = NULL;
  *status = "failed";
  *detail = NULL;
  store_call_stmts_done(&t->call); /* none active while the job runs */
  int rc = store_call_txn_begin(&t->call, &txn);
  if (rc != SQLITE_OK) return rc;
  rc = store_sql_job_run(t->call.db, &j->job, &changes, &err);
  int gone = sqlite3_get_autocommit(t->call.db); /* SQLite rolled back */
  int end = store_txn_end(t->call.db, &txn, rc);
  if (rc == SQLITE_ERROR && !gone) { /* the job's failure: recorded */
    *detail = err;
    return SQLITE_OK;
  }
  if (rc == SQLITE_OK && end == SQLITE_OK) {
    *status = "success";
    *detail = sqlite3_mprintf("%lld", (long long)changes);
    return *detail ? SQLITE_OK : SQLITE_NOMEM;
  }
  if (err && !t->err) t->err = err;
  else sqlite3_free(err);
  return rc != SQLITE_OK ? rc : end;
}

/* The body, inside the call's transaction (tick_body; arg the job_run):
** the run's JSON into t->out. */
static int job_in_txn(tick *t, void *arg) {
  job_run *j = arg;
  const char *run_id = j->job.run_id;
  const char *status = "failed";
  char *detail = NULL, *error = NULL, *result = NULL;
  int rc = job_find(t, run_id, j);
  if (rc == SQLITE_OK && j->sql) {
    j->job.sql = j->sql;
    j->job.trigger_id = j->trigger_id;
    j->job.now = t->now;
    rc = job_do(t, j, &status, &detail);
  }
  if (rc == SQLITE_OK)
    rc = tick_finish_detail(status, detail, detail ? strlen(detail) : 0, &error,
                            &result);
  if (rc == SQLITE_OK)
    rc = tick_finish_in(t, run_id, status, error, result, NULL);
  trg_run run;
  memset(&run, 0, sizeof run);
  if (rc == SQLITE_OK) { /* the run as its end left it */
    rc = store_run_load(t->call.st, run_id, &run);
    if (rc == SQLITE_ROW) {
      trigger_run_json(t->out, &run);
      rc = SQLITE_OK;
    }
  }
  trg_run_clear(&run);
  sqlite3_free(detail);
  sqlite3_free(error);
  sqlite3_free(result);
  return rc;
}

/* Argument 2, timeout_ms: an integer 0..SCHED_SPAN_MAX (0: none), NULL or
** absent the default. 0, or -1 with the error set. */
static int timeout_arg(sqlite3_context *ctx, tick *t, int argc,
                       sqlite3_value **argv, i64 *ms) {
  *ms = SQL_JOB_TIMEOUT_MS;
  if (argc < 2 || sqlite3_value_type(argv[1]) == SQLITE_NULL) return 0;
  *ms = sqlite3_value_int64(argv[1]);
  if (sqlite3_value_type(argv[1]) == SQLITE_INTEGER && *ms >= 0 &&
      *ms <= SCHED_SPAN_MAX)
    return 0;
  trg_result_error(ctx, SQLITE_MISMATCH, t->fname,
                   "argument 2 (timeout_ms) must be an integer 0..%lld "
                   "(0: none)",
                   (long long)SCHED_SPAN_MAX);
  return -1;
}

static void fn_run_sql_job(sqlite3_context *ctx, int argc,
                           sqlite3_value **argv) {
  tick t;
  if (tick_begin(&t, ctx, "trigger_run_sql_job") != 0) return;
  job_run j;
  memset(&j, 0, sizeof j);
  const char *run_id = trg_arg_text(ctx, t.fname, argv, 0, "run_id");
  if (!run_id || timeout_arg(ctx, &t, argc, argv, &j.job.timeout_ms) != 0 ||
      trg_arg_instant(ctx, t.fname, argc, argv, 2, "now", 1, &t.now) != 0)
    goto out;
  j.job.run_id = run_id;
  t.out = sqlite3_str_new(t.call.db);
  store_call_take(&t.call);
  tick_in_txn(&t, ctx, job_in_txn, &j);
out:
  store_call_give(&t.call);
  sqlite3_free(j.sql);
  sqlite3_free(j.trigger_id);
  tick_end(&t);
}

int tick_fn_sql_job_register(sqlite3 *db, trg_ctx *ctx) {
  static const trg_fn fns[] = {
      {"trigger_run_sql_job", 1, 3, TRG_FN_SIDE, fn_run_sql_job},
  };
  return trg_fn_register(db, ctx, fns, sizeof fns / sizeof fns[0]);
}
