/*
** loop.c -- the scheduler (see loop.h).
**
** Each database has a tick_at (monotonic ms). After a tick it is set from
** trigger_next_wakeup() (capped at max_sleep_ms; NULL -> max_sleep_ms),
** so the host sleeps exactly until something is due. Every poll_ms the
** loop reads PRAGMA data_version of each database (a shared-memory read in
** WAL mode, no transaction is written); when another connection committed,
** the wakeup is recomputed, so a newly inserted trigger is seen within
** poll_ms. Our own reports (trigger_run_finish) do not change our
** data_version, so they mark the database for a wakeup refresh instead.
** Reports are written in batches (reports.h): a database's pending ones
** in the transaction of the next claim from it, the others when their
** window ends, all of them before the loop exits.
**
** The wakeup is asked with the claim options, so a filtered host (--agents,
** --wake-mode) is not woken for work of other agents or modes. Should a
** tick still find due work it does not take twice in a row (a trigger
** its options pass but a policy holds), it backs off (poll_ms doubling up
** to 1 s) instead of ticking in a tight loop.
**
** Several databases (serve) take turns: each claim pass starts at the
** database after the one that claimed last.
**
** How much is claimed: in --exec mode the free --jobs slots, and runs
** claimed ahead only while the commands are short enough that they start
** within milliseconds (dispatch.h, --prefetch); in print mode a batch
** (printing is immediate). Tick mode claims again as
** slots free up, until a claim returns fewer runs than it asked for (the
** pass has caught up with what is due; --limit bounds the whole pass),
** then waits for its commands.
**
** WAL checkpoints run on a thread of their own (ckpt.h), never inside
** the loop's commits.
**
** One poll() waits for everything: the self-pipe (signals, SIGCHLD), the
** children's pipes, and a timeout = the earliest of the next tick, the
** next data_version read, a child's deadline or lease renewal (lease.h),
** the next retention batch of run and serve (prune.h), the end of a
** report batch's window, the grace deadline and, under systemd with a
** watchdog, the next WATCHDOG=1 (notify.h: READY=1 before the first
** pass of run and serve, STOPPING=1 at the first stop signal). Each reported run is
** logged when its batch's result is known (reports.h, log.h).
*/
#include "loop.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>

#include "core/backoff.h"
#include "core/log.h"
#include "core/notify.h"
#include "core/sig.h"
#include "core/slice.h"
#include "core/stats.h"
#include "core/util.h"
#include "db/ckpt.h"
#include "db/prune.h"
#include "db/reports.h"
#include "dispatch/dispatch.h"
#include "dispatch/lease.h"
#include "dispatch/printtx.h"
#include "dispatch/sql_job.h"

#define RETRY_MS 1000     /* after a failed claim or wakeup query, */
#define RETRY_MAX_MS 5000 /* doubling while it fails again (backoff.h) */
#define IDLE_MAX_MS 1000
#define STDOUT_WAIT_US 2000 /* a full pipe on stdout looked at again */
#define US 1000             /* microseconds per millisecond */

typedef struct loop {
  const host_opts *o;
  hostdb *dbs;
  int ndbs;
  dispatcher d;
  reports rep;  /* outcomes waiting to be written */
  int claiming; /* still claims new runs */
  int stopping; /* a stop signal arrived */
  int killed;   /* children were killed */
  int seen_stops;
  int next_db;     /* claim_pass starts here: the one after the last claim */
  int64_t kill_at; /* end of the grace period (µs, as every time here) */
  int64_t watchdog_at; /* next WATCHDOG=1 (notify.h); INT64_MAX: none */
  int64_t check_at;    /* next PRAGMA data_version read */
  int failures;        /* failed runs and refused reports */
  int fatal;           /* exit status 3 */
  prunes pr;           /* retention (run and serve; none in tick mode) */
  printtx ptx;         /* print mode in the claim's transaction */
} loop;

static int64_t min64(int64_t a, int64_t b) { return a < b ? a : b; }

/* The loop keeps its times in monotonic µs, the other modules in ms. */
static int64_t ms_of(int64_t us) { return us / US; }
static int64_t us_of(int64_t ms) { return ms == INT64_MAX ? ms : ms * US; }

/* The dispatcher's callback: queue one outcome's report (reports.h). */
static void on_done(void *ctx, host_run *run, const char *status,
                    const char *detail) {
  loop *l = ctx;
  if (strcmp(status, "failed") == 0) l->failures++;
  reports_add(&l->rep, run, status, detail);
}

/* A claim or wakeup query of h failed (err, freed): no tick before the
** backoff's wait (a failed write marks h for a wakeup refresh, which must
** not tick it at once: that was a busy loop on a full disk); logged the
** first time and then once a minute (backoff.h). */
static void db_failed(hostdb *h, int64_t now, char *err) {
  backoff_step s =
      backoff_failed(&h->failing, err, ms_of(now), RETRY_MS, RETRY_MAX_MS);
  if (s.log && s.unlogged)
    log_warn("%s; next try in %lld ms (%ld more failure(s) since the last "
             "line)",
             err, (long long)s.wait_ms, s.unlogged);
  else if (s.log)
    log_warn("%s; next try in %lld ms", err, (long long)s.wait_ms);
  free(err);
  h->retry_until = h->tick_at = now + us_of(s.wait_ms);
}

/* A tick of h went through (claim and wakeup): the failures are over. */
static void db_recovered(hostdb *h) {
  long n = backoff_ok(&h->failing);
  h->retry_until = 0;
  if (n)
    log_warn("%s: claims work again after %ld failed tr%s", h->path, n,
             n == 1 ? "y" : "ies");
}

/* tick_at from trigger_next_wakeup(), never before the idle backoff or a
** failure's (db_failed); 0, or -1 when the query failed.
** The wakeup is asked in ms from our own clock's ms (with --via, from the
** far side's when it answers, about now), and the tick is set at that
** instant to the µs: the next ms boundary, not up to 2 ms after it (the
** clocks truncated to the ms, plus 1 ms to be safe: 0.7 ms of the
** run-mode latency's median, bench/README.md). */
static int plan_wakeup(loop *l, hostdb *h) {
  long long ms, at = ms_of(wall_us());
  char *err = NULL;
  int rc = hostdb_wakeup(h, at, &ms, &err);
  int64_t now = mono_us(), wall = wall_us();
  if (rc != 0) {
    db_failed(h, now, err);
    return -1;
  }
  if (ms < 0 || ms > l->o->max_sleep_ms) ms = l->o->max_sleep_ms;
  if (h->via) at = ms_of(wall);
  int64_t left = us_of(at + ms) - wall;   /* to the due instant */
  h->tick_at = left > 0 ? now + left : 0; /* 0: due already */
  if (h->tick_at < h->idle_until) h->tick_at = h->idle_until;
  if (h->tick_at < h->retry_until) h->tick_at = h->retry_until;
  return 0;
}

/* Runs to claim now, 0 = no bound: --limit (in tick mode what is left of
** it for the pass), and in --exec mode at most disp_slots. */
static long long claim_limit(const loop *l, const hostdb *h) {
  long long limit = l->o->limit;
  if (limit && l->o->mode == MODE_TICK) limit -= h->pass_claimed;
  if (!l->o->exec_cmd) return limit;
  long long slots = disp_slots(&l->d);
  return (limit == 0 || slots < limit) ? slots : limit;
}

/* The lease path's claim: the pending reports and the claim in one
** transaction, so the claim sees every run we finished. 0, or -1 (*err). */
static int claim_leased(loop *l, hostdb *h, long long limit, host_run ***runs,
                        int *n, char **err) {
  int joined = reports_begin(&l->rep, h);
  int rc = hostdb_claim(h, limit, 0, runs, n, err);
  if (joined && reports_commit(&l->rep, h) != 0 && rc == 0) {
    runs_free(*runs, *n); /* undone: never ours */
    *runs = NULL;
    *n = 0;
    rc = -1;
    *err = xprintf("%s: the claim was undone with its reports' transaction",
                   h->path);
  }
  return rc;
}

/* Print mode in the claim's transaction (printtx.h) where stdout allows
** it, the pending reports written first (the claim must see them); else
** PRINTTX_LEASE, nothing done. */
static int print_in_txn(loop *l, hostdb *h, long long *limit, host_run ***runs,
                        int *n, char **err) {
  if (!l->ptx.usable || !h->st_claim_acked || l->o->sql) return PRINTTX_LEASE;
  if (reports_begin(&l->rep, h)) reports_commit(&l->rep, h);
  return printtx_tick(&l->ptx, h, limit, runs, n, err);
}

/* --sql: a committed batch's runs logged and counted (sql_job.h); a batch
** that did not commit left nothing, its runs are reported 'failed'. */
static void sql_settle(loop *l, hostdb *h, host_run *run, sql_job_outcome res,
                       const char *detail, const char *commit_err) {
  int failed = res == SQL_JOB_FAILED;
  if (commit_err) {
    on_done(l, run, "failed", commit_err);
  } else if (res == SQL_JOB_REFUSED) {
    if (l->o->http) stats_reported(h->path, run->agent_id, "success", 1);
    l->rep.refused++;
    log_refused(h->path, run, "success", detail);
  } else {
    if (l->o->http)
      stats_reported(h->path, run->agent_id, failed ? "failed" : "success", 0);
    reports_count_claimed(&l->rep, 1); /* written with the batch */
    l->rep.failed += failed;
    l->failures += failed;
    log_run(h->path, run, failed ? "failed" : "success",
            failed ? detail : NULL);
  }
  run_free(run);
}

/* --sql: the claimed jobs run here in batches, each job and its finish in
** one transaction (sql_job.h); a batch that cannot begin reports its first
** run 'deferred' (offered again next tick). */
static void run_sql_jobs(loop *l, hostdb *h, host_run **runs, int n) {
  sql_job_outcome res[SQL_BATCH_JOBS];
  char *detail[SQL_BATCH_JOBS];
  for (int i = 0; i < n;) {
    sql_batch b;
    char *err = NULL;
    if (sql_batch_begin(&b, h, &err) != 0) {
      on_done(l, runs[i], "deferred", err);
      free(err);
      run_free(runs[i++]);
      continue;
    }
    int first = i;
    do {
      res[i - first] =
          sql_job_run(&b, runs[i], l->o->sql_timeout_ms, &detail[i - first]);
      i++;
    } while (i < n && !sql_batch_full(&b));
    h->refresh = 1; /* our own commit: the wakeup is asked again */
    int ok = sql_batch_commit(&b, &err) == 0;
    for (int k = first; k < i; k++) {
      sql_settle(l, h, runs[k], res[k - first], detail[k - first],
                 ok ? NULL : err);
      free(detail[k - first]);
    }
    free(err);
  }
}

static void tick_db(loop *l, hostdb *h, int64_t now) {
  host_run **runs = NULL;
  int n = 0, rc = 0;
  char *err = NULL;
  long long limit = claim_limit(l, h);
  int res = print_in_txn(l, h, &limit, &runs, &n, &err);
  if (res == PRINTTX_WAIT) { /* the reader has not made room: look soon */
    h->tick_at = now + STDOUT_WAIT_US;
    return;
  }
  if (res == PRINTTX_STDOUT_LOST) {
    log_warn("%s", err);
    free(err);
    l->d.stdout_lost = 1;
    return;
  }
  if (res == PRINTTX_LEASE) rc = claim_leased(l, h, limit, &runs, &n, &err);
  if (res == PRINTTX_FAILED) rc = -1;
  if (rc != 0 && l->o->mode != MODE_TICK) {
    db_failed(h, now, err);
    return;
  }
  if (rc != 0) { /* tick mode: exit status 3 */
    log_fatal("%s", err);
    free(err);
    l->fatal = 1;
    h->tick_at = INT64_MAX;
    return;
  }
  int printed = res == PRINTTX_DONE; /* recorded 'success' by the claim */
  if (n)
    log_debug("%s: claimed %d run(s)%s", h->path, n,
              printed ? " and printed them" : "");
  if (l->o->http) { /* the counters of --http's /metrics */
    long long wall = stats_wall_ms();
    for (int i = 0; i < n; i++)
      stats_claimed(h->path, runs[i]->agent_id, runs[i]->scheduled_for, wall);
  }
  if (l->o->sql) run_sql_jobs(l, h, runs, n); /* each run freed there */
  for (int i = 0; i < n && !l->o->sql; i++) {
    if (printed) {
      if (l->o->http) stats_reported(h->path, runs[i]->agent_id, "success", 0);
      log_run(h->path, runs[i], "success", NULL);
      run_free(runs[i]);
    } else {
      lease_start(runs[i]);
      disp_submit(&l->d, runs[i]);
    }
  }
  free(runs);
  if (printed) reports_count_claimed(&l->rep, n);
  if (l->o->mode == MODE_TICK) {
    /* caught up (or the pass's --limit reached): this database is done */
    h->pass_claimed += n;
    int more = limit > 0 && n == limit &&
               (!l->o->limit || h->pass_claimed < l->o->limit);
    h->tick_at = more ? now : INT64_MAX;
    return;
  }
  h->refresh = 0; /* asked after every write of this tick */
  if (plan_wakeup(l, h) != 0) return;
  db_recovered(h);
  if (n == 0 && h->tick_at <= now && h->empty_due++ > 0) {
    /* overdue twice in a row, but nothing claimed: not for this host */
    h->idle_ms =
        h->idle_ms ? min64(h->idle_ms * 2, IDLE_MAX_MS) : l->o->poll_ms;
    h->idle_until = h->tick_at = now + us_of(h->idle_ms);
    log_debug("%s: due work is not ours, next look in %lld ms", h->path,
              (long long)h->idle_ms);
  } else if (n > 0 || h->tick_at > now) {
    h->empty_due = 0;
    h->idle_ms = 0;
    h->idle_until = 0;
  }
}

static void check_versions(loop *l, int64_t now) {
  for (int i = 0; i < l->ndbs; i++) {
    int changed, rc = hostdb_changed(&l->dbs[i], &changed);
    if (rc != 0 || changed) /* changed, or unreadable: look again */
      l->dbs[i].refresh = 1;
    if (rc == 0 && changed && !l->dbs[i].via)
      log_debug("%s: changed by another connection", l->dbs[i].path);
  }
  l->check_at = now + us_of(l->o->poll_ms);
}

/* One look at every database, from the one after the database that
** claimed last: the slots go round, so a database with a backlog does not
** hold the others' due runs until it has caught up. */
static void claim_pass(loop *l, int64_t now) {
  int tick_mode = l->o->mode == MODE_TICK;
  if (!tick_mode && now >= l->check_at) check_versions(l, now);
  int pending = 0; /* tick mode: databases not yet caught up */
  int first = l->next_db;
  for (int k = 0; k < l->ndbs && l->claiming; k++) {
    int i = (first + k) % l->ndbs;
    hostdb *h = &l->dbs[i];
    if (h->refresh && !tick_mode) {
      h->refresh = 0;
      plan_wakeup(l, h);
    }
    if (h->tick_at <= now && disp_slots(&l->d) > 0) {
      tick_db(l, h, now);
      l->next_db = (i + 1) % l->ndbs;
    }
    if (l->d.stdout_lost) l->claiming = 0;
    pending |= h->tick_at != INT64_MAX;
  }
  if (tick_mode && !pending) l->claiming = 0;
}

static void handle_signals(loop *l, int64_t now) {
  int s = sig_stop_count();
  if (s == l->seen_stops) return;
  if (!l->stopping) {
    log_debug("stop requested: no more claims; waiting for running commands");
    notify_send("STOPPING=1");
    l->stopping = 1;
    l->claiming = 0;
    l->kill_at = now + us_of(l->o->grace_ms);
    disp_release(&l->d); /* the runs claimed ahead do not start */
  }
  if (s >= 2 && !l->killed) {
    disp_kill(&l->d, "killed: host stopped (second stop signal)");
    l->killed = 1;
  }
  l->seen_stops = s;
}

/* Nothing more to claim or run: only reports are left to write. */
static int finishing(const loop *l) { return !l->claiming && disp_idle(&l->d); }

/* When the loop has something to do next (monotonic µs). */
static int64_t next_event(loop *l, int64_t now) {
  int64_t t = INT64_MAX;
  if (l->claiming) {
    if (l->o->mode != MODE_TICK) t = l->check_at;
    int can_claim = disp_slots(&l->d) > 0;
    /* a wakeup to recompute (run, serve); tick mode has none to plan */
    int plans = l->o->mode != MODE_TICK;
    for (int i = 0; i < l->ndbs; i++) {
      if (can_claim) t = min64(t, l->dbs[i].tick_at);
      if (plans && l->dbs[i].refresh) t = now;
    }
  }
  if (l->claiming) t = min64(t, us_of(prunes_deadline(&l->pr)));
  t = min64(t, us_of(disp_deadline(&l->d)));
  t = min64(t, reports_deadline(&l->rep, finishing(l))); /* µs */
  if (l->stopping && !l->killed) t = min64(t, l->kill_at);
  return min64(t, l->watchdog_at);
}

/* Sleep in poll() until the earliest thing the loop has to do. */
static void wait_events(loop *l, struct pollfd *fds, int max, int64_t now) {
  int64_t t = next_event(l, now);
  int64_t wait = t <= now ? 0 : min64(t - now, us_of(l->o->max_sleep_ms));
  fds[0] = (struct pollfd){sig_fd(), POLLIN, 0};
  int n = 1 + disp_pollfds(&l->d, fds + 1, max - 1);
  int ready = poll_us(fds, (nfds_t)n, wait);
  if (ready < 0 && errno != EINTR) log_warn("poll: %s", strerror(errno));
  if (ready > 0) disp_polled(&l->d, fds + 1, n - 1);
  sig_drain();
}

static int exit_status(const loop *l) {
  if (l->fatal || l->d.stdout_lost) return 3;
  if (l->o->mode == MODE_TICK && (l->failures || l->rep.refused)) return 1;
  return 0;
}

int loop_main(const host_opts *o, hostdb *dbs, int ndbs, const printtx *ptx) {
  loop l;
  memset(&l, 0, sizeof l);
  l.o = o;
  l.dbs = dbs;
  l.ndbs = ndbs;
  l.claiming = 1;
  l.kill_at = INT64_MAX;
  slice_request(); /* before the threads below: they keep the default */
  disp_init(&l.d, o, on_done, &l);
  l.ptx = *ptx;
  reports_init(&l.rep, dbs, ndbs, o->report_ms);
  l.rep.stats = o->http != NULL;
  ckpt *checkpointer = ckpt_start(dbs, ndbs);
  int64_t now = mono_us();
  for (int i = 0; i < ndbs; i++) dbs[i].tick_at = now;
  prunes_init(&l.pr, dbs, o->mode == MODE_TICK ? 0 : ndbs, ms_of(now));
  l.check_at = now + us_of(o->poll_ms);
  /* the signal pipe, the spawner's, 3 pipes per command */
  int max = 2 + 3 * o->jobs;
  struct pollfd *fds = xmalloc(sizeof *fds * (size_t)max);
  if (o->mode != MODE_TICK) notify_send("READY=1");
  for (;;) {
    now = mono_us();
    l.watchdog_at = notify_watchdog(now);
    handle_signals(&l, now);
    disp_service(&l.d);
    if (l.claiming) claim_pass(&l, mono_us());
    if (l.claiming) prunes_step(&l.pr, ms_of(mono_us()));
    reports_service(&l.rep, finishing(&l));
    if (finishing(&l) && !reports_pending(&l.rep)) break;
    now = mono_us();
    if (l.stopping && !l.killed && now >= l.kill_at) {
      disp_kill(&l.d, "killed: host stopped (grace period over)");
      l.killed = 1;
    }
    wait_events(&l, fds, max, now);
  }
  free(fds);
  ckpt_stop(checkpointer);
  disp_free(&l.d);
  prunes_free(&l.pr);
  log_debug("exiting: %d failure(s), %d report(s) refused; %lld report(s) "
            "written in %lld transaction(s)",
            l.failures, l.rep.refused, l.rep.written, l.rep.batches);
  log_stop((int)l.rep.written, (int)l.rep.failed);
  int status = exit_status(&l); /* before reports_free clears the counts */
  reports_free(&l.rep);
  return status;
}
