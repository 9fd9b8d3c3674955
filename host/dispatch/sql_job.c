/*
** sql_job.c -- a SQL job and its finish in one transaction (sql_job.h):
** on a local file in the host's batch, with --via by the extension's
** trigger_run_sql_job on the far side.
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

/* The batch's kept statements dropped. */
static void kept_clear(sql_batch *b) {
  for (int i = 0; i < b->nkept; i++) sqlite3_finalize(b->kept[i]);
  free(b->kept_text);
  b->kept_text = NULL;
  b->nkept = 0;
}

/* Statement k (0-based) of sql at pos: the one kept when the batch's last
** job had the same text, else prepared (and kept for the next job while
** there is room). *n: its text's length. SQLITE_OK with *st (NULL: only
** blanks and comments left), or an error with *err; *owned: finalize it. */
static int job_stmt(sql_batch *b, const char *sql, size_t pos, int k,
                    sqlite3_stmt **st, size_t *n, int *owned, char **err) {
  size_t len = strlen(sql);
  *owned = 0;
  if (b->kept_text && k < b->nkept) {
    *st = b->kept[k];
    *n = b->kept_len[k];
    sqlite3_reset(*st);
    sqlite3_clear_bindings(*st);
    return SQLITE_OK;
  }
  /* refused again here: the row may have been changed outside the
  ** extension since it was checked (docs/sql-jobs.md) */
  const char *why = sqljob_refused(sql, len, pos);
  const char *tail = NULL;
  int rc = SQLITE_ERROR;
  *st = NULL;
  if (!why) rc = sqlite3_prepare_v2(b->h->db, sql + pos, -1, st, &tail);
  /* the statement's text; when it did not compile, to its first ';' */
  *n = rc == SQLITE_OK && tail ? (size_t)(tail - (sql + pos))
                               : sqljob_simple_end(sql, len, pos) - pos;
  if (rc != SQLITE_OK) {
    *err =
        stmt_error(k + 1, sql + pos, *n, why ? why : sqlite3_errmsg(b->h->db));
    kept_clear(b);
    return rc;
  }
  if (*st && b->kept_text && k == b->nkept && k < SQL_JOB_KEPT) {
    b->kept[k] = *st;
    b->kept_len[k] = *n;
    b->nkept++;
  } else {
    *owned = 1;
  }
  return SQLITE_OK;
}

/* Each statement of run's action_sql stepped to its end inside the open
** transaction. 0, or -1 with *err. */
static int run_statements(sql_batch *b, const host_run *run, const job_clock *c,
                          long long timeout_ms, char **err) {
  sqlite3 *db = b->h->db;
  const char *sql = run->action_sql;
  size_t len = strlen(sql), pos = 0;
  long long now = (long long)(wall_us() / 1000);
  if (!b->kept_text || strcmp(b->kept_text, sql) != 0) {
    kept_clear(b); /* another job's text: its statements are kept instead */
    b->kept_text = xstrdup(sql);
  }
  for (int k = 0; (pos = sqljob_next_statement(sql, len, pos)) < len; k++) {
    sqlite3_stmt *st;
    size_t n;
    int owned;
    if (job_stmt(b, sql, pos, k, &st, &n, &owned, err) != SQLITE_OK) return -1;
    if (!st) break; /* only blanks and comments left */
    bind_params(st, run, now);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    }
    if (rc != SQLITE_DONE) {
      *err = stmt_error(k + 1, sql + pos, n,
                        c->over ? "over --sql-timeout (interrupted)"
                                : sqlite3_errmsg(db));
      if (c->over) {
        char *with = xprintf("%s: %lld ms", *err, timeout_ms);
        free(*err);
        *err = with;
      }
    }
    if (owned) sqlite3_finalize(st);
    else sqlite3_reset(st);
    if (rc != SQLITE_DONE) return -1;
    if (sqlite3_get_autocommit(db)) {
      *err = stmt_error(k + 1, sql + pos, n, "ended the host's transaction");
      return -1;
    }
    pos += n;
  }
  return 0;
}

/* One of the batch's savepoint statements stepped: 0, or -1 with *err. */
static int step_plain(sql_batch *b, sqlite3_stmt *st, char **err) {
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  if (rc == SQLITE_DONE) return 0;
  *err = xprintf("%s: %s", b->h->path, sqlite3_errmsg(b->h->db));
  return -1;
}

static int prepare_plain(sql_batch *b, const char *sql, sqlite3_stmt **st,
                         char **err) {
  if (sqlite3_prepare_v2(b->h->db, sql, -1, st, NULL) == SQLITE_OK) return 0;
  *err = xprintf("%s: %s", b->h->path, sqlite3_errmsg(b->h->db));
  return -1;
}

int sql_batch_begin(sql_batch *b, hostdb *h, char **err) {
  int code;
  memset(b, 0, sizeof *b);
  b->h = h;
  if (h->via) { /* no transaction here: each job is one of its own there */
    b->began_ms = mono_ms();
    return 0;
  }
  if (prepare_plain(b, "SAVEPOINT trigger_sql_job", &b->savepoint, err) ||
      prepare_plain(b, "RELEASE trigger_sql_job", &b->release, err) ||
      prepare_plain(b, "ROLLBACK TO trigger_sql_job", &b->undo, err) ||
      hostdb_begin(h, &code, err) != 0) {
    sql_batch_end(b);
    return -1;
  }
  b->began_ms = mono_ms();
  return 0;
}

int sql_batch_full(const sql_batch *b) {
  return b->jobs >= SQL_BATCH_JOBS || mono_ms() - b->began_ms >= SQL_BATCH_MS;
}

/* The job's savepoint rolled back to (still open), and, with leave, left
** too. */
static void undo_job(sql_batch *b, int leave) {
  sqlite3_step(b->undo);
  sqlite3_reset(b->undo);
  if (!leave) return;
  sqlite3_step(b->release);
  sqlite3_reset(b->release);
}

/* --via: the job and its end in one statement of the far side, run there
** by the extension (trigger_run_sql_job): each is a transaction of its own,
** so no job can share one with its finish here. */
static sql_job_outcome via_job(hostdb *h, const host_run *run,
                               long long timeout_ms, char **detail) {
  int code;
  char *status = NULL, *err = NULL;
  if (hostdb_sql_job(h, run->run_id, timeout_ms, &status, detail, &code,
                     &err) != 0) {
    *detail = err; /* not run, nothing recorded (hostdb.h) */
    return SQL_JOB_REFUSED;
  }
  int done = strcmp(status, "success") == 0;
  free(status);
  if (!*detail) *detail = xstrdup(done ? "0" : "failed");
  return done ? SQL_JOB_DONE : SQL_JOB_FAILED;
}

sql_job_outcome sql_job_run(sql_batch *b, const host_run *run,
                            long long timeout_ms, char **detail) {
  hostdb *h = b->h;
  int code;
  char *err = NULL;
  *detail = NULL;
  b->jobs++;
  if (h->via) return via_job(h, run, timeout_ms, detail);
  if (!hostdb_in_txn(h)) { /* rolled back by SQLite (a full disk): stop */
    *detail = xprintf("%s: the batch's transaction was rolled back", h->path);
    return SQL_JOB_REFUSED;
  }
  if (step_plain(b, b->savepoint, &err) != 0) {
    *detail = err;
    return SQL_JOB_REFUSED;
  }
  job_clock c = {timeout_ms ? mono_ms() + timeout_ms : 0, 0};
  sqlite3_progress_handler(h->db, 1000, job_over, &c);
  sqlite3_int64 before = sqlite3_total_changes64(h->db);
  int rc = run_statements(b, run, &c, timeout_ms, &err);
  sqlite3_progress_handler(h->db, 0, NULL, NULL);
  const char *status = "success";
  char changed[24] = "";
  if (rc != 0) { /* nothing of the job stays; its failure is recorded */
    undo_job(b, 0);
    status = "failed";
  } else {
    snprintf(changed, sizeof changed, "%lld",
             (long long)(sqlite3_total_changes64(h->db) - before));
  }
  char *why = NULL;
  if (hostdb_finish(h, run->run_id, status, rc ? err : changed, &code, &why) !=
      0) {
    undo_job(b, 1); /* refused (the run is no longer ours): undone */
    free(err);
    *detail = why;
    return SQL_JOB_REFUSED;
  }
  if (step_plain(b, b->release, &why) != 0) { /* cannot happen */
    free(err);
    *detail = why;
    return SQL_JOB_REFUSED;
  }
  *detail = rc ? err : xstrdup(changed);
  return rc ? SQL_JOB_FAILED : SQL_JOB_DONE;
}

int sql_batch_commit(sql_batch *b, char **err) {
  int code;
  int rc = hostdb_in_txn(b->h) ? hostdb_commit(b->h, &code, err) : -1;
  if (rc != 0 && !*err)
    *err = xprintf("%s: the transaction was rolled back", b->h->path);
  sql_batch_end(b);
  return rc;
}

void sql_batch_end(sql_batch *b) {
  hostdb_rollback(b->h); /* an open one only (hostdb.h) */
  kept_clear(b);
  sqlite3_finalize(b->savepoint);
  sqlite3_finalize(b->release);
  sqlite3_finalize(b->undo);
  b->savepoint = b->release = b->undo = NULL;
}
