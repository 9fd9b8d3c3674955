/*
** tests/fault/databases.c -- the pristine databases the fault harness's
** scenarios start from (a fresh copy for every connection):
**   delete, wal  the history (build_history below) in that journal mode:
**                work for every probe of the tick, and rows for every
**                segment of the state summary and every count of
**                trigger_health;
**   v1, v2, v4   an older schema, as trigger_install finds it on first
**                use (tests/py/fixtures/schema_v*.sql; v1 is v2 with
**                version 1's indexes), with rows whose dedupe keys and
**                results the migration rewrites;
**   empty        a database without the extension's tables.
** Also the helpers every file of the harness uses to open and set up
** connections (on the failing allocator, while it is disarmed).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fault.h"

const char *ext_path;

void die(const char *what, sqlite3 *db) {
  fprintf(stdout, "FAIL setup: %s: %s\n", what, db ? sqlite3_errmsg(db) : "");
  fprintf(stdout, "fault_oom: 0 passed, 1 failed\n");
  exit(1);
}

void copy_file(const char *from, const char *to) {
  char buf[65536];
  FILE *in = fopen(from, "rb"), *out = fopen(to, "wb");
  if (!in || !out) die("copy_file", NULL);
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
  fclose(in);
  if (fclose(out) != 0) die("copy_file", NULL);
  char side[300];
  snprintf(side, sizeof side, "%s-journal", to);
  unlink(side);
  snprintf(side, sizeof side, "%s-wal", to);
  unlink(side);
  snprintf(side, sizeof side, "%s-shm", to);
  unlink(side);
}

int busy_timeout_ms = 5000;

sqlite3 *open_db(const char *path) { return open_db_ext(path, 1); }

sqlite3 *open_db_ext(const char *path, int load) {
  sqlite3 *db = NULL;
  char *err = NULL;
  if (sqlite3_open(path, &db) != SQLITE_OK) die("open", db);
  sqlite3_busy_timeout(db, busy_timeout_ms);
  sqlite3_exec(db, "PRAGMA synchronous=OFF", 0, 0,
               0); /* speed; rollback is unchanged */
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, (int *)0);
  if (load && sqlite3_load_extension(db, ext_path, NULL, &err) != SQLITE_OK) {
    fprintf(stdout, "FAIL setup: load %s: %s\n", ext_path, err ? err : "?");
    exit(1);
  }
  return db;
}

void exec(sqlite3 *db, const char *sql) {
  char *err = NULL;
  if (sqlite3_exec(db, sql, 0, 0, &err) != SQLITE_OK) {
    fprintf(stdout, "FAIL setup: %.300s: %s\n", sql, err ? err : "?");
    exit(1);
  }
}

/* ---- the history --------------------------------------------------------- */

static void build_history(const char *path, const char *journal) {
  unlink(path);
  sqlite3 *db = open_db(path);
  char sql[4096];
  snprintf(sql, sizeof sql, "PRAGMA journal_mode=%s", journal);
  exec(db, sql);
  exec(db, "SELECT trigger_install()");
  /* Non-default settings, so a value silently read as its default shows. */
  exec(db, "SELECT trigger_config('misfire_grace_ms', 45000),"
           " trigger_config('creator_roles', 'owner,admin,operator'),"
           " trigger_config('max_active_per_scope', 40)");
  /* A fire-time preload (tick/fire_preload.c): every claim runs it. */
  exec(db, "CREATE TABLE memories(scope TEXT, text TEXT);"
           "INSERT INTO memories VALUES('', 'note one'), ('', 'note two');"
           "SELECT trigger_config('preload_sql', 'SELECT text, :now AS at"
           " FROM memories WHERE scope = :scope')");
  snprintf(
      sql, sizeof sql,
      "INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, interval_ms,"
      " scheduled_at, cron_expression, timezone, start_at, misfire_policy, overlap_policy,"
      " max_attempts, backoff_ms, jitter_ms, window_ms, created_at) VALUES"
      " ('a', 'x', 'job a', 'interval', 60000, NULL, NULL, 'UTC', %lld, 'all', 'allow', 3, 1000, 0, NULL, %lld),"
      " ('b', 'x', 'job b', 'interval', 45000, NULL, NULL, 'UTC', %lld, 'coalesce', 'allow', 2, 1000, 0, NULL, %lld),"
      " ('c', 'y', 'job c', 'cron', NULL, NULL, '*/2 * * * *', 'Europe/Berlin', NULL, 'coalesce', 'skip', 1, 1000, 0, NULL, %lld),"
      " ('d', 'y', 'job d', 'once', NULL, %lld, NULL, 'UTC', NULL, 'coalesce', 'skip', 1, 1000, 0, NULL, %lld),"
      " ('e', 'x', 'job e', 'interval', 60000, NULL, NULL, 'UTC', %lld, 'all', 'allow', 1, 1000, 20000, NULL, %lld),"
      " ('f', 'x', 'job f', 'interval', 60000, NULL, NULL, 'UTC', %lld, 'all', 'allow', 2, 1000, 0, 150000, %lld),"
      " ('g', 'y', 'job g', 'interval', 60000, NULL, NULL, 'UTC', %lld, 'all', 'queue', 1, 1000, 0, NULL, %lld),"
      " ('h', 'y', 'job h', 'interval', 30000, NULL, NULL, 'UTC', %lld, 'skip', 'allow', 1, 1000, 0, NULL, %lld)",
      T0, T0, T0, T0, T0, T0 + 4 * MIN, T0, T0, T0, T0, T0, T0, T0, T0, T0);
  exec(db, sql);
  /* History: a tick at T0 + 1 min, then some runs finished, one failed
  ** (a retry is due at NOW), one deferred, the rest left running with a
  ** lease that has passed by NOW. */
  snprintf(
      sql, sizeof sql,
      "SELECT trigger_run_due(%lld, '{\"owner\":\"before\",\"lease_ms\":30000}')",
      T0 + MIN);
  exec(db, sql);
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(
          db,
          "SELECT run_id FROM trigger_runs WHERE status = 'running'"
          " ORDER BY run_id",
          -1, &st, NULL) != SQLITE_OK)
    die("runs", db);
  char ids[64][128];
  int n = 0;
  while (sqlite3_step(st) == SQLITE_ROW && n < 64) {
    snprintf(ids[n++], sizeof ids[0], "%s",
             (const char *)sqlite3_column_text(st, 0));
  }
  sqlite3_finalize(st);
  if (n < 8) die("too few runs claimed by the history tick", NULL);
  static const char *const how[] = {"success", NULL, "deferred", "failed"};
  for (int k = 0; k < n; k++) {
    const char *status = how[k % 4];
    if (!status) continue;
    if (k % 4 == 2 && k > 2) status = "success";
    snprintf(sql, sizeof sql,
             "SELECT trigger_run_finish('%.127s', '%s', NULL, %lld)", ids[k],
             status, T0 + MIN + 5);
    exec(db, sql);
  }
  /* Rows changed outside the extension (docs/tables.md), so that the
  ** tick pauses them, and its quarantine writes meet every failure too:
  ** a due trigger with interval_ms 0, one with a negative claims count
  ** (a next_due_at that is text, which the stray probe found, is refused
  ** by the STRICT table since schema version 6), a running run whose
  ** lease passed with attempt 0 (its run_id with it: either changed
  ** alone is refused since version 6). */
  snprintf(sql, sizeof sql,
           "INSERT INTO triggers(trigger_id, agent_id, instructions,"
           " trigger_type, interval_ms, created_at) VALUES"
           " ('z', 'x', 'job z', 'interval', 60000, %lld),"
           " ('w', 'y', 'job w', 'interval', 60000, %lld)",
           T0, T0);
  exec(db, sql);
  exec(db, "UPDATE triggers_data SET interval_ms = 0 WHERE trigger_id = 'z'");
  exec(db, "UPDATE triggers_state SET claims = -1 WHERE trigger_id = 'w'");
  snprintf(sql, sizeof sql,
           "UPDATE triggers_rundata SET attempt = 0, run_id ="
           " substr(run_id, 1, length(run_id) - 1) || '0'" /* with its key */
           " WHERE run_id = '%.127s'",
           ids[1]);
  exec(db, sql);
  /* For the state summary and trigger_health: a display name, a paused
  ** trigger, successes with a note (one with a secret, redacted when
  ** shown), a failure whose stored error is not UTF-8 (written before
  ** bytes were checked), a scheduled trigger that failed three times in a
  ** row, a create that was refused (trigger_events' rejected). */
  exec(db, "UPDATE triggers SET display_name = 'Nightly backup'"
           " WHERE trigger_id = 'a'");
  snprintf(sql, sizeof sql, "SELECT trigger_pause('e', %lld)", T0 + MIN + 20);
  exec(db, sql);
  exec(db, "UPDATE triggers_rundata SET result = 'copied 3 files,"
           " token sk-abcdefghijklmnopqrstuvwx0123'"
           " WHERE status = 'success' AND agent_id = 'x'");
  exec(db, "UPDATE triggers_rundata SET error = CAST(x'6469736b2066756c6c"
           "20ff' AS TEXT) WHERE status = 'failed' AND agent_id = 'x'");
  exec(db, "UPDATE triggers_state SET fail_streak = 3"
           " WHERE trigger_id IN (SELECT trigger_id FROM triggers_rundata"
           " WHERE status = 'failed')");
  snprintf(sql, sizeof sql,
           "SELECT trigger_create('{\"instructions\":\"spam\","
           "\"trigger_type\":\"interval\",\"interval_ms\":1000}',"
           " '{\"agent_id\":\"x\",\"role\":\"owner\",\"now\":%lld}')",
           T0 + MIN + 30);
  exec(db, sql);
  if (sqlite3_close(db) != SQLITE_OK) die("close", db);
}

/* ---- older schemas ------------------------------------------------------- */

/* Version 2's indexes as version 1 had them (tests/py/store/test_migrate.py) */
static const char v2_to_v1[] =
    "DROP INDEX triggers_data_due; DROP INDEX triggers_data_agent;"
    "DROP INDEX triggers_rundata_finished; DROP INDEX triggers_rundata_outcome;"
    "CREATE INDEX triggers_data_fire ON triggers_data(fire_at, trigger_id)"
    " WHERE fire_at IS NOT NULL;"
    "CREATE INDEX triggers_data_due ON triggers_data(next_due_at)"
    " WHERE next_due_at IS NOT NULL;"
    "CREATE INDEX triggers_data_agent ON triggers_data(agent_id, fire_at);"
    "CREATE INDEX triggers_data_pending ON triggers_data(agent_id, status,"
    " next_due_at, trigger_id);"
    "CREATE INDEX triggers_rundata_finished ON triggers_rundata(status,"
    " finished_at);"
    "CREATE INDEX triggers_rundata_outcome ON triggers_rundata(agent_id,"
    " status, finished_at);"
    "UPDATE triggers_config SET value = 1 WHERE key = 'schema_version';";

/* Rows of a version-2 database for the migration to rewrite: a success
** whose note (version 2 kept it in `error`) is longer than a result may
** be now and not UTF-8, a cron trigger and one whose schedule no longer
** reads (both with old dedupe keys). */
static const char v2_rows[] =
    "INSERT INTO triggers_rundata(run_id, trigger_id, agent_id,"
    " scheduled_for, attempt, status, finished_at, error)"
    " VALUES('t@1700000000000#1', 't', '', 1700000000000, 1, 'success',"
    " 1700000001000, replace(hex(zeroblob(2500)), '0', 'x')"
    " || CAST(x'ff' AS TEXT));"
    "INSERT INTO triggers_data(trigger_id, agent_id, instructions,"
    " trigger_type, cron_expression, timezone, status, dedupe_key,"
    " created_at, updated_at) SELECT 'c', 'a1', 'nightly', 'cron',"
    " '0 3 * * *', 'Europe/Berlin', 'scheduled', 'tdk1:00', 1700000000000,"
    " 1700000000000;"
    "INSERT INTO triggers_data(trigger_id, agent_id, instructions,"
    " trigger_type, cron_expression, timezone, status, dedupe_key,"
    " created_at, updated_at) SELECT 'bad', 'a1', 'broken', 'cron',"
    " 'not cron', 'UTC', 'paused', 'tdk1:01', 1700000000000, 1700000000000;";

static char *read_text(const char *path) {
  FILE *f = fopen(path, "rb");
  if (!f) {
    fprintf(stdout, "FAIL setup: %s: not found (FAULT_FIXTURES?)\n", path);
    exit(1);
  }
  char *p = NULL;
  size_t n = 0, cap = 0, got;
  do {
    if (n + 4096 + 1 > cap) {
      cap = (n + 4096 + 1) * 2;
      char *grown = realloc(p, cap);
      if (!grown) abort();
      p = grown;
    }
    got = fread(p + n, 1, 4096, f);
    n += got;
  } while (got > 0);
  fclose(f);
  p[n] = 0;
  return p;
}

static void build_fixture(const char *path, const char *fixture,
                          const char *after) {
  const char *dir = getenv("FAULT_FIXTURES");
  char file[512];
  snprintf(file, sizeof file, "%s/%s", dir ? dir : "tests/py/fixtures",
           fixture);
  char *sql = read_text(file);
  unlink(path);
  sqlite3 *db = NULL;
  if (sqlite3_open(path, &db) != SQLITE_OK) die("open", db);
  exec(db, sql);
  if (after) exec(db, after);
  free(sql);
  if (sqlite3_close(db) != SQLITE_OK) die("close", db);
}

/* ---- the set ------------------------------------------------------------- */

static const char *const names[] = {"delete", "wal", "v1", "v2", "v4", "empty"};
#define NDB (sizeof names / sizeof names[0])
static char paths[NDB][300];

const char *database_path(const char *name) {
  for (size_t i = 0; i < NDB; i++) {
    if (strcmp(names[i], name) == 0) return paths[i];
  }
  return "";
}

void databases_build(const char *dir) {
  for (size_t i = 0; i < NDB; i++) {
    snprintf(paths[i], sizeof paths[i], "%s/pristine-%s.db", dir, names[i]);
  }
  build_history(database_path("delete"), "delete");
  build_history(database_path("wal"), "wal");
  char v1[sizeof v2_rows + sizeof v2_to_v1];
  snprintf(v1, sizeof v1, "%s%s", v2_rows, v2_to_v1);
  build_fixture(database_path("v1"), "schema_v2.sql", v1);
  build_fixture(database_path("v2"), "schema_v2.sql", v2_rows);
  build_fixture(database_path("v4"), "schema_v4.sql", NULL);
  unlink(database_path("empty"));
  sqlite3 *db = NULL;
  if (sqlite3_open(database_path("empty"), &db) != SQLITE_OK) die("open", db);
  exec(db, "CREATE TABLE notes(id INTEGER PRIMARY KEY, text TEXT);"
           "INSERT INTO notes(text) VALUES ('kept')");
  sqlite3_close(db);
}

void databases_remove(void) {
  for (size_t i = 0; i < NDB; i++) {
    static const char *const side[] = {"", "-wal", "-shm", "-journal"};
    for (int k = 0; k < 4; k++) {
      char p[320];
      snprintf(p, sizeof p, "%.300s%s", paths[i], side[k]);
      unlink(p);
    }
  }
}
