/*
** kept.h -- the store's side of one call of an SQL function that reads
** and writes the tables (the tick's functions, trigger_fire / _pause /
** _resume / _cancel, trigger_create): the tables checked installed, the
** statements the call uses, its transaction begun with them, and no
** statement left active before COMMIT. The statements are the ones the
** connection keeps between calls (context.h's stmts: one store, prepared
** as calls need them, kept while main.triggers is connected), lent to one
** call at a time so that a call prepares nothing its predecessors
** prepared already; or, when they cannot be lent (an outer call has them,
** out of memory), the call's own, prepared per call.
**
**   store_call c;
**   if (store_call_begin(&c, ctx, "trigger_x") != 0) return; // answered
**   store_call_take(&c);                 // optional: the kept statements
**   store_txn txn;
**   int rc = store_call_txn_begin(&c, &txn);
**   ... reads and writes through c.st ...
**   store_call_stmts_done(&c);
**   rc = store_txn_end(c.db, &txn, rc);
**   store_call_end(&c);
*/
#ifndef TRIGGERS_KEPT_H
#define TRIGGERS_KEPT_H

#include "store/txn.h"

typedef struct store_call {
  sqlite3 *db;
  trg_ctx *ctx;
  store *st;   /* the statements the call uses: kept, or else own */
  store own;   /* the call's own (prepared per call, closed at its end) */
  store *kept; /* the connection's statements, lent to this call, or NULL */
} store_call;

/* c ready for a call on db with no check (store_call_begin's first part,
** for a caller that answers a missing install itself): its own
** statements until store_call_take. */
void store_call_init(store_call *c, sqlite3 *db, trg_ctx *ctx);
/* A call of fname: 0, or -1 with the function's error set (the tables
** not installed, or a side effect refused while a preload steps). c is
** usable either way (store_call_end). */
int store_call_begin(store_call *c, sqlite3_context *ctx, const char *fname);
/* Borrow the statements the connection keeps (their cost
** counted from here: store_cost). Without them the call prepares its own. */
void store_call_take(store_call *c);
/* Hand them back (with any prepared meanwhile) for the next call. */
void store_call_give(store_call *c);
/* The call's transaction, with the kept statements when it has them. */
int store_call_txn_begin(store_call *c, store_txn *txn);
/* Before COMMIT no statement may stay active: reset the kept ones, or
** finalize the call's own. */
void store_call_stmts_done(store_call *c);
/* The kept statements handed back, the call's own closed. */
void store_call_end(store_call *c);

#endif
