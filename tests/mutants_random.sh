#!/bin/sh
# tests/mutants_random.sh -- `make mutants-random` (issue #41;
# docs/testing.md#random-mutants): N mutants drawn at random with SEED
# over the C files of DIRS (tests/mutants_random.py gen), run by the
# harness of `make mutants` (tests/mutants.sh) in copies of the tree,
# then the kill rate per folder and the survivors to judge.
#
# Resumable: the run's directory is named by DIRS, SEED and N
# (build/mutants-random/DIRS-SEED-N); each mutant's result is written
# there as soon as it is known, and the same command run again (after a
# Ctrl-C, a reboot) skips the mutants that have one.
#
# Coverage: when build/cov holds the counters of a `make coverage` run
# (the whole suite), the lines it never executed are read once
# (build/cov/coverage/never.json; delete it after a new `make coverage`)
# and a mutant on them is a survivor without being run.
#   SEED=41 N=30 DIRS=ext JOBS=1 sh tests/mutants_random.sh
set -u
SEED=${SEED:-1}
N=${N:-30}
DIRS=${DIRS:-ext}
PY=/usr/bin/python3
name=$(printf '%s' "$DIRS" | tr ' ,/' '+++')-$SEED-$N
W=${MUTANTS_DIR:-build/mutants-random/$name}
mkdir -p "$W"
if [ -z "${MUTANTS_COVERAGE:-}" ] && [ -d build/cov ]; then
  cov=build/cov/coverage/never.json
  if [ ! -f "$cov" ] && find build/cov -name '*.gcda' | grep -q .; then
    echo "mutants-random: reading the coverage counters of build/cov (gcovr)"
    mkdir -p build/cov/coverage
    gcovr -r . --filter 'ext/' --filter 'host/' -j 2 --json build/cov/coverage/lines.json build/cov > /dev/null 2>&1 &&
      $PY tests/mutants_random.py coverage build/cov/coverage/lines.json "$cov"
  fi
  [ -f "$cov" ] && MUTANTS_COVERAGE=$cov && export MUTANTS_COVERAGE
fi
$PY tests/mutants_random.py gen "$SEED" "$N" "$DIRS" "$W/list.txt" || exit 2
MUTANTS_RESUME=1 MUTANTS_DIR=$W MUTANTS_LIST=$W/list.txt sh tests/mutants.sh
rc=$?
[ -f "$W/plan.tsv" ] || exit $rc
$PY tests/mutants_random.py summary "$W/list.txt" "$W/plan.tsv" "$W/results" | tee "$W/SUMMARY.md"
echo "mutants-random: $W/SUMMARY.md; judge the survivors in tests/mutants_random_survivors.jsonl"
exit $rc
