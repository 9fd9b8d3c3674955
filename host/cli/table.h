/*
** table.h -- the text tables of trigger-host's listings (status, runs,
** events): rows of cells, each column as wide as its widest cell so far,
** two spaces between, the last column unpadded; every cell on one line
** (core/out.h), widths counted in characters.
*/
#ifndef HOST_TABLE_H
#define HOST_TABLE_H

#include <stddef.h>

#define TABLE_MAX_COLS 8

typedef struct table {
  int ncol, nrow;
  char **cells; /* nrow * ncol, owned */
  size_t w[TABLE_MAX_COLS];
} table;

/* Add a row of t->ncol cells (NULL shows as "-"). */
void table_add(table *t, const char *const *cells);
/* Print the rows added since the last call on stdout, and forget them;
** the widths only grow, so later pages line up with earlier ones. */
void table_print(table *t);
/* Forget the rows not printed. */
void table_free(table *t);
/* The first max characters of s on one line, "..." when cut (free()). */
char *table_short(const char *s, size_t max);

/* trigger_iso's "2026-03-09T07:15:00+01:00" or "...Z" as the listings
** show it: "2026-03-09 07:15:00+01:00", "...+00:00" (free()). NULL stays
** NULL. */
char *table_time(const char *iso);

#endif
