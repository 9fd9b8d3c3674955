-- tables.sql: the virtual tables (docs/tables.md): `triggers` (INSERT,
-- UPDATE, DELETE, SELECT), `trigger_runs` (a running run cannot be
-- deleted; a finished one can) and `trigger_events` (one event per
-- change), each lookup an index probe (EXPLAIN QUERY PLAN). A trigger
-- created again under a deleted one's id is a new incarnation.
.load @EXT@
.headers on
.mode list
.nullvalue NULL
.read tests/sql/include/triggers.sql
INSERT INTO triggers(trigger_id, instructions, trigger_type, cron_expression, timezone, created_at)
  VALUES ('standup', 'Post the standup', 'cron', '0 9 * * MON-FRI', 'Europe/Berlin', '2026-01-01T00:00:00Z');
SELECT trigger_id, display_name, status, next_due_at, trigger_iso(next_due_at, timezone) AS due FROM triggers ORDER BY trigger_id;
SELECT trigger_id, agent_id, trigger_type, misfire_policy, overlap_policy, max_attempts, dedupe_key FROM triggers ORDER BY trigger_id;
-- a row that does not validate: refused, nothing written
INSERT INTO triggers(instructions, trigger_type, interval_ms) VALUES ('x', 'interval', 0);
INSERT INTO triggers(instructions, trigger_type) VALUES ('x', 'weekly');
INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms) VALUES ('every-min', 'again', 'interval', 60000);
SELECT count(*) AS still FROM triggers;
-- lookups are index probes
EXPLAIN QUERY PLAN SELECT * FROM triggers WHERE trigger_id = 'x';
EXPLAIN QUERY PLAN SELECT * FROM triggers WHERE agent_id = 'a1';
EXPLAIN QUERY PLAN SELECT * FROM triggers WHERE status = 'paused';
EXPLAIN QUERY PLAN SELECT * FROM triggers WHERE next_due_at <= 5;
EXPLAIN QUERY PLAN SELECT * FROM trigger_runs WHERE run_id = 'x';
EXPLAIN QUERY PLAN SELECT * FROM trigger_runs WHERE trigger_id = 'x' AND scheduled_for > 0;
EXPLAIN QUERY PLAN SELECT * FROM trigger_runs WHERE status = 'running';
EXPLAIN QUERY PLAN SELECT * FROM trigger_events WHERE trigger_id = 'x';
SELECT trigger_id FROM triggers WHERE agent_id = 'a1' ORDER BY 1;
SELECT trigger_id FROM triggers WHERE next_due_at <= 1767225660000;
SELECT trigger_id FROM triggers WHERE status = 'paused';
-- a run of every-min, claimed and finished
SELECT json_extract(value, '$.run_id') AS run_id
  FROM json_each(trigger_run_due(1767225660000, '{"agents":["a1"]}'));
SELECT json_extract(trigger_run_finish('every-min@1767225660000#1', 'success', NULL, 1767225661000), '$.run_count') AS run_count;
SELECT run_id, trigger_id, status, attempt, scheduled_for, finished_at FROM trigger_runs ORDER BY run_id;
-- DELETE removes the trigger, its runs stay until pruned
DELETE FROM triggers WHERE trigger_id = 'every-min';
SELECT count(*) AS triggers_left FROM triggers;
SELECT count(*) AS runs_left FROM trigger_runs WHERE trigger_id = 'every-min';
-- the same id inserted again is a new incarnation: run ids of its own
INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, interval_ms, created_at)
  VALUES ('every-min', 'a1', 'Check the build again', 'interval', 60000, 1767229500000);
SELECT json_extract(value, '$.run_id') AS new_incarnation
  FROM json_each(trigger_run_due(1767229560000, '{"lease_ms":600000,"agents":["a1"]}'));
-- a running run cannot be deleted (it holds its trigger): finish it first
DELETE FROM trigger_runs WHERE trigger_id = 'every-min';
SELECT status, count(*) FROM trigger_runs WHERE trigger_id = 'every-min' GROUP BY 1 ORDER BY 1;
-- the detail of a success is its result; a failure's is its error
SELECT json_extract(trigger_run_finish('every-min@1767229560000#1~2', 'success', 'summary: all green', 1767229561000), '$.last_error') AS last_error;
SELECT run_id, status, error, result FROM trigger_runs WHERE run_id = 'every-min@1767229560000#1~2';
DELETE FROM trigger_runs WHERE run_id = 'every-min@1767229560000#1~2';
SELECT count(*) AS deleted_once_finished FROM trigger_runs WHERE run_id = 'every-min@1767229560000#1~2';
-- UPDATE: a new schedule re-arms from the wall clock (so only its
-- anchor and time of day are shown); enabled = 0 pauses, 1 resumes
UPDATE triggers SET interval_ms = 300000 WHERE trigger_id = 'paused-one';
SELECT interval_ms, status, next_due_at IS NULL AS still_paused FROM triggers WHERE trigger_id = 'paused-one';
UPDATE triggers SET display_name = 'Renamed', enabled = 0 WHERE trigger_id = 'standup';
SELECT display_name, status, enabled, next_due_at FROM triggers WHERE trigger_id = 'standup';
UPDATE triggers SET enabled = 1 WHERE trigger_id = 'standup';
SELECT status, enabled, substr(trigger_iso(next_due_at, timezone), 12, 5) AS at FROM triggers WHERE trigger_id = 'standup';
UPDATE triggers SET cron_expression = '30 8 * * *' WHERE trigger_id = 'standup';
SELECT cron_expression, substr(trigger_iso(next_due_at, timezone), 12, 5) AS at FROM triggers WHERE trigger_id = 'standup';
UPDATE triggers SET misfire_policy = 'sometimes' WHERE trigger_id = 'standup';
UPDATE triggers SET trigger_id = 'other' WHERE trigger_id = 'standup';
-- the events of all that, newest first
SELECT trigger_id, kind, agent_id FROM trigger_events ORDER BY rowid DESC LIMIT 10;
SELECT kind, count(*) FROM trigger_events WHERE trigger_id = 'every-min' GROUP BY 1 ORDER BY 1;
INSERT INTO trigger_events(trigger_id, kind) VALUES ('x', 'created');
