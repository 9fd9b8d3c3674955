/*
** metrics.h -- GET /metrics: Prometheus text exposition format 0.0.4
** (`# HELP` and `# TYPE` before each family, a family's samples together,
** counters ending in _total, label values escaped).
**
** Two sources, named apart:
**  - the database, per `db`: each count of trigger_health(now) as a gauge
**    trigger_<key> (trigger_active, trigger_paused, trigger_overdue,
**    trigger_running, trigger_expired_leases, trigger_failures_24h,
**    trigger_stalled), next_due_at as trigger_next_due_timestamp_seconds,
**    and trigger_db_up (1 when the database could be read). These are what
**    every host of that database sees; a scrape costs one trigger_health
**    call per database (indexed counts), never a scan over the runs.
**  - this host process, per `db` and `agent` (stats.h): the counters
**    trigger_fires_total, trigger_runs_total{status},
**    trigger_failures_total, trigger_reports_refused_total, the gauge
**    trigger_host_running and the histogram trigger_claim_latency_seconds;
**    and trigger_host_start_time_seconds.
*/
#ifndef HOST_METRICS_H
#define HOST_METRICS_H

#include <stddef.h>

#include "http/readdb.h"

/* The exposition text, *len bytes (free with sqlite3_free; NULL when out
** of memory). */
char *metrics_render(readdb *dbs, int ndbs, long long now_ms,
                     long long start_ms, size_t *len);

#endif
