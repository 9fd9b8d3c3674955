#!/bin/sh
# tests/sql/run.sh -- golden tests: each tests/sql/NAME.sql runs through
# Debian's sqlite3 shell (stdout and stderr together, so errors stay in
# order) and must print exactly tests/sql/NAME.expected. "@EXT@" in a
# script is replaced by the extension path ($B/triggers). A file per
# family of functions (docs/testing.md#golden-sql-files); the last check,
# sql/every_function, fails when a function or virtual table the
# extension registers is named in none of them.
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
# every function and virtual table the extension registers, in some file
names=$(printf '.load %s\nSELECT name FROM pragma_function_list WHERE name LIKE %s UNION SELECT name FROM pragma_module_list WHERE name LIKE %s;\n' \
  "$B/triggers" "'trigger%'" "'trigger%'" | LD_PRELOAD="$PRELOAD" sqlite3 -batch :memory: 2>&1)
missing=""
for n in $names; do
  grep -qw -- "$n" tests/sql/*.sql || missing="$missing $n"
done
if [ -n "$names" ] && [ -z "$missing" ]; then
  pass=$((pass + 1))
else
  fail=$((fail + 1))
  echo "FAIL sql/every_function: named in no tests/sql/*.sql:${missing:- (no names read: $names)}"
fi
echo "sql: $pass passed, $fail failed"
