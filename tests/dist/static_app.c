/*
** static_app.c -- an application that links the static archive
** (libsqlite_triggers.a, built with -DSQLITE_CORE) instead of loading the
** extension: it registers sqlite3_triggers_init with
** sqlite3_auto_extension, opens a database, installs, creates a trigger,
** ticks and finishes the run, and prints what the bindings' checks print
** (tests/bindings/run.sh compares it):
**
**   version=0.1.0  run_id=check@1767225660000#1  run_count=1  status=success
**
** Built by `make static` users' way: -I build -L build -lsqlite_triggers
** (or pkg-config --cflags --libs sqlite-triggers after `make install`).
**   static_app [DB]        (default :memory:)
*/
#include <sqlite-triggers.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The first column of the first row of sql (one optional text parameter)
** as a malloc'd string, "NULL" for NULL; exits with the error otherwise. */
static char *one(sqlite3 *db, const char *sql, const char *arg) {
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) goto fail;
  if (arg) sqlite3_bind_text(st, 1, arg, -1, SQLITE_TRANSIENT);
  int rc = sqlite3_step(st);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE) goto fail;
  const char *t =
      rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
  char *out = strdup(t ? t : "NULL");
  sqlite3_finalize(st);
  if (!out) exit(2);
  return out;
fail:
  fprintf(stderr, "static_app: %s: %s\n", sql, sqlite3_errmsg(db));
  sqlite3_finalize(st);
  exit(1);
}

int main(int argc, char **argv) {
  const char *path = argc > 1 ? argv[1] : ":memory:";
  if (sqlite3_auto_extension((void (*)(void))sqlite3_triggers_init) !=
      SQLITE_OK) {
    fprintf(stderr, "static_app: sqlite3_auto_extension failed\n");
    return 1;
  }
  sqlite3 *db = NULL;
  if (sqlite3_open(path, &db) != SQLITE_OK) {
    fprintf(stderr, "static_app: open %s: %s\n", path, sqlite3_errmsg(db));
    return 1;
  }
  free(one(db, "SELECT trigger_install()", NULL));
  free(one(db,
           "INSERT INTO triggers(trigger_id, agent_id, instructions, "
           "trigger_type, interval_ms, created_at) VALUES ('check', 'a1', "
           "'Check the build', 'interval', 60000, 1767225600000)",
           NULL));
  char *version = one(db, "SELECT trigger_version()", NULL);
  char *run_id = one(db,
                     "SELECT json_extract(value, '$.run_id') FROM "
                     "json_each(trigger_run_due(1767225660000))",
                     NULL);
  char *count = one(db,
                    "SELECT json_extract(trigger_run_finish(?1, 'success', "
                    "NULL, 1767225661000), '$.run_count')",
                    run_id);
  char *status =
      one(db, "SELECT status FROM trigger_runs WHERE run_id = ?1", run_id);
  printf("version=%s\nrun_id=%s\nrun_count=%s\nstatus=%s\n", version, run_id,
         count, status);
  free(version);
  free(run_id);
  free(count);
  free(status);
  return sqlite3_close(db) == SQLITE_OK ? 0 : 1;
}
