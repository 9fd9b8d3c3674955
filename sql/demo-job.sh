#!/bin/sh
# sql/demo-job.sh -- the command `make demo` has trigger-host run for each
# trigger run (--exec). It reads the run's payload JSON on stdin, takes its
# text out with the sqlite3 shell's JSON functions, appends one line to
# $DEMO_LOG (the demo shows that file as it grows) and prints a short note
# on stdout, which the host records as the run's result.
# A payload whose text mentions "flaky" fails on its first attempt (exit 1,
# with a message on stderr that the host records as the run's error); that
# trigger allows two attempts, so the retry a second later succeeds.
tmp=$(mktemp) || exit 1
trap 'rm -f "$tmp"' EXIT
cat > "$tmp"
text=$(sqlite3 :memory: "SELECT json_extract(CAST(readfile('$tmp') AS TEXT), '\$.text')")
log=${DEMO_LOG:-/dev/null}
at=$(date -u +%H:%M:%S)
case $text in
  *flaky*)
    if [ "$TRIGGER_ATTEMPT" = 1 ]; then
      printf '  [job %s] %-10s attempt %s: %s -> failing on purpose\n' \
        "$at" "$TRIGGER_ID" "$TRIGGER_ATTEMPT" "$text" >> "$log"
      echo "upstream mail server timed out (simulated)" >&2
      exit 1
    fi ;;
esac
printf '  [job %s] %-10s attempt %s: %s\n' "$at" "$TRIGGER_ID" "$TRIGGER_ATTEMPT" "$text" >> "$log"
echo "done at $at"
