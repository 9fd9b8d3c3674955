/*
** metrics.c -- the Prometheus text of /metrics (see metrics.h). The health
** counts of every database are read first (one transaction each), then
** every family is written in turn with all its samples.
**
** One prefix scheme (docs/host.md#metrics): trigger_db_* is what a
** database says (the same from every host of it), trigger_host_* what
** this process did since it started. trigger_health's windowed counts
** (failures_24h, recent_creations) are not exported: a counter and rate()
** serve where they would (trigger_host_runs_total{status="failed"}).
*/
#include "http/metrics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/stats.h"
#include "core/trigger_stats.h"
#include "core/util.h"

/* HELP of the health gauges; a key trigger_health gains later gets a
** generic one. */
static const struct {
  const char *key, *help;
} health_help[] = {
    {"active", "Triggers scheduled (status 'scheduled')."},
    {"paused", "Triggers paused."},
    {"overdue", "Triggers due and not yet claimed, or stalled."},
    {"running", "Runs claimed and not yet finished, by any host."},
    {"expired_leases",
     "Running runs whose lease has passed (their host died or stalled)."},
    {"stalled", "Active triggers held back by a run whose lease has passed."},
    {"budget_held",
     "Triggers a budget holds: paused by their own, or due and held by "
     "their agent's (docs/reactive.md#budgets)."},
};

/* trigger_health's keys left out of /metrics: counts over a sliding window,
** which a counter and rate() answer better, and the text field. */
static const char *const windowed[] = {"failures_24h", "recent_creations"};

static int exported(const char *key) {
  for (size_t i = 0; i < sizeof windowed / sizeof windowed[0]; i++)
    if (strcmp(windowed[i], key) == 0) return 0;
  return 1;
}

static const char *help_of(const char *key) {
  for (size_t i = 0; i < sizeof health_help / sizeof health_help[0]; i++)
    if (strcmp(health_help[i].key, key) == 0) return health_help[i].help;
  return NULL;
}

/* A label value: backslash, double quote and newline escaped. */
static void label(sqlite3_str *s, const char *name, const char *value,
                  int first) {
  sqlite3_str_appendf(s, "%s%s=\"", first ? "" : ",", name);
  for (const char *p = value ? value : ""; *p; p++) {
    if (*p == '\\') sqlite3_str_appendall(s, "\\\\");
    else if (*p == '"') sqlite3_str_appendall(s, "\\\"");
    else if (*p == '\n') sqlite3_str_appendall(s, "\\n");
    else sqlite3_str_appendchar(s, 1, *p);
  }
  sqlite3_str_appendchar(s, 1, '"');
}

static void family(sqlite3_str *s, const char *name, const char *type,
                   const char *help) {
  sqlite3_str_appendf(s, "# HELP %s %s\n# TYPE %s %s\n", name, help, name,
                      type);
}

/* name{db="..."[,agent="..."] */
static void sample_start(sqlite3_str *s, const char *name, const char *db,
                         const char *agent) {
  sqlite3_str_appendf(s, "%s{", name);
  label(s, "db", db, 1);
  if (agent) label(s, "agent", agent, 0);
}

/* ---- from the databases ---------------------------------------------- */

typedef struct db_health {
  int up;
  int n;
  health_field f[HEALTH_MAX_FIELDS];
} db_health;

static void read_health(readdb *r, long long now_ms, db_health *h) {
  h->up = 0;
  h->n = 0;
  if (readdb_begin(r) == 0) {
    char *err = NULL;
    char *json = readdb_health(r, now_ms, &err);
    h->up = json &&
            readdb_health_fields(r, json, h->f, HEALTH_MAX_FIELDS, &h->n) == 0;
    if (!h->up) log_debug("/metrics: %s: %s", r->path, err ? err : "?");
    free(json);
    free(err);
  }
  readdb_end(r);
}

static const health_field *field_of(const db_health *h, const char *key) {
  for (int i = 0; i < h->n; i++)
    if (strcmp(h->f[i].key, key) == 0) return &h->f[i];
  return NULL;
}

static void health_families(sqlite3_str *s, readdb *dbs, int ndbs,
                            const db_health *hs) {
  family(s, "trigger_db_up", "gauge",
         "1 when the database could be read for this scrape, else 0.");
  for (int i = 0; i < ndbs; i++) {
    sample_start(s, "trigger_db_up", dbs[i].path, NULL);
    sqlite3_str_appendf(s, "} %d\n", hs[i].up);
  }
  /* the keys of the first database that answered (one extension, so the
  ** same keys everywhere) */
  const db_health *keys = NULL;
  for (int i = 0; i < ndbs && !keys; i++)
    if (hs[i].up) keys = &hs[i];
  for (int k = 0; keys && k < keys->n; k++) {
    const char *key = keys->f[k].key;
    if (!exported(key)) continue;
    int due = strcmp(key, "next_due_at") == 0;
    char name[64], help[128];
    snprintf(name, sizeof name,
             due ? "trigger_db_next_due_timestamp_seconds" : "trigger_db_%s",
             key);
    const char *h =
        due ? "When the next trigger is due (Unix seconds)." : help_of(key);
    if (!h) {
      snprintf(help, sizeof help, "trigger_health's %s.", key);
      h = help;
    }
    for (int i = 0, first = 1; i < ndbs; i++) {
      const health_field *f = hs[i].up ? field_of(&hs[i], key) : NULL;
      if (!f || f->isnull) continue; /* a family with samples only */
      if (first) family(s, name, "gauge", h);
      first = 0;
      sample_start(s, name, dbs[i].path, NULL);
      if (due) sqlite3_str_appendf(s, "} %.3f\n", (double)f->value / 1e3);
      else sqlite3_str_appendf(s, "} %lld\n", f->value);
    }
  }
}

/* ---- from this process ----------------------------------------------- */

static void counter(sqlite3_str *s, const stats_row *rows, int n,
                    const char *name, const char *help,
                    long long (*get)(const stats_row *)) {
  family(s, name, strstr(name, "_total") ? "counter" : "gauge", help);
  for (int i = 0; i < n; i++) {
    sample_start(s, name, rows[i].db, rows[i].agent);
    sqlite3_str_appendf(s, "} %lld\n", get(&rows[i]));
  }
}

static long long get_fires(const stats_row *r) { return r->fires; }
static long long get_failures(const stats_row *r) {
  return r->failed + r->refused;
}
static long long get_refused(const stats_row *r) { return r->refused; }
static long long get_inflight(const stats_row *r) { return r->inflight; }

static void runs_family(sqlite3_str *s, const stats_row *rows, int n) {
  family(s, "trigger_host_runs_total", "counter",
         "Runs this host reported, by status (success, failed, deferred, "
         "cancelled).");
  static const char *const status[] = {"success", "failed", "deferred",
                                       "cancelled"};
  for (int i = 0; i < n; i++) {
    const long long v[] = {rows[i].success, rows[i].failed, rows[i].deferred,
                           rows[i].cancelled};
    for (int k = 0; k < 4; k++) {
      sample_start(s, "trigger_host_runs_total", rows[i].db, rows[i].agent);
      label(s, "status", status[k], 0);
      sqlite3_str_appendf(s, "} %lld\n", v[k]);
    }
  }
}

static void latency_family(sqlite3_str *s, const stats_row *rows, int n) {
  const char *name = "trigger_host_claim_latency_seconds";
  family(s, name, "histogram",
         "Seconds from an occurrence's scheduled_for to this host's claim "
         "(jitter included).");
  for (int i = 0; i < n; i++) {
    const stats_row *r = &rows[i];
    for (int b = 0; b <= STATS_NBUCKETS; b++) {
      char le[32];
      if (b < STATS_NBUCKETS) snprintf(le, sizeof le, "%g", stats_bounds[b]);
      else snprintf(le, sizeof le, "+Inf");
      sample_start(s, "trigger_host_claim_latency_seconds_bucket", r->db,
                   r->agent);
      label(s, "le", le, 0);
      sqlite3_str_appendf(s, "} %lld\n",
                          b < STATS_NBUCKETS ? r->bucket[b] : r->count);
    }
    sample_start(s, "trigger_host_claim_latency_seconds_sum", r->db, r->agent);
    sqlite3_str_appendf(s, "} %.6f\n", r->sum_s);
    sample_start(s, "trigger_host_claim_latency_seconds_count", r->db,
                 r->agent);
    sqlite3_str_appendf(s, "} %lld\n", r->count);
  }
}

/* Per trigger (trigger_stats.h): its executed runs and their cost. */
static void trigger_families(sqlite3_str *s) {
  int n = 0;
  trigger_stats_row *rows = trigger_stats_snapshot(&n);
  static const char *const name[2] = {"trigger_host_trigger_runs_total",
                                      "trigger_host_trigger_cost_total"};
  static const char *const help[2] = {
      "Executed runs (success or failed) of a trigger this host reported.",
      "The cost that a trigger's commands reported through "
      "$TRIGGER_USAGE_FILE, summed."};
  for (int k = 0; k < 2; k++) {
    family(s, name[k], "counter", help[k]);
    for (int i = 0; i < n; i++) {
      sample_start(s, name[k], rows[i].db, rows[i].agent);
      label(s, "trigger", rows[i].trigger_id, 0);
      if (k == 0) sqlite3_str_appendf(s, "} %lld\n", rows[i].runs);
      else sqlite3_str_appendf(s, "} %.17g\n", rows[i].cost);
    }
  }
  trigger_stats_free(rows, n);
}

char *metrics_render(readdb *dbs, int ndbs, long long now_ms,
                     long long start_ms, size_t *len) {
  db_health *hs = xmalloc(sizeof *hs * (size_t)ndbs);
  for (int i = 0; i < ndbs; i++) read_health(&dbs[i], now_ms, &hs[i]);
  sqlite3_str *s = sqlite3_str_new(NULL);
  health_families(s, dbs, ndbs, hs);
  free(hs);
  int n = 0;
  stats_row *rows = stats_snapshot(&n);
  counter(s, rows, n, "trigger_host_fires_total",
          "Runs this host claimed (trigger_run_due) since it started.",
          get_fires);
  runs_family(s, rows, n);
  counter(s, rows, n, "trigger_host_failures_total",
          "Runs this host reported failed, plus its reports the database "
          "refused.",
          get_failures);
  counter(s, rows, n, "trigger_host_reports_refused_total",
          "Reports (trigger_run_finish) the database refused.", get_refused);
  counter(s, rows, n, "trigger_host_runs_in_flight",
          "Runs this host has claimed and not yet reported.", get_inflight);
  latency_family(s, rows, n);
  stats_free(rows, n);
  trigger_families(s);
  family(s, "trigger_host_build_info", "gauge",
         "Always 1; its version label is trigger-host's version.");
  sqlite3_str_appendall(s, "trigger_host_build_info{");
  label(s, "version", TRIGGERS_VERSION, 1);
  sqlite3_str_appendall(s, "} 1\n");
  family(s, "trigger_host_start_time_seconds", "gauge",
         "When this host started (Unix seconds).");
  sqlite3_str_appendf(s, "trigger_host_start_time_seconds %.3f\n",
                      (double)start_ms / 1e3);
  *len = (size_t)sqlite3_str_length(s);
  return sqlite3_str_finish(s);
}
