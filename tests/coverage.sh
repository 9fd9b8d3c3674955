#!/bin/sh
# tests/coverage.sh -- the second half of `make coverage` (which builds
# everything with --coverage into B=build/cov first): deletes old counters,
# runs the `make test` layers (tests/run_all.sh) against that build, then
# has gcovr read the counters of every program that ran (the extension in
# sqlite3 and python3, the unit tests, the host and its children, the
# fault harness, the fuzz seed replays) and prints, with
# tests/coverage_table.py, the line and branch coverage of each file of
# ext/ and host/ and the totals of ext/, of its pure modules (PURE_SRC,
# from the Makefile) and of host/. Details, line by line:
# $B/coverage/index.html. Exits with the tests' status.
# The layers are those of `make test-asan`: the dist and bindings layers
# test packaging and other clients, not the extension's paths (and a
# user's link of the instrumented static archive through pkg-config
# cannot carry gcov's runtime).
#   make coverage                    # the usual way
#   LAYERS="unit py" make coverage   # some layers only (quicker, partial)
B=${B:-build/cov}
export B
LAYERS=${LAYERS:-unit sql py fault fuzz_seeds dqlite}
if ! command -v gcovr >/dev/null 2>&1; then
  echo "coverage: needs gcovr (Debian: gcovr; tests/deps.sh installs it as root)" >&2
  exit 1
fi
find "$B" -name '*.gcda' -delete 2>/dev/null
# shellcheck disable=SC2086
sh tests/run_all.sh $LAYERS
rc=$?
rm -rf "$B/coverage"
mkdir -p "$B/coverage"
if ! gcovr -r . --filter 'ext/' --filter 'host/' -j 2 \
    --json-summary "$B/coverage/summary.json" \
    --html-details "$B/coverage/index.html" "$B" > "$B/coverage/gcovr.log" 2>&1; then
  tail -20 "$B/coverage/gcovr.log"
  echo "coverage: gcovr failed (log: $B/coverage/gcovr.log)" >&2
  exit 1
fi
/usr/bin/python3 tests/coverage_table.py "$B/coverage/summary.json" "$PURE_SRC" || exit 1
echo "line-by-line: $B/coverage/index.html"
exit $rc
