/*
** exec.c -- --exec children (see exec.h). A child is done when it is
** reaped, not when its pipes close: a background grandchild holding
** stderr open must not keep the run open. After reaping, what is left in
** the stderr pipe is drained without blocking.
*/
#include "exec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sig.h"
#include "util.h"

#define TAIL_MAX 500

struct child {
  host_run *run;
  pid_t pid;
  int in_fd, err_fd;
  char *input; /* payload + "\n" */
  size_t inlen, inoff;
  char tail[TAIL_MAX]; /* last bytes of stderr */
  size_t tlen;
  int cut;           /* earlier stderr bytes were dropped */
  int64_t deadline;  /* INT64_MAX = no timeout */
  char *kill_reason; /* set when we killed it */
  int reaped, status;
};

static void set_nonblock(int fd) {
  int fl = fcntl(fd, F_GETFL);
  if (fl >= 0) fcntl(fd, F_SETFL, fl | O_NONBLOCK);
}

static void set_env_ll(const char *name, long long v) {
  char buf[32];
  snprintf(buf, sizeof buf, "%lld", v);
  setenv(name, buf, 1);
}

/* In the forked child: never returns. */
static void child_exec(const char *cmd, const host_run *r, int in_rd,
                       int err_wr) {
  setpgid(0, 0);
  sig_child_reset();
  if (dup2(in_rd, 0) < 0 || dup2(err_wr, 2) < 0) _exit(127);
  fcntl(0, F_SETFD, 0);
  fcntl(2, F_SETFD, 0);
  setenv("TRIGGER_RUN_ID", r->run_id, 1);
  setenv("TRIGGER_ID", r->trigger_id ? r->trigger_id : "", 1);
  setenv("TRIGGER_AGENT_ID", r->agent_id ? r->agent_id : "", 1);
  setenv("TRIGGER_WAKE_MODE", r->wake_mode ? r->wake_mode : "", 1);
  setenv("TRIGGER_DB", r->db->path, 1);
  set_env_ll("TRIGGER_ATTEMPT", r->attempt);
  set_env_ll("TRIGGER_SCHEDULED_FOR", r->scheduled_for);
  execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
  _exit(127);
}

static void push(children *cs, child *c) {
  if (cs->n == cs->cap) {
    cs->cap = cs->cap ? cs->cap * 2 : 8;
    cs->v = xrealloc(cs->v, sizeof(child *) * (size_t)cs->cap);
  }
  cs->v[cs->n++] = c;
}

int child_start(children *cs, host_run *run, char **err) {
  int in[2], er[2];
  if (pipes_cloexec(in, er) != 0) {
    *err = xprintf("cannot start command: pipe: %s", strerror(errno));
    return -1;
  }
  fflush(stdout);
  pid_t pid = fork();
  if (pid == 0) child_exec(cs->cmd, run, in[0], er[1]);
  close(in[0]);
  close(er[1]);
  if (pid < 0) {
    *err = xprintf("cannot start command: fork: %s", strerror(errno));
    close(in[1]);
    close(er[0]);
    return -1;
  }
  setpgid(pid, pid); /* also done by the child; whichever runs first */
  child *c = xmalloc(sizeof *c);
  memset(c, 0, sizeof *c);
  c->run = run;
  c->pid = pid;
  c->in_fd = in[1];
  c->err_fd = er[0];
  set_nonblock(c->in_fd);
  set_nonblock(c->err_fd);
  c->input = xprintf("%s\n", run->payload);
  c->inlen = strlen(c->input);
  c->deadline = cs->timeout_ms ? mono_ms() + cs->timeout_ms : INT64_MAX;
  push(cs, c);
  log_info("started pid %ld for %s", (long)pid, run->run_id);
  return 0;
}

int children_pollfds(children *cs, struct pollfd *fds, int max) {
  int k = 0;
  for (int i = 0; i < cs->n; i++) {
    child *c = cs->v[i];
    if (c->in_fd >= 0 && k < max)
      fds[k++] = (struct pollfd){c->in_fd, POLLOUT, 0};
    if (c->err_fd >= 0 && k < max)
      fds[k++] = (struct pollfd){c->err_fd, POLLIN, 0};
  }
  return k;
}

int64_t children_deadline(const children *cs) {
  int64_t t = INT64_MAX;
  for (int i = 0; i < cs->n; i++) {
    const child *c = cs->v[i];
    if (!c->reaped && !c->kill_reason && c->deadline < t) t = c->deadline;
  }
  return t;
}

static void close_fd(int *fd) {
  if (*fd >= 0) close(*fd);
  *fd = -1;
}

static void feed_stdin(child *c) {
  while (c->in_fd >= 0 && c->inoff < c->inlen) {
    ssize_t w = write(c->in_fd, c->input + c->inoff, c->inlen - c->inoff);
    if (w > 0) {
      c->inoff += (size_t)w;
    } else if (w < 0 && errno == EINTR) {
      continue;
    } else {
      if (w < 0 && errno == EAGAIN) return;
      close_fd(&c->in_fd); /* EPIPE: the command does not read its stdin */
    }
  }
  if (c->inoff >= c->inlen) close_fd(&c->in_fd);
}

/* Keep only the last TAIL_MAX bytes of everything read. */
static void keep_tail(child *c, const char *p, size_t n) {
  if (n >= TAIL_MAX) {
    memcpy(c->tail, p + n - TAIL_MAX, TAIL_MAX);
    c->cut = c->cut || n > TAIL_MAX || c->tlen > 0;
    c->tlen = TAIL_MAX;
    return;
  }
  if (c->tlen + n > TAIL_MAX) {
    size_t drop = c->tlen + n - TAIL_MAX;
    memmove(c->tail, c->tail + drop, c->tlen - drop);
    c->tlen -= drop;
    c->cut = 1;
  }
  memcpy(c->tail + c->tlen, p, n);
  c->tlen += n;
}

static void read_stderr(child *c) {
  char buf[4096];
  for (int i = 0; c->err_fd >= 0 && i < 64; i++) {
    ssize_t r = read(c->err_fd, buf, sizeof buf);
    if (r > 0) {
      keep_tail(c, buf, (size_t)r);
    } else if (r < 0 && errno == EINTR) {
      continue;
    } else {
      if (r < 0 && errno == EAGAIN) return;
      close_fd(&c->err_fd); /* EOF */
    }
  }
}

static child *find_pid(children *cs, pid_t pid) {
  for (int i = 0; i < cs->n; i++) {
    if (cs->v[i]->pid == pid) return cs->v[i];
  }
  return NULL;
}

static void reap(children *cs) {
  int status;
  pid_t pid;
  while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
    child *c = find_pid(cs, pid);
    if (!c) continue;
    c->reaped = 1;
    c->status = status;
  }
}

static void kill_child(child *c, char *why) {
  if (c->reaped || c->kill_reason) {
    free(why);
    return;
  }
  c->kill_reason = why;
  if (kill(-c->pid, SIGKILL) != 0) kill(c->pid, SIGKILL);
  log_info("killed pid %ld (%s): %s", (long)c->pid, c->run->run_id, why);
}

static void check_timeouts(children *cs) {
  int64_t now = mono_ms();
  for (int i = 0; i < cs->n; i++) {
    child *c = cs->v[i];
    if (!c->reaped && now >= c->deadline) {
      kill_child(c, xprintf("timeout after %g s", cs->timeout_s));
    }
  }
}

/* The error text of a failed child: its stderr tail, trimmed, else how it
** ended. Returns malloc'ed text. */
static char *failure_text(child *c) {
  size_t start = 0, end = c->tlen;
  while (end > 0 && (c->tail[end - 1] == '\n' || c->tail[end - 1] == '\r' ||
                     c->tail[end - 1] == ' ' || c->tail[end - 1] == '\t'))
    end--;
  if (c->cut) {
    while (start < end && (c->tail[start] & 0xC0) == 0x80)
      start++; /* mid-UTF-8 */
  }
  if (end > start) {
    return xprintf("%s%.*s", c->cut ? "..." : "", (int)(end - start),
                   c->tail + start);
  }
  if (WIFEXITED(c->status))
    return xprintf("exit status %d", WEXITSTATUS(c->status));
  if (WIFSIGNALED(c->status))
    return xprintf("killed by signal %d", WTERMSIG(c->status));
  return xprintf("ended with status %d", c->status);
}

static void finish_child(child *c, child_done done, void *ctx) {
  read_stderr(c); /* what the child wrote before exiting */
  close_fd(&c->in_fd);
  close_fd(&c->err_fd);
  int ok =
      !c->kill_reason && WIFEXITED(c->status) && WEXITSTATUS(c->status) == 0;
  char *error = ok               ? NULL
                : c->kill_reason ? xstrdup(c->kill_reason)
                                 : failure_text(c);
  log_info("pid %ld (%s) ended: %s%s%s", (long)c->pid, c->run->run_id,
           ok ? "success" : "failed", error ? ": " : "", error ? error : "");
  done(ctx, c->run, ok ? "success" : "failed", error);
  free(error);
  run_free(c->run);
  free(c->kill_reason);
  free(c->input);
  free(c);
}

void children_service(children *cs, child_done done, void *ctx) {
  for (int i = 0; i < cs->n; i++) {
    feed_stdin(cs->v[i]);
    read_stderr(cs->v[i]);
  }
  reap(cs);
  check_timeouts(cs);
  int k = 0;
  for (int i = 0; i < cs->n; i++) {
    child *c = cs->v[i];
    if (c->reaped) finish_child(c, done, ctx);
    else cs->v[k++] = c;
  }
  cs->n = k;
}

void children_kill(children *cs, const char *why) {
  for (int i = 0; i < cs->n; i++) kill_child(cs->v[i], xstrdup(why));
}

void children_free(children *cs) {
  free(cs->v);
  memset(cs, 0, sizeof *cs);
}
