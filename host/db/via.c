/*
** via.c -- one statement through an outside command (see via.h). The
** host waits for it: both pipes are read in one poll() loop until they
** close, so a large answer never blocks the child, and the child is
** reaped by pid here (never left for exec.c's reaping of --exec
** children). Past VIA_TIMEOUT_MS the child's process group is killed.
*/
#include "db/via.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/shell.h"
#include "core/util.h"

#define ERR_KEEP 1000 /* bytes of stderr kept for the message */

typedef struct buf {
  char *p;
  size_t n, cap, max;
} buf;

/* Append what fd has; 1 while open, 0 at EOF or error. */
static int drain(int fd, buf *b) {
  char tmp[8192];
  ssize_t r = read(fd, tmp, sizeof tmp);
  if (r < 0 && (errno == EINTR || errno == EAGAIN)) return 1;
  if (r <= 0) return 0;
  size_t keep = (size_t)r;
  if (b->n + keep > b->max) keep = b->max - b->n;
  if (b->n + keep + 1 > b->cap) {
    b->cap = (b->n + keep + 1) * 2;
    b->p = xrealloc(b->p, b->cap);
  }
  memcpy(b->p + b->n, tmp, keep);
  b->n += keep;
  b->p[b->n] = 0;
  return 1;
}

/* sh -c 'CMD "$1"' trigger-host SQL, stdin /dev/null, TRIGGER_DB set:
** the pid, or -1 and *err. */
static pid_t via_start(const char *cmd, const char *db, const char *sql,
                       int out_wr, int err_wr, char **err) {
  char *script = xprintf("%s \"$1\"", cmd);
  char *var = xprintf("TRIGGER_DB=%s", db);
  char **env = shell_env(NULL, &var, 1);
  char *argv[] = {"sh", "-c", script, "trigger-host", (char *)sql, NULL};
  pid_t pid = shell_spawn(argv, env, -1, out_wr, err_wr, err);
  free(env);
  free(var);
  free(script);
  return pid;
}

/* Read both pipes until they close or the deadline passes (then kill). */
static int collect(pid_t pid, int out_fd, int err_fd, buf *out, buf *err) {
  int64_t deadline = mono_ms() + VIA_TIMEOUT_MS;
  int open_out = 1, open_err = 1, timed_out = 0;
  while (open_out || open_err) {
    struct pollfd fds[2] = {{open_out ? out_fd : -1, POLLIN, 0},
                            {open_err ? err_fd : -1, POLLIN, 0}};
    int64_t left = deadline - mono_ms();
    if (left <= 0) {
      timed_out = 1;
      if (kill(-pid, SIGKILL) != 0) kill(pid, SIGKILL);
      break;
    }
    if (poll(fds, 2, (int)left) < 0 && errno != EINTR) break;
    if (fds[0].revents) open_out = drain(out_fd, out);
    if (fds[1].revents) open_err = drain(err_fd, err);
  }
  return timed_out;
}

static char *first_line(const buf *b) {
  const char *s = b->p ? b->p : "";
  while (*s == '\n' || *s == '\r' || *s == ' ') s++;
  size_t n = strcspn(s, "\r\n");
  return n ? xprintf(": %.*s", (int)n, s) : xstrdup("");
}

static char *failure(const char *sql, int status, int timed_out,
                     const buf *err) {
  char *line = first_line(err);
  char *why;
  if (timed_out) why = xprintf("timed out after %d s", VIA_TIMEOUT_MS / 1000);
  else if (WIFEXITED(status))
    why = xprintf("exit status %d", WEXITSTATUS(status));
  else if (WIFSIGNALED(status))
    why = xprintf("killed by signal %d", WTERMSIG(status));
  else why = xprintf("status %d", status);
  char *msg = xprintf("via: %.60s%s: %s%s", sql, strlen(sql) > 60 ? "..." : "",
                      why, line);
  free(line);
  free(why);
  return msg;
}

int via_run(const char *cmd, const char *db, const char *sql, char **out,
            char **err) {
  int po[2], pe[2];
  *out = NULL;
  if (pipes_cloexec(po, pe) != 0) {
    *err = xprintf("via: pipe: %s", strerror(errno));
    return -1;
  }
  char *why = NULL;
  pid_t pid = via_start(cmd, db, sql, po[1], pe[1], &why);
  close(po[1]);
  close(pe[1]);
  if (pid < 0) {
    *err = xprintf("via: %s", why);
    free(why);
    close(po[0]);
    close(pe[0]);
    return -1;
  }
  buf o = {NULL, 0, 0, VIA_OUT_MAX}, e = {NULL, 0, 0, ERR_KEEP};
  int timed_out = collect(pid, po[0], pe[0], &o, &e);
  close(po[0]);
  close(pe[0]);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  int ok = !timed_out && WIFEXITED(status) && WEXITSTATUS(status) == 0;
  if (ok && o.n >= VIA_OUT_MAX) {
    *err = xprintf("via: answer larger than %d bytes", VIA_OUT_MAX);
    ok = 0;
  } else if (!ok) {
    *err = failure(sql, status, timed_out, &e);
  }
  if (ok) {
    while (o.n > 0 && (o.p[o.n - 1] == '\n' || o.p[o.n - 1] == '\r'))
      o.p[--o.n] = 0;
    *out = o.p ? o.p : xstrdup("");
  } else {
    free(o.p);
  }
  free(e.p);
  return ok ? 0 : -1;
}
