/*
** vtab_signals.c -- the `trigger_signals` table (docs/reactive.md): an
** INSERT signals its event_key, and the table keeps nothing (a SELECT
** finds no row). It is how an application's own SQL triggers signal, in
** the transaction that writes the change they watch:
**
**   CREATE TRIGGER order_paid AFTER UPDATE OF status ON orders
**   WHEN NEW.status = 'paid' BEGIN
**     INSERT INTO trigger_signals(event_key, payload)
**       VALUES ('order:' || NEW.id || ':paid', json_object('total', NEW.total));
**   END;
**
** An eponymous virtual table (nothing to create: every connection that
** loaded the extension has it), SQLITE_VTAB_INNOCUOUS so that SQL
** triggers and views may use it whatever PRAGMA trusted_schema says: its
** writes stay in the database, inside the writing statement's
** transaction, so a rolled-back transaction signals nothing. The hidden
** column `now` (INTEGER ms or ISO-8601 text; NULL: the wall clock) makes
** an INSERT deterministic, as trigger_signal's argument does.
*/
#include <string.h>

#include "base/args.h"
#include "base/register.h"
#include "store/schema.h"
#include "trigger/signal.h"

SQLITE_EXTENSION_INIT3

enum { SG_EVENT_KEY, SG_PAYLOAD, SG_NOW };

typedef struct signals_tab {
  sqlite3_vtab base;
  sqlite3 *db;
  trg_ctx *ctx;
  store st; /* the table's statements, kept while it is connected */
} signals_tab;

static int signals_connect(sqlite3 *db, void *aux, int argc,
                           const char *const *argv, sqlite3_vtab **out,
                           char **err) {
  (void)argc;
  (void)argv;
  (void)err;
  int rc = sqlite3_declare_vtab(
      db, "CREATE TABLE x(event_key TEXT, payload TEXT, now HIDDEN)");
  if (rc != SQLITE_OK) return rc;
  sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
  signals_tab *t = sqlite3_malloc(sizeof *t);
  if (!t) return SQLITE_NOMEM;
  memset(t, 0, sizeof *t);
  t->db = db;
  t->ctx = aux;
  store_init(&t->st, db);
  trg_ctx_retain(t->ctx);
  *out = &t->base;
  return SQLITE_OK;
}

static int signals_disconnect(sqlite3_vtab *tab) {
  signals_tab *t = (signals_tab *)tab;
  store_close(&t->st);
  trg_ctx_release(t->ctx);
  sqlite3_free(t);
  return SQLITE_OK;
}

/* Nothing is kept: every read is an empty scan. */
static int signals_best_index(sqlite3_vtab *tab, sqlite3_index_info *info) {
  (void)tab;
  info->estimatedCost = 1.0;
  info->estimatedRows = 0;
  return SQLITE_OK;
}

static int signals_open(sqlite3_vtab *tab, sqlite3_vtab_cursor **out) {
  (void)tab;
  sqlite3_vtab_cursor *c = sqlite3_malloc(sizeof *c);
  if (!c) return SQLITE_NOMEM;
  memset(c, 0, sizeof *c);
  *out = c;
  return SQLITE_OK;
}

static int signals_close(sqlite3_vtab_cursor *c) {
  sqlite3_free(c);
  return SQLITE_OK;
}

static int signals_filter(sqlite3_vtab_cursor *c, int idx, const char *s,
                          int argc, sqlite3_value **argv) {
  (void)c;
  (void)idx;
  (void)s;
  (void)argc;
  (void)argv;
  return SQLITE_OK;
}

static int signals_next(sqlite3_vtab_cursor *c) {
  (void)c;
  return SQLITE_OK;
}

static int signals_eof(sqlite3_vtab_cursor *c) {
  (void)c;
  return 1;
}

static int signals_column(sqlite3_vtab_cursor *c, sqlite3_context *ctx,
                          int col) {
  (void)c;
  (void)col;
  sqlite3_result_null(ctx);
  return SQLITE_OK;
}

static int signals_rowid(sqlite3_vtab_cursor *c, sqlite3_int64 *rowid) {
  (void)c;
  *rowid = 0;
  return SQLITE_OK;
}

static int fail(sqlite3_vtab *tab, int rc, char *msg) {
  sqlite3_free(tab->zErrMsg);
  tab->zErrMsg = msg;
  return msg || rc == SQLITE_NOMEM ? rc : SQLITE_NOMEM;
}

/* A column's text, valid UTF-8 (NULL: *out NULL). */
static int column_text(sqlite3_vtab *tab, sqlite3_value *v, const char *what,
                       const char **out) {
  *out = NULL;
  if (sqlite3_value_type(v) == SQLITE_NULL) return SQLITE_OK;
  if (sqlite3_value_type(v) != SQLITE_TEXT) {
    return fail(tab, SQLITE_MISMATCH,
                sqlite3_mprintf("trigger_signals.%s: must be text", what));
  }
  char name[40], *err = NULL;
  sqlite3_snprintf(sizeof name, name, "trigger_signals.%s", what);
  int rc = trg_value_text(v, 0, name, out, &err);
  return rc == SQLITE_OK ? rc : fail(tab, rc, err);
}

/* INSERT: the signal; UPDATE and DELETE never reach a row. */
static int signals_update(sqlite3_vtab *tab, int argc, sqlite3_value **argv,
                          sqlite3_int64 *rowid) {
  signals_tab *t = (signals_tab *)tab;
  *rowid = 0;
  if (argc < 2 + 3 || sqlite3_value_type(argv[0]) != SQLITE_NULL) {
    return fail(tab, SQLITE_ERROR,
                sqlite3_mprintf("trigger_signals: only INSERT is allowed"));
  }
  if (t->ctx->in_preload) {
    return fail(tab, SQLITE_ERROR,
                sqlite3_mprintf("trigger_signals: may not be written from "
                                "preload_sql (a preload is a read-only "
                                "query)"));
  }
  const char *key, *payload;
  int rc = column_text(tab, argv[2 + SG_EVENT_KEY], "event_key", &key);
  if (rc == SQLITE_OK && !key) {
    return fail(tab, SQLITE_CONSTRAINT_NOTNULL,
                sqlite3_mprintf("NOT NULL constraint failed: "
                                "trigger_signals.event_key"));
  }
  if (rc == SQLITE_OK)
    rc = column_text(tab, argv[2 + SG_PAYLOAD], "payload", &payload);
  if (rc != SQLITE_OK) return rc;
  i64 now = trg_wall_clock_ms();
  sqlite3_value *nv = argv[2 + SG_NOW];
  char *err = NULL;
  if (sqlite3_value_type(nv) != SQLITE_NULL) {
    rc = trg_instant_of(nv, 2, "now", &now, &err);
    if (rc != SQLITE_OK) {
      char *msg = err ? sqlite3_mprintf("trigger_signals: %s", err) : NULL;
      sqlite3_free(err);
      return fail(tab, rc == SQLITE_NOMEM ? rc : SQLITE_CONSTRAINT_CHECK, msg);
    }
  }
  int ready;
  rc = store_ready(t->ctx, t->db, &ready, &err);
  if (rc == SQLITE_OK && !ready) {
    err = sqlite3_mprintf("sqlite-triggers is not installed in this "
                          "database (run sql/install.sql)");
    rc = SQLITE_ERROR;
  }
  i64 n;
  if (rc == SQLITE_OK)
    rc = trigger_signal(t->ctx, &t->st, key, payload, now, &n, &err);
  if (rc == SQLITE_OK) return SQLITE_OK;
  /* a nested signal's message has its prefix already */
  int prefixed = err && strncmp(err, "trigger_signals: ", 17) == 0;
  char *msg =
      err && !prefixed ? sqlite3_mprintf("trigger_signals: %s", err) : err;
  if (msg != err) sqlite3_free(err);
  if (!msg && rc != SQLITE_NOMEM)
    msg = sqlite3_mprintf("trigger_signals: %s", trg_errmsg(t->db, rc));
  return fail(tab, rc, msg);
}

static sqlite3_module signals_module = {
    /* iVersion    */ 3,
    /* xCreate     */ 0, /* eponymous only */
    /* xConnect    */ signals_connect,
    /* xBestIndex  */ signals_best_index,
    /* xDisconnect */ signals_disconnect,
    /* xDestroy    */ 0,
    /* xOpen       */ signals_open,
    /* xClose      */ signals_close,
    /* xFilter     */ signals_filter,
    /* xNext       */ signals_next,
    /* xEof        */ signals_eof,
    /* xColumn     */ signals_column,
    /* xRowid      */ signals_rowid,
    /* xUpdate     */ signals_update,
    /* xBegin      */ 0,
    /* xSync       */ 0,
    /* xCommit     */ 0,
    /* xRollback   */ 0,
    /* xFindMethod */ 0,
    /* xRename     */ 0,
    /* xSavepoint  */ 0,
    /* xRelease    */ 0,
    /* xRollbackTo */ 0,
    /* xShadowName */ 0,
};

int tick_vtab_signals_register(sqlite3 *db, trg_ctx *ctx) {
  trg_ctx_retain(ctx);
  return sqlite3_create_module_v2(db, "trigger_signals", &signals_module, ctx,
                                  trg_ctx_release);
}
