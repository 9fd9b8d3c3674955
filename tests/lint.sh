#!/bin/sh
# tests/lint.sh -- the static checks behind `make lint` (issue 9, item 4).
# This script owns the list of checked files, the cppcheck and clang-tidy
# invocations and their suppressions; the formatting rules are in
# .clang-format. Three tools, each one pass or fail:
#
#   clang-format  --dry-run --Werror with .clang-format over every C file
#                 we write: ext/ host/ tests/unit/ tests/fuzz/ tests/fault/
#                 tests/dist/ tests/preload/ bench/ (tests and benches are
#                 read and edited like the rest, so they keep the same
#                 style). Fix: clang-format -i F
#                 (the style is checked with clang-format 14, Debian 12).
#   cppcheck      warning, style, performance, portability over the same
#                 directories. False positives are silenced where they are,
#                 with `cppcheck-suppress <id> ; reason` comments.
#   clang-tidy    bugprone-* and clang-analyzer-* (minus the noise listed
#                 below) and cert-err34-c over ext/*.c and host/*.c. False
#                 positives carry NOLINTNEXTLINE(<check>) comments; the
#                 analyzer does not inline variadic functions, so it thinks
#                 `return tz_fail(...)` (always -1) may return 0.
#
# Missing tools are installed (Debian packages clang-format, cppcheck,
# clang-tidy) when run as root; otherwise they are reported missing and
# count as failures. The extension's headers (libsqlite3-dev, libxml2-dev;
# see tests/deps.sh) are needed by clang-tidy.
#
#   sh tests/lint.sh            all three tools
#   LINT_TIDY=0 sh tests/lint.sh   skip clang-tidy (about a minute on 2 cores)
#   LINT_JOBS=n                 parallel jobs (default: online CPUs)
#
# Ends with "lint: N passed, M failed" (tools); exit status 1 on any finding.
cd "$(dirname "$0")/.." || exit 2

jobs=${LINT_JOBS:-$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)}
passed=0
failed=0
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# ---- tools ----------------------------------------------------------------
need=""
command -v clang-format >/dev/null 2>&1 || need="$need clang-format"
command -v cppcheck >/dev/null 2>&1 || need="$need cppcheck"
if [ "${LINT_TIDY:-1}" != 0 ]; then
  command -v clang-tidy >/dev/null 2>&1 || need="$need clang-tidy"
fi
if [ -n "$need" ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "lint: installing:$need"
    export DEBIAN_FRONTEND=noninteractive
    # shellcheck disable=SC2086  # one word per package
    if ! { apt-get update -qq >/dev/null &&
      apt-get install -y -qq $need >/dev/null; }; then
      echo "lint: could not install:$need" >&2
    fi
  else
    echo "lint: missing Debian packages:$need (run as root or install them)" >&2
  fi
fi

# result TOOL STATUS SECONDS DETAIL: one line per tool, and the tally.
result() {
  if [ "$2" = 0 ]; then
    passed=$((passed + 1))
    echo "$1: ok ($3 s$4)"
  else
    failed=$((failed + 1))
    echo "$1: FAILED ($3 s$4)"
  fi
}

# ---- clang-format ---------------------------------------------------------
c_files=$(ls ext/*.[ch] ext/*/*.[ch] host/*.[ch] host/*/*.[ch] tests/unit/*.[ch] tests/fuzz/*.c \
  tests/fault/*.c tests/dist/*.c tests/preload/*.c bench/*.[ch] 2>/dev/null)
nfiles=$(echo "$c_files" | wc -l)
t0=$(date +%s)
if command -v clang-format >/dev/null 2>&1; then
  major=$(clang-format --version | sed -n 's/.*version \([0-9]*\).*/\1/p')
  [ "$major" = 14 ] ||
    echo "clang-format: note: version $major; the style is checked with 14"
  # shellcheck disable=SC2086  # one word per file
  clang-format --dry-run --Werror --style=file $c_files >"$tmp/fmt" 2>&1
  st=$?
  # One line per misformatted place: file:line:col.
  grep 'error: code should be clang-formatted' "$tmp/fmt" |
    sed 's/: error: code should be clang-formatted.*//' | head -50
  [ $st -ne 0 ] && [ ! -s "$tmp/fmt" ] && echo "clang-format exited $st"
  nbad=$(grep -c 'error: code should be clang-formatted' "$tmp/fmt")
  [ "$nbad" -gt 0 ] &&
    echo "clang-format: $nbad places; fix with: clang-format -i FILE..."
  # Anything else (a bad .clang-format, an unreadable file) as it came.
  [ $st -ne 0 ] && [ "$nbad" = 0 ] && head -5 "$tmp/fmt"
else
  st=1
fi
result clang-format $st $(($(date +%s) - t0)) ", $nfiles files"

# ---- cppcheck -------------------------------------------------------------
# --library=posix: host/ uses fork/exec/pipe/opendir.
# -D_Noreturn=...: cppcheck 2.10 does not know C11 _Noreturn (bench_die);
#   --force still checks every other #if configuration.
# Suppressed everywhere:
#   missingIncludeSystem  system headers are not given to cppcheck (its own
#                         library files describe libc and POSIX).
#   variableScope         "could be declared in an inner scope": taste.
#   readdirCalled         readdir_r is the deprecated one (glibc, POSIX 2024).
t0=$(date +%s)
if command -v cppcheck >/dev/null 2>&1; then
  cppcheck -q -j "$jobs" --force --std=c11 --library=posix \
    --enable=warning,style,performance,portability --inline-suppr \
    --error-exitcode=1 \
    --template='{file}:{line}:{column}: {severity}: {message} [{id}]' \
    -I ext -I host -I tests/unit -I bench \
    '-D_Noreturn=__attribute__((noreturn))' \
    --suppress=missingIncludeSystem --suppress=variableScope \
    --suppress=readdirCalled \
    ext host tests/unit tests/fuzz tests/fault tests/dist tests/preload bench >"$tmp/cpp" 2>&1
  st=$?
  head -50 "$tmp/cpp"
  [ $st -eq 0 ] && [ -s "$tmp/cpp" ] && st=1
else
  st=1
fi
result cppcheck $st $(($(date +%s) - t0))

# ---- clang-tidy -----------------------------------------------------------
# Left out, with the reason:
#   bugprone-easily-swappable-parameters  every function with two ints
#   bugprone-narrowing-conversions        int -> char of a char literal
#                                         (C's '?' is an int)
#   bugprone-implicit-widening-of-multiplication-result
#                                         small bounded products (k * 8)
#   bugprone-branch-clone                 parallel branches kept apart
#                                         for reading
#   clang-analyzer-security.insecureAPI.DeprecatedOrUnsafeBufferHandling
#                                         "use memcpy_s" (C11 Annex K)
#   clang-analyzer-valist.Uninitialized   false positive on va_start +
#                                         vsnprintf in clang 14
checks='-*,bugprone-*,-bugprone-easily-swappable-parameters'
checks="$checks,-bugprone-narrowing-conversions"
checks="$checks,-bugprone-implicit-widening-of-multiplication-result"
checks="$checks,-bugprone-branch-clone,clang-analyzer-*"
checks="$checks,-clang-analyzer-security.insecureAPI.DeprecatedOrUnsafeBufferHandling"
checks="$checks,-clang-analyzer-valist.Uninitialized,cert-err34-c"
if [ "${LINT_TIDY:-1}" != 0 ]; then
  t0=$(date +%s)
  if command -v clang-tidy >/dev/null 2>&1; then
    xml=$(pkg-config --cflags libxml-2.0 2>/dev/null || echo -I/usr/include/libxml2)
    # The build's flags (Makefile WARN), one job per group of files.
    k=0
    for f in ext/*.c ext/*/*.c host/*.c host/*/*.c; do
      echo "$f" >>"$tmp/tidy.list.$((k % jobs))"
      k=$((k + 1))
    done
    i=0
    pids=""
    while [ $i -lt "$jobs" ] && [ -f "$tmp/tidy.list.$i" ]; do
      (
        st=0
        while read -r f; do
          # shellcheck disable=SC2086  # $xml is several flags
          clang-tidy -quiet --checks="$checks" --warnings-as-errors='*' \
            --header-filter='(ext|host)/.*\.h$' "$f" -- \
            -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE \
            -Iext -Ihost $xml || st=1
        done <"$tmp/tidy.list.$i"
        exit $st
      ) >"$tmp/tidy.out.$i" 2>&1 &
      pids="$pids $!"
      i=$((i + 1))
    done
    st=0
    for p in $pids; do
      wait "$p" || st=1
    done
    cat "$tmp"/tidy.out.* | grep -E '(warning|error):' | sort -u | head -50
    grep -qE '(warning|error):' "$tmp"/tidy.out.* && st=1
    ntidy=$(cat "$tmp"/tidy.list.* | wc -l)
  else
    st=1
    ntidy=0
  fi
  result clang-tidy $st $(($(date +%s) - t0)) ", $ntidy files"
fi

echo "lint: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
