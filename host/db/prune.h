/*
** prune.h -- retention: `run` and `serve` delete finished runs older than
** trigger_config('run_retention_ms'), and events (trigger_events) older
** than trigger_config('event_retention_ms'), from each database they
** serve.
**
** A round starts at most once a minute per database (the first right at
** start). It deletes in batches of PRUNE_BATCH rows, one transaction each
** (trigger_prune(before, PRUNE_BATCH, table)), so the write lock is held for a
** few milliseconds at a time; while a batch comes back full the next one
** follows PRUNE_GAP_MS later, and between batches the loop claims,
** reports and sleeps as usual. A retention of 0 (or less) keeps every run.
** Running runs, deferred ones and failed ones with a retry pending are
** never deleted (trigger_prune's rule).
*/
#ifndef HOST_PRUNE_H
#define HOST_PRUNE_H

#include <stdint.h>

#include "db/hostdb.h"

#define PRUNE_EVERY_MS 60000 /* from the end of one round to the next */
#define PRUNE_BATCH 100      /* rows per transaction (bench/prune_batch.py) */
#define PRUNE_GAP_MS 20      /* between two batches of a round */

typedef struct pruner {
  hostdb *h;
  int64_t due;     /* monotonic ms of the next batch */
  int target;      /* what the round prunes now (prune.c: targets) */
  long long round; /* rows deleted by this round so far */
} pruner;

typedef struct prunes {
  pruner *v;
  int n;
} prunes;

/* One pruner per database, the first round due at now. */
void prunes_init(prunes *p, hostdb *dbs, int n, int64_t now);
void prunes_free(prunes *p);
/* Run the batches due at now (at most one per database). */
void prunes_step(prunes *p, int64_t now);
/* When the next batch is due (INT64_MAX: none). */
int64_t prunes_deadline(const prunes *p);

#endif
