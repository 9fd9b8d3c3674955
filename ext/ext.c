/*
** ext.c -- the entry point: sqlite3_triggers_init creates the
** per-connection context (zone cache) and registers the virtual
** table modules and every SQL function.
**
**   .load ./build/triggers
**   .read sql/install.sql
**
** Built as the loadable object (sqlite3ext.h routes every sqlite3_* call
** through the api table SQLITE_EXTENSION_INIT2 stores), or with
** -DSQLITE_CORE into the static archive, where those macros are no-ops
** and the calls link to SQLite directly (sqlite-triggers.h declares the
** entry point for both).
*/
#include "base/register.h"
#include "sqlite-triggers.h"

SQLITE_EXTENSION_INIT1

/* Functions share one reference, released when the connection closes
** through this destructor-only function. */
static void noop(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
  (void)argc;
  (void)argv;
  sqlite3_result_null(ctx);
}

__attribute__((visibility("default"))) int sqlite3_triggers_init(
    sqlite3 *db, char **err, const sqlite3_api_routines *api) {
  SQLITE_EXTENSION_INIT2(api);
  if (sqlite3_libversion_number() < 3038000) {
    *err = sqlite3_mprintf("sqlite-triggers needs SQLite 3.38 or newer "
                           "(this is %s)",
                           sqlite3_libversion());
    return SQLITE_ERROR;
  }
  trg_ctx *c = trg_ctx_new();
  /* The functions' reference: dropped when this function is destroyed,
  ** and by SQLite itself when the function cannot be created (it calls
  ** the destructor then: releasing it here too freed it twice). */
  int rc = c ? sqlite3_create_function_v2(db, "trigger_internal_ctx", 0,
                                          SQLITE_UTF8 | SQLITE_DIRECTONLY, c,
                                          noop, 0, 0, trg_ctx_release)
             : SQLITE_NOMEM;
  /* DIRECTONLY as the functions with side effects: noted with them */
  if (rc == SQLITE_OK) rc = trg_ctx_note_side(c, "trigger_internal_ctx");
  /* Each file of functions or a module (base/register.h). */
  if (rc == SQLITE_OK) rc = sql_vtab_triggers_register(db, c);
  if (rc == SQLITE_OK) rc = sql_vtab_runs_register(db, c);
  if (rc == SQLITE_OK) rc = sql_vtab_events_register(db, c);
  if (rc == SQLITE_OK) rc = sql_vtab_preview_register(db, c);
  if (rc == SQLITE_OK) rc = sql_vtab_calendar_register(db, c);
  if (rc == SQLITE_OK) rc = tick_fn_run_due_register(db, c);
  if (rc == SQLITE_OK) rc = tick_fn_trigger_ops_register(db, c);
  if (rc == SQLITE_OK) rc = tick_fn_run_report_register(db, c);
  if (rc == SQLITE_OK) rc = tick_fn_sql_job_register(db, c);
  if (rc == SQLITE_OK) rc = tick_fn_wakeup_register(db, c);
  if (rc == SQLITE_OK) rc = tick_fn_signal_register(db, c);
  if (rc == SQLITE_OK) rc = tick_fn_run_ops_register(db, c);
  if (rc == SQLITE_OK) rc = tick_vtab_signals_register(db, c);
  if (rc == SQLITE_OK) rc = sql_fn_admin_register(db, c);
  if (rc == SQLITE_OK) rc = sql_fn_schedule_register(db, c);
  if (rc == SQLITE_OK) rc = sql_fn_when_register(db, c);
  if (rc == SQLITE_OK) rc = sql_fn_describe_register(db, c);
  if (rc == SQLITE_OK) rc = sql_fn_dedupe_register(db, c);
  if (rc == SQLITE_OK) rc = sql_fn_ical_register(db, c);

  if (rc == SQLITE_OK) rc = sql_fn_calendar_register(db, c);
  if (rc == SQLITE_OK) rc = agent_fn_create_register(db, c);
  if (rc == SQLITE_OK) rc = agent_fn_summary_register(db, c);
  if (rc != SQLITE_OK) {
    *err = sqlite3_mprintf("sqlite-triggers: %s", rc == SQLITE_NOMEM
                                                      ? sqlite3_errstr(rc)
                                                      : sqlite3_errmsg(db));
  }
  return rc;
}
