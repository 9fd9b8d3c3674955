/*
** row.h -- the row model: the columns of a trigger and of a run (in the
** order of the `triggers` and `trigger_runs` tables, then the internal
** ones), and a row of values, each NULL, an integer or a text, as the
** store reads and writes it (row.c, the only file that sets a value's
** text and who owns it). No SQL here: store/columns.c says how each
** column is declared and which table holds it.
*/
#ifndef TRIGGERS_ROW_H
#define TRIGGERS_ROW_H

#include <stdint.h>

typedef int64_t i64;

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
  TC_EVENT_KEY, /* event triggers (docs/reactive.md) */
  TC_DEBOUNCE_MS,
  TC_DEBOUNCE_MAX_MS,
  /* budgets (docs/reactive.md#budgets) */
  TC_BUDGET_WINDOW_MS,
  TC_BUDGET_RUNS,
  TC_BUDGET_COST,
  TC_BUDGET_POLICY,
  /* calendar triggers (docs/calendar.md) */
  TC_RRULE,
  TC_CALENDAR,
  TC_CALENDAR_POLICY,
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
  TC_ACTION_SQL, /* a SQL job's statements (docs/sql-jobs.md), or NULL */
  TC_NPUBLIC,
  /* internal (shadow table only) */
  TC_FIRE_AT = TC_NPUBLIC, /* next_due_at + jitter; NULL when not claimable */
  TC_CLAIMS,               /* occurrences claimed, for max_runs */
  TC_RUNNING,              /* runs in status running */
  TC_FAIL_STREAK,          /* consecutive failed occurrences */
  TC_INCARNATION, /* 1, 2, ...: which trigger of this trigger_id (a DELETE
                     and a new INSERT of the id make the next one) */
  /* an event trigger's pending signals (docs/reactive.md): how many were
  ** folded into the next run, the last one's time and payload, the first
  ** one's time (debounce_max_ms counts from it); 0 / NULL when none */
  TC_EVENT_COUNT,
  TC_EVENT_AT,
  TC_EVENT_PAYLOAD,
  TC_EVENT_FIRST_AT,
  TC_NCOL
};

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
  RC_USAGE,               /* JSON reported with the finish (budgets) */
  RC_CANCEL_REQUESTED_AT, /* set by trigger_run_cancel */
  RC_NPUBLIC,
  RC_RETRY_AT = RC_NPUBLIC, /* re-offer at (deferred or retry pending) */
  RC_DEFERRALS,
  RC_INCARNATION, /* the incarnation of the trigger that made the run */
  RC_LEASE_MS, /* the claim's lease length: trigger_run_heartbeat's default */
  RC_RETRY_OF, /* a run trigger_run_retry queued: the run_id it retries */
  RC_NCOL
};

/* One value of a row: NULL, integer or owned text (sqlite3_malloc).
** oom: the last trg_val_set_text() failed for lack of memory; a row holding
** such a value is refused by every save (SQLITE_NOMEM), so a call site
** that ignores the result can never write a stale value.
** bad: the value as read back from a shadow table is not one the
** extension writes (changed outside it,
** docs/tables.md#changed-shadow-tables): the SQLite type found
** (SQLITE_TEXT, _FLOAT, _BLOB, ...) when it does not fit the column, or a
** TRG_BAD_* reason; 0 for every value set by code. An integer column's
** text or real keeps its text in t (i is 0), for the message.
** Such a row is checked (trigger_check) and never saved whole. */
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
/* A text that is not valid UTF-8 or holds a NUL: the bytes as stored and
** their length in i, until store_stored_text_repair (store/stored.h) says what
** is wrong and makes it valid (then i is 0). */
#define TRG_BAD_TEXT 10

/* What the database holds of a trigger's status and schedule, as the
** row was read (store_row_read notes it) or as a tick last wrote its
** status (trg_row_note_stored). A tick's write of the row compares with it
** (tick/write_behind.c): a status that changed is written at once and is
** an event; a status and a schedule that did not are not written.
** known 0: nothing to compare with (a new row, or a status too long to be
** one: a write then writes the status and schedule, and tells no event). */
typedef struct trg_stored {
  i64 enabled, due, fire; /* enabled, next_due_at, fire_at */
  /* the outcome columns as read (trg_row_note_outcome): run_count,
  ** last_run_at, fail_streak, and the texts of last_status and last_error
  ** by address (in r->arena: a text set since is another) */
  i64 run_count, last_run_at, fail_streak;
  const char *last_status, *last_error;
  unsigned char outcome_nulls; /* bit k: outcome column k NULL */
  unsigned char outcome_known; /* 0 once a write may have changed them */
  unsigned char known, enabled_null, due_null, fire_null;
  unsigned char sched_ok; /* next_due_at and fire_at were values, not bad */
  char status[16];
} trg_stored;

typedef struct trg_row {
  i64 id; /* rowid in triggers_data; 0 for a new row */
  trg_val v[TC_NCOL];
  trg_stored stored; /* the status and schedule as stored */
  char *arena;       /* the texts as read (store_row_read), one allocation */
  /* fire_json.c's quoted texts of this row (in the tick's arena, which
  ** outlives the row); NULL again after trg_row_clear. */
  struct row_json *json;
} trg_row;

void trg_row_init(trg_row *r);  /* a fresh, all-NULL row */
void trg_row_clear(trg_row *r); /* free texts, back to all-NULL */
/* dst: the values of src, its texts borrowed (src must outlive dst). */
void trg_row_borrow(trg_row *dst, const trg_row *src);
/* The texts of a row read back: text[i] (n[i] bytes; NULL for a column
** without one) copied into the row's one allocation (r->arena, freed by
** trg_row_clear) and borrowed by its values, whose null, bad and i the reader
** set. SQLITE_OK or SQLITE_NOMEM. */
int trg_row_set_read_texts(trg_row *r, const char *const *text, const int *n);
/* r's status, enabled, next_due_at and fire_at are what the database
** holds now: r->stored. */
void trg_row_note_stored(trg_row *r);
/* Whether r's status and enabled, or its next_due_at and fire_at, are
** those of r->stored (never when it is not known). */
int trg_row_status_stored(const trg_row *r);
int trg_row_schedule_stored(const trg_row *r);
/* r's outcome columns (run_count, last_run_at, last_status, last_error,
** fail_streak) as read back (store_row_read, after trg_row_note_stored,
** which forgets them: so does trg_row_forget_outcome after any write
** that names them); whether they still hold those values. A write that
** leaves them as stored need not name them (store_trigger_save_tick). */
void trg_row_note_outcome(trg_row *r);
void trg_row_forget_outcome(trg_row *r);
int trg_row_outcome_stored(const trg_row *r);
void trg_val_set_null(trg_val *v);
void trg_val_set_int(trg_val *v, i64 i);
int trg_val_set_text(trg_val *v, const char *t); /* SQLITE_OK / NOMEM */
/* Takes an sqlite3_malloc'd string; NULL = out of memory (poisons v). */
int trg_val_set_owned(trg_val *v, char *t);
/* Points at t (not NULL), which the caller keeps alive, never frees. */
void trg_val_borrow(trg_val *v, const char *t);
const char *trg_val_text(const trg_val *v); /* "" when NULL */

/* A run: its rowid in triggers_rundata and its values. */
typedef struct trg_run {
  i64 id;
  trg_val v[RC_NCOL];
} trg_run;
void trg_run_clear(trg_run *r); /* free texts, back to all-NULL */

/* dst: a copy of src with a text of its own (its stored type, bad, kept).
** SQLITE_OK or SQLITE_NOMEM. */
int trg_val_copy(trg_val *dst, const trg_val *src);
/* v's text as read back: its own copy of the n bytes at t (v's null, bad
** and i as the reader set them). SQLITE_OK or SQLITE_NOMEM. */
int trg_val_set_read_text(trg_val *v, const char *t, int n);
/* 1 when a value of v[0..n) could not be set (oom): nothing of the row
** may be written. */
int trg_vals_poisoned(const trg_val *v, int n);

#endif
