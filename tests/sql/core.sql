-- core.sql: install, the two tables, interval and once triggers, the tick,
-- finishing runs, pause/resume/cancel/fire, wakeup, health, prune, iso.
-- The process TZ is set to a far-away zone by run.sh: nothing may use it.
.load @EXT@
.headers on
.mode list
.nullvalue NULL
SELECT trigger_version() GLOB '[0-9]*.[0-9]*.[0-9]*' AS semver;
SELECT trigger_install() AS schema_version;
SELECT trigger_install() AS again;
SELECT name FROM sqlite_schema WHERE name LIKE 'trigger%' AND type = 'table' ORDER BY name;
-- 2026-01-01T00:00:00Z = 1767225600000
INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, interval_ms, created_at)
  VALUES ('every-min', 'a1', 'Check the build', 'interval', 60000, 1767225600000);
INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, scheduled_at, timezone, created_at)
  VALUES ('berlin-9', 'a2', 'Say good morning to the team in Berlin', 'once', '2026-01-01T09:00:00', 'Europe/Berlin', 1767225600000);
INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, interval_ms, start_at, enabled, created_at)
  VALUES ('paused-one', 'a1', 'Never mind', 'interval', 3600000, '2026-01-01T00:30:00Z', 0, 1767225600000);
SELECT trigger_id, display_name, status, next_due_at, trigger_iso(next_due_at, timezone) AS due FROM triggers ORDER BY trigger_id;
-- lookups are index probes
EXPLAIN QUERY PLAN SELECT * FROM triggers WHERE trigger_id = 'x';
EXPLAIN QUERY PLAN SELECT * FROM triggers WHERE agent_id = 'a1';
EXPLAIN QUERY PLAN SELECT * FROM triggers WHERE status = 'paused';
EXPLAIN QUERY PLAN SELECT * FROM triggers WHERE next_due_at <= 5;
EXPLAIN QUERY PLAN SELECT * FROM trigger_runs WHERE run_id = 'x';
EXPLAIN QUERY PLAN SELECT * FROM trigger_runs WHERE trigger_id = 'x' AND scheduled_for > 0;
SELECT trigger_id FROM triggers WHERE agent_id = 'a1' ORDER BY 1;
SELECT trigger_id FROM triggers WHERE next_due_at <= 1767225660000;
-- nothing due yet
SELECT trigger_run_due(1767225600000) AS nothing_due;
SELECT trigger_next_wakeup(1767225600000) AS wake_ms;
-- one minute later: the interval trigger fires
SELECT json_extract(value, '$.run_id') AS run_id, json_extract(value, '$.payload.text') AS text,
       json_extract(value, '$.payload.source') AS source
  FROM json_each(trigger_run_due(1767225660000, '{"owner":"host-1","lease_ms":30000}'));
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
-- pause / resume: nothing runs for the paused time
SELECT json_extract(trigger_pause('every-min', 1767226400000), '$.status');
SELECT trigger_run_due(1767229200000, '{"agents":["a1"]}') AS while_paused;
SELECT json_extract(trigger_resume('every-min', 1767229230000), '$.next_due_at') AS resumed_next;
SELECT json_extract(trigger_resume('paused-one', 1767229230000), '$.next_due_at') AS anchored_next;
UPDATE triggers SET enabled = 0 WHERE trigger_id = 'paused-one';
SELECT status, next_due_at FROM triggers WHERE trigger_id = 'paused-one';
-- fire now leaves the schedule alone
SELECT json_extract(trigger_fire('every-min', 1767229240000), '$.run_id') AS fired;
SELECT next_due_at FROM triggers WHERE trigger_id = 'every-min';
-- overlap_policy skip (default): the fired run is still running at 00:01
SELECT trigger_run_due(1767229260000) AS overlap;
SELECT scheduled_for, status, error FROM trigger_runs WHERE scheduled_for = 1767229260000;
-- lease expiry reclaims: the fired run's lease (60 s) passed
SELECT count(*) FROM json_each(trigger_run_due(1767229400000, '{"ack":false}'));
SELECT run_id, status, error FROM trigger_runs WHERE run_id = 'every-min@1767229240000#1';
-- cancel
SELECT json_extract(trigger_cancel('every-min', 1767229500000), '$.status');
SELECT trigger_resume('every-min', 1767229500000);
SELECT trigger_health(1767229500000);
SELECT trigger_prune(1767226000000) AS pruned;
SELECT count(*) FROM trigger_runs;
-- DELETE removes the trigger, its runs stay until pruned
DELETE FROM triggers WHERE trigger_id = 'every-min';
SELECT count(*) AS triggers_left FROM triggers;
SELECT count(*) AS runs_left FROM trigger_runs WHERE trigger_id = 'every-min';
-- the same id inserted again is a new incarnation: run ids of its own
INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, interval_ms, created_at)
  VALUES ('every-min', 'a1', 'Check the build again', 'interval', 60000, 1767229500000);
SELECT json_extract(value, '$.run_id') AS new_incarnation
  FROM json_each(trigger_run_due(1767229560000, '{"lease_ms":600000}'));
-- a running run cannot be deleted (it holds its trigger): finish it first
DELETE FROM trigger_runs WHERE trigger_id = 'every-min';
SELECT status, count(*) FROM trigger_runs WHERE trigger_id = 'every-min' GROUP BY 1 ORDER BY 1;
-- the detail of a success is its result; a failure's is its error
SELECT json_extract(trigger_run_finish('every-min@1767229560000#1~2', 'success', 'summary: all green', 1767229561000), '$.last_error') AS last_error;
SELECT run_id, status, error, result FROM trigger_runs WHERE run_id = 'every-min@1767229560000#1~2';
DELETE FROM trigger_runs WHERE run_id = 'every-min@1767229560000#1~2';
SELECT count(*) AS deleted_once_finished FROM trigger_runs WHERE run_id = 'every-min@1767229560000#1~2';
-- trigger_iso and trigger_next_due
SELECT trigger_iso(1767225600000), trigger_iso(1767225600250, 'America/New_York'), trigger_iso(NULL);
SELECT trigger_next_due('{"trigger_type":"interval","interval_ms":60000,"start_at":0}', 1767225630000) AS next_interval;
SELECT trigger_next_due('{"trigger_type":"once","scheduled_at":"2026-03-08T02:30:00","timezone":"America/New_York"}', 0) AS gap_moves_forward;
SELECT trigger_iso(trigger_next_due('{"scheduled_at":"2026-11-01T01:30:00","timezone":"America/New_York"}', 0), 'America/New_York') AS repeated_takes_first;
SELECT trigger_next_due('{"trigger_type":"once","scheduled_at":1000}', 1000) AS past_once;
