/*
** tests/fault/scenarios.c -- the calls the fault harness fails
** allocations (or, --io, disk operations) in: one scenario per SQL-facing entry point (the tick and
** the lifecycle calls, the create action, the virtual tables' reads and
** writes, the operator's functions, the state summary, the schedule
** readers, the install and migration of an older schema). Each names its
** pristine database (databases.c), whether it runs on a fresh connection
** for every N (cold: first-use paths, e.g. a virtual table's connect, the
** migration) or a warm one, and its modes; see oom.c for the checks.
** Modes and warmth are chosen so that the layer stays well under a
** minute and a half under ASan: the once mode is kept where it reaches
** paths the persistent one does not (a failure absorbed and the call
** going on).
*/
#include <stdio.h>
#include <string.h>

#include "fault.h"

static char finish_sql[256], finish_result_sql[256], heartbeat_sql[256];
static char finish_many_sql[640], finish_many_bad_sql[640];

/* The first running run (in run_id order) that matches `where`. */
static void first_run(sqlite3 *db, const char *where, char out[128]) {
  char sql[256];
  sqlite3_stmt *st = NULL;
  snprintf(sql, sizeof sql,
           "SELECT run_id FROM trigger_runs WHERE status = 'running'"
           " AND %s ORDER BY run_id LIMIT 1",
           where);
  if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK ||
      sqlite3_step(st) != SQLITE_ROW) {
    die(sql, db);
  }
  snprintf(out, 128, "%s", (const char *)sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
}

/* The SQL of the lifecycle scenarios: runs the history left running. */
static void name_runs(void) {
  sqlite3 *db = open_db(database_path("delete"));
  char run_id[128];
  first_run(db, "trigger_id = 'a'", run_id);
  snprintf(finish_sql, sizeof finish_sql,
           "SELECT trigger_run_finish('%s', 'failed', 'boom', %lld)", run_id,
           NOW);
  snprintf(finish_result_sql, sizeof finish_result_sql,
           "SELECT trigger_run_finish('%s', 'success',"
           " 'summary: all green \xC3\xA9\xFF', %lld)",
           run_id, NOW);
  {
    char other[128];
    first_run(db, "attempt >= 1", other);
    /* two reports and a refused one between them (an unknown run) */
    snprintf(finish_many_sql, sizeof finish_many_sql,
             "SELECT trigger_run_finish_many('["
             "{\"run_id\":\"%s\",\"status\":\"failed\",\"detail\":\"boom\"},"
             "{\"run_id\":\"nope@1#1\",\"status\":\"success\"},"
             "{\"run_id\":\"%s\",\"status\":\"success\",\"detail\":\"ok\"}]',"
             " %lld)",
             run_id, other, NOW);
    /* a detail with bad bytes and escapes (repaired), a run_id with a bad
    ** byte (refused alone): the text read twice (utf8_json_mark) */
    snprintf(finish_many_bad_sql, sizeof finish_many_bad_sql,
             "SELECT trigger_run_finish_many('["
             "{\"run_id\":\"%s\",\"status\":\"failed\","
             "\"detail\":\"bo\xFFom \\u0000 \\udc80\"},"
             "{\"run_id\":\"nope\xC0@1#1\",\"status\":\"success\"},"
             "{\"run_id\":\"%s\",\"status\":\"success\",\"detail\":\"ok\"}]',"
             " %lld)",
             run_id, other, NOW);
  }
  /* renewed before its lease (claimed at T0 + MIN for 30 s) passed; a
  ** run not changed outside the extension (a's has attempt 0: refused) */
  first_run(db, "attempt >= 1", run_id);
  snprintf(heartbeat_sql, sizeof heartbeat_sql,
           "SELECT trigger_run_heartbeat('%s', NULL, %lld)", run_id,
           T0 + MIN + 10000);
  sqlite3_close(db);
}

#define TICK_SQL \
  "SELECT trigger_run_due(1767225910000, '{\"owner\":\"h\",\"lease_ms\":30000}')"

/* The summary's fallbacks, as agent/summary.h defines them (the
** harness is a client: it does not include the extension's headers). */
#define SUM_FALLBACK                                             \
  "Admin context temporarily unavailable; continue with latest " \
  "autonomous objective."
#define SUM_FALLBACK_PAYLOAD                                        \
  "{\"mode\":\"autonomous\",\"adminSummary\":\"" SUM_FALLBACK "\"," \
  "\"loopSummary\":\"\",\"pendingItems\":[],\"hints\":[],"          \
  "\"confidence\":\"low\"}"

/* Admin items for the summary: a directive overridden by a newer one on
** the same topic, an open question, a resolved item, a stale one, a long
** one (cut), white space to collapse. */
#define ADMIN_ITEMS                                                        \
  "{\"ts\":1767225900000,\"text\":\"Deploy: hold until QA signs off\"},"   \
  "{\"ts\":1767225800000,\"text\":\"deploy:  go   ahead\","                \
  "\"resolved\":false},"                                                   \
  "{\"ts\":1767225700000,\"text\":\"Should I rotate the keys?\"},"         \
  "{\"ts\":\"2026-01-01T00:03:00Z\",\"text\":\"Logs rotated\","            \
  "\"resolved\":true},"                                                    \
  "{\"ts\":1700000000000,\"text\":\"stale: old news\",\"resolved\":1},"    \
  "{\"ts\":1767225650000,\"text\":\"Remember: the staging database is "    \
  "shared with the QA team, so every migration there has to be announced " \
  "in the channel a day ahead, with the exact statements, the expected "   \
  "run time and the rollback plan, and nobody runs one on a Friday.\"}"

/* Every virtual table read through its indexes (equality, ranges, IN) and
** a scan. */
#define VTAB_READ                                                           \
  "SELECT (SELECT group_concat(trigger_id || status, ',') FROM triggers"    \
  " WHERE agent_id = 'x' AND next_due_at > 0) || '|' || (SELECT"            \
  " group_concat(run_id || status, ',') FROM trigger_runs WHERE"            \
  " trigger_id = 'a' AND scheduled_for >= 1767225600000) || '|' || (SELECT" \
  " count(*) FROM trigger_runs WHERE status IN ('running', 'deferred')"     \
  " AND agent_id = 'x') || '|' || (SELECT group_concat(kind, ',') FROM"     \
  " trigger_events WHERE trigger_id = 'e' AND at <= 1767225910000) || '|'"  \
  " || (SELECT group_concat(trigger_id, ',') FROM triggers WHERE"           \
  " trigger_id = 'c' OR instructions LIKE '%z%')"

/* Occurrences of a cron text, a stored trigger and a JSON spec, bounded by
** every kind of constraint on n (integers, reals, text). */
#define PREVIEW_SQL                                                        \
  "SELECT (SELECT group_concat(n || ' ' || due_iso, '; ') FROM"            \
  " trigger_preview('0 9 * * MON-FRI', 1767225910000, 'America/New_York')" \
  " WHERE n BETWEEN 2 AND 4) || '|' || (SELECT group_concat(due_at, ',')"  \
  " FROM trigger_preview('c', 1767225910000) WHERE n < 3.5 AND n > 1.5)"   \
  " || '|' || (SELECT group_concat(due_iso, ',') FROM trigger_preview("    \
  "'{\"trigger_type\":\"interval\",\"interval_ms\":5400000,"               \
  "\"start_at\":0}', '2026-03-09T00:00:00Z', 'Asia/Tokyo') WHERE n = '2'"  \
  " ORDER BY n) || '|' || (SELECT count(*) FROM trigger_preview("          \
  "'*/5 * * * *', 0) WHERE n <= 7 AND n >= -2.5 AND n = 2.5)"

const scenario *scenarios(int *n) {
  static scenario s[] = {
      {.name = "tick", .sql = TICK_SQL, .db = "delete", .modes = 3},
      /* the once mode of these two adds little to tick's and costs seconds */
      {.name = "tick-in-txn",
       .sql = TICK_SQL,
       .in_txn = 1,
       .db = "wal",
       .modes = 1},
      {.name = "tick-cold",
       .sql = TICK_SQL,
       .cold = 1,
       .db = "wal",
       .modes = 2},
      {.name = "create",
       .sql = "SELECT trigger_create('{\"instructions\":\"Check the build\","
              "\"trigger_type\":\"cron\",\"cron_expression\":\"0 9 * * "
              "MON-FRI\",\"timezone\":\"America/New_York\"}', "
              "'{\"agent_id\":\"x\",\"role\":\"owner\","
              "\"now\":1767225600000}')",
       .db = "wal",
       .modes = 3},
      {.name = "create-in-txn",
       .sql = "SELECT trigger_create('{\"instructions\":\"Every hour\","
              "\"trigger_type\":\"interval\",\"interval_ms\":3600000}',"
              " '{\"agent_id\":\"x\",\"role\":\"owner\","
              "\"now\":1767225600000}')",
       .in_txn = 1,
       .db = "delete",
       .modes = 3},
      {.name = "create-when",
       .sql = "SELECT trigger_create('{\"instructions\":\"Water the plants\","
              "\"when\":\"every day at 9am\",\"timezone\":\"Europe/Berlin\"}',"
              " '{\"agent_id\":\"y\",\"role\":\"owner\","
              "\"now\":1767225600000}')",
       .db = "delete",
       .modes = 3},
      /* a named trigger_id (is it held?), metadata whose user_id is
      ** dropped for the context's, and the bounds' config reads */
      {.name = "create-named",
       .sql = "SELECT trigger_create('{\"instructions\":\"Ping\","
              "\"trigger_id\":\"ping-1\",\"trigger_type\":\"interval\","
              "\"interval_ms\":3600000,\"max_attempts\":3,"
              "\"metadata\":{\"user_id\":\"u2\",\"k\":1}}',"
              " '{\"agent_id\":\"x\",\"role\":\"owner\",\"user_id\":\"u1\","
              "\"now\":1767225600000}')",
       .db = "wal",
       .modes = 3},
      /* a model's untidy reply: prose and a fence around the XML, names
      ** and values in other spellings, an element that is listed as
      ** ignored */
      {.name = "create-xml",
       .sql = "SELECT trigger_create_xml('Sure:\n```xml\n<Response>"
              "<Instructions>Rotate the logs</Instructions><trigger_type>"
              "INTERVAL</trigger_type><intervalMs>3600000</intervalMs>"
              "<wakeMode>injectNow</wakeMode><thoughts>hourly</thoughts>"
              "</Response>\n```',"
              " '{\"agent_id\":\"y\",\"role\":\"owner\","
              "\"now\":1767225600000}')",
       .db = "wal",
       .modes = 3},
      {.name = "insert",
       .sql = "INSERT INTO triggers(trigger_id, agent_id, instructions,"
              " trigger_type, cron_expression, timezone, created_at) VALUES"
              " ('new', 'x', 'Standup', 'cron', '30 9 * * MON-FRI',"
              " 'Asia/Kolkata', 1767225600000)",
       .db = "delete",
       .modes = 3},
      {.name = "finish", .sql = finish_sql, .db = "wal", .modes = 3},
      /* a success's detail: its result, cleaned and bounded (run_text) */
      {.name = "finish-result",
       .sql = finish_result_sql,
       .in_txn = 1,
       .db = "delete",
       .modes = 3},
      {.name = "finish-many",
       .sql = finish_many_sql,
       .in_txn = 1,
       .db = "wal",
       .modes = 3},
      {.name = "finish-many-alone",
       .sql = finish_many_sql,
       .db = "delete",
       .modes = 3},
      {.name = "finish-many-bad-bytes",
       .sql = finish_many_bad_sql,
       .db = "wal",
       .modes = 3},
      {.name = "heartbeat", .sql = heartbeat_sql, .db = "delete", .modes = 3},
      /* a schedule read from JSON (spec_from_json) and an ISO instant: an
      ** allocation failing here once made the call return a wrong time */
      {.name = "next-due-json",
       .sql = "SELECT trigger_next_due('{\"trigger_type\":\"cron\","
              "\"cron_expression\":\"0 9 * * MON-FRI\",\"timezone\":"
              "\"America/New_York\",\"end_at\":\"2027-01-01T00:00:00\"}',"
              " '2026-01-01T08:00:00Z')",
       .db = "delete",
       .modes = 3,
       .read_only = 1},
      /* ---- the lifecycle calls (tick/fn_trigger_ops.c) ---- */
      /* a claim outside the tick: its run carries the preload */
      {.name = "fire",
       .sql = "SELECT trigger_fire('b', 1767225910000)",
       .db = "wal",
       .modes = 3},
      /* a preload of every type: a real, a blob, NULL, text that is not
      ** UTF-8, infinities (tick/fire_preload.c) */
      {.name = "fire-preload-types",
       .sql = "SELECT trigger_fire('b', 1767225910000)",
       .db = "delete",
       .modes = 1,
       .setup = "UPDATE triggers_config SET value = 'SELECT 1.5 AS r, 0.1 AS"
                " tenth, x''00ff'' AS b, NULL AS n, CAST(x''ff41'' AS TEXT)"
                " AS bad, 9e999 AS inf, -9e999 AS ninf, :trigger_id AS id'"
                " WHERE key = 'preload_sql'"},
      /* a preload that fails at fire time: the run carries preloadError */
      {.name = "fire-preload-error",
       .sql = "SELECT trigger_fire('a', 1767225910000)",
       .db = "wal",
       .modes = 1,
       .setup = "DROP TABLE memories"},
      /* a preload stored before it was checked (an older version, a
      ** direct write) that calls a function with side effects: refused
      ** where the tick prepares it, the run carries preloadError */
      {.name = "fire-preload-side",
       .sql = "SELECT trigger_fire('b', 1767225910000)",
       .db = "delete",
       .modes = 1,
       .setup = "UPDATE triggers_config SET value = 'SELECT"
                " trigger_pause(:trigger_id) AS p' WHERE key = 'preload_sql'"},
      /* a value longer than any preload may be: stopped by the length
      ** bound before it is made, preloadError */
      {.name = "fire-preload-huge",
       .sql = "SELECT trigger_fire('b', 1767225910000)",
       .db = "wal",
       .modes = 1,
       .setup = "UPDATE triggers_config SET value = 'SELECT"
                " randomblob(2000000) AS b' WHERE key = 'preload_sql'"},
      {.name = "pause",
       .sql = "SELECT trigger_pause('a', 1767225910000)",
       .db = "delete",
       .modes = 1},
      {.name = "resume",
       .sql = "SELECT trigger_resume('e', 1767225910000)",
       .db = "wal",
       .modes = 1},
      {.name = "cancel",
       .sql = "SELECT trigger_cancel('h', 1767225910000)",
       .in_txn = 1,
       .db = "delete",
       .modes = 1},
      /* a row changed outside the extension: paused, with its reason */
      {.name = "pause-bad",
       .sql = "SELECT trigger_pause('z', 1767225910000)",
       .db = "wal",
       .modes = 1},
      {.name = "wakeup",
       .sql = "SELECT trigger_next_wakeup(1767225600000) || ',' ||"
              " trigger_next_wakeup(1767225600000, '{\"agents\":[\"y\","
              "\"nobody\",3],\"wake_mode\":\"next_autonomy_cycle\"}')",
       .db = "delete",
       .modes = 1,
       .read_only = 1},
      /* ---- the operator's functions (sql/fn_admin.c) ---- */
      /* persistent only: SQLite's json_valid (3.40) reads an allocation
      ** failing inside its parser as invalid JSON, so a single failure
      ** there drops last_create_error's reason (as for a detail changed
      ** outside the extension) */
      {.name = "health",
       .sql = "SELECT trigger_health(1767225910000) || trigger_health("
              "1767225910000, '{\"agents\":[\"x\",\"y\"],"
              "\"scope\":\"\"}')",
       .db = "wal",
       .modes = 1,
       .read_only = 1},
      {.name = "prune",
       .sql = "SELECT trigger_prune(1767225910000, 3)",
       .db = "delete",
       .modes = 1},
      {.name = "prune-events",
       .sql = "SELECT trigger_prune(1767225910000, NULL, 'trigger_events')",
       .db = "wal",
       .modes = 1},
      {.name = "config-get",
       .sql = "SELECT trigger_config('creator_roles') || ',' ||"
              " trigger_config('misfire_grace_ms') || ',' ||"
              " trigger_config('min_confidence') || ',' ||"
              " trigger_config('preload_sql')",
       .db = "delete",
       .modes = 3,
       .read_only = 1},
      /* (one write per statement: in autocommit mode each function's
      ** writes commit when its own statement ends) */
      {.name = "config-set",
       .sql = "SELECT trigger_config('max_active_per_scope', '30')",
       .db = "wal",
       .modes = 3},
      {.name = "config-set-real",
       .sql = "SELECT trigger_config('min_confidence', '0.25')",
       .db = "delete",
       .modes = 1},
      /* a preload checked when it is set: every parameter spelling */
      {.name = "config-preload",
       .sql = "SELECT trigger_config('preload_sql', 'SELECT text, :scope AS"
              " s, @trigger_id AS t, $agent_id AS a, :now AS n FROM memories"
              " ORDER BY text; -- newest first\n;')",
       .db = "delete",
       .modes = 3},
      {.name = "reinstall",
       .sql = "SELECT trigger_install()",
       .db = "delete",
       .modes = 1,
       .read_only = 1},
      /* ---- install and migration on first use (store/install.c,
      ** migrate.c, rekey.c) ---- */
      {.name = "install-new",
       .sql = "SELECT trigger_install()",
       .cold = 1,
       .db = "empty",
       .modes = 1,
       .stride = 11,
       .ddl = 1},
      /* version 1 differs from 2 by its indexes only (the first step) */
      {.name = "install-v1",
       .sql = "SELECT trigger_install()",
       .cold = 1,
       .db = "v1",
       .modes = 1,
       .stride = 1999,
       .ddl = 1},
      {.name = "install-v2",
       .sql = "SELECT trigger_install()",
       .cold = 1,
       .db = "v2",
       .modes = 1,
       .stride = 251,
       .ddl = 1},
      {.name = "install-v4",
       .sql = "SELECT trigger_install()",
       .cold = 1,
       .db = "v4",
       .modes = 1,
       .ddl = 1},
      /* ---- the virtual tables (sql/vtab_*.c) ---- */
      {.name = "vtab-read",
       .sql = VTAB_READ,
       .db = "delete",
       .modes = 1,
       .read_only = 1},
      /* first use: each table connected */
      {.name = "vtab-cold",
       .sql = VTAB_READ,
       .cold = 1,
       .db = "wal",
       .modes = 1,
       .read_only = 1},
      {.name = "update",
       .sql = "UPDATE triggers SET instructions = 'job b, slower',"
              " interval_ms = 90000, metadata = '{\"k\":1}'"
              " WHERE trigger_id = 'b'",
       .db = "wal",
       .modes = 3},
      {.name = "replace",
       .sql = "INSERT OR REPLACE INTO triggers(trigger_id, agent_id,"
              " instructions, trigger_type, cron_expression, timezone,"
              " created_at) VALUES ('c', 'y', 'job c, hourly', 'cron',"
              " '0 * * * *', 'Asia/Tokyo', 1767225700000)",
       .db = "delete",
       .modes = 1},
      {.name = "delete",
       .sql = "DELETE FROM triggers WHERE trigger_id = 'h'",
       .db = "delete",
       .modes = 3},
      {.name = "delete-runs",
       .sql = "DELETE FROM trigger_runs WHERE status = 'success'"
              " AND trigger_id IN ('a', 'b', 'c', 'd')",
       .in_txn = 1,
       .db = "wal",
       .modes = 1},
      /* ---- the schedule readers (sql/vtab_preview.c, fn_describe.c,
      ** fn_when.c) ---- */
      {.name = "preview",
       .sql = PREVIEW_SQL,
       .db = "delete",
       .modes = 1,
       .read_only = 1},
      {.name = "describe",
       .sql = "SELECT trigger_describe('c') || '|' || trigger_describe('f')"
              " || '|' || trigger_describe('0 15 10 ? * 6#3', 'Europe/Berlin')"
              " || '|' || trigger_describe('{\"scheduled_at\":"
              "\"2026-03-09T07:15:00\",\"timezone\":\"America/New_York\"}')",
       .db = "wal",
       .modes = 1,
       .read_only = 1},
      {.name = "when",
       .sql = "SELECT trigger_find_when('remind me tomorrow at 9am to call"
              " Anna', 1767225910000, 'America/New_York') || trigger_find_when("
              "'nothing to see here') || trigger_parse_when('every weekday at"
              " 7:30', 1767225910000, 'Europe/Berlin')",
       .db = "delete",
       .modes = 3,
       .read_only = 1},
      /* ---- the state summary (agent/fn_summary.c, store/agent.c) ---- */
      {.name = "summary",
       .sql =
           "SELECT trigger_state_summary('x', 1767225910000, '{\"admin\":[" ADMIN_ITEMS
           "],\"stale_ms\":86400000}')",
       .db = "wal",
       .modes = 3,
       .read_only = 1,
       .fallback = SUM_FALLBACK},
      /* small caps: every segment cut */
      {.name = "payload",
       .sql =
           "SELECT trigger_state_payload('x', 1767225910000, '{\"admin\":[" ADMIN_ITEMS
           "],\"max_total\":\"700\",\"max_admin\":260,"
           "\"max_loop\":150,\"max_footer\":60}')",
       .db = "delete",
       .modes = 1,
       .read_only = 1,
       .fallback = SUM_FALLBACK_PAYLOAD},
      /* ---- refusals: the error message (its own allocations) ---- */
      {.name = "refused-preload-write",
       .sql = "SELECT trigger_config('preload_sql', 'DELETE FROM memories')",
       .db = "delete",
       .modes = 3,
       .read_only = 1,
       .refused = 1},
      {.name = "refused-preload-two",
       .sql = "SELECT trigger_config('preload_sql', 'SELECT 1; SELECT 2')",
       .db = "wal",
       .modes = 3,
       .read_only = 1,
       .refused = 1},
      {.name = "refused-preload-param",
       .sql = "SELECT trigger_config('preload_sql', 'SELECT :who, ?')",
       .db = "delete",
       .modes = 3,
       .read_only = 1,
       .refused = 1},
      {.name = "refused-preload-syntax",
       .sql = "SELECT trigger_config('preload_sql', 'SELEC 1')",
       .db = "wal",
       .modes = 3,
       .read_only = 1,
       .refused = 1},
      {.name = "refused-preload-pragma",
       .sql = "SELECT trigger_config('preload_sql', 'PRAGMA query_only=1')",
       .db = "delete",
       .modes = 3,
       .read_only = 1,
       .refused = 1},
      {.name = "refused-preload-side",
       .sql = "SELECT trigger_config('preload_sql', 'SELECT"
              " trigger_run_due(:now) AS r')",
       .db = "wal",
       .modes = 3,
       .read_only = 1,
       .refused = 1},
      /* a schema newer than this build: refused on first use */
      {.name = "refused-newer-schema",
       .sql = TICK_SQL,
       .db = "delete",
       .cold = 1,
       .modes = 1,
       .read_only = 1,
       .refused = 1,
       .setup = "UPDATE triggers_config SET value = 7"
                " WHERE key = 'schema_version'"},
      {.name = "refused-config",
       .sql = "SELECT trigger_config('misfire_grace_ms', 'soon')",
       .db = "delete",
       .modes = 3,
       .read_only = 1,
       .refused = 1},
      {.name = "refused-fire",
       .sql = "SELECT trigger_fire('nope', 1767225910000)",
       .db = "wal",
       .modes = 3,
       .read_only = 1,
       .refused = 1},
      {.name = "refused-resume",
       .sql = "SELECT trigger_resume('w', 1767225910000)",
       .db = "delete",
       .modes = 3,
       .read_only = 1,
       .refused = 1},
      {.name = "refused-finish",
       .sql = "SELECT trigger_run_finish('nope@1#1', 'success', NULL,"
              " 1767225910000)",
       .db = "wal",
       .modes = 3,
       .read_only = 1,
       .refused = 1},
      {.name = "refused-health",
       .sql = "SELECT trigger_health(1767225910000, '{\"agents\":\"x\"}')",
       .db = "delete",
       .modes = 3,
       .read_only = 1,
       .refused = 1},
      {.name = "refused-prune",
       .sql = "SELECT trigger_prune(1767225910000, 0)",
       .db = "wal",
       .modes = 3,
       .read_only = 1,
       .refused = 1},
      {.name = "refused-preview",
       .sql = "SELECT count(*) FROM trigger_preview('nightly', 0)",
       .db = "delete",
       .modes = 3,
       .read_only = 1,
       .refused = 1},
      {.name = "refused-describe",
       .sql = "SELECT trigger_describe('0 0 32 * *')",
       .db = "wal",
       .modes = 3,
       .read_only = 1,
       .refused = 1},
      {.name = "refused-insert",
       .sql = "INSERT INTO triggers(agent_id, instructions, trigger_type,"
              " interval_ms) VALUES ('x', 'too often', 'interval', 10)",
       .db = "delete",
       .modes = 3,
       .read_only = 1,
       .refused = 1},
      {.name = "refused-update",
       .sql = "UPDATE triggers SET timezone = 'Mars/Olympus' WHERE"
              " trigger_id = 'a'",
       .db = "wal",
       .modes = 3,
       .read_only = 1,
       .refused = 1},
      {.name = "refused-delete-running",
       .sql = "DELETE FROM trigger_runs WHERE status = 'running'",
       .db = "delete",
       .modes = 3,
       .read_only = 1,
       .refused = 1},
      {.name = "refused-tick",
       .sql = "SELECT trigger_run_due(1767225910000, '{\"lease\":1}')",
       .db = "wal",
       .modes = 3,
       .read_only = 1,
       .refused = 1},
      {.name = "summary-y",
       .sql = "SELECT trigger_state_summary('y', 1767225910000)",
       .db = "delete",
       .modes = 1,
       .read_only = 1,
       .fallback = SUM_FALLBACK},
      /* the extension loaded into a connection (sqlite3_triggers_init):
      ** each registration of ext.c meets the failure in turn; a load
      ** that failed leaves what it registered to the connection's close,
      ** and loading again then succeeds */
      {.name = "load",
       .sql = "(sqlite3_load_extension)",
       .load = 1,
       .cold = 1,
       .db = "delete",
       .modes = 3,
       .read_only = 1},
  };
  if (!finish_sql[0]) name_runs();
  *n = (int)(sizeof s / sizeof s[0]);
  return s;
}
