/*
** cron_next.c -- cron next-due throughput against croner, on the fixed
** mix of bench/cron_mix.txt (expressions x zones x start instants).
**
**   cron_next MIX_FILE CRONER_OUT|SKIP:<reason> REPS
**
** ours (C)    cron_parse and tzdb_get once per expression / zone (as croner
**             builds its Cron objects once), then cron_next() for every
**             (expression, zone, start) -- ext/time/cron.h, ext/time/tzdb.h, linked
**             directly, no SQLite.
** ours (SQL)  SELECT trigger_next_due(?expr, ?start, ?zone), one prepared
**             statement: parses the expression on every call (zones are
**             cached per connection).
** croner      CRONER_OUT is the output of bench/cron_croner.mjs run with
**             node in the same `make bench` (RATE lines per repetition,
**             RES lines with its results).
** Each repetition runs whole passes over the mix for at least 0.5 s; the
** ratio pairs repetition i of ours with repetition i of croner. Results
** are compared with croner's: the agreement count is printed as a NOTE.
** Target (C API): >= 100x croner's throughput.
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "time/cron.h"
#include "time/tzdb.h"

#define MAXN 64

static char exprs[MAXN][128], zones[MAXN][64];
static i64 starts[MAXN];
static int ne, nz, nt;

static void read_mix(const char *path) {
  FILE *f = fopen(path, "r");
  char line[256];
  if (!f) bench_die("cannot read %s", path);
  while (fgets(line, sizeof line, f)) {
    line[strcspn(line, "\r\n")] = 0;
    if (strncmp(line, "E ", 2) == 0 && ne < MAXN)
      bench_strcpy(exprs[ne++], sizeof exprs[0], line + 2);
    else if (strncmp(line, "Z ", 2) == 0 && nz < MAXN)
      bench_strcpy(zones[nz++], sizeof zones[0], line + 2);
    else if (strncmp(line, "T ", 2) == 0 && nt < MAXN)
      starts[nt++] = atoll(line + 2);
  }
  fclose(f);
}

/* Croner's RATE and RES lines; returns the number of rates (0: none). */
static int read_croner(const char *path, double *rates, int max, i64 **res,
                       int **isnull, int total, char *version, size_t vn) {
  FILE *f = fopen(path, "r");
  char line[256];
  int n = 0;
  if (!f) return 0;
  *res = calloc((size_t)total, sizeof **res);
  *isnull = calloc((size_t)total, sizeof **isnull);
  if (!*res || !*isnull) bench_die("out of memory");
  while (fgets(line, sizeof line, f)) {
    int i;
    char v[64];
    if (strncmp(line, "RATE ", 5) == 0 && n < max) {
      rates[n++] = atof(line + 5);
    } else if (sscanf(line, "RES %d %63s", &i, v) == 2 && i >= 0 && i < total) {
      (*isnull)[i] = strcmp(v, "null") == 0;
      (*res)[i] = atoll(v);
    } else if (strncmp(line, "VERSION ", 8) == 0) {
      bench_strcpy(version, vn, line + 8);
      version[strcspn(version, "\n")] = 0;
    }
  }
  fclose(f);
  return n;
}

static cron_expr compiled[MAXN];
static const tz_zone *zptr[MAXN];

/* One pass of the C API over the mix; out (optional) gets the results. */
static long pass_c(i64 *out, int *isnull) {
  long n = 0;
  for (int e = 0; e < ne; e++) {
    for (int z = 0; z < nz; z++) {
      for (int t = 0; t < nt; t++, n++) {
        int64_t next = 0;
        int ok = cron_next(&compiled[e], zptr[z], starts[t], &next);
        if (out) {
          out[n] = next;
          isnull[n] = !ok;
        }
      }
    }
  }
  return n;
}

static long pass_sql(sqlite3 *db, sqlite3_stmt *st) {
  long n = 0;
  for (int e = 0; e < ne; e++) {
    for (int z = 0; z < nz; z++) {
      for (int t = 0; t < nt; t++, n++) {
        sqlite3_bind_text(st, 1, exprs[e], -1, SQLITE_STATIC);
        sqlite3_bind_int64(st, 2, starts[t]);
        sqlite3_bind_text(st, 3, zones[z], -1, SQLITE_STATIC);
        if (sqlite3_step(st) != SQLITE_ROW)
          bench_die("trigger_next_due: %s", sqlite3_errmsg(db));
        sqlite3_reset(st);
      }
    }
  }
  return n;
}

int main(int argc, char **argv) {
  if (argc < 4)
    bench_die("usage: cron_next MIX_FILE CRONER_OUT|SKIP:reason REPS");
  int reps = atoi(argv[3]);
  if (reps < 1 || reps > BENCH_MAXREP) bench_die("bad REPS");
  read_mix(argv[1]);
  int total = ne * nz * nt;
  char err[256];
  for (int e = 0; e < ne; e++) {
    if (cron_parse(exprs[e], &compiled[e], err, sizeof err) != 0)
      bench_die("%s: %s", exprs[e], err);
  }
  tzdb *zdb = tzdb_new(NULL);
  if (!zdb) bench_die("out of memory");
  for (int z = 0; z < nz; z++) {
    if (tzdb_get(zdb, zones[z], &zptr[z], err, sizeof err) != 0)
      bench_die("%s", err);
  }
  i64 *ours = calloc((size_t)total, sizeof *ours);
  int *ours_null = calloc((size_t)total, sizeof *ours_null);
  if (!ours || !ours_null) bench_die("out of memory");
  pass_c(ours, ours_null);

  sqlite3 *db = bench_open(":memory:", 1);
  sqlite3_stmt *st = bench_prepare(db, "SELECT trigger_next_due(?1, ?2, ?3)");
  pass_sql(db, st); /* warm the zone cache */

  double c_rate[BENCH_MAXREP], s_rate[BENCH_MAXREP];
  for (int r = 0; r < reps; r++) {
    long n = 0;
    double t0 = bench_now(), secs;
    do {
      n += pass_c(NULL, NULL);
    } while ((secs = bench_now() - t0) < 0.5);
    c_rate[r] = (double)n / secs;
    n = 0;
    t0 = bench_now();
    do {
      n += pass_sql(db, st);
    } while ((secs = bench_now() - t0) < 0.5);
    s_rate[r] = (double)n / secs;
  }

  char a[32], b[32], version[32] = "?";
  double k_rate[BENCH_MAXREP], r_c[BENCH_MAXREP], r_s[BENCH_MAXREP];
  i64 *kres = NULL;
  int *knull = NULL;
  int nk = strncmp(argv[2], "SKIP:", 5) == 0
               ? 0
               : read_croner(argv[2], k_rate, BENCH_MAXREP, &kres, &knull,
                             total, version, sizeof version);
  if (nk == 0) {
    const char *why = strncmp(argv[2], "SKIP:", 5) == 0
                          ? argv[2] + 5
                          : "croner produced no output";
    printf(
        "ROW|cron next-due, %d computations/pass: C API vs croner|%s|-|SKIPPED (%s)|>= 100x|SKIPPED\n",
        total, bench_fmt_rate(bench_median(c_rate, reps), a, sizeof a), why);
    bench_note("cron SQL function trigger_next_due: %s (croner skipped)",
               bench_fmt_rate(bench_median(s_rate, reps), a, sizeof a));
  } else {
    int n = reps < nk ? reps : nk;
    for (int r = 0; r < n; r++) {
      r_c[r] = c_rate[r] / k_rate[r];
      r_s[r] = s_rate[r] / k_rate[r];
    }
    char label[128];
    snprintf(
        label, sizeof label,
        "cron next-due (%d expr x %d zones x %d starts): C API vs croner %s",
        ne, nz, nt, version);
    bench_row(label, bench_fmt_rate(bench_median(c_rate, n), a, sizeof a),
              bench_fmt_rate(bench_median(k_rate, n), b, sizeof b), r_c, n,
              ">=", 100.0, ">= 100x");
    snprintf(label, sizeof label,
             "cron next-due, same mix: SQL trigger_next_due() vs croner %s",
             version);
    bench_row(label, bench_fmt_rate(bench_median(s_rate, n), a, sizeof a),
              bench_fmt_rate(bench_median(k_rate, n), b, sizeof b), r_s, n,
              NULL, 0, "(info)");
    int agree = 0, shown = 0;
    for (int i = 0; i < total; i++) {
      int same =
          ours_null[i] == knull[i] && (ours_null[i] || ours[i] == kres[i]);
      agree += same;
      if (!same && shown < 3) {
        int e = i / (nz * nt), z = i / nt % nz, t = i % nt;
        bench_note(
            "cron differs from croner: '%s' in %s after %lld: ours %lld%s, croner %lld%s",
            exprs[e], zones[z], (long long)starts[t], (long long)ours[i],
            ours_null[i] ? " (none)" : "", (long long)kres[i],
            knull[i] ? " (none)" : "");
        shown++;
      }
    }
    bench_note("cron results agree with croner on %d of %d computations", agree,
               total);
  }
  free(kres);
  free(knull);
  free(ours);
  free(ours_null);
  sqlite3_finalize(st);
  sqlite3_close(db);
  tzdb_free(zdb);
  return 0;
}
