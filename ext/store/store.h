/*
** store.h -- all SQL text of the extension: the shadow tables and their
** indexes, the schema version, prepared-statement caches, row load/save,
** transactions and the config table.
**
** Shadow tables (in the database holding `triggers`, always `main`):
**   triggers_data     one row per trigger: its definition and status
**   triggers_state    one row per trigger (same id): what a fire writes
**                     (schedule, counters, last_*; see store.c)
**   triggers_rundata  one row per run (trigger_runs + retry_at, deferrals,
**                     lease_ms)
**   triggers_config   key/value: schema_version and trigger_config keys
*/
#ifndef TRIGGERS_STORE_H
#define TRIGGERS_STORE_H

#include "base/triggers_int.h"

typedef enum store_sql {
  ST_TRIG_BY_ROWID,  /* ?1 id -> full row */
  ST_TRIG_BY_TID,    /* ?1 trigger_id -> full row */
  ST_TRIG_INSERT,    /* triggers_data's columns ?1.. */
  ST_STATE_INSERT,   /* ?1 id, triggers_state's columns ?2.. */
  ST_TRIG_UPDATE,    /* triggers_data's columns ?1.., ?(n+1) id */
  ST_STATE_UPDATE,   /* triggers_state's columns ?1.., ?(n+1) id */
  ST_TRIG_DELETE,    /* ?1 id */
  ST_STATE_DELETE,   /* ?1 id */
  ST_TRIG_EXISTS,    /* ?1 trigger_id -> 1 */
  ST_TRIG_DUPLICATE, /* ?1 agent ?2 dedupe_key ?3 own id -> trigger_id */
  ST_DUE, /* ?1 now ?2 limit ?4,?5 after -> full rows by (next_due_at, trigger_id),
             then the state row's copies (STORE_DUE_COPIES) */
  ST_DUE_AGENTS,      /* ?1 now ?2 limit ?3 agents JSON array */
  ST_TICK_STATUS,     /* ?1 id ?2 status ?3 enabled */
  ST_TICK_UPDATE_HOT, /* ?1 id, the state columns a tick changes */
  ST_RUN_INSERT,      /* all run columns ?1..?RC_NCOL; OR IGNORE */
  ST_RUN_INSERT_MANY, /* STORE_MANY run rows, columns row after row */
  ST_RUNS_MARK,       /* -> max(id) of the runs (NULL: none) */
  ST_RUNS_DROP_AFTER, /* ?1 mark: delete the runs with id > mark */
  ST_RUN_BY_ID,       /* ?1 run_id -> rowid, run columns */
  ST_RUN_UPDATE,      /* a run's changing columns (status, lease, end,
                         retry...: run_state_cols) ?1.., then the rowid */
  ST_RUN_RUNNING,     /* ?1 rowid -> run_id if that run is running */
  ST_RUN_DELETE,      /* ?1 rowid */
  ST_RUNS_LEASED,     /* ?1 now ?2 limit -> running runs past lease */
  ST_RUNS_RETRY,      /* ?1 now ?2 limit -> runs to re-offer */
  ST_RUNS_ANY,  /* ?1 now -> 1 if either of the two above finds a run; then 1
                 if one of the three below finds a row */
  ST_DUE_STRAY, /* ?2 limit -> full rows (as ST_DUE) whose next_due_at is
                   past the instant range or not a number */
  ST_RUNS_STRAY_LEASE, /* ?2 limit -> running runs whose lease_until is NULL,
                          past the range or not a number */
  ST_RUNS_STRAY_RETRY, /* ?2 limit -> runs whose retry_at is past the range
                          or not a number */
  ST_JSON_IS_OBJECT,   /* ?1 text -> 1 a JSON object, 0 other JSON */
  ST_JSON_EACH,        /* ?1 JSON -> key, type, value, JSON text */
  ST_RUN_PENDING_FOR,  /* ?1 trigger_id ?2 incarnation -> 1 if a run is running
                         or a retry/deferral is pending */
  ST_RUN_LAST_INCARNATION, /* ?1 trigger_id -> the highest incarnation of
                              its runs */
  ST_WAKE_TRIGGERS, /* -> (next_due_at, fire_at, wake_mode) in next_due_at order */
  ST_WAKE_TRIGGERS_AGENT,   /* ?1 agent (not '') -> the same for one agent */
  ST_WAKE_TRIGGERS_NOAGENT, /* the same for agent '' */
  ST_WAKE_RETRY,            /* -> min(retry_at) */
  ST_WAKE_LEASE,            /* -> min(lease_until) of running runs */
  ST_BEGIN,                 /* BEGIN IMMEDIATE (store_txn_begin_cached) */
  ST_COMMIT,                /* COMMIT */
  ST_ROLLBACK,              /* ROLLBACK, prepared before BEGIN (store_txn) */
  ST_QUARANTINE_DATA,       /* ?1 id ?2 status ?3 enabled (NULL: kept) */
  ST_QUARANTINE_STATE, /* ?1 id ?2 last_error ?3 now ?4 running (NULL: kept) */
  ST_RUN_CLOSE,        /* ?1 rowid ?2 status ?3 error ?4 finished_at */
  ST_SAVEPOINT,        /* SAVEPOINT triggers_txn (inside a caller's txn) */
  ST_ROLLBACK_TO,      /* ROLLBACK TO triggers_txn */
  ST_RELEASE,          /* RELEASE triggers_txn */
  ST_CONFIG_GET,       /* ?1 key -> value */
  ST_CONFIG_SET,       /* ?1 key ?2 value */
  ST_COUNT
} store_sql;

/* Rows per multi-row statement (the tick's write-behind, tick.c). */
#define STORE_MANY 16

typedef struct store {
  sqlite3 *db;
  sqlite3_stmt *st[ST_COUNT];
  int err; /* first error a helper could not return (config reads); the
              transaction checks it before COMMIT: store_txn_end */
} store;

void store_init(store *s, sqlite3 *db);
void store_close(store *s); /* finalizes every cached statement */
/* A store of its own (NULL: out of memory), and its destructor: the
** tick's statements that the connection keeps (context.h). */
store *store_new(sqlite3 *db);
void store_free(void *s);
/* Reset every statement: none stays active across COMMIT or calls. */
void store_reset_all(store *s);
/* What the statements cost from store_cost_start() on: VM steps and
** full-scan steps (trigger_last_tick). */
void store_cost_start(store *s);
void store_cost(const store *s, i64 *vm_steps, i64 *fullscan_steps);
/* A reset, cleared statement ready to bind; NULL on error (see db errmsg). */
sqlite3_stmt *store_stmt(store *s, store_sql which);

/* Schema: create shadow tables, indexes and version (xCreate), check the
** version (xConnect), drop and rename (xDestroy, xRename). */
int store_create(sqlite3 *db, char **err);
int store_check(sqlite3 *db, char **err);
/* Bring an older schema version up to this one (trigger_install). */
int store_migrate(sqlite3 *db, char **err);
int store_drop(sqlite3 *db);
int store_installed(sqlite3 *db); /* 1 when triggers_data exists in main */
/* Connect main.triggers on this connection (the context keeps the tick's
** statements only while it is connected: context.h). */
void store_connect_table(sqlite3 *db);
/* trigger_install(): checks names, creates both virtual tables. */
int store_install(sqlite3 *db, char **err);

/* A sqlite3_malloc'd copy of the n bytes at t plus a NUL; NULL on OOM. */
char *trg_strndup(const char *t, int n);

/* Rows. first = index of the first row column in the result. */
int store_row_read(sqlite3_stmt *st, int first, trg_row *r);
/* 1 when trigger column col is stored in triggers_state, 0 triggers_data. */
int store_col_in_state(int col);
/* The FROM clause that joins a trigger's two tables, aliased d and s. */
#define STORE_TRIGGER_FROM \
  "main.triggers_data AS d JOIN main.triggers_state AS s ON s.id = d.id"
/* INSERT into both tables; sets r->id. */
int store_trigger_insert(store *s, trg_row *r);
int store_trigger_delete(store *s, i64 id);
/* Load a trigger by trigger_id: SQLITE_ROW found, SQLITE_DONE not. */
int store_trigger_load(store *s, const char *trigger_id, trg_row *r);
int store_trigger_load_id(store *s, i64 id, trg_row *r); /* the same, by id */
/* Step a bound full-row lookup (ST_TRIG_BY_*) once and reset it:
** SQLITE_ROW with r read, SQLITE_DONE when there is none. */
int store_row_step(sqlite3_stmt *st, trg_row *r);
int store_trigger_save(store *s, const trg_row *r); /* both tables, by r->id */
/* UPDATE of only the columns a tick changes: the state row (schedule,
** counters, last_*, updated_at), and with status_changed also status and
** enabled in triggers_data; else triggers_data is not written at all. */
int store_trigger_save_tick(store *s, const trg_row *r, int status_changed);

/* A row changed outside the extension (DESIGN.md §4) is taken out of the
** tick without writing any of its other values: status (UPDATE OR
** IGNORE) and enabled = 0 when paused, next_due_at and fire_at NULL,
** last_error = why, updated_at = now, running when >= 0 (else kept). */
int store_trigger_quarantine(store *s, i64 id, const char *status, int paused,
                             const char *why, i64 now, i64 running);

typedef struct run_row {
  i64 id;
  trg_val v[RC_NCOL];
} run_row;
void run_clear(run_row *r);
int store_run_read(sqlite3_stmt *st, int first, run_row *r);
int store_run_load(store *s, const char *run_id, run_row *r);
int store_run_insert(store *s, const run_row *r); /* changes() 0 = existed */
/* The incarnation of a trigger (re)created under trigger_id: one more than
** the highest of the runs in its history (an index probe), 1 without. */
int store_next_incarnation(store *s, const char *trigger_id, i64 *inc);
/* UPDATE of a run's changing columns (never its identity or payload). */
int store_run_save(store *s, const run_row *r);
/* DELETE of one run by rowid (trigger_runs): a running run is refused,
** its run_id in *running (sqlite3_malloc'd), SQLITE_CONSTRAINT_CHECK. */
int store_run_delete(store *s, i64 id, char **running);
/* A run whose stored row cannot be used any more is finished with only
** status, error and finished_at = now written (retry_at cleared). */
int store_run_close(store *s, i64 id, const char *status, const char *error,
                    i64 now);
/* The tick's write-behind (tick.c), STORE_MANY rows per statement:
** the highest run rowid (*mark, 0 when there is none); INSERT OR IGNORE
** of n runs (*all_new: every one was inserted, none existed); delete the
** runs inserted after a mark (undoes an insert_all whose rows did not all
** go in); the state columns a tick writes (store_trigger_save_tick with
** status unchanged) of n rows. */
int store_run_mark(store *s, i64 *mark);
int store_run_insert_all(store *s, const run_row *runs, int n, int *all_new);
int store_runs_drop_after(store *s, i64 mark);
int store_tick_hot_all(store *s, trg_row *const *rows, int n);

/* ---- the tick's reads (the probes of DESIGN.md §6) ----------------------
**
** A pass over the due triggers reads them in claim order, (next_due_at,
** the state row's trigger_id), in batches: pos is where it stands (start:
** {INT64_MIN, NULL}; store_due_pos_free when done). */
typedef struct store_due_pos {
  i64 due;
  char *key; /* sqlite3_malloc'd; NULL: before every trigger_id */
} store_due_pos;
/* Up to want triggers due at now (next_due_at <= now) after pos, of the
** agents in the JSON array `agents` (NULL: all), into rows[0..*n), pos
** moved past them. A row whose state row's copy of trigger_id or
** agent_id differs from its own (changed outside the extension) has the
** value marked TRG_BAD_COPY, so that its check pauses it. */
int store_due_read(store *s, i64 now, const char *agents, store_due_pos *pos,
                   trg_row *rows, int want, int *n);
void store_due_pos_free(store_due_pos *pos);
/* Up to max triggers the due probe never reaches (next_due_at past the
** instant range or not a number: changed outside the extension), as
** store_due_read reads them. */
int store_due_strays(store *s, trg_row *rows, int max, int *n);

/* The runs the tick takes up before the due triggers. */
typedef enum store_runs_kind {
  STORE_RUNS_LEASED,      /* running, lease_until <= now */
  STORE_RUNS_RETRY,       /* retry_at <= now: to re-offer */
  STORE_RUNS_STRAY_LEASE, /* running, lease_until NULL or out of range */
  STORE_RUNS_STRAY_RETRY  /* retry_at out of range or not a number */
} store_runs_kind;
/* Every run of that kind at now, in the probe's order, that keep(arg, run)
** accepts (NULL: all), appended to *runs (sqlite3_realloc'd, *n of them;
** the caller run_clears and frees them). *read counts the rows read. */
int store_runs_read(store *s, store_runs_kind kind, i64 now,
                    int (*keep)(void *arg, const run_row *run), void *arg,
                    run_row **runs, int *n, i64 *read);
/* Whether the run probes would find anything at now: *due, a lease passed
** or a run waits to be re-offered (STORE_RUNS_LEASED / _RETRY); *strays,
** a row the probes never reach (STORE_RUNS_STRAY_*, store_due_strays). */
int store_runs_any(store *s, i64 now, int *due, int *strays);
/* 1 when a run of (trigger_id, incarnation) is running or a retry or
** deferral of it is pending, 0 when none, <0 an error. */
int store_run_pending(store *s, const char *trigger_id, i64 incarnation);

/* ---- trigger_next_wakeup's reads ---------------------------------------- */

/* One trigger as the wakeup walk sees it: next_due_at and fire_at with
** their SQLite types (a value changed outside the extension may not be an
** integer), and wake_mode (NULL when NULL). */
typedef struct store_wake_row {
  int due_type, fire_type;
  i64 due, fire;
  const char *wake_mode;
} store_wake_row;
/* Walk the triggers with a next_due_at (agent NULL: all; else that
** agent's, '' included) in next_due_at order, calling visit until it
** returns nonzero or none are left. */
int store_wake_walk(store *s, const char *agent,
                    int (*visit)(void *arg, const store_wake_row *w),
                    void *arg);
/* The earliest retry_at (a retry or deferral pending) and lease_until (a
** running run) among the runs a tick with agents (JSON array; NULL: all)
** and wake_mode (NULL: any) would take: *have 0 when there is none. */
int store_wake_runs(store *s, const char *agents, const char *wake_mode,
                    int *have, i64 *at);

/* ---- trigger rows: lookups of trigger.c -------------------------------- */

/* 1 when a trigger has this trigger_id, 0 when none, <0 an error. */
int store_trigger_exists(store *s, const char *trigger_id);
/* The trigger_id (sqlite3_malloc'd) of an active trigger of agent_id other
** than row id with this dedupe_key, or NULL when there is none. */
int store_trigger_duplicate(store *s, const char *agent_id,
                            const char *dedupe_key, i64 id, char **existing);

/* Transactions: BEGIN IMMEDIATE in autocommit mode (the write lock up
** front, so WAL snapshot upgrades cannot fail), else a SAVEPOINT inside
** the caller's transaction. end() commits on rc==SQLITE_OK, else rolls
** back completely (ROLLBACK TO + RELEASE), leaving nothing open. The
** rollback resets the connection's error message, so end() keeps the
** failure's message first: report it with store_txn_errmsg().
** The undo statements are prepared before the transaction starts: after
** an out-of-memory error inside a SQL function, SQLite prepares nothing
** more until the outer statement ends, so a ROLLBACK prepared only then
** would fail and leave the transaction (and the write lock) open. */
typedef struct store_txn {
  int mode;
  store *s; /* BEGIN / COMMIT from this cache (begin_cached), else NULL */
  sqlite3_stmt *undo[2]; /* ROLLBACK, or ROLLBACK TO + RELEASE */
  int own_undo;          /* undo[] finalized by end() (not from the cache) */
  char msg[256];         /* the connection's error message when end() failed */
} store_txn;
int store_txn_begin(sqlite3 *db, store_txn *t);
/* The same, with BEGIN IMMEDIATE and COMMIT (or SAVEPOINT, ROLLBACK TO and
** RELEASE) prepared once in s. */
int store_txn_begin_cached(store *s, store_txn *t);
int store_txn_end(sqlite3 *db, store_txn *t, int rc);
/* The message of the failure end() rolled back, else sqlite3_errmsg(db). */
const char *store_txn_errmsg(const store_txn *t, sqlite3 *db);
/* The error behind a NULL from store_stmt (never OK, ROW or DONE). */
int store_err(store *s);

/* Config: text value or NULL (caller frees with sqlite3_free). */
char *store_config_get(store *s, const char *key);
int store_config_set(store *s, const char *key, const char *value);

/* Small one-off queries used by functions (prepared per call). */
int store_exec_i64(sqlite3 *db, const char *sql, i64 bind1, int nbind, i64 *out,
                   int *isnull);

/* ---- JSON through SQLite's json1 ----------------------------------------- */

/* 1 when text is a JSON object, 0 when it is other JSON or not JSON, <0
** an error (out of memory). */
int store_json_is_object(store *s, const char *text);
/* The members of a JSON object (elements of an array) in order: open,
** then next until it returns SQLITE_DONE (SQLITE_ROW: the member in m,
** valid until the next call), then close. One at a time per store. */
typedef struct store_json_member {
  const char *key;      /* the key; an array element's index as text */
  const char *type;     /* json_type: "text", "integer", "object", ... */
  sqlite3_value *value; /* the SQL value: NULL, text, number, JSON text */
  const char *text;     /* that value as text; NULL for null */
  const char *json;     /* the member as JSON text */
} store_json_member;
typedef struct store_json_each {
  store *s;
  sqlite3_stmt *st;
  store_json_member m;
} store_json_each;
int store_json_each_open(store *s, const char *json, store_json_each *it);
int store_json_each_next(store_json_each *it);
void store_json_each_close(store_json_each *it);

#endif
