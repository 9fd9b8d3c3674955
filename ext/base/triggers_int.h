/*
** triggers_int.h -- the internal header shared by the SQLite-facing files
** (as fts5Int.h is for FTS5): the version, the schema version, defaults
** and limits, with the per-connection context (context.h) and the row
** model (row.h).
**
** Included only by files that talk to SQLite; the pure modules (civil, tz,
** tzdb, cron, schedule, sha256) never include it.
*/
#ifndef TRIGGERS_INT_H
#define TRIGGERS_INT_H

#include <sqlite3ext.h>
#include <stdint.h>

#include "base/context.h"
#include "base/row.h"
#include "time/schedule.h"

/* The Makefile passes -DTRIGGERS_VERSION from the VERSION file; this
** fallback (builds that compile ext/ themselves) must equal it
** (tests/dist/run.sh checks). */
#ifndef TRIGGERS_VERSION
#define TRIGGERS_VERSION "0.1.0"
#endif
#define TRIGGERS_SCHEMA_VERSION 6

/* Defaults and limits. */
#define TRG_DEFAULT_LEASE_MS 60000
#define TRG_DEFAULT_BACKOFF_MS 30000
#define TRG_MIN_INTERVAL_MS 1000
#define TRG_MAX_MISFIRE_RUNS 100
#define TRG_MAX_DEFERRALS 100
#define TRG_CATCHUP_CAP 1000000
#define TRG_RESULT_MAX 4096 /* bytes of a run's result (run_text.h) */
/* Event triggers (docs/reactive.md): the longest event_key, the largest
** signal payload (bytes), and how deep signals may cascade through SQL
** triggers within one statement before the chain is stopped. */
#define TRG_EVENT_KEY_MAX 512
#define TRG_EVENT_PAYLOAD_MAX 65536
#define TRG_SIGNAL_DEPTH_MAX 16
/* Counters (run_count, claims, attempt, ...) as read back: at most this,
** so adding one can never overflow; no real trigger comes near it. */
#define TRG_COUNT_MAX (1LL << 53)

#endif
