/*
** vtab_triggers.c -- the `triggers` virtual table: one row per trigger.
**
**   CREATE VIRTUAL TABLE triggers USING triggers;   -- done by install.sql
**   INSERT INTO triggers(agent_id, instructions, trigger_type, interval_ms)
**     VALUES ('a1', 'Check the build', 'interval', 900000);
**   SELECT * FROM triggers WHERE agent_id = 'a1';   -- index probe
**
** Rows live in the shadow tables triggers_data and triggers_state (a
** trigger is one row of each, see store/schema.c). Reads go through
** vtab_scan.c: constraints on trigger_id, agent_id, status and
** next_due_at are answered from indexes. Writes (xUpdate) go through
** trigger/write.h, the one write path (trigger_create's too): validated
** completely before anything is written, so a rejected row changes
** nothing; SQLITE_VTAB_CONSTRAINT_SUPPORT makes OR IGNORE / OR ABORT /
** OR ROLLBACK behave as for ordinary tables, and OR REPLACE of an existing
** trigger_id updates that trigger in place, keeping its run history.
** A trigger inserted under the id of a deleted one is a new incarnation
** (store_next_incarnation): its runs get ids of their own (fire_json.h).
**
** Writes use the wall clock as "now" (for the first next_due_at of an
** INSERT, created_at is used when given, so inserts are deterministic).
**
** The table is SQLITE_VTAB_INNOCUOUS: views and SQL triggers may read and
** write it whatever PRAGMA trusted_schema says (an application's AFTER
** INSERT trigger creating a trigger: the outbox pattern). A write is
** validated like any INSERT and has no effect outside the database.
*/
#include <string.h>

#include "base/args.h"
#include "base/register.h"
#include "sql/vtab_scan.h"
#include "store/run_rows.h"
#include "store/schema.h"
#include "trigger/event.h"
#include "trigger/write.h"

SQLITE_EXTENSION_INIT3

static const scan_key trigger_keys[] = {
    {TC_TRIGGER_ID, 1, 1.0, 0},
    {TC_AGENT_ID, 0, 10.0, 0},
    {TC_NEXT_DUE_AT, 0, 20.0, 0},
    {TC_STATUS, 0, 100.0, 0},
};

static const scan_desc triggers_desc = {
    "triggers",         STORE_VTAB_TRIGGERS,
    store_trigger_cols, TC_NPUBLIC,
    trigger_keys,       sizeof trigger_keys / sizeof trigger_keys[0]};

static int triggers_open(sqlite3 *db, void *aux, int argc,
                         const char *const *argv, sqlite3_vtab **out,
                         char **err, int create) {
  trg_ctx *ctx = aux;
  if (strcmp(argv[1], "main") != 0 || strcmp(argv[2], "triggers") != 0 ||
      argc > 3) {
    *err = sqlite3_mprintf("triggers: create it as main.triggers with no "
                           "arguments (got %s.%s)",
                           argv[1], argv[2]);
    return SQLITE_ERROR;
  }
  int rc = create ? store_create(db, err) : store_check(db, err);
  if (rc == SQLITE_OK && create) rc = store_check(db, err);
  if (rc == SQLITE_OK) rc = sql_scan_declare(db, &triggers_desc);
  if (rc != SQLITE_OK) return rc;
  sqlite3_vtab_config(db, SQLITE_VTAB_CONSTRAINT_SUPPORT, 1);
  sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
  scan_tab *t = sql_scan_tab_new(db, ctx, &triggers_desc);
  if (!t) return SQLITE_NOMEM;
  trg_ctx_retain(ctx);
  trg_ctx_table_connect(ctx); /* the tick's statements: context.h */
  *out = &t->base;
  return SQLITE_OK;
}

static int triggers_create(sqlite3 *db, void *aux, int argc,
                           const char *const *argv, sqlite3_vtab **out,
                           char **err) {
  return triggers_open(db, aux, argc, argv, out, err, 1);
}

static int triggers_connect(sqlite3 *db, void *aux, int argc,
                            const char *const *argv, sqlite3_vtab **out,
                            char **err) {
  return triggers_open(db, aux, argc, argv, out, err, 0);
}

static int triggers_disconnect(sqlite3_vtab *tab) {
  trg_ctx_table_disconnect(((scan_tab *)tab)->ctx);
  return sql_scan_disconnect(tab);
}

static int triggers_destroy(sqlite3_vtab *tab) {
  scan_tab *t = (scan_tab *)tab;
  trg_ctx_stmts_drop(t->ctx); /* they read the tables dropped here */
  store_close(&t->st);
  int rc = store_drop(t->db);
  if (rc == SQLITE_OK) triggers_disconnect(tab);
  return rc;
}

static int triggers_shadow_name(const char *suffix) {
  return strcmp(suffix, "data") == 0 || strcmp(suffix, "state") == 0 ||
         strcmp(suffix, "rundata") == 0 || strcmp(suffix, "config") == 0 ||
         strcmp(suffix, "events") == 0 || strcmp(suffix, "calendar") == 0;
}

/* INSERT: the values as given, written by trigger_write_insert (write.h). */
static int do_insert(scan_tab *t, sqlite3_value **vals, sqlite3_int64 *rowid,
                     trigger_status *st) {
  trg_row r;
  trg_row_init(&r);
  int rc = trigger_read_values(&r, vals, 0, NULL, &st->msg);
  if (rc == SQLITE_OK) {
    rc = trigger_write_insert(t->ctx, &t->st, &r, trg_wall_clock_ms(),
                              sqlite3_vtab_on_conflict(t->db), NULL, st);
  }
  *rowid = r.id;
  trg_row_clear(&r);
  return rc;
}

static int do_update(scan_tab *t, sqlite3_value *rowid, sqlite3_value **vals,
                     trigger_status *st) {
  trg_row old, next;
  trg_row_init(&old);
  trg_row_init(&next);
  uint64_t changed = 0;
  int rc = store_trigger_load_id(&t->st, sqlite3_value_int64(rowid), &old);
  if (rc == SQLITE_DONE) {
    rc = SQLITE_OK; /* row vanished: nothing to update */
    goto done;
  }
  if (rc != SQLITE_ROW) goto done;
  trg_row_borrow(&next, &old);
  rc = trigger_read_values(&next, vals, 1, &changed, &st->msg);
  if (rc == SQLITE_OK && changed) {
    rc = trigger_write_update(t->ctx, &t->st, &old, &next, changed,
                              trg_wall_clock_ms(), st);
  }
done:
  trg_row_clear(&old);
  trg_row_clear(&next);
  return rc;
}

/* DELETE: the trigger's rows, and its `deleted` event (its runs stay). */
static int do_delete(scan_tab *t, i64 id) {
  trg_row old;
  trg_row_init(&old);
  int rc = store_trigger_load_id(&t->st, id, &old);
  if (rc == SQLITE_ROW) rc = store_trigger_delete(&t->st, id);
  if (rc == SQLITE_OK) {
    rc = trigger_event_write(&t->st, &old, "deleted", NULL, NULL,
                             trg_wall_clock_ms());
  }
  trg_row_clear(&old);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int triggers_update(sqlite3_vtab *tab, int argc, sqlite3_value **argv,
                           sqlite3_int64 *rowid) {
  scan_tab *t = (scan_tab *)tab;
  trigger_status st = TRIGGER_STATUS_INIT;
  int rc = sql_scan_refuse_in_preload(tab);
  if (rc != SQLITE_OK) return rc;
  if (argc == 1) {
    rc = do_delete(t, sqlite3_value_int64(argv[0]));
  } else if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
    rc = do_insert(t, argv + 2, rowid, &st);
  } else if (sqlite3_value_int64(argv[0]) != sqlite3_value_int64(argv[1])) {
    st.msg = sqlite3_mprintf("triggers: the rowid cannot be changed");
    rc = SQLITE_CONSTRAINT_CHECK;
  } else {
    rc = do_update(t, argv[0], argv + 2, &st);
  }
  char *err = st.msg;
  st.msg = NULL;
  trigger_status_clear(&st);
  if (rc != SQLITE_OK && !err && rc != SQLITE_NOMEM) {
    /* The connection's message, unless it is stale (our own failure). */
    err = sqlite3_mprintf("%s", trg_errmsg(t->db, rc));
  }
  if (err) sql_scan_error(tab, rc, err);
  return rc;
}

static sqlite3_module triggers_module = {
    /* iVersion    */ 3,
    /* xCreate     */ triggers_create,
    /* xConnect    */ triggers_connect,
    /* xBestIndex  */ sql_scan_best_index,
    /* xDisconnect */ triggers_disconnect,
    /* xDestroy    */ triggers_destroy,
    /* xOpen       */ sql_scan_open,
    /* xClose      */ sql_scan_close,
    /* xFilter     */ sql_scan_filter,
    /* xNext       */ sql_scan_next,
    /* xEof        */ sql_scan_eof,
    /* xColumn     */ sql_scan_column,
    /* xRowid      */ sql_scan_rowid,
    /* xUpdate     */ triggers_update,
    /* xBegin      */ 0,
    /* xSync       */ 0,
    /* xCommit     */ 0,
    /* xRollback   */ 0,
    /* xFindMethod */ 0,
    /* xRename     */ sql_scan_rename,
    /* xSavepoint  */ 0,
    /* xRelease    */ 0,
    /* xRollbackTo */ 0,
    /* xShadowName */ triggers_shadow_name,
};

int sql_vtab_triggers_register(sqlite3 *db, trg_ctx *ctx) {
  trg_ctx_retain(ctx);
  return sqlite3_create_module_v2(db, "triggers", &triggers_module, ctx,
                                  trg_ctx_release);
}
