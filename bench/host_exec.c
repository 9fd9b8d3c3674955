/*
** host_exec.c -- trigger-host in --exec mode against a plain fork/exec
** loop of the same command.
**
**   host_exec WORKDIR N JOBS REPS
**
** One template database with N interval triggers, all due once. Per
** repetition, back to back:
**   host   -- `trigger-host tick COPY --exec 'cat >/dev/null' --jobs JOBS`:
**             per run /bin/sh -c CMD in its own process group, the payload
**             on its stdin, stdout and stderr tails kept, the outcome
**             reported; timed from fork to exit. Checked: N runs 'success'.
**   plain  -- this program runs the same command N times, JOBS at a time:
**             fork, the payload (the same size) on a pipe to its stdin,
**             execl("/bin/sh", "sh", "-c", CMD), waitpid. No database.
** Row: host commands/s / plain commands/s, target >= 0.95x (issue 35; a command's
** fork and exec, not the host, should be the cost).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "hostbench.h"

#define CMD "cat >/dev/null"

/* A payload of the size the host passes (a run's payload object). */
static const char payload[] =
    "{\"text\":\"job 000123: bench                                               "
    "\",\"source\":\"trigger\",\"triggerId\":\"h000123\",\"triggerRunId\":"
    "\"h000123@1767225600000#1\",\"wakeMode\":\"next_autonomy_cycle\","
    "\"displayName\":\"job 000123\",\"scope\":\"\",\"scheduledFor\":"
    "1767225600000}\n";

static void start_plain(void) {
  int in[2];
  if (pipe(in) != 0) bench_die("pipe");
  pid_t pid = fork();
  if (pid < 0) bench_die("fork");
  if (pid == 0) {
    dup2(in[0], 0);
    close(in[0]);
    close(in[1]);
    execl("/bin/sh", "sh", "-c", CMD, (char *)NULL);
    _exit(127);
  }
  close(in[0]);
  if (write(in[1], payload, sizeof payload - 1) < 0) bench_die("write");
  close(in[1]);
}

static void wait_plain(void) {
  int status;
  if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    bench_die("plain: a command failed");
}

static double side_plain(int n, int jobs) {
  double t0 = bench_now();
  int running = 0;
  for (int i = 0; i < n; i++) {
    if (running == jobs) {
      wait_plain();
      running--;
    }
    start_plain();
    running++;
  }
  while (running--) wait_plain();
  return n / (bench_now() - t0);
}

static double side_host(const char *tmpl, const char *work, const char *err,
                        int n, const char *jobs) {
  bench_copy_file(tmpl, work);
  const char *args[] = {"tick", work, "--exec", CMD, "--jobs", jobs, NULL};
  char line[4096];
  FILE *out;
  double t0 = bench_now();
  pid_t pid = hb_start_host(args, &out, err);
  while (fgets(line, sizeof line, out) != NULL) {
  } /* exec mode prints nothing: read to the end */
  fclose(out);
  hb_wait_ok(pid, "host exec", err);
  double t = bench_now() - t0;
  i64 ok = hb_count_status(work, "success");
  if (ok != n)
    bench_die("host exec: %lld success, expected %d", (long long)ok, n);
  return n / t;
}

int main(int argc, char **argv) {
  if (argc != 5) bench_die("usage: host_exec WORKDIR N JOBS REPS");
  const char *dir = argv[1];
  int n = atoi(argv[2]), jobs = atoi(argv[3]), reps = atoi(argv[4]);
  if (n < 1 || jobs < 1 || reps < 1 || reps > BENCH_MAXREP)
    bench_die("bad N, JOBS or REPS");
  hb_files f;
  hb_files_in(&f, dir, "host_exec");
  const char *tmpl = f.tmpl, *work = f.work, *err = f.err;
  hb_build_all_due(tmpl, n);
  double host[BENCH_MAXREP], plain[BENCH_MAXREP], ratio[BENCH_MAXREP];
  for (int r = 0; r < reps; r++) {
    host[r] = side_host(tmpl, work, err, n, argv[3]);
    plain[r] = side_plain(n, jobs);
    ratio[r] = host[r] / plain[r];
  }
  char a[32], b[32], row[256];
  snprintf(row, sizeof row,
           "trigger-host tick --exec '%s' --jobs %d, %d due: commands/s vs a "
           "plain fork/exec loop",
           CMD, jobs, n);
  bench_row(row, bench_fmt_rate(bench_median(host, reps), a, sizeof a),
            bench_fmt_rate(bench_median(plain, reps), b, sizeof b), ratio, reps,
            ">=", 0.95, ">= 0.95x");
  bench_rm_db(tmpl);
  bench_rm_db(work);
  return 0;
}
