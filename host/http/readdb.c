/*
** readdb.c -- the status server's read-only connections (see readdb.h).
*/
#include "http/readdb.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* The columns of RQ_TRIGGERS and RQ_TRIGGERS_IDLE (page.c reads them by
** position). */
#define TRIGGER_COLS                                                \
  "SELECT trigger_id, display_name, agent_id, status, next_due_at," \
  " trigger_iso(next_due_at, timezone), last_status,"               \
  " trigger_iso(last_run_at, timezone), last_error, run_count,"     \
  " coalesce(instructions || char(10) || 'SQL: ' || action_sql,"    \
  " instructions), coalesce(rrule, cron_expression)"

/* Whether a row matches the list's filters (NULL: any): its last column;
** the list looks at every row, so a page is bounded by the
** rows it reads, not by what matches (page.c). */
#define FILTERS                                                   \
  " (?2 IS NULL OR agent_id = ?2) AND (?3 IS NULL OR scope = ?3)" \
  " AND (?4 IS NULL OR status = ?4)"

/* The columns of the run tables (page.c's page_run_row reads them by
** position): claim latency is scheduled_for to claimed_at, as
** trigger_host_claim_latency_seconds of /metrics; run time is
** latency_ms, claimed_at to finished_at. */
#define RUN_COLS                                                             \
  "SELECT run_id, trigger_id, agent_id, trigger_iso(scheduled_for),"         \
  " attempt, status, latency_ms, error, result, claimed_at - scheduled_for," \
  " scheduled_for FROM trigger_runs"

#define BY_DUE " ORDER BY next_due_at, trigger_id LIMIT ?1"
#define BY_ID " ORDER BY trigger_id LIMIT ?1"

static const char *const sql_text[RQ_COUNT] = {
    [RQ_HEALTH] = "SELECT trigger_health(?1)",
    [RQ_TRIGGERS] = TRIGGER_COLS ", " FILTERS " FROM triggers"
                                 " WHERE next_due_at > ?5" BY_DUE,
    [RQ_TRIGGERS_TIE] = TRIGGER_COLS ", " FILTERS " FROM triggers"
                                     " WHERE next_due_at = ?5"
                                     " AND trigger_id > ?6" BY_ID,
    [RQ_TRIGGERS_IDLE] =
        TRIGGER_COLS ", next_due_at IS NULL AND" FILTERS
                     " FROM triggers WHERE trigger_id > ?6" BY_ID,
    [RQ_TRIGGERS_A] = TRIGGER_COLS ", " FILTERS " FROM triggers"
                                   " WHERE agent_id = ?2"
                                   " AND next_due_at > ?5" BY_DUE,
    [RQ_TRIGGERS_TIE_A] = TRIGGER_COLS ", " FILTERS " FROM triggers"
                                       " WHERE agent_id = ?2"
                                       " AND next_due_at = ?5"
                                       " AND trigger_id > ?6" BY_ID,
    [RQ_TRIGGERS_IDLE_A] = TRIGGER_COLS ", next_due_at IS NULL AND" FILTERS
                                        " FROM triggers WHERE agent_id = ?2"
                                        " AND trigger_id > ?6" BY_ID,
    [RQ_TRIGGERS_STATE] = TRIGGER_COLS ", " FILTERS " FROM triggers"
                                       " WHERE status = ?4"
                                       " AND trigger_id > ?6" BY_ID,
    [RQ_DESCRIBE] = "SELECT trigger_describe(?1)",
    [RQ_UPCOMING] =
        "SELECT trigger_id, display_name, next_due_at, max_runs - run_count"
        " FROM triggers WHERE next_due_at >= ?1 AND next_due_at < ?2"
        " ORDER BY next_due_at, trigger_id LIMIT ?3",
    [RQ_PREVIEW] = "SELECT due_at FROM trigger_preview(?1, ?2) WHERE n <= ?3",
    [RQ_RUNS] = RUN_COLS " WHERE scheduled_for >= ?1 AND scheduled_for <= ?2"
                         " ORDER BY scheduled_for DESC, run_id DESC LIMIT ?3",
    [RQ_QUOTE] = "SELECT json_quote(?1)",
    [RQ_FIELDS] = "SELECT key, value, type FROM json_each(?1)",
    [RQ_TRIGGER_ROW] = "SELECT * FROM triggers WHERE trigger_id = ?1",
    [RQ_NEXT] = "SELECT due_iso FROM trigger_preview(?1, ?2) WHERE n <= ?3",
    [RQ_TRIGGER_RUNS] =
        RUN_COLS " WHERE trigger_id = ?1 AND scheduled_for <= ?2"
                 " AND (scheduled_for < ?2 OR run_id < ?3)"
                 " ORDER BY scheduled_for DESC, run_id DESC LIMIT ?4",
    [RQ_TRIGGER_EVENTS] = "SELECT trigger_iso(at), kind, code, detail, at,"
                          " rowid FROM trigger_events WHERE trigger_id = ?1"
                          " AND at <= ?3 AND (at < ?3 OR rowid < ?4)"
                          " ORDER BY at DESC, rowid DESC LIMIT ?2",
    [RQ_RUN_ROW] =
        "SELECT run_id, trigger_id, agent_id, status, attempt,"
        " trigger_iso(scheduled_for), trigger_iso(claimed_at),"
        " trigger_iso(finished_at), trigger_iso(lease_until), owner,"
        " claimed_at - scheduled_for, latency_ms, payload, result, error,"
        " scheduled_for FROM trigger_runs WHERE run_id = ?1",
    [RQ_RUN_ATTEMPTS] = RUN_COLS " WHERE trigger_id = ?1 AND scheduled_for = ?2"
                                 " ORDER BY attempt",
};

const char *readdb_errmsg(const readdb *r) {
  return r->db ? sqlite3_errmsg(r->db) : "not open";
}

static int fail(readdb *r, const char *what, char **err) {
  *err = xprintf("%s: %s: %s", r->path, what, readdb_errmsg(r));
  return -1;
}

int readdb_open(readdb *r, const char *path, const char *extension, int busy_ms,
                char **err) {
  memset(r, 0, sizeof *r);
  r->path = path;
  int rc = sqlite3_open_v2(path, &r->db, SQLITE_OPEN_READONLY, NULL);
  if (rc != SQLITE_OK) return fail(r, "open read-only", err);
  sqlite3_busy_timeout(r->db, busy_ms);
  if (sqlite3_exec(r->db, "PRAGMA query_only=1", NULL, NULL, NULL) != SQLITE_OK)
    return fail(r, "query_only", err);
  char *msg = NULL;
  sqlite3_enable_load_extension(r->db, 1);
  rc = sqlite3_load_extension(r->db, extension, NULL, &msg);
  sqlite3_enable_load_extension(r->db, 0);
  if (rc != SQLITE_OK) {
    *err = xprintf("%s: cannot load extension %s: %s", path, extension,
                   msg ? msg : sqlite3_errstr(rc));
    sqlite3_free(msg);
    return -1;
  }
  for (int i = 0; i < RQ_COUNT; i++) {
    if (sqlite3_prepare_v3(r->db, sql_text[i], -1, SQLITE_PREPARE_PERSISTENT,
                           &r->st[i], NULL) != SQLITE_OK)
      return fail(r, "prepare", err);
  }
  return 0;
}

void readdb_close(readdb *r) {
  for (int i = 0; i < RQ_COUNT; i++) sqlite3_finalize(r->st[i]);
  sqlite3_close(r->db);
  memset(r, 0, sizeof *r);
}

int readdb_begin(readdb *r) {
  return sqlite3_exec(r->db, "BEGIN", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

void readdb_end(readdb *r) {
  for (int i = 0; i < RQ_COUNT; i++) sqlite3_reset(r->st[i]);
  if (!sqlite3_get_autocommit(r->db))
    sqlite3_exec(r->db, "COMMIT", NULL, NULL, NULL);
}

sqlite3_stmt *readdb_stmt(readdb *r, readdb_query q) {
  sqlite3_reset(r->st[q]);
  sqlite3_clear_bindings(r->st[q]);
  return r->st[q];
}

char *readdb_text(readdb *r, sqlite3_stmt *st, char **err) {
  *err = NULL;
  int rc = sqlite3_step(st);
  char *out = NULL;
  if (rc == SQLITE_ROW) out = xstrdup((const char *)sqlite3_column_text(st, 0));
  else *err = xprintf("%s", readdb_errmsg(r));
  sqlite3_reset(st);
  return out;
}

char *readdb_health(readdb *r, long long now_ms, char **err) {
  sqlite3_stmt *st = readdb_stmt(r, RQ_HEALTH);
  sqlite3_bind_int64(st, 1, now_ms);
  return readdb_text(r, st, err);
}

/* key "<k>_capped" (true): mark field k of the n read so far capped. */
static void mark_capped(health_field *f, int n, const char *key) {
  static const char suffix[] = "_capped";
  size_t len = strlen(key), slen = sizeof suffix - 1;
  if (len <= slen || strcmp(key + len - slen, suffix) != 0) return;
  for (int i = 0; i < n; i++)
    if (strlen(f[i].key) == len - slen &&
        strncmp(f[i].key, key, len - slen) == 0)
      f[i].capped = 1;
}

int readdb_health_fields(readdb *r, const char *json, health_field *f, int max,
                         int *count) {
  sqlite3_stmt *st = readdb_stmt(r, RQ_FIELDS);
  sqlite3_bind_text(st, 1, json, -1, SQLITE_STATIC);
  int n = 0, rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW && n < max) {
    const char *type = (const char *)sqlite3_column_text(st, 2);
    const char *key = (const char *)sqlite3_column_text(st, 0);
    int isnull = type && strcmp(type, "null") == 0;
    if (key && type && strcmp(type, "true") == 0) mark_capped(f, n, key);
    if (!key || !type || (!isnull && strcmp(type, "integer") != 0)) continue;
    snprintf(f[n].key, sizeof f[n].key, "%s", key);
    f[n].value = sqlite3_column_int64(st, 1);
    f[n].isnull = isnull;
    f[n].capped = 0;
    n++;
  }
  int ok = rc == SQLITE_ROW || rc == SQLITE_DONE;
  sqlite3_reset(st);
  *count = ok ? n : 0;
  return ok ? 0 : -1;
}
