/*
** vtab_runs.c -- the `trigger_runs` virtual table: one row per claimed or
** recorded occurrence, read from the shadow table triggers_rundata that
** the `triggers` table owns.
**
**   SELECT run_id, status, error FROM trigger_runs WHERE trigger_id = ?;
**   DELETE FROM trigger_runs WHERE finished_at < ?;   -- manual pruning
**
** Rows are written only by the tick functions (trigger_run_due,
** trigger_run_finish, trigger_fire); INSERT and UPDATE are refused with a
** message that says which function to use. DELETE of a running run is
** refused too (it holds its trigger's overlap policy until it finishes):
** the statement fails and SQLite rolls back every row it had deleted (the
** implicit transaction, or the statement journal inside the caller's).
** Lookups by run_id (equal: its key parsed from it, store/run_key.h),
** trigger_id, agent_id, status, scheduled_for and finished_at are index
** probes. Innocuous, like `triggers`: views and SQL
** triggers may read it and DELETE from it.
*/
#include <string.h>

#include "base/args.h"
#include "base/register.h"
#include "sql/vtab_scan.h"
#include "store/run_rows.h"

SQLITE_EXTENSION_INIT3

static const scan_key run_keys[] = {
    {RC_RUN_ID, 1, 1.0, 1},    {RC_TRIGGER_ID, 0, 10.0, 0},
    {RC_AGENT_ID, 0, 20.0, 0}, {RC_SCHEDULED_FOR, 0, 30.0, 0},
    {RC_STATUS, 0, 200.0, 0},  {RC_FINISHED_AT, 0, 40.0, 0},
};

static const scan_desc runs_desc = {
    "trigger_runs", STORE_VTAB_RUNS, store_run_cols,
    RC_NPUBLIC,     run_keys,        sizeof run_keys / sizeof run_keys[0]};

static int runs_connect(sqlite3 *db, void *aux, int argc,
                        const char *const *argv, sqlite3_vtab **out,
                        char **err) {
  return sql_scan_connect_reader(db, aux, &runs_desc, argc, argv, out, err);
}

static int runs_update(sqlite3_vtab *tab, int argc, sqlite3_value **argv,
                       sqlite3_int64 *rowid) {
  scan_tab *t = (scan_tab *)tab;
  (void)rowid;
  int refused = sql_scan_refuse_in_preload(tab);
  if (refused != SQLITE_OK) return refused;
  if (argc != 1) {
    return sql_scan_error(tab, SQLITE_CONSTRAINT_CHECK,
                          sqlite3_mprintf("trigger_runs: rows are written by "
                                          "trigger_run_due, trigger_fire and "
                                          "trigger_run_finish; only DELETE is "
                                          "allowed here"));
  }
  char *running = NULL;
  int rc = store_run_delete(&t->st, sqlite3_value_int64(argv[0]), &running);
  if (running) {
    char *msg = sqlite3_mprintf("trigger_runs: run '%s' is running; finish it "
                                "first (trigger_run_finish), then delete it",
                                running);
    sqlite3_free(running);
    return sql_scan_error(tab, msg ? rc : SQLITE_NOMEM, msg);
  }
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM) {
    sql_scan_error(tab, rc, sqlite3_mprintf("%s", trg_errmsg(t->db, rc)));
  }
  return rc;
}

static sqlite3_module runs_module = {
    /* iVersion    */ 3,
    /* xCreate     */ runs_connect,
    /* xConnect    */ runs_connect,
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
    /* xUpdate     */ runs_update,
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

int sql_vtab_runs_register(sqlite3 *db, trg_ctx *ctx) {
  trg_ctx_retain(ctx);
  return sqlite3_create_module_v2(db, "trigger_runs", &runs_module, ctx,
                                  trg_ctx_release);
}
