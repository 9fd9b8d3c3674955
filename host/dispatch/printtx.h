/*
** printtx.h -- print mode in the claim's own transaction.
**
** BEGIN IMMEDIATE; claim with {"ack": false} (the runs are recorded
** 'success' by the claim itself); write their lines to stdout; COMMIT.
** A run is thus recorded done only once its line is out, as with the
** lease path (a claim, the line, a report), in one commit instead of two
** and without the 'running' state in between. A crash before COMMIT
** leaves nothing claimed: the runs are offered again at once (their lines
** may then be printed twice), not after a lease. stdout failing (EPIPE)
** rolls the claim back.
**
** The write lock is held while the lines are written, so this path is
** taken only when stdout cannot block: a regular file, a character device
** that is not a terminal (/dev/null), or a pipe or FIFO (grown to 1 MiB
** where the kernel lets) with room for the whole batch: its free slots,
** counted before BEGIN from its unread bytes and the writes since it was
** last empty (ours, and the log's when stderr is the same pipe; another
** process writing to it is not counted: --print-lease then). The
** batch is sized by the lines of the last one; a batch whose lines turn
** out not to fit is rolled back and asked again, smaller. A pipe too full
** for a line is waited for, nothing claimed meanwhile (a stalled reader
** holds no run). Terminals, sockets, a line longer than the whole pipe,
** --via and --print-lease take the lease path.
*/
#ifndef HOST_PRINTTX_H
#define HOST_PRINTTX_H

#include <stddef.h>

#include "db/hostdb.h"

typedef struct printtx {
  int usable;        /* stdout's kind allows it at all */
  int pipe;          /* stdout is a pipe or FIFO: room is read per batch */
  int shared_err;    /* stderr is the same pipe */
  int unknown;       /* the pipe holds writes not counted (printtx.c) */
  long writes;       /* our write()s since the pipe was last seen empty */
  long log_base;     /* log_lines() then */
  size_t line_bytes; /* a line's expected size (the last batch's mean) */
} printtx;

/* The warning when print mode's stdout fails with errnum (0: unknown);
** malloc'ed. Both paths use it. */
char *printtx_stdout_lost(int errnum);

/* Look at stdout once, before the log writes anything (a pipe it shares
** with stderr must be seen empty first), and grow a pipe's buffer where
** the kernel lets. */
void printtx_init(printtx *p, int forced_lease);

/* What one printtx_tick did. */
enum {
  PRINTTX_DONE,
  PRINTTX_WAIT, /* the pipe has no room: nothing claimed, try again soon */
  PRINTTX_LEASE,
  PRINTTX_FAILED,
  PRINTTX_STDOUT_LOST
};

/* Claim up to *limit runs of h (0: a batch) in one transaction and print
** them (p->usable, and h has st_claim_acked: not --via); *limit is set to the number asked. PRINTTX_DONE: *n runs printed
** and committed (*runs: theirs, for logging; free each with run_free, then
** the array). PRINTTX_WAIT: the pipe is too full for a line; nothing
** claimed. PRINTTX_LEASE: nothing claimed; use the lease path this time.
** PRINTTX_FAILED (*err) or PRINTTX_STDOUT_LOST (*err): rolled back,
** nothing claimed -- but for a failed COMMIT, whose lines were printed. */
int printtx_tick(printtx *p, hostdb *h, long long *limit, host_run ***runs,
                 int *n, char **err);

#endif
