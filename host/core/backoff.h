/*
** backoff.h -- pacing a failure that repeats (a full disk, a read-only
** database, a busy database): the wait before the next try doubles from
** a first delay up to a cap, and the failure is worth a log line only
** the first time, when its message changes, or when BACKOFF_LOG_MS have
** passed since the last line (that line then says how many tries failed
** unlogged meanwhile). So a failure that lasts costs a few log lines a
** minute and no CPU, instead of a line per try (docs/host.md, "When the
** database cannot be written").
**
** Pure: the caller passes the clock and writes the line (loop.c for
** claims and wakeups, reports.c for batches of reports). The state is a
** few integers; a zeroed struct is "not failing", and nothing is freed.
*/
#ifndef HOST_BACKOFF_H
#define HOST_BACKOFF_H

#include <stdint.h>

#define BACKOFF_LOG_MS 60000 /* a failure that goes on: one line a minute */

typedef struct backoff {
  int64_t wait_ms;     /* the wait after the last failure; 0: none yet */
  int64_t logged_at;   /* when a failure was last logged (caller's ms) */
  uint64_t logged_msg; /* a hash of that failure's message */
  long failures;       /* tries failed in a row */
  long unlogged;       /* of them, those since the last logged one */
} backoff;

typedef struct backoff_step {
  int64_t wait_ms; /* until the next try */
  int log;         /* 1: log this failure */
  long unlogged;   /* with log: the failures not logged before this one */
} backoff_step;

/* A try failed at now_ms with msg: the wait before the next one (first_ms,
** then twice the last wait, at most cap_ms) and whether to log it. */
backoff_step backoff_failed(backoff *b, const char *msg, int64_t now_ms,
                            int64_t first_ms, int64_t cap_ms);
/* A try succeeded: how many failed in a row before it (0: it was not
** failing; the caller logs the recovery when > 0). Resets b. */
long backoff_ok(backoff *b);

#endif
