/*
** health.h -- what trigger_health() reports: counts of the triggers and
** runs by state at an instant, each one indexed query.
*/
#ifndef TRIGGERS_HEALTH_H
#define TRIGGERS_HEALTH_H

#include "store/store.h"

typedef struct store_health {
  i64 active;         /* triggers scheduled */
  i64 paused;         /* triggers paused */
  i64 overdue;        /* due and claimable at now, or stalled */
  i64 running;        /* runs running */
  i64 expired_leases; /* running runs whose lease passed */
  i64 failures_24h;   /* runs failed in the 24 hours before now */
  int has_next_due;   /* next_due_at: the earliest of all triggers */
  i64 next_due_at;
  i64 stalled; /* active triggers held with no live run behind the hold */
} store_health;

int store_health_counts(store *s, i64 now, store_health *h);

#endif
