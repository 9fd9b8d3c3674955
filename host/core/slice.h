/*
** slice.h -- the loop thread asks Linux for a short time slice, so that
** it runs soon after its timer fires on a busy machine.
**
** The loop sleeps until a run is due; woken, it needs a CPU. When every
** CPU is busy (2 CPUs running other jobs' compilers), the kernel's EEVDF
** scheduler let a woken task wait until the running one's slice ended:
** measured in the run-mode latency bench, the loop ran 1 to 6 ms after
** its timer (in whole ms: at the scheduler's ticks) for 5 to 8% of the
** fires. Since Linux 6.12 a SCHED_OTHER task may ask for a shorter slice
** (sched_setattr's sched_runtime, 0.1 to 100 ms): an earlier deadline,
** so the woken loop preempts the running task instead of waiting. It gets
** no more CPU than before (the same weight), only sooner. The request is
** 0.1 ms, for the loop thread only, not inherited (SCHED_FLAG_RESET_ON_FORK:
** threads and commands get the default); the nice value and a policy an
** administrator chose (SCHED_BATCH, real-time) are kept. Older kernels
** ignore the request; elsewhere it does nothing.
*/
#ifndef HOST_SLICE_H
#define HOST_SLICE_H

/* Ask for the short slice for the calling thread (best effort). */
void slice_request(void);

#endif
