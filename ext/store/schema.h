/*
** schema.h -- the shadow tables and their indexes: created (xCreate),
** checked (xConnect), dropped (xDestroy); whether they are installed.
*/
#ifndef TRIGGERS_SCHEMA_H
#define TRIGGERS_SCHEMA_H

#include "base/context.h"
#include "store/columns.h"
#include "store/store.h"

/* Create shadow tables, indexes and the schema version (xCreate); check
** the version (xConnect); drop them all (xDestroy). */
int store_create(sqlite3 *db, char **err);
int store_check(sqlite3 *db, char **err);
int store_drop(sqlite3 *db);
/* The recorded schema version into *v (store_schema_version), refused
** when it is newer than this build's, with the one message every entry
** point gives: "sqlite-triggers: this database's schema is version 6,
** newer than this build (5): upgrade the extension". */
int store_schema_not_newer(sqlite3 *db, i64 *v, char **err);
/* *found: whether triggers_data exists in main. SQLITE_OK, or the error
** when the schema could not be read (*err: SQLite's message, to free;
** NULL out of memory). */
int store_installed(sqlite3 *db, int *found, char **err);
/* *ready: whether the calls of connection c may use the tables: 1 when
** main.triggers is connected (at once when it already is: its connect
** checked the schema version, store_check), 0 when not installed (rc
** SQLITE_OK). The error with *err (to free; NULL out of memory) when they
** may not: a schema of another version (a newer one: the message every
** entry point gives, docs/reliability.md) or damaged, or one that could
** not be read. */
int store_ready(const trg_ctx *c, sqlite3 *db, int *ready, char **err);
/* For an SQL function fname with side effects (its user data the
** connection's trg_ctx): 0 when installed and of this version
** (store_ready); else -1 with the error set on ctx: called from a preload
** (trg_refuse_in_preload), not installed, another schema version,
** or why the schema could not be read. */
int store_require_installed(sqlite3_context *ctx, const char *fname);

/* The extension's virtual tables. */
typedef enum store_vtab {
  STORE_VTAB_TRIGGERS, /* triggers: store_trigger_cols' public columns */
  STORE_VTAB_RUNS,     /* trigger_runs: store_run_cols' public columns */
  STORE_VTAB_EVENTS,   /* trigger_events: store_event_cols */
  STORE_VTAB_PREVIEW,  /* trigger_preview: n, due_at, due_iso, then the
                          hidden spec, after, tz (vtab_preview.c's order) */
  STORE_VTAB_CALENDAR  /* trigger_calendar_days: store_calendar_cols */
} store_vtab;
/* sqlite3_declare_vtab of table t's columns (in its xConnect). */
int store_declare_vtab(sqlite3 *db, store_vtab t);
/* Connect main.triggers on this connection (the context keeps the tick's
** statements only while it is connected: context.h). SQLITE_OK, also
** when it cannot be (no such table, another schema version: the calls
** report that themselves); else the failure (a disk error). */
int store_connect_table(sqlite3 *db);

/* ---- for migrate.c ------------------------------------------------------ */

/* The recorded schema version into *v; none, or one that is not a version
** number (changed outside the extension), is an error with *err set. */
int store_schema_version(sqlite3 *db, i64 *v, char **err);
/* CREATE TABLE of triggers_data (state 0) or triggers_state (state 1),
** and of triggers_rundata; sqlite3_malloc'd, NULL when out of memory. */
char *store_trigger_table_ddl(int state);
/* triggers_state's column trigger_id (a copy: not UNIQUE). */
extern const store_coldef store_state_trigger_id;
char *store_runs_table_ddl(void);
/* Append the SQL expression of a run's run_id from the expressions of its
** key: key[0] trigger_id, [1] scheduled_for, [2] attempt, [3] incarnation
** ("<trigger_id>@<scheduled_for>#<attempt>", "~<incarnation>" past 1). */
void store_run_id_expr(sqlite3_str *s, const char *const key[4]);
/* SQLITE_OK when this SQLite has STRICT tables (3.37.0), else SQLITE_ERROR
** with *err saying which one is needed. */
int store_strict_supported(char **err);
/* The indexes: of triggers_data; of the runs as version 1 made them; the
** run indexes version 2 changed; the time indexes of version 3. */
extern const char *const store_index_ddl;
extern const char *const store_index_runs_ddl;
extern const char *const store_index_v2_ddl;
extern const char *const store_index_v3_ddl;
/* The table triggers_events and its indexes (version 5). */
extern const char *const store_events_ddl;
/* The table triggers_calendar and the index of triggers by calendar
** (version 6; IF NOT EXISTS). */
extern const char *const store_calendar_ddl;
extern const char *const store_index_calendar_ddl;

#endif
