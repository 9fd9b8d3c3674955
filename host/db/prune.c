/*
** prune.c -- retention batches (see prune.h). Each batch is one statement,
** the same text for a local file and for --via: the retention is read by
** the statement itself, so a trigger_config change applies from the next
** batch on, and no value from outside is quoted (two integers).
**
** What is pruned is a table of targets, each a config key and the table
** trigger_prune(before, limit, table) deletes at most limit rows of that
** are older than `before` (finished runs; events: docs/operations.md,
** "The event log"), and returns how many. A round goes through them in order.
*/
#include "db/prune.h"

#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/util.h"
#include "db/via.h"

typedef struct target {
  const char *what;  /* for the log */
  const char *key;   /* trigger_config key of the retention, in ms */
  const char *table; /* trigger_prune(before, limit, table) -> rows deleted */
} target;

static const target targets[] = {
    {"finished runs", "run_retention_ms", "trigger_runs"},
    {"events", "event_retention_ms", "trigger_events"},
};
#define NTARGETS ((int)(sizeof targets / sizeof targets[0]))

void prunes_init(prunes *p, hostdb *dbs, int n, int64_t now) {
  p->n = n;
  p->v = xmalloc(sizeof *p->v * (size_t)(n ? n : 1));
  for (int i = 0; i < n; i++)
    p->v[i] = (pruner){.h = &dbs[i], .due = now, .target = 0, .round = 0};
}

void prunes_free(prunes *p) {
  free(p->v);
  memset(p, 0, sizeof *p);
}

int64_t prunes_deadline(const prunes *p) {
  int64_t t = INT64_MAX;
  for (int i = 0; i < p->n; i++)
    if (p->v[i].due < t) t = p->v[i].due;
  return t;
}

/* One batch of target t: 0 with *n the rows deleted (-1: its retention is
** off, <= 0), or -1 with *err. */
static int batch(hostdb *h, const target *t, long long *n, char **err) {
  char *sql =
      xprintf("SELECT CASE WHEN r > 0 THEN trigger_prune(max(%lld - r, 0), %d,"
              " '%s') ELSE -1 END FROM (SELECT trigger_config('%s') AS r)",
              (long long)wall_ms(), PRUNE_BATCH, t->table, t->key);
  char *out = NULL;
  int res = -1;
  if (h->via) {
    if (via_run(h->via, h->path, sql, &out, err) == 0 && out) {
      *n = strtoll(out, NULL, 10);
      res = 0;
    }
  } else {
    sqlite3_stmt *st = NULL;
    int rc = sqlite3_prepare_v2(h->db, sql, -1, &st, NULL);
    if (rc == SQLITE_OK) rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
      *n = sqlite3_column_int64(st, 0);
      res = 0;
    } else {
      *err = xprintf("%s: %s", h->path, sqlite3_errmsg(h->db));
    }
    sqlite3_finalize(st);
  }
  free(out);
  free(sql);
  return res;
}

static void step_one(pruner *p, int64_t now) {
  const target *t = &targets[p->target];
  char *err = NULL;
  long long n = 0;
  if (batch(p->h, t, &n, &err) != 0) {
    log_warn("pruning %s: %s; next try in %d s", t->what,
             err ? err : "no answer", PRUNE_EVERY_MS / 1000);
    free(err);
    n = 0; /* the round goes on with the next target */
  }
  if (n > 0) {
    p->round += n;
    log_debug("%s: pruned %lld %s older than %s%s", p->h->path, n, t->what,
              t->key, n == PRUNE_BATCH ? "; more follow" : "");
  }
  if (n == PRUNE_BATCH) {
    p->due = now + PRUNE_GAP_MS;
    return;
  }
  if (p->round > PRUNE_BATCH)
    log_debug("%s: pruned %lld %s in all", p->h->path, p->round, t->what);
  p->round = 0;
  if (++p->target < NTARGETS) {
    p->due = now;
    return;
  }
  p->target = 0;
  p->due = now + PRUNE_EVERY_MS;
}

void prunes_step(prunes *p, int64_t now) {
  for (int i = 0; i < p->n; i++)
    if (p->v[i].due <= now) step_one(&p->v[i], now);
}
