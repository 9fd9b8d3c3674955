/*
** sql_job.c -- a SQL job and its finish in one transaction (sql_job.h).
*/
#include "dispatch/sql_job.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/util.h"
#include "text/sql_job_rules.h"

/* The progress handler's deadline (monotonic ms; 0: none). */
typedef struct job_clock {
  int64_t deadline;
  int over;
} job_clock;

static int job_over(void *arg) {
  job_clock *c = arg;
  if (c->deadline && mono_ms() > c->deadline) c->over = 1;
  return c->over;
}

/* "action_sql: statement k (its text, cut): why"; p[0..n) the statement. */
static char *stmt_error(int k, const char *p, size_t n, const char *why) {
  int more;
  size_t len = sqljob_shown(p, n, &more);
  return xprintf("action_sql: statement %d (%.*s%s): %s", k, (int)len, p,
                 more ? " ..." : "", why);
}

/* The parameters a job names, bound (sql_job.h). */
static void bind_params(sqlite3_stmt *st, const host_run *run, long long now) {
  int n = sqlite3_bind_parameter_count(st);
  for (int i = 1; i <= n; i++) {
    const char *name = sqlite3_bind_parameter_name(st, i);
    if (!name) continue;
    if (strcmp(name, ":trigger_id") == 0)
      sqlite3_bind_text(st, i, run->trigger_id, -1, SQLITE_STATIC);
    else if (strcmp(name, ":run_id") == 0)
      sqlite3_bind_text(st, i, run->run_id, -1, SQLITE_STATIC);
    else if (strcmp(name, ":scheduled_for") == 0)
      sqlite3_bind_int64(st, i, run->scheduled_for);
    else if (strcmp(name, ":now") == 0) sqlite3_bind_int64(st, i, now);
  }
}

/* Each statement of run's action_sql stepped to its end inside the open
** transaction. 0, or -1 with *err. */
static int run_statements(sqlite3 *db, const host_run *run, const job_clock *c,
                          long long timeout_ms, char **err) {
  const char *sql = run->action_sql;
  size_t len = strlen(sql), pos = 0;
  long long now = (long long)(wall_us() / 1000);
  for (int k = 1; (pos = sqljob_next_statement(sql, len, pos)) < len; k++) {
    const char *p = sql + pos;
    /* refused again here: the row may have been changed outside the
    ** extension since it was checked (docs/sql-jobs.md) */
    const char *why = sqljob_refused(sql, len, pos);
    if (why) {
      *err = stmt_error(k, p, sqljob_simple_end(sql, len, pos) - pos, why);
      return -1;
    }
    sqlite3_stmt *st = NULL;
    const char *tail = NULL;
    int rc = sqlite3_prepare_v2(db, p, -1, &st, &tail);
    if (rc == SQLITE_OK && !st) break; /* only blanks and comments left */
    /* the statement's text; when it did not compile, to its first ';' */
    size_t n = rc == SQLITE_OK && tail ? (size_t)(tail - p)
                                       : sqljob_simple_end(sql, len, pos) - pos;
    if (rc == SQLITE_OK) {
      bind_params(st, run, now);
      while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      }
    }
    if (rc != SQLITE_OK && rc != SQLITE_DONE) {
      *err = stmt_error(k, p, n,
                        c->over ? "over --sql-timeout (interrupted)"
                                : sqlite3_errmsg(db));
      if (c->over) {
        char *with = xprintf("%s: %lld ms", *err, timeout_ms);
        free(*err);
        *err = with;
      }
      sqlite3_finalize(st);
      return -1;
    }
    sqlite3_finalize(st);
    if (sqlite3_get_autocommit(db)) {
      *err = stmt_error(k, p, n, "ended the host's transaction");
      return -1;
    }
    pos += n;
  }
  return 0;
}

sql_job_outcome sql_job_run(hostdb *h, const host_run *run,
                            long long timeout_ms, char **detail) {
  int code;
  char *err = NULL;
  *detail = NULL;
  if (hostdb_begin(h, &code, &err) != 0) {
    *detail = err;
    return SQL_JOB_DEFERRED;
  }
  job_clock c = {timeout_ms ? mono_ms() + timeout_ms : 0, 0};
  sqlite3_progress_handler(h->db, 1000, job_over, &c);
  sqlite3_int64 before = sqlite3_total_changes64(h->db);
  int rc = run_statements(h->db, run, &c, timeout_ms, &err);
  sqlite3_progress_handler(h->db, 0, NULL, NULL);
  if (rc != 0) {
    hostdb_rollback(h);
    *detail = err;
    return SQL_JOB_FAILED;
  }
  char changed[24];
  snprintf(changed, sizeof changed, "%lld",
           (long long)(sqlite3_total_changes64(h->db) - before));
  if (hostdb_finish(h, run->run_id, "success", changed, &code, &err) != 0) {
    hostdb_rollback(h);
    *detail = err;
    return code == SQLITE_ERROR ? SQL_JOB_REFUSED : SQL_JOB_FAILED;
  }
  if (hostdb_commit(h, &code, &err) != 0) { /* rolled back: nothing done */
    *detail = err;
    return SQL_JOB_FAILED;
  }
  *detail = xstrdup(changed);
  return SQL_JOB_DONE;
}
