/*
** store.h -- the store: the one home of the extension's SQL. Every
** statement is a store_sql id whose text lives in the file of its concept
** (trigger_rows.c, run_rows.c, due.c, ...); callers outside ext/store/
** call the typed functions of those files' headers and never see a
** statement. A store is a connection and its cache of prepared statements
** (this file): each statement is prepared once, when first used, and kept
** until store_close.
**
** Shadow tables (in the database holding `triggers`, always `main`;
** schema.c has their layout and indexes):
**   triggers_data     one row per trigger: its definition and status
**   triggers_state    one row per trigger (same id): what a fire writes
**   triggers_rundata  one row per run (trigger_runs + retry_at, deferrals,
**                     incarnation, lease_ms)
**   triggers_config   key/value: schema_version and trigger_config keys
**   triggers_events   one row per lifecycle event (trigger_events)
**   triggers_calendar one row per day of a calendar (trigger_calendar_days)
*/
#ifndef TRIGGERS_STORE_H
#define TRIGGERS_STORE_H

#include "base/triggers_int.h"

/* Every statement, by the file that holds its text. */
typedef enum store_sql {
  /* trigger_rows.c */
  ST_TRIG_BY_ROWID,    /* ?1 id -> full row */
  ST_TRIG_BY_TID,      /* ?1 trigger_id -> full row */
  ST_TRIG_INSERT,      /* triggers_data's columns ?1.. */
  ST_STATE_INSERT,     /* ?1 id, triggers_state's columns ?2.. */
  ST_TRIG_UPDATE,      /* triggers_data's columns ?1.., ?(n+1) id */
  ST_STATE_UPDATE,     /* triggers_state's columns ?1.., ?(n+1) id */
  ST_TRIG_DELETE,      /* ?1 id */
  ST_STATE_DELETE,     /* ?1 id */
  ST_TRIG_EXISTS,      /* ?1 trigger_id -> 1 */
  ST_TRIG_DUPLICATE,   /* ?1 agent ?2 dedupe_key ?3 own id -> trigger_id */
  ST_TICK_STATUS,      /* ?1 id ?2 status ?3 enabled */
  ST_TICK_UPDATE_HOT,  /* ?1 id, the state columns a tick changes */
  ST_TICK_COUNTS,      /* the same but next_due_at and fire_at */
  ST_TICK_FIRE,        /* ?1 id, the schedule and claim counts of a fire
                          whose outcome columns are as stored */
  ST_TICK_FIRE_MANY,   /* the same of STORE_MANY rows: ?1 updated_at, then
                          id and fire_cols' others row after row */
  ST_QUARANTINE_DATA,  /* ?1 id ?2 status ?3 enabled (NULL: kept) */
  ST_QUARANTINE_STATE, /* ?1 id ?2 last_error ?3 now ?4 running (NULL: kept) */
  ST_EVENT_IDS,        /* ?1 event_key -> ids of its active event triggers */
  ST_EVENT_SAVE,       /* ?1 id, next_due_at, fire_at, event_* , updated_at */
  ST_EVENT_ANY_RUN,    /* -> 1 if an active event trigger waits on a
                          run:... key (a chain) */
  /* run_rows.c */
  ST_RUN_INSERT,           /* all run columns ?1..?RC_NCOL; OR IGNORE */
  ST_RUN_INSERT_MANY,      /* STORE_MANY run rows, columns row after row */
  ST_RUN_CLAIM_MANY,       /* STORE_MANY runs of one claim's shape: the
                         shared columns ?1.., then each row's own */
  ST_RUNS_MARK,            /* -> max(id) of the runs (NULL: none) */
  ST_RUNS_DROP_AFTER,      /* ?1 mark: delete the runs with id > mark */
  ST_RUN_BY_ID,            /* ?1 run_id -> rowid, run columns */
  ST_RUN_UPDATE,           /* a run's changing columns (status, lease, end,
                         retry...: run_state_cols) ?1.., then the rowid */
  ST_RUN_END,              /* a run's end (run_end_cols) ?1.., the rowid */
  ST_RUN_RUNNING,          /* ?1 rowid -> run_id if that run is running */
  ST_RUN_DELETE,           /* ?1 rowid */
  ST_RUN_CLOSE,            /* ?1 rowid ?2 status ?3 error ?4 finished_at */
  ST_RUN_PENDING_FOR,      /* ?1 trigger_id ?2 incarnation -> 1 if a run is
                         running or a retry/deferral is pending */
  ST_RUN_HOLDING_FOR,      /* ?1 trigger_id ?2 incarnation -> 1 if a run is
                              running (its newest runs first) */
  ST_RUN_LAST_INCARNATION, /* ?1 trigger_id -> the highest incarnation of
                              its runs */
  ST_RUN_LATEST_ATTEMPT,   /* ?1 trigger_id ?2 incarnation ?3 scheduled_for
                              -> rowid, run columns of its last attempt */
  /* due.c */
  ST_DUE,         /* ?1 now ?2 limit ?4,?5 after -> full rows by (next_due_at,
             trigger_id), then the state row's copies */
  ST_DUE_AGENTS,  /* ?1 now ?2 limit ?3 agents JSON array */
  ST_RUNS_LEASED, /* ?1 now ?2 limit -> running runs past lease */
  ST_RUNS_RETRY,  /* ?1 now ?2 limit -> runs to re-offer */
  ST_RUNS_ANY,    /* ?1 now -> 1 if either of the two above finds a
                          run */
  ST_TICK_ANY,    /* ?1 now -> 1 if a trigger is due or ST_RUNS_ANY */
  /* wake.c */
  ST_WAKE_TRIGGERS,         /* -> (next_due_at, fire_at, wake_mode) in
                               next_due_at order */
  ST_WAKE_TRIGGERS_AGENT,   /* ?1 agent (not '') -> the same for one agent */
  ST_WAKE_TRIGGERS_NOAGENT, /* the same for agent '' */
  ST_WAKE_RETRY,            /* -> min(retry_at) */
  ST_WAKE_LEASE,            /* -> min(lease_until) of running runs */
  /* txn.c */
  ST_BEGIN,       /* BEGIN IMMEDIATE (store_txn_begin_cached) */
  ST_COMMIT,      /* COMMIT */
  ST_ROLLBACK,    /* ROLLBACK, prepared before BEGIN (store_txn) */
  ST_SAVEPOINT,   /* SAVEPOINT triggers_txn (inside a caller's txn) */
  ST_ROLLBACK_TO, /* ROLLBACK TO triggers_txn */
  ST_RELEASE,     /* RELEASE triggers_txn */
  /* config.c */
  ST_CONFIG_GET, /* ?1 key -> value */
  ST_CONFIG_SET, /* ?1 key ?2 value */
  ST_CONFIG_DEL, /* ?1 key */
  /* health.c: each ?1 now (failures: now - 24h; creations: now - the
     creation window) -> a count or min; the create error -> code,
     reason, at. Then the same narrowed by ?2 agents (JSON array) and ?3
     scope, either NULL (any), in the same order. */
  ST_HEALTH_ACTIVE,
  ST_HEALTH_PAUSED,
  ST_HEALTH_OVERDUE,
  ST_HEALTH_RUNNING,
  ST_HEALTH_EXPIRED_LEASES,
  ST_HEALTH_FAILURES,
  ST_HEALTH_NEXT_DUE,
  ST_HEALTH_STALLED,
  ST_HEALTH_CREATIONS,
  ST_HEALTH_CREATE_ERROR,
  ST_HEALTH_N_ACTIVE,
  ST_HEALTH_N_PAUSED,
  ST_HEALTH_N_OVERDUE,
  ST_HEALTH_N_RUNNING,
  ST_HEALTH_N_EXPIRED_LEASES,
  ST_HEALTH_N_FAILURES,
  ST_HEALTH_N_NEXT_DUE,
  ST_HEALTH_N_STALLED,
  ST_HEALTH_N_CREATIONS,
  ST_HEALTH_N_CREATE_ERROR,
  /* prune.c */
  ST_PRUNE_ANY,           /* ?1 before -> 1 if a run is prunable */
  ST_PRUNE_DELETE,        /* ?1 before ?2 limit: delete prunable runs */
  ST_PRUNE_EVENTS_ANY,    /* ?1 before -> 1 if an event is older */
  ST_PRUNE_EVENTS_DELETE, /* ?1 before ?2 limit: delete older events */
  /* events.c */
  ST_EVENT_INSERT, /* ?1 at ?2 agent ?3 scope ?4 trigger_id ?5 kind ?6 code
                      ?7 detail */
  /* json.c */
  ST_JSON_IS_OBJECT, /* ?1 text -> 1 a JSON object, 0 other JSON */
  ST_JSON_EACH,      /* ?1 JSON -> key, type, value, JSON text, id, parent */
  ST_JSON_TREE,      /* every node: key, type, atom, NULL, id, parent */
  ST_JSON_SET,     /* ?1 object (NULL: {}) ?2 JSON ?3 path -> ?1 with ?3 = ?2 */
  ST_JSON_DUP_KEY, /* ?1 object -> its first key given twice */
  ST_JSON_REMOVE,  /* ?1 object ?2 key -> ?1 without that member */
  ST_JSON_USAGE,   /* ?1 usage -> is an object, cost's type and value,
                      tokens' type and value */
  /* agent.c */
  ST_AGENT_FAILURE,   /* ?1 agent ?2 now -> its latest failed run */
  ST_AGENT_SUCCESSES, /* ?1 agent ?2 now ?3 limit -> its latest successes */
  ST_AGENT_PENDING,   /* ?1 agent ?2 limit -> its scheduled triggers */
  ST_AGENT_HINTS,     /* ?1 agent -> running, deferred, paused (0/1) */
  ST_AGENT_AWAITING,  /* ?1 agent ?2 since ?3 now -> a create awaits
                         confirmation (0/1) */
  ST_AGENT_ACTIVE,    /* ?1 agent ?2 scope -> active triggers */
  ST_AGENT_CREATED,   /* ?1 agent ?2 scope ?3 since -> created after it */
  ST_AGENT_USER,      /* ?1 agent ?2 user ?3 since -> active, created after */
  ST_AGENT_ID_HELD,   /* ?1 trigger_id ?2 agent -> 1 if a trigger has it or
                         another agent's runs do */
  /* ical.c: ?1 agents (JSON array) ?2 scope, either NULL (any) */
  ST_ICAL_TRIGGERS, /* -> full rows of the scheduled triggers */
  ST_ICAL_RUNS,     /* ?3 from ?4 to ?5 limit -> runs finished in range */

  /* calendar_rows.c */
  ST_CAL_INSERT,   /* ?1 calendar ?2 day ?3 name; OR IGNORE */
  ST_CAL_BY_ID,    /* ?1 id -> calendar, day, name */
  ST_CAL_UPDATE,   /* ?1 id ?2 calendar ?3 day ?4 name */
  ST_CAL_DELETE,   /* ?1 id */
  ST_CAL_DAYS,     /* ?1 calendar ?2 limit -> day, ascending */
  ST_CAL_COUNT,    /* ?1 calendar -> its days */
  ST_CAL_TRIGGERS, /* ?1 calendar -> ids of its scheduled triggers */

  /* budget.c */
  ST_BUDGET_TRIGGER,    /* ?1 trigger_id ?2 incarnation ?3 from ?4 to -> runs,
                        summed cost */
  ST_BUDGET_AGENT,      /* ?1 agent ?2 from ?3 to -> summed cost */
  ST_BUDGET_HELD,       /* ?1 now -> triggers paused by a budget */
  ST_BUDGET_AGENT_HELD, /* ?1 now ?2 window ?3 cost -> due triggers held
                             by their agent's budget */
  ST_BUDGET_N_HELD,     /* the two narrowed: ?4 agents ?5 scope */
  ST_BUDGET_N_AGENT_HELD,
  ST_BUDGET_AGENT_PAUSED, /* ?1 agent -> how many of its triggers a budget
                             paused, the first trigger_id, its last_error */
  ST_COUNT
} store_sql;

/* Rows per multi-row statement (the tick's write-behind). */
#define STORE_MANY 16

typedef struct store {
  sqlite3 *db;
  sqlite3_stmt *st[ST_COUNT];
  unsigned char used[ST_COUNT]; /* the ids of st[] prepared, in order: the
                                   loops over a store's statements visit
                                   only these (nused) */
  int nused;
  int err; /* first error a helper could not return (config reads); the
              transaction checks it before COMMIT: store_txn_end */
  struct store_preload *preload; /* the configured preload query, once a
                                    claim needed it (preload_sql.h) */
  /* Set with preload by preload_sql.c: store_reset_all ends its step
  ** (drop 0), store_close frees it (drop 1). A hook, so the store's core
  ** does not depend on the preload, which reads the config through it. */
  void (*preload_end)(struct store *s, int drop);
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
/* The error behind a failed store call (never OK, ROW or DONE). */
int store_err(store *s);
/* Turn off the page cache's spilling into the database before COMMIT on
** db (PRAGMA cache_spill): the preload library does on dqlite's VFS. */
int store_no_cache_spill(sqlite3 *db);

/* A read of several rows in progress: opened by a typed function, read by
** its typed next function, closed by store_cursor_close (which resets the
** statement; the texts of a row read are valid until then or the next). */
typedef struct store_cursor {
  sqlite3_stmt *st;
  store_sql which;
} store_cursor;
void store_cursor_close(store_cursor *c);

/* ---- for the files of ext/store/ ----------------------------------------
** The text of a statement: sqlite3_malloc'd, NULL when out of memory. */
typedef char *(*store_text_fn)(store_sql which);
/* Statement `which`, reset and cleared, ready to bind: prepared from
** text(which) the first time. NULL on error (store_err). */
sqlite3_stmt *store_stmt(store *s, store_sql which, store_text_fn text);
/* Step a bound statement that returns no rows (rc: what binding it
** returned) and reset it: SQLITE_OK or the error. */
int store_step_done(sqlite3_stmt *st, int rc);

#endif
