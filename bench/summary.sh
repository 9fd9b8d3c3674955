#!/bin/sh
# bench/summary.sh -- build and run bench/summary.c standalone: the
# autonomous state summary with 100k runs and 5k admin items against a
# plain SELECT of the same rows. Prints bench.h's ROW/NOTE lines, then the
# result as one Markdown table row:
#   | summary | ours | plain | ratio median [min-max] | target | result |
#   sh bench/summary.sh [RUNS [ADMIN [REPS]]]
set -e
B=${B:-build}
make -s "$B/triggers.so"
mkdir -p "$B/bench"
${CC:-cc} -O2 -std=c11 -Wall -Wextra -Werror -D_POSIX_C_SOURCE=200809L \
  -D_DEFAULT_SOURCE -Ibench -o "$B/bench/summary" bench/summary.c bench/bench.c -lsqlite3 -lm
out=$(TRIGGERS_EXT=${TRIGGERS_EXT:-$B/triggers} "$B/bench/summary" "$@")
printf '%s\n' "$out"
printf '%s\n' "$out" | awk -F'|' '$1 == "ROW" { printf "| %s | %s | %s | %s | %s | %s |\n", $2, $3, $4, $5, $6, $7 }'
