/*
** scan.c -- the virtual tables' reads (scan.h): one SELECT over the shadow
** table(s) per xFilter, built from the terms (events newest first, the
** others in rowid order), each column taken from the table that holds
** it (a trigger is the join of triggers_data and triggers_state:
** columns.h).
*/
#include "store/scan.h"

#include <string.h>

#include "store/columns.h"

SQLITE_EXTENSION_INIT3

/* A term's operator, as written into the statement; NULL when it is not
** one of the five. */
static const char *op_sql(const char *op) {
  static const char *const ops[] = {"=", ">", ">=", "<", "<=", 0};
  for (int i = 0; ops[i]; i++) {
    if (strcmp(op, ops[i]) == 0) return ops[i];
  }
  return NULL;
}

/* The SELECT of table t with the terms; sqlite3_malloc'd, NULL when out of
** memory or a term is not one of the table's. */
static char *scan_sql(store_vtab t, const store_term *terms, int n) {
  int triggers = t == STORE_VTAB_TRIGGERS, events = t == STORE_VTAB_EVENTS;
  const trg_coldef *cols = triggers ? trg_cols : events ? evt_cols : run_cols;
  int ncol = triggers ? TC_NPUBLIC : events ? EC_NCOL : RC_NPUBLIC;
  sqlite3_str *s = sqlite3_str_new(NULL);
  const char *id = triggers ? "d.id" : "id";
  sqlite3_str_appendf(s, "SELECT %s", id);
  for (int i = 0; i < ncol; i++) {
    sqlite3_str_appendf(s, ", %s%s",
                        !triggers               ? ""
                        : store_col_in_state(i) ? "s."
                                                : "d.",
                        cols[i].name);
  }
  sqlite3_str_appendf(s, " FROM %s",
                      triggers ? STORE_TRIGGER_FROM
                      : events ? "main.triggers_events"
                               : "main.triggers_rundata");
  for (int i = 0; i < n; i++) {
    const char *op = op_sql(terms[i].op);
    int col = terms[i].col;
    if (!op || col < 0 || col >= ncol) {
      sqlite3_free(sqlite3_str_finish(s));
      return NULL;
    }
    sqlite3_str_appendf(s, "%s%s%s %s ?%d", i ? " AND " : " WHERE ",
                        !triggers                 ? ""
                        : store_col_in_state(col) ? "s."
                                                  : "d.",
                        cols[col].name, op, i + 1);
  }
  /* events newest first (the time index walked backwards) */
  sqlite3_str_appendf(s, " ORDER BY %s", events ? "at DESC, id DESC" : id);
  return sqlite3_str_finish(s);
}

int store_scan_open(sqlite3 *db, store_vtab t, const store_term *terms, int n,
                    sqlite3_value **argv, store_scan *sc) {
  sc->st = NULL;
  sc->eof = 1;
  char *sql = scan_sql(t, terms, n);
  if (!sql) return SQLITE_NOMEM;
  int rc = sqlite3_prepare_v3(db, sql, -1, 0, &sc->st, NULL);
  sqlite3_free(sql);
  if (rc != SQLITE_OK) return rc;
  for (int i = 0; i < n; i++) sqlite3_bind_value(sc->st, i + 1, argv[i]);
  return store_scan_next(sc);
}

int store_scan_next(store_scan *sc) {
  int rc = sqlite3_step(sc->st);
  sc->eof = rc != SQLITE_ROW;
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

sqlite3_value *store_scan_column(store_scan *sc, int col) {
  return sqlite3_column_value(sc->st, col + 1);
}

i64 store_scan_rowid(store_scan *sc) { return sqlite3_column_int64(sc->st, 0); }

void store_scan_close(store_scan *sc) {
  sqlite3_finalize(sc->st);
  sc->st = NULL;
  sc->eof = 1;
}
