/*
** stats.c -- the host's counters (see stats.h): a table of (database,
** agent) rows kept sorted, found by binary search, under one mutex.
*/
#include "core/stats.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/util.h"

const double stats_bounds[STATS_NBUCKETS] = {
    0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static stats_row *rows;
static int nrows, caprows;

long long stats_wall_ms(void) {
  struct timespec ts;
  clock_gettime(CLOCK_REALTIME, &ts);
  return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static int cmp_key(const char *db, const char *agent, const stats_row *r) {
  int c = strcmp(db, r->db);
  return c ? c : strcmp(agent, r->agent);
}

/* The row of (db, agent), inserted when new; the "(other)" row of db once
** the table is full. Called with the lock held. */
static stats_row *row_of(const char *db, const char *agent) {
  if (!agent) agent = "";
  int lo = 0, hi = nrows;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    int c = cmp_key(db, agent, &rows[mid]);
    if (c == 0) return &rows[mid];
    if (c < 0) hi = mid;
    else lo = mid + 1;
  }
  if (nrows >= STATS_MAX_ROWS && strcmp(agent, STATS_OTHER_AGENT) != 0)
    return row_of(db, STATS_OTHER_AGENT);
  stats_row *r =
      xarray_insert((void **)&rows, &nrows, &caprows, sizeof *rows, lo);
  r->db = db;
  r->agent = xstrdup(agent);
  return r;
}

void stats_claimed(const char *db, const char *agent, long long scheduled_for,
                   long long now_ms) {
  double s =
      now_ms > scheduled_for ? (double)(now_ms - scheduled_for) / 1e3 : 0;
  pthread_mutex_lock(&lock);
  stats_row *r = row_of(db, agent);
  r->fires++;
  r->inflight++;
  for (int i = 0; i < STATS_NBUCKETS; i++)
    if (s <= stats_bounds[i]) r->bucket[i]++;
  r->count++;
  r->sum_s += s;
  pthread_mutex_unlock(&lock);
}

void stats_reported(const char *db, const char *agent, const char *status,
                    int refused) {
  pthread_mutex_lock(&lock);
  stats_row *r = row_of(db, agent);
  if (strcmp(status, "success") == 0) r->success++;
  else if (strcmp(status, "failed") == 0) r->failed++;
  else if (strcmp(status, "deferred") == 0) r->deferred++;
  else if (strcmp(status, "cancelled") == 0) r->cancelled++;
  if (refused) r->refused++;
  if (r->inflight > 0) r->inflight--;
  pthread_mutex_unlock(&lock);
}

stats_row *stats_snapshot(int *n) {
  pthread_mutex_lock(&lock);
  stats_row *copy = xmalloc(sizeof *copy * (size_t)(nrows ? nrows : 1));
  for (int i = 0; i < nrows; i++) {
    copy[i] = rows[i];
    copy[i].agent = xstrdup(rows[i].agent);
  }
  *n = nrows;
  pthread_mutex_unlock(&lock);
  return copy;
}

void stats_free(stats_row *r, int n) {
  for (int i = 0; i < n; i++) free(r[i].agent);
  free(r);
}

void stats_clear(void) {
  pthread_mutex_lock(&lock);
  for (int i = 0; i < nrows; i++) free(rows[i].agent);
  free(rows);
  rows = NULL;
  nrows = caprows = 0;
  pthread_mutex_unlock(&lock);
}
