/*
** store.c -- the store handle (store.h): a connection and its cache of
** prepared statements, each prepared once (SQLITE_PREPARE_PERSISTENT)
** from the text its concept file gives, and kept until store_close.
*/
#include "store/store.h"

#include <string.h>

SQLITE_EXTENSION_INIT3

_Static_assert(ST_COUNT <= 256, "store.used holds an id per byte");

void store_init(store *s, sqlite3 *db) {
  memset(s, 0, sizeof *s);
  s->db = db;
}

void store_close(store *s) {
  for (int k = 0; k < s->nused; k++) {
    int i = s->used[k];
    sqlite3_finalize(s->st[i]);
    s->st[i] = NULL;
  }
  s->nused = 0;
  if (s->preload_end) s->preload_end(s, 1);
}

store *store_new(sqlite3 *db) {
  store *s = sqlite3_malloc(sizeof *s);
  if (s) store_init(s, db);
  return s;
}

void store_free(void *s) {
  store_close(s);
  sqlite3_free(s);
}

void store_reset_all(store *s) {
  for (int k = 0; k < s->nused; k++) {
    sqlite3_stmt *st = s->st[s->used[k]];
    if (sqlite3_stmt_busy(st)) sqlite3_reset(st);
  }
  if (s->preload_end) s->preload_end(s, 0);
}

void store_cost_start(store *s) {
  for (int k = 0; k < s->nused; k++) {
    sqlite3_stmt *st = s->st[s->used[k]];
    sqlite3_stmt_status(st, SQLITE_STMTSTATUS_VM_STEP, 1);
    sqlite3_stmt_status(st, SQLITE_STMTSTATUS_FULLSCAN_STEP, 1);
  }
}

void store_cost(const store *s, i64 *vm_steps, i64 *fullscan_steps) {
  *vm_steps = *fullscan_steps = 0;
  for (int k = 0; k < s->nused; k++) {
    sqlite3_stmt *st = s->st[s->used[k]];
    *vm_steps += sqlite3_stmt_status(st, SQLITE_STMTSTATUS_VM_STEP, 0);
    *fullscan_steps +=
        sqlite3_stmt_status(st, SQLITE_STMTSTATUS_FULLSCAN_STEP, 0);
  }
}

sqlite3_stmt *store_stmt(store *s, store_sql which, store_text_fn text) {
  if (!s->st[which]) {
    char *sql = text(which);
    if (!sql) return NULL;
    int rc = sqlite3_prepare_v3(s->db, sql, -1, SQLITE_PREPARE_PERSISTENT,
                                &s->st[which], NULL);
    sqlite3_free(sql);
    if (rc != SQLITE_OK) return NULL;
    s->used[s->nused++] = (unsigned char)which;
  } else {
    sqlite3_reset(s->st[which]);
    sqlite3_clear_bindings(s->st[which]);
  }
  return s->st[which];
}

int store_err(store *s) {
  int rc = sqlite3_errcode(s->db);
  return rc == SQLITE_OK || rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_NOMEM
                                                                  : rc;
}

int store_no_cache_spill(sqlite3 *db) {
  return sqlite3_exec(db, "PRAGMA cache_spill=OFF", NULL, NULL, NULL);
}

void store_cursor_close(store_cursor *c) {
  if (c->st) sqlite3_reset(c->st);
  c->st = NULL;
}

int store_step_done(sqlite3_stmt *st, int rc) {
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  sqlite3_reset(st);
  return rc == SQLITE_DONE ? SQLITE_OK : rc;
}
