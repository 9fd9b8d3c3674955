/*
** readdb.h -- the status server's own connection to a database: opened
** read-only (SQLITE_OPEN_READONLY, PRAGMA query_only), the extension
** loaded for trigger_health, trigger_describe, trigger_preview and
** trigger_iso, and never the loop's connection, so a page or a scrape
** never holds a lock the loop's claims wait for (in WAL mode a reader
** blocks no writer). Each request reads in one short transaction
** (readdb_begin .. readdb_end): one snapshot per page. Used only by the
** HTTP thread. Every SQL text of the status server is here.
**
** The queries stay bounded and use the shadow tables' indexes through the
** virtual tables' pushed-down constraints (EXPLAIN QUERY PLAN shows them):
**   RQ_UPCOMING  triggers WHERE next_due_at >= ?1 AND next_due_at < ?2
**                (triggers_state_due), at most ?3 rows
**   RQ_RUNS      trigger_runs WHERE scheduled_for >= ?1 AND
**                scheduled_for <= ?2 (triggers_rundata_sched, walked
**                from the latest: the ORDER BY is handed to the virtual
**                table), at most ?3 rows
**   RQ_TRIGGERS  the list, a keyset page: ?1 rows of triggers_state_due
**                after (?5 next_due_at, ?6 trigger_id) in that order: the
**                rows of next_due_at = ?5 past ?6 (RQ_TRIGGERS_TIE, the
**                index's second column), then next_due_at > ?5 (the
**                ORDER BY handed to the virtual table); RQ_TRIGGERS_IDLE
**                ?1 rows by trigger_id after ?6 (the unique index), for
**                those with nothing due; with ?agent the _A forms (the
**                agent's due index, the agent's triggers sorted by id);
**                with a ?status other than scheduled RQ_TRIGGERS_STATE
**                (that state's triggers, sorted by id: they have nothing
**                due). Each row says whether it matches
**                the filters (its last column): page.c stops after
**                PAGE_WALK rows whatever matched.
**   RQ_PREVIEW   ?3 occurrences of one trigger (the bound is pushed in)
**   RQ_TRIGGER_RUNS  trigger_runs WHERE trigger_id = ?1 AND
**                scheduled_for <= ?2 (the trigger's runs index), a page
**                of ?4 from a cursor; RQ_TRIGGER_EVENTS trigger_events
**                WHERE trigger_id = ?1 AND at <= ?3 (its index, walked
**                from the latest), a page of ?2 before the cursor (?3 at,
**                ?4 rowid: the rows of one instant are re-read and
**                skipped)
**   RQ_RUN_ROW   trigger_runs WHERE run_id = ?1 (unique); RQ_RUN_ATTEMPTS
**                WHERE trigger_id = ?1 AND scheduled_for = ?2
** The list's filters (?2 agent, ?3 scope, ?4 status) are checked on the
** rows as they come in the due index's order: a filter that matches few
** triggers fills a page from more rows, at most PAGE_WALK a request.
*/
#ifndef HOST_READDB_H
#define HOST_READDB_H

#include <sqlite3.h>

typedef enum {
  RQ_HEALTH,        /* trigger_health(?1) */
  RQ_TRIGGERS,      /* ?1 triggers due after ?5, by next due time */
  RQ_TRIGGERS_TIE,  /* ?1 triggers due at ?5 with an id after ?6 */
  RQ_TRIGGERS_IDLE, /* ?1 triggers with an id after ?6, by id */
  /* the same of agent ?2 (the per-agent due index; its creation index) */
  RQ_TRIGGERS_A,
  RQ_TRIGGERS_TIE_A,
  RQ_TRIGGERS_IDLE_A,
  RQ_TRIGGERS_STATE, /* ?1 triggers of status ?4 after id ?6, by id */
  RQ_DESCRIBE,       /* trigger_describe(?1) */
  RQ_UPCOMING,       /* triggers due in [?1, ?2), at most ?3 */
  RQ_PREVIEW,        /* due_at of trigger ?1 strictly after ?2, n <= ?3 */
  RQ_RUNS,           /* runs scheduled in [?1, ?2), latest first, at most ?3 */
  RQ_QUOTE,          /* json_quote(?1) */
  RQ_FIELDS,         /* key, value of the JSON object ?1 (json_each) */
  /* the list's filters: ?2 agent, ?3 scope, ?4 status, each NULL for any */
  RQ_TRIGGER_ROW,    /* every column of trigger ?1 */
  RQ_NEXT,           /* due_iso of trigger ?1 after ?2, n <= ?3 */
  RQ_TRIGGER_RUNS,   /* runs of ?1 before (?2 scheduled_for, ?3 run_id),
                        latest first, at most ?4 (RQ_RUNS' columns) */
  RQ_TRIGGER_EVENTS, /* events of ?1 before (?3 at, ?4 rowid), latest
                        first, at most ?2 */
  RQ_RUN_ROW,        /* run ?1 */
  RQ_RUN_ATTEMPTS,   /* the runs of trigger ?1's occurrence ?2, by attempt */
  RQ_COUNT
} readdb_query;

/* One numeric (or null) field of trigger_health's object; capped: its
** "<key>_capped" was true (value is the cap + 1: more than the cap). */
typedef struct health_field {
  char key[32];
  long long value;
  int isnull;
  int capped;
} health_field;

#define HEALTH_MAX_FIELDS 16

typedef struct readdb {
  const char *path;
  sqlite3 *db;
  sqlite3_stmt *st[RQ_COUNT];
} readdb;

/* Open path read-only with the extension. 0 ok; else -1 and *err. */
int readdb_open(readdb *r, const char *path, const char *extension, int busy_ms,
                char **err);
void readdb_close(readdb *r);

/* Start / end the request's read transaction. begin: 0 ok, else -1. */
int readdb_begin(readdb *r);
void readdb_end(readdb *r);

/* The prepared statement, reset with its bindings cleared. */
sqlite3_stmt *readdb_stmt(readdb *r, readdb_query q);

/* One text value of a statement bound by the caller (stepped, copied,
** reset); NULL on error or NULL value, *err then says which (or NULL). */
char *readdb_text(readdb *r, sqlite3_stmt *st, char **err);

/* trigger_health(now) as JSON text (malloc'ed); NULL and *err on error. */
char *readdb_health(readdb *r, long long now_ms, char **err);

/* The numeric and null fields of trigger_health's JSON text, in its
** order, into f (a "<key>_capped": true marks its field capped): 0 with
** *count of them (at most max), or -1 (*count 0). */
int readdb_health_fields(readdb *r, const char *json, health_field *f, int max,
                         int *count);

const char *readdb_errmsg(const readdb *r);

#endif
