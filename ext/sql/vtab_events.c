/*
** vtab_events.c -- the `trigger_events` virtual table
** (docs/tables.md#the-trigger_events-table):
** one row per lifecycle event of a trigger (created, duplicate, rejected,
** updated, paused, resumed, auto_paused, expired, completed, cancelled,
** deleted), newest first, read from the shadow table triggers_events that
** the `triggers` table owns.
**
**   SELECT at, kind, code, detail FROM trigger_events WHERE trigger_id = ?;
**   SELECT * FROM trigger_events WHERE at >= ? AND kind = 'rejected';
**
** Read-only: rows are appended by the change they record, in its
** transaction, and deleted by trigger_prune (event_retention_ms). Lookups
** by trigger_id and by time are index probes; without ORDER BY the rows
** come newest first. Innocuous, like the other two tables.
*/
#include "base/register.h"
#include "sql/vtab_scan.h"

SQLITE_EXTENSION_INIT3

static const scan_key event_keys[] = {
    {EC_TRIGGER_ID, 0, 10.0, 0},
    {EC_AT, 0, 30.0, 0},
};

static const scan_desc events_desc = {
    "trigger_events", STORE_VTAB_EVENTS,
    store_event_cols, EC_NCOL,
    event_keys,       sizeof event_keys / sizeof event_keys[0]};

static int events_connect(sqlite3 *db, void *aux, int argc,
                          const char *const *argv, sqlite3_vtab **out,
                          char **err) {
  return sql_scan_connect_reader(db, aux, &events_desc, argc, argv, out, err);
}

static int events_update(sqlite3_vtab *tab, int argc, sqlite3_value **argv,
                         sqlite3_int64 *rowid) {
  (void)argc;
  (void)argv;
  (void)rowid;
  return sql_scan_error(
      tab, SQLITE_CONSTRAINT_CHECK,
      sqlite3_mprintf("trigger_events: read-only (events are "
                      "written by the changes they record and "
                      "deleted by trigger_prune)"));
}

static sqlite3_module events_module = {
    /* iVersion    */ 3,
    /* xCreate     */ events_connect,
    /* xConnect    */ events_connect,
    /* xBestIndex  */ sql_scan_best_index,
    /* xDisconnect */ sql_scan_disconnect,
    /* xDestroy    */ sql_scan_disconnect,
    /* xOpen       */ sql_scan_open,
    /* xClose      */ sql_scan_close,
    /* xFilter     */ sql_scan_filter,
    /* xNext       */ sql_scan_next,
    /* xEof        */ sql_scan_eof,
    /* xColumn     */ sql_scan_column,
    /* xRowid      */ sql_scan_rowid,
    /* xUpdate     */ events_update,
    /* xBegin      */ 0,
    /* xSync       */ 0,
    /* xCommit     */ 0,
    /* xRollback   */ 0,
    /* xFindMethod */ 0,
    /* xRename     */ sql_scan_rename,
    /* xSavepoint  */ 0,
    /* xRelease    */ 0,
    /* xRollbackTo */ 0,
    /* xShadowName */ 0,
};

int sql_vtab_events_register(sqlite3 *db, trg_ctx *ctx) {
  trg_ctx_retain(ctx);
  return sqlite3_create_module_v2(db, "trigger_events", &events_module, ctx,
                                  trg_ctx_release);
}
