#!/bin/sh
# tests/fuzz/seeds.sh -- the fuzz seed corpora as a test layer of `make
# test` (and `make test-asan`, where it catches memory errors): every
# input of tests/fuzz/corpus/NAME/ once through its target
# tests/fuzz/fuzz_NAME.c, built without libFuzzer by the Makefile as
# $B/replay/fuzz_NAME (the target plus tests/fuzz/replay.c, the
# extension's objects and the system libsqlite3). A target without seeds
# or without its replay binary fails. Prints each failed input, one line
# per target, then "fuzz_seeds: N passed, M failed".
B=${B:-build}
passed=0
failed=0
for src in tests/fuzz/fuzz_*.c; do
  name=$(basename "$src" .c)
  bin=$B/replay/$name
  dir=tests/fuzz/corpus/${name#fuzz_}
  n=$(find "$dir" -maxdepth 1 -type f 2>/dev/null | wc -l)
  if [ ! -x "$bin" ]; then
    echo "FAIL $name: no $bin (make replay-bins)"
    failed=$((failed + 1))
    continue
  fi
  if [ "$n" -eq 0 ]; then
    echo "FAIL $name: no seeds in $dir/"
    failed=$((failed + 1))
    continue
  fi
  out=$(find "$dir" -maxdepth 1 -type f | sort | xargs "$bin" 2>&1)
  # xargs may split a long list over several runs: add their summaries up
  ran=$(printf '%s\n' "$out" | awk '/: [0-9]+ inputs, [0-9]+ failed$/ {n += $(NF-3); f += $(NF-1)} END {print n+0, f+0}')
  bad=${ran#* }
  if [ "${ran% *}" -ne "$n" ]; then
    # the driver itself died (or printed no summary): every input counts
    printf '%s\n' "$out" | tail -20
    echo "FAIL $name: the replay driver did not finish"
    bad=$n
  else
    printf '%s\n' "$out" | grep '^FAIL' | head -20
  fi
  echo "  $name: $n seeds, $bad failed"
  passed=$((passed + n - bad))
  failed=$((failed + bad))
done
echo "fuzz_seeds: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
