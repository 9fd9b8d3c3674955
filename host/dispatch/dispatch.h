/*
** dispatch.h -- hands claimed runs to their executor: print mode writes
** one JSON line per run to stdout; --exec mode starts a child per run
** (exec.h) in one of --jobs slots. The loop claims no more runs than
** disp_slots says: the free slots, plus (--prefetch) runs claimed ahead
** while the commands are short. Runs claimed ahead wait here, in claim
** order, and start as slots free up; the next claim waits until they
** have all started, so one claim (and its transaction, with the reports
** of the commands that ended meanwhile) serves several commands instead
** of one each. How many: up to --prefetch, as many as the mean run time
** of the commands that ended says will start within PREFETCH_WAIT_US (and
** within an eighth of the lease); none before a command has ended, so
** long commands are never claimed ahead and a run never waits long while
** another host might have started it (measured, bench/README.md: 200
** commands of ~1.3 ms, 4 jobs: ~48 claims instead of ~200). Every outcome
** comes back through one callback, which reports it. The leases of
** running commands are renewed here, and a run is never started after its
** lease is nearly over (lease.h): a waiting run whose lease is nearly over
** is released ('deferred'), as are all waiting runs when the host stops.
*/
#ifndef HOST_DISPATCH_H
#define HOST_DISPATCH_H

#include <poll.h>
#include <stdint.h>

#include "core/opts.h"
#include "core/run.h"
#include "dispatch/exec.h"

typedef struct dispatcher {
  const host_opts *o;
  child_done done; /* (ctx, run, status, detail): report one outcome */
  void *ctx;
  children kids;
  int stdout_lost;  /* print mode: stdout failed, stop claiming */
  host_run **ahead; /* claimed ahead, waiting for a slot (oldest first) */
  int nahead, capahead;
} dispatcher;

/* A run claimed ahead is expected to start within this. */
#define PREFETCH_WAIT_US 20000

void disp_init(dispatcher *d, const host_opts *o, child_done done, void *ctx);
void disp_free(dispatcher *d);
/* Takes ownership of run. */
void disp_submit(dispatcher *d, host_run *run);
/* How many runs to claim now: in print mode a large number; with --exec
** the free slots and the runs to claim ahead, 0 while runs claimed ahead
** still wait. */
long long disp_slots(const dispatcher *d);
int disp_idle(const dispatcher *d);
/* The host stops: the runs claimed ahead are released ('deferred'). */
void disp_release(dispatcher *d);
/* Just before the loop sleeps: the commands handed over in this pass start
** (exec.h, children_flush), and the descriptors to poll. */
int disp_pollfds(dispatcher *d, struct pollfd *fds, int max);
/* After poll(): the n descriptors disp_pollfds gave, with revents. */
void disp_polled(dispatcher *d, const struct pollfd *fds, int n);
/* The next timeout or lease renewal. */
int64_t disp_deadline(const dispatcher *d);
/* Service children and renew their leases. */
void disp_service(dispatcher *d);
/* Kill every running child (reported failed with why). */
void disp_kill(dispatcher *d, const char *why);

#endif
