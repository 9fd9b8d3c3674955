/*
** vtab_scan.h -- the read side shared by the virtual tables (`triggers`,
** `trigger_runs`, `trigger_events`): xBestIndex turns usable constraints on
** indexed columns into an idxStr such as "agent_id=,next_due_at<=", and
** xFilter reads the shadow table with those terms (store/scan.c), so the
** lookup is answered by the shadow table's real indexes (never a scan when
** a key column is constrained). EXPLAIN QUERY PLAN shows the idxStr.
*/
#ifndef TRIGGERS_VTAB_SCAN_H
#define TRIGGERS_VTAB_SCAN_H

#include "store/columns.h"
#include "store/scan.h"

typedef struct scan_key {
  int col;     /* column number in the virtual table */
  int unique;  /* EQ finds at most one row */
  double cost; /* estimated cost of a probe by this column */
  int eq_only; /* only EQ is a probe: the column leads no index of its own */
} scan_key;

typedef struct scan_desc {
  const char *name; /* virtual table name */
  store_vtab table; /* which one, for the store's declaration and reads */
  const store_coldef *cols;
  int ncol; /* public columns */
  const scan_key *keys;
  int nkeys;
} scan_desc;

typedef struct scan_tab {
  sqlite3_vtab base;
  sqlite3 *db;
  trg_ctx *ctx;
  const scan_desc *desc;
  store st; /* cached statements, finalized at disconnect */
} scan_tab;

int sql_scan_declare(sqlite3 *db, const scan_desc *d);
/* xConnect (and xCreate) of a table that reads a shadow table of
** `triggers` (trigger_runs, trigger_events): it must be main.<name> with
** no arguments, installed; innocuous. */
int sql_scan_connect_reader(sqlite3 *db, trg_ctx *ctx, const scan_desc *d,
                            int argc, const char *const *argv,
                            sqlite3_vtab **out, char **err);
int sql_scan_best_index(sqlite3_vtab *tab, sqlite3_index_info *info);
int sql_scan_open(sqlite3_vtab *tab, sqlite3_vtab_cursor **out);
int sql_scan_close(sqlite3_vtab_cursor *cur);
int sql_scan_filter(sqlite3_vtab_cursor *cur, int idxNum, const char *idxStr,
                    int argc, sqlite3_value **argv);
int sql_scan_next(sqlite3_vtab_cursor *cur);
int sql_scan_eof(sqlite3_vtab_cursor *cur);
int sql_scan_column(sqlite3_vtab_cursor *cur, sqlite3_context *ctx, int i);
int sql_scan_rowid(sqlite3_vtab_cursor *cur, sqlite3_int64 *rowid);
int sql_scan_disconnect(sqlite3_vtab *tab);
int sql_scan_rename(sqlite3_vtab *tab, const char *name);
scan_tab *sql_scan_tab_new(sqlite3 *db, trg_ctx *ctx, const scan_desc *d);
/* Set the table's error message (sqlite3_free'd msg is taken over). */
int sql_scan_error(sqlite3_vtab *tab, int rc, char *msg);
/* For a write (xUpdate): SQLITE_OK, or SQLITE_ERROR with the message set
** when the tick is stepping the configured preload, which may write
** nothing of the extension's (trg_refuse_in_preload). */
int sql_scan_refuse_in_preload(sqlite3_vtab *tab);

#endif
