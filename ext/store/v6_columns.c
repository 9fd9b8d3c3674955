/*
** v6_columns.c -- the columns of schema version 6 that older tables lack
** (v6_columns.h): which they are, whether a version 6 table from before
** the budgets has them, and adding them in place. Read by the migration
** (migrate.c) and by the check every entry point makes (schema.c).
*/
#include "store/v6_columns.h"

SQLITE_EXTENSION_INIT3

/* The columns that schema version 6 added (event triggers,
** docs/reactive.md; SQL jobs, docs/sql-jobs.md; calendar triggers,
** docs/calendar.md): no older table has them, so no copy from one names
** them (each new row takes the column's DEFAULT, or NULL). */
int store_new_in_v6(const store_coldef *c) {
  static const store_coldef *const added[] = {
      &store_trigger_cols[TC_ACTION_SQL],
      &store_trigger_cols[TC_RRULE],
      &store_trigger_cols[TC_CALENDAR],
      &store_trigger_cols[TC_CALENDAR_POLICY],
      &store_trigger_cols[TC_EVENT_KEY],
      &store_trigger_cols[TC_DEBOUNCE_MS],
      &store_trigger_cols[TC_DEBOUNCE_MAX_MS],
      &store_trigger_cols[TC_EVENT_COUNT],
      &store_trigger_cols[TC_EVENT_AT],
      &store_trigger_cols[TC_EVENT_PAYLOAD],
      &store_trigger_cols[TC_EVENT_FIRST_AT],
      &store_trigger_cols[TC_BUDGET_WINDOW_MS],
      &store_trigger_cols[TC_BUDGET_RUNS],
      &store_trigger_cols[TC_BUDGET_COST],
      &store_trigger_cols[TC_BUDGET_POLICY],
      &store_run_cols[RC_USAGE],
      &store_run_cols[RC_CANCEL_REQUESTED_AT],
      &store_run_cols[RC_RETRY_OF],
  };
  for (size_t i = 0; i < sizeof added / sizeof added[0]; i++) {
    if (added[i] == c) return 1;
  }
  return 0;
}

/* The columns added to version 6 after databases of it existed (budgets,
** docs/reactive.md#budgets): a version 6 table without them gains them
** in place (ALTER TABLE ... ADD COLUMN, NULL in every row), as a version 5
** one does through its rebuild. All in triggers_data. */
static const int added_to_v6[] = {TC_BUDGET_WINDOW_MS, TC_BUDGET_RUNS,
                                  TC_BUDGET_COST, TC_BUDGET_POLICY};
#define ADDED_TO_V6_N ((int)(sizeof added_to_v6 / sizeof added_to_v6[0]))

/* Whether main.triggers_data has column `name`: *has. */
static int data_has_column(sqlite3 *db, const char *name, int *has) {
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2(db,
                              "SELECT 1 FROM pragma_table_info('triggers_data',"
                              " 'main') WHERE name = ?1",
                              -1, &st, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  *has = rc == SQLITE_ROW;
  sqlite3_finalize(st);
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_v6_columns_missing(sqlite3 *db, int *missing) {
  *missing = 0;
  int rc = SQLITE_OK;
  for (int i = 0; i < ADDED_TO_V6_N && rc == SQLITE_OK && !*missing; i++) {
    int has;
    rc = data_has_column(db, store_trigger_cols[added_to_v6[i]].name, &has);
    *missing = !has;
  }
  return rc;
}

int store_v6_columns_add(sqlite3 *db, char **err) {
  int rc = SQLITE_OK;
  for (int i = 0; i < ADDED_TO_V6_N && rc == SQLITE_OK; i++) {
    const store_coldef *c = &store_trigger_cols[added_to_v6[i]];
    int has;
    rc = data_has_column(db, c->name, &has);
    if (rc != SQLITE_OK || has) continue;
    char *sql =
        sqlite3_mprintf("ALTER TABLE main.triggers_data ADD COLUMN %s %s%s%s%s",
                        c->name, c->decl, c->check ? " CHECK(" : "",
                        c->check ? c->check : "", c->check ? ")" : "");
    rc = sql ? sqlite3_exec(db, sql, 0, 0, err) : SQLITE_NOMEM;
    sqlite3_free(sql);
  }
  return rc;
}
