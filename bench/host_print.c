/*
** host_print.c -- trigger-host in print mode against the bare claim.
**
**   host_print WORKDIR N REPS
**
** One template database with N interval triggers, all due (at wall-clock
** instants of the last minute, each once: the host claims at the real
** time). Per repetition, each side on its own copy, back to back:
**   claim    -- SELECT trigger_run_due() once (one transaction claiming all
**               N) and a passive checkpoint, timed: the bare claim.
**   engine   -- (diagnostic) the same claim, then trigger_run_finish(run_id,
**               'success') per run, 256 per BEGIN IMMEDIATE .. COMMIT, and a
**               passive checkpoint, from C: what the engine needs for a
**               claim plus a report (print mode's lease path).
**   host     -- `trigger-host tick COPY` (print mode, default options:
**               synchronous NORMAL; stdout a pipe read here, so batches
**               are claimed and printed in the claim's own transaction),
**               its lines counted here; timed from fork to exit (process
**               start, open, claims, print, close included).
** Each side is checked: N runs claimed (host: N lines, N runs 'success';
** engine: N 'success'). Row: host runs/s / claim runs/s, target >= 0.8x (issue 35);
** diagnostic: engine / claim (information).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hostbench.h"

#define BATCH 256

/* Claim everything due on path; *json (malloc'ed) is the answer. */
static double claim_all(sqlite3 *db, char **json) {
  sqlite3_stmt *st = bench_prepare(db, "SELECT trigger_run_due()");
  double t0 = bench_now();
  if (sqlite3_step(st) != SQLITE_ROW)
    bench_die("claim: %s", sqlite3_errmsg(db));
  double t = bench_now() - t0;
  const char *a = (const char *)sqlite3_column_text(st, 0);
  *json = strdup(a ? a : "[]");
  sqlite3_finalize(st);
  return t;
}

/* A passive checkpoint: as busy_tick.c, each side pays for writing its
** pages back (the host's close checkpoints too). */
static void checkpoint(sqlite3 *db) {
  bench_exec(db, "PRAGMA wal_checkpoint(PASSIVE)");
}

static double side_claim(const char *tmpl, const char *work, int n) {
  bench_copy_file(tmpl, work);
  sqlite3 *db = bench_open(work, 1);
  char *json;
  double t0 = bench_now();
  claim_all(db, &json);
  checkpoint(db);
  double t = bench_now() - t0;
  free(json);
  i64 got = bench_query_i64(db, "SELECT count(*) FROM trigger_runs");
  if (got != n) bench_die("claim: %lld runs, expected %d", (long long)got, n);
  sqlite3_close(db);
  return n / t;
}

/* The run_ids of the answer, in order (the data set's ids need no JSON
** unescaping: "h000123@...#1"). */
static int run_ids(char *json, char **ids, int max) {
  int n = 0;
  const char *key = "\"run_id\":\"";
  for (char *p = json; n < max && (p = strstr(p, key)); n++) {
    p += strlen(key);
    ids[n] = p;
    p = strchr(p, '"');
    if (!p) bench_die("engine: bad answer");
    *p++ = 0;
  }
  return n;
}

static double side_engine(const char *tmpl, const char *work, int n) {
  bench_copy_file(tmpl, work);
  sqlite3 *db = bench_open(work, 1);
  sqlite3_stmt *fin =
      bench_prepare(db, "SELECT trigger_run_finish(?1, 'success')");
  sqlite3_stmt *begin = bench_prepare(db, "BEGIN IMMEDIATE");
  sqlite3_stmt *commit = bench_prepare(db, "COMMIT");
  char **ids = malloc(sizeof *ids * (size_t)n);
  char *json;
  double t0 = bench_now();
  claim_all(db, &json);
  int got = run_ids(json, ids, n);
  for (int i = 0; i < got; i++) {
    if (i % BATCH == 0 && (sqlite3_step(begin), sqlite3_reset(begin)))
      bench_die("engine: BEGIN: %s", sqlite3_errmsg(db));
    sqlite3_bind_text(fin, 1, ids[i], -1, SQLITE_STATIC);
    if (sqlite3_step(fin) != SQLITE_ROW)
      bench_die("engine: finish: %s", sqlite3_errmsg(db));
    sqlite3_reset(fin);
    if ((i % BATCH == BATCH - 1 || i == got - 1) &&
        (sqlite3_step(commit), sqlite3_reset(commit)))
      bench_die("engine: COMMIT: %s", sqlite3_errmsg(db));
  }
  checkpoint(db);
  double t = bench_now() - t0;
  free(json);
  free(ids);
  sqlite3_finalize(fin);
  sqlite3_finalize(begin);
  sqlite3_finalize(commit);
  sqlite3_close(db);
  i64 ok = hb_count_status(work, "success");
  if (got != n || ok != n)
    bench_die("engine: %d claimed, %lld success, expected %d", got,
              (long long)ok, n);
  return n / t;
}

static double side_host(const char *tmpl, const char *work, const char *err,
                        int n) {
  bench_copy_file(tmpl, work);
  const char *args[] = {"tick", work, NULL};
  char line[8192];
  int lines = 0;
  FILE *out;
  double t0 = bench_now();
  pid_t pid = hb_start_host(args, &out, err);
  while (fgets(line, sizeof line, out)) lines += strchr(line, '\n') != NULL;
  fclose(out);
  hb_wait_ok(pid, "host print", err);
  double t = bench_now() - t0;
  i64 ok = hb_count_status(work, "success");
  if (lines != n || ok != n)
    bench_die("host: %d lines, %lld success, expected %d", lines, (long long)ok,
              n);
  return n / t;
}

int main(int argc, char **argv) {
  if (argc != 4) bench_die("usage: host_print WORKDIR N REPS");
  const char *dir = argv[1];
  int n = atoi(argv[2]), reps = atoi(argv[3]);
  if (n < 1 || reps < 1 || reps > BENCH_MAXREP) bench_die("bad N or REPS");
  hb_files f;
  hb_files_in(&f, dir, "host_print");
  const char *tmpl = f.tmpl, *work = f.work, *err = f.err;
  hb_build_all_due(tmpl, n);
  double claim[BENCH_MAXREP], engine[BENCH_MAXREP], host[BENCH_MAXREP];
  double r_host[BENCH_MAXREP], r_engine[BENCH_MAXREP], r_he[BENCH_MAXREP];
  for (int r = 0; r < reps; r++) {
    claim[r] = side_claim(tmpl, work, n);
    engine[r] = side_engine(tmpl, work, n);
    host[r] = side_host(tmpl, work, err, n);
    r_host[r] = host[r] / claim[r];
    r_engine[r] = engine[r] / claim[r];
    r_he[r] = host[r] / engine[r];
  }
  char a[32], b[32], c[32], row[256];
  bench_fmt_count(n, c, sizeof c);
  snprintf(row, sizeof row,
           "trigger-host tick, print mode, %s due: runs/s vs bare claim "
           "(trigger_run_due)",
           c);
  bench_row(row, bench_fmt_rate(bench_median(host, reps), a, sizeof a),
            bench_fmt_rate(bench_median(claim, reps), b, sizeof b), r_host,
            reps, ">=", 0.8, ">= 0.8x");
  snprintf(row, sizeof row,
           "(diagnostic) %s due: claim + trigger_run_finish per run, %d per "
           "transaction (C loop) vs bare claim",
           c, BATCH);
  bench_row(row, bench_fmt_rate(bench_median(engine, reps), a, sizeof a),
            bench_fmt_rate(bench_median(claim, reps), b, sizeof b), r_engine,
            reps, NULL, 0, "(info)");
  bench_note("host print mode vs the engine's claim + finish loop (the "
             "lease path's work): %.2fx [%.2fx-%.2fx] (above 1: the claim's "
             "own transaction needs no report)",
             bench_median(r_he, reps), bench_min(r_he, reps),
             bench_max(r_he, reps));
  bench_rm_db(tmpl);
  bench_rm_db(work);
  return 0;
}
