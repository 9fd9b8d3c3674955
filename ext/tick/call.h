/*
** call.h -- one call of a tick function, from its arguments to its
** result.
*/
#ifndef TRIGGERS_CALL_H
#define TRIGGERS_CALL_H

#include "store/txn.h"
#include "tick/tick.h"

/* Begin a call of fname: 0, or -1 with the error set (not installed).
** Its statements and transaction: store_call_* on t->call. */
int tick_begin(tick *t, sqlite3_context *ctx, const char *fname);
void tick_end(tick *t);
/* The state of a result text being built (sqlite3_str): SQLITE_OK,
** SQLITE_NOMEM, or SQLITE_TOOBIG past the connection's
** SQLITE_LIMIT_LENGTH (its message then kept for tick_fail). */
int tick_str_status(tick *t, sqlite3_str *s);

/* End the transaction (the kept events written first, the result
** checked); on failure keep its message for tick_fail. */
int tick_txn_end(tick *t, store_txn *txn, int rc);
/* body(t, arg) in the call's transaction (begun, its statements reset,
** ended: tick_txn_end), then the function's result (tick_result). */
typedef int (*tick_body)(tick *t, void *arg);
void tick_in_txn(tick *t, sqlite3_context *ctx, tick_body body, void *arg);
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
