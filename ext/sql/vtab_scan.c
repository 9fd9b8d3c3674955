/*
** vtab_scan.c -- xBestIndex / xFilter / cursor methods shared by the
** `triggers` and `trigger_runs` virtual tables. See vtab_scan.h.
**
** idxNum is unused (0); idxStr lists the consumed terms in argv order,
** each "<column><op>" with op one of = > >= < <=, comma-separated.
*/
#include "sql/vtab_scan.h"

#include <string.h>

SQLITE_EXTENSION_INIT3

typedef struct vt_cursor {
  sqlite3_vtab_cursor base;
  store_scan scan;
} vt_cursor;

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

int vt_declare(sqlite3 *db, const vt_desc *d) {
  return store_declare_vtab(db, d->table);
}

vt_tab *vt_new(sqlite3 *db, trg_ctx *ctx, const vt_desc *d) {
  vt_tab *t = sqlite3_malloc(sizeof *t);
  if (!t) return NULL;
  memset(t, 0, sizeof *t);
  t->db = db;
  t->ctx = ctx;
  t->desc = d;
  store_init(&t->st, db);
  return t;
}

int vt_error(sqlite3_vtab *tab, int rc, char *msg) {
  sqlite3_free(tab->zErrMsg);
  tab->zErrMsg = msg;
  return rc;
}

static const vt_key *key_of(const vt_desc *d, int col) {
  for (int i = 0; i < d->nkeys; i++) {
    if (d->keys[i].col == col) return &d->keys[i];
  }
  return NULL;
}

int vt_best_index(sqlite3_vtab *tab, sqlite3_index_info *info) {
  const vt_desc *d = ((vt_tab *)tab)->desc;
  sqlite3_str *s = sqlite3_str_new(NULL);
  double cost = 1e6;
  int argv = 0, unique = 0;
  for (int i = 0; i < info->nConstraint; i++) {
    const struct sqlite3_index_constraint *c = &info->aConstraint[i];
    const char *op = op_text(c->op);
    const vt_key *k =
        c->usable && op && c->iColumn >= 0 ? key_of(d, c->iColumn) : NULL;
    if (!k) continue;
    info->aConstraintUsage[i].argvIndex = ++argv;
    info->aConstraintUsage[i].omit = 1;
    sqlite3_str_appendf(s, "%s%s%s", argv > 1 ? "," : "",
                        d->cols[c->iColumn].name, op);
    double this_cost =
        c->op == SQLITE_INDEX_CONSTRAINT_EQ ? k->cost : k->cost * 4;
    if (this_cost < cost) cost = this_cost;
    if (k->unique && c->op == SQLITE_INDEX_CONSTRAINT_EQ) unique = 1;
  }
  char *str = sqlite3_str_finish(s);
  if (argv && !str) return SQLITE_NOMEM;
  info->idxStr = str;
  info->needToFreeIdxStr = 1;
  info->estimatedCost = cost;
  info->estimatedRows = unique ? 1 : (sqlite3_int64)(cost > 10 ? cost : 10);
  if (unique) info->idxFlags = SQLITE_INDEX_SCAN_UNIQUE;
  return SQLITE_OK;
}

int vt_open(sqlite3_vtab *tab, sqlite3_vtab_cursor **out) {
  (void)tab;
  vt_cursor *c = sqlite3_malloc(sizeof *c);
  if (!c) return SQLITE_NOMEM;
  memset(c, 0, sizeof *c);
  c->scan.eof = 1;
  *out = &c->base;
  return SQLITE_OK;
}

int vt_close(sqlite3_vtab_cursor *cur) {
  vt_cursor *c = (vt_cursor *)cur;
  store_scan_close(&c->scan);
  sqlite3_free(c);
  return SQLITE_OK;
}

/* The column named by the first len bytes of name (idxStr), or -1. */
static int col_named(const vt_desc *d, const char *name, int len) {
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

int vt_filter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr,
              int argc, sqlite3_value **argv) {
  (void)idxNum;
  vt_cursor *c = (vt_cursor *)cur;
  vt_tab *t = (vt_tab *)cur->pVtab;
  const vt_desc *d = t->desc;
  store_scan_close(&c->scan);
  for (int i = 0; i < argc; i++) {
    if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return SQLITE_OK;
  }
  /* idxStr was written by vt_best_index: "col op,col op", in argv order. */
  store_term *terms = sqlite3_malloc64(sizeof *terms * (size_t)(argc + 1));
  if (!terms) return SQLITE_NOMEM;
  const char *p = idxStr ? idxStr : "";
  int n = 0;
  while (*p && n < argc) {
    const char *end = strchr(p, ',');
    int len = end ? (int)(end - p) : (int)strlen(p);
    int namelen = (int)strcspn(p, "=<>");
    if (namelen > len) namelen = len;
    terms[n].col = col_named(d, p, namelen);
    terms[n].op = op_named(p + namelen, len - namelen);
    n++;
    p += len + (end ? 1 : 0);
  }
  int rc = store_scan_open(t->db, d->table, terms, n, argv, &c->scan);
  sqlite3_free(terms);
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM) {
    return vt_error(cur->pVtab, rc,
                    sqlite3_mprintf("%s", sqlite3_errmsg(t->db)));
  }
  return rc;
}

int vt_next(sqlite3_vtab_cursor *cur) {
  vt_cursor *c = (vt_cursor *)cur;
  int rc = store_scan_next(&c->scan);
  if (rc == SQLITE_OK) return SQLITE_OK;
  vt_tab *t = (vt_tab *)cur->pVtab;
  return vt_error(cur->pVtab, rc, sqlite3_mprintf("%s", sqlite3_errmsg(t->db)));
}

int vt_eof(sqlite3_vtab_cursor *cur) { return ((vt_cursor *)cur)->scan.eof; }

int vt_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i) {
  vt_cursor *c = (vt_cursor *)cur;
  /* UPDATE: unchanged columns stay "nochange" so xUpdate can tell. */
  if (sqlite3_vtab_nochange(ctx)) return SQLITE_OK;
  sqlite3_result_value(ctx, store_scan_column(&c->scan, i));
  return SQLITE_OK;
}

int vt_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid) {
  *rowid = store_scan_rowid(&((vt_cursor *)cur)->scan);
  return SQLITE_OK;
}

int vt_disconnect(sqlite3_vtab *tab) {
  vt_tab *t = (vt_tab *)tab;
  store_close(&t->st);
  trg_ctx_release(t->ctx);
  sqlite3_free(t);
  return SQLITE_OK;
}

int vt_rename(sqlite3_vtab *tab, const char *name) {
  vt_tab *t = (vt_tab *)tab;
  return vt_error(tab, SQLITE_ERROR,
                  sqlite3_mprintf("%s: cannot be renamed to '%s' (the "
                                  "functions expect this name)",
                                  t->desc->name, name));
}
