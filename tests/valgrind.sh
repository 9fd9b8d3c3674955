#!/bin/sh
# tests/valgrind.sh -- the golden SQL tests (Debian's sqlite3) and the
# Python binding tests under valgrind's memcheck. Fails on any memory
# error, and on any definitely/indirectly lost block whose allocation
# stack passes through the extension (triggers.so); Python's own
# interpreter-lifetime allocations are not ours and are ignored.
B=${B:-build}
command -v valgrind >/dev/null 2>&1 || { echo "valgrind: not installed" >&2; exit 1; }
logdir=$B/valgrind
rm -rf "$logdir" && mkdir -p "$logdir"
VG="valgrind --error-exitcode=99 --leak-check=full --show-leak-kinds=definite,indirect --errors-for-leak-kinds=none --num-callers=40"
status=0
# 1. every golden SQL file through the shell
for f in tests/sql/*.sql; do
  name=$(basename "$f" .sql)
  sed "s#@EXT@#$B/triggers#g" "$f" | $VG --log-file="$logdir/sql-$name.%p" sqlite3 -batch :memory: > "$logdir/sql-$name.out" 2>&1
  [ $? -eq 99 ] && { echo "FAIL valgrind sql/$name"; status=1; }
done
# 2. the Python tests (slow under valgrind: the runtime's and the create
# action's sets, tests/py/run.py filters by folder/file)
CORE="base/,trigger/,store/test_install.,store/test_migrate,tick/test_tick.,tick/test_tick_cost"
CORE="$CORE,tick/test_retry,tick/test_wakeup,tick/test_tick_options,sql/test_admin"
CREATE="agent/test_create,agent/test_xml_request,sql/test_dedupe"
PYTHONMALLOC=malloc $VG --log-file="$logdir/py.%p" /usr/bin/python3 tests/py/run.py "$B/triggers" "$CORE" > "$logdir/py.out" 2>&1
[ $? -eq 99 ] && { echo "FAIL valgrind py"; status=1; }
grep -E "py: " "$logdir/py.out"
PYTHONMALLOC=malloc $VG --log-file="$logdir/pycreate.%p" /usr/bin/python3 tests/py/run.py "$B/triggers" "$CREATE" > "$logdir/pycreate.out" 2>&1
[ $? -eq 99 ] && { echo "FAIL valgrind py create"; status=1; }
# leaks with our frames in the allocation stack
# (a stack frame in one of ext/*.c: "fn (claim.c:212)")
files=$(cd ext && ls *.c */*.c | sed "s,.*/,," | sed 's/\.c$//' | paste -sd'|')
ours=$(awk -v pat="\\\\((${files})\\\\.c:[0-9]+\\\\)" '/(definitely|indirectly) lost in/ {blk=1; buf=$0; next}
            blk && /^==[0-9]+== *$/ {if (buf ~ pat) print buf; blk=0; next}
            blk {buf = buf "\n" $0}' "$logdir"/* 2>/dev/null)
if [ -n "$ours" ]; then
  echo "FAIL valgrind: leaks from triggers.so"
  printf '%s\n' "$ours" | head -60
  status=1
fi
errs=$(grep -h "ERROR SUMMARY" "$logdir"/sql-* "$logdir"/py* 2>/dev/null | grep -v " 0 errors" | head -5)
[ -n "$errs" ] && { echo "$errs"; status=1; }
if [ $status -eq 0 ]; then echo "valgrind: 1 passed, 0 failed"; else echo "valgrind: 0 passed, 1 failed"; fi
exit $status
