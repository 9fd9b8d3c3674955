/*
** host_sql.c -- SQL jobs through trigger-host against a plain loop doing
** the same work with its own log (issue 40, docs/sql-jobs.md).
**
**   host_sql WORKDIR N REPS
**
** One template database with N interval triggers, all due (as for
** host_print.c), each a SQL job updating one row of its own:
**   UPDATE items SET n = n + 1 WHERE name = :trigger_id
** Per repetition, each side on its own copy, back to back:
**   plain -- the job as an application would run it with pg_cron's kind
**            of log, from C: per job, BEGIN IMMEDIATE, the same UPDATE,
**            INSERT INTO job_log(job, at), COMMIT (WAL, synchronous
**            NORMAL, as the host); timed.
**   host  -- `trigger-host tick COPY --sql`: one claim, then each job and
**            its finish in one transaction; timed from fork to exit
**            (process start, open, the claim, the jobs, close).
** Each side is checked: every item updated once; host: N runs 'success'.
** Row: host jobs/s / plain jobs/s, target >= 0.7x.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostbench.h"

#define JOB "UPDATE items SET n = n + 1 WHERE name = :trigger_id"

/* The template: hb_build_all_due's triggers made SQL jobs, their items,
** the plain side's log table. */
static void build(const char *tmpl, int n) {
  hb_build_all_due(tmpl, n);
  sqlite3 *db = bench_open(tmpl, 1);
  bench_exec(db,
             "CREATE TABLE items(name TEXT PRIMARY KEY, n INTEGER NOT NULL);"
             "CREATE TABLE job_log(id INTEGER PRIMARY KEY, job TEXT, at "
             "INTEGER);"
             "BEGIN;"
             "INSERT INTO items SELECT trigger_id, 0 FROM triggers;"
             "UPDATE triggers SET action_sql = '" JOB "';"
             "COMMIT;"
             "PRAGMA wal_checkpoint(TRUNCATE)");
  sqlite3_close(db);
}

static void check_items(sqlite3 *db, int n, const char *side) {
  i64 done = bench_query_i64(db, "SELECT count(*) FROM items WHERE n = 1");
  if (done != n)
    bench_die("%s: %lld items updated once, expected %d", side, (long long)done,
              n);
}

static double side_plain(const char *tmpl, const char *work, int n) {
  bench_copy_file(tmpl, work);
  sqlite3 *db = bench_open(work, 0);
  sqlite3_stmt *names = bench_prepare(db, "SELECT name FROM items");
  char **jobs = malloc(sizeof *jobs * (size_t)n);
  int k = 0;
  while (k < n && sqlite3_step(names) == SQLITE_ROW)
    jobs[k++] = strdup((const char *)sqlite3_column_text(names, 0));
  sqlite3_finalize(names);
  sqlite3_stmt *begin = bench_prepare(db, "BEGIN IMMEDIATE");
  sqlite3_stmt *job =
      bench_prepare(db, "UPDATE items SET n = n + 1 WHERE name = ?1");
  sqlite3_stmt *log =
      bench_prepare(db, "INSERT INTO job_log(job, at) VALUES(?1, ?2)");
  sqlite3_stmt *commit = bench_prepare(db, "COMMIT");
  double t0 = bench_now();
  for (int i = 0; i < k; i++) {
    if (sqlite3_step(begin) != SQLITE_DONE)
      bench_die("plain: BEGIN: %s", sqlite3_errmsg(db));
    sqlite3_reset(begin);
    sqlite3_bind_text(job, 1, jobs[i], -1, SQLITE_STATIC);
    if (sqlite3_step(job) != SQLITE_DONE)
      bench_die("plain: UPDATE: %s", sqlite3_errmsg(db));
    sqlite3_reset(job);
    sqlite3_bind_text(log, 1, jobs[i], -1, SQLITE_STATIC);
    sqlite3_bind_int64(log, 2, (i64)hb_wall_ms());
    if (sqlite3_step(log) != SQLITE_DONE)
      bench_die("plain: INSERT: %s", sqlite3_errmsg(db));
    sqlite3_reset(log);
    if (sqlite3_step(commit) != SQLITE_DONE)
      bench_die("plain: COMMIT: %s", sqlite3_errmsg(db));
    sqlite3_reset(commit);
  }
  double t = bench_now() - t0;
  sqlite3_finalize(begin);
  sqlite3_finalize(job);
  sqlite3_finalize(log);
  sqlite3_finalize(commit);
  check_items(db, n, "plain");
  sqlite3_close(db);
  for (int i = 0; i < k; i++) free(jobs[i]);
  free(jobs);
  return n / t;
}

static double side_host(const char *tmpl, const char *work, const char *err,
                        int n) {
  bench_copy_file(tmpl, work);
  const char *args[] = {"tick", work, "--sql", NULL};
  char line[256];
  FILE *out;
  double t0 = bench_now();
  pid_t pid = hb_start_host(args, &out, err);
  while (fgets(line, sizeof line, out)) {
  }
  fclose(out);
  hb_wait_ok(pid, "host sql", err);
  double t = bench_now() - t0;
  i64 ok = hb_count_status(work, "success");
  if (ok != n) bench_die("host: %lld success, expected %d", (long long)ok, n);
  sqlite3 *db = bench_open(work, 0);
  check_items(db, n, "host");
  sqlite3_close(db);
  return n / t;
}

int main(int argc, char **argv) {
  if (argc != 4) bench_die("usage: host_sql WORKDIR N REPS");
  const char *dir = argv[1];
  int n = atoi(argv[2]), reps = atoi(argv[3]);
  if (n < 1 || reps < 1 || reps > BENCH_MAXREP) bench_die("bad N or REPS");
  hb_files f;
  hb_files_in(&f, dir, "host_sql");
  build(f.tmpl, n);
  double plain[BENCH_MAXREP], host[BENCH_MAXREP], ratio[BENCH_MAXREP];
  for (int r = 0; r < reps; r++) {
    plain[r] = side_plain(f.tmpl, f.work, n);
    host[r] = side_host(f.tmpl, f.work, f.err, n);
    ratio[r] = host[r] / plain[r];
  }
  char a[32], b[32], c[32], row[256];
  bench_fmt_count(n, c, sizeof c);
  snprintf(row, sizeof row,
           "SQL jobs, %s due (one-row UPDATE each): trigger-host tick --sql "
           "jobs/s vs a plain loop (UPDATE + log INSERT, one txn per job)",
           c);
  bench_row(row, bench_fmt_rate(bench_median(host, reps), a, sizeof a),
            bench_fmt_rate(bench_median(plain, reps), b, sizeof b), ratio, reps,
            ">=", 0.7, ">= 0.7x");
  bench_rm_db(f.tmpl);
  bench_rm_db(f.work);
  return 0;
}
