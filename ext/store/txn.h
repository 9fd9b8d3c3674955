/*
** txn.h -- the transaction of a call: BEGIN IMMEDIATE in autocommit mode
** (the write lock up front, so WAL snapshot upgrades cannot fail), else a
** SAVEPOINT inside the caller's transaction. end() commits on
** rc==SQLITE_OK, else rolls back completely (ROLLBACK TO + RELEASE),
** leaving nothing open. The rollback resets the connection's error
** message, so end() keeps the failure's message first: report it with
** store_txn_errmsg().
** The undo statements are prepared before the transaction starts: after
** an out-of-memory error inside a SQL function, SQLite prepares nothing
** more until the outer statement ends, so a ROLLBACK prepared only then
** would fail and leave the transaction (and the write lock) open.
*/
#ifndef TRIGGERS_TXN_H
#define TRIGGERS_TXN_H

#include "store/store.h"

typedef struct store_txn {
  int mode;
  store *s; /* BEGIN / COMMIT from this cache (begin_cached), else NULL */
  sqlite3_stmt *undo[2]; /* ROLLBACK, or ROLLBACK TO + RELEASE */
  int own_undo;          /* undo[] finalized by end() (not from the cache) */
  char msg[256];         /* the connection's error message when end() failed */
} store_txn;
int store_txn_begin(sqlite3 *db, store_txn *t);
/* The same, with BEGIN IMMEDIATE and COMMIT (or SAVEPOINT, ROLLBACK TO and
** RELEASE) prepared once in s. */
int store_txn_begin_cached(store *s, store_txn *t);
int store_txn_end(sqlite3 *db, store_txn *t, int rc);
/* The message of the failure end() rolled back, else sqlite3_errmsg(db). */
const char *store_txn_errmsg(const store_txn *t, sqlite3 *db);

#endif
