/*
** mkdb.c -- build one database of the synthetic data set (dbgen.h) for
** the other benchmarks, and report how long the bulk load took.
**
**   mkdb ours|plain|wide N PATH [CACHE_KIB]
**   mkdb version        (prints the SQLite library version)
**
** Prints "NOTE|build <kind> <N> rows: <secs> s (<rate> rows/s)".
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dbgen.h"

int main(int argc, char **argv) {
  if (argc == 2 && strcmp(argv[1], "version") == 0) {
    printf("%s\n", sqlite3_libversion()); /* for the report's machine line */
    return 0;
  }
  if (argc < 4)
    bench_die("usage: mkdb ours|plain|wide N PATH [CACHE_KIB] | mkdb version");
  i64 n = atoll(argv[2]);
  int cache = argc > 4 ? atoi(argv[4]) : 0;
  double secs;
  if (strcmp(argv[1], "ours") == 0) secs = dbg_build_ours(argv[3], n, cache);
  else if (strcmp(argv[1], "plain") == 0)
    secs = dbg_build_plain(argv[3], n, cache);
  else if (strcmp(argv[1], "wide") == 0)
    secs = dbg_build_wide(argv[3], n, cache);
  else bench_die("unknown kind %s", argv[1]);
  char r[32], c[48] = "";
  if (cache) snprintf(c, sizeof c, ", cache_size %d MiB", cache / 1024);
  bench_note("build %s %lld rows%s: %.1f s (%s rows)", argv[1], (long long)n, c,
             secs, bench_fmt_rate((double)n / secs, r, sizeof r));
  return 0;
}
