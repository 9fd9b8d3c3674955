/*
** vtab_scan.c -- xBestIndex / xFilter / cursor methods shared by the
** `triggers`, `trigger_runs` and `trigger_events` virtual tables, and the
** xConnect of the two that read a shadow table of `triggers`. See
** vtab_scan.h.
**
** idxNum is unused (0); idxStr lists the consumed terms in argv order,
** each "<column><op>" with op one of = > >= < <=, comma-separated, then,
** when the query's ORDER BY is on columns of the table,
** "|ORDER BY <column>[ DESC], ...": the read sorts (or walks an index in
** that order) and SQLite need not, so `ORDER BY next_due_at LIMIT 10`
** reads ten rows of the due index, not the whole table.
*/
#include "sql/vtab_scan.h"

#include <string.h>

#include "base/args.h"
#include "store/schema.h"

SQLITE_EXTENSION_INIT3

typedef struct scan_cursor {
  sqlite3_vtab_cursor base;
  store_scan scan;
} scan_cursor;

static const char *op_text(unsigned char op) {
  switch (op) {
    case SQLITE_INDEX_CONSTRAINT_EQ: return "=";
    case SQLITE_INDEX_CONSTRAINT_GT: return ">";
    case SQLITE_INDEX_CONSTRAINT_GE: return ">=";
    case SQLITE_INDEX_CONSTRAINT_LT: return "<";
    case SQLITE_INDEX_CONSTRAINT_LE: return "<=";
    default: return NULL;
  }
}

int sql_scan_declare(sqlite3 *db, const scan_desc *d) {
  return store_declare_vtab(db, d->table);
}

int sql_scan_connect_reader(sqlite3 *db, trg_ctx *ctx, const scan_desc *d,
                            int argc, const char *const *argv,
                            sqlite3_vtab **out, char **err) {
  if (strcmp(argv[1], "main") != 0 || strcmp(argv[2], d->name) != 0 ||
      argc > 3) {
    *err = sqlite3_mprintf("%s: create it as main.%s with no arguments (got "
                           "%s.%s)",
                           d->name, d->name, argv[1], argv[2]);
    return SQLITE_ERROR;
  }
  int found;
  int rc = store_installed(db, &found, err);
  if (rc != SQLITE_OK) return rc; /* the schema could not be read: *err */
  if (!found) {
    *err = sqlite3_mprintf("%s: create the triggers table first (run "
                           "sql/install.sql)",
                           d->name);
    return SQLITE_ERROR;
  }
  /* an older version is read as migrated (trigger_install creates these
  ** tables before it migrates); a newer one is refused */
  i64 version;
  rc = store_schema_not_newer(db, &version, err);
  if (rc == SQLITE_OK) rc = sql_scan_declare(db, d);
  if (rc != SQLITE_OK) return rc;
  sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
  scan_tab *t = sql_scan_tab_new(db, ctx, d);
  if (!t) return SQLITE_NOMEM;
  trg_ctx_retain(ctx);
  *out = &t->base;
  return SQLITE_OK;
}

scan_tab *sql_scan_tab_new(sqlite3 *db, trg_ctx *ctx, const scan_desc *d) {
  scan_tab *t = sqlite3_malloc(sizeof *t);
  if (!t) return NULL;
  memset(t, 0, sizeof *t);
  t->db = db;
  t->ctx = ctx;
  t->desc = d;
  store_init(&t->st, db);
  return t;
}

int sql_scan_error(sqlite3_vtab *tab, int rc, char *msg) {
  sqlite3_free(tab->zErrMsg);
  tab->zErrMsg = msg;
  return rc;
}

int sql_scan_refuse_in_preload(sqlite3_vtab *tab) {
  const scan_tab *t = (const scan_tab *)tab;
  if (!t->ctx->in_preload) return SQLITE_OK;
  char *msg = sqlite3_mprintf("%s: may not be written from preload_sql (a "
                              "preload is a read-only query)",
                              t->desc->name);
  return msg ? sql_scan_error(tab, SQLITE_ERROR, msg) : SQLITE_NOMEM;
}

static const scan_key *key_of(const scan_desc *d, int col) {
  for (int i = 0; i < d->nkeys; i++) {
    if (d->keys[i].col == col) return &d->keys[i];
  }
  return NULL;
}

/* 1 when the query's ORDER BY can be handed to the read: a few terms,
** each a column of the table (not the rowid). */
static int order_usable(const sqlite3_index_info *info) {
  if (info->nOrderBy < 1 || info->nOrderBy > STORE_ORDER_MAX) return 0;
  for (int i = 0; i < info->nOrderBy; i++) {
    if (info->aOrderBy[i].iColumn < 0) return 0;
  }
  return 1;
}

int sql_scan_best_index(sqlite3_vtab *tab, sqlite3_index_info *info) {
  const scan_desc *d = ((scan_tab *)tab)->desc;
  sqlite3_str *s = sqlite3_str_new(NULL);
  double cost = 1e6;
  int argv = 0, unique = 0;
  for (int i = 0; i < info->nConstraint; i++) {
    const struct sqlite3_index_constraint *c = &info->aConstraint[i];
    const char *op = op_text(c->op);
    const scan_key *k =
        c->usable && op && c->iColumn >= 0 ? key_of(d, c->iColumn) : NULL;
    if (!k || (k->eq_only && c->op != SQLITE_INDEX_CONSTRAINT_EQ)) continue;
    info->aConstraintUsage[i].argvIndex = ++argv;
    info->aConstraintUsage[i].omit = 1;
    sqlite3_str_appendf(s, "%s%s%s", argv > 1 ? "," : "",
                        d->cols[c->iColumn].name, op);
    double this_cost =
        c->op == SQLITE_INDEX_CONSTRAINT_EQ ? k->cost : k->cost * 4;
    if (this_cost < cost) cost = this_cost;
    if (k->unique && c->op == SQLITE_INDEX_CONSTRAINT_EQ) unique = 1;
  }
  int ordered = order_usable(info);
  if (ordered) {
    for (int i = 0; i < info->nOrderBy; i++) {
      const struct sqlite3_index_orderby *o = &info->aOrderBy[i];
      sqlite3_str_appendf(s, "%s%s%s", i ? ", " : "|ORDER BY ",
                          d->cols[o->iColumn].name, o->desc ? " DESC" : "");
    }
    info->orderByConsumed = 1;
  }
  char *str = sqlite3_str_finish(s);
  if ((argv || ordered) && !str) return SQLITE_NOMEM;
  info->idxStr = str;
  info->needToFreeIdxStr = 1;
  info->estimatedCost = cost;
  info->estimatedRows = unique ? 1 : (sqlite3_int64)(cost > 10 ? cost : 10);
  if (unique) info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
  return SQLITE_OK;
}

int sql_scan_open(sqlite3_vtab *tab, sqlite3_vtab_cursor **out) {
  (void)tab;
  scan_cursor *c = sqlite3_malloc(sizeof *c);
  if (!c) return SQLITE_NOMEM;
  memset(c, 0, sizeof *c);
  c->scan.eof = 1;
  *out = &c->base;
  return SQLITE_OK;
}

int sql_scan_close(sqlite3_vtab_cursor *cur) {
  scan_cursor *c = (scan_cursor *)cur;
  store_scan_close(&c->scan);
  sqlite3_free(c);
  return SQLITE_OK;
}

/* The column named by the first len bytes of name (idxStr), or -1. */
static int col_named(const scan_desc *d, const char *name, int len) {
  for (int i = 0; i < d->ncol; i++) {
    if ((int)strlen(d->cols[i].name) == len &&
        strncmp(d->cols[i].name, name, (size_t)len) == 0) {
      return i;
    }
  }
  return -1;
}

/* The operator text of idxStr at p (n bytes) as one of op_text's. */
static const char *op_named(const char *p, int n) {
  static const unsigned char ops[] = {
      SQLITE_INDEX_CONSTRAINT_EQ, SQLITE_INDEX_CONSTRAINT_GT,
      SQLITE_INDEX_CONSTRAINT_GE, SQLITE_INDEX_CONSTRAINT_LT,
      SQLITE_INDEX_CONSTRAINT_LE};
  for (size_t i = 0; i < sizeof ops; i++) {
    const char *t = op_text(ops[i]);
    if ((int)strlen(t) == n && strncmp(t, p, (size_t)n) == 0) return t;
  }
  return NULL;
}

/* The terms of "ORDER BY col[ DESC], ..." (idxStr after '|') into order[];
** their number, or -1 when the text is not that. */
static int order_parse(const scan_desc *d, const char *p, store_order *order) {
  static const char head[] = "ORDER BY ";
  if (strncmp(p, head, sizeof head - 1) != 0) return -1;
  p += sizeof head - 1;
  int n = 0;
  while (*p) {
    if (n == STORE_ORDER_MAX) return -1;
    int len = (int)strcspn(p, ", ");
    order[n].col = col_named(d, p, len);
    if (order[n].col < 0) return -1;
    p += len;
    order[n].desc = strncmp(p, " DESC", 5) == 0;
    if (order[n].desc) p += 5;
    n++;
    if (strncmp(p, ", ", 2) == 0) p += 2;
    else if (*p) return -1;
  }
  return n;
}

int sql_scan_filter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr,
                    int argc, sqlite3_value **argv) {
  (void)idxNum;
  scan_cursor *c = (scan_cursor *)cur;
  scan_tab *t = (scan_tab *)cur->pVtab;
  const scan_desc *d = t->desc;
  store_scan_close(&c->scan);
  for (int i = 0; i < argc; i++) {
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return SQLITE_OK;
  }
  /* idxStr was written by sql_scan_best_index: "col op,col op", in argv order,
  ** then "|ORDER BY col[ DESC], ..." */
  store_order order[STORE_ORDER_MAX];
  const char *by = idxStr ? strchr(idxStr, '|') : NULL;
  int norder = by ? order_parse(d, by + 1, order) : 0;
  if (norder < 0) {
    return sql_scan_error(
        cur->pVtab, SQLITE_ERROR,
        sqlite3_mprintf("%s: bad idxStr '%s'", d->name, idxStr));
  }
  store_term *terms = sqlite3_malloc64(sizeof *terms * (size_t)(argc + 1));
  if (!terms) return SQLITE_NOMEM;
  const char *p = idxStr ? idxStr : "";
  int n = 0;
  while (*p && *p != '|' && n < argc) {
    int len = (int)strcspn(p, ",|");
    const char *end = p[len] == ',' ? p + len : NULL;
    int namelen = (int)strcspn(p, "=<>");
    if (namelen > len) namelen = len;
    terms[n].col = col_named(d, p, namelen);
    terms[n].op = op_named(p + namelen, len - namelen);
    n++;
    p += len + (end ? 1 : 0);
  }
  int rc =
      store_scan_open(t->db, d->table, terms, n, argv, order, norder, &c->scan);
  sqlite3_free(terms);
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM) {
    return sql_scan_error(cur->pVtab, rc,
                          sqlite3_mprintf("%s", trg_errmsg(t->db, rc)));
  }
  return rc;
}

int sql_scan_next(sqlite3_vtab_cursor *cur) {
  scan_cursor *c = (scan_cursor *)cur;
  int rc = store_scan_next(&c->scan);
  if (rc == SQLITE_OK) return SQLITE_OK;
  scan_tab *t = (scan_tab *)cur->pVtab;
  return sql_scan_error(cur->pVtab, rc,
                        sqlite3_mprintf("%s", trg_errmsg(t->db, rc)));
}

int sql_scan_eof(sqlite3_vtab_cursor *cur) {
  return ((scan_cursor *)cur)->scan.eof;
}

int sql_scan_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i) {
  scan_cursor *c = (scan_cursor *)cur;
  /* UPDATE: unchanged columns stay "nochange" so xUpdate can tell. */
  if (sqlite3_vtab_nochange(ctx)) return SQLITE_OK;
  sqlite3_result_value(ctx, store_scan_column(&c->scan, i));
  return SQLITE_OK;
}

int sql_scan_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid) {
  *rowid = store_scan_rowid(&((scan_cursor *)cur)->scan);
  return SQLITE_OK;
}

int sql_scan_disconnect(sqlite3_vtab *tab) {
  scan_tab *t = (scan_tab *)tab;
  store_close(&t->st);
  trg_ctx_release(t->ctx);
  sqlite3_free(t);
  return SQLITE_OK;
}

int sql_scan_rename(sqlite3_vtab *tab, const char *name) {
  scan_tab *t = (scan_tab *)tab;
  return sql_scan_error(tab, SQLITE_ERROR,
                        sqlite3_mprintf("%s: cannot be renamed to '%s' (the "
                                        "functions expect this name)",
                                        t->desc->name, name));
}
