#!/bin/sh
# tests/mutants.sh -- mutation testing: `make mutants` (not part of
# `make test` or CI; docs/testing.md).
#
# Each mutant of tests/mutants.txt (a small change: a comparison flipped,
# an off-by-one, a statement dropped, arguments swapped) is applied to a
# COPY of the tree, built, and run against a fast subset of the tests; a
# mutant the tests notice is killed, one they do not notice survived.
# The user's files are never touched: the tree is copied (without build/
# and .git) to $W/base, each worker gets its own copy $W/slotN, a mutated
# file is put back from $W/base after its run, and Ctrl-C stops the
# workers and leaves the copies for the next run to replace.
#
# Mutants are found by a unique code fragment across ext/**/*.c (see
# tests/mutants.py), so files can move; a fragment that is not found or
# not unique is reported ("NOT FOUND" / "NOT UNIQUE") and the list must be
# updated.
#
# The tests per mutant, first failure wins (the order is cheapest first):
#   unit   the C unit tests (only for a mutant in a pure module, ext/time
#          or ext/text: the others are not linked into them)
#   sql    the golden .sql files (tests/sql)
#   py     the Python tests but the slow host, shadow-table crash,
#          concurrency and preload ones ($MUTANTS_PY, a tests/py/run.py
#          filter on folder/file.test names)
# The extension is built with -O0 (quicker) and without -Werror (a
# mutant may warn). A mutant that runs longer than $MUTANT_TIMEOUT seconds
# (a loop that never ends) counts as killed.
#
#   sh tests/mutants.sh              every mutant; rewrites tests/MUTANTS.md
#   sh tests/mutants.sh ID...        some (report: build/mutants/REPORT.md)
#   JOBS=1 sh tests/mutants.sh       one worker (default 2)
# Exit status 0 when every mutant is killed or marked equivalent.
set -u
W=${MUTANTS_DIR:-build/mutants}
case $W in /*) ;; *) W=$(pwd)/$W ;; esac
LIST=${MUTANTS_LIST:-tests/mutants.txt}
JOBS=${JOBS:-2}
MUTANT_TIMEOUT=${MUTANT_TIMEOUT:-300}
MUTANTS_PY=${MUTANTS_PY:--host/test_host,-store/test_shadow,-whole/test_concurrency,-whole/test_crash,-test_preload}
PY=/usr/bin/python3
export W LIST JOBS MUTANT_TIMEOUT MUTANTS_PY PY

# build PURE: the extension, the host (it links ext/text/utf8.c) and,
# for a mutant in a pure module (PURE 1), the unit tests, in the current
# directory (a copy of the tree).
build() {
  make -s B=build CFLAGS="-O0 -g" \
    WARN="-std=c11 -w -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE" \
    ext build/trigger-host $([ "$1" = 1 ] && echo unit-bins)
}

# run_tests PURE LOG: the tests of a mutant; prints the first that failed.
run_tests() {
  if [ "$1" = 1 ]; then
    for t in build/unit/test_*; do
      "$t" > "$2" 2>&1 || { echo "unit $(basename "$t")"; return 1; }
    done
  fi
  B=build sh tests/sql/run.sh > "$2" 2>&1
  if ! grep -q '^sql: [0-9]* passed, 0 failed' "$2"; then
    echo "sql $(grep -m1 '^FAIL' "$2" | cut -d' ' -f2)"
    return 1
  fi
  PY_FAILFAST=1 $PY tests/py/run.py build/triggers "$MUTANTS_PY" > "$2" 2>&1 && return 0
  echo "py $(grep -m1 '^FAIL' "$2" | cut -d' ' -f2)"
  return 1
}

# ---- a worker: every JOBS-th mutant of the plan, from its own copy ----
if [ "${1:-}" = "--slot" ]; then
  slot=$2
  top=$(pwd)
  d=$W/slot$slot
  i=0
  tab=$(printf '\t')
  while IFS=$tab read -r id status file _line pure; do
    i=$((i + 1))
    [ $(((i - 1) % JOBS)) -eq $((slot - 1)) ] || continue
    [ "$status" = ok ] || continue
    log=$W/logs/$id.log
    t0=$(date +%s)
    $PY tests/mutants.py apply "$LIST" "$id" "$W/base" "$d" > /dev/null || exit 1
    if ! (cd "$d" && build "$pure") > "$log" 2>&1; then
      res="build-error	see $W/logs/$id.log"
    else
      killer=$(cd "$d" && timeout -k 5 "$MUTANT_TIMEOUT" sh "$top/tests/mutants.sh" --test "$pure" "$log.test")
      rc=$?
      if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        res="timeout	more than ${MUTANT_TIMEOUT}s"
      elif [ $rc -ne 0 ]; then
        res="killed	$killer"
      else
        res="survived	"
      fi
    fi
    cp "$W/base/$file" "$d/$file" # the original back (built again next time)
    printf '%s\t%s\n' "$res" $(($(date +%s) - t0)) > "$W/results/$id"
    echo "mutants: $id: $(printf '%s' "$res" | tr '\t' ' ')"
  done < "$W/plan.tsv"
  exit 0
fi
if [ "${1:-}" = "--test" ]; then
  run_tests "$2" "$3"
  exit $?
fi

# ---- the driver ----
if [ ! -f "$LIST" ] || [ ! -d ext ]; then
  echo "mutants: run from the top of the tree (no $LIST)" >&2
  exit 2
fi
pids=""
stop() {
  # each worker leads a session of its own: everything in it goes (timeout
  # puts a test in a process group of its own, not in another session)
  for p in $pids; do pkill -TERM -s "$p" 2> /dev/null; done
  sleep 1
  for p in $pids; do pkill -KILL -s "$p" 2> /dev/null; done
  echo "mutants: interrupted; the tree was not touched (copies in $W)" >&2
  exit 130
}
trap stop INT TERM HUP

rm -rf "$W"
mkdir -p "$W/base" "$W/results" "$W/logs"
tar --exclude=./build --exclude=./.git -cf - . | (cd "$W/base" && tar -xf -)
if ! $PY tests/mutants.py plan "$LIST" "$W/base" "$@" > "$W/plan.tsv"; then
  exit 2
fi
total=$(grep -c . "$W/plan.tsv")
echo "mutants: $total in $LIST; building and testing the unmutated copy"
cp -a "$W/base" "$W/slot1"
top=$(pwd)
if ! (cd "$W/slot1" && build 1) > "$W/logs/baseline.log" 2>&1; then
  tail -20 "$W/logs/baseline.log"
  echo "mutants: the unmutated tree does not build" >&2
  exit 2
fi
if ! killer=$(cd "$W/slot1" && sh "$top/tests/mutants.sh" --test 1 "$W/logs/baseline.test"); then
  echo "mutants: the unmutated tree fails its tests ($killer; $W/logs/baseline.test)" >&2
  exit 2
fi
s=2
while [ $s -le "$JOBS" ]; do
  cp -a "$W/slot1" "$W/slot$s" # built: a worker rebuilds what a mutant touches
  s=$((s + 1))
done
s=1
while [ $s -le "$JOBS" ]; do
  setsid sh tests/mutants.sh --slot $s &
  pids="$pids $!"
  s=$((s + 1))
done
wait
pids=""
commit="$(git rev-parse --short HEAD 2> /dev/null || echo '?')$(git status --porcelain -- ext tests ':!tests/MUTANTS.md' 2> /dev/null | grep -q . && echo ' + uncommitted changes')"
out=$W/REPORT.md
[ $# -eq 0 ] && out=tests/MUTANTS.md
$PY tests/mutants.py report "$LIST" "$W/plan.tsv" "$W/results" "$out" "$commit"
rc=$?
echo "mutants: report in $out"
exit $rc
