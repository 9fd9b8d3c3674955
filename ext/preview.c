/*
** preview.c -- trigger_preview(spec, after [, tz]): a table-valued
** function listing the next occurrences of a schedule.
**
**   SELECT * FROM trigger_preview('0 7 * * MON-FRI',
**                                 '2026-03-27T00:00:00Z', 'Europe/Berlin')
**   LIMIT 3;
**   -- n | due_at (ms) | due_iso (in the zone)
**
** spec is what trigger_next_due takes (cron text or a JSON schedule).
** Rows are produced lazily, one next-occurrence computation each, so use
** LIMIT; the series ends when the schedule has no further occurrence.
*/
#include <string.h>

#include "args.h"
#include "civil.h"

SQLITE_EXTENSION_INIT3

enum { PV_N, PV_DUE_AT, PV_DUE_ISO, PV_SPEC, PV_AFTER, PV_TZ };

typedef struct pv_cursor {
  sqlite3_vtab_cursor base;
  sched_spec spec;
  i64 n, due;
  int eof;
} pv_cursor;

typedef struct pv_tab {
  sqlite3_vtab base;
  sqlite3 *db;
  trg_ctx *ctx;
} pv_tab;

static int pvConnect(sqlite3 *db, void *aux, int argc, const char *const *argv,
                     sqlite3_vtab **out, char **err) {
  (void)argc;
  (void)argv;
  (void)err;
  int rc = sqlite3_declare_vtab(
      db, "CREATE TABLE x(n INTEGER, due_at INTEGER, due_iso TEXT,"
          " spec HIDDEN, after HIDDEN, tz HIDDEN)");
  if (rc != SQLITE_OK) return rc;
  pv_tab *t = sqlite3_malloc(sizeof *t);
  if (!t) return SQLITE_NOMEM;
  memset(t, 0, sizeof *t);
  t->db = db;
  t->ctx = aux;
  ((trg_ctx *)aux)->refs++;
  sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS);
  *out = &t->base;
  return SQLITE_OK;
}

static int pvDisconnect(sqlite3_vtab *t) {
  trg_ctx_release(((pv_tab *)t)->ctx);
  sqlite3_free(t);
  return SQLITE_OK;
}

/* idxNum bit k set: hidden argument k (spec, after, tz) is bound. */
static int pvBestIndex(sqlite3_vtab *t, sqlite3_index_info *info) {
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
  info->idxNum = mask;
  info->estimatedCost = 10;
  info->estimatedRows = 100;
  return SQLITE_OK;
}

static int pvOpen(sqlite3_vtab *t, sqlite3_vtab_cursor **out) {
  (void)t;
  pv_cursor *c = sqlite3_malloc(sizeof *c);
  if (!c) return SQLITE_NOMEM;
  memset(c, 0, sizeof *c);
  *out = &c->base;
  return SQLITE_OK;
}

static int pvClose(sqlite3_vtab_cursor *c) {
  sqlite3_free(c);
  return SQLITE_OK;
}

static int pvNext(sqlite3_vtab_cursor *cur) {
  pv_cursor *c = (pv_cursor *)cur;
  i64 next;
  if (!sched_next(&c->spec, c->due, &next)) {
    c->eof = 1;
  } else {
    c->due = next;
    c->n++;
  }
  return SQLITE_OK;
}

static int pvFilter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr,
                    int argc, sqlite3_value **argv) {
  (void)idxStr;
  (void)argc;
  pv_cursor *c = (pv_cursor *)cur;
  pv_tab *t = (pv_tab *)cur->pVtab;
  sqlite3_value *tz = (idxNum & 4) ? argv[2] : NULL;
  i64 after;
  c->eof = 1;
  c->n = 0;
  char *err;
  int rc = instant_from_value(argv[1], 1, "after", &after, &err);
  if (rc == SQLITE_OK) {
    rc = spec_from_values(t->db, t->ctx, argv[0], tz, after, &c->spec, &err);
  }
  if (rc != SQLITE_OK) {
    sqlite3_free(t->base.zErrMsg);
    t->base.zErrMsg =
        sqlite3_mprintf("trigger_preview: %s", err ? err : sqlite3_errstr(rc));
    sqlite3_free(err);
    return rc;
  }
  c->eof = 0;
  c->due = after;
  return pvNext(cur);
}

static int pvEof(sqlite3_vtab_cursor *cur) { return ((pv_cursor *)cur)->eof; }

static int pvColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i) {
  pv_cursor *c = (pv_cursor *)cur;
  if (i == PV_N) {
    sqlite3_result_int64(ctx, c->n);
  } else if (i == PV_DUE_AT) {
    sqlite3_result_int64(ctx, c->due);
  } else if (i == PV_DUE_ISO) {
    char buf[CIVIL_ISO_MAX];
    i64 s = c->due >= 0 ? c->due / 1000 : -((-c->due + 999) / 1000);
    civil_format_iso(c->due, tz_offset_at(c->spec.zone, s),
                     c->spec.zone == tz_utc(), buf);
    sqlite3_result_text(ctx, buf, -1, SQLITE_TRANSIENT);
  }
  return SQLITE_OK;
}

static int pvRowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid) {
  *rowid = ((pv_cursor *)cur)->n;
  return SQLITE_OK;
}

static sqlite3_module preview_module = {
    /* iVersion    */ 0,
    /* xCreate     */ 0,
    /* xConnect    */ pvConnect,
    /* xBestIndex  */ pvBestIndex,
    /* xDisconnect */ pvDisconnect,
    /* xDestroy    */ 0,
    /* xOpen       */ pvOpen,
    /* xClose      */ pvClose,
    /* xFilter     */ pvFilter,
    /* xNext       */ pvNext,
    /* xEof        */ pvEof,
    /* xColumn     */ pvColumn,
    /* xRowid      */ pvRowid,
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

int preview_register(sqlite3 *db, trg_ctx *ctx);
int preview_register(sqlite3 *db, trg_ctx *ctx) {
  ctx->refs++;
  return sqlite3_create_module_v2(db, "trigger_preview", &preview_module, ctx,
                                  trg_ctx_release);
}
