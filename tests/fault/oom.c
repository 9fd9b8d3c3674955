/*
** tests/fault/oom.c -- out-of-memory fault injection (issue 5, item 8).
**
**   build/fault_oom build/triggers.so [scenario-filter]
**
** Installs a failing allocator around SQLite's default one (before
** sqlite3_initialize, lookaside off so every allocation goes through it),
** builds a database with work for every probe of the tick, and then, for
** each scenario (a call) and N = 1, 2, 3, ...: opens a fresh copy of the
** database, makes the N-th allocation counted from just before the call
** fail -- and, in "persistent" mode, every later one too -- and checks:
**   - the call reported an error, or succeeded with exactly the result of
**     the healthy call (same text, same tables afterwards);
**   - after an error, the tables are byte-identical to before the call and
**     no transaction is left open (sqlite3_get_autocommit; for the
**     scenarios run inside a caller's BEGIN IMMEDIATE: the tables inside
**     that transaction are unchanged);
**   - with the allocator healthy again the same call then succeeds with
**     exactly the healthy result: nothing was lost;
**   - closing the connection returns every byte (sqlite3_memory_used).
** N grows until the call completes without reaching the N-th allocation.
** Prints one line per scenario and "fault_oom: N passed, M failed"
** (scenarios), exit status 1 on any failure.
*/
#include <sqlite3.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define T0 1767225600000LL
#define MIN 60000LL
#define NOW (T0 + 5 * MIN + 10000)

/* ---- the failing allocator ---------------------------------------------- */

static sqlite3_mem_methods orig;
static long armed_at;   /* 0 = healthy; else the allocation number that fails */
static long count;      /* allocations since arming */
static int persistent;  /* every allocation after armed_at fails too */
static long injected;   /* failures handed out since arming */

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
static void *x_realloc(void *p, int n) { return should_fail() ? NULL : orig.xRealloc(p, n); }
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
static char db_path[256], pristine_path[256];
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
  static const char *const tables[] = {"triggers_data", "triggers_rundata",
                                       "triggers_config", "sqlite_schema"};
  buf b = {0, 0, 0};
  put(&b, "", 0);
  for (size_t t = 0; t < sizeof tables / sizeof tables[0]; t++) {
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT * FROM main.%s ORDER BY 1, 2", tables[t]);
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK) die("dump", db);
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
  snprintf(sql, sizeof sql,
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
  snprintf(sql, sizeof sql,
           "SELECT trigger_run_due(%lld, '{\"owner\":\"before\",\"lease_ms\":30000}')",
           T0 + MIN);
  exec(db, sql);
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v2(db, "SELECT run_id FROM trigger_runs WHERE status = 'running'"
                         " ORDER BY run_id", -1, &st, NULL) != SQLITE_OK) die("runs", db);
  char ids[64][128];
  int n = 0;
  while (sqlite3_step(st) == SQLITE_ROW && n < 64) {
    snprintf(ids[n++], sizeof ids[0], "%s", (const char *)sqlite3_column_text(st, 0));
  }
  sqlite3_finalize(st);
  if (n < 8) die("too few runs claimed by the history tick", NULL);
  static const char *const how[] = {"success", NULL, "deferred", "failed"};
  for (int k = 0; k < n; k++) {
    const char *status = how[k % 4];
    if (!status) continue;
    if (k % 4 == 2 && k > 2) status = "success";
    snprintf(sql, sizeof sql, "SELECT trigger_run_finish('%.127s', '%s', NULL, %lld)", ids[k],
             status, T0 + MIN + 5);
    exec(db, sql);
  }
  if (sqlite3_close(db) != SQLITE_OK) die("close", db);
}

/* ---- scenarios ----------------------------------------------------------- */

typedef struct scenario {
  const char *name;
  const char *sql;
  int in_txn; /* run inside the caller's BEGIN IMMEDIATE (the SAVEPOINT path) */
} scenario;

static char finish_sql[256];

static const scenario *scenarios(int *n) {
  static scenario s[] = {
      {"tick", "SELECT trigger_run_due(" "1767225910000" ", '{\"owner\":\"h\",\"lease_ms\":30000}')", 0},
      {"tick-in-txn", "SELECT trigger_run_due(" "1767225910000" ", '{\"owner\":\"h\",\"lease_ms\":30000}')", 1},
      {"create", "SELECT trigger_create('{\"instructions\":\"Check the build\","
                 "\"trigger_type\":\"cron\",\"cron_expression\":\"0 9 * * MON-FRI\","
                 "\"timezone\":\"America/New_York\"}', '{\"agent_id\":\"x\",\"role\":\"owner\","
                 "\"now\":1767225600000}')", 0},
      {"create-in-txn", "SELECT trigger_create('{\"instructions\":\"Every hour\","
                 "\"trigger_type\":\"interval\",\"interval_ms\":3600000}',"
                 " '{\"agent_id\":\"x\",\"role\":\"owner\",\"now\":1767225600000}')", 1},
      {"insert", "INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type,"
                 " cron_expression, timezone, created_at) VALUES ('new', 'x', 'Standup',"
                 " 'cron', '30 9 * * MON-FRI', 'Asia/Kolkata', 1767225600000)", 0},
      {"finish", finish_sql, 0},
  };
  *n = (int)(sizeof s / sizeof s[0]);
  return s;
}

typedef struct outcome {
  int rc;
  char *result; /* libc */
  char *after;  /* dump, libc */
} outcome;

/* One call on a fresh copy: the N-th allocation (0 = none) fails. */
static outcome attempt(const scenario *s, long n, int persist, char **before_out,
                       int *autocommit_after, char **errmsg) {
  outcome o = {0, NULL, NULL};
  copy_file(pristine_path, db_path);
  sqlite3 *db = open_db(db_path);
  if (before_out) *before_out = dump(db);
  if (s->in_txn) exec(db, "BEGIN IMMEDIATE");
  if (n) arm(n, persist);
  o.rc = run_sql(db, s->sql, &o.result);
  disarm();
  if (errmsg) *errmsg = strdup(sqlite3_errmsg(db));
  if (o.rc != SQLITE_OK && s->in_txn) {
    /* the caller's view inside its transaction, then its rollback */
    o.after = dump(db);
    if (!sqlite3_get_autocommit(db)) exec(db, "ROLLBACK");
    *autocommit_after = 1;
  } else {
    *autocommit_after = sqlite3_get_autocommit(db);
    if (s->in_txn && o.rc == SQLITE_OK) exec(db, "COMMIT");
    o.after = dump(db);
  }
  if (sqlite3_close(db) != SQLITE_OK) die("close after call", db);
  return o;
}

/* With a healthy allocator, on the database the failed call left. */
static outcome retry(const scenario *s) {
  outcome o = {0, NULL, NULL};
  sqlite3 *db = open_db(db_path);
  if (s->in_txn) exec(db, "BEGIN IMMEDIATE");
  o.rc = run_sql(db, s->sql, &o.result);
  if (s->in_txn) exec(db, o.rc == SQLITE_OK ? "COMMIT" : "ROLLBACK");
  o.after = dump(db);
  if (sqlite3_close(db) != SQLITE_OK) die("close after retry", db);
  return o;
}

static void outcome_free(outcome *o) {
  free(o->result);
  free(o->after);
}

static int run_scenario(const scenario *s, int persist) {
  char name[64];
  snprintf(name, sizeof name, "%s/%s", s->name, persist ? "persistent" : "once");
  failures_here = 0;
  int ac;
  char *before = NULL;
  outcome ref = attempt(s, 0, 0, &before, &ac, NULL);
  if (ref.rc != SQLITE_OK || !ref.result) {
    fail(name, 0, "the healthy call failed (rc %d)", ref.rc);
    return 0;
  }
  if (strcmp(ref.after, before) == 0) fail(name, 0, "the healthy call changed nothing");
  sqlite3_int64 base_mem = -1;
  long n, errors = 0, ok_with_fault = 0;
  for (n = 1; n < 200000 && failures_here == 0; n++) {
    char *errmsg = NULL;
    outcome o = attempt(s, n, persist, NULL, &ac, &errmsg);
    long got = injected;
    sqlite3_int64 mem = sqlite3_memory_used();
    if (base_mem < 0) base_mem = mem;
    else if (mem != base_mem) {
      fail(name, n, "memory in use after close: %lld bytes, was %lld (a leak)",
           (long long)mem, (long long)base_mem);
    }
    if (o.rc == SQLITE_OK) {
      if (strcmp(o.result, ref.result) != 0) {
        fail(name, n, "succeeded with a different result:\n  got  %.300s\n  want %.300s",
             o.result, ref.result);
      } else if (strcmp(o.after, ref.after) != 0) {
        fail(name, n, "succeeded with the same result but different tables");
      } else if (!ac) {
        fail(name, n, "succeeded but left a transaction open");
      }
      if (got) ok_with_fault++;
    } else {
      errors++;
      if (!got) fail(name, n, "failed (rc %d: %s) without an injected fault", o.rc, errmsg);
      if (strcmp(o.after, before) != 0) {
        fail(name, n, "failed (rc %d: %s) but changed the tables", o.rc, errmsg);
      }
      if (!ac) fail(name, n, "failed (rc %d: %s) and left a transaction open", o.rc, errmsg);
      if (!errmsg || !*errmsg || strcmp(errmsg, "not an error") == 0) {
        fail(name, n, "failed (rc %d) without an error message", o.rc);
      }
      outcome r = retry(s);
      if (r.rc != SQLITE_OK || !r.result || strcmp(r.result, ref.result) != 0 ||
          strcmp(r.after, ref.after) != 0) {
        fail(name, n, "the healthy call after the fault differs (rc %d): %.300s", r.rc,
             r.result ? r.result : "(none)");
      }
      outcome_free(&r);
    }
    free(errmsg);
    outcome_free(&o);
    if (!got) break; /* the call needs fewer than n allocations: done */
  }
  printf("%s: %ld injection points, %ld reported errors, %ld absorbed%s\n", name, n,
         errors, ok_with_fault, failures_here ? " -- FAILED" : "");
  free(before);
  outcome_free(&ref);
  return failures_here == 0;
}

int main(int argc, char **argv) {
  /* Before any other SQLite call in the process. */
  if (sqlite3_config(SQLITE_CONFIG_GETMALLOC, &orig) != SQLITE_OK) die("GETMALLOC", NULL);
  sqlite3_mem_methods mine = orig;
  mine.xMalloc = x_malloc;
  mine.xFree = x_free;
  mine.xRealloc = x_realloc;
  mine.xSize = x_size;
  mine.xRoundup = x_roundup;
  mine.xInit = x_init;
  mine.xShutdown = x_shutdown;
  if (sqlite3_config(SQLITE_CONFIG_MALLOC, &mine) != SQLITE_OK) die("CONFIG_MALLOC", NULL);
  if (sqlite3_config(SQLITE_CONFIG_LOOKASIDE, 0, 0) != SQLITE_OK) die("LOOKASIDE", NULL);
  if (sqlite3_initialize() != SQLITE_OK) die("initialize", NULL);

  if (argc < 2) {
    fprintf(stderr, "usage: %s path/to/triggers.so [filter]\n", argv[0]);
    return 2;
  }
  ext_path = argv[1];
  const char *filter = argc > 2 ? argv[2] : "";
  char dir[] = "/tmp/trg-oom-XXXXXX";
  if (!mkdtemp(dir)) die("mkdtemp", NULL);
  snprintf(pristine_path, sizeof pristine_path, "%s/pristine.db", dir);
  snprintf(db_path, sizeof db_path, "%s/work.db", dir);

  int passed = 0, failed = 0, ns;
  const scenario *sc = scenarios(&ns);
  static const char *const journals[] = {"delete", "wal"};
  for (int j = 0; j < 2; j++) {
    build(pristine_path, journals[j]);
    {
      /* a run left running by the history, for the finish scenario */
      sqlite3 *db = open_db(pristine_path);
      sqlite3_stmt *st = NULL;
      if (sqlite3_prepare_v2(db, "SELECT run_id FROM trigger_runs WHERE status = 'running'"
                             " AND trigger_id = 'a' ORDER BY run_id LIMIT 1", -1, &st,
                             NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW) {
        die("no running run of 'a'", db);
      }
      snprintf(finish_sql, sizeof finish_sql,
               "SELECT trigger_run_finish('%s', 'failed', 'boom', %lld)",
               (const char *)sqlite3_column_text(st, 0), NOW);
      sqlite3_finalize(st);
      sqlite3_close(db);
    }
    for (int i = 0; i < ns; i++) {
      for (int persist = 1; persist >= 0; persist--) {
        if (*filter && !strstr(sc[i].name, filter)) continue;
        printf("[%s] ", journals[j]);
        if (run_scenario(&sc[i], persist)) passed++;
        else failed++;
        fflush(stdout);
      }
    }
  }
  char path[300];
  const char *files[] = {"pristine.db", "work.db", "pristine.db-wal", "work.db-wal",
                         "pristine.db-shm", "work.db-shm", "work.db-journal"};
  for (size_t i = 0; i < sizeof files / sizeof files[0]; i++) {
    snprintf(path, sizeof path, "%s/%s", dir, files[i]);
    unlink(path);
  }
  rmdir(dir);
  printf("fault_oom: %d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
