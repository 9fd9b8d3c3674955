/*
** sql_job.c -- a SQL job's statements run inside the caller's
** transaction (sql_job.h, docs/sql-jobs.md).
*/
#include "store/sql_job.h"

#include <string.h>

#include "text/sql_job_rules.h"

SQLITE_EXTENSION_INIT3

/* The progress handler's deadline (monotonic ms; 0: none). */
typedef struct job_clock {
  i64 deadline;
  int over;
} job_clock;

static int job_over(void *arg) {
  job_clock *c = arg;
  if (c->deadline && trg_mono_clock_ms() > c->deadline) c->over = 1;
  return c->over;
}

/* "action_sql: statement k (its text, cut): why"; p[0..n) the statement. */
static char *stmt_error(int k, const char *p, size_t n, const char *why) {
  int more;
  size_t len = sqljob_shown(p, n, &more);
  return sqlite3_mprintf("action_sql: statement %d (%.*s%s): %s", k, (int)len,
                         p, more ? " ..." : "", why);
}

/* The parameters the statement names, bound (sql_job.h). */
static int bind_params(sqlite3_stmt *st, const store_sql_job *job) {
  int n = sqlite3_bind_parameter_count(st), rc = SQLITE_OK;
  for (int i = 1; rc == SQLITE_OK && i <= n; i++) {
    const char *name = sqlite3_bind_parameter_name(st, i);
    if (!name) continue;
    if (strcmp(name, ":trigger_id") == 0)
      rc = sqlite3_bind_text(st, i, job->trigger_id, -1, SQLITE_STATIC);
    else if (strcmp(name, ":run_id") == 0)
      rc = sqlite3_bind_text(st, i, job->run_id, -1, SQLITE_STATIC);
    else if (strcmp(name, ":scheduled_for") == 0)
      rc = sqlite3_bind_int64(st, i, job->scheduled_for);
    else if (strcmp(name, ":now") == 0)
      rc = sqlite3_bind_int64(st, i, job->now);
  }
  return rc;
}

/* Why statement k (at sql + pos) failed with rc: SQLITE_ERROR with *err,
** or SQLITE_NOMEM. */
static int failed(sqlite3 *db, const store_sql_job *job, const job_clock *c,
                  int k, size_t pos, size_t n, int rc, char **err) {
  const char *p = job->sql + pos;
  if ((rc & 0xff) == SQLITE_NOMEM) return SQLITE_NOMEM;
  if (c->over) {
    char *why = sqlite3_mprintf("over the timeout (interrupted): %lld ms",
                                (long long)job->timeout_ms);
    *err = why ? stmt_error(k, p, n, why) : NULL;
    sqlite3_free(why);
  } else {
    *err = stmt_error(k, p, n, sqlite3_errmsg(db));
  }
  return *err ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* Statement k (1-based) at sql + pos prepared, bound and stepped to its
** end; *n its text's length. */
static int run_one(sqlite3 *db, const store_sql_job *job, const job_clock *c,
                   int k, size_t pos, size_t *n, char **err) {
  const char *sql = job->sql, *tail = NULL;
  size_t len = strlen(sql);
  /* read again: the row may have been changed outside the extension since
  ** it was checked (docs/sql-jobs.md#what-a-job-may-not-do) */
  const char *why = sqljob_refused(sql, len, pos);
  *n = sqljob_simple_end(sql, len, pos) - pos;
  if (why) {
    *err = stmt_error(k, sql + pos, *n, why);
    return *err ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2(db, sql + pos, (int)(len - pos), &st, &tail);
  if (rc == SQLITE_OK && tail > sql + pos) *n = (size_t)(tail - (sql + pos));
  if (rc == SQLITE_OK && st) rc = bind_params(st, job);
  if (rc == SQLITE_OK && st) {
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    }
    if (rc == SQLITE_DONE) rc = SQLITE_OK;
  }
  if (rc != SQLITE_OK) rc = failed(db, job, c, k, pos, *n, rc, err);
  sqlite3_finalize(st);
  if (rc == SQLITE_OK && sqlite3_get_autocommit(db)) { /* never: refused */
    *err = stmt_error(k, sql + pos, *n, "ended the job's transaction");
    rc = *err ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  return rc;
}

int store_sql_job_run(sqlite3 *db, const store_sql_job *job, i64 *changes,
                      char **err) {
  size_t len = strlen(job->sql), pos = 0, n = 0;
  job_clock c = {job->timeout_ms ? trg_mono_clock_ms() + job->timeout_ms : 0,
                 0};
  sqlite3_int64 before = sqlite3_total_changes64(db);
  int rc = SQLITE_OK;
  *err = NULL;
  *changes = 0;
  sqlite3_progress_handler(db, 1000, job_over, &c);
  for (int k = 1; rc == SQLITE_OK &&
                  (pos = sqljob_next_statement(job->sql, len, pos)) < len;
       k++) {
    rc = run_one(db, job, &c, k, pos, &n, err);
    pos += n;
  }
  sqlite3_progress_handler(db, 0, NULL, NULL);
  if (rc == SQLITE_OK) *changes = sqlite3_total_changes64(db) - before;
  return rc;
}
