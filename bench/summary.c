/*
** summary.c -- trigger_state_summary with 100k runs and 5k admin items,
** against a plain SELECT of the same rows.
**
**   summary [RUNS [ADMIN [REPS]]]        (defaults 100000 5000 7)
**   sh bench/summary.sh                  (builds, runs, prints "| summary |")
**
** One in-memory database: RUNS finished runs of agent a1 and two other
** agents (success, failed, skipped), three triggers of a1 with recent
** runs, and an options object with ADMIN items ({ts, text, resolved},
** some carrying a password= to redact, half of them stale). Per
** repetition, measured back to back on one connection with statements
** prepared once:
**   ours   SELECT trigger_state_summary('a1', ?now, ?options)
**   plain  the rows the summary reads, selected and stepped with every
**          column fetched and nothing formatted: the admin items
**          (json_each over the same options, ts/text/resolved), the
**          latest failure, the latest 3 successes (each joined to its
**          trigger) and the next 5 pending triggers, through the same
**          indexes
** Each is the median per-call time over a 0.2 s batch (at least 20
** calls); the ratio ours/plain is taken per repetition and printed as
** median [min-max] in the ROW line. Information only: no target. A NOTE
** line repeats the measurement with options '{}' (no admin items): the
** fixed cost of a call, where ours prepares its statements per call.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"

#define BATCH_SECS 0.2
#define MAX_CALLS 100000

static const i64 T0 = 1767225600000; /* 2026-01-01T00:00:00Z */

static double samples[MAX_CALLS];

typedef struct ctx {
  sqlite3 *db;
  sqlite3_stmt *ours;
  sqlite3_stmt *plain[4];
  int expect_admin; /* the plain admin query must return rows */
} ctx;

static double timed(void (*fn)(ctx *), ctx *c) {
  int n = 0;
  double start = bench_now();
  while (n < MAX_CALLS && (n < 20 || bench_now() - start < BATCH_SECS)) {
    double t0 = bench_now();
    fn(c);
    samples[n++] = bench_now() - t0;
  }
  return bench_median(samples, n);
}

static void do_ours(ctx *c) {
  if (sqlite3_step(c->ours) != SQLITE_ROW)
    bench_die("summary: %s", sqlite3_errmsg(c->db));
  const char *out = (const char *)sqlite3_column_text(c->ours, 0);
  if (!out || strncmp(out, "Admin:", 6) != 0)
    bench_die("unexpected summary: %.80s", out);
  sqlite3_reset(c->ours);
}

static void do_plain(ctx *c) {
  for (int q = 0; q < 4; q++) {
    sqlite3_stmt *st = c->plain[q];
    int rc, cols = sqlite3_column_count(st);
    size_t bytes = 0;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
      for (int k = 0; k < cols; k++) {
        const unsigned char *t = sqlite3_column_text(st, k);
        bytes += t ? strlen((const char *)t) : 0;
      }
    }
    if (rc != SQLITE_DONE) bench_die("plain: %s", sqlite3_errmsg(c->db));
    sqlite3_reset(st);
    if (q == 0 && c->expect_admin && bytes == 0)
      bench_die("plain: no admin items read");
  }
}

static void fill(sqlite3 *db, i64 runs) {
  char sql[2048];
  bench_exec(db, "SELECT trigger_install()");
  bench_exec(db, "BEGIN");
  snprintf(
      sql, sizeof sql,
      "WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < %lld)"
      " INSERT INTO triggers_rundata(run_id, trigger_id, agent_id, scheduled_for,"
      " attempt, status, claimed_at, finished_at, latency_ms, error)"
      " SELECT 'old' || (i %% 50) || '@' || (%lld + i) || '#1', 'old' || (i %% 50),"
      " CASE WHEN i %% 10 < 8 THEN 'a1' ELSE 'a' || (i %% 10) END, %lld + i, 1,"
      " CASE i %% 4 WHEN 0 THEN 'failed' WHEN 1 THEN 'skipped' ELSE 'success' END,"
      " %lld + i, %lld + i + 5, 5, CASE WHEN i %% 4 = 0 THEN 'old error ' || i END FROM k",
      (long long)runs, (long long)(T0 - 1000000000),
      (long long)(T0 - 1000000000), (long long)(T0 - 1000000000),
      (long long)(T0 - 1000000000));
  bench_exec(db, sql);
  bench_exec(db, "COMMIT");
  bench_exec(
      db,
      "INSERT INTO triggers(trigger_id, agent_id, display_name, instructions,"
      " trigger_type, interval_ms, created_at, max_attempts, backoff_ms) VALUES"
      " ('build', 'a1', 'Check the build', 'Check the build', 'interval', 60000,"
      "  1767225600000, 1, 30000),"
      " ('market', 'a1', NULL, 'Summarize overnight market moves', 'interval', 60000,"
      "  1767225600000, 3, 600000),"
      " ('digest', 'a1', 'Daily digest', 'Write the digest', 'interval', 3600000,"
      "  1767225600000, 1, 30000)");
  for (int k = 1; k <= 3; k++) {
    i64 now = T0 + k * 60000;
    sqlite3_stmt *st =
        bench_prepare(db, "SELECT json_extract(value, '$.run_id')"
                          " FROM json_each(trigger_run_due(?1))");
    sqlite3_stmt *fin =
        bench_prepare(db, "SELECT trigger_run_finish(?1, ?2, ?3, ?4)");
    sqlite3_bind_int64(st, 1, now);
    char ids[8][128];
    int n = 0;
    while (n < 8 && sqlite3_step(st) == SQLITE_ROW) {
      snprintf(ids[n], sizeof ids[n], "%s",
               (const char *)sqlite3_column_text(st, 0));
      n += 1;
    }
    sqlite3_finalize(st);
    for (int i = 0; i < n; i++) {
      int failed = k == 3 && strncmp(ids[i], "market@", 7) == 0;
      sqlite3_bind_text(fin, 1, ids[i], -1, SQLITE_STATIC);
      sqlite3_bind_text(fin, 2, failed ? "failed" : "success", -1,
                        SQLITE_STATIC);
      if (failed)
        sqlite3_bind_text(fin, 3, "HTTP 503 from upstream", -1, SQLITE_STATIC);
      else sqlite3_bind_null(fin, 3);
      sqlite3_bind_int64(fin, 4, now + 500);
      if (sqlite3_step(fin) != SQLITE_ROW)
        bench_die("finish: %s", sqlite3_errmsg(db));
      sqlite3_reset(fin);
    }
    sqlite3_finalize(fin);
  }
}

/* The options object: n admin items, one per second up to now. */
static char *options(sqlite3 *db, i64 n, i64 now) {
  sqlite3_stmt *st = bench_prepare(
      db,
      "WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < ?1)"
      " SELECT json_object('stale_ms', ?1 * 500, 'admin', json_group_array(json_object("
      "  'ts', ?2 - (?1 - i) * 1000,"
      "  'text', 'directive ' || i || ': '"
      "          || substr('check the nightly report and post a short note', 1, 20 + i % 30)"
      "          || CASE WHEN i % 7 = 0 THEN ' password=pw' || i ELSE '' END,"
      "  'resolved', json(CASE WHEN i % 2 THEN 'true' ELSE 'false' END))))"
      " FROM k");
  sqlite3_bind_int64(st, 1, n);
  sqlite3_bind_int64(st, 2, now);
  if (sqlite3_step(st) != SQLITE_ROW)
    bench_die("options: %s", sqlite3_errmsg(db));
  char *out = strdup((const char *)sqlite3_column_text(st, 0));
  sqlite3_finalize(st);
  if (!out) bench_die("out of memory");
  return out;
}

static const char *const plain_sql[4] = {
    "SELECT json_extract(value, '$.ts'), json_extract(value, '$.text'),"
    " json_extract(value, '$.resolved') FROM json_each(?1, '$.admin')",
    "SELECT r.trigger_id, r.finished_at, r.error, r.retry_at, d.display_name,"
    " d.instructions, d.status, s.next_due_at, s.fail_streak"
    " FROM triggers_rundata r LEFT JOIN triggers_data d ON d.trigger_id = r.trigger_id"
    " AND d.incarnation = r.incarnation LEFT JOIN triggers_state s ON s.id = d.id"
    " WHERE r.agent_id = 'a1' AND r.status = 'failed' AND r.finished_at <= ?2"
    " ORDER BY r.finished_at DESC, r.id DESC LIMIT 1",
    "SELECT r.trigger_id, r.finished_at, r.result, d.display_name, d.instructions"
    " FROM triggers_rundata r LEFT JOIN triggers_data d ON d.trigger_id = r.trigger_id"
    " AND d.incarnation = r.incarnation WHERE r.agent_id = 'a1' AND r.status = 'success' AND r.finished_at <= ?2"
    " ORDER BY r.finished_at DESC, r.id DESC LIMIT 3",
    "SELECT s.trigger_id, d.display_name, d.instructions, s.next_due_at"
    " FROM triggers_state s JOIN triggers_data d ON d.id = s.id"
    " WHERE s.agent_id = 'a1' AND s.agent_id <> '' AND d.status = 'scheduled'"
    " AND s.next_due_at IS NOT NULL ORDER BY s.next_due_at, s.trigger_id LIMIT 5",
};

/* Bind now and the options text to every statement. */
static void bind_all(ctx *c, i64 now, const char *opts) {
  sqlite3_bind_int64(c->ours, 1, now);
  sqlite3_bind_text(c->ours, 2, opts, -1, SQLITE_STATIC);
  for (int q = 0; q < 4; q++) {
    int np = sqlite3_bind_parameter_count(c->plain[q]);
    if (np >= 1) sqlite3_bind_text(c->plain[q], 1, opts, -1, SQLITE_STATIC);
    if (np >= 2) sqlite3_bind_int64(c->plain[q], 2, now);
  }
  c->expect_admin = strcmp(opts, "{}") != 0;
  do_ours(c); /* warm up both */
  do_plain(c);
}

/* reps repetitions: per-call medians of ours and plain, their ratios. */
static void measure(ctx *c, int reps, double *ours, double *plain,
                    double *ratios) {
  for (int r = 0; r < reps; r++) {
    ours[r] = timed(do_ours, c);
    plain[r] = timed(do_plain, c);
    ratios[r] = ours[r] / plain[r];
  }
}

int main(int argc, char **argv) {
  i64 runs = argc > 1 ? atoll(argv[1]) : 100000;
  i64 admin = argc > 2 ? atoll(argv[2]) : 5000;
  int reps = argc > 3 ? atoi(argv[3]) : 7;
  if (runs < 1 || admin < 1 || reps < 1 || reps > BENCH_MAXREP) {
    bench_die("usage: summary [RUNS [ADMIN [REPS]]] (REPS 1..%d)",
              BENCH_MAXREP);
  }
  ctx c = {0};
  c.db = bench_open(":memory:", 1);
  fill(c.db, runs);
  i64 now = T0 + 10 * 60000;
  char *opts = options(c.db, admin, now);
  c.ours = bench_prepare(c.db, "SELECT trigger_state_summary('a1', ?1, ?2)");
  for (int q = 0; q < 4; q++) c.plain[q] = bench_prepare(c.db, plain_sql[q]);
  double ratios[BENCH_MAXREP], ours[BENCH_MAXREP], plain[BENCH_MAXREP];
  char a[32], b[32], x[32], y[32], z[32];

  bind_all(&c, now, opts);
  measure(&c, reps, ours, plain, ratios);
  bench_row("summary", bench_fmt_secs(bench_median(ours, reps), a, sizeof a),
            bench_fmt_secs(bench_median(plain, reps), b, sizeof b), ratios,
            reps, NULL, 0, NULL);
  bench_note(
      "summary: %lld runs, %lld admin items, %d repetitions, ours/plain per"
      " repetition; plain = the same rows selected without formatting, redaction"
      " or truncation",
      (long long)runs, (long long)admin, reps);

  bind_all(&c, now, "{}"); /* the fixed cost: no admin items */
  measure(&c, reps, ours, plain, ratios);
  bench_note(
      "summary without admin items: ours %s, plain %s, ratio %s [%s-%s] (four"
      " statements prepared per call against plain ones prepared once)",
      bench_fmt_secs(bench_median(ours, reps), a, sizeof a),
      bench_fmt_secs(bench_median(plain, reps), b, sizeof b),
      bench_fmt_ratio(bench_median(ratios, reps), x, sizeof x),
      bench_fmt_ratio(bench_min(ratios, reps), y, sizeof y),
      bench_fmt_ratio(bench_max(ratios, reps), z, sizeof z));

  for (int q = 0; q < 4; q++) sqlite3_finalize(c.plain[q]);
  sqlite3_finalize(c.ours);
  sqlite3_close(c.db);
  free(opts);
  return 0;
}
