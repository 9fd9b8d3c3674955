-- heartbeat.sql: trigger_run_heartbeat renews a running run's lease (by
-- default by the lease length it was claimed with; never shortened), and refuses a run
-- that is unknown, not running, or whose lease has passed; a renewed run
-- is not reclaimed by the tick.
.load @EXT@
.headers on
.mode list
.nullvalue NULL
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
