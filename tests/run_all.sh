#!/bin/sh
# tests/run_all.sh -- run every test layer and sum their counts.
#
# Each test program prints lines "NAME: N passed, M failed"; this script
# adds them up and ends with the line CI reads: "N passed, M failed".
# A program that exits non-zero without reporting a failure (a crash)
# counts as one failure.
#   sh tests/run_all.sh [unit|sql|py|fault|fuzz_seeds|dqlite|mcp|dist|bindings]...
#   (default: all)
# ASAN=1 runs the extension under gcc's ASan/UBSan runtimes (preloaded
# into sqlite3 and python3; the dist and bindings layers, which test
# packaging and other clients rather than the extension's memory use, are
# left out); B selects the build directory.
B=${B:-build}
export B
if [ -n "$ASAN" ]; then
  layers=${*:-unit sql py fault fuzz_seeds dqlite mcp}
else
  layers=${*:-unit sql py fault fuzz_seeds dqlite mcp dist bindings}
fi
out=$(mktemp)
trap 'rm -f "$out"' EXIT

PRELOAD=""
if [ -n "$ASAN" ]; then
  PRELOAD="$(gcc -print-file-name=libasan.so):$(gcc -print-file-name=libubsan.so)"
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
  export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
fi
export PRELOAD

# run NAME CMD...: run a test program, keep its counts, flag crashes.
run() {
  name=$1
  shift
  res=$("$@" 2>&1)
  rc=$?
  printf '%s\n' "$res" | grep -E "FAIL|SKIP|passed|skipped|differs|^[-+][^-+]" | head -200
  printf '%s\n' "$res" | grep -E '^[A-Za-z0-9_. /-]+: [0-9]+ passed, [0-9]+ failed' >> "$out"
  if [ $rc -ne 0 ] && ! printf '%s\n' "$res" | grep -Eq '[1-9][0-9]* failed'; then
    printf '%s\n' "$res" | tail -20
    echo "$name: 0 passed, 1 failed (exit status $rc)" | tee -a "$out"
  elif [ $rc -ne 0 ]; then
    # counted failures: their details (tracebacks, diffs) as the program
    # printed them, from the first FAIL on
    echo "---- $name: failure details"
    printf '%s\n' "$res" | sed -n '/FAIL/,$p' | head -150
  fi
}

for layer in $layers; do
  case $layer in
    unit)
      for t in "$B"/unit/test_*; do
        [ -x "$t" ] && run "$(basename "$t")" "$t"
      done ;;
    sql)
      run sql sh tests/sql/run.sh ;;
    py)
      run py env LD_PRELOAD="$PRELOAD" /usr/bin/python3 tests/py/run.py "$B/triggers" ;;
    fault)
      run fault_oom "$B/fault_oom" "$B/triggers.so"
      run fault_io "$B/fault_oom" --io "$B/triggers.so"
      run fault_busy "$B/fault_oom" --busy "$B/triggers.so" ;;
    fuzz_seeds)
      # every fuzz seed once through its target, without libFuzzer
      run fuzz_seeds sh tests/fuzz/seeds.sh ;;
    dqlite)
      # a 3-node dqlite cluster on 127.0.0.1 (tests/dqlite/run.py); under
      # ASAN=1 the nodes run the sanitizer-built preload library with the
      # runtimes preloaded before it
      run dqlite env LD_PRELOAD="$PRELOAD" DQLITE_SANITIZERS="$PRELOAD" \
        /usr/bin/python3 tests/dqlite/run.py "$B" ;;
    mcp)
      # trigger-host mcp and the official MCP TypeScript SDK's client
      # (tests/mcp/run.sh; SKIP, counting nothing, without the SDK)
      run mcp sh tests/mcp/run.sh ;;
    dist)
      run dist sh tests/dist/run.sh ;;
    bindings)
      run bindings sh tests/bindings/run.sh ;;
  esac
done
passed=$(grep -Eo '[0-9]+ passed' "$out" | awk '{s+=$1} END {print s+0}')
failed=$(grep -Eo '[0-9]+ failed' "$out" | awk '{s+=$1} END {print s+0}')
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$passed" -gt 0 ]
