/*
** host_latency.c -- trigger-host in run mode: how late a due run reaches
** its consumer, at a steady rate, against a minimal loop.
**
**   host_latency WORKDIR RATE SECS REPS
**
** Per repetition and side, a fresh database of RATE interval triggers of
** one second, trigger i first due at start + 0.7 s + i / RATE s: RATE
** fires per second, evenly spread. Each side's stdout (one JSON line per
** run) is read here; a run's latency is the wall-clock instant its line
** is read minus its scheduled_for. Runs due in the first SECS seconds are
** counted (RATE x SECS of them), then the side is stopped (SIGTERM).
**   host    -- `trigger-host run DB` (print mode, defaults: it sleeps until
**              trigger_next_wakeup, reports in batches).
**   minimal -- a forked child of this program: loop { ms =
**              trigger_next_wakeup(); poll(ms); trigger_run_due(); print
**              each element as a line; trigger_run_finish each in one
**              transaction }, the least a host can do.
** Rows: p50 and p99 of the host's latency against the minimal loop's
** (ratio host/minimal per repetition); target: the host's p99 <= 5 ms
** (median over repetitions), the p50 row is information.
*/
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hostbench.h"

#define LEAD_MS 700 /* the side has started and idles before the first fire */

/* The minimal loop, in a child: never returns. */
static void minimal_loop(const char *path, int out_fd) {
  FILE *out = fdopen(out_fd, "w");
  sqlite3 *db = bench_open(path, 1);
  sqlite3_stmt *wake =
      bench_prepare(db, "SELECT coalesce(trigger_next_wakeup(), -1)");
  sqlite3_stmt *claim =
      bench_prepare(db, "SELECT value, json_extract(value, '$.run_id')"
                        " FROM json_each(trigger_run_due())");
  sqlite3_stmt *fin =
      bench_prepare(db, "SELECT trigger_run_finish(?1, 'success')");
  char **ids = NULL;
  int cap = 0;
  for (;;) {
    if (sqlite3_step(wake) != SQLITE_ROW) _exit(3);
    long long ms = sqlite3_column_int64(wake, 0);
    sqlite3_reset(wake);
    if (ms < 0 || ms > 1000) ms = 1000;
    if (ms > 0) poll(NULL, 0, (int)ms);
    int n = 0;
    while (sqlite3_step(claim) == SQLITE_ROW) {
      fprintf(out, "%s\n", (const char *)sqlite3_column_text(claim, 0));
      fflush(out);
      if (n == cap) {
        cap = cap ? 2 * cap : 64;
        ids = realloc(ids, sizeof *ids * (size_t)cap);
        if (!ids) _exit(3);
      }
      ids[n++] = strdup((const char *)sqlite3_column_text(claim, 1));
    }
    sqlite3_reset(claim);
    if (!n) continue;
    bench_exec(db, "BEGIN IMMEDIATE");
    for (int i = 0; i < n; i++) {
      sqlite3_bind_text(fin, 1, ids[i], -1, SQLITE_STATIC);
      if (sqlite3_step(fin) != SQLITE_ROW) _exit(3);
      sqlite3_reset(fin);
      free(ids[i]);
    }
    bench_exec(db, "COMMIT");
  }
}

static pid_t start_minimal(const char *path, FILE **out) {
  int fds[2];
  if (pipe(fds) != 0) bench_die("pipe");
  pid_t pid = fork();
  if (pid < 0) bench_die("fork");
  if (pid == 0) {
    close(fds[0]);
    minimal_loop(path, fds[1]);
  }
  close(fds[1]);
  *out = fdopen(fds[0], "r");
  if (!*out) bench_die("fdopen");
  return pid;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Read lines until `want` runs due before end_ms were seen; latencies
** (ms) of those into lat. Returns how many. */
static int collect(FILE *out, double *lat, int want, double end_ms) {
  char line[8192];
  int n = 0;
  while (n < want && fgets(line, sizeof line, out)) {
    double at = hb_wall_ms();
    const char *p = strstr(line, "\"scheduled_for\":");
    if (!p) continue;
    double due = strtod(p + strlen("\"scheduled_for\":"), NULL);
    if (due < end_ms) lat[n++] = at - due;
  }
  return n;
}

/* One side; its p50 and p99 (ms). */
static void side(const char *path, const char *err, int rate, int secs,
                 int host, double *p50, double *p99) {
  double start = hb_wall_ms() + LEAD_MS;
  hb_build_due(path, rate, (i64)start, 1000000 / rate, 1000);
  int want = rate * secs;
  double *lat = malloc(sizeof *lat * (size_t)want);
  FILE *out;
  const char *args[] = {"run", path, NULL};
  pid_t pid = host ? hb_start_host(args, &out, err) : start_minimal(path, &out);
  int n = collect(out, lat, want, start + 1000.0 * secs);
  kill(pid, SIGTERM);
  fclose(out);
  int status;
  waitpid(pid, &status, 0);
  if (n < want)
    bench_die("%s: %d of %d runs seen", host ? "host" : "minimal", n, want);
  qsort(lat, (size_t)n, sizeof *lat, cmp_double);
  *p50 = lat[n / 2];
  *p99 = lat[(n * 99) / 100];
  free(lat);
}

int main(int argc, char **argv) {
  if (argc != 5) bench_die("usage: host_latency WORKDIR RATE SECS REPS");
  const char *dir = argv[1];
  int rate = atoi(argv[2]), secs = atoi(argv[3]), reps = atoi(argv[4]);
  if (rate < 1 || rate > 1000 || secs < 1 || reps < 1 || reps > BENCH_MAXREP)
    bench_die("bad RATE, SECS or REPS");
  char path[4096], err[4096];
  snprintf(path, sizeof path, "%s/host_latency.db", dir);
  snprintf(err, sizeof err, "%s/host_latency.err", dir);
  double h50[BENCH_MAXREP], h99[BENCH_MAXREP], m50[BENCH_MAXREP],
      m99[BENCH_MAXREP], r50[BENCH_MAXREP], r99[BENCH_MAXREP];
  for (int r = 0; r < reps; r++) {
    side(path, err, rate, secs, 1, &h50[r], &h99[r]);
    side(path, err, rate, secs, 0, &m50[r], &m99[r]);
    r50[r] = h50[r] / m50[r];
    r99[r] = h99[r] / m99[r];
  }
  char a[48], b[48], row[256];
  double p99 = bench_median(h99, reps);
  snprintf(row, sizeof row,
           "trigger-host run, %d fires/s: due-to-dispatch p50 vs a minimal "
           "trigger_next_wakeup loop",
           rate);
  snprintf(a, sizeof a, "%.2f ms", bench_median(h50, reps));
  snprintf(b, sizeof b, "%.2f ms", bench_median(m50, reps));
  bench_row(row, a, b, r50, reps, NULL, 0, "(info)");
  snprintf(row, sizeof row,
           "trigger-host run, %d fires/s: due-to-dispatch p99 (target: "
           "host p99 <= 5 ms)",
           rate);
  snprintf(a, sizeof a, "%.2f ms [%.2f-%.2f]", p99, bench_min(h99, reps),
           bench_max(h99, reps));
  snprintf(b, sizeof b, "%.2f ms", bench_median(m99, reps));
  char x[32], y[32], z[32];
  printf("ROW|%s|%s|%s|%s [%s-%s]|host p99 <= 5 ms|%s\n", row, a, b,
         bench_fmt_ratio(bench_median(r99, reps), x, sizeof x),
         bench_fmt_ratio(bench_min(r99, reps), y, sizeof y),
         bench_fmt_ratio(bench_max(r99, reps), z, sizeof z),
         p99 <= 5.0 ? "PASS" : "**FAIL**");
  bench_note("run-mode latency: %d runs per side and repetition (%d fires/s "
             "for %d s); a run's latency = the instant its line is read "
             "minus its scheduled_for",
             rate * secs, rate, secs);
  bench_rm_db(path);
  return 0;
}
