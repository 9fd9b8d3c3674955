/*
** dispatch.c -- print mode and the --exec queue (see dispatch.h).
** Print mode reports 'success' only after the line is flushed; if stdout
** is gone (EPIPE) the run was delivered to nobody, so it is released as
** 'deferred' and the loop stops claiming.
*/
#include "dispatch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

void disp_init(dispatcher *d, const host_opts *o, child_done done, void *ctx) {
  memset(d, 0, sizeof *d);
  d->o = o;
  d->done = done;
  d->ctx = ctx;
  d->kids.cmd = o->exec_cmd;
  d->kids.timeout_ms = o->timeout_ms;
  d->kids.timeout_s = o->timeout_s;
  if (o->clean_env) d->kids.env = child_env_new(o->env_pass, o->nenv_pass);
}

void disp_free(dispatcher *d) {
  for (int i = 0; i < d->nqueue; i++) run_free(d->queue[i]);
  free(d->queue);
  children_free(&d->kids);
}

static void report(dispatcher *d, host_run *run, const char *status,
                   const char *error) {
  d->done(d->ctx, run, status, error);
  run_free(run);
}

static void print_run(dispatcher *d, host_run *run) {
  if (!d->stdout_lost) {
    errno = 0;
    if (fputs(run->element, stdout) >= 0 && fputc('\n', stdout) != EOF &&
        fflush(stdout) == 0) {
      report(d, run, "success", NULL);
      return;
    }
    log_warn("stdout: %s; releasing runs and stopping",
             errno ? strerror(errno) : "write error");
    d->stdout_lost = 1;
  }
  report(d, run, "deferred", NULL);
}

static void start_run(dispatcher *d, host_run *run) {
  char *err = NULL;
  if (child_start(&d->kids, run, &err) == 0) return;
  log_warn("%s: %s", run->run_id, err);
  report(d, run, "failed", err);
  free(err);
}

void disp_submit(dispatcher *d, host_run *run) {
  if (!d->o->exec_cmd) {
    print_run(d, run);
    return;
  }
  if (d->nqueue == 0 && d->kids.n < d->o->jobs) {
    start_run(d, run);
    return;
  }
  if (d->nqueue == d->capqueue) {
    d->capqueue = d->capqueue ? d->capqueue * 2 : 16;
    d->queue = xrealloc(d->queue, sizeof(host_run *) * (size_t)d->capqueue);
  }
  d->queue[d->nqueue++] = run;
}

long long disp_slots(const dispatcher *d) {
  if (!d->o->exec_cmd) return 1LL << 40;
  long long free_slots = (long long)d->o->jobs - d->kids.n - d->nqueue;
  return free_slots > 0 ? free_slots : 0;
}

int disp_idle(const dispatcher *d) { return d->kids.n == 0 && d->nqueue == 0; }

int disp_pollfds(dispatcher *d, struct pollfd *fds, int max) {
  return children_pollfds(&d->kids, fds, max);
}

int64_t disp_deadline(const dispatcher *d) {
  return children_deadline(&d->kids);
}

void disp_service(dispatcher *d) {
  if (d->kids.n) children_service(&d->kids, d->done, d->ctx);
  int started = 0;
  while (started < d->nqueue && d->kids.n < d->o->jobs)
    start_run(d, d->queue[started++]);
  if (started) {
    memmove(d->queue, d->queue + started,
            sizeof(host_run *) * (size_t)(d->nqueue - started));
    d->nqueue -= started;
  }
}

void disp_release(dispatcher *d) {
  for (int i = 0; i < d->nqueue; i++) report(d, d->queue[i], "deferred", NULL);
  d->nqueue = 0;
}

void disp_kill(dispatcher *d, const char *why) { children_kill(&d->kids, why); }
