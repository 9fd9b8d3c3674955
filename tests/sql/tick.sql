-- tick.sql: the tick and the host's reports (docs/lifecycle.md):
-- trigger_run_due (claims, late ticks, a gap coalesced, the agents filter,
-- a once trigger's failure), trigger_run_finish, trigger_run_finish_many,
-- trigger_run_heartbeat (a second database below), trigger_run_sql_job,
-- trigger_next_wakeup
-- and trigger_last_tick. Every call gives `now`. The process TZ is set to
-- a far-away zone by run.sh: nothing may use it.
.load @EXT@
.headers on
.mode list
.nullvalue NULL
.read tests/sql/include/triggers.sql
-- nothing due yet
SELECT trigger_run_due(1767225600000) AS nothing_due;
SELECT trigger_next_wakeup(1767225600000) AS wake_ms;
-- the wakeup with the tick's options: only what that tick would take
SELECT trigger_next_wakeup(1767225600000, '{"agents":["a2"]}') AS wake_a2_ms;
SELECT trigger_next_wakeup(1767225600000, '{"agents":["nobody"]}') AS wake_nobody;
SELECT trigger_next_wakeup(1767225600000, '{"wake_mode":"inject_now"}') AS wake_inject_now;
SELECT trigger_next_wakeup(1767225600000, '{"colour":1}');
-- what the empty tick cost: an index probe, no row read
SELECT json_extract(trigger_last_tick(), '$.claimed') AS claimed,
       json_extract(trigger_last_tick(), '$.rows_read') AS rows_read,
       json_extract(trigger_last_tick(), '$.fullscan_steps') AS fullscan_steps;
-- one minute later: the interval trigger fires
SELECT json_extract(value, '$.run_id') AS run_id, json_extract(value, '$.payload.text') AS text,
       json_extract(value, '$.payload.source') AS source
  FROM json_each(trigger_run_due(1767225660000, '{"owner":"host-1","lease_ms":30000}'));
SELECT json_extract(trigger_last_tick(), '$.claimed') AS claimed,
       json_extract(trigger_last_tick(), '$.rows_read') AS rows_read;
SELECT run_id, status, owner, claimed_at, lease_until FROM trigger_runs;
SELECT json_extract(trigger_run_finish('every-min@1767225660000#1', 'success', NULL, 1767225661500), '$.run_count') AS run_count;
SELECT run_id, status, finished_at, latency_ms FROM trigger_runs;
SELECT trigger_run_finish('every-min@1767225660000#1', 'success');
SELECT trigger_run_finish('nope', 'success');
-- ticking late never drifts the schedule: due 00:02, ticked at 00:02:45
SELECT json_extract(value, '$.scheduled_for') FROM json_each(trigger_run_due(1767225765000, '{"ack":false}'));
SELECT next_due_at, run_count, last_status FROM triggers WHERE trigger_id = 'every-min';
-- a gap of 10 minutes: coalesce runs the latest and records one skipped row
SELECT json_extract(value, '$.scheduled_for') FROM json_each(trigger_run_due(1767226380000, '{"ack":false}'));
SELECT scheduled_for, status, error FROM trigger_runs WHERE trigger_id = 'every-min' AND status = 'skipped';
SELECT next_due_at > 1767226380000 AS next_after_now FROM triggers WHERE trigger_id = 'every-min';
-- the once trigger at 09:00 Berlin = 08:00Z; agents filter
SELECT trigger_run_due('2026-01-01T08:00:00Z', '{"agents":[]}') AS empty_agents;
SELECT json_extract(value, '$.trigger_id') FROM json_each(trigger_run_due('2026-01-01T08:00:00Z', '{"agents":["a2"]}'));
SELECT status, next_due_at FROM triggers WHERE trigger_id = 'berlin-9';
SELECT json_extract(trigger_run_finish('berlin-9@1767254400000#1', 'failed', 'no network', '2026-01-01T08:00:02Z'), '$.status') AS once_after_failure;
SELECT status, last_status, last_error, run_count FROM triggers WHERE trigger_id = 'berlin-9';
-- many reports in one call: each as trigger_run_finish, a refused one
-- alone (its run_id answered), the others written
SELECT json_extract(value, '$.run_id') AS run_id
  FROM json_each(trigger_run_due('2026-01-01T08:01:00Z', '{"agents":["a1"],"lease_ms":60000}'));
SELECT trigger_run_finish_many('[
  {"run_id":"every-min@1767254460000#1","status":"success","detail":"all green"},
  {"run_id":"nope","status":"success"},
  {"run_id":"every-min@1767254460000#1","status":"failed"},
  {"status":"success"}]', '2026-01-01T08:01:05Z') AS answers;
SELECT run_id, status, result, error, finished_at FROM trigger_runs WHERE run_id = 'every-min@1767254460000#1';
SELECT trigger_run_finish_many('[]', '2026-01-01T08:01:06Z') AS none;
SELECT trigger_run_finish_many('{"run_id":"x"}', '2026-01-01T08:01:06Z');
-- the host's heartbeat, in a database of its own
.open :memory:
.load @EXT@
-- trigger_run_heartbeat renews a running run's lease (by default by the
-- lease length it was claimed with; never shortened), and refuses a run
-- that is unknown, not running, or whose lease has passed; a renewed run
-- is not reclaimed by the tick.
SELECT trigger_install() > 0 AS installed;
-- 2026-01-01T00:00:00Z = 1767225600000; every minute, two attempts
INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms, created_at, max_attempts)
  VALUES ('hb', 'Long job', 'interval', 60000, 1767225600000, 2);
SELECT json_extract(value, '$.run_id') AS claimed
  FROM json_each(trigger_run_due(1767225660000, '{"owner":"host-1","lease_ms":30000}'));
-- the claim's lease: 30 s
SELECT claimed_at, lease_until FROM trigger_runs;
-- renewed at +10 s by the claim's length: until +40 s; the run as JSON
SELECT trigger_run_heartbeat('hb@1767225660000#1', NULL, 1767225670000) AS run;
-- an explicit length: until +20 s + 25 s
SELECT json_extract(trigger_run_heartbeat('hb@1767225660000#1', 25000, 1767225680000), '$.lease_until') AS explicit;
-- a lease never moves backwards: a shorter length, or a clock behind the
-- claim's (a wall clock stepped back), leaves it at +45 s
SELECT json_extract(trigger_run_heartbeat('hb@1767225660000#1', 1000, 1767225681000), '$.lease_until') AS shorter_kept;
SELECT json_extract(trigger_run_heartbeat('hb@1767225660000#1', NULL, 1767225600000), '$.lease_until') AS clock_behind_kept;
-- the default stays the claim's 30 s, not the last explicit length
SELECT json_extract(trigger_run_heartbeat('hb@1767225660000#1', NULL, '2026-01-01T00:01:24Z'), '$.lease_until') AS default_again;
-- past the claim's own lease (+30 s) but renewed: the tick leaves it running
SELECT trigger_run_due(1767225700000) AS nothing_reclaimed;
SELECT status, lease_until FROM trigger_runs;
-- the lease passed (lease_until <= now): refused, nothing changed
SELECT trigger_run_heartbeat('hb@1767225660000#1', NULL, 1767225714000);
SELECT status, lease_until FROM trigger_runs;
-- the next tick reclaims it as attempt 2
SELECT json_extract(value, '$.run_id') AS reclaimed FROM json_each(trigger_run_due(1767225714000, '{"lease_ms":10000}'));
SELECT trigger_run_heartbeat('hb@1767225660000#1', NULL, 1767225715000);
SELECT json_extract(trigger_run_heartbeat('hb@1767225660000#2', NULL, 1767225715000), '$.lease_until') AS attempt_2;
SELECT json_extract(trigger_run_finish('hb@1767225660000#2', 'success', NULL, 1767225716000), '$.last_status') AS finished;
SELECT trigger_run_heartbeat('hb@1767225660000#2', NULL, 1767225716500);
-- a deferred run is not running either
SELECT count(*) AS claimed FROM json_each(trigger_run_due(1767225720000));
SELECT json_extract(trigger_run_finish('hb@1767225720000#1', 'deferred', NULL, 1767225721000), '$.status') AS deferred;
SELECT trigger_run_heartbeat('hb@1767225720000#1', NULL, 1767225722000);
-- trigger_fire's run has the default lease (60 s)
SELECT json_extract(trigger_fire('hb', 1767225730000), '$.run_id') AS fired;
SELECT json_extract(trigger_run_heartbeat('hb@1767225730000#1', NULL, 1767225740000), '$.lease_until') - 1767225740000 AS fire_lease_ms;
-- bad arguments
SELECT trigger_run_heartbeat('nope');
SELECT trigger_run_heartbeat(NULL);
SELECT trigger_run_heartbeat('hb@1767225730000#1', 0);
SELECT trigger_run_heartbeat('hb@1767225730000#1', '5000');
SELECT trigger_run_heartbeat('hb@1767225730000#1', 1.5);
SELECT trigger_run_heartbeat('hb@1767225730000#1', 5000, 'soon');
SELECT trigger_run_heartbeat();
SELECT lease_until FROM trigger_runs WHERE run_id = 'hb@1767225730000#1';
SELECT narg, flags & 0x80000 > 0 AS directonly FROM pragma_function_list
  WHERE name = 'trigger_run_heartbeat' ORDER BY narg;
-- a preload that reads the virtual table: the connection still closes
-- (its statement is not kept past the call; the shell would print
-- "sqlite3_close() returns 5" at exit otherwise)
INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, interval_ms, created_at)
  VALUES('pre', 'pa', 'count', 'interval', 60000, 1767225000000);
SELECT trigger_config('preload_sql', 'SELECT count(*) AS n FROM triggers WHERE agent_id = :agent_id') IS NOT NULL AS preload_set;
SELECT json_extract(value, '$.payload.preload') AS preload FROM json_each(trigger_run_due(1767225061000, '{"agents":["pa"]}'));
-- trigger_run_sql_job: a claimed SQL job run and its end recorded in one
-- statement (docs/sql-jobs.md#one-statement-trigger_run_sql_job)
CREATE TABLE ledger(run_id TEXT, at INTEGER);
INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms, created_at, action_sql)
  VALUES('job', 'ledger', 'interval', 60000, 1767225000000, 'INSERT INTO ledger VALUES(:run_id, :now)');
SELECT json_extract(value, '$.run_id') AS claimed FROM json_each(trigger_run_due(1767225060000, '{"sql":true}'));
SELECT trigger_run_sql_job('job@1767225060000#1', NULL, 1767225061000) AS run;
SELECT * FROM ledger;
-- bad arguments: nothing changed
SELECT trigger_run_sql_job('job@1767225060000#1', NULL, 1767225062000);
SELECT trigger_run_sql_job('nope');
SELECT trigger_run_sql_job('hb@1767225730000#1');
SELECT trigger_run_sql_job('job@1767225060000#1', -1);
SELECT trigger_run_sql_job(NULL);
SELECT count(*) AS ledger_rows FROM ledger;
SELECT narg, flags & 0x80000 > 0 AS directonly FROM pragma_function_list
  WHERE name = 'trigger_run_sql_job' ORDER BY narg;
