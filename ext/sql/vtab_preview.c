/*
** vtab_preview.c -- trigger_preview(spec, after [, tz]): a table-valued
** function listing the next occurrences of a schedule.
**
**   SELECT * FROM trigger_preview('0 7 * * MON-FRI',
**                                 '2026-03-27T00:00:00Z', 'Europe/Berlin')
**   LIMIT 3;
**   -- n | due_at (ms) | due_iso (in the zone)
**   SELECT t.trigger_id, p.due_iso FROM triggers t,
**          trigger_preview(t.trigger_id, 1767225600000) p WHERE p.n <= 3;
**
** spec is what trigger_next_due takes (cron text or a JSON schedule) or a
** trigger_id (spec_arg.c: a valid cron expression wins). Rows are produced
** lazily, one next-occurrence computation each, in n (and due_at) order;
** the series ends when the schedule has no further occurrence, and after
** PV_MAX_ROWS rows whatever the query, so no query over it runs unbounded.
** Constraints on n (=, <, <=, >, >=, BETWEEN) bound the series: the plan's
** idxStr lists them ("n>=,n<="); SQLite still checks each row (omit is
** not set), so a bound only ever saves work.
*/
#include <string.h>

#include "base/args.h"
#include "base/register.h"
#include "sql/spec_arg.h"
#include "store/schema.h"
#include "time/civil.h"

SQLITE_EXTENSION_INIT3

enum { PV_N, PV_DUE_AT, PV_DUE_ISO, PV_SPEC, PV_AFTER, PV_TZ };

/* No query reads more rows than this from one series. */
#define PV_MAX_ROWS 10000

typedef struct preview_cursor {
  sqlite3_vtab_cursor base;
  sched_spec spec;
  i64 n, due;
  i64 hi; /* the last n to yield */
  int eof;
} preview_cursor;

typedef struct preview_tab {
  sqlite3_vtab base;
  sqlite3 *db;
  trg_ctx *ctx;
} preview_tab;

static int preview_connect(sqlite3 *db, void *aux, int argc,
                           const char *const *argv, sqlite3_vtab **out,
                           char **err) {
  (void)argc;
  (void)argv;
  (void)err;
  int rc = store_declare_vtab(db, STORE_VTAB_PREVIEW);
  if (rc != SQLITE_OK) return rc;
  preview_tab *t = sqlite3_malloc(sizeof *t);
  if (!t) return SQLITE_NOMEM;
  memset(t, 0, sizeof *t);
  t->db = db;
  t->ctx = aux;
  trg_ctx_retain(aux);
  sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
  *out = &t->base;
  return SQLITE_OK;
}

static int preview_disconnect(sqlite3_vtab *t) {
  trg_ctx_release(((preview_tab *)t)->ctx);
  sqlite3_free(t);
  return SQLITE_OK;
}

/* The text of a constraint operator on n, or NULL when it cannot bound. */
static const char *n_op(unsigned char op) {
  switch (op) {
    case SQLITE_INDEX_CONSTRAINT_EQ: return "=";
    case SQLITE_INDEX_CONSTRAINT_LT: return "<";
    case SQLITE_INDEX_CONSTRAINT_LE: return "<=";
    case SQLITE_INDEX_CONSTRAINT_GT: return ">";
    case SQLITE_INDEX_CONSTRAINT_GE: return ">=";
    default: return NULL;
  }
}

/*
** idxNum bit k set: hidden argument k (spec, after, tz) is bound; they
** come first in argv. Then one argv value per usable constraint on n, in
** the order idxStr lists them ("n=", "n<", "n<=", "n>", "n>=", comma-
** separated).
*/
static int preview_best_index(sqlite3_vtab *t, sqlite3_index_info *info) {
  int argv_of[3] = {-1, -1, -1};
  for (int i = 0; i < info->nConstraint; i++) {
    const struct sqlite3_index_constraint *c = &info->aConstraint[i];
    if (c->iColumn < PV_SPEC || c->op != SQLITE_INDEX_CONSTRAINT_EQ) continue;
    if (!c->usable) return SQLITE_CONSTRAINT;
    argv_of[c->iColumn - PV_SPEC] = i;
  }
  if (argv_of[0] < 0 || argv_of[1] < 0) {
    sqlite3_free(t->zErrMsg);
    t->zErrMsg =
        sqlite3_mprintf("trigger_preview: needs spec and after "
                        "arguments: trigger_preview(spec, after [, tz])");
    return SQLITE_ERROR;
  }
  int n = 0, mask = 0;
  for (int k = 0; k < 3; k++) {
    if (argv_of[k] < 0) continue;
    info->aConstraintUsage[argv_of[k]].argvIndex = ++n;
    info->aConstraintUsage[argv_of[k]].omit = 1;
    mask |= 1 << k;
  }
  sqlite3_str *ops = sqlite3_str_new(NULL);
  double rows = PV_MAX_ROWS;
  for (int i = 0; i < info->nConstraint; i++) {
    const struct sqlite3_index_constraint *c = &info->aConstraint[i];
    const char *op = n_op(c->op);
    if (c->iColumn != PV_N || !c->usable || !op) continue;
    info->aConstraintUsage[i].argvIndex = ++n;
    sqlite3_str_appendf(ops, "%sn%s", sqlite3_str_length(ops) ? "," : "", op);
    rows = c->op == SQLITE_INDEX_CONSTRAINT_EQ ? 1 : rows / 4;
  }
  int rc = sqlite3_str_errcode(ops);
  char *idx = sqlite3_str_finish(ops);
  if (rc != SQLITE_OK) {
    sqlite3_free(idx);
    return rc;
  }
  info->idxStr = idx; /* NULL when no constraint on n */
  info->needToFreeIdxStr = 1;
  info->idxNum = mask;
  info->estimatedCost = 10 + rows;
  info->estimatedRows = (sqlite3_int64)rows;
  /* rows come in n order, and due_at grows with n */
  if (info->nOrderBy == 1 && !info->aOrderBy[0].desc &&
      (info->aOrderBy[0].iColumn == PV_N ||
       info->aOrderBy[0].iColumn == PV_DUE_AT)) {
    info->orderByConsumed = 1;
  }
  return SQLITE_OK;
}

static int preview_open(sqlite3_vtab *t, sqlite3_vtab_cursor **out) {
  (void)t;
  preview_cursor *c = sqlite3_malloc(sizeof *c);
  if (!c) return SQLITE_NOMEM;
  memset(c, 0, sizeof *c);
  *out = &c->base;
  return SQLITE_OK;
}

static int preview_close(sqlite3_vtab_cursor *c) {
  sqlite3_free(c);
  return SQLITE_OK;
}

/* The next occurrence, without looking at the bounds. */
static void preview_step(preview_cursor *c) {
  i64 next;
  if (!sched_next(&c->spec, c->due, &next)) {
    c->eof = 1;
  } else {
    c->due = next;
    c->n++;
  }
}

static int preview_next(sqlite3_vtab_cursor *cur) {
  preview_cursor *c = (preview_cursor *)cur;
  if (c->n >= c->hi) c->eof = 1;
  else preview_step(c);
  return SQLITE_OK;
}

/* Narrows [*lo, *hi] by one constraint "n <op> v" where v reads as a
** number the way SQLite compares it with n (INTEGER affinity: '5' is 5).
** Anything else leaves the bounds alone: SQLite checks every row anyway. */
static int preview_bound(const char *op, sqlite3_value *v, i64 *lo, i64 *hi) {
  i64 x;
  double d;
  if (sqlite3_value_type(v) == SQLITE_FLOAT) {
    d = sqlite3_value_double(v);
    if (!(d > -1e15 && d < 1e15)) return SQLITE_OK; /* NaN, huge */
    /* n < 2.5 is n <= 2; n > 2.5 is n >= 3; n = 2.5 is nothing */
    x = (i64)d;
    if (d != (double)x) {
      if (d < 0) x--; /* floor */
      if (op[0] == '=') *hi = 0;
      else if (op[0] == '<') *hi = x < *hi ? x : *hi;
      else if (x + 1 > *lo) *lo = x + 1;
      return SQLITE_OK;
    }
  } else {
    int num;
    if (trg_int_of(v, &x, &num) != SQLITE_OK) return SQLITE_NOMEM;
    if (!num) return SQLITE_OK;
  }
  if (op[0] == '=') {
    if (x > *lo) *lo = x;
    if (x < *hi) *hi = x;
  } else if (op[0] == '<') {
    i64 top = op[1] == '=' ? x : x - 1;
    if (top < *hi) *hi = top;
  } else {
    i64 bottom = op[1] == '=' ? x : x + 1;
    if (bottom > *lo) *lo = bottom;
  }
  return SQLITE_OK;
}

static int preview_filter(sqlite3_vtab_cursor *cur, int idxNum,
                          const char *idxStr, int argc, sqlite3_value **argv) {
  preview_cursor *c = (preview_cursor *)cur;
  preview_tab *t = (preview_tab *)cur->pVtab;
  int nhidden = (idxNum & 1) + ((idxNum >> 1) & 1) + ((idxNum >> 2) & 1);
  sqlite3_value *tz = (idxNum & 4) ? argv[2] : NULL;
  i64 after, lo = 1, hi = PV_MAX_ROWS;
  c->eof = 1;
  c->n = 0;
  char *err;
  int rc = trg_instant_of(argv[1], 1, "after", &after, &err);
  if (rc == SQLITE_OK) {
    rc = sql_spec_arg_values_or_id(t->db, t->ctx, argv[0], tz, 3, after,
                                   &c->spec, NULL, &err);
  }
  if (rc != SQLITE_OK) {
    sqlite3_free(t->base.zErrMsg);
    t->base.zErrMsg =
        sqlite3_mprintf("trigger_preview: %s", err ? err : sqlite3_errstr(rc));
    sqlite3_free(err);
    return rc;
  }
  /* constraints on n, in idxStr's order after the hidden arguments */
  for (int k = nhidden; idxStr && *idxStr && k < argc; k++) {
    const char *op = idxStr + 1; /* past the 'n' */
    if ((rc = preview_bound(op, argv[k], &lo, &hi)) != SQLITE_OK) return rc;
    idxStr = strchr(idxStr, ',');
    if (idxStr) idxStr++;
  }
  /* the bounds only narrow: 1 <= lo and hi <= PV_MAX_ROWS still */
  if (lo > hi) return SQLITE_OK; /* nothing can match */
  c->eof = 0;
  c->due = after;
  c->hi = hi;
  while (!c->eof && c->n < lo) preview_step(c);
  return SQLITE_OK;
}

static int preview_eof(sqlite3_vtab_cursor *cur) {
  return ((preview_cursor *)cur)->eof;
}

static int preview_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx,
                          int i) {
  preview_cursor *c = (preview_cursor *)cur;
  if (i == PV_N) {
    sqlite3_result_int64(ctx, c->n);
  } else if (i == PV_DUE_AT) {
    sqlite3_result_int64(ctx, c->due);
  } else if (i == PV_DUE_ISO) {
    char buf[CIVIL_ISO_MAX];
    i64 s = civil_floor_div(c->due, 1000);
    civil_format_iso(c->due, tz_offset_at(c->spec.zone, s),
                     c->spec.zone == tz_utc(), buf);
    sqlite3_result_text(ctx, buf, -1, SQLITE_TRANSIENT);
  }
  return SQLITE_OK;
}

static int preview_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid) {
  *rowid = ((preview_cursor *)cur)->n;
  return SQLITE_OK;
}

static sqlite3_module preview_module = {
    /* iVersion    */ 0,
    /* xCreate     */ 0,
    /* xConnect    */ preview_connect,
    /* xBestIndex  */ preview_best_index,
    /* xDisconnect */ preview_disconnect,
    /* xDestroy    */ 0,
    /* xOpen       */ preview_open,
    /* xClose      */ preview_close,
    /* xFilter     */ preview_filter,
    /* xNext       */ preview_next,
    /* xEof        */ preview_eof,
    /* xColumn     */ preview_column,
    /* xRowid      */ preview_rowid,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
    0,
};

int sql_vtab_preview_register(sqlite3 *db, trg_ctx *ctx) {
  trg_ctx_retain(ctx);
  return sqlite3_create_module_v2(db, "trigger_preview", &preview_module, ctx,
                                  trg_ctx_release);
}
