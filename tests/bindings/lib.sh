# tests/bindings/lib.sh -- sourced by tests/bindings/run.sh and
# tests/dist/run.sh: the lines every create/tick/finish check must print,
# and the pass/fail/skip counting of one layer.
#
# The scenario, the same in every client: load the extension, install,
# INSERT an interval trigger (every minute from 2026-01-01T00:00:00Z), tick
# at 00:01 (trigger_run_due), finish the run (trigger_run_finish), read its
# status back from trigger_runs; print
EXPECTED="version=$(cat VERSION)
run_id=check@1767225660000#1
run_count=1
status=success"
pass=0
fail=0
skipped=""
LIB_ERR=$(mktemp)

ok() { pass=$((pass + 1)); }
# bad NAME WHY...: a failed check, with what went wrong
bad() {
  fail=$((fail + 1))
  n=$1
  shift
  echo "FAIL $LAYER/$n: $*"
}
skip() {
  echo "SKIP $LAYER/$1: $2"
  skipped="$skipped $1"
}
# check NAME CMD...: CMD must exit 0 and print exactly $EXPECTED.
check() {
  n=$1
  shift
  got=$("$@" 2>"$LIB_ERR")
  rc=$?
  if [ $rc -eq 0 ] && [ "$got" = "$EXPECTED" ]; then
    ok
  else
    bad "$n" "exit status $rc, output differs from the expected lines"
    printf '%s\n' "$EXPECTED" > "$LIB_ERR.exp"
    printf '%s\n' "$got" | diff -u "$LIB_ERR.exp" - | head -20
    tail -20 "$LIB_ERR"
    rm -f "$LIB_ERR.exp"
  fi
}
# summary: the layer's line for tests/run_all.sh; status 1 on a failure.
summary() {
  rm -f "$LIB_ERR"
  if [ -n "$skipped" ]; then
    echo "$LAYER: $pass passed, $fail failed, skipped:$skipped"
  else
    echo "$LAYER: $pass passed, $fail failed"
  fi
  [ "$fail" -eq 0 ]
}
