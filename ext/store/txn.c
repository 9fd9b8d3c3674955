/*
** txn.c -- the transaction of a call (txn.h): BEGIN IMMEDIATE in
** autocommit mode, else a SAVEPOINT inside the caller's transaction, with
** its undo prepared first, and the failure's message kept.
*/
#include "store/txn.h"

SQLITE_EXTENSION_INIT3

enum { TXN_NONE, TXN_BEGIN, TXN_SAVEPOINT };

/* The text of statement `which` (NULL: out of memory, or not one of this
** file's). */
static char *sql_text(store_sql which) {
  char *out = NULL;
  switch (which) {
    case ST_BEGIN: out = sqlite3_mprintf("BEGIN IMMEDIATE"); break;
    case ST_COMMIT: out = sqlite3_mprintf("COMMIT"); break;
    case ST_ROLLBACK: out = sqlite3_mprintf("ROLLBACK"); break;
    case ST_SAVEPOINT: out = sqlite3_mprintf("SAVEPOINT triggers_txn"); break;
    case ST_ROLLBACK_TO:
      out = sqlite3_mprintf("ROLLBACK TO triggers_txn");
      break;
    case ST_RELEASE: out = sqlite3_mprintf("RELEASE triggers_txn"); break;
    default: break;
  }
  return out;
}

static void undo_free(store_txn *t) {
  if (t->own_undo) {
    sqlite3_finalize(t->undo[0]);
    sqlite3_finalize(t->undo[1]);
  }
  t->undo[0] = t->undo[1] = NULL;
}

int store_txn_begin(sqlite3 *db, store_txn *t) {
  t->msg[0] = 0;
  t->s = NULL;
  t->undo[0] = t->undo[1] = NULL;
  t->own_undo = 1;
  int rc;
  if (sqlite3_get_autocommit(db)) {
    t->mode = TXN_BEGIN;
    rc = sqlite3_prepare_v2(db, "ROLLBACK", -1, &t->undo[0], NULL);
    if (rc == SQLITE_OK) rc = sqlite3_exec(db, "BEGIN IMMEDIATE", 0, 0, 0);
  } else {
    t->mode = TXN_SAVEPOINT;
    rc = sqlite3_prepare_v2(db, "ROLLBACK TO triggers_txn", -1, &t->undo[0],
                            NULL);
    if (rc == SQLITE_OK) {
      rc =
          sqlite3_prepare_v2(db, "RELEASE triggers_txn", -1, &t->undo[1], NULL);
    }
    if (rc == SQLITE_OK)
      rc = sqlite3_exec(db, "SAVEPOINT triggers_txn", 0, 0, 0);
  }
  if (rc != SQLITE_OK) {
    undo_free(t);
    t->mode = TXN_NONE;
  }
  return rc;
}

/* Step a prepared statement that returns no rows (the undo statements). */
static int step_stmt(sqlite3_stmt *st) {
  int rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/* Step a statement that returns no rows, e.g. BEGIN. */
static int step_done(store *s, store_sql which) {
  sqlite3_stmt *st = store_stmt(s, which, sql_text);
  return st ? step_stmt(st) : store_err(s);
}

int store_txn_begin_cached(store *s, store_txn *t) {
  s->err = 0;
  t->msg[0] = 0;
  t->s = s;
  t->undo[0] = t->undo[1] = NULL;
  t->own_undo = 0;
  int rc;
  if (sqlite3_get_autocommit(s->db)) { /* undo prepared first: store_txn */
    t->undo[0] = store_stmt(s, ST_ROLLBACK, sql_text);
    rc = t->undo[0] ? step_done(s, ST_BEGIN) : store_err(s);
    t->mode = TXN_BEGIN;
  } else {
    t->undo[0] = store_stmt(s, ST_ROLLBACK_TO, sql_text);
    if (t->undo[0]) t->undo[1] = store_stmt(s, ST_RELEASE, sql_text);
    rc = t->undo[1] ? step_done(s, ST_SAVEPOINT) : store_err(s);
    t->mode = TXN_SAVEPOINT;
  }
  if (rc != SQLITE_OK) t->mode = TXN_NONE;
  return rc;
}

/* Keep the failure's message before a rollback resets it. */
static void keep_errmsg(sqlite3 *db, store_txn *t) {
  t->msg[0] = 0;
  if (sqlite3_errcode(db) != SQLITE_OK) {
    sqlite3_snprintf((int)sizeof t->msg, t->msg, "%s", sqlite3_errmsg(db));
  }
}

int store_txn_end(sqlite3 *db, store_txn *t, int rc) {
  if (rc == SQLITE_OK && t->s && t->s->err) rc = t->s->err;
  if (t->mode == TXN_BEGIN) {
    if (rc == SQLITE_OK) {
      rc = t->s ? step_done(t->s, ST_COMMIT)
                : sqlite3_exec(db, "COMMIT", 0, 0, 0);
      if (rc == SQLITE_OK) goto done;
    }
    keep_errmsg(db, t);
    if (!sqlite3_get_autocommit(db)) step_stmt(t->undo[0]);
  } else if (t->mode == TXN_SAVEPOINT) {
    if (rc == SQLITE_OK) {
      rc = step_stmt(t->undo[1]);
      if (rc == SQLITE_OK) goto done;
    }
    keep_errmsg(db, t);
    /* After SQLITE_FULL / NOMEM / IOERR SQLite may already have rolled
    ** back the caller's whole transaction (and with it the savepoint):
    ** then there is nothing left to undo. */
    if (!sqlite3_get_autocommit(db)) {
      step_stmt(t->undo[0]);
      step_stmt(t->undo[1]);
    }
  }
done:
  undo_free(t);
  t->mode = TXN_NONE;
  return rc;
}

const char *store_txn_errmsg(const store_txn *t, sqlite3 *db) {
  return t->msg[0] ? t->msg : sqlite3_errmsg(db);
}
