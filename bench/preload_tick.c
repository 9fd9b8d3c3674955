/*
** preload_tick.c -- what a fire-time preload (trigger_config('preload_sql'),
** docs/functions.md) costs a busy tick: the same tick of K due triggers
** with and without a preload query configured.
**
**   preload_tick OURS_DB WORKDIR REPS K
**
** OURS_DB (dbgen.h) is a template: each side of each repetition copies it
** to WORKDIR, opens a fresh connection, adds an application table
** memories(id, scope, kind, text) with an index on (scope, id) and 1,000
** rows in 200 scopes (untimed), then times SELECT trigger_run_due(?now)
** from the call to the end of its COMMIT plus a passive checkpoint, as
** busy_tick.c does:
**   ours      with preload_sql = PRELOAD below: per claimed run, the
**             latest 5 memories of the trigger's scope into
**             payload.preload (every trigger of the data set has scope
**             '', which holds 5 rows)
**   baseline  the same tick, no preload configured
** Both are checked: K runs recorded; with the preload, each payload holds
** 5 rows. The ratio per repetition is ours / baseline time (target <= 3x:
** the preload's prepared statement is kept, so each claim only binds and
** steps it). The two sides alternate which goes first.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbgen.h"

#define PRELOAD                                               \
  "SELECT id, kind, text FROM memories WHERE scope = :scope " \
  "ORDER BY id DESC LIMIT 5"
#define SCOPES 200
#define PER_SCOPE 5

static void add_memories(sqlite3 *db) {
  bench_exec(db, "BEGIN;"
                 "CREATE TABLE memories(id INTEGER PRIMARY KEY, scope TEXT,"
                 " kind TEXT, text TEXT);"
                 "CREATE INDEX memories_scope ON memories(scope, id)");
  sqlite3_stmt *ins = bench_prepare(
      db, "INSERT INTO memories(scope, kind, text) VALUES(?1, 'note', ?2)");
  for (int s = 0; s < SCOPES; s++) {
    for (int j = 0; j < PER_SCOPE; j++) {
      char scope[16], text[80];
      snprintf(scope, sizeof scope, s ? "s%d" : "", s);
      snprintf(text, sizeof text,
               "memory %d of scope %d: the user prefers short answers", j, s);
      sqlite3_bind_text(ins, 1, scope, -1, SQLITE_TRANSIENT);
      sqlite3_bind_text(ins, 2, text, -1, SQLITE_TRANSIENT);
      if (sqlite3_step(ins) != SQLITE_DONE)
        bench_die("memories: %s", sqlite3_errmsg(db));
      sqlite3_reset(ins);
    }
  }
  sqlite3_finalize(ins);
  bench_exec(db, "COMMIT");
}

/* One tick of k due on a fresh copy of tmpl; with_preload configures
** PRELOAD first. Seconds from the call to the end of the checkpoint. */
static double tick_once(const char *tmpl, const char *work, i64 k,
                        int with_preload) {
  bench_copy_file(tmpl, work);
  sqlite3 *db = bench_open(work, 1);
  add_memories(db);
  if (with_preload)
    bench_exec(db, "SELECT trigger_config('preload_sql', '" PRELOAD "')");
  bench_write_back(db);
  double secs =
      bench_tick_timed(db, "SELECT trigger_run_due(?1)", dbg_now_due(k));
  i64 runs = bench_query_i64(db, "SELECT count(*) FROM main.triggers_rundata");
  i64 full =
      bench_query_i64(db, "SELECT count(*) FROM main.triggers_rundata"
                          " WHERE json_array_length(payload, '$.preload') = 5");
  if (runs != k || full != (with_preload ? k : 0)) {
    bench_die("K=%lld preload %d: %lld runs, %lld with 5 preload rows",
              (long long)k, with_preload, (long long)runs, (long long)full);
  }
  sqlite3_close(db);
  return secs;
}

/* Average payload bytes of the run rows now in work. */
static double payload_avg(const char *work) {
  sqlite3 *db = bench_open(work, 0);
  i64 v = bench_query_i64(
      db, "SELECT avg(length(payload)) FROM main.triggers_rundata");
  sqlite3_close(db);
  return (double)v;
}

int main(int argc, char **argv) {
  if (argc != 5) bench_die("usage: preload_tick OURS_DB WORKDIR REPS K");
  int reps = atoi(argv[3]);
  i64 k = atoll(argv[4]);
  if (reps < 1 || reps > BENCH_MAXREP) bench_die("bad REPS");
  char wp[4096], wn[4096];
  snprintf(wp, sizeof wp, "%s/preload_with.db", argv[2]);
  snprintf(wn, sizeof wn, "%s/preload_without.db", argv[2]);
  double with[BENCH_MAXREP], without[BENCH_MAXREP], ratio[BENCH_MAXREP];
  for (int r = 0; r < reps; r++) {
    if (r % 2) {
      without[r] = tick_once(argv[1], wn, k, 0);
      with[r] = tick_once(argv[1], wp, k, 1);
    } else {
      with[r] = tick_once(argv[1], wp, k, 1);
      without[r] = tick_once(argv[1], wn, k, 0);
    }
    ratio[r] = with[r] / without[r];
  }
  char label[160], kk[16], a[32], b[32];
  bench_fmt_count(k, kk, sizeof kk);
  snprintf(label, sizeof label,
           "busy tick with preload_sql (5 rows per run), %s due: time vs the "
           "same tick without",
           kk);
  bench_row(label, bench_fmt_secs(bench_median(with, reps), a, sizeof a),
            bench_fmt_secs(bench_median(without, reps), b, sizeof b), ratio,
            reps, "<=", 3.0, "<= 3x");
  bench_note("preload tick run rows: payload %.0f bytes with the preload, "
             "%.0f without",
             payload_avg(wp), payload_avg(wn));
  bench_rm_db(wp);
  bench_rm_db(wn);
  return 0;
}
