/*
** events_tick.c -- what trigger_events costs the busy tick: a tick whose
** every fire completes its trigger (max_runs 1, {"ack":false}), so every
** fire writes one `completed` event, against the same tick by a build of
** the extension that writes no event (TRIGGERS_BENCH_NO_EVENTS, built by
** bench/run.sh), measured in the same run.
**
**   events_tick OURS_DB WORKDIR REPS NOEVENTS_SO K...
**
** OURS_DB (dbgen.h) is copied once into a template with max_runs = 1 on
** every trigger (set in the shadow table, extension not loaded). Each
** repetition copies the template twice and ticks each copy once at
** dbg_now_due(K) on a fresh connection, timed from the call to the end of
** its COMMIT plus a passive checkpoint (as busy_tick.c): once with the
** extension (K events), once with the no-event build. Checked: K runs,
** K completed triggers, K events (none with the other build). The ratio
** per repetition is fires/s with events over fires/s without (target
** >= 0.9x: an event costs the busy tick at most 10%).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbgen.h"

static sqlite3 *open_with(const char *path, const char *so) {
  sqlite3 *db = bench_open(path, so == NULL);
  if (so) {
    char *err = NULL;
    sqlite3_enable_load_extension(db, 1);
    if (sqlite3_load_extension(db, so, "sqlite3_triggers_init", &err) !=
        SQLITE_OK)
      bench_die("load %s: %s", so, err ? err : "?");
  }
  return db;
}

/* One tick of K completing fires; seconds. so: the no-event build, or
** NULL for the extension under test. */
static double tick_once(const char *tmpl, const char *work, i64 k,
                        const char *so) {
  bench_copy_file(tmpl, work);
  sqlite3 *db = open_with(work, so);
  double secs = bench_tick_timed(
      db, "SELECT trigger_run_due(?1, '{\"ack\":false}')", dbg_now_due(k));
  i64 runs = bench_query_i64(db, "SELECT count(*) FROM main.triggers_rundata");
  i64 done = bench_query_i64(
      db, "SELECT count(*) FROM main.triggers_data WHERE status = 'completed'");
  i64 events = bench_query_i64(
      db, "SELECT count(*) FROM main.triggers_events WHERE kind = 'completed'");
  if (runs != k || done != k || events != (so ? 0 : k)) {
    bench_die("K=%lld%s: %lld runs, %lld completed, %lld events", (long long)k,
              so ? " (no events)" : "", (long long)runs, (long long)done,
              (long long)events);
  }
  sqlite3_close(db);
  return secs;
}

int main(int argc, char **argv) {
  if (argc < 6)
    bench_die("usage: events_tick OURS_DB WORKDIR REPS NOEVENTS_SO K...");
  int reps = atoi(argv[3]);
  if (reps < 1 || reps > BENCH_MAXREP) bench_die("bad REPS");
  char tmpl[4096], we[4096], wn[4096];
  snprintf(tmpl, sizeof tmpl, "%s/events_tmpl.db", argv[2]);
  snprintf(we, sizeof we, "%s/events_on.db", argv[2]);
  snprintf(wn, sizeof wn, "%s/events_off.db", argv[2]);
  bench_copy_file(argv[1], tmpl);
  sqlite3 *db = bench_open(tmpl, 0);
  bench_exec(db, "UPDATE triggers_data SET max_runs = 1;"
                 "PRAGMA wal_checkpoint(TRUNCATE)");
  sqlite3_close(db);
  for (int a = 5; a < argc; a++) {
    i64 k = atoll(argv[a]);
    double f_on[BENCH_MAXREP], f_off[BENCH_MAXREP], ratio[BENCH_MAXREP];
    for (int r = 0; r < reps; r++) {
      f_on[r] = (double)k / tick_once(tmpl, we, k, NULL);
      f_off[r] = (double)k / tick_once(tmpl, wn, k, argv[4]);
      ratio[r] = f_on[r] / f_off[r];
    }
    char label[160], kk[16], a1[32], b1[32];
    bench_fmt_count(k, kk, sizeof kk);
    snprintf(label, sizeof label,
             "busy tick, %s fires each completing its trigger: fires/s with "
             "an event per fire vs without events",
             kk);
    bench_row(label, bench_fmt_rate(bench_median(f_on, reps), a1, sizeof a1),
              bench_fmt_rate(bench_median(f_off, reps), b1, sizeof b1), ratio,
              reps, ">=", 0.9, ">= 0.9x");
  }
  bench_rm_db(tmpl);
  bench_rm_db(we);
  bench_rm_db(wn);
  return 0;
}
