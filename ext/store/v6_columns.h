/*
** v6_columns.h -- the columns schema version 6 added, and those added to
** it after databases of it existed (budgets): docs/reactive.md#budgets.
*/
#ifndef TRIGGERS_V6_COLUMNS_H
#define TRIGGERS_V6_COLUMNS_H

#include "store/columns.h"
#include "store/store.h"

/* 1 when c is a column version 6 added (no older table has it). */
int store_new_in_v6(const store_coldef *c);
/* *missing: 1 when a version 6 triggers_data lacks a column added to
** version 6 since (budgets): trigger_install adds it in place. */
int store_v6_columns_missing(sqlite3 *db, int *missing);
/* The columns a version 6 triggers_data lacks, added in place (ALTER
** TABLE ... ADD COLUMN), inside the caller's transaction. */
int store_v6_columns_add(sqlite3 *db, char **err);

#endif
