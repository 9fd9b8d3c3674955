#!/bin/sh
# tests/fuzz/run.sh -- build every libFuzzer target tests/fuzz/fuzz_*.c
# with Debian's clang (ASan + UBSan) and run each for FUZZ_SECONDS
# (default 20) from its seed corpus tests/fuzz/corpus/NAME/. New inputs go
# to a scratch copy under build/fuzz/, never into the committed corpus.
# A crash stops the run; the reproducer is left in build/fuzz/.
#   make fuzz FUZZ_SECONDS=600     # a longer run
set -e
secs=${FUZZ_SECONDS:-20}
if ! command -v clang >/dev/null 2>&1 || ! ls /usr/lib/llvm-*/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ]; then
    apt-get update -qq >/dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq clang libclang-rt-14-dev >/dev/null
  else
    echo "fuzz: needs clang and libclang-rt-14-dev" >&2
    exit 1
  fi
fi
mkdir -p build/fuzz
pure=""
for f in ext/civil.c ext/tz.c ext/tzdb.c ext/cron.c ext/sha256.c ext/dedupe.c ext/schedule.c ext/when.c; do
  [ -f "$f" ] && pure="$pure $f"
done
xml_flags=$(pkg-config --cflags --libs libxml-2.0)
status=0
for src in tests/fuzz/fuzz_*.c; do
  name=$(basename "$src" .c | sed 's/^fuzz_//')
  bin=build/fuzz/fuzz_$name
  clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -Iext -o "$bin" "$src" $pure ext/xml_request.c $xml_flags -lm
  work=build/fuzz/corpus-$name
  rm -rf "$work" && mkdir -p "$work"
  [ -d tests/fuzz/corpus/$name ] && cp tests/fuzz/corpus/$name/* "$work"/ 2>/dev/null || true
  if (cd build/fuzz && "./fuzz_$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -print_final_stats=0 "corpus-$name" > "fuzz_$name.log" 2>&1); then
    echo "fuzz/$name: 1 passed, 0 failed ($(grep -Eo 'stat::number_of_executed_units: [0-9]+|#[0-9]+' build/fuzz/fuzz_$name.log | tail -1) runs in ${secs}s)"
  else
    echo "fuzz/$name: 0 passed, 1 failed (see build/fuzz/fuzz_$name.log)"
    tail -30 "build/fuzz/fuzz_$name.log"
    status=1
  fi
done
exit $status
