/*
** hostbench.c -- the helpers of hostbench.h. No benchmark logic here.
*/
#include "hostbench.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

double hb_wall_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec * 1e-6;
}

void hb_build_due(const char *path, int n, i64 first_due, i64 step_us,
                  i64 interval_ms) {
  bench_rm_db(path);
  sqlite3 *db = bench_open(path, 1);
  bench_exec(db, "SELECT trigger_install()");
  sqlite3_stmt *st = bench_prepare(
      db, "WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c"
          " WHERE i < ?1 - 1)"
          " INSERT INTO triggers(trigger_id, instructions, trigger_type,"
          " interval_ms, created_at)"
          " SELECT printf('h%06d', i), printf('job %06d: %-52s', i, 'bench'),"
          " 'interval', ?2, ?3 + (i * ?4) / 1000 - ?2 FROM c");
  sqlite3_bind_int(st, 1, n);
  sqlite3_bind_int64(st, 2, interval_ms);
  sqlite3_bind_int64(st, 3, first_due);
  sqlite3_bind_int64(st, 4, step_us);
  bench_exec(db, "BEGIN");
  if (sqlite3_step(st) != SQLITE_DONE)
    bench_die("insert triggers: %s", sqlite3_errmsg(db));
  bench_exec(db, "COMMIT");
  sqlite3_finalize(st);
  bench_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)");
  sqlite3_close(db);
}

void hb_build_all_due(const char *path, int n) {
  hb_build_due(path, n, (i64)hb_wall_ms() - 60000, 60000000 / n, 86400000);
}

void hb_files_in(hb_files *f, const char *dir, const char *name) {
  /* cppcheck-suppress ctuuninitvar ; *f is what this fills */
  snprintf(f->tmpl, sizeof f->tmpl, "%s/%s_tmpl.db", dir, name);
  snprintf(f->work, sizeof f->work, "%s/%s.db", dir, name);
  snprintf(f->err, sizeof f->err, "%s/%s.err", dir, name);
}

static const char *host_path(void) {
  const char *h = getenv("TRIGGER_HOST");
  return h && *h ? h : "build/trigger-host";
}

pid_t hb_start_host(const char *const *args, FILE **out, const char *errpath) {
  int fds[2];
  if (pipe(fds) != 0) bench_die("pipe");
  const char *ext = getenv("TRIGGERS_EXT");
  pid_t pid = fork();
  if (pid < 0) bench_die("fork");
  if (pid == 0) {
    int n = 0;
    while (args[n]) n++;
    const char **argv = calloc((size_t)n + 4, sizeof *argv);
    if (!argv) _exit(127);
    argv[0] = host_path();
    for (int i = 0; i < n; i++) argv[i + 1] = args[i];
    argv[n + 1] = "--extension";
    argv[n + 2] = ext ? ext : "build/triggers";
    int err = open(errpath, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fds[1], 1);
    if (err >= 0) dup2(err, 2);
    close(fds[0]);
    close(fds[1]);
    execv(argv[0], (char *const *)argv);
    _exit(127);
  }
  close(fds[1]);
  *out = fdopen(fds[0], "r");
  if (!*out) bench_die("fdopen");
  return pid;
}

void hb_wait_ok(pid_t pid, const char *what, const char *errpath) {
  int status = 0;
  if (waitpid(pid, &status, 0) != pid) bench_die("%s: waitpid", what);
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return;
  char line[512] = "", next[512];
  FILE *f = fopen(errpath, "r");
  if (f) {
    while (fgets(next, sizeof next, f)) memcpy(line, next, sizeof line);
    fclose(f); /* line: the last line */
  }
  bench_die("%s: trigger-host exited with status %d: %s", what,
            WIFEXITED(status) ? WEXITSTATUS(status) : -1, line);
}

i64 hb_count_status(const char *path, const char *status) {
  sqlite3 *db = bench_open(path, 1);
  sqlite3_stmt *st =
      bench_prepare(db, "SELECT count(*) FROM trigger_runs WHERE status = ?1");
  sqlite3_bind_text(st, 1, status, -1, SQLITE_STATIC);
  i64 n = sqlite3_step(st) == SQLITE_ROW ? sqlite3_column_int64(st, 0) : -1;
  sqlite3_finalize(st);
  sqlite3_close(db);
  return n;
}
