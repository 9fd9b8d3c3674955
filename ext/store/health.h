/*
** health.h -- what trigger_health() reports: counts of the triggers and
** runs by state at an instant, each one indexed query, and the create
** action's recent creations and latest refusal (from the event log);
** all of them narrowed to some agents and a scope when asked. Each count
** stops past STORE_HEALTH_CAP: a count of STORE_HEALTH_CAP + 1 means more
** than that (trigger_health adds "<count>_capped": true), so a health
** check reads a bounded number of index entries on any database
** (docs/functions.md#trigger_health).
*/
#ifndef TRIGGERS_HEALTH_H
#define TRIGGERS_HEALTH_H

#include "store/store.h"

#define STORE_HEALTH_CAP 10000

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
  i64 recent_creations; /* created events within the creation window */
  /* the latest rejected event at or before now (code NULL: none); the
  ** texts sqlite3_malloc'd: store_health_free */
  char *error_code, *error_reason;
  i64 error_at;
} store_health;

/* What the counts are narrowed to: agents, a JSON array of agent ids
** (NULL: every agent), and scope (NULL: every scope). */
typedef struct store_health_filter {
  const char *agents;
  const char *scope;
} store_health_filter;

/* window: creation_window_ms. f NULL: no narrowing. */
int store_health_counts(store *s, i64 now, i64 window,
                        const store_health_filter *f, store_health *h);
void store_health_free(store_health *h);

#endif
