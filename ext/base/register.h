/*
** register.h -- the register function of each file that adds SQL
** functions or a virtual table module to a connection, named after its
** file (fn_admin.c: sql_fn_admin_register). sqlite3_triggers_init (ext.c)
** calls each in turn with the connection's context; each takes the
** references it keeps (trg_ctx_retain). SQLITE_OK or SQLite's error.
*/
#ifndef TRIGGERS_REGISTER_H
#define TRIGGERS_REGISTER_H

#include "base/context.h"

/* One SQL function of a file: added for each argument count nmin..nmax
** with flags (SQLITE_UTF8 is implied) and the context as user data; one
** with side effects (SQLITE_DIRECTONLY) is noted in the context
** (trg_ctx_note_side: a preload may not call it). */
typedef struct trg_fn {
  const char *name;
  int nmin, nmax;
  int flags;
  void (*fn)(sqlite3_context *, int, sqlite3_value **);
} trg_fn;
/* Add fns[0..n) to db: the body of most register functions. */
int trg_fn_register(sqlite3 *db, trg_ctx *ctx, const trg_fn *fns, size_t n);

/* Flags of a function: pure (DETERMINISTIC is added where the result
** depends on the arguments alone), or with side effects (never from a
** view, a trigger or a CHECK). */
#define TRG_FN_PURE SQLITE_INNOCUOUS
#define TRG_FN_SIDE SQLITE_DIRECTONLY

/* Virtual tables (sql/vtab_*.c). */
int sql_vtab_triggers_register(sqlite3 *db, trg_ctx *ctx);
int sql_vtab_runs_register(sqlite3 *db, trg_ctx *ctx);
int sql_vtab_events_register(sqlite3 *db, trg_ctx *ctx);
int sql_vtab_preview_register(sqlite3 *db, trg_ctx *ctx);
int sql_vtab_calendar_register(sqlite3 *db, trg_ctx *ctx);
/* SQL functions (sql/fn_*.c). */
int sql_fn_admin_register(sqlite3 *db, trg_ctx *ctx);
int sql_fn_schedule_register(sqlite3 *db, trg_ctx *ctx);
int sql_fn_when_register(sqlite3 *db, trg_ctx *ctx);
int sql_fn_describe_register(sqlite3 *db, trg_ctx *ctx);
int sql_fn_dedupe_register(sqlite3 *db, trg_ctx *ctx);
int sql_fn_ical_register(sqlite3 *db, trg_ctx *ctx);

int sql_fn_calendar_register(sqlite3 *db, trg_ctx *ctx);
/* The tick and the run lifecycle (tick/fn_*.c). */
int tick_fn_run_due_register(sqlite3 *db, trg_ctx *ctx);
int tick_fn_trigger_ops_register(sqlite3 *db, trg_ctx *ctx);
int tick_fn_run_report_register(sqlite3 *db, trg_ctx *ctx);
int tick_fn_sql_job_register(sqlite3 *db, trg_ctx *ctx);
int tick_fn_wakeup_register(sqlite3 *db, trg_ctx *ctx);
int tick_fn_signal_register(sqlite3 *db, trg_ctx *ctx);
int tick_fn_run_ops_register(sqlite3 *db, trg_ctx *ctx);
int tick_vtab_signals_register(sqlite3 *db, trg_ctx *ctx);
/* The agent-facing functions (agent/). */
int agent_fn_create_register(sqlite3 *db, trg_ctx *ctx);
int agent_fn_summary_register(sqlite3 *db, trg_ctx *ctx);

#endif
