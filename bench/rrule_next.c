/*
** rrule_next.c -- rrule next-due throughput against cron's, on the same
** schedules: bench/rrule_mix.txt's rules say what the cron expressions of
** bench/cron_mix.txt say, computed in its zones from its start instants.
**
**   rrule_next CRON_MIX RRULE_MIX REPS
**
** cron   cron_parse once per expression, then cron_next() for every
**        (expression, zone, start) -- the C API, as bench/cron_next.c.
** rrule  rrule_compile once per rule, then rrule_next() with DTSTART the
**        mix's D line for every (rule, zone, start) -- ext/time/rrule.h.
** Both linked directly, no SQLite; each repetition runs whole passes for at
** least 0.5 s, the ratio is rrule's rate over cron's (repetition by
** repetition). The results are compared and the agreement is a NOTE:
** they differ only where a time falls in a DST gap (cron runs a fixed time
** at the gap's end and skips a stepped one, docs/cron.md; RFC 5545 moves
** it forward by the gap's length, docs/calendar.md).
** Target: rrule within 3x of cron (ratio >= 0.33).
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "time/cron.h"
#include "time/rrule.h"
#include "time/tzdb.h"

#define MAXN 64

static char exprs[MAXN][128], rules[MAXN][512], zones[MAXN][64];
static i64 starts[MAXN], dtstart;
static int ne, nr, nz, nt;
static cron_expr crons[MAXN];
static rrule_set sets[MAXN];
static const tz_zone *zptr[MAXN];

static void read_mix(const char *path) {
  FILE *f = fopen(path, "r");
  char line[1024];
  if (!f) bench_die("cannot read %s", path);
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = 0;
    if (strncmp(line, "E ", 2) == 0 && ne < MAXN)
      bench_strcpy(exprs[ne++], sizeof exprs[0], line + 2);
    else if (strncmp(line, "R ", 2) == 0 && nr < MAXN) {
      bench_strcpy(rules[nr], sizeof rules[0], line + 2);
      for (char *p = rules[nr]; *p; p++)
        if (*p == '|') *p = '\n';
      nr++;
    } else if (strncmp(line, "Z ", 2) == 0 && nz < MAXN)
      bench_strcpy(zones[nz++], sizeof zones[0], line + 2);
    else if (strncmp(line, "T ", 2) == 0 && nt < MAXN)
      starts[nt++] = atoll(line + 2);
    else if (strncmp(line, "D ", 2) == 0) dtstart = atoll(line + 2);
  }
  fclose(f);
}

/* One pass over the mix: cron (which 0) or rrule (1); out gets the
** results (NULL: none kept). */
static long pass(int which, i64 *out) {
  long n = 0;
  for (int e = 0; e < ne; e++) {
    for (int z = 0; z < nz; z++) {
      for (int t = 0; t < nt; t++, n++) {
        int64_t next = -1;
        int ok = which ? rrule_next(&sets[e], dtstart, zptr[z], starts[t],
                                    &next) == 1
                       : cron_next(&crons[e], zptr[z], starts[t], &next);
        if (out) out[n] = ok ? next : -1;
      }
    }
  }
  return n;
}

static double rate(int which) {
  long n = 0;
  double t0 = bench_now(), secs;
  do {
    n += pass(which, NULL);
  } while ((secs = bench_now() - t0) < 0.5);
  return (double)n / secs;
}

int main(int argc, char **argv) {
  if (argc < 4) bench_die("usage: rrule_next CRON_MIX RRULE_MIX REPS");
  int reps = atoi(argv[3]);
  if (reps < 1 || reps > BENCH_MAXREP) bench_die("bad REPS");
  read_mix(argv[1]);
  read_mix(argv[2]);
  if (ne != nr) bench_die("%d cron expressions but %d rules", ne, nr);
  char err[RRULE_ERR_MAX];
  for (int e = 0; e < ne; e++) {
    if (cron_parse(exprs[e], &crons[e], err, sizeof err) != 0)
      bench_die("%s: %s", exprs[e], err);
    if (rrule_compile(rules[e], &sets[e], err, sizeof err) != 0)
      bench_die("%s: %s", rules[e], err);
  }
  tzdb *zdb = tzdb_new(NULL);
  if (!zdb) bench_die("out of memory");
  for (int z = 0; z < nz; z++) {
    if (tzdb_get(zdb, zones[z], &zptr[z], err, sizeof err) != 0)
      bench_die("%s", err);
  }
  int total = ne * nz * nt;
  i64 *c_res = calloc((size_t)total, sizeof *c_res);
  i64 *r_res = calloc((size_t)total, sizeof *r_res);
  if (!c_res || !r_res) bench_die("out of memory");
  pass(0, c_res);
  pass(1, r_res);
  double c_rate[BENCH_MAXREP], r_rate[BENCH_MAXREP], ratio[BENCH_MAXREP];
  for (int r = 0; r < reps; r++) {
    c_rate[r] = rate(0);
    r_rate[r] = rate(1);
    ratio[r] = r_rate[r] / c_rate[r];
  }
  char a[32], b[32], label[160];
  snprintf(label, sizeof label,
           "rrule next-due (%d rules x %d zones x %d starts): C API vs cron's "
           "on the same schedules",
           ne, nz, nt);
  bench_row(label, bench_fmt_rate(bench_median(r_rate, reps), a, sizeof a),
            bench_fmt_rate(bench_median(c_rate, reps), b, sizeof b), ratio,
            reps, ">=", 1.0 / 3, ">= 0.33x (within 3x)");
  int agree = 0, shown = 0;
  for (int i = 0; i < total; i++) {
    agree += c_res[i] == r_res[i];
    if (c_res[i] != r_res[i] && shown++ < 3) {
      int e = i / (nz * nt), z = i / nt % nz, t = i % nt;
      bench_note("rrule differs from cron: '%s' in %s after %lld: rrule %lld, "
                 "cron %lld",
                 exprs[e], zones[z], (long long)starts[t], (long long)r_res[i],
                 (long long)c_res[i]);
    }
  }
  bench_note("rrule results agree with cron's on %d of %d computations", agree,
             total);
  free(c_res);
  free(r_res);
  tzdb_free(zdb);
  return 0;
}
