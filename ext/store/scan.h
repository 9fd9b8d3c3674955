/*
** scan.h -- the reads behind the `triggers`, `trigger_runs` and
** `trigger_events` virtual tables: their public columns from the shadow
** tables, rowid first, in rowid order (events: newest first) or the
** ORDER BY the query asked for, constrained by the terms xBestIndex
** chose, so that each lookup is answered by the shadow tables' own
** indexes.
*/
#ifndef TRIGGERS_SCAN_H
#define TRIGGERS_SCAN_H

#include "store/schema.h"

/* One term: "<column> <op> ?" with op one of = > >= < <= (the column a
** public column of the table, by its number). */
typedef struct store_term {
  int col;
  const char *op;
} store_term;

/* One ORDER BY term: a public column of the table, descending or not; a
** read takes at most STORE_ORDER_MAX. */
#define STORE_ORDER_MAX 4
typedef struct store_order {
  int col;
  int desc;
} store_order;

typedef struct store_scan {
  sqlite3_stmt *st;
  int eof;
} store_scan;

/* Open a read of table t (STORE_VTAB_TRIGGERS, _RUNS or _EVENTS) with
** terms[0..n), argv[i] the value of terms[i], in the order of
** order[0..norder) (rows equal on it in no set order; none: rowid order,
** events newest first); positioned on its first row (eof when there is
** none).
** SQLITE_OK, or an error (the connection's message says it). */
int store_scan_open(sqlite3 *db, store_vtab t, const store_term *terms, int n,
                    sqlite3_value **argv, const store_order *order, int norder,
                    store_scan *sc);
int store_scan_next(store_scan *sc);
/* Public column col and the rowid of the row it stands on. */
sqlite3_value *store_scan_column(store_scan *sc, int col);
i64 store_scan_rowid(store_scan *sc);
void store_scan_close(store_scan *sc);

#endif
