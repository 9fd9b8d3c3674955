/*
** values.c -- values into and out of statements (values.h): a column read
** with its stored type kept (trg_val.bad for a value the extension never
** writes, a text that is not valid UTF-8 included), a whole trigger read
** into one allocation, and binds.
*/
#include "store/values.h"

#include <string.h>

#include "text/utf8.h"

SQLITE_EXTENSION_INIT3

/* How a stored value of column kind `kind` is read: with its text (text
** and JSON columns; an integer column's text or real, kept for the
** message, see trg_val.bad) or as an integer. Sets v->null and v->bad
** from the value's SQLite type, which is read before any conversion.
**
** A column is read through its sqlite3_value: each sqlite3_column_*
** call enters and leaves the connection's mutex, and a row is ~40
** columns of two or three calls each (a fifth of reading a trigger). The
** extension reads rows only inside SQLite's own calls of it (a function,
** a virtual table method), which hold that mutex. */
static int val_read_kind(sqlite3_value *cv, char kind, trg_val *v) {
  int type = sqlite3_value_type(cv);
  int texty = kind == 'T' || kind == 'J';
  v->null = type == SQLITE_NULL;
  v->bad = 0;
  if (v->null) return 0;
  if (texty ? type != SQLITE_TEXT : type != SQLITE_INTEGER) {
    v->bad = (unsigned char)type;
    return texty || type == SQLITE_TEXT || type == SQLITE_FLOAT;
  }
  if (!texty) v->i = sqlite3_value_int64(cv);
  return texty;
}

/* A text read back (n bytes at v->t) that is not valid text: marked
** TRG_BAD_TEXT with its length, for the row's check (stored.h). Work
** proportional to the row, no statement: the tick checks each row it
** reads anyway. */
static void text_mark(trg_val *v, int n) {
  if (v->bad || utf8_check(v->t, (size_t)n, NULL)) return;
  v->bad = TRG_BAD_TEXT;
  v->i = n;
}

static int vals_read(sqlite3_stmt *st, int first, const store_coldef *defs,
                     int n, trg_val *v) {
  for (int i = 0; i < n; i++) {
    sqlite3_value *cv = sqlite3_column_value(st, first + i);
    trg_val_set_null(&v[i]); /* its type read next */
    if (!val_read_kind(cv, defs[i].kind, &v[i])) continue;
    const char *t = (const char *)sqlite3_value_text(cv);
    if (!t) return SQLITE_NOMEM;
    int len = sqlite3_value_bytes(cv);
    if (trg_val_set_read_text(&v[i], t, len) != SQLITE_OK) return SQLITE_NOMEM;
    text_mark(&v[i], len);
  }
  return SQLITE_OK;
}

int store_val_bind(sqlite3_stmt *st, int idx, char kind, const trg_val *v) {
  if (v->null) return sqlite3_bind_null(st, idx);
  if (kind == 'T' || kind == 'J') {
    return sqlite3_bind_text(st, idx, trg_val_text(v), -1, SQLITE_STATIC);
  }
  return sqlite3_bind_int64(st, idx, v->i);
}

int store_vals_bind(sqlite3_stmt *st, int first, const store_coldef *defs,
                    int n, const trg_val *v) {
  if (trg_vals_poisoned(v, n)) return SQLITE_NOMEM;
  int rc = SQLITE_OK;
  for (int i = 0; i < n && rc == SQLITE_OK; i++) {
    rc = store_val_bind(st, first + i, defs[i].kind, &v[i]);
  }
  return rc;
}

/* Bind the columns of one trigger table (table_cols) to ?first.. */
int store_table_bind(sqlite3_stmt *st, int first, const trg_row *r,
                     const int *cols, int n) {
  int rc = SQLITE_OK;
  for (int i = 0; i < n && rc == SQLITE_OK; i++) {
    rc = store_val_bind(st, first + i, store_trigger_cols[cols[i]].kind,
                        &r->v[cols[i]]);
  }
  return rc;
}

int store_row_read(sqlite3_stmt *st, int first, trg_row *r) {
  /* The texts go into one allocation (r->arena): a tick reads a whole
  ** row per due trigger, and one malloc per text column was a tenth of
  ** a fire's cost. */
  trg_row_clear(r);
  r->id = sqlite3_column_int64(st, first);
  const char *text[TC_NCOL];
  int len[TC_NCOL];
  for (int i = 0; i < TC_NCOL; i++) {
    sqlite3_value *cv = sqlite3_column_value(st, first + 1 + i);
    text[i] = NULL;
    if (!val_read_kind(cv, store_trigger_cols[i].kind, &r->v[i])) continue;
    text[i] = (const char *)sqlite3_value_text(cv);
    if (!text[i]) return SQLITE_NOMEM;
    len[i] = sqlite3_value_bytes(cv);
  }
  if (trg_row_set_read_texts(r, text, len) != SQLITE_OK) return SQLITE_NOMEM;
  for (int i = 0; i < TC_NCOL; i++) {
    if (text[i]) text_mark(&r->v[i], len[i]);
  }
  trg_row_note_stored(r); /* what a write compares with (row.h) */
  trg_row_note_outcome(r);
  return SQLITE_OK;
}

int store_run_read(sqlite3_stmt *st, int first, trg_run *r) {
  r->id = sqlite3_column_int64(st, first);
  return vals_read(st, first + 1, store_run_cols, RC_NCOL, r->v);
}

const char *store_column_text(sqlite3_stmt *st, int i, int *oom) {
  const char *t = (const char *)sqlite3_column_text(st, i);
  if (!t && sqlite3_column_type(st, i) != SQLITE_NULL) *oom = 1;
  return t;
}
