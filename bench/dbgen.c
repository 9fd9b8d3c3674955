/*
** dbgen.c -- the synthetic trigger data set of dbgen.h and its three
** loaders (extension, plain tick tables, wide create-baseline table).
*/
#include "dbgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

i64 dbg_now_due(i64 k) { return DBG_C0 + DBG_IV + k - 1; }

static i64 *perm_tab;
static i64 perm_n = -1;

/* xorshift64*: a fixed stream, so every run builds the same data. */
static uint64_t rng_next(uint64_t *s) {
  *s ^= *s >> 12;
  *s ^= *s << 25;
  *s ^= *s >> 27;
  return *s * 2685821657736338717ULL;
}

i64 dbg_perm(i64 n, i64 i) {
  if (perm_n != n) {
    free(perm_tab);
    perm_tab = malloc((size_t)n * sizeof *perm_tab);
    if (!perm_tab) bench_die("out of memory");
    for (i64 k = 0; k < n; k++) perm_tab[k] = k;
    uint64_t s = 0x9E3779B97F4A7C15ULL;
    for (i64 k = n - 1; k > 0; k--) { /* Fisher-Yates */
      i64 j = (i64)(rng_next(&s) % (uint64_t)(k + 1));
      i64 tmp = perm_tab[k];
      perm_tab[k] = perm_tab[j];
      perm_tab[j] = tmp;
    }
    perm_n = n;
  }
  return perm_tab[i];
}

void dbg_trigger_id(i64 i, char *buf, size_t n) {
  snprintf(buf, n, "t%07lld", (long long)i);
}

void dbg_instructions(i64 i, char *buf, size_t n) {
  snprintf(buf, n,
           "Check build %07lld and post a summary of any failures to the team",
           (long long)i);
}

static sqlite3 *fresh(const char *path, int ext, int cache_kib) {
  bench_rm_db(path);
  sqlite3 *db = bench_open(path, ext);
  if (cache_kib > 0) {
    char sql[64];
    snprintf(sql, sizeof sql, "PRAGMA cache_size=-%d", cache_kib);
    bench_exec(db, sql);
  }
  return db;
}

static void finish(sqlite3 *db) {
  bench_exec(db, "PRAGMA wal_checkpoint(TRUNCATE)");
  sqlite3_close(db);
}

static void step_done(sqlite3 *db, sqlite3_stmt *st) {
  if (sqlite3_step(st) != SQLITE_DONE)
    bench_die("insert: %s", sqlite3_errmsg(db));
  sqlite3_reset(st);
}

double dbg_build_ours(const char *path, i64 n, int cache_kib) {
  sqlite3 *db = fresh(path, 1, cache_kib);
  bench_exec(db, "SELECT trigger_install()");
  sqlite3_stmt *ins = bench_prepare(
      db, "INSERT INTO triggers(trigger_id, instructions, trigger_type, "
          "interval_ms, created_at) VALUES(?1, ?2, 'interval', ?3, ?4)");
  char id[64], text[128];
  dbg_perm(n, 0);
  double t0 = bench_now();
  bench_exec(db, "BEGIN");
  for (i64 i = 0; i < n; i++) {
    dbg_trigger_id(i, id, sizeof id);
    dbg_instructions(i, text, sizeof text);
    sqlite3_bind_text(ins, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_text(ins, 2, text, -1, SQLITE_STATIC);
    sqlite3_bind_int64(ins, 3, DBG_IV + dbg_perm(n, i));
    sqlite3_bind_int64(ins, 4, DBG_C0);
    step_done(db, ins);
  }
  bench_exec(db, "COMMIT");
  double secs = bench_now() - t0;
  sqlite3_finalize(ins);
  finish(db);
  return secs;
}

double dbg_build_plain(const char *path, i64 n, int cache_kib) {
  sqlite3 *db = fresh(path, 0, cache_kib);
  bench_exec(db, "CREATE TABLE triggers(id INTEGER PRIMARY KEY,"
                 " trigger_id TEXT NOT NULL UNIQUE, instructions TEXT NOT NULL,"
                 " interval_ms INTEGER NOT NULL, next_due INTEGER NOT NULL);"
                 "CREATE INDEX triggers_next_due ON triggers(next_due);"
                 "CREATE TABLE runs(id INTEGER PRIMARY KEY,"
                 " run_id TEXT NOT NULL UNIQUE, trigger_id TEXT NOT NULL,"
                 " agent_id TEXT NOT NULL, scheduled_for INTEGER NOT NULL,"
                 " attempt INTEGER NOT NULL, status TEXT NOT NULL, owner TEXT,"
                 " claimed_at INTEGER, finished_at INTEGER, latency_ms INTEGER,"
                 " payload TEXT, UNIQUE(trigger_id, scheduled_for, attempt));");
  sqlite3_stmt *ins = bench_prepare(
      db,
      "INSERT INTO triggers(trigger_id, instructions, interval_ms, next_due)"
      " VALUES(?1, ?2, ?3, ?4)");
  char id[64], text[128];
  dbg_perm(n, 0);
  double t0 = bench_now();
  bench_exec(db, "BEGIN");
  for (i64 i = 0; i < n; i++) {
    i64 iv = DBG_IV + dbg_perm(n, i);
    dbg_trigger_id(i, id, sizeof id);
    dbg_instructions(i, text, sizeof text);
    sqlite3_bind_text(ins, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_text(ins, 2, text, -1, SQLITE_STATIC);
    sqlite3_bind_int64(ins, 3, iv);
    sqlite3_bind_int64(ins, 4, DBG_C0 + iv);
    step_done(db, ins);
  }
  bench_exec(db, "COMMIT");
  double secs = bench_now() - t0;
  sqlite3_finalize(ins);
  finish(db);
  return secs;
}

/* The extension's own DDL for a trigger's two tables (triggers_data,
** triggers_state) and their indexes, read from a freshly installed
** in-memory database: the create baseline stores rows in exactly the same
** tables with exactly the same indexes. */
static char *ours_data_ddl(void) {
  sqlite3 *mem = bench_open(":memory:", 1);
  bench_exec(mem, "SELECT trigger_install()");
  sqlite3_stmt *st = bench_prepare(
      mem, "SELECT group_concat(sql, ';') FROM (SELECT sql FROM sqlite_schema"
           " WHERE tbl_name IN ('triggers_data', 'triggers_state')"
           " AND sql IS NOT NULL"
           " ORDER BY type = 'index', name)");
  if (sqlite3_step(st) != SQLITE_ROW)
    bench_die("schema: %s", sqlite3_errmsg(mem));
  char *ddl = sqlite3_mprintf("%s", (const char *)sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  sqlite3_close(mem);
  return ddl;
}

double dbg_build_wide(const char *path, i64 n, int cache_kib) {
  char *ddl = ours_data_ddl();
  sqlite3 *db = fresh(path, 0, cache_kib);
  bench_exec(db, ddl);
  sqlite3_free(ddl);
  /* The values an INSERT INTO triggers of the same row stores, in the
  ** same two tables. */
  sqlite3_stmt *ins = bench_prepare(
      db, "INSERT INTO triggers_data(trigger_id, agent_id, scope, display_name,"
          " instructions, trigger_type, interval_ms, timezone, wake_mode,"
          " created_by, enabled, misfire_policy, overlap_policy, max_attempts,"
          " backoff_ms, jitter_ms, status, dedupe_key, created_at)"
          " VALUES(?1, '', '', ?2, ?3, 'interval', ?4, 'UTC',"
          " 'next_autonomy_cycle', 'user', 1, 'coalesce', 'skip', 1, 30000, 0,"
          " 'scheduled', ?6, ?7)");
  sqlite3_stmt *ins_state = bench_prepare(
      db, "INSERT INTO triggers_state(id, trigger_id, agent_id, run_count,"
          " next_due_at, updated_at, fire_at, claims, running, fail_streak)"
          " VALUES(last_insert_rowid(), ?1, '', 0, ?2, ?3, ?2, 0, 0, 0)");
  char id[64], text[128], name[32], key[64];
  dbg_perm(n, 0);
  double t0 = bench_now();
  bench_exec(db, "BEGIN");
  for (i64 i = 0; i < n; i++) {
    i64 iv = DBG_IV + dbg_perm(n, i);
    uint64_t h = (uint64_t)i * 0x9E3779B97F4A7C15ULL;
    dbg_trigger_id(i, id, sizeof id);
    dbg_instructions(i, text, sizeof text);
    snprintf(name, sizeof name, "%.30s", text);
    /* A key of the extension's size ("tdk2:" + 32 hex), scattered. */
    snprintf(key, sizeof key, "tdk2:%016llx%016llx", (unsigned long long)h,
             (unsigned long long)(h ^ 0xA5A5A5A5A5A5A5A5ULL));
    sqlite3_bind_text(ins, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_text(ins, 2, name, -1, SQLITE_STATIC);
    sqlite3_bind_text(ins, 3, text, -1, SQLITE_STATIC);
    sqlite3_bind_int64(ins, 4, iv);
    sqlite3_bind_int64(ins, 5, DBG_C0 + iv);
    sqlite3_bind_text(ins, 6, key, -1, SQLITE_STATIC);
    sqlite3_bind_int64(ins, 7, DBG_C0);
    step_done(db, ins);
    sqlite3_bind_text(ins_state, 1, id, -1, SQLITE_STATIC);
    sqlite3_bind_int64(ins_state, 2, DBG_C0 + iv);
    sqlite3_bind_int64(ins_state, 3, DBG_C0);
    step_done(db, ins_state);
  }
  bench_exec(db, "COMMIT");
  double secs = bench_now() - t0;
  sqlite3_finalize(ins);
  sqlite3_finalize(ins_state);
  finish(db);
  return secs;
}
