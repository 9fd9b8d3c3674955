/*
** kept.c -- lending the connection's kept statements to one call (see
** kept.h).
*/
#include "store/kept.h"

#include "store/preload_sql.h"
#include "store/schema.h"

SQLITE_EXTENSION_INIT3

store *store_kept_take(trg_ctx *c, sqlite3 *db) {
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

void store_kept_give(trg_ctx *c, store *s) {
  store_reset_all(s);
  s->err = 0;
  trg_ctx_stmts_end(c, s, store_free);
}
