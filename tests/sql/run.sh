#!/bin/sh
# tests/sql/run.sh -- golden tests: each tests/sql/NAME.sql runs through
# Debian's sqlite3 shell (stdout and stderr together, so errors stay in
# order) and must print exactly tests/sql/NAME.expected. "@EXT@" in a
# script is replaced by the extension path ($B/triggers).
#   UPDATE=1 sh tests/sql/run.sh   rewrites the .expected files.
B=${B:-build}
pass=0
fail=0
for f in tests/sql/*.sql; do
  name=$(basename "$f" .sql)
  exp=tests/sql/$name.expected
  got=$(sed "s#@EXT@#$B/triggers#g" "$f" | LD_PRELOAD="$PRELOAD" TZ=Pacific/Kiritimati sqlite3 -batch :memory: 2>&1)
  if [ -n "$UPDATE" ]; then
    printf '%s\n' "$got" > "$exp"
  fi
  if printf '%s\n' "$got" | diff -u "$exp" - > /tmp/sqltest.$$ 2>&1; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL sql/$name"
    head -40 /tmp/sqltest.$$
  fi
done
rm -f /tmp/sqltest.$$
echo "sql: $pass passed, $fail failed"
