/*
** dispatch.c -- print mode and --exec starts (see dispatch.h).
** Print mode reports 'success' only after the line is flushed; if stdout
** is gone (EPIPE) the run was delivered to nobody, so it is released as
** 'deferred' and the loop stops claiming. A run whose lease is nearly over
** is neither printed nor started: it is released as 'deferred' too.
** With --exec a run that finds no free slot waits in d->ahead.
*/
#include "dispatch/dispatch.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/util.h"
#include "db/hostdb.h"
#include "dispatch/lease.h"
#include "dispatch/printtx.h"

void disp_init(dispatcher *d, const host_opts *o, child_done done, void *ctx) {
  memset(d, 0, sizeof *d);
  d->o = o;
  d->done = done;
  d->ctx = ctx;
  d->kids.cmd = o->exec_cmd;
  d->kids.jobs = o->jobs;
  d->kids.timeout_ms = o->timeout_ms;
  d->kids.timeout_s = o->timeout_s;
  if (o->clean_env) d->kids.env = child_env_new(o->env_pass, o->nenv_pass);
}

void disp_free(dispatcher *d) {
  children_free(&d->kids);
  free(d->ahead); /* empty: the loop ends when nothing waits */
}

static void report(dispatcher *d, host_run *run, const char *status,
                   const char *detail) {
  d->done(d->ctx, run, status, detail);
  run_free(run);
}

/* 1 when run's lease leaves time to start it; else it is released. */
static int still_leased(dispatcher *d, host_run *run) {
  if (lease_startable(run, mono_ms())) return 1;
  log_warn("%s: %s: its lease is nearly over before it could start; "
           "released (deferred)",
           run->db->path, run->run_id);
  report(d, run, "deferred", NULL);
  return 0;
}

static void print_run(dispatcher *d, host_run *run) {
  if (!still_leased(d, run)) return;
  if (!d->stdout_lost) {
    errno = 0;
    if (fputs(run->element, stdout) >= 0 && fputc('\n', stdout) != EOF &&
        fflush(stdout) == 0) {
      report(d, run, "success", NULL);
      return;
    }
    char *why = printtx_stdout_lost(errno);
    log_warn("%s", why);
    free(why);
    d->stdout_lost = 1;
  }
  report(d, run, "deferred", NULL);
}

static void start_run(dispatcher *d, host_run *run) {
  if (!still_leased(d, run)) return;
  char *err = NULL;
  if (child_start(&d->kids, run, &err) == 0) return;
  log_warn("%s: %s", run->run_id, err);
  report(d, run, "failed", err);
  free(err);
}

static int free_slot(const dispatcher *d) { return d->kids.n < d->o->jobs; }

void disp_submit(dispatcher *d, host_run *run) {
  if (!d->o->exec_cmd) {
    print_run(d, run);
    return;
  }
  if (free_slot(d) && d->nahead == 0) {
    start_run(d, run);
    return;
  }
  if (d->nahead == d->capahead) {
    d->capahead = d->capahead ? 2 * d->capahead : 8;
    d->ahead = xrealloc(d->ahead, sizeof(host_run *) * (size_t)d->capahead);
  }
  d->ahead[d->nahead++] = run;
}

/* Drop the first n runs of d->ahead. */
static void ahead_shift(dispatcher *d, int n) {
  d->nahead -= n;
  memmove(d->ahead, d->ahead + n, sizeof(host_run *) * (size_t)d->nahead);
}

/* The waiting runs into the free slots, in claim order; a waiting run
** whose lease is nearly over is released (start_run, still_leased). */
static void start_ahead(dispatcher *d) {
  int k = 0;
  while (k < d->nahead && free_slot(d)) start_run(d, d->ahead[k++]);
  ahead_shift(d, k);
  int64_t now = mono_ms();
  int kept = 0;
  for (int i = 0; i < d->nahead; i++) {
    host_run *r = d->ahead[i];
    if (lease_startable(r, now)) d->ahead[kept++] = r;
    else still_leased(d, r); /* reports it deferred */
  }
  d->nahead = kept;
}

void disp_release(dispatcher *d) {
  for (int i = 0; i < d->nahead; i++) {
    log_debug("%s: %s: not started, the host stops; released (deferred)",
              d->ahead[i]->db->path, d->ahead[i]->run_id);
    report(d, d->ahead[i], "deferred", NULL);
  }
  d->nahead = 0;
}

/* Runs to claim ahead of the free slots (see dispatch.h). */
static long long prefetch(const dispatcher *d) {
  int64_t mean = d->kids.mean_us;
  if (d->o->prefetch == 0 || mean <= 0) return 0; /* none ended yet */
  int64_t wait = d->o->lease_ms * 1000 / 8;
  if (wait > PREFETCH_WAIT_US) wait = PREFETCH_WAIT_US;
  long long n = (long long)(wait * d->o->jobs / mean);
  return n < d->o->prefetch ? n : d->o->prefetch;
}

long long disp_slots(const dispatcher *d) {
  if (!d->o->exec_cmd) return 1LL << 40;
  if (d->nahead) return 0; /* the runs claimed ahead start first */
  long long free_slots = (long long)d->o->jobs - d->kids.n;
  return (free_slots > 0 ? free_slots : 0) + prefetch(d);
}

int disp_idle(const dispatcher *d) { return d->kids.n == 0 && !d->nahead; }

int disp_pollfds(dispatcher *d, struct pollfd *fds, int max) {
  children_flush(&d->kids);
  return children_pollfds(&d->kids, fds, max);
}

void disp_polled(dispatcher *d, const struct pollfd *fds, int n) {
  children_polled(&d->kids, fds, n);
}

int64_t disp_deadline(const dispatcher *d) {
  int64_t t = children_deadline(&d->kids);
  for (int i = 0; i < d->nahead; i++) {
    int64_t end = lease_start_deadline(d->ahead[i]);
    if (end < t) t = end;
  }
  for (int i = 0; i < d->kids.n; i++) {
    const host_run *r = children_run(&d->kids, i);
    if (r->renew_at < t) t = r->renew_at;
    /* the next look for a cancel (none once seen, or without a probe) */
    if (r->db->st_cancel && !r->cancel_asked && r->cancel_check_at &&
        r->cancel_check_at < t)
      t = r->cancel_check_at;
  }
  return t;
}

/* How often a running command's cancel is looked for (one index probe
** each): it is stopped within about a second of trigger_run_cancel. */
#define CANCEL_POLL_MS 1000

/* Child i: a cancel asked for (the probe when due, or the heartbeat's
** answer) stops its command. */
static void check_cancel(dispatcher *d, int i, int64_t now) {
  host_run *r = children_run(&d->kids, i);
  if (!r->cancel_check_at) r->cancel_check_at = now + CANCEL_POLL_MS;
  if (!r->cancel_asked && now >= r->cancel_check_at) {
    r->cancel_check_at = now + CANCEL_POLL_MS;
    hostdb_cancel_asked(r->db, r->run_id, &r->cancel_asked);
  }
  if (r->cancel_asked) children_cancel(&d->kids, i);
}

void disp_service(dispatcher *d) {
  if (d->kids.n) children_service(&d->kids, d->done, d->ctx);
  if (d->nahead) start_ahead(d);
  int64_t now = mono_ms();
  for (int i = 0; i < d->kids.n; i++) {
    lease_renew(children_run(&d->kids, i), now);
    check_cancel(d, i, now);
  }
}

void disp_kill(dispatcher *d, const char *why) { children_kill(&d->kids, why); }
