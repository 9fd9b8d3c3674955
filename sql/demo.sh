#!/bin/sh
# sql/demo.sh -- `make demo`. Part 1 (sql/demo-simulated.sql) replays a
# simulated morning with explicit `now` values. Part 2 runs the real host:
# a fresh database with an interval, a once and a cron trigger (every
# second, Europe/Berlin), `build/trigger-host run --exec 'sh sql/demo-job.sh'`
# for about 8 seconds (its log lines on stderr: start, each failed run,
# stop), then a table of the recorded runs and `trigger-host status`.
# Needs the sqlite3 shell and `make` (build/triggers.so, build/trigger-host).
set -e
cd "$(dirname "$0")/.."
B=${B:-build}
SECONDS_TO_RUN=${DEMO_SECONDS:-8}
dir=$(mktemp -d)
host_pid=
tail_pid=
cleanup() {
  [ -n "$host_pid" ] && kill "$host_pid" 2>/dev/null || true
  [ -n "$tail_pid" ] && kill "$tail_pid" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT INT TERM

echo "== Part 1: a simulated morning (explicit now, same output everywhere) =="
sqlite3 "$dir/simulated.db" < sql/demo-simulated.sql

db="$dir/live.db"
echo
echo "== Part 2: the real host, in real time (about $SECONDS_TO_RUN s) =="
# Occurrences on whole seconds, starting two seconds from now.
sqlite3 "$db" >/dev/null <<SQL
.load $B/triggers
SELECT trigger_install();
CREATE TEMP TABLE t0 AS SELECT (CAST(strftime('%s','now') AS INTEGER) + 2) * 1000 AS ms;
INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, interval_ms, start_at)
  SELECT 'build-check', 'agent-1', 'Check the CI build', 'interval', 2000, ms FROM t0;
INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, scheduled_at,
                     max_attempts, backoff_ms)
  SELECT 'report', 'agent-1', 'Mail the weekly report (flaky upstream)', 'once', ms + 1000, 2, 1000
  FROM t0;
INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, cron_expression, timezone,
                     start_at)
  SELECT 'heartbeat', 'agent-2', 'Heartbeat: glance at the inbox', 'cron', '* * * * * *',
         'Europe/Berlin', ms FROM t0;
-- created 32 s "ago", every 10 s: the first tick finds missed occurrences
INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, interval_ms, created_at)
  SELECT 'rotate-logs', 'agent-2', 'Rotate the logs', 'interval', 10000, ms - 32000 FROM t0;
SQL
sqlite3 "$db" <<SQL
.load $B/triggers
.mode box
.print Triggers:
SELECT trigger_id, agent_id, trigger_type AS type,
       coalesce(cron_expression, interval_ms || ' ms', '') AS schedule, timezone,
       trigger_iso(next_due_at, timezone) AS next_due
  FROM triggers ORDER BY next_due_at, trigger_id;
SQL
echo
echo "\$ trigger-host run live.db --exec 'sh demo-job.sh'   (SIGTERM after $SECONDS_TO_RUN s)"
# Each job appends a line to $DEMO_LOG, shown as it grows (its stdout is
# the run's result, recorded by the host).
export DEMO_LOG="$dir/jobs.log"
: > "$DEMO_LOG"
tail -f "$DEMO_LOG" &
tail_pid=$!
# From the database's folder (the job copied there), so that the host's
# log lines name live.db and sh demo-job.sh.
top=$(pwd)
cp sql/demo-job.sh "$dir/"
(cd "$dir" && exec "$top/$B/trigger-host" run live.db --extension "$top/$B/triggers" \
   --exec 'sh demo-job.sh') &
host_pid=$!
sleep "$SECONDS_TO_RUN"
kill -TERM "$host_pid"
status=0
wait "$host_pid" || status=$?
host_pid=
sleep 0.2
kill "$tail_pid" 2>/dev/null || true
wait "$tail_pid" 2>/dev/null || true
tail_pid=
echo "(host exited with status $status)"
echo
sqlite3 "$db" <<SQL
.load $B/triggers
.mode box
.print Runs recorded in trigger_runs (times in each trigger's zone; late = claimed - due, took = finished - claimed):
SELECT r.trigger_id AS "trigger", trigger_iso(r.scheduled_for, coalesce(t.timezone, 'UTC')) AS scheduled_for,
       r.attempt, r.status, r.claimed_at - r.scheduled_for AS late_ms, r.latency_ms AS took_ms,
       coalesce(r.error, r.result, '') AS "error / result"
  FROM trigger_runs r LEFT JOIN triggers t USING (trigger_id)
  ORDER BY r.scheduled_for, r.trigger_id, r.attempt;
SQL
echo
echo "\$ trigger-host status live.db"
(cd "$dir" && "$top/$B/trigger-host" status live.db --extension "$top/$B/triggers")
cat <<'TEXT'

What happened:
- The host slept until trigger_next_wakeup() said something was due (no
  fixed polling tick), claimed it with trigger_run_due(), ran
  `sh sql/demo-job.sh` with the payload JSON on stdin, and reported each
  outcome with trigger_run_finish(): exit 0 -> success with the command's
  stdout as the result, else failed with its stderr as the error.
- heartbeat is a cron trigger (`* * * * * *`, every second, Europe/Berlin:
  its times carry the Berlin offset); build-check runs every 2 s from its
  anchor, so late_ms stays a few ms and the schedule never drifts.
- report is a once trigger allowing 2 attempts: attempt 1 failed (the
  error / result column), attempt 2 was scheduled backoff_ms (1 s) later and
  succeeded; then the trigger is completed.
- rotate-logs had missed occurrences when the host started: the default
  misfire policy (coalesce) ran the latest once and recorded the earlier
  ones as one skipped row.
- SIGTERM made the host stop claiming, wait for running commands, report
  them and exit 0.
- The "trigger-host:" lines are the host's log on stderr: one line on
  start, one per failed run, one on stop (-v adds every run, -q prints
  nothing, --log json writes JSON lines).
- `trigger-host status` lists the triggers like `systemctl list-timers`
  (sorted by next due, times in each trigger's zone, the schedule in
  words), then the failures of the last 24 h. It opens the database
  read-only. Finished runs older than run_retention_ms (30 days) are
  pruned by run and serve, a few ms of write lock at a time.
TEXT
