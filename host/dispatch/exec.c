/*
** exec.c -- --exec children (see exec.h). A child is done when it is
** reaped, not when its pipes close: a background grandchild holding
** stdout or stderr open must not keep the run open. After reaping, what
** is left in the two pipes is drained without blocking. Of each pipe only
** the tail is kept: the last ERR_TAIL_MAX bytes of stderr (a failure's
** error), the last OUT_TAIL_MAX of stdout (a success's result, which the
** extension bounds to the same 4 KiB).
*/
#include "dispatch/exec.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/log.h"
#include "core/shell.h"
#include "core/util.h"
#include "db/hostdb.h"
#include "dispatch/spawner.h"
#include "dispatch/usage_file.h"
#include "text/utf8.h"

/* A cancelled command (trigger_run_cancel) gets SIGTERM, and SIGKILL this
** long after if its process group is still there
** (docs/reactive.md#cancel-in-trigger-host). */
#define CANCEL_GRACE_MS 5000
#define ERR_TAIL_MAX 500
#define OUT_TAIL_MAX 4096
#define RUN_VARS 8 /* TRIGGER_RUN_ID .. TRIGGER_USAGE_FILE */

/* The last bytes read from a pipe. */
typedef struct tail {
  char buf[OUT_TAIL_MAX];
  size_t max, len; /* keep at most max (<= sizeof buf) */
  int cut;         /* earlier bytes were dropped */
} tail;

/* A start in flight: the request and what it points to (spawner.h). */
typedef struct launch {
  spawn_req req;
  char *argv[4];
  char **env;
  char *vars[RUN_VARS];
} launch;

struct child {
  host_run *run;
  pid_t pid;       /* 0 while it is being started */
  launch *launch;  /* while it is being started */
  char *start_err; /* it could not start */
  int in_fd, out_fd, err_fd;
  char *input; /* payload + "\n" */
  size_t inlen, inoff;
  tail out, err;          /* of stdout, stderr */
  int64_t deadline;       /* INT64_MAX = no timeout */
  int64_t start_us;       /* mono_us() when its start was asked */
  char *kill_reason;      /* set when we killed it */
  char *usage_path;       /* its $TRIGGER_USAGE_FILE (usage_file.h), or NULL */
  int cancelled;          /* its cancel was asked for: SIGTERM sent (or due) */
  int64_t cancel_kill_at; /* then SIGKILL, if it still runs; 0: sent */
  int reaped, status;
  int ready; /* READY_* bits: what the last poll() said of its pipes */
};

#define READY_IN 1
#define READY_OUT 2
#define READY_ERR 4

/* Our end of a new pipe: its only status flag is the access mode, which
** F_SETFL leaves alone. */
static void set_nonblock(int fd) { fcntl(fd, F_SETFL, O_NONBLOCK); }

/* "NAME=value" into env (n entries), replacing an entry of that name. */
static int env_put(char **env, int n, const char *name, const char *value) {
  size_t len = strlen(name);
  int i = 0;
  while (i < n && !(strncmp(env[i], name, len) == 0 && env[i][len] == '=')) i++;
  if (i < n) free(env[i]);
  env[i] = xprintf("%s=%s", name, value);
  return i < n ? n : n + 1;
}

char **child_env_new(const char *const *pass, int npass) {
  char **env = xmalloc(sizeof(char *) * (size_t)(npass + 4));
  const char *home = getenv("HOME");
  int n = env_put(env, 0, "PATH", "/usr/bin:/bin");
  n = env_put(env, n, "HOME", home && *home ? home : "/");
  n = env_put(env, n, "LANG", "C.UTF-8");
  for (int i = 0; i < npass; i++) {
    const char *v = getenv(pass[i]);
    if (v) n = env_put(env, n, pass[i], v);
  }
  env[n] = NULL;
  return env;
}

/* The TRIGGER_* variables of run r (RUN_VARS "NAME=value" strings);
** usage: its usage file (NULL: none, the variable empty). */
static void run_vars(const host_run *r, const char *usage,
                     char *vars[RUN_VARS]) {
  vars[0] = xprintf("TRIGGER_RUN_ID=%s", r->run_id);
  vars[1] = xprintf("TRIGGER_ID=%s", r->trigger_id ? r->trigger_id : "");
  vars[2] = xprintf("TRIGGER_AGENT_ID=%s", r->agent_id ? r->agent_id : "");
  vars[3] = xprintf("TRIGGER_WAKE_MODE=%s", r->wake_mode ? r->wake_mode : "");
  vars[4] = xprintf("TRIGGER_DB=%s", r->db->path);
  vars[5] = xprintf("TRIGGER_ATTEMPT=%lld", r->attempt);
  vars[6] = xprintf("TRIGGER_SCHEDULED_FOR=%lld", r->scheduled_for);
  vars[7] = xprintf("TRIGGER_USAGE_FILE=%s", usage ? usage : "");
}

/* The start of /bin/sh -c CMD for r, its stdio the pipe ends given. */
static launch *launch_new(const children *cs, const host_run *r,
                          const char *usage, int in_rd, int out_wr,
                          int err_wr) {
  launch *l = xmalloc(sizeof *l);
  memset(l, 0, sizeof *l);
  run_vars(r, usage, l->vars);
  /* --clean-env: only cs->env, else the host's environment (NULL) */
  l->env = shell_env(cs->env, l->vars, RUN_VARS);
  l->argv[0] = "sh";
  l->argv[1] = "-c";
  l->argv[2] = (char *)cs->cmd;
  l->req.argv = l->argv;
  l->req.env = l->env;
  l->req.in_fd = in_rd;
  l->req.out_fd = out_wr;
  l->req.err_fd = err_wr;
  return l;
}

/* After the start: the child's ends of the pipes are closed here. */
static void launch_free(launch *l) {
  close(l->req.in_fd);
  close(l->req.out_fd);
  close(l->req.err_fd);
  free(l->req.err);
  free(l->env);
  for (int i = 0; i < RUN_VARS; i++) free(l->vars[i]);
  free(l);
}

static void push(children *cs, child *c) {
  if (cs->n == cs->cap) {
    cs->cap = cs->cap ? cs->cap * 2 : 8;
    cs->v = xrealloc(cs->v, sizeof(child *) * (size_t)cs->cap);
  }
  cs->v[cs->n++] = c;
}

static void close_pipes(int (*p)[2], int n) {
  for (int i = 0; i < n; i++) {
    close(p[i][0]);
    close(p[i][1]);
  }
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

/* A status reaped before its child's pid was known (a command that ended
** before the spawner's answer was taken). */
static void keep_early(children *cs, pid_t pid, int status) {
  if (cs->nearly == cs->capearly) {
    cs->capearly = cs->capearly ? cs->capearly * 2 : 8;
    cs->early = xrealloc(cs->early, sizeof *cs->early * (size_t)cs->capearly);
  }
  cs->early[cs->nearly].pid = pid;
  cs->early[cs->nearly++].status = status;
}

/* c's start is answered (l: its launch, freed here). */
static void started(children *cs, child *c, launch *l) {
  c->launch = NULL;
  if (l->req.pid < 0) {
    c->start_err =
        xprintf("cannot start command: %s", l->req.err ? l->req.err : "?");
    c->reaped = 1; /* nothing runs: finish_child reports it failed */
    launch_free(l);
    return;
  }
  c->pid = l->req.pid;
  launch_free(l);
  log_debug("started pid %ld for %s", (long)c->pid, c->run->run_id);
  for (int i = 0; i < cs->nearly; i++) {
    if (cs->early[i].pid != c->pid) continue;
    c->reaped = 1;
    c->status = cs->early[i].status;
    cs->early[i] = cs->early[--cs->nearly];
    return;
  }
  if (c->kill_reason && kill(-c->pid, SIGKILL) != 0) kill(c->pid, SIGKILL);
  else if (c->cancelled && kill(-c->pid, SIGTERM) != 0) kill(c->pid, SIGTERM);
}

/* Take the spawner's answers. */
static void take_started(children *cs) {
  spawn_req *r = cs->sp ? spawner_done(cs->sp) : NULL;
  while (r) {
    spawn_req *next = r->next;
    cs->starting--;
    started(cs, r->owner, (launch *)r); /* req is launch's first member */
    r = next;
  }
}

int child_start(children *cs, host_run *run, char **err) {
  int p[3][2]; /* stdin, stdout, stderr */
  for (int i = 0; i < 3; i++) {
    if (pipe_cloexec(p[i]) != 0) {
      *err = xprintf("cannot start command: pipe: %s", strerror(errno));
      close_pipes(p, i);
      return -1;
    }
  }
  char *usage = usage_file_new();
  launch *l = launch_new(cs, run, usage, p[0][0], p[1][1], p[2][1]);
  if (!cs->sp && !cs->sp_failed && !(cs->sp = spawner_new(cs->jobs))) {
    cs->sp_failed = 1;
    log_warn("cannot start the spawner thread: commands start on the loop");
  }
  if (!cs->sp) { /* start it here and now */
    l->req.pid =
        shell_spawn(l->argv, l->env, p[0][0], p[1][1], p[2][1], &l->req.err);
    if (l->req.pid < 0) {
      *err = xprintf("cannot start command: %s", l->req.err);
      if (usage) unlink(usage);
      free(usage);
      launch_free(l);
      for (int i = 0; i < 3; i++) close(p[i][i == 0 ? 1 : 0]);
      return -1;
    }
  }
  child *c = xmalloc(sizeof *c);
  memset(c, 0, sizeof *c);
  c->run = run;
  c->usage_path = usage;
  c->in_fd = p[0][1];
  c->out_fd = p[1][0];
  c->err_fd = p[2][0];
  c->out.max = OUT_TAIL_MAX;
  c->err.max = ERR_TAIL_MAX;
  set_nonblock(c->in_fd);
  set_nonblock(c->out_fd);
  set_nonblock(c->err_fd);
  c->input = xprintf("%s\n", run->payload);
  c->inlen = strlen(c->input);
  c->start_us = mono_us();
  c->deadline =
      cs->timeout_ms ? c->start_us / 1000 + cs->timeout_ms : INT64_MAX;
  feed_stdin(c); /* now: a command reading its stdin need not wait a loop */
  push(cs, c);
  l->req.owner = c;
  if (!cs->sp) {
    started(cs, c, l);
    return 0;
  }
  c->launch = l;
  cs->starting++;
  spawner_submit(cs->sp, &l->req);
  return 0;
}

/* 1 when the loop must hear of every answer at once: it reaped a child
** whose answer it has not taken (keep_early), or killed one being started
** (it is killed when its pid is known). Otherwise the answer of a started
** child waits for the loop's next pass. */
static int answers_wanted(const children *cs) {
  if (cs->nearly) return 1;
  for (int i = 0; i < cs->n; i++) {
    if (cs->v[i]->launch && cs->v[i]->kill_reason) return 1;
  }
  return 0;
}

void children_flush(children *cs) {
  if (!cs->starting) return;
  spawner_kick(cs->sp);
  int want = answers_wanted(cs);
  if (want != cs->wake_all) spawner_wake_all(cs->sp, want);
  cs->wake_all = want;
}

int children_pollfds(children *cs, struct pollfd *fds, int max) {
  int k = 0;
  if (cs->starting && k < max)
    fds[k++] = (struct pollfd){spawner_fd(cs->sp), POLLIN, 0};
  for (int i = 0; i < cs->n; i++) {
    child *c = cs->v[i];
    if (c->in_fd >= 0 && k < max)
      fds[k++] = (struct pollfd){c->in_fd, POLLOUT, 0};
    if (c->out_fd >= 0 && k < max)
      fds[k++] = (struct pollfd){c->out_fd, POLLIN, 0};
    if (c->err_fd >= 0 && k < max)
      fds[k++] = (struct pollfd){c->err_fd, POLLIN, 0};
  }
  return k;
}

/* The bit of fds[*k] when it is c's fd and poll() reported it; advances
** *k past it. Entries are in children_pollfds's order. */
static int ready_bit(const struct pollfd *fds, int n, int *k, int fd, int bit) {
  if (fd < 0 || *k >= n || fds[*k].fd != fd) return 0;
  return fds[(*k)++].revents ? bit : 0;
}

void children_polled(children *cs, const struct pollfd *fds, int n) {
  int k = 0;
  if (cs->starting && k < n && fds[k].fd == spawner_fd(cs->sp)) k++;
  for (int i = 0; i < cs->n; i++) {
    child *c = cs->v[i];
    c->ready |= ready_bit(fds, n, &k, c->in_fd, READY_IN);
    c->ready |= ready_bit(fds, n, &k, c->out_fd, READY_OUT);
    c->ready |= ready_bit(fds, n, &k, c->err_fd, READY_ERR);
  }
}

int64_t children_deadline(const children *cs) {
  int64_t t = INT64_MAX;
  for (int i = 0; i < cs->n; i++) {
    const child *c = cs->v[i];
    if (!c->reaped && !c->kill_reason && c->deadline < t) t = c->deadline;
    if (!c->reaped && c->cancel_kill_at && c->cancel_kill_at < t)
      t = c->cancel_kill_at;
  }
  return t;
}

host_run *children_run(const children *cs, int i) { return cs->v[i]->run; }

/* Keep only the last t->max bytes of everything read. */
static void keep_tail(tail *t, const char *p, size_t n) {
  if (n >= t->max) {
    memcpy(t->buf, p + n - t->max, t->max);
    t->cut = t->cut || n > t->max || t->len > 0;
    t->len = t->max;
    return;
  }
  if (t->len + n > t->max) {
    size_t drop = t->len + n - t->max;
    memmove(t->buf, t->buf + drop, t->len - drop);
    t->len -= drop;
    t->cut = 1;
  }
  memcpy(t->buf + t->len, p, n);
  t->len += n;
}

/* Read what a pipe has (without blocking) into its tail; EOF closes it. */
static void read_pipe(int *fd, tail *t) {
  char buf[4096];
  for (int i = 0; *fd >= 0 && i < 64; i++) {
    ssize_t r = read(*fd, buf, sizeof buf);
    if (r > 0) {
      keep_tail(t, buf, (size_t)r);
    } else if (r < 0 && errno == EINTR) {
      continue;
    } else {
      if (r < 0 && errno == EAGAIN) return;
      close_fd(fd); /* EOF */
    }
  }
}

static void read_output(child *c) {
  read_pipe(&c->out_fd, &c->out);
  read_pipe(&c->err_fd, &c->err);
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
    if (!c && cs->starting) keep_early(cs, pid, status);
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
  log_debug("killed pid %ld (%s): %s", (long)c->pid, c->run->run_id, why);
  if (!c->pid) return; /* being started: killed when its pid is known */
  if (kill(-c->pid, SIGKILL) != 0) kill(c->pid, SIGKILL);
}

void children_cancel(children *cs, int i) {
  child *c = cs->v[i];
  if (c->reaped || c->cancelled) return;
  c->cancelled = 1;
  c->cancel_kill_at = mono_ms() + CANCEL_GRACE_MS;
  log_info("%s: %s: cancel requested; SIGTERM to its command (pid %ld), "
           "SIGKILL in %d s if it goes on",
           c->run->db->path, c->run->run_id, (long)c->pid,
           CANCEL_GRACE_MS / 1000);
  if (!c->pid || c->kill_reason) return; /* being started: then */
  if (kill(-c->pid, SIGTERM) != 0) kill(c->pid, SIGTERM);
}

static void check_timeouts(children *cs) {
  int64_t now = mono_ms();
  for (int i = 0; i < cs->n; i++) {
    child *c = cs->v[i];
    if (!c->reaped && now >= c->deadline) {
      kill_child(c, xprintf("timeout after %g s", cs->timeout_s));
    }
    if (!c->reaped && c->cancelled && c->cancel_kill_at &&
        now >= c->cancel_kill_at && c->pid) {
      c->cancel_kill_at = 0;
      log_info("%s: still running %d s after SIGTERM: SIGKILL", c->run->run_id,
               CANCEL_GRACE_MS / 1000);
      if (kill(-c->pid, SIGKILL) != 0) kill(c->pid, SIGKILL);
    }
  }
}

/* A tail as text, trailing white space trimmed and, when its start was
** cut, from the first whole UTF-8 character, repaired to valid UTF-8:
** malloc'ed, after prefix when it was cut; NULL when nothing is left. */
static char *tail_text(const tail *t, const char *prefix) {
  size_t start = 0, end = t->len;
  while (end > 0 && (t->buf[end - 1] == '\n' || t->buf[end - 1] == '\r' ||
                     t->buf[end - 1] == ' ' || t->buf[end - 1] == '\t'))
    end--;
  if (t->cut) {
    while (start < end && (t->buf[start] & 0xC0) == 0x80)
      start++; /* mid-UTF-8 */
  }
  if (end <= start) return NULL;
  /* Whatever the command wrote: invalid UTF-8 and NULs become U+FFFD (the
  ** extension would repair them too; here the log line is valid and
  ** nothing after a NUL is lost). */
  size_t dots = t->cut ? strlen(prefix) : 0;
  size_t n = utf8_repair(t->buf + start, end - start, NULL);
  char *text = xmalloc(dots + n + 1);
  memcpy(text, prefix, dots);
  utf8_repair(t->buf + start, end - start, text + dots);
  text[dots + n] = 0;
  return text;
}

/* The error text of a failed child: its stderr tail, trimmed, else how it
** ended. Returns malloc'ed text. */
static char *failure_text(child *c) {
  char *text = tail_text(&c->err, "...");
  if (text) return text;
  if (WIFEXITED(c->status))
    return xprintf("exit status %d", WEXITSTATUS(c->status));
  if (WIFSIGNALED(c->status))
    return xprintf("killed by signal %d", WTERMSIG(c->status));
  return xprintf("ended with status %d", c->status);
}

static void free_child(child *c) {
  if (c->usage_path) unlink(c->usage_path); /* not taken: a start failed */
  free(c->usage_path);
  run_free(c->run);
  free(c->kill_reason);
  free(c->start_err);
  free(c->input);
  free(c);
}

/* Count c's run time into the mean: each new one weighs a quarter (the
** mean of times of at least 1 µs stays at least 1: 0 means none yet). */
static void count_run_time(children *cs, const child *c) {
  int64_t t = mono_us() - c->start_us;
  if (t < 1) t = 1;
  cs->mean_us = cs->mean_us ? cs->mean_us + (t - cs->mean_us) / 4 : t;
}

static void finish_child(children *cs, child *c, child_done done, void *ctx) {
  read_output(c); /* what the child wrote before exiting */
  close_fd(&c->in_fd);
  close_fd(&c->out_fd);
  close_fd(&c->err_fd);
  if (c->start_err) {
    log_warn("%s: %s", c->run->run_id, c->start_err);
    done(ctx, c->run, "failed", c->start_err);
    free_child(c);
    return;
  }
  count_run_time(cs, c);
  if (c->usage_path) { /* what it spent, whatever its outcome */
    c->run->usage = usage_file_take(c->usage_path, c->run->run_id,
                                    &c->run->usage_cost, &c->run->has_cost);
    free(c->usage_path);
    c->usage_path = NULL;
  }
  if (c->cancelled && !c->kill_reason) {
    /* stopped as asked: what it wrote (stdout, else stderr or its end) */
    char *text = tail_text(&c->out, "...");
    if (!text) text = failure_text(c);
    log_debug("pid %ld (%s) ended: cancelled: %s", (long)c->pid, c->run->run_id,
              text);
    done(ctx, c->run, "cancelled", text);
    free(text);
    free_child(c);
    return;
  }
  int ok =
      !c->kill_reason && WIFEXITED(c->status) && WEXITSTATUS(c->status) == 0;
  /* A success's result is its stdout tail as written (no "..." when cut);
  ** a failure's error its stderr tail, or why it ended. */
  char *detail = ok               ? tail_text(&c->out, "")
                 : c->kill_reason ? xstrdup(c->kill_reason)
                                  : failure_text(c);
  log_debug("pid %ld (%s) ended: %s%s%s", (long)c->pid, c->run->run_id,
            ok ? "success" : "failed", !ok ? ": " : "", !ok ? detail : "");
  done(ctx, c->run, ok ? "success" : "failed", detail);
  free(detail);
  free_child(c);
}

void children_service(children *cs, child_done done, void *ctx) {
  if (cs->starting) take_started(cs);
  for (int i = 0; i < cs->n; i++) { /* only the pipes poll() named */
    child *c = cs->v[i];
    if (c->ready & READY_IN) feed_stdin(c);
    if (c->ready & READY_OUT) read_pipe(&c->out_fd, &c->out);
    if (c->ready & READY_ERR) read_pipe(&c->err_fd, &c->err);
    c->ready = 0;
  }
  reap(cs);
  check_timeouts(cs);
  int k = 0;
  for (int i = 0; i < cs->n; i++) {
    child *c = cs->v[i];
    if (c->reaped) finish_child(cs, c, done, ctx);
    else cs->v[k++] = c;
  }
  cs->n = k;
}

void children_kill(children *cs, const char *why) {
  for (int i = 0; i < cs->n; i++) kill_child(cs->v[i], xstrdup(why));
}

void children_free(children *cs) {
  spawner_free(cs->sp); /* nothing is starting: the loop waited for all */
  free(cs->early);
  for (char **e = cs->env; e && *e; e++) free(*e);
  free(cs->env);
  free(cs->v);
  memset(cs, 0, sizeof *cs);
}
