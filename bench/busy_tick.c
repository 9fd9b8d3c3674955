/*
** busy_tick.c -- a tick that fires K of N triggers, against a plain-SQL
** tick doing the same writes set-based in one transaction.
**
**   busy_tick N OURS_DB PLAIN_DB WORKDIR REPS K...
**
** OURS_DB and PLAIN_DB (dbgen.h, N triggers) are templates: every
** repetition copies one to WORKDIR, opens a fresh connection (cold SQLite
** cache, warm OS cache, default 2 MiB cache_size) and times one tick at
** dbg_now_due(K), from the call to the end of its COMMIT plus a passive
** checkpoint (bench_write_back(): a commit past 1000 WAL pages checkpoints by
** itself, a smaller one would otherwise leave its write-back unpaid):
**   ours   SELECT trigger_run_due(?now) -- default options (ack): per
**          fire one run row ('running', with a lease) and the trigger's
**          schedule advanced, the same two writes as the baseline. Not
**          {"ack":false}: that also fills the trigger's last_run_at and
**          last_status, which on a trigger's first fire (every fire here)
**          grows its row and splits ~2.8 table pages per fire instead of
**          ~1 (see bench/README.md) -- work the baseline does not do.
**   plain  BEGIN IMMEDIATE;
**          INSERT INTO runs(run_id, trigger_id, agent_id, scheduled_for,
**            attempt, status, owner, claimed_at, finished_at, latency_ms,
**            payload) SELECT ..., json_object(<the extension's payload
**            keys>) FROM triggers WHERE next_due <= ?now;
**          UPDATE triggers SET next_due = next_due + interval_ms
**            WHERE next_due <= ?now;
**          COMMIT
**        runs has the extension's unique keys (run_id, and
**        (trigger_id, scheduled_for, attempt)) and a payload of the same
**        shape and size, so both sides write comparable rows.
**   shadow (diagnostic row, no target) the same set-based SQL, with the
**          same run row, run on a copy of OUR database with the extension
**          not loaded: it writes into triggers_state / triggers_rundata,
**          so it pays for the extension's schema (row width, indexes) but
**          not for its code. ours/shadow isolates the C code's overhead;
**          shadow/plain is what the schema costs.
** All are checked: exactly K runs recorded, no trigger left due. The
** ratio per repetition is ours_fires_per_sec / plain_fires_per_sec
** (target >= 0.8x at 10k and 100k, >= 0.7x at 1k: issue 35; 0.6x before
** issue #22). Average run-row payload
** sizes are printed as a NOTE.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbgen.h"

static double tick_ours(const char *tmpl, const char *work, i64 k) {
  bench_copy_file(tmpl, work);
  sqlite3 *db = bench_open(work, 1);
  double secs =
      bench_tick_timed(db, "SELECT trigger_run_due(?1)", dbg_now_due(k));
  i64 runs = bench_query_i64(db, "SELECT count(*) FROM main.triggers_rundata");
  char sql[160];
  snprintf(sql, sizeof sql,
           "SELECT count(*) FROM main.triggers_state WHERE fire_at <= %lld",
           (long long)dbg_now_due(k));
  i64 left = bench_query_i64(db, sql);
  if (runs != k || left != 0) {
    bench_die("ours K=%lld: %lld runs, %lld still due", (long long)k,
              (long long)runs, (long long)left);
  }
  sqlite3_close(db);
  return secs;
}

/* The set-based statements: on the plain tables (shadow 0) or on a copy
** of the extension's own shadow tables (shadow 1, same rows and indexes,
** extension not loaded). */
static const char *const set_sql[2][2] = {
    {"INSERT INTO runs(run_id, trigger_id, agent_id, scheduled_for, attempt,"
     " status, owner, claimed_at, finished_at, latency_ms, payload)"
     " SELECT trigger_id || '@' || next_due || '#1', trigger_id, '', next_due,"
     " 1, 'success', '', ?1, ?1, 0,"
     " json_object('text', instructions, 'source', 'trigger',"
     "  'triggerId', trigger_id,"
     "  'triggerRunId', trigger_id || '@' || next_due || '#1',"
     "  'wakeMode', 'next_autonomy_cycle', 'displayName', substr(instructions, 1, 30),"
     "  'scope', '', 'scheduledFor', next_due)"
     " FROM triggers WHERE next_due <= ?1",
     "UPDATE triggers SET next_due = next_due + interval_ms WHERE next_due <= ?1"},
    {"INSERT INTO triggers_rundata(run_id, trigger_id, agent_id, scheduled_for,"
     " attempt, status, owner, claimed_at, lease_until, latency_ms, payload,"
     " deferrals)"
     " SELECT s.trigger_id || '@' || s.next_due_at || '#1', s.trigger_id,"
     " s.agent_id, s.next_due_at, 1, 'running', '', ?1, ?1 + 60000, NULL,"
     " json_object('text', d.instructions, 'source', 'trigger',"
     "  'triggerId', s.trigger_id,"
     "  'triggerRunId', s.trigger_id || '@' || s.next_due_at || '#1',"
     "  'wakeMode', d.wake_mode, 'displayName', d.display_name,"
     "  'scope', d.scope, 'scheduledFor', s.next_due_at), 0"
     " FROM triggers_state AS s JOIN triggers_data AS d ON d.id = s.id"
     " WHERE s.next_due_at <= ?1",
     "UPDATE triggers_state SET next_due_at = next_due_at"
     " + (SELECT interval_ms FROM triggers_data AS d WHERE d.id = triggers_state.id),"
     " fire_at = fire_at"
     " + (SELECT interval_ms FROM triggers_data AS d WHERE d.id = triggers_state.id),"
     " claims = claims + 1, running = running + 1, updated_at = ?1"
     " WHERE next_due_at <= ?1"}};

static double tick_plain(const char *tmpl, const char *work, i64 k,
                         int shadow) {
  bench_copy_file(tmpl, work);
  sqlite3 *db = bench_open(work, 0);
  sqlite3_stmt *begin = bench_prepare(db, "BEGIN IMMEDIATE");
  sqlite3_stmt *ins = bench_prepare(db, set_sql[shadow][0]);
  sqlite3_stmt *upd = bench_prepare(db, set_sql[shadow][1]);
  sqlite3_stmt *commit = bench_prepare(db, "COMMIT");
  i64 now = dbg_now_due(k);
  sqlite3_bind_int64(ins, 1, now);
  sqlite3_bind_int64(upd, 1, now);
  double t0 = bench_now();
  sqlite3_stmt *seq[] = {begin, ins, upd, commit};
  for (int i = 0; i < 4; i++) {
    if (sqlite3_step(seq[i]) != SQLITE_DONE)
      bench_die("plain tick: %s", sqlite3_errmsg(db));
  }
  bench_write_back(db);
  double secs = bench_now() - t0;
  for (int i = 0; i < 4; i++) sqlite3_finalize(seq[i]);
  i64 runs =
      bench_query_i64(db, shadow ? "SELECT count(*) FROM triggers_rundata"
                                 : "SELECT count(*) FROM runs");
  char sql[128];
  snprintf(sql, sizeof sql,
           shadow ? "SELECT count(*) FROM triggers_state WHERE fire_at <= %lld"
                  : "SELECT count(*) FROM triggers WHERE next_due <= %lld",
           (long long)now);
  i64 left = bench_query_i64(db, sql);
  if (runs != k || left != 0) {
    bench_die("plain K=%lld: %lld runs, %lld still due", (long long)k,
              (long long)runs, (long long)left);
  }
  sqlite3_close(db);
  return secs;
}

/* Average payload bytes of the run rows now in work (last repetition). */
static double payload_avg(const char *work, int ext) {
  sqlite3 *db = bench_open(work, 0);
  i64 v = bench_query_i64(
      db, ext ? "SELECT avg(length(payload)) FROM triggers_rundata"
              : "SELECT avg(length(payload)) FROM runs");
  sqlite3_close(db);
  return (double)v;
}

int main(int argc, char **argv) {
  if (argc < 7)
    bench_die("usage: busy_tick N OURS_DB PLAIN_DB WORKDIR REPS K...");
  i64 n = atoll(argv[1]);
  int reps = atoi(argv[5]);
  if (reps < 1 || reps > BENCH_MAXREP) bench_die("bad REPS");
  char wo[4096], wp[4096], ws[4096];
  snprintf(wo, sizeof wo, "%s/busy_ours.db", argv[4]);
  snprintf(wp, sizeof wp, "%s/busy_plain.db", argv[4]);
  snprintf(ws, sizeof ws, "%s/busy_shadow.db", argv[4]);
  char nn[16], kk[16];
  bench_fmt_count(n, nn, sizeof nn);
  for (int a = 6; a < argc; a++) {
    i64 k = atoll(argv[a]);
    double f_ours[BENCH_MAXREP], f_plain[BENCH_MAXREP], f_shadow[BENCH_MAXREP];
    double ratio[BENCH_MAXREP], r_shadow[BENCH_MAXREP];
    for (int r = 0; r < reps; r++) {
      f_ours[r] = (double)k / tick_ours(argv[2], wo, k);
      f_plain[r] = (double)k / tick_plain(argv[3], wp, k, 0);
      f_shadow[r] = (double)k / tick_plain(argv[2], ws, k, 1);
      ratio[r] = f_ours[r] / f_plain[r];
      r_shadow[r] = f_ours[r] / f_shadow[r];
    }
    char label[160], a1[32], b1[32];
    bench_fmt_count(k, kk, sizeof kk);
    snprintf(label, sizeof label,
             "busy tick, %s due of %s: fires/s vs plain-SQL set-based tick", kk,
             nn);
    bench_row(label, bench_fmt_rate(bench_median(f_ours, reps), a1, sizeof a1),
              bench_fmt_rate(bench_median(f_plain, reps), b1, sizeof b1), ratio,
              reps, ">=", k < 10000 ? 0.7 : 0.8,
              k < 10000 ? ">= 0.7x" : ">= 0.8x");
    snprintf(
        label, sizeof label,
        "(diagnostic) busy tick, %s due: fires/s vs the same set-based SQL on our own tables",
        kk);
    bench_row(label, bench_fmt_rate(bench_median(f_ours, reps), a1, sizeof a1),
              bench_fmt_rate(bench_median(f_shadow, reps), b1, sizeof b1),
              r_shadow, reps, NULL, 0, "(info)");
    if (a == argc - 1) {
      bench_note(
          "busy tick run rows: payload %.0f bytes (ours) vs %.0f bytes (plain)",
          payload_avg(wo, 1), payload_avg(wp, 0));
    }
  }
  bench_rm_db(wo);
  bench_rm_db(wp);
  bench_rm_db(ws);
  return 0;
}
