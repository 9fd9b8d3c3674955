/*
** clidb.c -- the one-shot commands' connection (see clidb.h).
*/
#include "db/clidb.h"

#include <stdlib.h>

#include "core/log.h"
#include "core/util.h"
#include "db/hostdb.h"

int clidb_fail(sqlite3 *db, const char *path, const char *what) {
  log_fatal("%s: %s: %s", path, what, db ? sqlite3_errmsg(db) : "?");
  return 3;
}

/* 0 when the schema is there, else 3 (logged). */
static int check_schema(sqlite3 *db, const char *path) {
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2(db,
                              "SELECT 1 FROM main.sqlite_schema"
                              " WHERE type = 'table' AND name = 'triggers'",
                              -1, &st, NULL);
  if (rc != SQLITE_OK) return clidb_fail(db, path, "reading the schema");
  rc = sqlite3_step(st);
  sqlite3_finalize(st);
  if (rc == SQLITE_ROW) return 0;
  if (rc != SQLITE_DONE) return clidb_fail(db, path, "reading the schema");
  log_fatal("%s: sqlite-triggers is not installed in this database (no "
            "triggers table)",
            path);
  return 3;
}

int clidb_connect(const char *path, const char *extension, int busy_ms,
                  int writable, sqlite3 **db, char **err) {
  *err = NULL;
  int flags = writable ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY;
  int rc = sqlite3_open_v2(path, db, flags, NULL);
  if (rc == SQLITE_OK && writable)
    rc = sqlite3_db_config(*db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
  if (rc != SQLITE_OK)
    *err = xprintf("%s: open: %s", path, *db ? sqlite3_errmsg(*db) : "?");
  if (!*err) {
    sqlite3_busy_timeout(*db, busy_ms);
    hostdb_load_extension(*db, extension, err);
  }
  if (*err) {
    sqlite3_close(*db);
    *db = NULL;
    return -1;
  }
  return 0;
}

int clidb_open(const char *path, const host_opts *o, int writable,
               sqlite3 **db) {
  char *err = NULL;
  if (clidb_connect(path, o->extension, o->busy_ms, writable, db, &err)) {
    log_fatal("%s", err);
    free(err);
    return 3;
  }
  int rc = check_schema(*db, path);
  if (rc) {
    sqlite3_close(*db);
    *db = NULL;
  }
  return rc;
}
