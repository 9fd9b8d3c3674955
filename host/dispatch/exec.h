/*
** exec.h -- the --exec children: one /bin/sh -c CMD per run, in its own
** process group, payload JSON on stdin, stdout and stderr tails kept
** (a success's result, a failure's error), optional timeout (SIGKILL to
** the group), the host's environment or with --clean-env a minimal one.
** Non-blocking pipes serviced from the loop's poll(); children are reaped
** with waitpid(WNOHANG) on SIGCHLD. Children are started by posix_spawn
** on a thread of their own (spawner.h): the loop hands a start over and
** goes on; a child counts (takes its slot, has its deadline) from then.
*/
#ifndef HOST_EXEC_H
#define HOST_EXEC_H

#include <poll.h>
#include <stdint.h>

#include "core/run.h"
#include "dispatch/spawner.h"

typedef struct child child;

typedef struct children {
  child **v;
  int n, cap;
  const char *cmd;
  long long timeout_ms; /* 0 = none */
  double timeout_s;
  char **env; /* --clean-env: the children's environment; NULL = the host's */
  int jobs;   /* --jobs: at most as many starting at once */
  int64_t mean_us; /* the commands' run time, a moving mean; 0: none ended */
  spawner *sp;     /* started on first use; NULL: none (yet) */
  int sp_failed;   /* it could not start: children start on the loop */
  int starting;    /* starts handed to sp and not answered yet */
  int wake_all;    /* what sp was last told (spawner_wake_all) */
  struct {
    pid_t pid;
    int status;
  } * early; /* reaped before their start was answered */
  int nearly, capearly;
} children;

/*
** The --clean-env environment: PATH=/usr/bin:/bin, HOME (the host's, else
** "/"), LANG=C.UTF-8, then each name of pass the host has (replacing a
** default of the same name). NULL-terminated "NAME=value" strings; each
** child adds its TRIGGER_* variables. Freed by children_free.
*/
char **child_env_new(const char *const *pass, int npass);

/* Called once per finished child with the outcome to report: detail is
** the result of a success (its stdout tail, NULL when empty), the error of
** a failure. */
typedef void (*child_done)(void *ctx, host_run *run, const char *status,
                           const char *detail);

/* Start CMD for run (ownership of run passes on success). 0 ok, -1 with
** *err (free()). A start that fails on the spawner's thread is reported
** through children_service's done(), "failed" with its error. */
int child_start(children *cs, host_run *run, char **err);
/* Before the loop sleeps: the starts handed over in this pass begin. */
void children_flush(children *cs);
int children_pollfds(children *cs, struct pollfd *fds, int max);
/* After poll(): fds[0..n) as children_pollfds filled them, with revents;
** children_service reads and writes only the pipes named ready. */
void children_polled(children *cs, const struct pollfd *fds, int n);
int64_t children_deadline(const children *cs); /* INT64_MAX if none */
/* The run of child i, 0 <= i < cs->n (its lease is renewed while it runs). */
host_run *children_run(const children *cs, int i);
/* Pipe I/O, timeouts, reaping; done() for each child that ended (its run
** is freed afterwards). */
void children_service(children *cs, child_done done, void *ctx);
/* Child i's run was cancelled (trigger_run_cancel): SIGTERM to its
** process group now (or as soon as it has started), SIGKILL 5 s later if
** it is still there; it is reported 'cancelled'. */
void children_cancel(children *cs, int i);
/* SIGKILL every child's process group; each is reported failed with why. */
void children_kill(children *cs, const char *why);
void children_free(children *cs);

#endif
