/*
** tests/fault/oom.c -- fault injection (issue 5, item 8): the failing
** allocator, the loop over N and the checks after each call. The
** databases are in databases.c, the calls in scenarios.c, the failing
** disk of the I/O mode in vfs.c.
**
**   build/fault_oom [--io|--busy] build/triggers.so [filter]
**   --io: fail disk operations (vfs.c: a read, a write -- the disk is
**         full --, a truncation, a sync, a size read) instead of
**         allocations; the same loop over N and the same checks
**   --busy: refuse a lock instead (vfs.c: taking a lock on the database
**         file answers SQLITE_BUSY, as another connection's would)
**   filter: the scenarios whose name holds it; -text: all but those
**   FAULT_JOBS=n (default 2): scenarios shared between n forked processes
**   FAULT_FIXTURES=dir (default tests/py/fixtures): the older schemas
**
** Installs a failing allocator around SQLite's default one (before
** sqlite3_initialize, lookaside off so every allocation goes through it),
** pins the wall clock (CLOCK_REALTIME, which the extension reads when a
** call has no `now`, e.g. an UPDATE of `triggers`) to NOW, builds the
** pristine databases, and then, for each scenario (one call) and N = 1,
** 2, 3, ..., makes the N-th allocation counted
** from just before the call fail -- "once" -- or that one and every later
** one -- "persistent" -- and checks:
**   - the call reported an error (with a message), or succeeded with
**     exactly the result of the healthy call (same text, same tables);
**     a scenario's `fallback` result (the state summary's, which raises
**     no error) counts as a reported error;
**   - after an error every table (but the virtual ones: their rows are
**     the shadow tables') is byte-identical to before the call, the
**     schema too, and no transaction is left open (for the scenarios run
**     inside a caller's BEGIN IMMEDIATE: the tables inside that
**     transaction are unchanged);
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
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fault.h"

/* ---- the failing allocator ---------------------------------------------- */

static sqlite3_mem_methods orig;
static long armed_at;  /* 0 = healthy; else the allocation number that fails */
static long count;     /* allocations since arming */
static int persistent; /* every allocation after armed_at fails too */
static long injected;  /* failures handed out since arming */
static int paused;     /* the harness reads a result: not counted */
/* What fails: allocations, or (vfs.c) disk operations (--io) or locks
** (--busy); io_mode is set for either of the last two. */
static fault_kind kind = FAULT_MEMORY;
static int io_mode;

static int should_fail(void) {
  if (!armed_at || paused) return 0;
  count++;
  if (count == armed_at || (persistent && count > armed_at)) {
    injected++;
    return 1;
  }
  return 0;
}

static void *x_malloc(int n) {
  return !io_mode && should_fail() ? NULL : orig.xMalloc(n);
}
static void *x_realloc(void *p, int n) {
  return !io_mode && should_fail() ? NULL : orig.xRealloc(p, n);
}

int fault_vfs_fails(fault_kind k) {
  if (k == FAULT_READ) k = FAULT_DISK; /* --io fails reads too */
  return kind == k && should_fail();
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

/* ---- the pinned clock ---------------------------------------------------- */

/* The extension's wall clock (CLOCK_REALTIME) reads NOW: a call without
** an explicit now gives the same result on every run. The extension
** finds this definition first (the harness is linked with -rdynamic);
** every other clock is the real one. */
int clock_gettime(clockid_t id, struct timespec *ts) {
  static int (*real)(clockid_t, struct timespec *);
  if (id == CLOCK_REALTIME) {
    ts->tv_sec = (time_t)(NOW / 1000);
    ts->tv_nsec = (long)(NOW % 1000) * 1000000L;
    return 0;
  }
  if (!real) {
    *(void **)&real = dlsym(RTLD_NEXT, "clock_gettime");
    if (!real) abort();
  }
  return real(id, ts);
}

/* ---- helpers ------------------------------------------------------------- */

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

/* The tables to dump: every table but the virtual ones (their rows are
** the shadow tables'), in name order, then the schema. */
static int table_names(sqlite3 *db, char names[][64], int max) {
  sqlite3_stmt *st = NULL;
  int n = 0;
  if (sqlite3_prepare_v2(db,
                         "SELECT name FROM main.sqlite_schema WHERE type ="
                         " 'table' AND coalesce(sql, '') NOT LIKE"
                         " 'CREATE VIRTUAL%' ORDER BY name",
                         -1, &st, NULL) != SQLITE_OK) {
    die("dump", db);
  }
  while (sqlite3_step(st) == SQLITE_ROW && n < max - 1) {
    snprintf(names[n++], 64, "%s", (const char *)sqlite3_column_text(st, 0));
  }
  sqlite3_finalize(st);
  snprintf(names[n++], 64, "sqlite_schema");
  return n;
}

/* Every row as text: equal dumps = identical tables. */
static char *dump(sqlite3 *db) {
  char tables[32][64];
  int ntables = table_names(db, tables, 32);
  buf b = {0, 0, 0};
  put(&b, "", 0);
  for (int t = 0; t < ntables; t++) {
    char sql[128];
    snprintf(sql, sizeof sql, "SELECT * FROM main.\"%.63s\" ORDER BY 1, 2",
             tables[t]);
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

/* The dump after a call: for a read-only scenario whose connection made
** no change (sqlite3_total_changes64 as before the call), the dump it
** would give, unchanged, without reading every table again. */
static char *dump_after(const scenario *s, sqlite3 *db, sqlite3_int64 changes,
                        const char *same) {
  if (s->read_only && sqlite3_total_changes64(db) == changes)
    return strdup(same);
  return dump(db);
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
    /* the value as text: a conversion of the harness's, never failed */
    paused = 1;
    const char *v = (const char *)sqlite3_column_text(st, 0);
    paused = 0;
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

/* The scenario's call: run_sql, and for a refused scenario its error as
** the result ("error: <message>"), so that the refusal is compared as a
** result is. */
static char load_err[512]; /* the load's message (not the connection's) */

static int run_call(const scenario *s, sqlite3 *db, char **out) {
  if (s->load) {
    char *err = NULL;
    int rc = sqlite3_load_extension(db, ext_path, NULL, &err);
    /* an allocation of SQLite's own in the load fails with its code
    ** alone (SQLITE_NOMEM, no message): then the code's text */
    snprintf(load_err, sizeof load_err, "%s",
             err  ? err
             : rc ? sqlite3_errstr(rc)
                  : "");
    sqlite3_free(err);
    *out = rc == SQLITE_OK ? strdup("loaded") : NULL;
    return rc;
  }
  int rc = run_sql(db, s->sql, out);
  if (rc != SQLITE_OK && s->refused) {
    const char *m = sqlite3_errmsg(db);
    *out = malloc(strlen(m) + 8);
    if (!*out) abort();
    sprintf(*out, "error: %s", m);
  }
  return rc;
}

static sqlite3_int64 mem_before_open;

/* A connection on a fresh copy of the scenario's database; warm ones
** have run the call once already (rolled back), as a long-lived host's
** connection has: cached statements and options. */
static sqlite3 *fresh(const scenario *s, int warm, const char *want_result) {
  mem_before_open = sqlite3_memory_used();
  copy_file(database_path(s->db), db_path);
  sqlite3 *db = open_db_ext(db_path, !s->load);
  /* SQLite's own schema parsing is not what is tested here. */
  exec(db, "SELECT count(*) FROM main.sqlite_schema");
  if (s->setup) exec(db, s->setup);
  if (warm) {
    char *res = NULL;
    exec(db, "BEGIN IMMEDIATE");
    int rc = run_call(s, db, &res);
    exec(db, "ROLLBACK");
    if ((rc != SQLITE_OK && !s->refused) ||
        (want_result && strcmp(res, want_result) != 0)) {
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

/* The checks after a call that reported a failure (rc, or the scenario's
** fallback result): nothing changed, no transaction left open, a message
** (not for a fallback), and the healthy call on the same connection gives
** exactly the reference. */
static void check_failed(const scenario *s, const char *name, long n,
                         sqlite3 *db, sqlite3_int64 changes, int rc, long got,
                         const char *errmsg, const char *before,
                         const char *ref, const char *ref_after) {
  char d[600];
  int txn_ok = s->in_txn || sqlite3_get_autocommit(db);
  if (!txn_ok && s->ddl) exec(db, "ROLLBACK");
  /* inside the caller's transaction when open */
  char *after = dump_after(s, db, changes, before);
  if (!sqlite3_get_autocommit(db)) exec(db, "ROLLBACK");
  if (!got)
    fail(name, n, "failed (rc %d: %s) without an injected fault", rc, errmsg);
  if (strcmp(after, before) != 0) {
    first_diff(before, after, d, sizeof d);
    fail(name, n, "failed (rc %d: %s) but changed the tables:%s", rc, errmsg,
         d);
  }
  /* A call that changes the schema (trigger_install) prepares its undo
  ** ROLLBACK first, but the DDL expires every prepared statement (a
  ** CREATE INDEX does), and once an allocation has failed inside a call
  ** SQLite prepares nothing more (its malloc-failed flag stays set until
  ** the outer statement ends): the undo cannot run and the transaction
  ** stays open. The caller's ROLLBACK (above) restores every table. */
  if (!txn_ok && !s->ddl)
    fail(name, n, "failed (rc %d: %s) and left a transaction open", rc, errmsg);
  if (rc != SQLITE_OK && (!*errmsg || strcmp(errmsg, "not an error") == 0)) {
    fail(name, n, "failed (rc %d) without an error message", rc);
  }
  /* A failed disk or lock is reported as one: not as a missing table, an
  ** unknown id, "not an error" (the text of a code already cleared). */
  if (kind == FAULT_DISK && rc != SQLITE_OK &&
      !strstr(errmsg, "disk I/O error") &&
      !strstr(errmsg, "database or disk is full")) {
    fail(name, n, "a disk failure reported as something else (rc %d): %s", rc,
         errmsg);
  }
  if (kind == FAULT_LOCK && rc != SQLITE_OK &&
      !strstr(errmsg, "database is locked")) {
    fail(name, n, "a lock refused reported as something else (rc %d): %s", rc,
         errmsg);
  }
  /* Healthy again, on the same connection: exactly the reference. (In a
  ** transaction rolled back after, so the next N starts clean.) */
  char *res2 = NULL;
  exec(db, "BEGIN IMMEDIATE");
  changes = sqlite3_total_changes64(db);
  int rc2 = run_call(s, db, &res2);
  char *after2 = dump_after(s, db, changes, ref_after);
  exec(db, "ROLLBACK");
  if ((rc2 != SQLITE_OK && !s->refused) || strcmp(res2, ref) != 0 ||
      strcmp(after2, ref_after) != 0) {
    fail(name, n, "the healthy call after the fault differs (rc %d): %.300s",
         rc2, res2 ? res2 : "(none)");
  }
  free(res2);
  free(after2);
  free(after);
}

/* The checks after a call that succeeded: exactly the reference. */
static void check_succeeded(const scenario *s, const char *name, long n,
                            sqlite3 *db, sqlite3_int64 changes, const char *res,
                            const char *ref, const char *ref_after) {
  char d[600];
  int txn_ok = sqlite3_get_autocommit(db) == !s->in_txn;
  if (s->in_txn && !sqlite3_get_autocommit(db)) exec(db, "COMMIT");
  char *after = dump_after(s, db, changes, ref_after);
  if (strcmp(res, ref) != 0) {
    fail(name, n,
         "succeeded with a different result:\n  got  %.300s\n  want %.300s",
         res, ref);
  } else if (strcmp(after, ref_after) != 0) {
    first_diff(ref_after, after, d, sizeof d);
    fail(name, n, "succeeded with the same result but different tables:%s", d);
  } else if (!txn_ok) {
    fail(name, n, "succeeded but left a transaction open");
  }
  free(after);
}

/* One scenario in one mode; all_cold: run it cold whatever its own
** setting (the I/O mode runs each both ways: a fresh connection reads
** the schema and every page from the disk, a warm one few). */
static int run_scenario(const scenario *s, int persist, int all_cold) {
  int cold = s->cold || all_cold;
  char name[64];
  snprintf(name, sizeof name, "%s/%s%s", s->name,
           persist ? "persistent" : "once",
           all_cold && !s->cold ? "/cold" : "");
  failures_here = 0;
  struct timespec t0, t1;
  clock_gettime(CLOCK_MONOTONIC, &t0);
  /* The healthy call on a fresh connection: the reference. */
  char *ref = NULL, *before = NULL, *ref_after = NULL;
  sqlite3 *db = fresh(s, 0, NULL);
  before = dump(db);
  if (s->in_txn) exec(db, "BEGIN IMMEDIATE");
  int rc = run_call(s, db, &ref);
  if (s->in_txn) exec(db, "COMMIT");
  ref_after = dump(db);
  close_db(db, name, 0);
  if (s->refused && rc == SQLITE_OK) {
    fail(name, 0, "the healthy call of a refused scenario succeeded");
    return 0;
  }
  if (rc != SQLITE_OK && !s->refused) {
    fail(name, 0, "the healthy call failed (rc %d): %s", rc,
         sqlite3_errstr(rc));
    return 0;
  }
  if (!s->read_only && strcmp(ref_after, before) == 0) {
    fail(name, 0, "the healthy call changed nothing");
  }
  if (s->read_only && strcmp(ref_after, before) != 0) {
    fail(name, 0, "the healthy call of a read-only scenario wrote");
  }
  if (s->fallback && strcmp(ref, s->fallback) == 0) {
    fail(name, 0, "the healthy call returned the fallback");
  }

  long n, errors = 0, absorbed = 0;
  db = fresh(s, !cold, ref);
  for (n = 1; n < 200000 && failures_here == 0;
       n += s->stride && !io_mode ? s->stride : 1) {
    if (cold && n > 1) {
      close_db(db, name, n);
      db = fresh(s, 0, ref);
    }
    char *res = NULL;
    if (s->in_txn) exec(db, "BEGIN IMMEDIATE");
    sqlite3_int64 changes = sqlite3_total_changes64(db);
    arm(n, persist);
    rc = run_call(s, db, &res);
    disarm();
    long got = injected;
    char *errmsg = strdup(s->load ? load_err : sqlite3_errmsg(db));
    if ((rc != SQLITE_OK && !(s->refused && strcmp(res, ref) == 0)) ||
        (s->fallback && strcmp(res, s->fallback) == 0 && got)) {
      errors++;
      check_failed(s, name, n, db, changes, rc, got, errmsg, before, ref,
                   ref_after);
    } else {
      if (got) absorbed++;
      check_succeeded(s, name, n, db, changes, res, ref, ref_after);
      if (!s->read_only || s->in_txn) {
        close_db(db, name, n); /* the call changed the file: start over */
        db = fresh(s, !cold, ref);
      }
    }
    free(errmsg);
    free(res);
    if (!got) break; /* the call needs fewer than n allocations: done */
  }
  close_db(db, name, n);
  clock_gettime(CLOCK_MONOTONIC, &t1);
  printf("%s/%s: %ld injection points, %ld reported errors, %ld absorbed "
         "(%.1f s)%s\n",
         s->db, name, n, errors, absorbed,
         (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9,
         failures_here ? " -- FAILED" : "");
  free(before);
  free(ref);
  free(ref_after);
  return failures_here == 0;
}

/* Runs the jobs it reads from `jobs` ((scenario index * 2 + persistent)
** * 2 + all cold, one int each) until none are left, writing 'P' or 'F' for each to
** `done`. */
static void worker(const scenario *sc, int jobs, int done) {
  int j;
  while (read(jobs, &j, sizeof j) == (ssize_t)sizeof j) {
    char r = run_scenario(&sc[j / 4], j / 2 % 2, j % 2) ? 'P' : 'F';
    fflush(stdout);
    if (write(done, &r, 1) != 1) die("write", NULL);
  }
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

  if (argc > 1 && strcmp(argv[1], "--io") == 0) kind = FAULT_DISK;
  if (argc > 1 && strcmp(argv[1], "--busy") == 0) kind = FAULT_LOCK;
  io_mode = kind != FAULT_MEMORY;
  if (kind == FAULT_LOCK) busy_timeout_ms = 0;
  if (argc < 2 + io_mode) {
    fprintf(stderr, "usage: %s [--io|--busy] path/to/triggers.so [filter]\n",
            argv[0]);
    return 2;
  }
  if (io_mode && fault_vfs_install() != 0) die("vfs_register", NULL);
  ext_path = argv[1 + io_mode];
  const char *filter = argc > 2 + io_mode ? argv[2 + io_mode] : "";
  /* tmpfs when there is one: the loop is file-system bound otherwise */
  char dir[] = "/dev/shm/trg-oom-XXXXXX";
  if (access("/dev/shm", W_OK) != 0)
    memcpy(dir, "/tmp/trg-oom-XXXXXX", sizeof "/tmp/trg-oom-XXXXXX");
  if (!mkdtemp(dir)) die("mkdtemp", NULL);

  /* Keeps the extension mapped: without it every close unloads it. */
  sqlite3 *anchor = open_db(":memory:");
  databases_build(dir);
  int ns;
  const scenario *sc = scenarios(&ns);
  /* The jobs (scenario x mode), in table order (the longest, the tick's,
  ** first), go through a
  ** pipe to FAULT_JOBS forked workers (default 2), each taking the next
  ** when it is done; each job's outcome comes back through another. */
  int jobs[2], done[2], njobs = 0;
  if (pipe(jobs) != 0 || pipe(done) != 0) die("pipe", NULL);
  for (int i = 0; i < ns; i++) {
    for (int persist = 1; persist >= 0; persist--) {
      if (*filter == '-' ? strstr(sc[i].name, filter + 1) != NULL
                         : *filter && !strstr(sc[i].name, filter)) {
        continue;
      }
      if (!(sc[i].modes & (persist ? 1 : 2))) continue;
      int variants = io_mode && !sc[i].cold ? 2 : 1; /* warm, then cold */
      for (int cold = 0; cold < variants; cold++) {
        int j = (i * 2 + persist) * 2 + cold;
        if (write(jobs[1], &j, sizeof j) != (ssize_t)sizeof j)
          die("pipe", NULL);
        njobs++;
      }
    }
  }
  close(jobs[1]);
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
      snprintf(db_path, sizeof db_path, "%s/work-%d.db", dir, k);
      worker(sc, jobs[0], done[1]);
      if (nproc == 1) break;
#ifdef COVERAGE
      exit(0); /* make coverage: gcov's exit handlers write the counters
               ** of the extension this worker ran */
#else
      _exit(0);
#endif
    }
    pids[k] = pid;
  }
  close(done[1]);
  int passed = 0, failed = 0;
  char r;
  while (read(done[0], &r, 1) == 1) passed += r == 'P';
  for (int k = 0; nproc > 1 && k < nproc; k++) {
    int status = 0;
    waitpid(pids[k], &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      printf("FAIL worker %d ended by signal %d\n", k,
             WIFSIGNALED(status) ? WTERMSIG(status) : 0);
    }
  }
  failed = njobs - passed; /* a job a crashed worker did not finish too */
  databases_remove();
  for (int k = 0; k < nproc; k++) {
    static const char *const side[] = {"", "-wal", "-shm", "-journal"};
    for (int i = 0; i < 4; i++) {
      char path[300];
      snprintf(path, sizeof path, "%s/work-%d.db%s", dir, k, side[i]);
      unlink(path);
    }
  }
  rmdir(dir);
  sqlite3_close(anchor);
  printf("%s: %d passed, %d failed\n",
         kind == FAULT_DISK   ? "fault_io"
         : kind == FAULT_LOCK ? "fault_busy"
                              : "fault_oom",
         passed, failed);
  return failed ? 1 : 0;
}
