/*
** signal.c -- the two reactive rows (docs/reactive.md): what a signal
** costs, and what chains cost the busy tick.
**
**   signal OURS_DB WORKDIR REPS K
**
** Signal row: a database of 100k event triggers, each with a key of its
** own (`key:<i>`, created through `INSERT INTO triggers`), against a plain
** table of the same rows with an index on the key. Per repetition, 2,000
** signals on keys spread over the table (dbg_perm), each making one
** trigger due: ours `SELECT trigger_signal(?key, NULL, ?now)`, the
** baseline `UPDATE ... SET next_due, event_count + 1, event_at, payload
** WHERE event_key = ? AND status = 'scheduled'`, both prepared once and
** run in one transaction per batch, back to back. Checked: each signal
** made one trigger due. Ratio: signals/s over updates/s (target >= 0.5x).
**
** Chain row: OURS_DB (dbgen.h) plus one event trigger per trigger,
** keyed `run:<trigger_id>:success` (the chain of docs/reactive.md#chains)
** in one template, keyed `none:<trigger_id>` (never signalled: the same
** rows, no chain) in the other. Each repetition ticks a copy of each
** once at dbg_now_due(K) with {"ack":false} (every fire a success at
** once, so every fire chains), timed as busy_tick.c (call to COMMIT plus
** a passive checkpoint, fresh connection). A chained trigger made due by
** one batch of the tick is claimed by a later batch of the same tick
** (about 95% of them at K = 10k), so fires counts every run the tick
** claimed. Checked: without chains K runs and no event trigger due; with
** chains every one of the K chained triggers fired or due. Ratio: fires/s
** with chains over fires/s without (target >= 0.7x).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbgen.h"

#define SIG_N 100000 /* event triggers of the signal row */
#define SIG_BATCH 2000

/* INSERT n event triggers through the extension: key fmt % trigger id. */
static void add_event_triggers(sqlite3 *db, i64 n, const char *prefix,
                               int by_trigger_id) {
  sqlite3_stmt *st = bench_prepare(
      db, "INSERT INTO triggers(trigger_id, instructions, trigger_type, "
          "event_key) VALUES (?1, 'react', 'event', ?2)");
  bench_exec(db, "BEGIN");
  for (i64 i = 0; i < n; i++) {
    char tid[32], id[40], key[64];
    dbg_trigger_id(i, tid, sizeof tid);
    snprintf(id, sizeof id, "e%s", tid);
    if (by_trigger_id) snprintf(key, sizeof key, "%s%s:success", prefix, tid);
    else snprintf(key, sizeof key, "%s%lld", prefix, (long long)i);
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, key, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st) != SQLITE_DONE)
      bench_die("insert event trigger: %s", sqlite3_errmsg(db));
    sqlite3_reset(st);
  }
  bench_exec(db, "COMMIT; PRAGMA wal_checkpoint(TRUNCATE)");
  sqlite3_finalize(st);
}

static void build_plain(sqlite3 *db) {
  bench_exec(db, "CREATE TABLE ev(id INTEGER PRIMARY KEY, trigger_id TEXT, "
                 "instructions TEXT, event_key TEXT, status TEXT, "
                 "next_due INTEGER, event_count INTEGER, event_at INTEGER, "
                 "payload TEXT);"
                 "CREATE INDEX ev_key ON ev(event_key) WHERE status = "
                 "'scheduled'; BEGIN");
  sqlite3_stmt *st = bench_prepare(
      db, "INSERT INTO ev(trigger_id, instructions, event_key, status, "
          "event_count) VALUES (?1, 'react', ?2, 'scheduled', 0)");
  for (i64 i = 0; i < SIG_N; i++) {
    char tid[32], id[40], key[64];
    dbg_trigger_id(i, tid, sizeof tid);
    snprintf(id, sizeof id, "e%s", tid);
    snprintf(key, sizeof key, "key:%lld", (long long)i);
    sqlite3_bind_text(st, 1, id, -1, SQLITE_TRANSIENT);
    sqlite3_bind_text(st, 2, key, -1, SQLITE_TRANSIENT);
    if (sqlite3_step(st) != SQLITE_DONE)
      bench_die("insert plain: %s", sqlite3_errmsg(db));
    sqlite3_reset(st);
  }
  sqlite3_finalize(st);
  bench_exec(db, "COMMIT; PRAGMA wal_checkpoint(TRUNCATE)");
}

/* One batch of signals, keys from rep; signals/s. plain: the baseline. */
static double signal_batch(sqlite3 *db, sqlite3_stmt *st, int rep, int plain) {
  double t0 = bench_now();
  bench_exec(db, "BEGIN");
  for (int j = 0; j < SIG_BATCH; j++) {
    i64 i = dbg_perm(SIG_N, ((i64)rep * SIG_BATCH + j) % SIG_N);
    char key[64];
    snprintf(key, sizeof key, "key:%lld", (long long)i);
    sqlite3_bind_text(st, 1, key, -1, SQLITE_TRANSIENT);
    sqlite3_bind_int64(st, 2, DBG_C0 + rep * SIG_BATCH + j);
    int rc = sqlite3_step(st);
    i64 made = plain ? sqlite3_changes(db) : sqlite3_column_int64(st, 0);
    if ((plain ? rc != SQLITE_DONE : rc != SQLITE_ROW) || made != 1)
      bench_die("signal %s: %s (%lld made due)", key, sqlite3_errmsg(db),
                (long long)made);
    sqlite3_reset(st);
  }
  bench_exec(db, "COMMIT");
  return SIG_BATCH / (bench_now() - t0);
}

static void signal_row(const char *dir, int reps) {
  char po[4096], pp[4096];
  snprintf(po, sizeof po, "%s/signal_ours.db", dir);
  snprintf(pp, sizeof pp, "%s/signal_plain.db", dir);
  bench_rm_db(po);
  bench_rm_db(pp);
  sqlite3 *ours = bench_open(po, 1), *plain = bench_open(pp, 0);
  bench_exec(ours, "SELECT trigger_install()");
  add_event_triggers(ours, SIG_N, "key:", 0);
  build_plain(plain);
  sqlite3_stmt *so = bench_prepare(ours, "SELECT trigger_signal(?1, NULL, ?2)");
  sqlite3_stmt *sp = bench_prepare(
      plain, "UPDATE ev SET next_due = ?2, event_count = event_count + 1, "
             "event_at = ?2, payload = NULL WHERE event_key = ?1 AND "
             "status = 'scheduled'");
  double r_o[BENCH_MAXREP], r_p[BENCH_MAXREP], ratio[BENCH_MAXREP];
  for (int r = 0; r < reps; r++) {
    r_o[r] = signal_batch(ours, so, r, 0);
    r_p[r] = signal_batch(plain, sp, r, 1);
    ratio[r] = r_o[r] / r_p[r];
  }
  sqlite3_finalize(so);
  sqlite3_finalize(sp);
  sqlite3_close(ours);
  sqlite3_close(plain);
  char a1[32], b1[32];
  bench_row("signal making 1 of 100k event triggers due: signals/s vs an "
            "indexed UPDATE on a plain table",
            bench_fmt_rate(bench_median(r_o, reps), a1, sizeof a1),
            bench_fmt_rate(bench_median(r_p, reps), b1, sizeof b1), ratio, reps,
            ">=", 0.5, ">= 0.5x");
  bench_rm_db(po);
  bench_rm_db(pp);
}

/* One tick of K fires, each a success at once; fires/s. chains: how many
** event triggers it must have made due (K or 0). */
static double chain_tick(const char *tmpl, const char *work, i64 k,
                         i64 chains) {
  bench_copy_file(tmpl, work);
  sqlite3 *db = bench_open(work, 1);
  double secs = bench_tick_timed(
      db, "SELECT trigger_run_due(?1, '{\"ack\":false}')", dbg_now_due(k));
  i64 runs = bench_query_i64(db, "SELECT count(*) FROM main.triggers_rundata");
  i64 due = bench_query_i64(db, "SELECT count(*) FROM triggers WHERE "
                                "trigger_type = 'event' AND next_due_at IS "
                                "NOT NULL");
  /* each chained trigger fired in this tick (a later batch claims it) or
  ** waits due for the next one */
  if (runs < k || runs - k + due != chains)
    bench_die("K=%lld: %lld runs, %lld event triggers due (want %lld chains)",
              (long long)k, (long long)runs, (long long)due, (long long)chains);
  sqlite3_close(db);
  return (double)runs / secs;
}

static void chain_template(const char *from, const char *to, const char *pfx,
                           int chained) {
  bench_copy_file(from, to);
  sqlite3 *db = bench_open(to, 1);
  add_event_triggers(db, SIG_N, pfx, chained);
  sqlite3_close(db);
}

static void chain_row(const char *ours_db, const char *dir, int reps, i64 k) {
  char tc[4096], tn[4096], wc[4096], wn[4096];
  snprintf(tc, sizeof tc, "%s/chain_tmpl.db", dir);
  snprintf(tn, sizeof tn, "%s/nochain_tmpl.db", dir);
  snprintf(wc, sizeof wc, "%s/chain_work.db", dir);
  snprintf(wn, sizeof wn, "%s/nochain_work.db", dir);
  chain_template(ours_db, tc, "run:", 1);
  chain_template(ours_db, tn, "none:", 1);
  double f_c[BENCH_MAXREP], f_n[BENCH_MAXREP], ratio[BENCH_MAXREP];
  for (int r = 0; r < reps; r++) {
    f_c[r] = chain_tick(tc, wc, k, k);
    f_n[r] = chain_tick(tn, wn, k, 0);
    ratio[r] = f_c[r] / f_n[r];
  }
  char label[160], kk[16], a1[32], b1[32];
  bench_fmt_count(k, kk, sizeof kk);
  snprintf(label, sizeof label,
           "busy tick, %s fires each chaining to an event trigger: fires/s "
           "with chains vs without",
           kk);
  bench_row(label, bench_fmt_rate(bench_median(f_c, reps), a1, sizeof a1),
            bench_fmt_rate(bench_median(f_n, reps), b1, sizeof b1), ratio, reps,
            ">=", 0.7, ">= 0.7x");
  bench_rm_db(tc);
  bench_rm_db(tn);
  bench_rm_db(wc);
  bench_rm_db(wn);
}

int main(int argc, char **argv) {
  if (argc != 5) bench_die("usage: signal OURS_DB WORKDIR REPS K");
  int reps = atoi(argv[3]);
  if (reps < 1 || reps > BENCH_MAXREP) bench_die("bad REPS");
  signal_row(argv[2], reps);
  chain_row(argv[1], argv[2], reps, atoll(argv[4]));
  return 0;
}
