/*
** two_procs.c -- two processes ticking one WAL database against one
** process: combined claims per second, the worst wait for a claim batch,
** and a check that no occurrence was claimed twice.
**
**   two_procs TEMPLATE WORKDIR REPS SECS
**
** TEMPLATE is a dbgen.h data set of N triggers; at dbg_now_due(N) every
** trigger is due once. Per repetition and per mode (1 process, then 2),
** the template is copied to WORKDIR, the workers are forked, each opens
** its own connection (busy_timeout 10 s, WAL, synchronous=NORMAL) and
** prepares SELECT trigger_run_due(?now, '{"limit":100}') (default
** options otherwise: runs are claimed with a lease, as hosts sharing a
** database would). All start together and tick until SECS pass or a tick
** claims nothing. Each tick is timed from the call to its return (busy
** waits included): the worst one is the "worst wait per claim batch".
** Afterwards the run table must hold exactly the claimed runs, one per
** trigger (no double claim). Ratio per repetition: combined claims/s of
** 2 processes / claims/s of 1 process, target >= 0.85x.
*/
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dbgen.h"

#define MAXP 4

typedef struct result {
  long long claims, ticks;
  double max_wait, elapsed;
} result;

static void worker(const char *path, i64 now, double secs, int ready, int go,
                   int out) {
  sqlite3 *db = bench_open(path, 1);
  sqlite3_stmt *st =
      bench_prepare(db, "SELECT trigger_run_due(?1, '{\"limit\":100}')");
  sqlite3_bind_int64(st, 1, now);
  char c = 'r';
  if (write(ready, &c, 1) != 1 || read(go, &c, 1) != 1) _exit(3);
  result r = {0, 0, 0, 0};
  double start = bench_now();
  for (;;) {
    double t0 = bench_now();
    if (sqlite3_step(st) != SQLITE_ROW)
      bench_die("tick: %s", sqlite3_errmsg(db));
    const char *json = (const char *)sqlite3_column_text(st, 0);
    long long n = 0;
    for (const char *p = json; p && (p = strstr(p, "{\"run_id\":")); p++) n++;
    sqlite3_reset(st);
    double t1 = bench_now();
    if (t1 - t0 > r.max_wait) r.max_wait = t1 - t0;
    r.claims += n;
    r.ticks++;
    if (n == 0 || t1 - start >= secs) break;
  }
  r.elapsed = bench_now() - start;
  if (write(out, &r, sizeof r) != (ssize_t)sizeof r) _exit(3);
  sqlite3_finalize(st);
  sqlite3_close(db);
  _exit(0);
}

/* One measurement with np processes; returns combined claims/s. */
static double measure(const char *tmpl, const char *work, i64 n, int np,
                      double secs, double *max_wait, int *exhausted) {
  bench_copy_file(tmpl, work);
  int ready[2], go[2], out[2];
  if (pipe(ready) || pipe(go) || pipe(out)) bench_die("pipe");
  pid_t pids[MAXP];
  for (int i = 0; i < np; i++) {
    pids[i] = fork();
    if (pids[i] < 0) bench_die("fork");
    if (pids[i] == 0)
      worker(work, dbg_now_due(n), secs, ready[1], go[0], out[1]);
  }
  char c;
  for (int i = 0; i < np; i++) {
    if (read(ready[0], &c, 1) != 1) bench_die("worker did not start");
  }
  for (int i = 0; i < np; i++) {
    if (write(go[1], "g", 1) != 1) bench_die("pipe");
  }
  long long claims = 0;
  double elapsed = 0;
  *max_wait = 0;
  *exhausted = 0;
  for (int i = 0; i < np; i++) {
    result r;
    if (read(out[0], &r, sizeof r) != (ssize_t)sizeof r)
      bench_die("worker failed");
    claims += r.claims;
    if (r.elapsed > elapsed) elapsed = r.elapsed;
    if (r.max_wait > *max_wait) *max_wait = r.max_wait;
    if (r.elapsed < secs) *exhausted = 1;
  }
  for (int i = 0; i < np; i++) {
    int status = 0;
    waitpid(pids[i], &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
      bench_die("worker exited badly");
  }
  close(ready[0]);
  close(ready[1]);
  close(go[0]);
  close(go[1]);
  close(out[0]);
  close(out[1]);
  sqlite3 *db = bench_open(work, 0);
  i64 runs = bench_query_i64(db, "SELECT count(*) FROM triggers_rundata");
  i64 distinct = bench_query_i64(
      db, "SELECT count(DISTINCT trigger_id) FROM triggers_rundata");
  sqlite3_close(db);
  if (runs != claims || distinct != claims) {
    bench_die(
        "%d processes: %lld claims returned, %lld run rows, %lld distinct triggers",
        np, claims, (long long)runs, (long long)distinct);
  }
  return (double)claims / elapsed;
}

int main(int argc, char **argv) {
  if (argc < 5) bench_die("usage: two_procs TEMPLATE WORKDIR REPS SECS");
  int reps = atoi(argv[3]);
  double secs = atof(argv[4]);
  if (reps < 1 || reps > BENCH_MAXREP) bench_die("bad REPS");
  char work[4096];
  snprintf(work, sizeof work, "%s/two_procs.db", argv[2]);
  sqlite3 *db = bench_open(argv[1], 0);
  i64 n = bench_query_i64(db, "SELECT count(*) FROM triggers_data");
  sqlite3_close(db);
  signal(SIGPIPE, SIG_IGN);
  double one[BENCH_MAXREP], two[BENCH_MAXREP], ratio[BENCH_MAXREP];
  double worst1 = 0, worst2 = 0;
  int exhausted_any = 0;
  for (int r = 0; r < reps; r++) {
    double w;
    int ex;
    one[r] = measure(argv[1], work, n, 1, secs, &w, &ex);
    worst1 = w > worst1 ? w : worst1;
    exhausted_any |= ex;
    two[r] = measure(argv[1], work, n, 2, secs, &w, &ex);
    worst2 = w > worst2 ? w : worst2;
    exhausted_any |= ex;
    ratio[r] = two[r] / one[r];
  }
  bench_rm_db(work);
  char a[64], b[64], x[32], y[32], nn[16];
  snprintf(a, sizeof a, "%s, worst wait %s",
           bench_fmt_rate(bench_median(two, reps), x, sizeof x),
           bench_fmt_secs(worst2, y, sizeof y));
  char y2[32];
  snprintf(b, sizeof b, "%s, worst wait %s",
           bench_fmt_rate(bench_median(one, reps), x, sizeof x),
           bench_fmt_secs(worst1, y2, sizeof y2));
  char label[128];
  snprintf(
      label, sizeof label,
      "2 processes vs 1 ticking one WAL file (%s due, limit 100): combined claims/s",
      bench_fmt_count(n, nn, sizeof nn));
  bench_row(label, a, b, ratio, reps, ">=", 0.85, ">= 0.85x");
  bench_note(
      "two processes: no occurrence claimed twice in %d repetitions (run rows = claims = distinct triggers)%s",
      reps * 2,
      exhausted_any
          ? "; some runs used up every due trigger before the time box"
          : "");
  return 0;
}
