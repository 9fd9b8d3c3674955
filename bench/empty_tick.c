/*
** empty_tick.c -- a tick when nothing is due, against the bare indexed
** probe and against loading every queued task.
**
**   empty_tick N OURS_DB PLAIN_DB REPS
**
** OURS_DB and PLAIN_DB hold the same N triggers (dbgen.h); at
** dbg_now_due(0) none is due. Per repetition, each measured back to back
** on connections opened once, statements prepared once:
**   ours     SELECT trigger_run_due(?now, '{"limit":1000}')   (nothing
**            due: one read-only probe; with work, its own BEGIN
**            IMMEDIATE .. COMMIT)
**   probe    BEGIN IMMEDIATE; SELECT id, next_due, interval_ms FROM
**            triggers WHERE next_due <= ?now ORDER BY next_due LIMIT 1000;
**            COMMIT  -- the bare indexed tick in plain SQL
**   loadall  SELECT id, trigger_id, instructions, interval_ms, next_due
**            FROM triggers, every row copied into memory (what job-queue
**            libraries do when they load all queued tasks), no transaction
** ours and probe: median per-call time over a 0.25 s batch (at least 200
** calls); loadall: median of 3 calls. Ratios per repetition: ours/probe
** (target <= 1.3x at 1M, issue 35) and loadall/ours (target >= 5,000x at 1M).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbgen.h"

#define BATCH_SECS 0.25
#define MAX_CALLS 200000

static double samples[MAX_CALLS];

/* Median seconds per call of fn over a time-boxed batch. */
static double timed(void (*fn)(void *), void *arg, double secs, int min_calls) {
  int n = 0;
  double start = bench_now();
  while (n < MAX_CALLS && (n < min_calls || bench_now() - start < secs)) {
    double t0 = bench_now();
    fn(arg);
    samples[n++] = bench_now() - t0;
  }
  return bench_median(samples, n);
}

typedef struct probe {
  sqlite3 *db;
  sqlite3_stmt *begin, *sel, *commit;
  sqlite3_stmt *ours;
  sqlite3_stmt *all;
} probe;

static void run_done(sqlite3 *db, sqlite3_stmt *st) {
  int rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
  }
  if (rc != SQLITE_DONE) bench_die("%s", sqlite3_errmsg(db));
  sqlite3_reset(st);
}

static void do_probe(void *arg) {
  probe *p = arg;
  run_done(p->db, p->begin);
  int rc, rows = 0;
  while ((rc = sqlite3_step(p->sel)) == SQLITE_ROW) rows++;
  if (rc != SQLITE_DONE || rows != 0)
    bench_die("probe: %s", sqlite3_errmsg(p->db));
  sqlite3_reset(p->sel);
  run_done(p->db, p->commit);
}

static void do_ours(void *arg) {
  probe *p = arg;
  if (sqlite3_step(p->ours) != SQLITE_ROW)
    bench_die("tick: %s", sqlite3_errmsg(p->db));
  const char *out = (const char *)sqlite3_column_text(p->ours, 0);
  if (!out || strcmp(out, "[]") != 0)
    bench_die("tick claimed something: %.80s", out);
  sqlite3_reset(p->ours);
}

typedef struct task {
  i64 id, interval_ms, next_due;
  char *trigger_id, *instructions;
} task;

static void do_loadall(void *arg) {
  probe *p = arg;
  size_t n = 0, cap = 1024;
  task *v = malloc(cap * sizeof *v);
  if (!v) bench_die("out of memory");
  while (sqlite3_step(p->all) == SQLITE_ROW) {
    if (n == cap) {
      cap *= 2;
      task *g = realloc(v, cap * sizeof *v);
      if (!g) bench_die("out of memory");
      v = g;
    }
    v[n].id = sqlite3_column_int64(p->all, 0);
    v[n].trigger_id = strdup((const char *)sqlite3_column_text(p->all, 1));
    v[n].instructions = strdup((const char *)sqlite3_column_text(p->all, 2));
    v[n].interval_ms = sqlite3_column_int64(p->all, 3);
    v[n].next_due = sqlite3_column_int64(p->all, 4);
    n++;
  }
  sqlite3_reset(p->all);
  for (size_t i = 0; i < n; i++) {
    free(v[i].trigger_id);
    free(v[i].instructions);
  }
  free(v);
}

int main(int argc, char **argv) {
  if (argc < 5) bench_die("usage: empty_tick N OURS_DB PLAIN_DB REPS");
  i64 n = atoll(argv[1]);
  int reps = atoi(argv[4]);
  if (reps < 1 || reps > BENCH_MAXREP) bench_die("bad REPS");
  i64 now = dbg_now_due(0);

  probe ours = {0}, plain = {0};
  ours.db = bench_open(argv[2], 1);
  ours.ours =
      bench_prepare(ours.db, "SELECT trigger_run_due(?1, '{\"limit\":1000}')");
  sqlite3_bind_int64(ours.ours, 1, now);
  plain.db = bench_open(argv[3], 0);
  plain.begin = bench_prepare(plain.db, "BEGIN IMMEDIATE");
  plain.commit = bench_prepare(plain.db, "COMMIT");
  plain.sel = bench_prepare(plain.db,
                            "SELECT id, next_due, interval_ms FROM triggers"
                            " WHERE next_due <= ?1 ORDER BY next_due LIMIT ?2");
  sqlite3_bind_int64(plain.sel, 1, now);
  sqlite3_bind_int64(plain.sel, 2, 1000);
  plain.all = bench_prepare(plain.db,
                            "SELECT id, trigger_id, instructions, interval_ms,"
                            " next_due FROM triggers");
  /* Warm both caches and check the setup once. */
  do_ours(&ours);
  do_probe(&plain);

  double t_ours[BENCH_MAXREP], t_probe[BENCH_MAXREP], t_all[BENCH_MAXREP];
  double r_probe[BENCH_MAXREP], r_all[BENCH_MAXREP];
  for (int r = 0; r < reps; r++) {
    t_probe[r] = timed(do_probe, &plain, BATCH_SECS, 200);
    t_ours[r] = timed(do_ours, &ours, BATCH_SECS, 200);
    t_all[r] = timed(do_loadall, &plain, 0, 3);
    r_probe[r] = t_ours[r] / t_probe[r];
    r_all[r] = t_all[r] / t_ours[r];
  }
  char label[96], a[32], b[32], nn[16];
  bench_fmt_count(n, nn, sizeof nn);
  int gate = n >= 1000000;
  snprintf(label, sizeof label,
           "empty tick, %s triggers: time vs bare indexed probe", nn);
  bench_row(label, bench_fmt_secs(bench_median(t_ours, reps), a, sizeof a),
            bench_fmt_secs(bench_median(t_probe, reps), b, sizeof b), r_probe,
            reps, gate ? "<=" : NULL, 1.3, gate ? "<= 1.3x" : "(1M only)");
  snprintf(label, sizeof label, "empty tick, %s triggers: speed-up vs load-all",
           nn);
  bench_row(label, bench_fmt_secs(bench_median(t_ours, reps), a, sizeof a),
            bench_fmt_secs(bench_median(t_all, reps), b, sizeof b), r_all, reps,
            gate ? ">=" : NULL, 5000.0, gate ? ">= 5,000x" : "(1M only)");
  sqlite3_stmt *cost = bench_prepare(ours.db, "SELECT trigger_last_tick()");
  if (sqlite3_step(cost) == SQLITE_ROW) {
    bench_note("empty tick at %s: trigger_last_tick() = %s", nn,
               (const char *)sqlite3_column_text(cost, 0));
  }
  sqlite3_finalize(cost);
  sqlite3_finalize(ours.ours);
  sqlite3_finalize(plain.begin);
  sqlite3_finalize(plain.commit);
  sqlite3_finalize(plain.sel);
  sqlite3_finalize(plain.all);
  sqlite3_close(ours.db);
  sqlite3_close(plain.db);
  return 0;
}
