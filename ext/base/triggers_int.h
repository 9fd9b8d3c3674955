/*
** triggers_int.h -- the internal header shared by the SQLite-facing files
** (as fts5Int.h is for FTS5): version, the per-connection context, the
** column map of the `triggers` table, the row of values, limits, and
** the error helper; the per-connection context is context.h.
**
** Included only by files that talk to SQLite; the pure modules (civil, tz,
** tzdb, cron, schedule, sha256) never include it.
*/
#ifndef TRIGGERS_INT_H
#define TRIGGERS_INT_H

#include <sqlite3ext.h>
#include <stdint.h>

#include "base/context.h"
#include "time/schedule.h"

typedef int64_t i64;

/* The Makefile passes -DTRIGGERS_VERSION from the VERSION file; this
** fallback (builds that compile ext/ themselves) must equal it
** (tests/dist/run.sh checks). */
#ifndef TRIGGERS_VERSION
#define TRIGGERS_VERSION "0.1.0"
#endif
#define TRIGGERS_SCHEMA_VERSION 4

/* Columns of the `triggers` virtual table, in declaration order. The
** shadow table triggers_data stores them in the same order after `id`,
** followed by the internal columns. */
enum {
  TC_TRIGGER_ID,
  TC_AGENT_ID,
  TC_SCOPE,
  TC_DISPLAY_NAME,
  TC_INSTRUCTIONS,
  TC_TRIGGER_TYPE,
  TC_INTERVAL_MS,
  TC_SCHEDULED_AT,
  TC_CRON_EXPRESSION,
  TC_TIMEZONE,
  TC_START_AT,
  TC_END_AT,
  TC_WAKE_MODE,
  TC_CREATED_BY,
  TC_ENABLED,
  TC_MAX_RUNS,
  TC_MISFIRE_POLICY,
  TC_OVERLAP_POLICY,
  TC_MAX_ATTEMPTS,
  TC_BACKOFF_MS,
  TC_JITTER_MS,
  TC_WINDOW_MS,
  TC_PAUSE_AFTER_FAILURES,
  TC_METADATA,
  TC_STATUS,
  TC_RUN_COUNT,
  TC_NEXT_DUE_AT,
  TC_LAST_RUN_AT,
  TC_LAST_STATUS,
  TC_LAST_ERROR,
  TC_DEDUPE_KEY,
  TC_CREATED_AT,
  TC_UPDATED_AT,
  TC_NPUBLIC,
  /* internal (shadow table only) */
  TC_FIRE_AT = TC_NPUBLIC, /* next_due_at + jitter; NULL when not claimable */
  TC_CLAIMS,               /* occurrences claimed, for max_runs */
  TC_RUNNING,              /* runs in status running */
  TC_FAIL_STREAK,          /* consecutive failed occurrences */
  TC_INCARNATION, /* 1, 2, ...: which trigger of this trigger_id (a DELETE
                     and a new INSERT of the id make the next one) */
  TC_NCOL
};

/* Column kinds: 'T' text, 'I' integer, 'S' instant (ms or ISO text),
** 'J' JSON object text. ro: computed, rejected on write. */
typedef struct trg_coldef {
  const char *name;
  char kind;
  char ro;
  const char *decl; /* column type and constraint in triggers_data */
} trg_coldef;
extern const trg_coldef trg_cols[TC_NCOL];

/* Columns of `trigger_runs` (and of triggers_rundata, which adds retry_at,
** deferrals, incarnation and lease_ms). */
enum {
  RC_RUN_ID,
  RC_TRIGGER_ID,
  RC_AGENT_ID,
  RC_SCHEDULED_FOR,
  RC_ATTEMPT,
  RC_STATUS,
  RC_OWNER,
  RC_CLAIMED_AT,
  RC_LEASE_UNTIL,
  RC_FINISHED_AT,
  RC_LATENCY_MS,
  RC_ERROR,
  RC_RESULT,
  RC_PAYLOAD,
  RC_NPUBLIC,
  RC_RETRY_AT = RC_NPUBLIC, /* re-offer at (deferred or retry pending) */
  RC_DEFERRALS,
  RC_INCARNATION, /* the incarnation of the trigger that made the run */
  RC_LEASE_MS, /* the claim's lease length: trigger_run_heartbeat's default */
  RC_NCOL
};
extern const trg_coldef run_cols[RC_NCOL];

/* One value of a row: NULL, integer or owned text (sqlite3_malloc).
** oom: the last val_set_text() failed for lack of memory; a row holding
** such a value is refused by every save (SQLITE_NOMEM), so a call site
** that ignores the result can never write a stale value.
** bad: the value as read back from a shadow table is not one the
** extension writes (changed outside it, DESIGN.md §4): the SQLite type
** found (SQLITE_TEXT, _FLOAT, _BLOB, ...) when it does not fit the column,
** or a TRG_BAD_* reason; 0 for every value set by code. An integer
** column's text or real keeps its text in t (i is 0), for the message.
** Such a row is checked (trg_check) and never saved whole. */
typedef struct trg_val { /* 24 bytes: a busy tick holds thousands of rows */
  i64 i;
  char *t;
  unsigned char null;
  unsigned char oom;
  unsigned char borrowed; /* t is not its own (a row's arena, a literal) */
  unsigned char bad;
} trg_val;
/* trg_val.bad beyond SQLite's type codes (1-5). */
#define TRG_BAD_COPY 8 /* triggers_state's copy of the column differs */
#define TRG_BAD_JSON 9 /* metadata / payload that is not a JSON object */

typedef struct trg_row {
  i64 id; /* rowid in triggers_data; 0 for a new row */
  trg_val v[TC_NCOL];
  char *arena; /* the texts as read (store_row_read), one allocation */
  /* fire_json.c's quoted texts of this row (in the tick's arena, which
  ** outlives the row); NULL again after row_clear. */
  struct row_json *json;
} trg_row;

void row_init(trg_row *r);  /* a fresh, all-NULL row */
void row_clear(trg_row *r); /* free texts, back to all-NULL */
void val_set_null(trg_val *v);
void val_set_int(trg_val *v, i64 i);
int val_set_text(trg_val *v, const char *t); /* SQLITE_OK / NOMEM */
/* Takes an sqlite3_malloc'd string; NULL = out of memory (poisons v). */
int val_set_owned(trg_val *v, char *t);
/* Points at t (not NULL), which the caller keeps alive, never frees. */
void val_borrow(trg_val *v, const char *t);
const char *val_text(const trg_val *v); /* "" when NULL */

/* Defaults and limits. */
#define TRG_DEFAULT_LEASE_MS 60000
#define TRG_DEFAULT_BACKOFF_MS 30000
#define TRG_MIN_INTERVAL_MS 1000
#define TRG_MAX_MISFIRE_RUNS 100
#define TRG_MAX_DEFERRALS 100
#define TRG_CATCHUP_CAP 1000000
#define TRG_RESULT_MAX 4096 /* bytes of a run's result (run_text.h) */
/* Counters (run_count, claims, attempt, ...) as read back: at most this,
** so adding one can never overflow; no real trigger comes near it. */
#define TRG_COUNT_MAX (1LL << 53)

/* Error text for a function call: "fname: message", then the code (the
** order matters: a later sqlite3_result_error resets the code). */
void trg_result_error(sqlite3_context *ctx, int code, const char *fname,
                      const char *fmt, ...);

/*
** An integer-valued SQL value, as SQLite's INTEGER affinity reads one: an
** INTEGER, a REAL that is a whole number within the instant range, or
** TEXT that the affinity turns into either ('300000', ' 300000 ', '3e5';
** not '0x10', '5 min', '300000.5'). 1 and *out; 0 when it is not one; -1
** out of memory.
*/
int trg_int_of(sqlite3_value *v, i64 *out);
/* What "not an integer" names for a column or key: " number of
** milliseconds" for names ending in _ms, else "". */
const char *trg_int_unit(const char *name);
/* A value's text for a message: at most 60 bytes, cut on a UTF-8
** boundary, "..." when cut. buf holds TRG_ECHO_MAX bytes. */
#define TRG_ECHO_MAX 72
const char *trg_echo(const char *text, char *buf);

#endif
