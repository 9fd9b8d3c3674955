/*
** register.h -- the register function of each file that adds SQL
** functions or a virtual table module to a connection, named after its
** file (fn_admin.c: fn_admin_register). sqlite3_triggers_init (ext.c)
** calls each in turn with the connection's context; each takes the
** references it keeps (trg_ctx_retain). SQLITE_OK or SQLite's error.
*/
#ifndef TRIGGERS_REGISTER_H
#define TRIGGERS_REGISTER_H

#include "base/context.h"

/* Virtual tables (sql/vtab_*.c). */
int vtab_triggers_register(sqlite3 *db, trg_ctx *ctx);
int vtab_runs_register(sqlite3 *db, trg_ctx *ctx);
int vtab_preview_register(sqlite3 *db, trg_ctx *ctx);
/* SQL functions (sql/fn_*.c). */
int fn_admin_register(sqlite3 *db, trg_ctx *ctx);
int fn_when_register(sqlite3 *db, trg_ctx *ctx);
int fn_describe_register(sqlite3 *db, trg_ctx *ctx);
/* The tick and the run lifecycle (tick/). */
int tick_register(sqlite3 *db, trg_ctx *ctx);
/* The agent-facing functions (agent/). */
int create_register(sqlite3 *db, trg_ctx *ctx);
int summary_register(sqlite3 *db, trg_ctx *ctx);

#endif
