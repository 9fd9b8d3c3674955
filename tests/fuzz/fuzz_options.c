/*
** fuzz_options.c -- libFuzzer target for the JSON option/request readers
** that go through SQLite's JSON functions: trigger_run_due's options
** (tick_opts.c), trigger_state_summary/_payload's options (fn_summary.c),
** trigger_create's request and context (fn_create.c) and trigger_next_due's
** JSON spec form (spec_arg.c).
**
** FUZZ_NEEDS_SQLITE -- run.sh links this target with the extension's
** sources and the system libsqlite3; the extension is registered with
** sqlite3_auto_extension, as a statically linked application would.
**
** One in-memory database, set up once (installed, a few triggers of each
** type, a claimed run, an admin config). Each input is a NUL-terminated
** copy of the bytes, passed as the JSON argument of every reader inside
** one transaction that is rolled back afterwards, so the database is the
** same for every input and memory stays bounded. SQL errors are fine; a
** crash, leak, UB, hang, a summary that is an error instead of its fixed
** fallback text, a result that is not JSON, a result or error message
** that is not valid UTF-8 without NUL (docs/reliability.md#guarantees), or
** a transaction left open is not. Seeds: tests/fuzz/corpus/options/ (one
** JSON text per file).
**
**   sh tests/fuzz/run.sh            # builds it as below, with the others
**   clang -g -O1 -fsanitize=fuzzer,address,undefined -Iext \
**     $(pkg-config --cflags libxml-2.0) tests/fuzz/fuzz_options.c \
**     <EXT_SRC of the Makefile> -lsqlite3 $(pkg-config --libs libxml-2.0) \
**     -lm -o build/fuzz/fuzz_options
**   ./build/fuzz/fuzz_options -max_total_time=60 tests/fuzz/corpus/options
*/
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/utf8.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int sqlite3_triggers_init(sqlite3 *db, char **err,
                          const sqlite3_api_routines *api);

#define MAX_INPUT 16384
/* 2026-03-08T06:20:00Z, after the setup's first tick. */
#define NOW 1772950800000LL

static sqlite3 *db;
static sqlite3_stmt *calls[8];
static sqlite3_stmt *is_json;

static const char *const call_sql[8] = {
    "SELECT trigger_run_due("
    "1772950800000"
    ", ?1)",
    "SELECT trigger_run_due("
    "1772954400000"
    ", ?1)",
    "SELECT trigger_state_summary('agent-1', "
    "1772950800000"
    ", ?1)",
    "SELECT trigger_state_payload('agent-1', "
    "1772950800000"
    ", ?1)",
    "SELECT trigger_create(?1, '{\"agent_id\":\"agent-1\",\"role\":\"owner\","
    "\"autonomy_available\":true,\"confirmed\":true,\"now\":1772950800000}')",
    "SELECT trigger_create('{\"instructions\":\"Check the build\","
    "\"trigger_type\":\"interval\",\"interval_ms\":900000}', ?1)",
    "SELECT trigger_next_due(?1, "
    "1772950800000"
    ")",
    "SELECT trigger_next_due(?1, "
    "1772950800000"
    ", 'America/New_York')",
};

/* What each call's result must be when it succeeds: 'A' a JSON array,
** 'O' a JSON object, 'T' text (never an error), 'I' integer or NULL. */
static const char expect[8] = {'A', 'A', 'T', 'O', 'O', 'O', 'I', 'I'};

static void setup(void);

static void die(const char *what) {
  fprintf(stderr, "fuzz_options: %s: %s\n", what, db ? sqlite3_errmsg(db) : "");
  abort();
}

static int in_setup;

static void exec(const char *sql) {
  char *err = NULL;
  if (sqlite3_exec(db, sql, 0, 0, &err) != SQLITE_OK) {
    fprintf(stderr, "fuzz_options: %s%s\n  -> %s\n",
            in_setup ? "setup failed: " : "", sql, err ? err : "");
    if (in_setup) exit(1);
    abort();
  }
}

/* Run before any input: a broken setup (no zoneinfo, say) is reported
** here, never as a crash of the first, empty input. */
int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  setup();
  return 0;
}

static void setup(void) {
  in_setup = 1;
  sqlite3_auto_extension((void (*)(void))sqlite3_triggers_init);
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) exit(1);
  exec("SELECT trigger_install()");
  exec("INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type,"
       " interval_ms, created_at, wake_mode)"
       " VALUES('build-check', 'agent-1', 'Check the build', 'interval',"
       " 900000, '2026-03-08T00:00:00Z', 'inject_now');"
       "INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type,"
       " cron_expression, timezone, created_at)"
       " VALUES('market-am', 'agent-1', 'Summarize market moves', 'cron',"
       " '0 7 * * MON-FRI', 'Europe/Berlin', '2026-03-01T00:00:00Z');"
       "INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type,"
       " scheduled_at, created_at, max_attempts, backoff_ms)"
       " VALUES('once-b', 'agent-2', 'Say hello', 'once',"
       " '2026-03-08T07:00:00Z', '2026-03-01T00:00:00Z', 3, 1000);"
       "INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type,"
       " interval_ms, created_at, enabled)"
       " VALUES('paused', 'agent-1', 'Never mind', 'interval', 60000,"
       " '2026-03-08T00:00:00Z', 0);"
       "SELECT trigger_run_due('2026-03-08T06:15:00Z');"
       "SELECT trigger_run_finish('build-check@1772950500000#1', 'success',"
       " NULL, '2026-03-08T06:15:04Z');"
       "SELECT trigger_config('max_creations_per_window', 1000);");
  for (int i = 0; i < 8; i++) {
    if (sqlite3_prepare_v2(db, call_sql[i], -1, &calls[i], NULL) != SQLITE_OK)
      die(call_sql[i]);
  }
  if (sqlite3_prepare_v2(db, "SELECT json_valid(?1), json_type(?1)", -1,
                         &is_json, NULL) != SQLITE_OK)
    die("prepare json check");
  in_setup = 0;
}

/* A successful result must have the promised shape. */
static void check_result(int i, sqlite3_stmt *st) {
  int t = sqlite3_column_type(st, 0);
  if (expect[i] == 'I') {
    if (t != SQLITE_INTEGER && t != SQLITE_NULL) die("next_due type");
    return;
  }
  if (t != SQLITE_TEXT) die("result is not text");
  if (!utf8_check((const char *)sqlite3_column_text(st, 0),
                  (size_t)sqlite3_column_bytes(st, 0), NULL))
    die("result is not valid UTF-8 without NUL");
  if (expect[i] == 'T') return;
  sqlite3_bind_value(is_json, 1, sqlite3_column_value(st, 0));
  if (sqlite3_step(is_json) != SQLITE_ROW || !sqlite3_column_int(is_json, 0))
    die(call_sql[i]);
  const char *ty = (const char *)sqlite3_column_text(is_json, 1);
  if (!ty || strcmp(ty, expect[i] == 'A' ? "array" : "object") != 0)
    die("result has the wrong JSON type");
  sqlite3_reset(is_json);
  sqlite3_clear_bindings(is_json);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  if (size > MAX_INPUT) return 0;
  char *text = malloc(size + 1);
  if (!text) return 0;
  memcpy(text, data, size);
  text[size] = 0;
  exec("BEGIN");
  for (int i = 0; i < 8; i++) {
    sqlite3_stmt *st = calls[i];
    sqlite3_bind_text(st, 1, text, -1, SQLITE_STATIC);
    int rc = sqlite3_step(st);
    if (rc == SQLITE_ROW) {
      check_result(i, st);
    } else if (expect[i] == 'T') {
      die("trigger_state_summary raised an error"); /* fixed text instead */
    } else if (rc != SQLITE_ERROR && rc != SQLITE_MISMATCH &&
               rc != SQLITE_CONSTRAINT && rc != SQLITE_RANGE &&
               rc != SQLITE_TOOBIG) {
      die(call_sql[i]);
    } else if (!utf8_check(sqlite3_errmsg(db), strlen(sqlite3_errmsg(db)),
                           NULL)) {
      die("error message is not valid UTF-8"); /* it quoted bad bytes */
    }
    sqlite3_reset(st);
    sqlite3_clear_bindings(st);
    /* A failing call inside the transaction never ends it. */
    if (sqlite3_get_autocommit(db)) die("a failed call ended the transaction");
  }
  exec("ROLLBACK");
  if (!sqlite3_get_autocommit(db)) die("transaction left open");
  free(text);
  return 0;
}
