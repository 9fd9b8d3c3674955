/*
** peak_mem.c -- peak memory (RSS) of a tick over a large trigger table
** against the same tick over a small one: the tick's memory must not grow
** with the number of triggers.
**
**   peak_mem SMALL_DB BIG_DB K REPS
**
** SMALL_DB and BIG_DB are data sets of dbgen.h (e.g. 1k and 1M
** triggers). Each sample is a fresh process (fork, before any SQLite use
** in the parent) that opens the database, loads the extension and runs
**   BEGIN; SELECT trigger_run_due(dbg_now_due(K)); ROLLBACK
** -- a full tick claiming K triggers (K runs built, written and returned
** as JSON) inside the caller's transaction, rolled back so the database
** stays reusable -- then reads its peak RSS (VmHWM of /proc/self/status).
** Samples alternate small / big. Ratio: peak(big) / peak(small) per
** repetition, target <= 1.5x.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dbgen.h"

/* In a child: tick, report "claimed peak_kib" through the pipe. */
static void child(const char *path, i64 k, int fd) {
  sqlite3 *db = bench_open(path, 1);
  sqlite3_stmt *st = bench_prepare(db, "SELECT trigger_run_due(?1)");
  sqlite3_bind_int64(st, 1, dbg_now_due(k));
  bench_exec(db, "BEGIN");
  if (sqlite3_step(st) != SQLITE_ROW) bench_die("tick: %s", sqlite3_errmsg(db));
  sqlite3_reset(st);
  i64 claimed =
      bench_query_i64(db, "SELECT trigger_last_tick() ->> '$.claimed'");
  bench_exec(db, "ROLLBACK");
  long kib = bench_peak_rss_kib();
  char buf[64];
  int n = snprintf(buf, sizeof buf, "%lld %ld\n", (long long)claimed, kib);
  if (write(fd, buf, (size_t)n) != n) _exit(3);
  sqlite3_finalize(st);
  sqlite3_close(db);
  _exit(0);
}

static long sample(const char *path, i64 k) {
  int p[2];
  if (pipe(p) != 0) bench_die("pipe");
  pid_t pid = fork();
  if (pid < 0) bench_die("fork");
  if (pid == 0) {
    close(p[0]);
    child(path, k, p[1]);
  }
  close(p[1]);
  char buf[64] = {0};
  ssize_t n = read(p[0], buf, sizeof buf - 1);
  close(p[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  long long claimed = 0;
  long kib = 0;
  if (n <= 0 || sscanf(buf, "%lld %ld", &claimed, &kib) != 2 ||
      !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    bench_die("peak_mem child failed on %s", path);
  }
  if (claimed != k)
    bench_die("%s: tick claimed %lld, expected %lld", path, claimed,
              (long long)k);
  return kib;
}

int main(int argc, char **argv) {
  if (argc < 5) bench_die("usage: peak_mem SMALL_DB BIG_DB K REPS");
  i64 k = atoll(argv[3]);
  int reps = atoi(argv[4]);
  if (reps < 1 || reps > BENCH_MAXREP) bench_die("bad REPS");
  double small[BENCH_MAXREP], big[BENCH_MAXREP], ratio[BENCH_MAXREP];
  for (int r = 0; r < reps; r++) {
    small[r] = (double)sample(argv[1], k);
    big[r] = (double)sample(argv[2], k);
    ratio[r] = big[r] / small[r];
  }
  sqlite3 *a = bench_open(argv[1], 0), *b = bench_open(argv[2], 0);
  i64 na = bench_query_i64(a, "SELECT count(*) FROM triggers_data");
  i64 nb = bench_query_i64(b, "SELECT count(*) FROM triggers_data");
  sqlite3_close(a);
  sqlite3_close(b);
  char label[128], x[16], y[16], kk[16], s1[32], s2[32];
  snprintf(label, sizeof label,
           "peak RSS of a tick claiming %s, %s triggers vs %s",
           bench_fmt_count(k, kk, sizeof kk), bench_fmt_count(nb, x, sizeof x),
           bench_fmt_count(na, y, sizeof y));
  snprintf(s1, sizeof s1, "%.1f MiB", bench_median(big, reps) / 1024);
  snprintf(s2, sizeof s2, "%.1f MiB", bench_median(small, reps) / 1024);
  bench_row(label, s1, s2, ratio, reps, "<=", 1.5, "<= 1.5x");
  return 0;
}
