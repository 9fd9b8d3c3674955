/*
** rekey.c -- dedupe keys of an older format brought up to this one
** (rekey.h; trigger_install, in its transaction). tdk1 keys had no time
** zone: a cron's key is now followed by its zone (text/dedupe.h), so
** every trigger whose key starts with "tdk1:" gets its key computed again
** from its stored columns, as an INSERT computes it.
**
** Once done, triggers_config holds dedupe_format = 'tdk2' and later
** installs read that one row instead of looking at every trigger (the
** schema version is not involved: a key's format is not a schema).
** Recomputing only splits keys: two triggers with different tdk1 keys
** differ in instructions, type, schedule or scope, and so do their tdk2
** keys; the unique index of active keys (schema.c) cannot be violated.
** A row whose schedule cannot be read (changed outside the extension)
** keeps its key: the tick quarantines it.
*/
#include "store/rekey.h"

#include <string.h>

#include "text/dedupe.h"
#include "time/cron.h"

SQLITE_EXTENSION_INIT3

int store_rekey_row(sqlite3_stmt *st, char *key) {
  sched_spec spec;
  char canon[CRON_CANON_MAX], err[CRON_ERR_MAX];
  const char *type = (const char *)sqlite3_column_text(st, 2);
  const char *expr = (const char *)sqlite3_column_text(st, 5);
  memset(&spec, 0, sizeof spec);
  spec.type = sched_type_parse(type ? type : "");
  spec.interval_ms = sqlite3_column_int64(st, 3);
  spec.scheduled_at = sqlite3_column_int64(st, 4);
  if (spec.type == SCHED_CRON &&
      (!expr || cron_parse(expr, &spec.cron, err, sizeof err) != 0)) {
    return -1;
  }
  if (sched_canonical(&spec, canon, sizeof canon) < 0) return -1;
  dedupe_key((const char *)sqlite3_column_text(st, 1),
             sched_type_name(spec.type), canon,
             (const char *)sqlite3_column_text(st, 6),
             (const char *)sqlite3_column_text(st, 7), key);
  return 0;
}

int store_pass_done(sqlite3 *db, const char *key, const char *value,
                    int *done) {
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2(db,
                              "SELECT 1 FROM main.triggers_config"
                              " WHERE key = ?1 AND value = ?2",
                              -1, &st, NULL);
  if (rc == SQLITE_OK) {
    sqlite3_bind_text(st, 1, key, -1, SQLITE_STATIC);
    sqlite3_bind_text(st, 2, value, -1, SQLITE_STATIC);
    rc = sqlite3_step(st);
  }
  sqlite3_finalize(st);
  *done = rc == SQLITE_ROW;
  return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int store_rekey(sqlite3 *db, char **err) {
  int done;
  int rc = store_pass_done(db, "dedupe_format", "tdk2", &done);
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM)
    *err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
  if (rc != SQLITE_OK || done) return rc;
  sqlite3_stmt *sel = NULL, *upd = NULL;
  rc = sqlite3_prepare_v2(
      db,
      "SELECT id, instructions, trigger_type, interval_ms, scheduled_at,"
      " cron_expression, timezone, scope FROM main.triggers_data"
      " WHERE substr(dedupe_key, 1, 5) = 'tdk1:'",
      -1, &sel, NULL);
  if (rc == SQLITE_OK) {
    rc = sqlite3_prepare_v2(
        db, "UPDATE main.triggers_data SET dedupe_key = ?2 WHERE id = ?1", -1,
        &upd, NULL);
  }
  while (rc == SQLITE_OK && (rc = sqlite3_step(sel)) == SQLITE_ROW) {
    char key[DEDUPE_KEY_LEN + 1];
    rc = SQLITE_OK;
    if (store_rekey_row(sel, key) != 0) continue;
    sqlite3_bind_int64(upd, 1, sqlite3_column_int64(sel, 0));
    sqlite3_bind_text(upd, 2, key, -1, SQLITE_STATIC);
    rc = sqlite3_step(upd);
    sqlite3_reset(upd);
    rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
  }
  if (rc == SQLITE_DONE) rc = SQLITE_OK;
  /* the message now: finalizing the other statement resets it */
  if (rc != SQLITE_OK && rc != SQLITE_NOMEM)
    *err = sqlite3_mprintf("%s", sqlite3_errmsg(db));
  sqlite3_finalize(sel);
  sqlite3_finalize(upd);
  if (rc == SQLITE_OK) {
    rc = sqlite3_exec(db,
                      "INSERT OR REPLACE INTO main.triggers_config(key, value)"
                      " VALUES('dedupe_format', 'tdk2')",
                      0, 0, err);
  }
  return rc;
}
