/*
** bench.c -- the helpers of bench.h: clock, medians, database setup,
** file copy, peak RSS and result rows. No benchmark logic lives here.
*/
#include "bench.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

double bench_now(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

double bench_median(const double *v, int n) {
  if (n <= 0) return 0;
  double *c = malloc((size_t)n * sizeof *c);
  if (!c) bench_die("out of memory");
  memcpy(c, v, (size_t)n * sizeof *c);
  qsort(c, (size_t)n, sizeof *c, cmp_double);
  double m = n % 2 ? c[n / 2] : (c[n / 2 - 1] + c[n / 2]) / 2;
  free(c);
  return m;
}

double bench_min(const double *v, int n) {
  double m = n ? v[0] : 0;
  for (int i = 1; i < n; i++) m = v[i] < m ? v[i] : m;
  return m;
}

double bench_max(const double *v, int n) {
  double m = n ? v[0] : 0;
  for (int i = 1; i < n; i++) m = v[i] > m ? v[i] : m;
  return m;
}

_Noreturn void bench_die(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "bench: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  exit(2);
}

void bench_exec(sqlite3 *db, const char *sql) {
  char *err = NULL;
  if (sqlite3_exec(db, sql, 0, 0, &err) != SQLITE_OK) {
    bench_die("%s: %s", sql, err ? err : sqlite3_errmsg(db));
  }
}

sqlite3_stmt *bench_prepare(sqlite3 *db, const char *sql) {
  sqlite3_stmt *st = NULL;
  if (sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &st, NULL) !=
      SQLITE_OK) {
    bench_die("prepare %s: %s", sql, sqlite3_errmsg(db));
  }
  return st;
}

i64 bench_query_i64(sqlite3 *db, const char *sql) {
  sqlite3_stmt *st = bench_prepare(db, sql);
  i64 v = 0;
  int rc = sqlite3_step(st);
  if (rc == SQLITE_ROW) v = sqlite3_column_int64(st, 0);
  else if (rc != SQLITE_DONE) bench_die("%s: %s", sql, sqlite3_errmsg(db));
  sqlite3_finalize(st);
  return v;
}

void bench_write_back(sqlite3 *db) {
  if (sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE, NULL,
                                NULL) != SQLITE_OK)
    bench_die("checkpoint: %s", sqlite3_errmsg(db));
}

double bench_tick_timed(sqlite3 *db, const char *sql, i64 now) {
  sqlite3_stmt *st = bench_prepare(db, sql);
  sqlite3_bind_int64(st, 1, now);
  double t0 = bench_now();
  if (sqlite3_step(st) != SQLITE_ROW) bench_die("tick: %s", sqlite3_errmsg(db));
  sqlite3_reset(st);
  bench_write_back(db);
  double secs = bench_now() - t0;
  sqlite3_finalize(st);
  return secs;
}

sqlite3 *bench_open(const char *path, int ext) {
  sqlite3 *db = NULL;
  if (sqlite3_open(path, &db) != SQLITE_OK) {
    bench_die("open %s: %s", path, db ? sqlite3_errmsg(db) : "no memory");
  }
  sqlite3_busy_timeout(db, 10000);
  bench_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL");
  if (ext) {
    const char *so = getenv("TRIGGERS_EXT");
    char *err = NULL;
    sqlite3_enable_load_extension(db, 1);
    if (sqlite3_load_extension(db, so ? so : "build/triggers", 0, &err) !=
        SQLITE_OK) {
      bench_die("load extension: %s", err ? err : "?");
    }
  }
  return db;
}

void bench_rm_db(const char *path) {
  char buf[4096];
  unlink(path);
  snprintf(buf, sizeof buf, "%s-wal", path);
  unlink(buf);
  snprintf(buf, sizeof buf, "%s-shm", path);
  unlink(buf);
}

void bench_copy_file(const char *from, const char *to) {
  bench_rm_db(to);
  int in = open(from, O_RDONLY);
  if (in < 0) bench_die("open %s: %s", from, strerror(errno));
  int out = open(to, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (out < 0) bench_die("create %s: %s", to, strerror(errno));
  static char buf[1 << 20];
  ssize_t n;
  while ((n = read(in, buf, sizeof buf)) > 0) {
    for (ssize_t off = 0; off < n;) {
      ssize_t w = write(out, buf + off, (size_t)(n - off));
      if (w < 0) bench_die("write %s: %s", to, strerror(errno));
      off += w;
    }
  }
  if (n < 0) bench_die("read %s: %s", from, strerror(errno));
  close(in);
  close(out);
}

long bench_peak_rss_kib(void) {
  FILE *f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  if (!f) return -1;
  while (fgets(line, sizeof line, f)) {
    if (strncmp(line, "VmHWM:", 6) == 0) kib = strtol(line + 6, NULL, 10);
  }
  fclose(f);
  return kib;
}

const char *bench_fmt_secs(double s, char *buf, size_t n) {
  if (s < 1e-3) snprintf(buf, n, "%.1f µs", s * 1e6);
  else if (s < 1) snprintf(buf, n, "%.1f ms", s * 1e3);
  else snprintf(buf, n, "%.2f s", s);
  return buf;
}

const char *bench_fmt_rate(double r, char *buf, size_t n) {
  if (r >= 1e6) snprintf(buf, n, "%.2fM/s", r / 1e6);
  else if (r >= 1e3) snprintf(buf, n, "%.1fk/s", r / 1e3);
  else snprintf(buf, n, "%.0f/s", r);
  return buf;
}

const char *bench_fmt_count(i64 n, char *buf, size_t len) {
  if (n >= 1000000 && n % 1000000 == 0)
    snprintf(buf, len, "%lldM", (long long)(n / 1000000));
  else if (n >= 1000 && n % 1000 == 0)
    snprintf(buf, len, "%lldk", (long long)(n / 1000));
  else snprintf(buf, len, "%lld", (long long)n);
  return buf;
}

const char *bench_fmt_ratio(double x, char *buf, size_t n) {
  if (x >= 1000) snprintf(buf, n, "%.0fx", x);
  else if (x >= 10) snprintf(buf, n, "%.1fx", x);
  else snprintf(buf, n, "%.2fx", x);
  return buf;
}

void bench_row(const char *row, const char *ours, const char *base,
               const double *ratios, int n, const char *op, double target,
               const char *target_text) {
  char a[32], b[32], c[32];
  double med = bench_median(ratios, n);
  const char *result = "info";
  if (op) {
    int ok = strcmp(op, ">=") == 0 ? med >= target : med <= target;
    result = ok ? "PASS" : "**FAIL**";
  }
  printf("ROW|%s|%s|%s|%s [%s-%s]|%s|%s\n", row, ours, base,
         bench_fmt_ratio(med, a, sizeof a),
         bench_fmt_ratio(bench_min(ratios, n), b, sizeof b),
         bench_fmt_ratio(bench_max(ratios, n), c, sizeof c),
         target_text ? target_text : "-", result);
  fflush(stdout);
}

void bench_note(const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  printf("NOTE|");
  vprintf(fmt, ap);
  printf("\n");
  va_end(ap);
  fflush(stdout);
}

void bench_strcpy(char *dst, size_t n, const char *src) {
  size_t len = strlen(src);
  if (len >= n) len = n - 1;
  memcpy(dst, src, len);
  dst[len] = 0;
}
