/*
** trigger_stats.c -- the host's per-trigger counters (trigger_stats.h): a
** table of (database, trigger) rows kept sorted, found by binary search,
** under one mutex.
*/
#include "core/trigger_stats.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static trigger_stats_row *rows;
static int nrows, caprows;

/* The row of (db, trigger_id), inserted when new; db's "(other)" row once
** the table is full. Called with the lock held. */
static trigger_stats_row *row_of(const char *db, const char *trigger_id,
                                 const char *agent) {
  int lo = 0, hi = nrows;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    int c = strcmp(db, rows[mid].db);
    if (!c) c = strcmp(trigger_id, rows[mid].trigger_id);
    if (c == 0) return &rows[mid];
    if (c < 0) hi = mid;
    else lo = mid + 1;
  }
  if (nrows >= TRIGGER_STATS_MAX_ROWS &&
      strcmp(trigger_id, TRIGGER_STATS_OTHER) != 0)
    return row_of(db, TRIGGER_STATS_OTHER, "");
  trigger_stats_row *r =
      xarray_insert((void **)&rows, &nrows, &caprows, sizeof *rows, lo);
  r->db = db;
  r->trigger_id = xstrdup(trigger_id);
  r->agent = xstrdup(agent);
  return r;
}

void trigger_stats_reported(const char *db, const char *trigger_id,
                            const char *agent, const char *status, int has_cost,
                            double cost) {
  int ran = strcmp(status, "success") == 0 || strcmp(status, "failed") == 0;
  if (!ran && !has_cost) return;
  pthread_mutex_lock(&lock);
  trigger_stats_row *r =
      row_of(db, trigger_id ? trigger_id : "", agent ? agent : "");
  if (ran) r->runs++;
  if (has_cost && cost > 0) r->cost += cost;
  pthread_mutex_unlock(&lock);
}

trigger_stats_row *trigger_stats_snapshot(int *n) {
  pthread_mutex_lock(&lock);
  trigger_stats_row *copy = xmalloc(sizeof *copy * (size_t)(nrows ? nrows : 1));
  for (int i = 0; i < nrows; i++) {
    copy[i] = rows[i];
    copy[i].trigger_id = xstrdup(rows[i].trigger_id);
    copy[i].agent = xstrdup(rows[i].agent);
  }
  *n = nrows;
  pthread_mutex_unlock(&lock);
  return copy;
}

void trigger_stats_free(trigger_stats_row *r, int n) {
  for (int i = 0; i < n; i++) {
    free(r[i].trigger_id);
    free(r[i].agent);
  }
  free(r);
}

void trigger_stats_clear(void) {
  pthread_mutex_lock(&lock);
  trigger_stats_free(rows, nrows);
  rows = NULL;
  nrows = caprows = 0;
  pthread_mutex_unlock(&lock);
}
