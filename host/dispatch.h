/*
** dispatch.h -- hands claimed runs to their executor: print mode writes
** one JSON line per run to stdout; --exec mode keeps a FIFO of runs
** waiting for one of --jobs slots and starts children (exec.h). Every
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
  host_run **queue; /* waiting for a slot, oldest first */
  int nqueue, capqueue;
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
int disp_pollfds(dispatcher *d, struct pollfd *fds, int max);
/* The next timeout, lease renewal or queued run's start deadline. */
int64_t disp_deadline(const dispatcher *d);
/* Service children, renew their leases, then start queued runs in free
** slots (deferring those whose lease is nearly over). */
void disp_service(dispatcher *d);
/* Stop: queued runs are released ('deferred'). */
void disp_release(dispatcher *d);
/* Kill every running child (reported failed with why). */
void disp_kill(dispatcher *d, const char *why);

#endif
