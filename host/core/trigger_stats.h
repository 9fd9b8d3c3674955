/*
** trigger_stats.h -- per trigger, what this host reported since it
** started, for /metrics (docs/host.md#metrics): the runs it reported
** executed (success or failed) and the cost their commands reported
** ($TRIGGER_USAGE_FILE's cost, docs/reactive.md#usage-from-a-command).
** Process counters like stats.h's, under a mutex of their own; at most
** TRIGGER_STATS_MAX_ROWS (database, trigger) pairs, further triggers
** counted under the trigger "(other)" of their database.
*/
#ifndef HOST_TRIGGER_STATS_H
#define HOST_TRIGGER_STATS_H

#define TRIGGER_STATS_MAX_ROWS 1000
#define TRIGGER_STATS_OTHER "(other)"

typedef struct trigger_stats_row {
  const char *db; /* the database path (the loop's hostdb keeps it alive) */
  char *trigger_id, *agent;
  long long runs; /* executed runs reported (success, failed) */
  double cost;    /* their usage's cost, summed */
} trigger_stats_row;

/* A report the database took: status, and the run's usage cost when its
** command reported one (has_cost). */
void trigger_stats_reported(const char *db, const char *trigger_id,
                            const char *agent, const char *status, int has_cost,
                            double cost);
/* A copy sorted by (db, trigger_id): *n rows; free with
** trigger_stats_free. */
trigger_stats_row *trigger_stats_snapshot(int *n);
void trigger_stats_free(trigger_stats_row *rows, int n);
void trigger_stats_clear(void); /* at exit */

#endif
