/*
** migrate.c -- an older schema brought up to this one in place
** (migrate.h; trigger_install): each version's steps, in order, inside the
** caller's transaction.
*/
#include "store/migrate.h"

#include "store/columns.h"
#include "store/schema.h"
#include "text/run_text.h"

SQLITE_EXTENSION_INIT3

/* Version 2 -> 3: the columns a fire writes move from triggers_data to
** the new triggers_state, with the two time indexes. */
static char *migrate_v3_sql(void) {
  int cols[TC_NCOL + 2], n = store_table_cols(1, cols);
  char *ddl = store_trigger_table_ddl(1);
  sqlite3_str *s = sqlite3_str_new(NULL);
  sqlite3_str_appendf(s, "%s;INSERT INTO main.triggers_state(id", ddl);
  for (int i = 0; i < n; i++)
    sqlite3_str_appendf(s, ", %s", store_trigger_cols[cols[i]].name);
  sqlite3_str_appendall(s, ") SELECT id");
  for (int i = 0; i < n; i++)
    sqlite3_str_appendf(s, ", %s", store_trigger_cols[cols[i]].name);
  sqlite3_str_appendall(s, " FROM main.triggers_data;"
                           "DROP INDEX IF EXISTS main.triggers_data_due;"
                           "DROP INDEX IF EXISTS main.triggers_data_agent;");
  for (int i = 2; i < n; i++) {
    sqlite3_str_appendf(s, "ALTER TABLE main.triggers_data DROP COLUMN %s;",
                        store_trigger_cols[cols[i]].name);
  }
  sqlite3_str_appendall(s, store_index_v3_ddl);
  sqlite3_free(ddl);
  return sqlite3_str_finish(s);
}

/* Version 3 -> 4: trigger incarnations and a run's result. SQLite cannot
** change triggers_rundata's UNIQUE key in place, so its rows go through a
** copy into the new table (every row and id kept): a success's note moves
** from error to result, every run and trigger is incarnation 1 (run ids
** unchanged; no claim's lease_ms is known, so a heartbeat falls back to
** lease_until - claimed_at). last_error that version 3 copied from a
** success note is cleared (it is the last failure's error now). The copy
** is a table in main, not a TEMP one: it lives in the file like the
** history it copies (a TEMP table may be held in memory, temp_store), and
** a change to the TEMP schema would expire every prepared statement of the
** connection. */
static char *migrate_v4_sql(void) {
  char *runs = store_runs_table_ddl();
  sqlite3_str *s = sqlite3_str_new(NULL);
  sqlite3_str_appendall(
      s, "UPDATE main.triggers_state SET last_error = NULL"
         " WHERE last_status = 'success' AND last_error = (SELECT r.error"
         " FROM main.triggers_rundata AS r WHERE r.trigger_id ="
         " triggers_state.trigger_id AND r.status = 'success'"
         " ORDER BY r.finished_at DESC, r.id DESC LIMIT 1);"
         "CREATE TABLE main.triggers_migrate_runs AS"
         " SELECT * FROM main.triggers_rundata;"
         "DROP TABLE main.triggers_rundata;");
  sqlite3_str_appendf(s, "%s;INSERT INTO main.triggers_rundata(id", runs);
  for (int i = 0; i < RC_NCOL; i++) {
    if (i != RC_INCARNATION && i != RC_LEASE_MS)
      sqlite3_str_appendf(s, ", %s", store_run_cols[i].name);
  }
  sqlite3_str_appendall(s, ") SELECT id");
  for (int i = 0; i < RC_NCOL; i++) {
    if (i == RC_ERROR) {
      sqlite3_str_appendall(
          s, ", CASE WHEN status = 'success' THEN NULL ELSE error END");
    } else if (i == RC_RESULT) {
      sqlite3_str_appendall(s, ", CASE WHEN status = 'success' THEN error END");
    } else if (i != RC_INCARNATION && i != RC_LEASE_MS) {
      sqlite3_str_appendf(s, ", %s", store_run_cols[i].name);
    }
  }
  sqlite3_str_appendf(s,
                      " FROM main.triggers_migrate_runs ORDER BY id;"
                      "DROP TABLE main.triggers_migrate_runs;%s%s"
                      "ALTER TABLE main.triggers_data ADD COLUMN %s %s;",
                      store_index_runs_ddl, store_index_v2_ddl,
                      store_trigger_cols[TC_INCARNATION].name,
                      store_trigger_cols[TC_INCARNATION].decl);
  if (!runs) sqlite3_str_reset(s);
  sqlite3_free(runs);
  return sqlite3_str_finish(s);
}

/* Results moved by migrate_v4_sql that are longer than a result may be
** now: cut (and made valid UTF-8) as trigger_run_finish does. */
static int bound_results(sqlite3 *db) {
  sqlite3_stmt *sel = NULL, *upd = NULL;
  int rc = sqlite3_prepare_v2(db,
                              "SELECT id, result FROM main.triggers_rundata"
                              " WHERE length(CAST(result AS BLOB)) > ?1",
                              -1, &sel, NULL);
  if (rc == SQLITE_OK) {
    rc = sqlite3_prepare_v2(
        db, "UPDATE main.triggers_rundata SET result = ?2 WHERE id = ?1", -1,
        &upd, NULL);
  }
  char *buf = rc == SQLITE_OK ? sqlite3_malloc(TRG_RESULT_MAX + 1) : NULL;
  if (rc == SQLITE_OK && !buf) rc = SQLITE_NOMEM;
  if (rc == SQLITE_OK) sqlite3_bind_int(sel, 1, TRG_RESULT_MAX);
  while (rc == SQLITE_OK && (rc = sqlite3_step(sel)) == SQLITE_ROW) {
    const char *t = (const char *)sqlite3_column_text(sel, 1);
    if (!t) {
      rc = SQLITE_NOMEM;
      break;
    }
    size_t n = run_text_clean(t, (size_t)sqlite3_column_bytes(sel, 1),
                              TRG_RESULT_MAX, buf);
    sqlite3_bind_int64(upd, 1, sqlite3_column_int64(sel, 0));
    sqlite3_bind_text(upd, 2, buf, (int)n, SQLITE_STATIC);
    rc = sqlite3_step(upd);
    sqlite3_reset(upd);
    rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
  }
  if (rc == SQLITE_DONE) rc = SQLITE_OK;
  sqlite3_free(buf);
  sqlite3_finalize(sel);
  sqlite3_finalize(upd);
  return rc;
}

/* Run the SQL that make() builds (NULL: out of memory). */
static int exec_built(sqlite3 *db, char *(*make)(void), char **err) {
  char *sql = make();
  int rc = sql ? sqlite3_exec(db, sql, 0, 0, err) : SQLITE_NOMEM;
  sqlite3_free(sql);
  return rc;
}

int store_migrate(sqlite3 *db, char **err) {
  i64 v = 0;
  int rc = store_schema_not_newer(db, &v, err); /* a newer one: refused */
  if (rc != SQLITE_OK || v == TRIGGERS_SCHEMA_VERSION) return rc;
  if (v < 2) {
    /* 1 -> 2: one time index per access path (schema.c). */
    rc = sqlite3_exec(db,
                      "DROP INDEX IF EXISTS main.triggers_data_fire;"
                      "DROP INDEX IF EXISTS main.triggers_data_pending;"
                      "DROP INDEX IF EXISTS main.triggers_rundata_finished;"
                      "DROP INDEX IF EXISTS main.triggers_rundata_outcome;",
                      0, 0, err);
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, store_index_v2_ddl, 0, 0, err);
  }
  if (rc == SQLITE_OK && v < 3) rc = exec_built(db, migrate_v3_sql, err);
  if (rc == SQLITE_OK && v < 4) {
    rc = exec_built(db, migrate_v4_sql, err); /* 3 -> 4 */
    if (rc == SQLITE_OK) rc = bound_results(db);
  }
  /* 4 -> 5: the event log starts empty (trigger_events). */
  if (rc == SQLITE_OK) rc = sqlite3_exec(db, store_events_ddl, 0, 0, err);
  if (rc == SQLITE_OK) {
    char *sql = sqlite3_mprintf("UPDATE main.triggers_config SET value = %d"
                                " WHERE key = 'schema_version'",
                                TRIGGERS_SCHEMA_VERSION);
    rc = sql ? sqlite3_exec(db, sql, 0, 0, err) : SQLITE_NOMEM;
    sqlite3_free(sql);
  }
  return rc;
}
