/*
** register.c -- adding a file's SQL functions to a connection (register.h).
*/
#include "base/register.h"

SQLITE_EXTENSION_INIT3

int trg_fn_register(sqlite3 *db, trg_ctx *ctx, const trg_fn *fns, size_t n) {
  int rc = SQLITE_OK;
  for (size_t i = 0; i < n && rc == SQLITE_OK; i++) {
    if (fns[i].flags & SQLITE_DIRECTONLY)
      rc = trg_ctx_note_side(ctx, fns[i].name);
    for (int a = fns[i].nmin; a <= fns[i].nmax && rc == SQLITE_OK; a++) {
      rc = sqlite3_create_function_v2(db, fns[i].name, a,
                                      SQLITE_UTF8 | fns[i].flags, ctx,
                                      fns[i].fn, 0, 0, 0);
    }
  }
  return rc;
}
