/*
** migrate.c -- an older schema brought up to this one in place
** (migrate.h; trigger_install): each version's steps, in order, inside the
** caller's transaction.
*/
#include "store/migrate.h"

#include <string.h>

#include "store/columns.h"
#include "store/schema.h"
#include "store/v6_columns.h"
#include "text/run_text.h"

SQLITE_EXTENSION_INIT3

/* Version 2 -> 3: the columns a fire writes move from triggers_data to
** the new triggers_state, with the two time indexes. */
static char *migrate_v3_sql(void) {
  int all[TC_NCOL + 2], cols[TC_NCOL + 2], n = 0;
  for (int i = 0, k = store_table_cols(1, all); i < k; i++) {
    if (!store_new_in_v6(&store_trigger_cols[all[i]])) cols[n++] = all[i];
  }
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
    if (i != RC_INCARNATION && i != RC_LEASE_MS &&
        !store_new_in_v6(&store_run_cols[i]))
      sqlite3_str_appendf(s, ", %s", store_run_cols[i].name);
  }
  sqlite3_str_appendall(s, ") SELECT id");
  for (int i = 0; i < RC_NCOL; i++) {
    if (i == RC_ERROR) {
      sqlite3_str_appendall(
          s, ", CASE WHEN status = 'success' THEN NULL ELSE error END");
    } else if (i == RC_RESULT) {
      sqlite3_str_appendall(s, ", CASE WHEN status = 'success' THEN error END");
    } else if (i != RC_INCARNATION && i != RC_LEASE_MS &&
               !store_new_in_v6(&store_run_cols[i])) {
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

/*
** Version 5 -> 6: the three tables of a trigger and its runs rebuilt
** STRICT with their CHECKs (schema.c). A value the new table would refuse
** (changed outside the extension: a text in an INTEGER column, a time past
** the instant range, a running run without a lease) cannot be copied, and
** is not kept hidden either: as the tick does on reading such a row
** (docs/tables.md#changed-shadow-tables), its trigger is paused (a
** completed, cancelled or expired one keeps its status), next_due_at NULL,
** last_error "<table>.<column>: <value> ...; trigger paused". The value is
** then copied as its column's fallback (column_fallback), which a run's
** lease or retry time makes 0: the next tick settles that run (a lease
** expired, a retry of a paused trigger skipped).
*/

/* The statement of each column's refusal: its values of another type
** than the column's, or failing its CHECK. */
static void append_refused(sqlite3_str *s, const char *alias,
                           const store_coldef *c) {
  int is_int = c->kind == 'I' || c->kind == 'S';
  sqlite3_str_appendf(s, "(typeof(%s%s) NOT IN ('%s', 'null')", alias, c->name,
                      is_int ? "integer" : "text");
  /* the CHECK text names the bare column: read from alias's row */
  if (c->check) sqlite3_str_appendf(s, " OR NOT (%s)", c->check);
  sqlite3_str_appendall(s, ")");
}

/* A value shown in a message: a blob named, a text quoted and cut. */
static void append_shown(sqlite3_str *s, const char *alias, const char *col) {
  sqlite3_str_appendf(s,
                      "CASE typeof(%s%s) WHEN 'blob' THEN 'a blob'"
                      " WHEN 'text' THEN quote(substr(%s%s, 1, 40))"
                      " WHEN 'null' THEN 'NULL' ELSE CAST(%s%s AS TEXT) END",
                      alias, col, alias, col, alias, col);
}

/* What a refused value is copied as: a time of a run 0 (settled by the
** next tick), a column's DEFAULT, a NOT NULL enum's first value, any
** other NOT NULL column 0 or the value as text, else NULL. */
static void append_fallback(sqlite3_str *s, const store_coldef *c) {
  const char *dflt = strstr(c->decl, " DEFAULT ");
  const char *notnull = strstr(c->decl, "NOT NULL");
  const char *in = c->check ? strstr(c->check, " = '") : NULL;
  if (c->check && !in) {
    sqlite3_str_appendall(s, "0");
  } else if (dflt) {
    sqlite3_str_appendall(s, dflt + 9);
  } else if (in) {
    const char *end = strchr(in + 4, '\'');
    sqlite3_str_appendf(s, "'%.*s'", (int)(end - in - 4), in + 4);
  } else if (notnull && (c->kind == 'I' || c->kind == 'S')) {
    sqlite3_str_appendall(s, "0");
  } else if (notnull) {
    sqlite3_str_appendf(s, "CAST(%s AS TEXT)", c->name);
  } else {
    sqlite3_str_appendall(s, "NULL");
  }
}

/* Note the triggers of refused values of table `from` (its rows aliased
** x, the only table of the FROM: a CHECK names bare columns). */
static const char *const trigger_of_run =
    "(SELECT d.id FROM main.triggers_data AS d"
    " WHERE d.trigger_id = x.trigger_id)";
static void append_note_refused(sqlite3_str *s, const char *from,
                                const store_coldef *c) {
  int run = strcmp(from, "triggers_rundata") == 0;
  sqlite3_str_appendf(s,
                      "INSERT OR IGNORE INTO main.triggers_migrate_bad"
                      " SELECT %s, '%s.%s: ' || ",
                      run ? trigger_of_run : "x.id", from, c->name);
  append_shown(s, "x.", c->name);
  sqlite3_str_appendf(s,
                      " || ' is refused by schema version 6 (changed outside"
                      " the extension; found by trigger_install)'"
                      " FROM main.%s AS x WHERE %s",
                      from,
                      run ? "x.trigger_id IN (SELECT trigger_id FROM"
                            " main.triggers_data) AND "
                          : "");
  append_refused(s, "x.", c);
  sqlite3_str_appendall(s, ";");
}

/* The value column c is copied as: its own, or its fallback when refused. */
static void append_copied(sqlite3_str *s, const store_coldef *c) {
  sqlite3_str_appendall(s, "CASE WHEN ");
  append_refused(s, "", c);
  sqlite3_str_appendall(s, " THEN ");
  append_fallback(s, c);
  sqlite3_str_appendf(s, " ELSE %s END", c->name);
}

/* A run's run_id is copied as its key's (the CHECK of version 6): from the
** key's values as copied. */
static void append_copied_run_id(sqlite3_str *s) {
  static const int key[4] = {RC_TRIGGER_ID, RC_SCHEDULED_FOR, RC_ATTEMPT,
                             RC_INCARNATION};
  char *e[4] = {0};
  for (int i = 0; i < 4; i++) {
    sqlite3_str *k = sqlite3_str_new(NULL);
    append_copied(k, &store_run_cols[key[i]]);
    e[i] = sqlite3_str_finish(k);
    if (!e[i]) sqlite3_str_reset(s); /* out of memory: nothing built */
  }
  if (e[0] && e[1] && e[2] && e[3]) {
    sqlite3_str_appendall(s, "(");
    store_run_id_expr(s, (const char *const *)e);
    sqlite3_str_appendall(s, ")");
  }
  for (int i = 0; i < 4; i++) sqlite3_free(e[i]);
}

/* The rebuild of table `name` (columns defs[0..n), ddl its new CREATE):
** renamed away, created again, copied with each refused value as its
** fallback, the old one dropped. */
static void append_rebuild(sqlite3_str *s, const char *name, const char *ddl,
                           const store_coldef *const *defs, int n) {
  sqlite3_str_appendf(s,
                      "ALTER TABLE main.%s RENAME TO triggers_v5_copy;%s;"
                      "INSERT INTO main.%s(id",
                      name, ddl, name);
  for (int i = 0; i < n; i++) sqlite3_str_appendf(s, ", %s", defs[i]->name);
  sqlite3_str_appendall(s, ") SELECT id");
  for (int i = 0; i < n; i++) {
    sqlite3_str_appendall(s, ", ");
    if (defs[i] == &store_run_cols[RC_RUN_ID]) append_copied_run_id(s);
    else append_copied(s, defs[i]);
  }
  sqlite3_str_appendall(s, " FROM main.triggers_v5_copy ORDER BY id;"
                           "DROP TABLE main.triggers_v5_copy;");
}

/* Note the triggers of runs whose run_id is not their key's (changed
** outside the extension; version 6 checks it). */
static void append_note_run_id(sqlite3_str *s) {
  static const char *const key[4] = {"x.trigger_id", "x.scheduled_for",
                                     "x.attempt", "x.incarnation"};
  sqlite3_str_appendf(s,
                      "INSERT OR IGNORE INTO main.triggers_migrate_bad"
                      " SELECT %s, 'triggers_rundata.run_id: ' || ",
                      trigger_of_run);
  append_shown(s, "x.", "run_id");
  sqlite3_str_appendall(s, " || ' is not its run''s key (changed outside the"
                           " extension; found by trigger_install)'"
                           " FROM main.triggers_rundata AS x WHERE"
                           " x.trigger_id IN (SELECT trigger_id FROM"
                           " main.triggers_data) AND x.run_id IS NOT (");
  store_run_id_expr(s, key);
  sqlite3_str_appendall(s, ");");
}

static char *migrate_v6_sql(void) {
  char *ddl[3] = {store_trigger_table_ddl(0), store_trigger_table_ddl(1),
                  store_runs_table_ddl()};
  const store_coldef *defs[3][TC_NCOL + 2];
  int cols[TC_NCOL + 2], n[3];
  for (int t = 0; t < 2; t++) {
    int k = store_table_cols(t, cols);
    n[t] = 0;
    for (int i = 0; i < k; i++) {
      if (!store_new_in_v6(&store_trigger_cols[cols[i]]))
        defs[t][n[t]++] = t && cols[i] == TC_TRIGGER_ID
                              ? &store_state_trigger_id
                              : &store_trigger_cols[cols[i]];
    }
  }
  n[2] = 0;
  for (int i = 0; i < RC_NCOL; i++) {
    if (!store_new_in_v6(&store_run_cols[i]))
      defs[2][n[2]++] = &store_run_cols[i];
  }
  sqlite3_str *s = sqlite3_str_new(NULL);
  sqlite3_str_appendall(s, "CREATE TABLE main.triggers_migrate_bad("
                           "id INTEGER PRIMARY KEY, why TEXT NOT NULL);");
  static const char *const names[3] = {"triggers_data", "triggers_state",
                                       "triggers_rundata"};
  for (int t = 0; t < 3; t++) {
    for (int i = 0; i < n[t]; i++) append_note_refused(s, names[t], defs[t][i]);
  }
  append_note_run_id(s);
  sqlite3_str_appendf(
      s,
      "INSERT OR IGNORE INTO main.triggers_migrate_bad SELECT %s,"
      " 'triggers_rundata.lease_until: NULL on the running run ' ||"
      " quote(x.run_id) || ' is refused by schema version 6 (changed"
      " outside the extension; found by trigger_install)'"
      " FROM main.triggers_rundata AS x WHERE x.status = 'running'"
      " AND x.lease_until IS NULL AND x.trigger_id IN"
      " (SELECT trigger_id FROM main.triggers_data);"
      "UPDATE main.triggers_data SET enabled = 0, status = 'paused'"
      " WHERE id IN (SELECT id FROM main.triggers_migrate_bad)"
      " AND status NOT IN ('completed', 'cancelled', 'expired');"
      "UPDATE main.triggers_state SET next_due_at = NULL, fire_at = NULL,"
      " last_error = (SELECT why || '; trigger paused' FROM"
      " main.triggers_migrate_bad AS b WHERE b.id = triggers_state.id)"
      " WHERE id IN (SELECT id FROM main.triggers_migrate_bad);"
      "UPDATE main.triggers_rundata SET lease_until = 0"
      " WHERE status = 'running' AND lease_until IS NULL;"
      "DROP TABLE main.triggers_migrate_bad;",
      trigger_of_run);
  for (int t = 0; t < 3; t++)
    append_rebuild(s, names[t], ddl[t], defs[t], n[t]);
  sqlite3_str_appendf(s, "%s%s%s%s%s%s", store_index_ddl, store_index_runs_ddl,
                      store_index_v2_ddl, store_index_v3_ddl,
                      store_calendar_ddl, store_index_calendar_ddl);
  if (!ddl[0] || !ddl[1] || !ddl[2]) sqlite3_str_reset(s);
  for (int t = 0; t < 3; t++) sqlite3_free(ddl[t]);
  return sqlite3_str_finish(s);
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
  if (rc != SQLITE_OK) return rc;
  if (v == TRIGGERS_SCHEMA_VERSION) return store_v6_columns_add(db, err);
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
  if (rc == SQLITE_OK && v < 5)
    rc = sqlite3_exec(db, store_events_ddl, 0, 0, err);
  /* 5 -> 6: STRICT tables with CHECKs, refused values paused */
  if (rc == SQLITE_OK) rc = store_strict_supported(err);
  if (rc == SQLITE_OK) rc = exec_built(db, migrate_v6_sql, err);
  if (rc == SQLITE_OK) {
    char *sql = sqlite3_mprintf("UPDATE main.triggers_config SET value = %d"
                                " WHERE key = 'schema_version'",
                                TRIGGERS_SCHEMA_VERSION);
    rc = sql ? sqlite3_exec(db, sql, 0, 0, err) : SQLITE_NOMEM;
    sqlite3_free(sql);
  }
  return rc;
}
