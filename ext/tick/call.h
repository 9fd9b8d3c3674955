/*
** call.h -- one call of a tick function, from its arguments to its
** result.
*/
#ifndef TRIGGERS_CALL_H
#define TRIGGERS_CALL_H

#include "store/txn.h"
#include "tick/tick.h"

/* Begin a call of fname: 0, or -1 with the error set (not installed). */
int tick_begin(tick *t, sqlite3_context *ctx, const char *fname);
void tick_end(tick *t);
/* Borrow the statements the connection keeps for this call (t->kept;
** connecting main.triggers first if needed: they are kept only while it
** is); without them the call prepares its own. Hand them back with
** tick_cache_give (any prepared meanwhile included). */
void tick_cache_take(tick *t);
void tick_cache_give(tick *t);
/* The call's transaction, with the kept statements when it has them. */
int tick_txn_begin(tick *t, store_txn *txn);
/* Before COMMIT no statement may stay active: reset the kept ones, or
** finalize the call's own. */
void tick_stmts_done(tick *t);
/* The state of a result text being built (sqlite3_str): SQLITE_OK,
** SQLITE_NOMEM, or SQLITE_TOOBIG past the connection's
** SQLITE_LIMIT_LENGTH (its message then kept for tick_fail). */
int tick_str_status(tick *t, sqlite3_str *s);

/* End the transaction; on failure keep its message for tick_fail. */
int tick_txn_end(tick *t, store_txn *txn, int rc);
/* Arguments 1 (now) and 2 (options) of trigger_run_due and
** trigger_next_wakeup into t: 0, or -1 with the error set. */
int tick_read_now_and_options(tick *t, sqlite3_context *ctx, int argc,
                              sqlite3_value **argv);
/* Report rc/err of a failed call as the function's error. */
void tick_fail(tick *t, sqlite3_context *ctx, int rc);
/* The function's result: t->out, or the error of the failed call. */
void tick_result(tick *t, sqlite3_context *ctx, int rc);
/* Keep what this tick cost for trigger_last_tick(). */
void tick_record_cost(tick *t);

#endif
