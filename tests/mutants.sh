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
# The tests per mutant, the most likely to kill it first, first failure
# wins (tests/mutants.py steps() writes the order into the plan):
#   unit:T the C unit test named after the mutated module (ext/time,
#          ext/text: test_cron for cron.c; host/: test_host_NAME)
#   sql    the golden .sql files (tests/sql)
#   py:F   the Python tests named after the module, then the folder of
#          tests/py/ that mirrors the code's folder (tick/ for ext/tick;
#          host/ for host/, every host test, slow ones included)
#   py:REST the rest of the fast subset: the Python tests but the slow
#          host, shadow-table crash, concurrency and preload ones
#          ($MUTANTS_PY, a tests/py/run.py filter on folder/file.test
#          names) and but the folder already run
#   units  for a mutant in a pure module, every other unit test (last:
#          building them all takes longer than the rest)
#   mcp    for a mutant in host/mcp/, the MCP layer (tests/mcp: the
#          official SDK's client against the host)
# and with MUTANTS_FULL=1, for a mutant of ext/ the fast subset left alive,
# what the fast subset leaves out (the killer is then named "full: ..."):
#   slow   the Python tests $MUTANTS_PY leaves out (host, shadow-table
#          crash, concurrency, preload)
#   fault  the fault layer (out of memory, I/O errors, busy; tests/fault)
# A mutant in host/ runs its unit test and the host tests only (the
# extension is not changed by it). A mutant whose every line the whole
# suite never executed ($MUTANTS_COVERAGE, tests/mutants_random.py
# coverage) is a survivor without being built.
# The extension is built with -O0 (quicker) and without -Werror (a
# mutant may warn), but a pointer passed for an integer or a pointer of
# another type stays an error (an argument swap of mismatched types is a
# build error, not counted). A mutant that runs longer than
# $MUTANT_TIMEOUT seconds (default: three times what the unmutated tree
# took for its tests, at least 300: a loop that never ends) counts as killed.
#
#   sh tests/mutants.sh              every mutant; rewrites tests/MUTANTS.md
#   sh tests/mutants.sh ID...        some (report: build/mutants/REPORT.md)
#   JOBS=1 sh tests/mutants.sh       one worker (default 2)
#   MUTANTS_RESUME=1 ...             keep $W's results: a mutant with a
#                                    result is not run again (make
#                                    mutants-random; the unmutated tree's
#                                    tests are not rerun when unchanged)
# Exit status 0 when every mutant is killed or marked equivalent.
set -u
W=${MUTANTS_DIR:-build/mutants}
case $W in /*) ;; *) W=$(pwd)/$W ;; esac
LIST=${MUTANTS_LIST:-tests/mutants.txt}
JOBS=${JOBS:-2}
MUTANT_TIMEOUT=${MUTANT_TIMEOUT:-}
MUTANTS_PY=${MUTANTS_PY:--host/test_host,-store/test_shadow,-whole/test_concurrency,-whole/test_crash,-test_preload}
PY=/usr/bin/python3
# the MCP layer's SDK, installed once in this tree (tests/mcp/sdk.sh)
MCP_SDK_DIR=${MCP_SDK_DIR:-$(pwd)/build/mcp-sdk}
export W LIST JOBS MUTANT_TIMEOUT MUTANTS_PY PY MCP_SDK_DIR

MUTANTS_RESUME=${MUTANTS_RESUME:-}
MUTANTS_COVERAGE=${MUTANTS_COVERAGE:-}
MUTANTS_FULL=${MUTANTS_FULL:-}
export MUTANTS_RESUME MUTANTS_COVERAGE MUTANTS_FULL

# make TARGET...: in the current directory (a copy of the tree), -O0.
mk() {
  make -s B=build CFLAGS="-O0 -g" \
    WARN="-std=c11 -Werror=int-conversion -Werror=incompatible-pointer-types -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE" "$@"
}

# build: the extension, the host (it links ext/text files) and the full
# disk the host's tests preload (tests/fault/host_disk.c).
build() {
  mk ext build/trigger-host build/host_disk.so
}

# step_limit STEP: the seconds STEP may take, three times what the step
# holding it took on the unmutated tree (at least 60; $W/baseline.steps,
# "STEP SECONDS" lines: unit:T is held by units, py:F by py:REST), or
# nothing when unknown (then only the mutant's whole bound holds).
step_limit() {
  f=$W/baseline.steps
  [ -f "$f" ] || return 0
  secs=$(awk -v s="$1" '$1 == s { print $2; exit }' "$f")
  if [ -z "$secs" ]; then
    case $1 in
      unit:*) secs=$(awk '$1 == "units" { print $2; exit }' "$f") ;;
      py:*) secs=$(awk '$1 == "py:REST" { print $2; exit }' "$f") ;;
    esac
  fi
  [ -n "$secs" ] || return 0
  secs=$((3 * secs))
  [ "$secs" -lt 60 ] && secs=60
  echo "$secs"
}

# run_tests STEPS LOG: the tests of a mutant, in the order of STEPS
# (see above); prints the first that failed. A step that runs past its
# step_limit ends the run with status 124 (a loop that never ends is
# found in minutes, not at the whole run's bound); with $MUTANTS_TIMING
# set (the unmutated tree's run), each step's seconds are written there.
run_tests() {
  for step in $1; do
    lim=$(step_limit "$step")
    t0=$(date +%s)
    if [ -n "$lim" ]; then
      out=$(timeout -k 5 "$lim" sh "$0" --step "$step" "$2")
      rc=$?
    else
      out=$(run_step "$step" "$2")
      rc=$?
    fi
    [ -n "${MUTANTS_TIMING:-}" ] && echo "$step $(($(date +%s) - t0))" >> "$MUTANTS_TIMING"
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
      echo "$step: more than ${lim}s"
      return 124
    fi
    [ $rc -eq 0 ] || { echo "$out"; return 1; }
  done
  return 0
}

# run_step STEP LOG: one step of run_tests; prints what failed.
run_step() {
  step=$1
  set -- "" "$2"
  case $step in
    unit:*)
      t=${step#unit:}
      mk "build/unit/$t" > "$2" 2>&1 || { echo "unit $t (build)"; return 1; }
      "build/unit/$t" > "$2" 2>&1 || { echo "unit $t"; return 1; }
      ;;
    units)
      mk unit-bins > "$2" 2>&1 || { echo "unit (build)"; return 1; }
      for t in build/unit/test_*; do
        "$t" > "$2" 2>&1 || { echo "unit $(basename "$t")"; return 1; }
      done
      ;;
    sql)
      B=build sh tests/sql/run.sh > "$2" 2>&1
      if ! grep -q '^sql: [0-9]* passed, 0 failed' "$2"; then
        echo "sql $(grep -m1 '^FAIL' "$2" | cut -d' ' -f2)"
        return 1
      fi
      ;;
    slow)
      mk build/triggers-preload.so build/plain-sqlite build/host_disk.so > "$2" 2>&1 ||
        { echo "full: build"; return 1; }
      f=$(printf '%s' "$MUTANTS_PY" | tr ',' '\n' | sed -n 's/^-//p' | tr '\n' ',')
      PY_FAILFAST=1 $PY tests/py/run.py build/triggers "$f" > "$2" 2>&1 && return 0
      echo "full: py $(grep -m1 '^FAIL' "$2" | cut -d' ' -f2)"
      return 1
      ;;
    fault)
      mk build/fault_oom > "$2" 2>&1 || { echo "full: build"; return 1; }
      for mode in "" --io --busy; do
        # shellcheck disable=SC2086
        build/fault_oom $mode build/triggers.so > "$2" 2>&1 || { echo "full: fault_oom $mode"; return 1; }
      done
      ;;
    mcp)
      B=build sh tests/mcp/run.sh > "$2" 2>&1
      grep -q '^mcp: SKIP' "$2" && return 0 # no SDK: not counted against it
      if ! grep -q '^mcp: [0-9]* passed, 0 failed' "$2"; then
        echo "mcp $(grep -m1 '^FAIL' "$2" | cut -c6-80)"
        return 1
      fi
      ;;
    py:*)
      f=${step#py:}
      case $f in REST*) f=$MUTANTS_PY${f#REST} ;; host/*) ;; *) f=$f,$MUTANTS_PY ;; esac
      PY_FAILFAST=1 $PY tests/py/run.py build/triggers "$f" > "$2" 2>&1 && return 0
      echo "py $(grep -m1 '^FAIL' "$2" | cut -d' ' -f2)"
      return 1
      ;;
  esac
  return 0
}

# ---- a worker: every JOBS-th mutant of the plan, from its own copy ----
if [ "${1:-}" = "--slot" ]; then
  slot=$2
  top=$(pwd)
  d=$W/slot$slot
  i=0
  tab=$(printf '\t')
  while IFS=$tab read -r id status file _line _pure steps cov; do
    i=$((i + 1))
    [ $(((i - 1) % JOBS)) -eq $((slot - 1)) ] || continue
    [ "$status" = ok ] || continue
    [ -n "$MUTANTS_RESUME" ] && [ -f "$W/results/$id" ] && continue
    if [ "$cov" = never ]; then
      printf 'survived\tnever executed by the suite (%s)\t0\n' "$MUTANTS_COVERAGE" > "$W/results/$id"
      echo "mutants: $id: survived (never executed by the suite)"
      continue
    fi
    case $file in ext/*) [ -n "${MUTANTS_FULL:-}" ] && steps="$steps slow fault" ;; esac
    log=$W/logs/$id.log
    t0=$(date +%s)
    $PY tests/mutants.py apply "$LIST" "$id" "$W/base" "$d" > /dev/null || exit 1
    if ! (cd "$d" && build) > "$log" 2>&1; then
      res="build-error	see $W/logs/$id.log"
    else
      killer=$(cd "$d" && timeout -k 5 "$MUTANT_TIMEOUT" sh "$top/tests/mutants.sh" --test "$steps" "$log.test")
      rc=$?
      if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        res="timeout	${killer:-more than ${MUTANT_TIMEOUT}s}"
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
if [ "${1:-}" = "--step" ]; then
  run_step "$2" "$3"
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

if [ -n "$MUTANTS_RESUME" ]; then
  rm -rf "$W/base" "$W"/slot*
else
  rm -rf "$W"
fi
mkdir -p "$W/base" "$W/results" "$W/logs"
tar --exclude=./build --exclude=./.git -cf - . | (cd "$W/base" && tar -xf -)
if ! $PY tests/mutants.py plan "$LIST" "$W/base" "$@" > "$W/plan.tsv"; then
  exit 2
fi
total=$(grep -c . "$W/plan.tsv")
done_=$(find "$W/results" -type f | wc -l)
echo "mutants: $total in $LIST ($done_ done before); building and testing the unmutated copy"
cp -a "$W/base" "$W/slot1"
top=$(pwd)
if ! (cd "$W/slot1" && build) > "$W/logs/baseline.log" 2>&1; then
  tail -20 "$W/logs/baseline.log"
  echo "mutants: the unmutated tree does not build" >&2
  exit 2
fi
# every test a mutant of the plan may run, on the unmutated tree (once
# per tree: a resumed run of the same tree does not run them again)
base_steps=""
grep -q '	ext/' "$W/plan.tsv" && base_steps="units sql py:REST${MUTANTS_FULL:+ slow fault}"
grep -q '	host/' "$W/plan.tsv" &&
  base_steps="$base_steps $(cut -f6 "$W/plan.tsv" | tr ' ' '\n' | grep '^unit:test_host_' | sort -u | tr '\n' ' ')py:host/"
grep -q '	host/mcp/' "$W/plan.tsv" && base_steps="$base_steps mcp"
tree=$( (cat "$W/plan.tsv"; cd "$W/base" && find ext host tests Makefile -type f | sort | xargs cat) | cksum)
if [ "$(cat "$W/baseline.ok" 2> /dev/null)" != "$tree $base_steps" ]; then
  t0=$(date +%s)
  rm -f "$W/baseline.steps"
  if ! killer=$(cd "$W/slot1" && MUTANTS_TIMING=$W/baseline.steps.new sh "$top/tests/mutants.sh" --test "$base_steps" "$W/logs/baseline.test"); then
    echo "mutants: the unmutated tree fails its tests ($killer; $W/logs/baseline.test)" >&2
    exit 2
  fi
  echo $(($(date +%s) - t0)) > "$W/baseline.secs"
  mv "$W/baseline.steps.new" "$W/baseline.steps"
  echo "$tree $base_steps" > "$W/baseline.ok"
fi
# A mutant that runs three times as long as every test of the unmutated
# tree (at least 300 s) is taken for a loop that never ends: on a loaded
# machine a fixed bound would count a slow survivor as killed.
if [ -z "$MUTANT_TIMEOUT" ]; then
  MUTANT_TIMEOUT=$((3 * $(cat "$W/baseline.secs" 2> /dev/null || echo 100)))
  [ "$MUTANT_TIMEOUT" -lt 300 ] && MUTANT_TIMEOUT=300
fi
echo "mutants: a mutant running more than ${MUTANT_TIMEOUT}s counts as killed (timeout)"
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
[ $# -eq 0 ] && [ "$LIST" = tests/mutants.txt ] && out=tests/MUTANTS.md
$PY tests/mutants.py report "$LIST" "$W/plan.tsv" "$W/results" "$out" "$commit"
rc=$?
echo "mutants: report in $out"
exit $rc
