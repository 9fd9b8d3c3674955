/*
** dispatch.h -- hands claimed runs to their executor: print mode writes
** one JSON line per run to stdout; --exec mode starts a child per run
** (exec.h) in one of --jobs slots: the loop claims no more runs than
** there are free slots (disp_slots), so a run never waits for one. Every
** outcome comes back through one callback, which reports it. The leases
** of running commands are renewed here, and a run is never started after
** its lease is nearly over (lease.h).
*/
#ifndef HOST_DISPATCH_H
#define HOST_DISPATCH_H

#include <poll.h>
#include <stdint.h>

#include "exec.h"
#include "hostdb.h"
#include "opts.h"

typedef struct dispatcher {
  const host_opts *o;
  child_done done; /* (ctx, run, status, detail): report one outcome */
  void *ctx;
  children kids;
  int stdout_lost; /* print mode: stdout failed, stop claiming */
} dispatcher;

void disp_init(dispatcher *d, const host_opts *o, child_done done, void *ctx);
void disp_free(dispatcher *d);
/* Takes ownership of run. */
void disp_submit(dispatcher *d, host_run *run);
/* How many more runs could start now (a large number in print mode). */
long long disp_slots(const dispatcher *d);
int disp_idle(const dispatcher *d);
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
