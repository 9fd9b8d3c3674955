/*
** tests/fault/oom.c -- out-of-memory fault injection (issue 5, item 8).
**
**   build/fault_oom build/triggers.so [scenario-filter]
**   FAULT_JOBS=n (default 2): scenarios shared between n forked processes
**
** Installs a failing allocator around SQLite's default one (before
** sqlite3_initialize, lookaside off so every allocation goes through it),
** builds a database with work for every probe of the tick (expired
** leases, a retry, a deferral, due triggers of every policy, non-default
** settings, rows changed outside the extension), and then, for each scenario (one call: the tick, create,
** INSERT, finish) and N = 1, 2, 3, ..., makes the N-th allocation counted
** from just before the call fail -- "once" -- or that one and every later
** one -- "persistent" -- and checks:
**   - the call reported an error (with a message), or succeeded with
**     exactly the result of the healthy call (same text, same tables);
**   - after an error the tables are byte-identical to before the call and
**     no transaction is left open (for the scenarios run inside a caller's
**     BEGIN IMMEDIATE: the tables inside that transaction are unchanged);
**   - with the allocator healthy again the same call on the same
**     connection succeeds with exactly the healthy result: nothing was
**     lost and no cached state was damaged;
**   - closing a connection returns every byte (sqlite3_memory_used).
** A "warm" scenario keeps one connection (its statements and options
** cached, as a long-lived host's are; the healthy check runs in a
** transaction rolled back after); a "cold" one opens a fresh copy for
** every N (first-use paths). N grows until the call completes without
** reaching the N-th allocation. Prints one line per scenario and
** "fault_oom: N passed, M failed" (scenarios); exit status 1 on failure.
*/
#include <sqlite3.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define T0 1767225600000LL
#define MIN 60000LL
#define NOW (T0 + 5 * MIN + 10000)

/* ---- the failing allocator ---------------------------------------------- */

static sqlite3_mem_methods orig;
static long armed_at;  /* 0 = healthy; else the allocation number that fails */
static long count;     /* allocations since arming */
static int persistent; /* every allocation after armed_at fails too */
static long injected;  /* failures handed out since arming */

static int should_fail(void) {
  if (!armed_at) return 0;
  count++;
  if (count == armed_at || (persistent && count > armed_at)) {
    injected++;
    return 1;
  }
  return 0;
}

static void *x_malloc(int n) { return should_fail() ? NULL : orig.xMalloc(n); }
static void *x_realloc(void *p, int n) {
  return should_fail() ? NULL : orig.xRealloc(p, n);
}
static void x_free(void *p) { orig.xFree(p); }
static int x_size(void *p) { return orig.xSize(p); }
static int x_roundup(int n) { return orig.xRoundup(n); }
static int x_init(void *a) { return orig.xInit(a); }
static void x_shutdown(void *a) { orig.xShutdown(a); }

static void arm(long n, int persist) {
  count = 0;
  injected = 0;
  persistent = persist;
  armed_at = n;
}

static void disarm(void) { armed_at = 0; }

/* ---- helpers ------------------------------------------------------------- */

static const char *ext_path;
static char db_path[256];
static int failures_here; /* failures in the current scenario */

static void fail(const char *scen, long n, const char *fmt, ...) {
  failures_here++;
  if (failures_here > 5) return; /* keep the log short */
  va_list ap;
  va_start(ap, fmt);
  fprintf(stdout, "FAIL %s N=%ld: ", scen, n);
  vfprintf(stdout, fmt, ap);
  fputc('\n', stdout);
  va_end(ap);
}

static void die(const char *what, sqlite3 *db) {
  fprintf(stdout, "FAIL setup: %s: %s\n", what, db ? sqlite3_errmsg(db) : "");
  fprintf(stdout, "fault_oom: 0 passed, 1 failed\n");
  exit(1);
}

static void copy_file(const char *from, const char *to) {
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

static sqlite3 *open_db(const char *path) {
  sqlite3 *db = NULL;
  char *err = NULL;
  if (sqlite3_open(path, &db) != SQLITE_OK) die("open", db);
  sqlite3_busy_timeout(db, 5000);
  sqlite3_exec(db, "PRAGMA synchronous=OFF", 0, 0,
               0); /* speed; rollback is unchanged */
  sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 1, (int *)0);
  if (sqlite3_load_extension(db, ext_path, NULL, &err) != SQLITE_OK) {
    fprintf(stdout, "FAIL setup: load %s: %s\n", ext_path, err ? err : "?");
    exit(1);
  }
  return db;
}

static void exec(sqlite3 *db, const char *sql) {
  char *err = NULL;
  if (sqlite3_exec(db, sql, 0, 0, &err) != SQLITE_OK) {
    fprintf(stdout, "FAIL setup: %s: %s\n", sql, err ? err : "?");
    exit(1);
  }
}

/* A growing text buffer on libc's allocator (never the failing one). */
typedef struct buf {
  char *p;
  size_t n, cap;
} buf;

static void put(buf *b, const char *s, size_t n) {
  if (b->n + n + 1 > b->cap) {
    b->cap = (b->n + n + 1) * 2;
    b->p = realloc(b->p, b->cap);
    if (!b->p) abort();
  }
  memcpy(b->p + b->n, s, n);
  b->n += n;
  b->p[b->n] = 0;
}

/* Every shadow row as text: equal dumps = identical tables. */
static char *dump(sqlite3 *db) {
  static const char *const tables[] = {"triggers_data", "triggers_state",
                                       "triggers_rundata", "triggers_config",
                                       "sqlite_schema"};
  buf b = {0, 0, 0};
  put(&b, "", 0);
  for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT * FROM main.%s ORDER BY 1, 2", tables[t]);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
      die("dump", db);
    while (sqlite3_step(st) == SQLITE_ROW) {
      put(&b, tables[t], strlen(tables[t]));
      for (int i = 0; i < sqlite3_column_count(st); i++) {
        char tag[2] = {(char)('0' + sqlite3_column_type(st, i)), 0};
        put(&b, "|", 1);
        put(&b, tag, 1);
        const char *v = (const char *)sqlite3_column_text(st, i);
        if (v) put(&b, v, strlen(v));
      }
      put(&b, "\n", 1);
    }
    sqlite3_finalize(st);
  }
  return b.p;
}

/* The first line where two dumps differ, for the log. */
static void first_diff(const char *a, const char *b, char *out, size_t n) {
  size_t i = 0, line = 0;
  while (a[i] && a[i] == b[i]) {
    if (a[i] == '\n') line = i + 1;
    i++;
  }
  const char *ea = strchr(a + line, '\n'), *eb = strchr(b + line, '\n');
  snprintf(out, n, "\n  was: %.*s\n  now: %.*s",
           (int)(ea ? ea - (a + line) : 200), a + line,
           (int)(eb ? eb - (b + line) : 200), b + line);
}

/* Run one statement; *out gets a libc copy of the first column of the
** first row (or NULL). Returns the statement's error code (OK on DONE). */
static int run_sql(sqlite3 *db, const char *sql, char **out) {
  *out = NULL;
  sqlite3_stmt *st = NULL;
  int rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
  if (rc != SQLITE_OK) return rc;
  while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
    if (*out) continue;
    const char *v = (const char *)sqlite3_column_text(st, 0);
    if (!v && sqlite3_errcode(db) == SQLITE_NOMEM) {
      rc = SQLITE_NOMEM;
      break;
    }
    *out = strdup(v ? v : "NULL");
  }
  int frc = sqlite3_finalize(st);
  if (rc == SQLITE_DONE) rc = frc;
  if (rc == SQLITE_OK && !*out) *out = strdup(""); /* no rows: e.g. INSERT */
  if (rc != SQLITE_OK) {
    free(*out);
    *out = NULL;
  }
  return rc;
}

/* ---- the database -------------------------------------------------------- */

static void build(const char *path, const char *journal) {
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
  /* Rows changed outside the extension (DESIGN.md section 4), so that the
  ** tick pauses them, and its quarantine writes meet every failure too:
  ** a due trigger with interval_ms 0, one whose next_due_at is text (found
  ** by the stray probe), a running run whose lease passed with attempt 0. */
  snprintf(sql, sizeof sql,
           "INSERT INTO triggers(trigger_id, agent_id, instructions,"
           " trigger_type, interval_ms, created_at) VALUES"
           " ('z', 'x', 'job z', 'interval', 60000, %lld),"
           " ('w', 'y', 'job w', 'interval', 60000, %lld)",
           T0, T0);
  exec(db, sql);
  exec(db, "UPDATE triggers_data SET interval_ms = 0 WHERE trigger_id = 'z'");
  exec(db, "UPDATE triggers_state SET next_due_at = 'soon'"
           " WHERE trigger_id = 'w'");
  snprintf(sql, sizeof sql,
           "UPDATE triggers_rundata SET attempt = 0 WHERE run_id = '%.127s'",
           ids[1]);
  exec(db, sql);
  if (sqlite3_close(db) != SQLITE_OK) die("close", db);
}

/* ---- scenarios ----------------------------------------------------------- */

typedef struct scenario {
  const char *name;
  const char *sql;
  int in_txn; /* inside the caller's BEGIN IMMEDIATE (the SAVEPOINT path) */
  int cold;   /* a fresh connection for every N (first-use paths) */
  const char *journal; /* "delete" or "wal" */
  int modes;           /* 1 persistent, 2 once, 3 both */
  int read_only;       /* the call writes nothing (its result is checked) */
} scenario;

static char finish_sql[256], finish_result_sql[256], heartbeat_sql[256];
static char finish_many_sql[640];

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

#define TICK_SQL \
  "SELECT trigger_run_due(1767225910000, '{\"owner\":\"h\",\"lease_ms\":30000}')"

static const scenario *scenarios(int *n) {
  static scenario s[] = {
      {"tick", TICK_SQL, 0, 0, "delete", 3, 0},
      /* the once mode of these two adds little to tick's and costs seconds */
      {"tick-in-txn", TICK_SQL, 1, 0, "wal", 1, 0},
      {"tick-cold", TICK_SQL, 0, 1, "wal", 2, 0},
      {"create",
       "SELECT trigger_create('{\"instructions\":\"Check the build\","
       "\"trigger_type\":\"cron\",\"cron_expression\":\"0 9 * * MON-FRI\","
       "\"timezone\":\"America/New_York\"}', '{\"agent_id\":\"x\",\"role\":\"owner\","
       "\"now\":1767225600000}')",
       0, 0, "wal", 3, 0},
      {"create-in-txn",
       "SELECT trigger_create('{\"instructions\":\"Every hour\","
       "\"trigger_type\":\"interval\",\"interval_ms\":3600000}',"
       " '{\"agent_id\":\"x\",\"role\":\"owner\",\"now\":1767225600000}')",
       1, 0, "delete", 3, 0},
      {"create-when",
       "SELECT trigger_create('{\"instructions\":\"Water the plants\","
       "\"when\":\"every day at 9am\",\"timezone\":\"Europe/Berlin\"}',"
       " '{\"agent_id\":\"y\",\"role\":\"owner\",\"now\":1767225600000}')",
       0, 0, "delete", 3, 0},
      /* a model's untidy reply: prose and a fence around the XML, names
      ** and values in other spellings, an element that is listed as
      ** ignored */
      {"create-xml",
       "SELECT trigger_create_xml('Sure:\n```xml\n<Response><Instructions>"
       "Rotate the logs</Instructions><trigger_type>INTERVAL</trigger_type>"
       "<intervalMs>3600000</intervalMs><wakeMode>injectNow</wakeMode>"
       "<thoughts>hourly</thoughts></Response>\n```',"
       " '{\"agent_id\":\"y\",\"role\":\"owner\",\"now\":1767225600000}')",
       0, 0, "wal", 3, 0},
      {"insert",
       "INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type,"
       " cron_expression, timezone, created_at) VALUES ('new', 'x', 'Standup',"
       " 'cron', '30 9 * * MON-FRI', 'Asia/Kolkata', 1767225600000)",
       0, 0, "delete", 3, 0},
      {"finish", finish_sql, 0, 0, "wal", 3, 0},
      /* a success's detail: its result, cleaned and bounded (run_text) */
      {"finish-result", finish_result_sql, 1, 0, "delete", 3, 0},
      {"finish-many", finish_many_sql, 1, 0, "wal", 3, 0},
      {"finish-many-alone", finish_many_sql, 0, 0, "delete", 3, 0},
      {"heartbeat", heartbeat_sql, 0, 0, "delete", 3, 0},
      /* a schedule read from JSON (spec_from_json) and an ISO instant: an
      ** allocation failing here once made the call return a wrong time */
      {"next-due-json",
       "SELECT trigger_next_due('{\"trigger_type\":\"cron\","
       "\"cron_expression\":\"0 9 * * MON-FRI\",\"timezone\":"
       "\"America/New_York\",\"end_at\":\"2027-01-01T00:00:00\"}',"
       " '2026-01-01T08:00:00Z')",
       0, 0, "delete", 3, 1},
  };
  *n = (int)(sizeof s / sizeof s[0]);
  return s;
}

static char pristine_delete[256], pristine_wal[256];
static sqlite3_int64 mem_before_open;

/* A connection on a fresh copy of the scenario's database; warm ones
** have run the call once already (rolled back), as a long-lived host's
** connection has: cached statements and options. */
static sqlite3 *fresh(const scenario *s, const char *want_result) {
  mem_before_open = sqlite3_memory_used();
  copy_file(strcmp(s->journal, "wal") == 0 ? pristine_wal : pristine_delete,
            db_path);
  sqlite3 *db = open_db(db_path);
  /* SQLite's own schema parsing is not what is tested here. */
  exec(db, "SELECT count(*) FROM main.sqlite_schema");
  if (!s->cold) {
    char *res = NULL;
    exec(db, "BEGIN IMMEDIATE");
    int rc = run_sql(db, s->sql, &res);
    exec(db, "ROLLBACK");
    if (rc != SQLITE_OK || (want_result && strcmp(res, want_result) != 0)) {
      fprintf(stdout, "FAIL %s: the warm-up call differs (rc %d): %.300s\n",
              s->name, rc, res ? res : "(none)");
    }
    free(res);
  }
  return db;
}

/* Close; every byte the connection used must be returned. */
static void close_db(sqlite3 *db, const char *name, long n) {
  if (sqlite3_close(db) != SQLITE_OK) die("close", db);
  sqlite3_int64 mem = sqlite3_memory_used();
  if (mem != mem_before_open) {
    fail(name, n, "%lld bytes still in use after close (a leak)",
         (long long)(mem - mem_before_open));
  }
}

static int run_scenario(const scenario *s, int persist) {
  char name[64];
  snprintf(name, sizeof name, "%s/%s", s->name,
           persist ? "persistent" : "once");
  failures_here = 0;
  /* The healthy call on a fresh connection: the reference. */
  char *ref = NULL, *before = NULL, *ref_after = NULL;
  sqlite3 *db = fresh(
      &(scenario){s->name, s->sql, s->in_txn, 1, s->journal, 0, s->read_only},
      NULL);
  before = dump(db);
  if (s->in_txn) exec(db, "BEGIN IMMEDIATE");
  int rc = run_sql(db, s->sql, &ref);
  if (s->in_txn) exec(db, "COMMIT");
  ref_after = dump(db);
  close_db(db, name, 0);
  if (rc != SQLITE_OK) {
    fail(name, 0, "the healthy call failed (rc %d)", rc);
    return 0;
  }
  if (!s->read_only && strcmp(ref_after, before) == 0) {
    fail(name, 0, "the healthy call changed nothing");
  }

  long n, errors = 0, absorbed = 0;
  db = fresh(s, ref);
  for (n = 1; n < 200000 && failures_here == 0; n++) {
    if (s->cold && n > 1) {
      close_db(db, name, n);
      db = fresh(s, ref);
    }
    char *res = NULL, *after = NULL, d[600];
    if (s->in_txn) exec(db, "BEGIN IMMEDIATE");
    arm(n, persist);
    rc = run_sql(db, s->sql, &res);
    disarm();
    long got = injected;
    char *errmsg = strdup(sqlite3_errmsg(db));
    if (rc != SQLITE_OK) {
      errors++;
      after =
          dump(db); /* inside the caller's transaction when it is still open */
      int txn_ok = s->in_txn || sqlite3_get_autocommit(db);
      if (s->in_txn && !sqlite3_get_autocommit(db)) exec(db, "ROLLBACK");
      if (!got)
        fail(name, n, "failed (rc %d: %s) without an injected fault", rc,
             errmsg);
      if (strcmp(after, before) != 0) {
        first_diff(before, after, d, sizeof d);
        fail(name, n, "failed (rc %d: %s) but changed the tables:%s", rc,
             errmsg, d);
      }
      if (!txn_ok)
        fail(name, n, "failed (rc %d: %s) and left a transaction open", rc,
             errmsg);
      if (!*errmsg || strcmp(errmsg, "not an error") == 0) {
        fail(name, n, "failed (rc %d) without an error message", rc);
      }
      /* Healthy again, on the same connection: exactly the reference.
      ** (In a transaction rolled back after, so the next N starts clean.) */
      char *res2 = NULL;
      exec(db, "BEGIN IMMEDIATE");
      int rc2 = run_sql(db, s->sql, &res2);
      char *after2 = dump(db);
      exec(db, "ROLLBACK");
      if (rc2 != SQLITE_OK || strcmp(res2, ref) != 0 ||
          strcmp(after2, ref_after) != 0) {
        fail(name, n,
             "the healthy call after the fault differs (rc %d): %.300s", rc2,
             res2 ? res2 : "(none)");
      }
      free(res2);
      free(after2);
    } else {
      if (got) absorbed++;
      int txn_ok = sqlite3_get_autocommit(db) == !s->in_txn;
      if (s->in_txn && !sqlite3_get_autocommit(db)) exec(db, "COMMIT");
      after = dump(db);
      if (strcmp(res, ref) != 0) {
        fail(name, n,
             "succeeded with a different result:\n  got  %.300s\n  want %.300s",
             res, ref);
      } else if (strcmp(after, ref_after) != 0) {
        first_diff(ref_after, after, d, sizeof d);
        fail(name, n, "succeeded with the same result but different tables:%s",
             d);
      } else if (!txn_ok) {
        fail(name, n, "succeeded but left a transaction open");
      }
      close_db(db, name, n); /* the call changed the file: start over */
      db = fresh(s, ref);
    }
    free(errmsg);
    free(res);
    free(after);
    if (!got) break; /* the call needs fewer than n allocations: done */
  }
  close_db(db, name, n);
  printf("%s/%s: %ld injection points, %ld reported errors, %ld absorbed%s\n",
         s->journal, name, n, errors, absorbed,
         failures_here ? " -- FAILED" : "");
  free(before);
  free(ref);
  free(ref_after);
  return failures_here == 0;
}

int main(int argc, char **argv) {
  /* Before any other SQLite call in the process. */
  if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &orig) != SQLITE_OK)
    die("GETMALLOC", NULL);
  sqlite3_mem_methods mine = orig;
  mine.xMalloc = x_malloc;
  mine.xFree = x_free;
  mine.xRealloc = x_realloc;
  mine.xSize = x_size;
  mine.xRoundup = x_roundup;
  mine.xInit = x_init;
  mine.xShutdown = x_shutdown;
  if (sqlite3_config(SQLITE_CONFIG_MALLOC, &mine) != SQLITE_OK)
    die("CONFIG_MALLOC", NULL);
  if (sqlite3_config(SQLITE_CONFIG_LOOKASIDE, 0, 0) != SQLITE_OK)
    die("LOOKASIDE", NULL);
  if (sqlite3_initialize() != SQLITE_OK) die("initialize", NULL);

  if (argc < 2) {
    fprintf(stderr, "usage: %s path/to/triggers.so [filter]\n", argv[0]);
    return 2;
  }
  ext_path = argv[1];
  const char *filter = argc > 2 ? argv[2] : "";
  /* tmpfs when there is one: the loop is file-system bound otherwise */
  char dir[] = "/dev/shm/trg-oom-XXXXXX";
  if (access("/dev/shm", W_OK) != 0)
    memcpy(dir, "/tmp/trg-oom-XXXXXX", sizeof "/tmp/trg-oom-XXXXXX");
  if (!mkdtemp(dir)) die("mkdtemp", NULL);

  /* Keeps the extension mapped: without it every close unloads it. */
  sqlite3 *anchor = open_db(":memory:");
  int passed = 0, failed = 0, ns;
  const scenario *sc = scenarios(&ns);
  snprintf(pristine_delete, sizeof pristine_delete, "%s/pristine-delete.db",
           dir);
  snprintf(pristine_wal, sizeof pristine_wal, "%s/pristine-wal.db", dir);
  build(pristine_delete, "delete");
  build(pristine_wal, "wal");
  {
    /* a run left running by the history, for the finish scenario */
    sqlite3 *db = open_db(pristine_delete);
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
    }
    /* renewed before its lease (claimed at T0 + MIN for 30 s) passed; a
    ** run not changed outside the extension (a's has attempt 0: refused) */
    first_run(db, "attempt >= 1", run_id);
    snprintf(heartbeat_sql, sizeof heartbeat_sql,
             "SELECT trigger_run_heartbeat('%s', NULL, %lld)", run_id,
             T0 + MIN + 10000);
    sqlite3_close(db);
  }
  /* The jobs (scenario x mode) are shared between FAULT_JOBS processes
  ** (default 2), forked after the allocator is installed. */
  int jobs[64][2], njobs = 0;
  for (int i = 0; i < ns; i++) {
    for (int persist = 1; persist >= 0; persist--) {
      if (*filter && !strstr(sc[i].name, filter)) continue;
      if (!(sc[i].modes & (persist ? 1 : 2))) continue;
      jobs[njobs][0] = i;
      jobs[njobs++][1] = persist;
    }
  }
  int nproc = getenv("FAULT_JOBS") ? atoi(getenv("FAULT_JOBS")) : 2;
  if (nproc < 1) nproc = 1;
  if (nproc > njobs) nproc = njobs > 0 ? njobs : 1;
  pid_t pids[8];
  if (nproc > 8) nproc = 8;
  fflush(stdout);
  for (int k = 0; k < nproc; k++) {
    pid_t pid = nproc == 1 ? 0 : fork();
    if (pid < 0) die("fork", NULL);
    if (pid == 0) {
      int my_failed = 0;
      snprintf(db_path, sizeof db_path, "%s/work-%d.db", dir, k);
      for (int j = k; j < njobs; j += nproc) {
        if (!run_scenario(&sc[jobs[j][0]], jobs[j][1])) my_failed++;
        fflush(stdout);
      }
      if (nproc == 1) {
        failed = my_failed;
        passed = njobs - my_failed;
        break;
      }
#ifdef COVERAGE
      exit(my_failed); /* make coverage: gcov's exit handlers write the
                       ** counters of the extension this worker ran */
#else
      _exit(my_failed);
#endif
    }
    pids[k] = pid;
  }
  for (int k = 0; nproc > 1 && k < nproc; k++) {
    int status = 0, assigned = (njobs - k + nproc - 1) / nproc;
    waitpid(pids[k], &status, 0);
    if (WIFEXITED(status)) {
      failed += WEXITSTATUS(status);
      passed += assigned - WEXITSTATUS(status);
    } else {
      printf("FAIL worker %d ended by signal %d\n", k,
             WIFSIGNALED(status) ? WTERMSIG(status) : 0);
      failed += assigned;
    }
  }
  char path[300];
  const char *files[] = {"pristine-delete.db", "pristine-wal.db"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    unlink(path);
  }
  for (int k = 0; k < nproc; k++) {
    static const char *const side[] = {"", "-wal", "-shm", "-journal"};
    for (int i = 0; i < 4; i++) {
      snprintf(path, sizeof path, "%s/work-%d.db%s", dir, k, side[i]);
      unlink(path);
    }
  }
  rmdir(dir);
  sqlite3_close(anchor);
  printf("fault_oom: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
