/*
** kept.c -- one call's statements (kept.h): the connection's kept ones
** lent to it, or its own; its transaction begun with them.
*/
#include "store/kept.h"

#include "store/preload_sql.h"
#include "store/schema.h"

SQLITE_EXTENSION_INIT3

/* The kept store, lent to the calling function until kept_give
** (main.triggers is connected first if needed: statements are kept only
** while it is). NULL when they cannot be lent. The store's err is cleared
** (it is per call). */
static store *kept_take(trg_ctx *c, sqlite3 *db) {
  void *kept;
  /* the calls' begin connected it (store_require_installed) or found
  ** why it cannot be: then the call prepares its own statements */
  if (!trg_ctx_has_table(c)) (void)store_connect_table(db);
  if (!trg_ctx_stmts_begin(c, &kept)) return NULL;
  store *s = kept ? kept : store_new(db);
  if (!s) {
    trg_ctx_stmts_end(c, NULL, NULL);
    return NULL;
  }
  s->err = 0; /* store.err is per call: never carried between users */
  store_preload_stale(s); /* the config is read again by this call */
  return s;
}

/* Hand s back, reset, with any statements prepared meanwhile. */
static void kept_give(trg_ctx *c, store *s) {
  store_reset_all(s);
  s->err = 0;
  trg_ctx_stmts_end(c, s, store_free);
}

void store_call_init(store_call *c, sqlite3 *db, trg_ctx *ctx) {
  c->db = db;
  c->ctx = ctx;
  c->kept = NULL;
  store_init(&c->own, db);
  c->st = &c->own;
}

int store_call_begin(store_call *c, sqlite3_context *ctx, const char *fname) {
  store_call_init(c, sqlite3_context_db_handle(ctx), sqlite3_user_data(ctx));
  return store_require_installed(ctx, fname);
}

void store_call_take(store_call *c) {
  c->kept = kept_take(c->ctx, c->db);
  if (!c->kept) return;
  store_cost_start(c->kept); /* per-call cost (trigger_last_tick) */
  c->st = c->kept;
}

void store_call_give(store_call *c) {
  if (!c->kept) return;
  c->st = &c->own;
  kept_give(c->ctx, c->kept);
  c->kept = NULL;
}

int store_call_txn_begin(store_call *c, store_txn *txn) {
  return c->kept ? store_txn_begin_cached(c->kept, txn)
                 : store_txn_begin(c->db, txn);
}

void store_call_stmts_done(store_call *c) {
  if (c->kept) store_reset_all(c->kept);
  else store_close(&c->own);
}

void store_call_end(store_call *c) {
  store_call_give(c);
  store_close(&c->own);
}
