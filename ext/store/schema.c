/*
** schema.c -- the shadow tables and their indexes (schema.h): created by
** xCreate with the schema version, checked by xConnect, dropped by
** xDestroy; whether they are installed; connecting main.triggers.
**
** A trigger is one row in each of two tables, joined on id:
**   triggers_data   what the trigger is: its definition, status, dedupe
**                   key (the columns a fire never writes)
**   triggers_state  what a fire writes: next_due_at, fire_at, counters,
**                   last_*, updated_at; with copies of trigger_id and
**                   agent_id for its two time indexes
** A fire rewrites a ~50-byte state row instead of the ~270-byte whole
** trigger: the tick dirties a fifth of the table pages it did with one
** table (bench/README.md measures it; at 10k-100k fires per tick the
** pages written, not the instructions run, are the cost).
**
** Indexes, and what each one serves:
**   triggers_data(trigger_id) UNIQUE       lookups, INSERT OR REPLACE
**   triggers_data_status(status)
**   triggers_data_created(agent_id, scope, created_at)  creation quotas,
**                                           agent_id lookups
**   triggers_data_dedupe(agent_id, dedupe_key) UNIQUE, active rows only
**   triggers_data_event(event_key) WHERE event_key IS NOT NULL AND
**                    status = 'scheduled'  a signal's probe: the active
**                                           event triggers of a key
**   triggers_state_due(next_due_at, trigger_id) WHERE next_due_at NOT NULL
**                                           the tick's probe (in claim
**                                           order), next wakeup, lookups
**   triggers_state_agent(agent_id, next_due_at, trigger_id)
**                    WHERE agent_id <> ''  per-agent ticks, the summary's
**                                           pending items
**   triggers_rundata(trigger_id, incarnation, scheduled_for, attempt) UNIQUE
**                    a trigger's runs, the next incarnation of an id, and
**                    a run by run_id: derived from this key (a CHECK), it
**                    is parsed back into it (run_key.h) and has no index
**                    of its own since version 6
**   triggers_rundata_lease(lease_until) WHERE status = 'running'
**   triggers_rundata_retry(retry_at) WHERE retry_at NOT NULL
**   triggers_rundata_agent(agent_id, scheduled_for) WHERE finished_at IS NULL
**                    an agent's runs not finished (running, deferred);
**                    its finished ones are in triggers_rundata_outcome, so
**                    a lookup by agent reads both (scan.c) and the index
**                    holds the runs in flight, not the history (since
**                    version 6)
**   triggers_rundata_sched(scheduled_for)  runs by time
**   triggers_rundata_finished(status, finished_at) WHERE finished_at NOT NULL
**   triggers_rundata_outcome(agent_id, status, finished_at)
**                    WHERE finished_at NOT NULL  the summary's latest runs
**   triggers_events_at(at)                  trigger_events by time (newest
**                                           first), pruning
**   triggers_events_trigger(trigger_id, at) one trigger's events
**   triggers_events_created(at) WHERE kind = 'created'    trigger_health's
**   triggers_events_rejected(at) WHERE kind = 'rejected'  recent_creations
**                                           and last_create_error
**   triggers_calendar(calendar, day) UNIQUE a calendar's days
**   triggers_data_calendar(calendar) WHERE calendar IS NOT NULL
**                                           the triggers a change of a
**                                           calendar reschedules
** (triggers_events, since version 5: one row per lifecycle event; a fire
** writes none, and the two partial indexes take only the create
** action's rows, so a tick's event costs two index entries.)
**
** A fire rewrites next_due_at (and fire_at = next_due_at + jitter), so
** exactly two indexes hold a time that a fire changes, and the second only
** for a trigger that has an agent: a trigger without one (agent_id '')
** costs one index entry per fire, and a tick or wakeup for agent '' walks
** triggers_state_due skipping other agents' rows. The jitter is applied by
** the tick as a filter on the rows it reads, not by an index of its own. A
** claimed run enters neither of the finished-run indexes until it finishes.
*/
#include "store/schema.h"

#include "base/args.h"
#include "base/context.h"
#include "store/columns.h"
#include "store/stored.h"
#include "store/v6_columns.h"

SQLITE_EXTENSION_INIT3

/* CREATE TABLE main.name(id INTEGER PRIMARY KEY, <each *defs[i]>extra)
** STRICT: since version 6 SQLite itself refuses a value of another type,
** and one that fails a column's CHECK (docs/tables.md#changed-shadow-tables). */
static char *table_ddl(const char *name, const store_coldef *const *defs, int n,
                       const char *extra) {
  sqlite3_str *s = sqlite3_str_new(NULL);
  sqlite3_str_appendf(s, "CREATE TABLE main.%s(id INTEGER PRIMARY KEY", name);
  for (int i = 0; i < n; i++) {
    sqlite3_str_appendf(s, ", %s %s", defs[i]->name, defs[i]->decl);
    if (defs[i]->check) sqlite3_str_appendf(s, " CHECK(%s)", defs[i]->check);
  }
  sqlite3_str_appendf(s, "%s) STRICT", extra);
  return sqlite3_str_finish(s);
}

/* A running run always has a lease: the lease probe's partial index
** (status = 'running') reaches it only through lease_until. */
#define RUN_LEASED_CHECK \
  ", CHECK(status <> 'running' OR lease_until IS NOT NULL)"

int store_strict_supported(char **err) {
  if (sqlite3_libversion_number() >= 3037000) return SQLITE_OK;
  *err = sqlite3_mprintf("sqlite-triggers needs SQLite 3.37.0 or later "
                         "(STRICT shadow tables, schema version %d); this "
                         "is SQLite %s",
                         TRIGGERS_SCHEMA_VERSION, sqlite3_libversion());
  return *err ? SQLITE_ERROR : SQLITE_NOMEM;
}

/* triggers_state's copy of trigger_id: not UNIQUE (triggers_data's is). */
const store_coldef store_state_trigger_id = {"trigger_id", 'T', 0,
                                             "TEXT NOT NULL", 0};

/* CREATE TABLE of triggers_data (state 0) or triggers_state (state 1). */
char *store_trigger_table_ddl(int state) {
  int cols[TC_NCOL + 2], n = store_table_cols(state, cols);
  const store_coldef *defs[TC_NCOL + 2];
  for (int i = 0; i < n; i++) {
    defs[i] = state && cols[i] == TC_TRIGGER_ID ? &store_state_trigger_id
                                                : &store_trigger_cols[cols[i]];
  }
  return table_ddl(state ? "triggers_state" : "triggers_data", defs, n, "");
}

void store_run_id_expr(sqlite3_str *s, const char *const key[4]) {
  sqlite3_str_appendf(s,
                      "%s || '@' || %s || '#' || %s || CASE WHEN %s = 1"
                      " THEN '' ELSE '~' || %s END",
                      key[0], key[1], key[2], key[3], key[3]);
}

/* The run_id is its key's (run_key.h: a lookup by run_id seeks the key),
** since version 6 checked by SQLite: a run_id or key column changed
** alone is refused at write time. */
static const char *const run_key_cols[4] = {"trigger_id", "scheduled_for",
                                            "attempt", "incarnation"};

char *store_runs_table_ddl(void) {
  const store_coldef *defs[RC_NCOL];
  for (int i = 0; i < RC_NCOL; i++) defs[i] = &store_run_cols[i];
  sqlite3_str *extra = sqlite3_str_new(NULL);
  sqlite3_str_appendall(
      extra,
      ", UNIQUE(trigger_id, incarnation, scheduled_for, attempt)" RUN_LEASED_CHECK
      ", CHECK(run_id = ");
  store_run_id_expr(extra, run_key_cols);
  sqlite3_str_appendall(extra, ")");
  char *x = sqlite3_str_finish(extra);
  char *ddl = x ? table_ddl("triggers_rundata", defs, RC_NCOL, x) : NULL;
  sqlite3_free(x);
  return ddl;
}

const char *const store_index_ddl =
    "CREATE INDEX main.triggers_data_status ON triggers_data(status);"
    "CREATE INDEX main.triggers_data_created ON triggers_data(agent_id, scope, created_at);"
    "CREATE UNIQUE INDEX main.triggers_data_dedupe ON triggers_data(agent_id, dedupe_key)"
    " WHERE dedupe_key IS NOT NULL AND status IN ('scheduled', 'paused');"
    "CREATE INDEX main.triggers_data_event ON triggers_data(event_key)"
    " WHERE event_key IS NOT NULL AND status = 'scheduled';";

/* The run indexes of version 1 (created again when version 4 rebuilds
** triggers_rundata). */
const char *const store_index_runs_ddl =
    "CREATE INDEX main.triggers_rundata_lease ON triggers_rundata(lease_until)"
    " WHERE status = 'running';"
    "CREATE INDEX main.triggers_rundata_retry ON triggers_rundata(retry_at)"
    " WHERE retry_at IS NOT NULL;"
    "CREATE INDEX main.triggers_rundata_agent ON triggers_rundata(agent_id, scheduled_for)"
    " WHERE finished_at IS NULL;"
    "CREATE INDEX main.triggers_rundata_sched ON triggers_rundata(scheduled_for);";

/* The run indexes that schema version 2 changed: created by store_create
** and by the migration from version 1. */
const char *const store_index_v2_ddl =
    "CREATE INDEX main.triggers_rundata_finished ON triggers_rundata(status, finished_at)"
    " WHERE finished_at IS NOT NULL;"
    "CREATE INDEX main.triggers_rundata_outcome ON triggers_rundata(agent_id, status, finished_at)"
    " WHERE finished_at IS NOT NULL;";

/* The time indexes, on triggers_state since version 3. */
const char *const store_index_v3_ddl =
    "CREATE INDEX main.triggers_state_due ON triggers_state(next_due_at, trigger_id)"
    " WHERE next_due_at IS NOT NULL;"
    "CREATE INDEX main.triggers_state_agent ON triggers_state(agent_id, next_due_at, trigger_id)"
    " WHERE agent_id <> '';";

/* The event log of version 5 (docs/tables.md#the-trigger_events-table). */
const char *const store_events_ddl =
    "CREATE TABLE main.triggers_events(id INTEGER PRIMARY KEY,"
    " at INTEGER NOT NULL, agent_id TEXT NOT NULL DEFAULT '',"
    " scope TEXT NOT NULL DEFAULT '', trigger_id TEXT, kind TEXT NOT NULL,"
    " code TEXT, detail TEXT);"
    "CREATE INDEX main.triggers_events_at ON triggers_events(at);"
    "CREATE INDEX main.triggers_events_trigger ON triggers_events(trigger_id, at);"
    "CREATE INDEX main.triggers_events_created ON triggers_events(at)"
    " WHERE kind = 'created';"
    "CREATE INDEX main.triggers_events_rejected ON triggers_events(at)"
    " WHERE kind = 'rejected';";

/* Holidays (version 6, docs/calendar.md#holidays-and-business-days): the
** days of the calendars trigger_calendar_days shows, one row per
** (calendar, day) (its UNIQUE index is the lookup by calendar and day),
** and the triggers of a calendar, rescheduled when its days change. Both
** IF NOT EXISTS: the migration to version 6 runs them too. */
const char *const store_calendar_ddl =
    "CREATE TABLE IF NOT EXISTS main.triggers_calendar(id INTEGER PRIMARY KEY,"
    " calendar TEXT NOT NULL CHECK(length(calendar) BETWEEN 1 AND 63),"
    " day TEXT NOT NULL CHECK(day GLOB"
    " '[0-9][0-9][0-9][0-9]-[0-1][0-9]-[0-3][0-9]'),"
    " name TEXT NOT NULL DEFAULT '', UNIQUE(calendar, day)) STRICT;";
const char *const store_index_calendar_ddl =
    "CREATE INDEX IF NOT EXISTS main.triggers_data_calendar ON"
    " triggers_data(calendar) WHERE calendar IS NOT NULL;";

int store_create(sqlite3 *db, char **err) {
  int rc = store_strict_supported(err);
  if (rc != SQLITE_OK) return rc;
  char *data = store_trigger_table_ddl(0);
  char *state = store_trigger_table_ddl(1);
  char *runs = store_runs_table_ddl();
  char *cfg = sqlite3_mprintf(
      "CREATE TABLE main.triggers_config(key TEXT PRIMARY KEY, value)"
      " WITHOUT ROWID;"
      "INSERT INTO main.triggers_config VALUES('schema_version', %d);",
      TRIGGERS_SCHEMA_VERSION);
  rc = SQLITE_NOMEM;
  if (data && state && runs && cfg) {
    const char *const steps[] = {data,
                                 state,
                                 runs,
                                 cfg,
                                 store_index_ddl,
                                 store_index_runs_ddl,
                                 store_index_v2_ddl,
                                 store_index_v3_ddl,
                                 store_events_ddl,
                                 store_calendar_ddl,
                                 store_index_calendar_ddl};
    rc = SQLITE_OK;
    for (size_t i = 0; i < sizeof steps / sizeof steps[0] && rc == SQLITE_OK;
         i++) {
      rc = sqlite3_exec(db, steps[i], 0, 0, err);
    }
  }
  sqlite3_free(data);
  sqlite3_free(state);
  sqlite3_free(runs);
  sqlite3_free(cfg);
  return rc;
}

/* The recorded schema version into *v. None, or a value that is not a
** version number (changed outside the extension), is an error with *err
** set, so that neither a connection nor trigger_install() acts on a guess. */
int store_schema_version(sqlite3 *db, i64 *v, char **err) {
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2(db,
                              "SELECT typeof(value) = 'integer' AND value >= 1,"
                              " value FROM main.triggers_config"
                              " WHERE key = 'schema_version'",
                              -1, &st, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  if (rc == SQLITE_ROW && sqlite3_column_int(st, 0)) {
    *v = sqlite3_column_int64(st, 1);
    rc = SQLITE_OK;
  } else if (rc == SQLITE_ROW && sqlite3_column_type(st, 1) != SQLITE_NULL) {
    const char *t = (const char *)sqlite3_column_text(st, 1);
    char buf[STORED_SHOWN + 4];
    *err = sqlite3_mprintf("triggers: triggers_config.schema_version is "
                           "'%s', not a version number (changed outside "
                           "the extension; this one writes %d)",
                           store_stored_shown(t ? t : "", buf),
                           TRIGGERS_SCHEMA_VERSION);
    rc = SQLITE_ERROR;
  } else if (rc == SQLITE_ROW || rc == SQLITE_DONE || rc == SQLITE_ERROR) {
    *err = sqlite3_mprintf("triggers: shadow tables missing or damaged "
                           "(triggers_config has no schema_version)");
    rc = SQLITE_ERROR;
  } else if (rc != SQLITE_NOMEM) { /* could not be read: a disk error */
    *err = sqlite3_mprintf("triggers: %s", sqlite3_errmsg(db));
  }
  sqlite3_finalize(st);
  return rc;
}

int store_schema_not_newer(sqlite3 *db, i64 *v, char **err) {
  int rc = store_schema_version(db, v, err);
  if (rc != SQLITE_OK || *v <= TRIGGERS_SCHEMA_VERSION) return rc;
  /* the one message of every entry point (docs/reliability.md) */
  *err = sqlite3_mprintf("sqlite-triggers: this database's schema is "
                         "version %lld, newer than this build (%d): upgrade "
                         "the extension",
                         *v, TRIGGERS_SCHEMA_VERSION);
  return *err ? SQLITE_ERROR : SQLITE_NOMEM;
}

int store_check(sqlite3 *db, char **err) {
  i64 v = 0;
  int rc = store_schema_not_newer(db, &v, err);
  if (rc != SQLITE_OK) return rc;
  if (v < TRIGGERS_SCHEMA_VERSION) {
    *err = sqlite3_mprintf("triggers: schema version %lld is older than "
                           "this extension's (%d); run SELECT "
                           "trigger_install(); to upgrade it in place",
                           v, TRIGGERS_SCHEMA_VERSION);
    return SQLITE_ERROR;
  }
  int missing = 0;
  rc = store_v6_columns_missing(db, &missing);
  if (rc == SQLITE_OK && missing) {
    *err = sqlite3_mprintf("triggers: schema version %d without the budget "
                           "columns (docs/reactive.md#budgets); run SELECT "
                           "trigger_install(); to add them in place",
                           TRIGGERS_SCHEMA_VERSION);
    rc = *err ? SQLITE_ERROR : SQLITE_NOMEM;
  } else if (rc != SQLITE_OK && rc != SQLITE_NOMEM) { /* a disk error */
    *err = sqlite3_mprintf("triggers: %s", sqlite3_errstr(rc));
  }
  return rc;
}

int store_drop(sqlite3 *db) {
  return sqlite3_exec(db,
                      "DROP TABLE IF EXISTS main.triggers_data;"
                      "DROP TABLE IF EXISTS main.triggers_state;"
                      "DROP TABLE IF EXISTS main.triggers_rundata;"
                      "DROP TABLE IF EXISTS main.triggers_config;"
                      "DROP TABLE IF EXISTS main.triggers_events;"
                      "DROP TABLE IF EXISTS main.triggers_calendar;",
                      0, 0, 0);
}

int store_declare_vtab(sqlite3 *db, store_vtab t) {
  if (t == STORE_VTAB_CALENDAR) {
    return sqlite3_declare_vtab(
        db, "CREATE TABLE x(calendar TEXT, day TEXT, name TEXT)");
  }
  if (t == STORE_VTAB_PREVIEW) {
    return sqlite3_declare_vtab(
        db, "CREATE TABLE x(n INTEGER, due_at INTEGER, due_iso TEXT,"
            " spec HIDDEN, after HIDDEN, tz HIDDEN)");
  }
  const store_coldef *cols = t == STORE_VTAB_TRIGGERS ? store_trigger_cols
                             : t == STORE_VTAB_RUNS   ? store_run_cols
                                                      : store_event_cols;
  int ncol = t == STORE_VTAB_TRIGGERS ? TC_NPUBLIC
             : t == STORE_VTAB_RUNS   ? RC_NPUBLIC
                                      : EC_NCOL;
  sqlite3_str *s = sqlite3_str_new(NULL);
  sqlite3_str_appendall(s, "CREATE TABLE x(");
  for (int i = 0; i < ncol; i++) {
    const char *ty =
        (cols[i].kind == 'I' || cols[i].kind == 'S') ? "INTEGER" : "TEXT";
    sqlite3_str_appendf(s, "%s%s %s", i ? ", " : "", cols[i].name, ty);
  }
  sqlite3_str_appendall(s, ")");
  char *sql = sqlite3_str_finish(s);
  if (!sql) return SQLITE_NOMEM;
  int rc = sqlite3_declare_vtab(db, sql);
  sqlite3_free(sql);
  return rc;
}

int store_installed(sqlite3 *db, int *found, char **err) {
  sqlite3_stmt *st = NULL;
  *err = NULL;
  int rc = sqlite3_prepare_v2(db,
                              "SELECT 1 FROM main.sqlite_schema WHERE"
                              " type = 'table' AND name = 'triggers_data'",
                              -1, &st, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  *found = rc == SQLITE_ROW;
  if (rc == SQLITE_ROW || rc == SQLITE_DONE) {
    rc = SQLITE_OK;
  } else {
    /* the schema could not be read (a disk error): not "not installed" */
    *err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
    if (!*err) rc = SQLITE_NOMEM;
  }
  sqlite3_finalize(st);
  return rc;
}

int store_ready(const trg_ctx *c, sqlite3 *db, int *ready, char **err) {
  *err = NULL;
  *ready = trg_ctx_has_table(c); /* connected: checked then */
  if (*ready) return SQLITE_OK;
  int found;
  int rc = store_installed(db, &found, err);
  if (rc != SQLITE_OK || !found) return rc;
  rc = store_connect_table(db);
  /* not connected: why (another schema version, a damaged one) before
  ** any statement meets tables it does not know */
  if (rc == SQLITE_OK && !trg_ctx_has_table(c)) rc = store_check(db, err);
  *ready = rc == SQLITE_OK;
  if (rc != SQLITE_OK && !*err && rc != SQLITE_NOMEM)
    *err = sqlite3_mprintf("%s", trg_errmsg(db, rc));
  return rc;
}

int store_require_installed(sqlite3_context *ctx, const char *fname) {
  if (trg_refuse_in_preload(ctx, fname) != 0) return -1;
  const trg_ctx *c = sqlite3_user_data(ctx);
  if (trg_ctx_has_table(c)) return 0; /* connected: installed */
  char *err = NULL;
  int ready;
  int rc = store_ready(c, sqlite3_context_db_handle(ctx), &ready, &err);
  if (rc == SQLITE_OK && !ready) {
    trg_result_error(ctx, SQLITE_ERROR, fname,
                     "sqlite-triggers is not installed in this database "
                     "(run sql/install.sql)");
  } else if (rc != SQLITE_OK && err) {
    trg_result_error(ctx, rc, fname, "%s", err);
  } else if (rc != SQLITE_OK) {
    sqlite3_result_error_nomem(ctx);
  }
  sqlite3_free(err);
  return rc == SQLITE_OK && ready ? 0 : -1;
}

int store_connect_table(sqlite3 *db) {
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2(db, "SELECT 1 FROM main.triggers WHERE 0", -1,
                              &st, NULL);
  sqlite3_finalize(st);
  /* SQLITE_ERROR: no such table, or one the call reports itself (its
  ** schema version); any other failure (a disk error) may have rolled
  ** back the caller's transaction: the call must not go on without it */
  return rc == SQLITE_ERROR ? SQLITE_OK : rc;
}
