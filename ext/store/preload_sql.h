/*
** preload_sql.h -- the fire-time preload
** (docs/lifecycle.md#fire-time-preload-preload_sql): the one
** read-only query an application configures with
** trigger_config('preload_sql', ...). Its text is the application's SQL,
** kept as a config value; this file is where it is checked, prepared and
** stepped, so no other file sees a statement.
**
** Checked when it is set (store_preload_check) and every time it is
** prepared for a tick, without running it: prepared under an authorizer
** that refuses any PRAGMA (statement or pragma_* table: a PRAGMA acts
** while it is prepared, so the authorizer refuses it before it acts) and
** any function of the extension with side effects (trg_ctx_is_side);
** then one statement, read-only, returning rows, naming no parameter but
** :scope, :trigger_id, :agent_id and :now (also spelled @name or $name).
** Prepared once per connection: kept with the store's statements
** (store.preload, freed by store_close) and prepared again only when the
** configured text changed, which a call finds out by reading the config
** once (store_preload_ready), or when the schema changed (a legacy
** statement: SQLite reports the change instead of preparing it again
** unchecked). Run for each claimed run with the names it uses bound; while
** it steps (open to close) the connection has a progress handler that
** stops it after PRELOAD_MAX_STEPS virtual-machine steps, a
** SQLITE_LIMIT_LENGTH of PRELOAD_VALUE_MAX, and trg_ctx.in_preload set,
** so that the extension's functions with side effects refuse however
** they are reached (an application function calling one, a view).
** docs/reliability.md says why both checks.
**
** Its rows come out typed (store_preload_col); the tick makes them JSON
** (tick/fire_preload.c).
*/
#ifndef TRIGGERS_STORE_PRELOAD_SQL_H
#define TRIGGERS_STORE_PRELOAD_SQL_H

#include "base/context.h"
#include "store/config.h"
#include "store/store.h"

/* VM steps one run's preload may take (sqlite3_progress_handler, checked
** every PRELOAD_STEP_CHECK steps): an indexed query of a few rows takes
** hundreds, a scan of 100,000 rows about a million; past it the query is
** stopped and the run carries preloadError. Counted in steps, not time, so
** a replayed tick stops at the same row
** (docs/lifecycle.md#fire-time-preload-preload_sql). */
#define PRELOAD_MAX_STEPS 1000000
#define PRELOAD_STEP_CHECK 1000
/* The longest string or blob a preload may make or read while it steps
** (SQLITE_LIMIT_LENGTH): the largest preload_max_bytes, since a longer
** value never fits in a payload. Bounded before it is made: SELECT
** randomblob(9e8) fails at once ("string or blob too big") instead of
** allocating 900 MB, and the run carries preloadError. */
#define PRELOAD_VALUE_MAX CONFIG_PRELOAD_BYTES_MAX

/* What a claim binds, by name; and the connection's context (its
** functions with side effects, which refuse while the query steps). */
typedef struct store_preload_args {
  const char *scope, *trigger_id, *agent_id;
  i64 now;
  trg_ctx *ctx;
} store_preload_args;

/* One column of a preload row: its name, and its value by SQLite type
** (SQLITE_INTEGER: i; SQLITE_FLOAT: r; SQLITE_TEXT, SQLITE_BLOB: p[0..n),
** valid until the next row). */
typedef struct store_preload_val {
  const char *name;
  int type;
  i64 i;
  double r;
  const char *p;
  int n;
} store_preload_val;

/* sql as a value of preload_sql on the connection of context c, checked
** without running it: SQLITE_OK; SQLITE_ERROR with *why (what is wrong,
** sqlite3_free it); SQLITE_NOMEM. */
int store_preload_check(const trg_ctx *c, sqlite3 *db, const char *sql,
                        char **why);

/* The configured preload for this call: *on 1 (ready to open) or 0 (none
** configured). SQLITE_OK, or the error reading the config (s->err). Reads
** preload_sql and preload_max_bytes once per call (store_preload_stale
** starts a call) and prepares the text when it is not the one prepared. */
int store_preload_ready(store *s, i64 *max_bytes, int *on);
/* The next call reads the config again (a kept store lent anew). */
void store_preload_stale(store *s);

/* Bind a's values to the names the query uses and start it: SQLITE_OK;
** SQLITE_ERROR with *why when the configured text does not check (it was
** written outside the extension or by an older one, or names a table
** that is gone). */
int store_preload_open(store *s, const store_preload_args *a, char **why);
/* The next row: SQLITE_ROW (columns 0..store_preload_ncol), SQLITE_DONE,
** SQLITE_ERROR with *why when the query failed or took more than
** PRELOAD_MAX_STEPS, or the code of an error that leaves the database
** unreadable (out of memory, I/O, corruption, an interrupt): the caller's
** transaction fails with it. */
int store_preload_step(store *s, char **why);
int store_preload_ncol(store *s);
/* Column i of the current row: SQLITE_OK, or SQLITE_NOMEM. */
int store_preload_col(store *s, int i, store_preload_val *v);
/* Done with this run's rows: the statement reset, the progress handler
** removed. */
void store_preload_close(store *s);
/* Free what the store keeps of the preload (store_close). */
void store_preload_free(store *s);

#endif
