#!/bin/sh
# tests/fuzz/run.sh -- build every libFuzzer target tests/fuzz/fuzz_*.c
# with Debian's clang (ASan + UBSan, no recover) and run each for
# FUZZ_SECONDS (default 20) from its seed corpus tests/fuzz/corpus/NAME/.
# New inputs go to a scratch copy under build/fuzz/, never into the
# committed corpus. A crash fails the target; its reproducer (crash-*,
# leak-*, timeout-*, oom-*) is written to build/fuzz/artifacts-NAME/ and
# the log to build/fuzz/fuzz_NAME.log. Replay one with
#   build/fuzz/fuzz_NAME build/fuzz/artifacts-NAME/crash-...
# (FUZZ_SQL_TRACE=1 makes fuzz_sql print the statements it decodes).
#   make fuzz FUZZ_SECONDS=3600    # a longer run
#
# A libFuzzer dictionary tests/fuzz/NAME.dict is used when present.
# Pure-parser targets link the pure modules. A target whose source has the
# marker FUZZ_NEEDS_SQLITE (options, sql) is linked with the extension's
# sources (EXT_SRC of the Makefile, compiled once into build/fuzz/obj/)
# and the system libsqlite3.
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
cflags="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Iext"
pure=""
# The pure layers (time/, text/: no SQLite), every file of them.
for f in ext/time/*.c ext/text/*.c; do
  [ -f "$f" ] && pure="$pure $f"
done
xml_cflags=$(pkg-config --cflags libxml-2.0)

# The extension's sources, as the Makefile lists them (all of ext/*.c if
# that cannot be read), compiled once for the SQLite-level targets.
ext_src=$(printf 'fuzz-print-ext-src:\n\t@echo $(EXT_SRC)\n' |
  make -s --no-print-directory -f Makefile -f - fuzz-print-ext-src 2>/dev/null) || ext_src=""
[ -n "$ext_src" ] || ext_src=$(ls ext/*.c ext/*/*.c)
ext_objs=""
build_ext_objs() {
  mkdir -p build/fuzz/obj
  for f in $ext_src; do
    o=build/fuzz/obj/$(echo "${f#ext/}" | tr / _ | sed "s/\.c$//").o
    if [ ! -f "$o" ] || [ -n "$(find "$f" ext/*.h ext/*/*.h -newer "$o" 2>/dev/null | head -1)" ]; then
      clang $cflags $xml_cflags -c -o "$o" "$f"
    fi
    ext_objs="$ext_objs $o"
  done
}

# Any crash artifact goes under build/fuzz/, never the working directory.
export UBSAN_OPTIONS="print_stacktrace=1${UBSAN_OPTIONS:+:$UBSAN_OPTIONS}"
status=0
for src in tests/fuzz/fuzz_*.c; do
  name=$(basename "$src" .c | sed 's/^fuzz_//')
  bin=build/fuzz/fuzz_$name
  if grep -q FUZZ_NEEDS_SQLITE "$src"; then
    [ -n "$ext_objs" ] || build_ext_objs
    clang $cflags $xml_cflags -o "$bin" "$src" $ext_objs -lsqlite3 -ldl -lm
  else
    clang $cflags -o "$bin" "$src" $pure ext/agent/xml_request.c ext/agent/xml_lib.c $xml_cflags -ldl -lm
  fi
  work=build/fuzz/corpus-$name
  art=build/fuzz/artifacts-$name
  rm -rf "$work" && mkdir -p "$work" "$art"
  [ -d tests/fuzz/corpus/$name ] && cp tests/fuzz/corpus/$name/* "$work"/ 2>/dev/null || true
  dict=""
  [ -f tests/fuzz/$name.dict ] && dict="-dict=../../tests/fuzz/$name.dict"
  if (cd build/fuzz && "./fuzz_$name" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="artifacts-$name/" -print_final_stats=1 $dict \
        "corpus-$name" > "fuzz_$name.log" 2>&1); then
    runs=$(grep -Eo 'stat::number_of_executed_units: *[0-9]+' "build/fuzz/fuzz_$name.log" | grep -Eo '[0-9]+$' | tail -1)
    rate=$(grep -Eo 'stat::average_exec_per_sec: *[0-9]+' "build/fuzz/fuzz_$name.log" | grep -Eo '[0-9]+$' | tail -1)
    echo "fuzz/$name: 1 passed, 0 failed (${runs:-?} runs in ${secs}s, ${rate:-?} exec/s)"
  else
    echo "fuzz/$name: 0 passed, 1 failed (see build/fuzz/fuzz_$name.log; reproducer in $art/)"
    tail -30 "build/fuzz/fuzz_$name.log"
    status=1
  fi
done
exit $status
