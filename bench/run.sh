#!/bin/sh
# bench/run.sh -- build the benchmark programs, build the data sets once,
# run every benchmark, and print ONE markdown table of ratios (also written
# to bench/RESULTS.md with the machine it ran on). `make bench` runs this
# after building the extension. See bench/README.md.
#
# Environment: BENCH_REPS (repetitions per row, default 5, max 16),
# BENCH_BIG (size of the big data set, default 1000000), TMPDIR (where the
# temporary databases go; about 1 GB at the default size), CC,
# BENCH_OUT (where the programs are built, default build/bench),
# BENCH_BUILD_ONLY=1 (build the programs and stop: the test suite does
# this, so a bench program that no longer builds fails `make test`).
# Exit status: 0 when every benchmark ran (a missed target is a FAIL row,
# not an error), 1 when one could not run (an ERROR row).
set -eu

cd "$(dirname "$0")/.."
REPS=${BENCH_REPS:-5}
BIG=${BENCH_BIG:-1000000}
CC=${CC:-cc}
OUT=${BENCH_OUT:-build/bench}
CFLAGS="-O2 -g -std=c11 -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE"
export TRIGGERS_EXT="$PWD/build/triggers"

[ "${BENCH_BUILD_ONLY:-0}" = 1 ] || [ -f build/triggers.so ] || { echo "bench: build/triggers.so missing (run make)" >&2; exit 1; }
mkdir -p "$OUT"
for p in mkdb empty_tick busy_tick preload_tick events_tick signal create peak_mem two_procs; do
  $CC $CFLAGS -o "$OUT/$p" "bench/$p.c" bench/dbgen.c bench/bench.c -lsqlite3
done
# the next-due rows link the pure layers whole (ext/time, ext/text: no
# SQLite, no clock), so a file added to them needs no change here
PURE="$(ls ext/time/*.c ext/text/*.c)"
for p in cron_next rrule_next; do
  # shellcheck disable=SC2086
  $CC $CFLAGS -Iext -o "$OUT/$p" "bench/$p.c" bench/bench.c $PURE -lsqlite3 -lm
done
[ -f bench/summary.c ] && $CC $CFLAGS -o "$OUT/summary" bench/summary.c bench/bench.c -lsqlite3 -lm
for p in host_print host_exec host_latency host_sql; do
  $CC $CFLAGS -o "$OUT/$p" "bench/$p.c" bench/hostbench.c bench/bench.c -lsqlite3
done
# The extension without event writes: events_tick.c's baseline (same
# sources and flags as the Makefile's, store_event_append a no-op).
mkdir -p "$OUT/noevents"
$CC $CFLAGS -Iext $(pkg-config --cflags libxml-2.0 2>/dev/null) \
  -DTRIGGERS_VERSION="\"$(cat VERSION)\"" -DTRIGGERS_BENCH_NO_EVENTS \
  -fPIC -fvisibility=hidden -shared -o "$OUT/noevents/triggers.so" \
  ext/text/*.c ext/time/*.c ext/base/*.c ext/trigger/*.c ext/store/*.c \
  ext/tick/*.c ext/agent/*.c ext/sql/*.c ext/ext.c \
  $(pkg-config --libs libxml-2.0 2>/dev/null || echo -lxml2) -lm
if [ "${BENCH_BUILD_ONLY:-0}" = 1 ]; then echo "bench: programs built in $OUT"; exit 0; fi
[ -x build/trigger-host ] || { echo "bench: build/trigger-host missing (run make)" >&2; exit 1; }
export TRIGGER_HOST="$PWD/build/trigger-host"

TMP=$(mktemp -d "${TMPDIR:-/tmp}/triggers-bench.XXXXXX")
trap 'rm -rf "$TMP"' EXIT INT TERM
LINES="$TMP/lines"
: > "$LINES"
T0=$(date +%s)
ERRORS=0
step() { printf 'bench: %s (%ss)\n' "$1" "$(( $(date +%s) - T0 ))" >&2; }
# run LABEL CMD...: keep the program's ROW/NOTE lines; if it fails, the
# table gets an ERROR row with its last message instead of no table.
run() {
  label=$1
  shift
  if ! "$@" >> "$LINES" 2> "$TMP/err"; then
    printf 'ROW|%s|-|-|-|-|**ERROR**: %s\n' "$label" \
      "$(tail -n 1 "$TMP/err" | tr '|' '/')" >> "$LINES"
    ERRORS=$((ERRORS + 1))
  fi
  cat "$TMP/err" >&2
}

# Data sets (dbgen.h). The big ones load with a 256 MiB cache: setup, not
# measured against anything; their load times are reported as notes.
step "building data sets (the $BIG-trigger one takes a while)"
for n in 1000 100000 "$BIG"; do
  cache=0
  [ "$n" -ge 1000000 ] && cache=262144
  run "build ours $n" "$OUT/mkdb" ours "$n" "$TMP/ours_$n.db" $cache
  run "build plain $n" "$OUT/mkdb" plain "$n" "$TMP/plain_$n.db" $cache
done

step "empty tick"
for n in 1000 100000 "$BIG"; do
  run "empty tick, $n triggers" "$OUT/empty_tick" "$n" "$TMP/ours_$n.db" "$TMP/plain_$n.db" "$REPS"
done

step "busy tick"
run "busy tick" "$OUT/busy_tick" 100000 "$TMP/ours_100000.db" "$TMP/plain_100000.db" \
  "$TMP" "$REPS" 1000 10000 100000

step "busy tick with a preload"
run "preload tick" "$OUT/preload_tick" "$TMP/ours_100000.db" "$TMP" "$REPS" 10000
step "events in the busy tick"
run "events tick" "$OUT/events_tick" "$TMP/ours_100000.db" "$TMP" "$REPS" \
  "$OUT/noevents/triggers.so" 1000 10000
step "signals and chains"
run "signal and chains" "$OUT/signal" "$TMP/ours_100000.db" "$TMP" "$REPS" 10000

step "create"
run "create" "$OUT/create" "$TMP" 100000 "$REPS"

step "cron next-due (croner via node)"
CRONER="SKIP:node or npm not found"
if command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1; then
  if [ ! -f bench/.croner/node_modules/croner/package.json ]; then
    npm install --silent --no-audit --no-fund --prefix bench/.croner croner@latest \
      > "$TMP/npm.log" 2>&1 || true
  fi
  if [ -f bench/.croner/node_modules/croner/package.json ]; then
    if node bench/cron_croner.mjs bench/cron_mix.txt bench/.croner "$REPS" \
        > "$TMP/croner.out" 2> "$TMP/croner.err"; then
      CRONER="$TMP/croner.out"
    else
      CRONER="SKIP:croner failed: $(head -c 120 "$TMP/croner.err" | tr '\n|' '  ')"
    fi
  else
    CRONER="SKIP:npm install croner failed: $(tail -c 120 "$TMP/npm.log" | tr '\n|' '  ')"
  fi
fi
run "cron next-due" "$OUT/cron_next" bench/cron_mix.txt "$CRONER" "$REPS"
run "rrule next-due" "$OUT/rrule_next" bench/cron_mix.txt bench/rrule_mix.txt "$REPS"

step "peak memory"
run "peak memory" "$OUT/peak_mem" "$TMP/ours_1000.db" "$TMP/ours_$BIG.db" 1000 "$REPS"

step "two processes"
run "two processes" "$OUT/two_procs" "$TMP/ours_100000.db" "$TMP" "$REPS" 2

step "trigger-host: print mode, exec mode, run-mode latency"
run "host print" "$OUT/host_print" "$TMP" 20000 "$REPS"
run "host exec" "$OUT/host_exec" "$TMP" 200 4 "$REPS"
run "host latency" "$OUT/host_latency" "$TMP" 200 3 "$REPS"
run "host sql" "$OUT/host_sql" "$TMP" 1000 "$REPS"

if [ -x "$OUT/summary" ]; then # bench/summary.c (the state summary), information only
  step "state summary"
  run "summary" "$OUT/summary" 100000 5000 "$REPS"
fi
step "done"

# The report: one table, then notes and the machine.
TOTAL=$(( $(date +%s) - T0 ))
CPU=$(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //' || true)
MEM=$(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo 2>/dev/null || true)
REPORT="$TMP/report.md"
{
  echo "# Benchmark results"
  echo
  echo "Written by \`make bench\` (bench/run.sh); how to read it: bench/README.md."
  echo "Every ratio is measured in this run against a plain-SQL/C baseline from bench/,"
  echo "per repetition; shown as median [min-max] over $REPS repetitions."
  echo
  echo "| row | ours | baseline | ratio | target | result |"
  echo "|---|---|---|---|---|---|"
  grep '^ROW|' "$LINES" | awk -F'|' '{ s = "|"; for (i = 2; i <= NF; i++) s = s " " $i " |"; print s }'
  echo
  echo "Notes:"
  echo
  grep '^NOTE|' "$LINES" | sed 's/^NOTE|/- /'
  echo "- whole run: ${TOTAL} s"
  echo
  echo "Machine: $(nproc) CPUs, ${CPU:-unknown CPU}, ${MEM:-? GiB} RAM;" \
       "SQLite $("$OUT/mkdb" version); $(uname -sr);" \
       "node $(node --version 2>/dev/null || echo none); $(date -u '+%Y-%m-%d %H:%M UTC')."
} > "$REPORT"
cp "$REPORT" bench/RESULTS.md
cat "$REPORT"
# A missed target is a result (the table says FAIL); a benchmark that could
# not run is an error.
[ "$ERRORS" -eq 0 ]
