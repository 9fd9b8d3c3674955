/*
** values.h -- values into and out of the store's statements (for the
** files of ext/store/): rows read with each value's stored type kept, and
** the binds of rows and values.
*/
#ifndef TRIGGERS_VALUES_H
#define TRIGGERS_VALUES_H

#include "store/columns.h"

/* A trigger row from the result columns first (its id), first+1.. (its
** columns): the texts go into one allocation, r->arena. */
int store_row_read(sqlite3_stmt *st, int first, trg_row *r);
/* A run row the same way (id, then the run columns). */
int store_run_read(sqlite3_stmt *st, int first, trg_run *r);

/* Result column i as text (NULL when NULL); *oom set when it has a value
** but no text (out of memory). */
const char *store_column_text(sqlite3_stmt *st, int i, int *oom);

/* Bind one value of column kind `kind` to ?idx. */
int store_val_bind(sqlite3_stmt *st, int idx, char kind, const trg_val *v);
/* Bind v[0..n) of columns defs to ?first..; SQLITE_NOMEM for a row that
** holds a value that could not be set (trg_vals_poisoned). */
int store_vals_bind(sqlite3_stmt *st, int first, const store_coldef *defs,
                    int n, const trg_val *v);
/* Bind the trigger columns cols[0..n) (store_table_cols) of r to ?first.. */
int store_table_bind(sqlite3_stmt *st, int first, const trg_row *r,
                     const int *cols, int n);

#endif
