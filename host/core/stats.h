/*
** stats.h -- what this host process did since it started, for /metrics:
** per database and agent the runs it claimed (fires), the outcomes it
** reported by status, the reports the database refused, the runs it has
** in flight and a histogram of its claim latency (the wall clock at the
** claim minus the occurrence's scheduled_for; jitter included).
**
** Counters of the process, not of the run history: trigger_runs is pruned
** (run_retention_ms, trigger_prune), so a count over it would go down,
** which a Prometheus counter must never do; a process counter only resets
** when the host restarts, which rate() and increase() handle. Several
** hosts on one database each count their own runs: sum them.
**
** The loop thread records (stats_claimed, stats_reported); the HTTP thread
** takes a copy (stats_snapshot). One mutex guards the table. At most
** STATS_MAX_ROWS (database, agent) pairs are kept; runs of further agents
** are counted under the agent "(other)", so a scrape stays bounded.
*/
#ifndef HOST_STATS_H
#define HOST_STATS_H

#define STATS_NBUCKETS 14 /* finite histogram bounds (stats_bounds) */
#define STATS_MAX_ROWS 1000
#define STATS_OTHER_AGENT "(other)"

/* The finite upper bounds of the claim latency histogram, in seconds. */
extern const double stats_bounds[STATS_NBUCKETS];

typedef struct stats_row {
  const char *db; /* the database path (the loop's hostdb keeps it alive) */
  char *agent;
  long long fires;                  /* runs claimed */
  long long success;                /* runs reported success */
  long long failed;                 /* runs reported failed */
  long long deferred;               /* runs released (reported deferred) */
  long long cancelled;              /* runs stopped as asked (cancelled) */
  long long refused;                /* reports the database refused */
  long long inflight;               /* claimed and not yet reported */
  long long bucket[STATS_NBUCKETS]; /* claims with latency <= bound (each) */
  long long count;                  /* claims measured (the +Inf bucket) */
  double sum_s;                     /* their latency, summed */
} stats_row;

/* A run claimed at the wall clock's now_ms (latency = now_ms -
** scheduled_for, negative counted as 0). */
void stats_claimed(const char *db, const char *agent, long long scheduled_for,
                   long long now_ms);
/* A run's outcome reported (status as given to trigger_run_finish); refused:
** the database did not take the report. */
void stats_reported(const char *db, const char *agent, const char *status,
                    int refused);

/* A copy of the table, sorted by (db, agent): *n rows; free with
** stats_free. */
stats_row *stats_snapshot(int *n);
void stats_free(stats_row *rows, int n);
/* Forget every row (at exit). */
void stats_clear(void);

/* The wall clock in ms (CLOCK_REALTIME). */
long long stats_wall_ms(void);

#endif
