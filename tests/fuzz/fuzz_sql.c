/*
** fuzz_sql.c -- SQL-level libFuzzer target: the input bytes are decoded
** into at most MAX_STMTS statements built from templates against the
** extension (writes to `triggers` and `trigger_runs`, ticks with a clock
** that moves forwards and backwards, finishing claimed runs, fire / pause
** / resume / cancel, create, prune, health, config, summaries, previews,
** transactions and savepoints, drop and reinstall, and direct writes to
** the shadow tables as an application with SQLITE_DBCONFIG_DEFENSIVE off
** could make them: docs/tables.md#changed-shadow-tables), run on a fresh
** in-memory database per input. Values come from small tables of good
** ones (types, cron expressions, zones, policies, instants as ms or ISO
** text) or from the input itself, and are always bound as parameters.
**
** FUZZ_NEEDS_SQLITE -- run.sh links this target with the extension's
** sources and the system libsqlite3 (sqlite3_auto_extension registers
** the extension on every connection).
**
** SQL errors are expected. Checked, with abort() on violation:
**   - a failing statement in autocommit mode leaves no transaction open;
**     one failing inside the caller's transaction does not end it;
**   - trigger_state_summary never raises an error;
**   - after a tick without options nothing claimable is left due
**     (triggers_state next_due_at and fire_at <= now): a changed row is
**     paused, not left due;
**   - after the input: PRAGMA integrity_check is ok, the virtual tables
**     see exactly the rows of their shadow tables, trigger_runs has no
**     (trigger_id, incarnation, scheduled_for, attempt) duplicate, and
**     trigger_health is a JSON object; no preload changed the connection
**     (query_only, writable_schema, busy_timeout, the heap limit, its
**     length limit); unless the input wrote a shadow
**     table itself, trigger_runs has only known statuses, every running
**     run has a claim and a lease, every trigger a known status, and each
**     trigger's running count is the number of running runs of its
**     incarnation (no hold without a run: a running run cannot be
**     deleted).
** Seeds: tests/fuzz/corpus/sql/ (binary; see the decoder below). To see
** what an input does: FUZZ_SQL_TRACE=1 build/fuzz/fuzz_sql FILE.
*/
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text/utf8.h"
#include "time/civil.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int sqlite3_triggers_init(sqlite3 *db, char **err,
                          const sqlite3_api_routines *api);

#define MAX_STMTS 32
#define MAX_TEXT 48
/* 2026-03-08T00:00:00Z: New York springs forward that night. */
#define NOW0 1772928000000LL

typedef struct rd {
  const uint8_t *p;
  size_t n;
} rd;

static unsigned u8(rd *r) {
  if (!r->n) return 0;
  r->n--;
  return *r->p++;
}

static int64_t i64_of(rd *r) {
  uint64_t v = 0;
  for (int i = 0; i < 8; i++) v = v << 8 | u8(r);
  return (int64_t)v;
}

/* Up to MAX_TEXT bytes of the input, stopping at a NUL. */
static const char *fuzz_text(rd *r, char *buf) {
  unsigned n = u8(r) % (MAX_TEXT + 1), k = 0;
  while (k < n && r->n) {
    unsigned c = u8(r);
    if (!c) break;
    buf[k++] = (char)c;
  }
  buf[k] = 0;
  return buf;
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const char *const ids[] = {"t0", "t1", "t2", "t3"};
static const char *const agents[] = {"a", "b", ""};
static const char *const types[] = {"interval", "once", "cron", "weekly", ""};
static const char *const crons[] = {
    "* * * * *",  "*/5 * * * *",         "0 7 * * MON-FRI",
    "30 2 * * *", "0 0 29 2 *",          "@hourly",
    "0 0 L * ?",  "0 9 * * 1#2",         "*/20 * * * * *",
    "0 0 30 2 *", "15 1 * * 0",          "0 12 LW * *",
    "0 0 * * 5L", "1-59/7 0-23/3 * * *", "60 * * * *",
    "@reboot"};
static const char *const zones[] = {"UTC",
                                    "Europe/Berlin",
                                    "America/New_York",
                                    "Australia/Lord_Howe",
                                    "Asia/Kolkata",
                                    "Pacific/Chatham",
                                    "Pacific/Apia",
                                    "Nope/Zone",
                                    "../etc/passwd",
                                    ""};
static const char *const misfires[] = {"coalesce", "all", "skip", "never"};
static const char *const overlaps[] = {"skip", "allow", "queue", "stack"};
static const char *const wakes[] = {"inject_now", "next_autonomy_cycle",
                                    "later"};
static const char *const creators[] = {"user", "agent", "system", "root"};
static const char *const metas[] = {"{}", "{\"a\":1}", "[1]", "not json",
                                    "{\"when\":{\"phrase\":\"x\"}}"};
static const char *const statuses[] = {"scheduled", "paused", "completed",
                                       "cancelled", "expired"};
static const char *const finishes[] = {"success",  "failed",  "skipped",
                                       "deferred", "running", "bogus"};
static const char *const phrases[] = {
    "every 15 minutes", "tomorrow at 9am",     "every weekday at 7:30",
    "in 2 hours",       "daily at noon",       "someday",
    "every 10 seconds", "next monday at 25:00"};
static const char *const tick_opts[] = {
    "{\"ack\":false}",
    "{\"limit\":1}",
    "{\"agents\":[\"a\"]}",
    "{\"lease_ms\":1000}",
    "{\"agents\":[]}",
    "{\"wake_mode\":\"inject_now\"}",
    "{\"owner\":\"h2\",\"lease_ms\":5000,\"ack\":true}",
    "{\"limit\":0}",
    "[]"};
static const char *const cfg_keys[] = {
    "min_interval_ms",      "max_interval_ms",          "confirm_below_ms",
    "max_active_per_scope", "max_creations_per_window", "creation_window_ms",
    "creator_roles",        "run_retention_ms",         "misfire_grace_ms",
    "min_confidence",       "schema_version",           "nope"};
/* preload_sql texts (op_config): a good one, the extension's functions
** with side effects, PRAGMAs, a huge value, a query the step bound stops;
** each set through trigger_config (refused) or written into the config
** table as an older version could have (then a tick's claim must carry
** preloadError, and nothing may recurse or act: invariants()). */
static const char *const preloads[] = {
    "SELECT :scope AS s, :now AS n, :agent_id AS a",
    "SELECT trigger_run_due(:now) AS r",
    "SELECT trigger_fire(:trigger_id) AS r",
    "SELECT \"trigger_pause\"(:trigger_id) AS r",
    "PRAGMA query_only=1",
    "PRAGMA busy_timeout=7",
    "SELECT 1 AS one; PRAGMA writable_schema=ON",
    "SELECT * FROM pragma_busy_timeout",
    "SELECT randomblob(2000000) AS b",
    "SELECT count(*) AS n FROM triggers WHERE agent_id = :agent_id",
    "WITH r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r) SELECT i FROM r",
    "SELECT trigger_describe(:trigger_id) AS d",
    "SELECT trigger_create('{}') AS c",
    ""};
static const int64_t deltas[] = {0,
                                 1000,
                                 59000,
                                 60000,
                                 61000,
                                 3600000,
                                 86400000,
                                 7 * 86400000LL,
                                 -60000,
                                 -3600000,
                                 400 * 86400000LL,
                                 -400 * 86400000LL};
static const int64_t ints[] = {
    0,     1,       2,        3,   -1,        1000,      60000,
    90000, 3600000, 86400000, 999, INT64_MAX, INT64_MIN, 31622400001LL};

/* Columns of `triggers` and what goes into them. */
enum {
  K_ID,
  K_AGENT,
  K_SCOPE,
  K_TEXT,
  K_INSTR,
  K_TYPE,
  K_MS,
  K_INSTANT,
  K_CRON,
  K_TZ,
  K_WAKE,
  K_CREATOR,
  K_BOOL,
  K_SMALL,
  K_MISFIRE,
  K_OVERLAP,
  K_META,
  K_STATUS
};
static const struct {
  const char *name;
  int kind;
} cols[] = {
    {"trigger_id", K_ID},
    {"agent_id", K_AGENT},
    {"scope", K_SCOPE},
    {"display_name", K_TEXT},
    {"instructions", K_INSTR},
    {"trigger_type", K_TYPE},
    {"interval_ms", K_MS},
    {"scheduled_at", K_INSTANT},
    {"cron_expression", K_CRON},
    {"timezone", K_TZ},
    {"start_at", K_INSTANT},
    {"end_at", K_INSTANT},
    {"wake_mode", K_WAKE},
    {"created_by", K_CREATOR},
    {"enabled", K_BOOL},
    {"max_runs", K_SMALL},
    {"misfire_policy", K_MISFIRE},
    {"overlap_policy", K_OVERLAP},
    {"max_attempts", K_SMALL},
    {"backoff_ms", K_MS},
    {"jitter_ms", K_MS},
    {"window_ms", K_MS},
    {"pause_after_failures", K_SMALL},
    {"metadata", K_META},
    {"created_at", K_INSTANT},
    {"status", K_STATUS},
    {"run_count", K_SMALL},
    {"next_due_at", K_INSTANT},
};
enum {
  C_TRIGGER_ID,
  C_AGENT_ID,
  C_INSTRUCTIONS = 4,
  C_TRIGGER_TYPE,
  C_INTERVAL_MS,
  C_SCHEDULED_AT,
  C_CRON_EXPRESSION,
  C_TIMEZONE,
  C_CREATED_AT = 24
};

/* FUZZ_SQL_TRACE=1 in the environment prints every statement, its
** rows and its outcome: how to read a reproducer. */
static int trace;

typedef struct fz {
  sqlite3 *db;
  rd in;
  int64_t now;
  char text[8][MAX_TEXT + 1]; /* fuzz texts of the current statement */
  int ntext;
  char iso[8][CIVIL_ISO_MAX];
  int niso;
  int tampered; /* the input wrote a shadow table directly (op_shadow) */
  int length0;  /* the connection's SQLITE_LIMIT_LENGTH at the start */
} fz;

static void die(fz *f, const char *what, const char *sql) {
  fprintf(stderr,
          "fuzz_sql: invariant violated: %s\n  statement: %s\n  error: %s\n",
          what, sql ? sql : "-", sqlite3_errmsg(f->db));
  abort();
}

static const char *pick(rd *r, const char *const *tab, size_t n, fz *f) {
  unsigned c = u8(r);
  if (c % 8 == 7 && f->ntext < 8) return fuzz_text(r, f->text[f->ntext++]);
  return tab[(c >> 3) % n];
}

static void bind_str(sqlite3_stmt *st, int i, const char *s) {
  sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
}

/* An instant: ms near now, ISO text (UTC or local), an extreme, text. */
static void bind_instant(fz *f, sqlite3_stmt *st, int i) {
  unsigned c = u8(&f->in);
  int64_t t = f->now + deltas[(c >> 3) % N(deltas)];
  switch (c % 8) {
    case 0: sqlite3_bind_null(st, i); break;
    case 1:
    case 2: sqlite3_bind_int64(st, i, t); break;
    case 3:
    case 4:
      if (f->niso < 8) {
        char *b = f->iso[f->niso++];
        civil_format_iso(t, 0, 1, b);
        if (c % 8 == 4) b[strlen(b) - 1] = 0; /* local: no offset */
        bind_str(st, i, b);
      }
      break;
    case 5: sqlite3_bind_int64(st, i, ints[(c >> 3) % N(ints)]); break;
    case 6: sqlite3_bind_double(st, i, (double)t + 0.5); break;
    default:
      if (f->ntext < 8) bind_str(st, i, fuzz_text(&f->in, f->text[f->ntext++]));
      break;
  }
}

static void bind_int(fz *f, sqlite3_stmt *st, int i) {
  unsigned c = u8(&f->in);
  if (c % 8 == 0) sqlite3_bind_null(st, i);
  else if (c % 8 == 7) sqlite3_bind_int64(st, i, i64_of(&f->in));
  else sqlite3_bind_int64(st, i, ints[(c >> 3) % N(ints)]);
}

static void bind_kind(fz *f, sqlite3_stmt *st, int i, int kind) {
  rd *r = &f->in;
  switch (kind) {
    case K_ID: bind_str(st, i, pick(r, ids, N(ids), f)); break;
    case K_AGENT: bind_str(st, i, pick(r, agents, N(agents), f)); break;
    case K_SCOPE: bind_str(st, i, (u8(r) & 1) ? "s1" : ""); break;
    case K_TEXT:
    case K_INSTR:
      if (kind == K_INSTR && (u8(r) & 3)) bind_str(st, i, "Check the build");
      else if (f->ntext < 8) bind_str(st, i, fuzz_text(r, f->text[f->ntext++]));
      break;
    case K_TYPE: bind_str(st, i, pick(r, types, N(types), f)); break;
    case K_CRON: bind_str(st, i, pick(r, crons, N(crons), f)); break;
    case K_TZ: bind_str(st, i, pick(r, zones, N(zones), f)); break;
    case K_WAKE: bind_str(st, i, pick(r, wakes, N(wakes), f)); break;
    case K_CREATOR: bind_str(st, i, pick(r, creators, N(creators), f)); break;
    case K_MISFIRE: bind_str(st, i, pick(r, misfires, N(misfires), f)); break;
    case K_OVERLAP: bind_str(st, i, pick(r, overlaps, N(overlaps), f)); break;
    case K_META: bind_str(st, i, pick(r, metas, N(metas), f)); break;
    case K_STATUS: bind_str(st, i, pick(r, statuses, N(statuses), f)); break;
    case K_BOOL: {
      unsigned c = u8(r);
      sqlite3_bind_int(st, i, c < 250 ? (int)(c & 1) : (int)c - 252);
      break;
    }
    case K_MS:
    case K_SMALL: bind_int(f, st, i); break;
    default: bind_instant(f, st, i); break;
  }
}

/* now as ms, or now as ISO text (the two must mean the same). */
static void bind_now(fz *f, sqlite3_stmt *st, int i) {
  if ((u8(&f->in) & 7) == 7 && f->niso < 8) {
    char *b = f->iso[f->niso++];
    civil_format_iso(f->now, 0, 1, b);
    bind_str(st, i, b);
  } else {
    sqlite3_bind_int64(st, i, f->now);
  }
}

static int is_txn_control(const char *sql) {
  return !strncmp(sql, "BEGIN", 5) || !strncmp(sql, "COMMIT", 6) ||
         !strncmp(sql, "ROLLBACK", 8) || !strncmp(sql, "SAVEPOINT", 9) ||
         !strncmp(sql, "RELEASE", 7) || !strncmp(sql, "END", 3);
}

/* The tick and the lifecycle calls answer valid UTF-8, whatever the
** shadow tables hold (issue 32: bytes written there behind the
** extension's back are repaired, the row paused). */
static int answers_text(const char *sql) {
  static const char *const calls[] = {
      "SELECT trigger_run_", "SELECT trigger_fire(", "SELECT trigger_pause(",
      "SELECT trigger_resume(", "SELECT trigger_cancel("};
  for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
    if (!strncmp(sql, calls[i], strlen(calls[i]))) return 1;
  return 0;
}

/* Run a prepared statement to completion; check the transaction rules. */
static int run(fz *f, sqlite3_stmt *st, const char *sql) {
  int before = sqlite3_get_autocommit(f->db), rc;
  if (trace) {
    char *x = sqlite3_expanded_sql(st);
    fprintf(stderr, "%s\n", x ? x : sql);
    sqlite3_free(x);
  }
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (answers_text(sql) && sqlite3_column_type(st, 0) == SQLITE_TEXT) {
      const char *v = (const char *)sqlite3_column_text(st, 0);
      if (v && !utf8_check(v, (size_t)sqlite3_column_bytes(st, 0), NULL))
        die(f, "an answer that is not valid UTF-8", sql);
    }
    if (trace) {
      const char *v = (const char *)sqlite3_column_text(st, 0);
      fprintf(stderr, "    = %.200s\n", v ? v : "NULL");
    }
  }
  if (trace) {
    fprintf(stderr, "    -> %s%s%s\n",
            rc == SQLITE_DONE ? "ok" : sqlite3_errstr(rc),
            rc == SQLITE_DONE ? "" : ": ",
            rc == SQLITE_DONE ? "" : sqlite3_errmsg(f->db));
  }
  sqlite3_finalize(st);
  if (rc != SQLITE_DONE && !is_txn_control(sql)) {
    int after = sqlite3_get_autocommit(f->db);
    if (before && !after)
      die(f, "a failed statement left a transaction open", sql);
    if (!before && after &&
        (rc == SQLITE_ERROR || rc == SQLITE_CONSTRAINT ||
         rc == SQLITE_MISMATCH || rc == SQLITE_RANGE || rc == SQLITE_TOOBIG))
      die(f, "a failed statement ended the caller's transaction", sql);
  }
  return rc;
}

static sqlite3_stmt *prep(fz *f, const char *sql) {
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(f->db, sql, -1, &st, NULL) != SQLITE_OK) {
    /* after a DROP a table may be missing or refuse to connect; a
    ** template that does not compile is a bug of this target */
    const char *m = sqlite3_errmsg(f->db);
    if (strstr(m, "syntax error") || strstr(m, "no such column") ||
        strstr(m, "no such function") || strstr(m, "wrong number"))
      die(f, "prepare", sql);
    return NULL;
  }
  return st;
}

static int64_t scalar_int(fz *f, const char *sql, int64_t arg, int *ok) {
  sqlite3_stmt *st = NULL;
  int64_t v = 0;
  *ok = 0;
  if (sqlite3_prepare_v2(f->db, sql, -1, &st, NULL) != SQLITE_OK) return 0;
  sqlite3_bind_int64(st, 1, arg);
  if (sqlite3_step(st) == SQLITE_ROW) {
    v = sqlite3_column_int64(st, 0);
    *ok = 1;
  }
  sqlite3_finalize(st);
  return v;
}

static void op_insert(fz *f) {
  static const char *const verbs[] = {"INSERT", "INSERT OR REPLACE",
                                      "INSERT OR IGNORE", "REPLACE"};
  unsigned mode = u8(&f->in), type = u8(&f->in) % 3;
  unsigned mask = u8(&f->in);
  mask |= u8(&f->in) << 8;
  mask |= u8(&f->in) << 16;
  int use[N(cols)] = {0};
  use[C_TRIGGER_ID] = use[C_AGENT_ID] = use[C_INSTRUCTIONS] = 1;
  use[C_TRIGGER_TYPE] = use[C_CREATED_AT] = 1;
  use[type == 0   ? C_INTERVAL_MS
      : type == 1 ? C_SCHEDULED_AT
                  : C_CRON_EXPRESSION] = 1;
  if (type == 2) use[C_TIMEZONE] = 1;
  /* mask adds optional columns (and with 0x40 drops required ones);
  ** 0x80 adds a read-only column, which must be refused */
  for (size_t i = 0; i < C_CREATED_AT; i++) {
    if (mask >> i & 1) use[i] = !use[i] || !(mode & 0x40);
  }
  if (mode & 0x80) use[C_CREATED_AT + 1 + mask % 3] = 1;
  char sql[1024];
  int n = snprintf(sql, sizeof sql, "%s INTO triggers(", verbs[mode % 4]);
  int k = 0;
  for (size_t i = 0; i < N(cols); i++) {
    if (use[i])
      n += snprintf(sql + n, sizeof sql - (size_t)n, "%s%s", k++ ? "," : "",
                    cols[i].name);
  }
  if (!k) return;
  n += snprintf(sql + n, sizeof sql - (size_t)n, ") VALUES(");
  for (int j = 0; j < k; j++)
    n += snprintf(sql + n, sizeof sql - (size_t)n, "%s?", j ? "," : "");
  snprintf(sql + n, sizeof sql - (size_t)n, ")");
  sqlite3_stmt *st = prep(f, sql);
  if (!st) return;
  int p = 1;
  for (size_t i = 0; i < N(cols); i++) {
    if (!use[i]) continue;
    if (i == C_TRIGGER_TYPE && (mode & 0x30) != 0x30) {
      bind_str(st, p++, types[type]); /* mostly the matching type */
    } else if (i == C_CREATED_AT && (mode & 0x08) == 0) {
      sqlite3_bind_int64(st, p++, f->now);
    } else {
      bind_kind(f, st, p++, cols[i].kind);
    }
  }
  run(f, st, sql);
}

static void op_update(fz *f) {
  static const char *const wheres[] = {
      " WHERE trigger_id = ?3",   " WHERE agent_id = ?3",
      " WHERE next_due_at <= ?3", " WHERE rowid = ?3",
      " WHERE status = ?3",       ""};
  unsigned c = u8(&f->in);
  size_t c1 = u8(&f->in) % N(cols), c2 = u8(&f->in) % N(cols);
  unsigned w = (c >> 1) % N(wheres);
  char sql[256];
  if (c & 1)
    snprintf(sql, sizeof sql, "UPDATE triggers SET %s = ?1, %s = ?2%s",
             cols[c1].name, cols[c2].name, wheres[w]);
  else
    snprintf(sql, sizeof sql, "UPDATE triggers SET %s = ?1%s", cols[c1].name,
             wheres[w]);
  sqlite3_stmt *st = prep(f, sql);
  if (!st) return;
  bind_kind(f, st, 1, cols[c1].kind);
  if (c & 1) bind_kind(f, st, 2, cols[c2].kind);
  if (w == 0) bind_kind(f, st, 3, K_ID);
  else if (w == 1) bind_kind(f, st, 3, K_AGENT);
  else if (w == 2) sqlite3_bind_int64(st, 3, f->now);
  else if (w == 3) sqlite3_bind_int(st, 3, (int)(u8(&f->in) % 6));
  else if (w == 4) bind_kind(f, st, 3, K_STATUS);
  run(f, st, sql);
}

static void op_delete(fz *f) {
  static const char *const sqls[] = {
      "DELETE FROM triggers WHERE trigger_id = ?1",
      "DELETE FROM triggers WHERE agent_id = ?1",
      "DELETE FROM triggers",
      "DELETE FROM trigger_runs WHERE finished_at < ?2",
      "DELETE FROM trigger_runs WHERE run_id = (SELECT run_id FROM trigger_runs LIMIT 1)",
      "UPDATE trigger_runs SET status = 'success'",
      ("INSERT INTO trigger_runs(run_id, trigger_id, agent_id, scheduled_for,"
       " attempt, status) VALUES('x', 't0', 'a', 0, 1, 'running')")};
  unsigned c = u8(&f->in) % N(sqls);
  sqlite3_stmt *st = prep(f, sqls[c]);
  if (!st) return;
  if (c == 0) bind_kind(f, st, 1, K_ID);
  if (c == 1) bind_kind(f, st, 1, K_AGENT);
  if (c == 3) sqlite3_bind_int64(st, 2, f->now);
  run(f, st, sqls[c]);
}

static void advance(fz *f) {
  unsigned c = u8(&f->in);
  if (c % 16 == 15) {
    uint32_t v = u8(&f->in) << 24;
    v |= u8(&f->in) << 16;
    v |= u8(&f->in) << 8;
    f->now += (int64_t)(int32_t)v * 10; /* about +-248 days, any ms */
  } else {
    f->now += deltas[c % N(deltas)];
  }
  /* stay within years 1970..2200 */
  if (f->now < 0 || f->now > 7258118400000LL) f->now = NOW0;
}

static void op_tick(fz *f) {
  advance(f);
  unsigned c = u8(&f->in);
  const char *sql =
      c & 1 ? "SELECT trigger_run_due(?1, ?2)" : "SELECT trigger_run_due(?1)";
  sqlite3_stmt *st = prep(f, sql);
  if (!st) return;
  bind_now(f, st, 1);
  if (c & 1) bind_str(st, 2, pick(&f->in, tick_opts, N(tick_opts), f));
  int rc = run(f, st, sql);
  if (rc == SQLITE_DONE && !(c & 1)) {
    int ok;
    int64_t left = scalar_int(f,
                              "SELECT count(*) FROM triggers_state"
                              " WHERE next_due_at <= ?1 AND fire_at <= ?1",
                              f->now, &ok);
    if (ok && left)
      die(f, "a tick without options left a claimable trigger due", sql);
  }
}

/* trigger_run_finish_many of a running run, its detail the input's bytes
** (json_object copies them as they are: invalid UTF-8 in a string). */
static void op_finish_many(fz *f, unsigned c) {
  const char *sql =
      "SELECT trigger_run_finish_many(json_array(json_object('run_id',"
      " (SELECT run_id FROM trigger_runs WHERE status = 'running'"
      " ORDER BY run_id LIMIT 1 OFFSET ?4), 'status', ?1, 'detail', ?2),"
      " json_object('run_id', 'nope', 'status', ?1)), ?3)";
  sqlite3_stmt *st = prep(f, sql);
  if (!st) return;
  bind_str(st, 1, pick(&f->in, finishes, N(finishes), f));
  if (c & 2) sqlite3_bind_text(st, 2, "x\xff\xed\xa0\x80y", -1, SQLITE_STATIC);
  else bind_str(st, 2, fuzz_text(&f->in, f->text[7]));
  sqlite3_bind_int64(st, 3, f->now);
  sqlite3_bind_int(st, 4, (int)((c >> 2) & 3));
  run(f, st, sql);
}

static void op_finish(fz *f) {
  unsigned c = u8(&f->in);
  if ((c & 0x81) == 0x81) {
    op_finish_many(f, c);
    return;
  }
  const char *sql =
      "SELECT trigger_run_finish((SELECT run_id FROM trigger_runs"
      " WHERE status = ?5 ORDER BY run_id LIMIT 1 OFFSET ?4), ?1, ?2, ?3)";
  if (c & 0x80)
    sql = "SELECT trigger_run_finish(?4 || '@' || ?5 || '#1', ?1, ?2, ?3)";
  sqlite3_stmt *st = prep(f, sql);
  if (!st) return;
  bind_str(st, 1, pick(&f->in, finishes, N(finishes), f));
  if (c & 2)
    bind_str(st, 2,
             (c & 4) ? "boom: Bearer abc.def.ghi"
                     : fuzz_text(&f->in, f->text[7]));
  if (c & 8) {
    bind_now(f, st, 3);
  } else {
    sqlite3_bind_int64(st, 3, f->now + deltas[u8(&f->in) % N(deltas)]);
  }
  if (c & 0x80) {
    bind_kind(f, st, 4, K_ID);
    sqlite3_bind_int64(st, 5, f->now);
  } else {
    sqlite3_bind_int(st, 4, (int)((c >> 4) & 3));
    bind_str(st, 5, (c & 0x40) ? "deferred" : "running");
  }
  run(f, st, sql);
}

static void op_lifecycle(fz *f) {
  static const char *const sqls[] = {
      "SELECT trigger_fire(?1, ?2)", "SELECT trigger_pause(?1, ?2)",
      "SELECT trigger_resume(?1, ?2)", "SELECT trigger_cancel(?1, ?2)"};
  unsigned c = u8(&f->in) % N(sqls);
  sqlite3_stmt *st = prep(f, sqls[c]);
  if (!st) return;
  bind_kind(f, st, 1, K_ID);
  bind_now(f, st, 2); /* always given: the wall clock is never read */
  run(f, st, sqls[c]);
}

static void op_misc(fz *f) {
  static const char *const sqls[] = {
      "SELECT trigger_prune(?1)",
      "SELECT json_valid(trigger_health(?1))",
      "SELECT trigger_next_wakeup(?1)",
      "SELECT trigger_last_tick()",
      "SELECT trigger_install()",
      "SELECT count(*) FROM triggers WHERE next_due_at <= ?1",
      "SELECT * FROM trigger_runs WHERE trigger_id = 't0' AND scheduled_for > ?1",
      "SELECT * FROM triggers WHERE agent_id = 'a' AND status = 'scheduled'",
      "SELECT * FROM trigger_runs WHERE status = 'running' OR run_id > 't1'",
      "SELECT * FROM triggers WHERE trigger_id IN ('t0', 't2') ORDER BY next_due_at DESC",
  };
  unsigned c = u8(&f->in) % N(sqls);
  sqlite3_stmt *st = prep(f, sqls[c]);
  if (!st) return;
  if (c == 0) {
    sqlite3_bind_int64(st, 1, f->now - deltas[u8(&f->in) % N(deltas)]);
  } else if (sqlite3_bind_parameter_count(st) >= 1) {
    bind_now(f, st, 1);
  }
  run(f, st, sqls[c]);
}

static void op_config(fz *f) {
  unsigned c = u8(&f->in);
  if (c & 16) { /* preload_sql: checked, or written as it is */
    const char *sql = c & 32 ? "INSERT OR REPLACE INTO triggers_config(key,"
                               " value) VALUES('preload_sql', ?1)"
                             : "SELECT trigger_config('preload_sql', ?1)";
    sqlite3_stmt *st = prep(f, sql);
    if (!st) return;
    bind_str(st, 1, pick(&f->in, preloads, N(preloads), f));
    run(f, st, sql);
    return;
  }
  const char *sql =
      c & 1 ? "SELECT trigger_config(?1, ?2)" : "SELECT trigger_config(?1)";
  sqlite3_stmt *st = prep(f, sql);
  if (!st) return;
  bind_str(st, 1, pick(&f->in, cfg_keys, N(cfg_keys), f));
  if (c & 1) {
    if (c & 2) bind_int(f, st, 2);
    else
      bind_str(st, 2, (c & 4) ? "owner,admin,agent" : (c & 8) ? "0.9" : "abc");
  }
  run(f, st, sql);
}

static void op_create(fz *f) {
  static const char *const sqls[] = {
      "SELECT trigger_create(json_object('instructions', ?1, 'when', ?2),"
      " json_object('agent_id', ?3, 'role', 'owner', 'autonomy_available', json('true'),"
      " 'confirmed', json('true'), 'now', ?4))",
      "SELECT trigger_create(json_object('instructions', ?1, 'trigger_type', 'cron',"
      " 'cron_expression', ?2, 'timezone', ?5), json_object('agent_id', ?3, 'role', 'owner',"
      " 'now', ?4))",
      "SELECT trigger_create(json_object('instructions', ?1, 'trigger_type', 'interval',"
      " 'interval_ms', ?6, 'trigger_id', ?7), json_object('agent_id', ?3, 'role', ?2, 'now', ?4))",
      "SELECT trigger_create_xml('<response><instructions>' || ?1 || '</instructions>"
      "<cronExpression>' || ?2 || '</cronExpression><timezone>' || ?5 || '</timezone>"
      "</response>', json_object('agent_id', ?3, 'role', 'owner', 'now', ?4))",
  };
  unsigned c = u8(&f->in) % N(sqls);
  sqlite3_stmt *st = prep(f, sqls[c]);
  if (!st) return;
  bind_kind(f, st, 1, K_INSTR);
  if (c == 0) bind_str(st, 2, pick(&f->in, phrases, N(phrases), f));
  else if (c == 2) bind_str(st, 2, pick(&f->in, creators, N(creators), f));
  else bind_kind(f, st, 2, K_CRON);
  bind_kind(f, st, 3, K_AGENT);
  sqlite3_bind_int64(st, 4, f->now);
  if (c == 1 || c == 3) bind_kind(f, st, 5, K_TZ);
  if (c == 2) {
    bind_int(f, st, 6);
    bind_kind(f, st, 7, K_ID);
  }
  run(f, st, sqls[c]);
}

static void op_read(fz *f) {
  static const char *const sqls[] = {
      "SELECT trigger_state_summary(?1, ?2)",
      "SELECT trigger_state_payload(?1, ?2, '{\"max_total\":300}')",
      "SELECT trigger_next_due(?3, ?2, ?4)",
      "SELECT * FROM trigger_preview(?3, ?2, ?4) LIMIT 3",
      "SELECT trigger_iso(?2, ?4)",
      "SELECT trigger_parse_when(?3, ?2, ?4)",
      "SELECT trigger_dedupe_key('x', 'cron', ?3, ?1)"};
  unsigned c = u8(&f->in) % N(sqls);
  sqlite3_stmt *st = prep(f, sqls[c]);
  if (!st) return;
  bind_kind(f, st, 1, K_AGENT);
  bind_now(f, st, 2);
  if (c == 5) bind_str(st, 3, pick(&f->in, phrases, N(phrases), f));
  else bind_kind(f, st, 3, K_CRON);
  bind_kind(f, st, 4, K_TZ);
  int rc = run(f, st, sqls[c]);
  if (c == 0 && rc != SQLITE_DONE)
    die(f, "trigger_state_summary raised an error", sqls[c]);
}

/* The shadow tables' columns, for op_shadow. */
static const char *const data_cols[] = {"trigger_id",
                                        "agent_id",
                                        "scope",
                                        "display_name",
                                        "instructions",
                                        "trigger_type",
                                        "interval_ms",
                                        "scheduled_at",
                                        "cron_expression",
                                        "timezone",
                                        "start_at",
                                        "end_at",
                                        "wake_mode",
                                        "created_by",
                                        "enabled",
                                        "max_runs",
                                        "misfire_policy",
                                        "overlap_policy",
                                        "max_attempts",
                                        "backoff_ms",
                                        "jitter_ms",
                                        "window_ms",
                                        "pause_after_failures",
                                        "metadata",
                                        "status",
                                        "dedupe_key",
                                        "created_at",
                                        "incarnation"};
static const char *const state_cols[] = {
    "trigger_id",  "agent_id",    "run_count",  "next_due_at",
    "last_run_at", "last_status", "last_error", "updated_at",
    "fire_at",     "claims",      "running",    "fail_streak"};
static const char *const run_cols[] = {
    "run_id",     "trigger_id",  "agent_id",   "scheduled_for", "attempt",
    "status",     "owner",       "claimed_at", "lease_until",   "finished_at",
    "latency_ms", "error",       "payload",    "retry_at",      "deferrals",
    "result",     "incarnation", "lease_ms"};
/* Texts no write through the extension stores in most columns. */
static const char *const odd_texts[] = {"x",
                                        "",
                                        "bogus",
                                        "2026-03-08T09:00:00Z",
                                        "0 7 * * MON-FRI",
                                        "Nope/Zone",
                                        "running",
                                        "paused",
                                        "{not json",
                                        "9223372036854775808",
                                        "1e999",
                                        "t0"};
static const double reals[] = {1.5, -0.5, 1e300, -1e300, 60000.0, 0.1};

/* One value of a shadow-table column changed directly, as an application
** with SQLITE_DBCONFIG_DEFENSIVE off can (docs/tables.md): whatever it
** writes, no call may crash, and ticks go on. */
static void op_shadow(fz *f) {
  static const struct {
    const char *table;
    const char *const *cols;
    size_t n;
  } tables[] = {{"triggers_data", data_cols, N(data_cols)},
                {"triggers_state", state_cols, N(state_cols)},
                {"triggers_rundata", run_cols, N(run_cols)}};
  rd *r = &f->in;
  unsigned t = u8(r) % 4, col = u8(r), row = u8(r) % 4, kind = u8(r);
  char sql[256];
  if (t == 2 && kind == 0xFF) { /* a run row removed (a running one too) */
    snprintf(sql, sizeof sql,
             "DELETE FROM triggers_rundata WHERE id = (SELECT id FROM"
             " triggers_rundata ORDER BY id LIMIT 1 OFFSET ?1)");
    sqlite3_stmt *st = prep(f, sql);
    if (!st) return;
    f->tampered = 1;
    sqlite3_bind_int(st, 1, (int)row);
    run(f, st, sql);
    return;
  }
  if (t == 3) {
    snprintf(
        sql, sizeof sql,
        "INSERT OR REPLACE INTO triggers_config(key, value) VALUES(?2, ?1)");
  } else {
    snprintf(sql, sizeof sql,
             "UPDATE %s SET %s = ?1 WHERE id = (SELECT id FROM %s ORDER BY id"
             " LIMIT 1 OFFSET ?2)",
             tables[t].table, tables[t].cols[col % tables[t].n],
             tables[t].table);
  }
  sqlite3_stmt *st = prep(f, sql);
  if (!st) return;
  f->tampered = 1;
  switch (kind % 8) {
    case 0: sqlite3_bind_null(st, 1); break;
    case 1: sqlite3_bind_int64(st, 1, ints[(kind >> 3) % N(ints)]); break;
    case 2: sqlite3_bind_int64(st, 1, i64_of(r)); break;
    case 3: sqlite3_bind_double(st, 1, reals[(kind >> 3) % N(reals)]); break;
    case 4: bind_str(st, 1, odd_texts[(kind >> 3) % N(odd_texts)]); break;
    case 5: bind_str(st, 1, fuzz_text(r, f->text[f->ntext++])); break;
    case 6:
      if (kind & 8) /* text that is not valid UTF-8, with a NUL */
        sqlite3_bind_text(st, 1, "x\xff\0\xc0\xafy", 6, SQLITE_STATIC);
      else sqlite3_bind_blob(st, 1, "\x00\xff", 2, SQLITE_STATIC);
      break;
    default: bind_instant(f, st, 1); break;
  }
  if (t == 3) bind_str(st, 2, pick(r, cfg_keys, N(cfg_keys), f));
  else sqlite3_bind_int(st, 2, (int)row);
  run(f, st, sql);
}

static void op_txn(fz *f) {
  static const char *const sqls[] = {"BEGIN",
                                     "BEGIN IMMEDIATE",
                                     "COMMIT",
                                     "ROLLBACK",
                                     "SAVEPOINT sp",
                                     "RELEASE sp",
                                     "ROLLBACK TO sp",
                                     "DROP TABLE trigger_runs",
                                     "DROP TABLE triggers"};
  unsigned c = u8(&f->in) % N(sqls);
  if (c >= 7 && (u8(&f->in) & 3)) c = 4; /* drops are rare */
  sqlite3_stmt *st = prep(f, sqls[c]);
  if (st) run(f, st, sqls[c]);
}

static int64_t count_of(fz *f, const char *sql, int *ok) {
  return scalar_int(f, sql, 0, ok);
}

static void invariants(fz *f) {
  if (!sqlite3_get_autocommit(f->db)) {
    if (sqlite3_exec(f->db, "ROLLBACK", 0, 0, NULL) != SQLITE_OK)
      die(f, "ROLLBACK of the input's open transaction failed", "ROLLBACK");
  }
  if (!sqlite3_get_autocommit(f->db)) die(f, "transaction still open", NULL);
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(f->db, "PRAGMA integrity_check", -1, &st, NULL) !=
      SQLITE_OK)
    die(f, "prepare integrity_check", NULL);
  if (sqlite3_step(st) != SQLITE_ROW ||
      strcmp((const char *)sqlite3_column_text(st, 0), "ok") != 0)
    die(f, "integrity_check", (const char *)sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  int ok1, ok2;
  int64_t a, b;
  a = count_of(f, "SELECT count(*) FROM triggers_data", &ok1);
  b = count_of(f, "SELECT count(*) FROM triggers", &ok2);
  if (ok1 && ok2 && a != b)
    die(f, "triggers sees other rows than triggers_data", NULL);
  if (ok1 && ok2) {
    a = count_of(f,
                 "SELECT count(*) FROM triggers WHERE trigger_id IN"
                 " (SELECT trigger_id FROM triggers_data)",
                 &ok1);
    if (ok1 && a != b)
      die(f, "trigger_id lookups disagree with triggers_data", NULL);
  }
  a = count_of(f, "SELECT count(*) FROM triggers_rundata", &ok1);
  b = count_of(f, "SELECT count(*) FROM trigger_runs", &ok2);
  if (ok1 && ok2 && a != b)
    die(f, "trigger_runs sees other rows than triggers_rundata", NULL);
  if (ok1) {
    a = count_of(f,
                 "SELECT count(*) FROM (SELECT 1 FROM triggers_rundata GROUP BY"
                 " trigger_id, incarnation, scheduled_for, attempt"
                 " HAVING count(*) > 1)",
                 &ok1);
    if (ok1 && a)
      die(f,
          "duplicate (trigger_id, incarnation, scheduled_for, attempt) in"
          " trigger_runs",
          NULL);
  }
  if (ok1 && !f->tampered) { /* what only the extension's own writes keep */
    a = count_of(f,
                 "SELECT count(*) FROM triggers_data AS d JOIN triggers_state"
                 " AS s ON s.id = d.id WHERE s.running <> (SELECT count(*)"
                 " FROM triggers_rundata AS r WHERE r.trigger_id ="
                 " d.trigger_id AND r.incarnation = d.incarnation"
                 " AND r.status = 'running')",
                 &ok1);
    if (ok1 && a)
      die(f, "a trigger's running count differs from its running runs", NULL);
    a = count_of(
        f,
        "SELECT count(*) FROM triggers_rundata WHERE status NOT IN"
        " ('running','success','failed','skipped','deferred','expired')"
        " OR attempt < 1",
        &ok1);
    if (ok1 && a) die(f, "a run with an unknown status or attempt < 1", NULL);
    a = count_of(
        f,
        "SELECT count(*) FROM triggers_rundata WHERE status = 'running'"
        " AND (claimed_at IS NULL OR lease_until IS NULL)",
        &ok1);
    if (ok1 && a) die(f, "a running run without claim or lease", NULL);
  }
  a = count_of(f,
               "SELECT count(*) FROM triggers_data WHERE status NOT IN"
               " ('scheduled','paused','completed','cancelled','expired')",
               &ok1);
  if (ok1 && a && !f->tampered)
    die(f, "a trigger with an unknown status", NULL);
  a = scalar_int(f, "SELECT json_type(trigger_health(?1)) = 'object'", f->now,
                 &ok1);
  if (ok1 && !a) die(f, "trigger_health is not a JSON object", NULL);
  /* no preload acted on the connection (a PRAGMA that was only checked
  ** or prepared), and its value bound did not stay (preload_sql.h) */
  static const char unchanged[] =
      "SELECT (SELECT query_only FROM pragma_query_only) +"
      " (SELECT writable_schema FROM pragma_writable_schema) +"
      " (SELECT timeout FROM pragma_busy_timeout) +"
      " (SELECT hard_heap_limit FROM pragma_hard_heap_limit)";
  a = scalar_int(f, unchanged, 0, &ok1);
  if (!ok1 || a) die(f, "a preload changed the connection", unchanged);
  if (sqlite3_limit(f->db, SQLITE_LIMIT_LENGTH, -1) != f->length0)
    die(f, "the preload's length bound stayed on the connection", NULL);
}

/* The installed, empty database, serialized once: each input starts
** from a copy (much cheaper than running trigger_install every time). */
static unsigned char *image;
static sqlite3_int64 image_size;

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
  (void)argc;
  (void)argv;
  sqlite3 *db = NULL;
  char *err = NULL;
  sqlite3_auto_extension((void (*)(void))sqlite3_triggers_init);
  trace = getenv("FUZZ_SQL_TRACE") != NULL;
  /* A broken setup is reported here, never as a crash of the first
  ** (empty) input. */
  if (sqlite3_open(":memory:", &db) != SQLITE_OK ||
      sqlite3_exec(db, "SELECT trigger_install()", 0, 0, &err) != SQLITE_OK ||
      !(image = sqlite3_serialize(db, "main", &image_size, 0))) {
    fprintf(stderr, "fuzz_sql: setup failed: %s\n",
            err ? err : sqlite3_errmsg(db));
    exit(1);
  }
  sqlite3_close(db);
  return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  fz f;
  memset(&f, 0, sizeof f);
  f.in.p = data;
  f.in.n = size;
  f.now = NOW0;
  unsigned char *copy = sqlite3_malloc64((sqlite3_uint64)image_size);
  if (!copy || sqlite3_open(":memory:", &f.db) != SQLITE_OK) abort();
  memcpy(copy, image, (size_t)image_size);
  if (sqlite3_deserialize(f.db, "main", copy, image_size, image_size,
                          SQLITE_DESERIALIZE_FREEONCLOSE |
                              SQLITE_DESERIALIZE_RESIZEABLE) != SQLITE_OK)
    die(&f, "deserialize", NULL);
  f.length0 = sqlite3_limit(f.db, SQLITE_LIMIT_LENGTH, -1);
  for (int i = 0; i < MAX_STMTS && f.in.n; i++) {
    f.ntext = f.niso = 0;
    unsigned op = u8(&f.in);
    switch (op % 16) {
      case 0:
      case 1:
      case 2: op_insert(&f); break;
      case 3: op_update(&f); break;
      case 4: /* 0xC4, 0xD4, 0xE4, 0xF4: a shadow-table write */
        if (op >= 0xC0) op_shadow(&f);
        else op_delete(&f);
        break;
      case 5:
      case 6:
      case 7: op_tick(&f); break;
      case 8:
      case 9: op_finish(&f); break;
      case 10: op_lifecycle(&f); break;
      case 11: op_misc(&f); break;
      case 12: op_config(&f); break;
      case 13: op_create(&f); break;
      case 14: op_read(&f); break;
      default: op_txn(&f); break;
    }
  }
  invariants(&f);
  if (sqlite3_close(f.db) != SQLITE_OK)
    die(&f, "close (unfinalized statements?)", NULL);
  return 0;
}
