/*
** kept.h -- the statements a connection keeps between calls (context.h's
** stmts: one store, prepared as calls need them), lent to one call at a
** time: the tick's functions and trigger_create borrow them so that a
** call prepares nothing its predecessors prepared already.
*/
#ifndef TRIGGERS_KEPT_H
#define TRIGGERS_KEPT_H

#include "store/store.h"

/* The kept store, lent to the calling function until store_kept_give
** (main.triggers is connected first if needed: statements are kept only
** while it is). NULL when they cannot be lent (an outer call has them, or
** out of memory): the call then prepares its own. The store's err is
** cleared (it is per call). */
store *store_kept_take(trg_ctx *c, sqlite3 *db);
/* Hand s back, reset, with any statements prepared meanwhile. */
void store_kept_give(trg_ctx *c, store *s);

#endif
