/*
** bench.h -- helpers shared by the benchmark programs in bench/: a
** monotonic clock, medians, opening a database the same way for the
** extension and for the plain-SQL baselines, loading the extension,
** copying a database file, reading peak RSS, and printing a result row.
**
** Every program prints its results as lines that bench/run.sh collects:
**   ROW|<row>|<ours>|<baseline>|<ratio median [min-max]>|<target>|<result>
**   NOTE|<free text>
** Ratios are taken per repetition (ours and the baseline measured back to
** back in the same repetition), then summarised by median, min and max.
*/
#ifndef BENCH_H
#define BENCH_H

#include <sqlite3.h>
#include <stddef.h>
#include <stdint.h>

typedef int64_t i64;

#define BENCH_MAXREP 16

double bench_now(void); /* seconds, CLOCK_MONOTONIC */
double bench_median(const double *v, int n);
double bench_min(const double *v, int n);
double bench_max(const double *v, int n);

/* Print a message and exit(2). */
_Noreturn void bench_die(const char *fmt, ...);

/*
** Open a file database: busy_timeout 10 s (set before the journal mode,
** see research/perf-baseline.md (e)), WAL, synchronous=NORMAL. ext != 0
** also loads build/triggers (path from $TRIGGERS_EXT, else
** "build/triggers"). Dies on error.
*/
sqlite3 *bench_open(const char *path, int ext);
void bench_exec(sqlite3 *db, const char *sql);
sqlite3_stmt *bench_prepare(sqlite3 *db, const char *sql);
i64 bench_query_i64(sqlite3 *db, const char *sql);
/* Checkpoint what a tick wrote to the WAL (PASSIVE: a no-op when its
** commit's autocheckpoint already did), so every side pays for writing
** its pages back. Dies on error. */
void bench_write_back(sqlite3 *db);
/* Seconds of one tick: sql (one statement, ?1 = now) stepped once to its
** row, plus bench_write_back. Dies when it fails. */
double bench_tick_timed(sqlite3 *db, const char *sql, i64 now);

/* Remove path, path-wal and path-shm. */
void bench_rm_db(const char *path);
/* Copy the main database file (its WAL must be checkpointed). */
void bench_copy_file(const char *from, const char *to);
/* src into dst[n], cut to n - 1 bytes (a mix file's fields) */
void bench_strcpy(char *dst, size_t n, const char *src);

/* Peak resident set size of this process in KiB (VmHWM). */
long bench_peak_rss_kib(void);

/* Human-readable numbers: "12.3 µs", "45.6k/s", ... into buf. */
const char *bench_fmt_secs(double s, char *buf, size_t n);
const char *bench_fmt_rate(double r, char *buf, size_t n);
const char *bench_fmt_count(i64 n, char *buf, size_t len); /* 1k, 100k, 1M */
const char *bench_fmt_ratio(double x, char *buf, size_t n);

/*
** Print one table row. ratios[n]: per-repetition ratios, expressed so that
** higher is better for ">=" targets and lower is better for "<=" targets.
** op is ">=" or "<=" (or NULL: information only, no PASS/FAIL).
*/
void bench_row(const char *row, const char *ours, const char *base,
               const double *ratios, int n, const char *op, double target,
               const char *target_text);
void bench_note(const char *fmt, ...);

#endif
