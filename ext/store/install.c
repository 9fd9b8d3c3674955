/*
** install.c -- trigger_install() (install.h): the three virtual tables
** created when no other table holds their names or their shadow tables',
** an older schema migrated, older dedupe keys recomputed (rekey.c) and
** stored link zone names rewritten as their zones (rezone.c), a
** newer one refused, all in one transaction that the checks are part of.
*/
#include "store/install.h"

#include <string.h>

#include "base/args.h"
#include "store/migrate.h"
#include "store/rekey.h"
#include "store/rezone.h"
#include "store/txn.h"

SQLITE_EXTENSION_INIT3

/* What already holds `name`: 0 nothing, 1 ours, 2 something else (*type:
** "table", "view", "index" or "trigger"); or -rc when the schema could not
** be read (*err: why). */
static int name_owner(sqlite3 *db, const char *name, const char *module,
                      char type[8], char **err) {
  sqlite3_stmt *st = NULL;
  int owner = 0;
  int rc =
      sqlite3_prepare_v2(db,
                         "SELECT type, coalesce(sql, '') FROM"
                         " main.sqlite_schema WHERE lower(name) = lower(?1)",
                         -1, &st, NULL);
  if (rc == SQLITE_OK) rc = sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
  if (rc == SQLITE_OK) rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) {
    const char *t = (const char *)sqlite3_column_text(st, 0);
    const char *sql = (const char *)sqlite3_column_text(st, 1);
    char *want = sqlite3_mprintf("USING %s", module);
    owner = (want && sql && sqlite3_strlike("%VIRTUAL TABLE%", sql, 0) == 0 &&
             sqlite3_strglob("*[Uu][Ss][Ii][Nn][Gg] *", sql) == 0 &&
             strstr(sql, want) != NULL)
                ? 1
                : 2;
    sqlite3_snprintf(8, type, "%s", t && strlen(t) < 8 ? t : "table");
    sqlite3_free(want);
  } else if (rc != SQLITE_DONE) {
    if (rc != SQLITE_NOMEM) *err = sqlite3_mprintf("%s", trg_errmsg(db, rc));
    owner = -rc;
  }
  sqlite3_finalize(st);
  return owner;
}

/* The names the tables need, checked: SQLITE_OK when nothing but ours
** holds them, else SQLITE_ERROR with *err (or the code of a schema that
** could not be read). */
static int names_free(sqlite3 *db, char **err) {
  static const char *const names[][2] = {
      {"triggers", "triggers"},
      {"trigger_runs", "trigger_runs"},
      {"trigger_events", "trigger_events"},
      {"trigger_calendar_days", "trigger_calendar_days"},
  };
  static const char *const shadows[] = {
      "triggers_data",   "triggers_state",  "triggers_rundata",
      "triggers_config", "triggers_events", "triggers_calendar"};
  char type[8];
  int ours = 0;
  for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
    int owner = name_owner(db, names[i][0], names[i][1], type, err);
    if (owner < 0) return -owner;
    if (owner == 2) {
      *err = sqlite3_mprintf("%s '%s' already exists and is not a "
                             "sqlite-triggers table; nothing was changed",
                             type, names[i][0]);
      return SQLITE_ERROR;
    }
    if (i == 0) ours = owner == 1;
  }
  for (size_t i = 0; !ours && i < sizeof shadows / sizeof shadows[0]; i++) {
    int owner = name_owner(db, shadows[i], "-", type, err);
    if (owner < 0) return -owner;
    if (owner != 0) {
      *err = sqlite3_mprintf("%s '%s' already exists; nothing was changed",
                             type, shadows[i]);
      return SQLITE_ERROR;
    }
  }
  return SQLITE_OK;
}

int store_install(sqlite3 *db, tzdb *zones, i64 now, char **err) {
  /* The names are checked inside the write transaction (BEGIN IMMEDIATE
  ** in autocommit mode): two connections installing into one new file at
  ** once take turns, and the second finds the first one's tables as its
  ** own rather than as names already taken (docs/reliability.md). */
  store_txn t;
  int rc = store_txn_begin(db, &t);
  if (rc != SQLITE_OK) return rc;
  rc = names_free(db, err);
  if (rc == SQLITE_OK) {
    rc = sqlite3_exec(db,
                      "CREATE VIRTUAL TABLE IF NOT EXISTS main.triggers USING"
                      " triggers;"
                      "CREATE VIRTUAL TABLE IF NOT EXISTS main.trigger_runs"
                      " USING trigger_runs;",
                      0, 0, err);
  }
  if (rc == SQLITE_OK) rc = store_migrate(db, err);
  if (rc == SQLITE_OK) rc = store_rekey(db, err);
  if (rc == SQLITE_OK) rc = store_rezone(db, zones, now, err);
  /* trigger_events reads triggers_events, which version 5 adds */
  if (rc == SQLITE_OK) {
    rc =
        sqlite3_exec(db,
                     "CREATE VIRTUAL TABLE IF NOT EXISTS main.trigger_events"
                     " USING trigger_events;"
                     "CREATE VIRTUAL TABLE IF NOT EXISTS"
                     " main.trigger_calendar_days USING trigger_calendar_days;",
                     0, 0, err);
  }
  rc = store_txn_end(db, &t, rc);
  /* the rollback reset the connection's message: the one it kept */
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM && !*err)
    *err = sqlite3_mprintf("%s", store_txn_errmsg(&t, db));
  return rc;
}
