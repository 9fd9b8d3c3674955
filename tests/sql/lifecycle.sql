-- lifecycle.sql: what an operator or an agent does to one trigger
-- (docs/lifecycle.md): trigger_pause, trigger_resume, trigger_fire and
-- trigger_cancel, with `now` given; a paused trigger claims nothing, a
-- resume anchors to the schedule, a fire leaves the schedule alone and
-- its run holds the overlap policy until its lease passes, a cancelled
-- trigger stays cancelled.
.load @EXT@
.headers on
.mode list
.nullvalue NULL
.read tests/sql/include/triggers.sql
SELECT trigger_id, status, enabled, next_due_at FROM triggers ORDER BY trigger_id;
-- pause / resume: nothing runs for the paused time
SELECT trigger_pause('every-min', 1767226400000) AS paused;
SELECT json_extract(trigger_pause('every-min', 1767226410000), '$.status') AS paused_again;
SELECT trigger_run_due(1767229200000, '{"agents":["a1"]}') AS while_paused;
SELECT trigger_next_wakeup(1767229200000, '{"agents":["a1"]}') AS wake_while_paused;
SELECT json_extract(trigger_resume('every-min', 1767229230000), '$.next_due_at') AS resumed_next;
SELECT json_extract(trigger_resume('paused-one', 1767229230000), '$.next_due_at') AS anchored_next;
SELECT json_extract(trigger_resume('paused-one', 1767229231000), '$.status') AS resumed_again;
UPDATE triggers SET enabled = 0 WHERE trigger_id = 'paused-one';
SELECT status, next_due_at FROM triggers WHERE trigger_id = 'paused-one';
-- fire now leaves the schedule alone
SELECT json_extract(trigger_fire('every-min', 1767229240000), '$.run_id') AS fired;
SELECT next_due_at FROM triggers WHERE trigger_id = 'every-min';
SELECT run_id, status, claimed_at, lease_until FROM trigger_runs;
-- a paused trigger can be fired too: its status stays
SELECT json_extract(trigger_fire('paused-one', 1767229241000), '$.run_id') AS fired_paused;
SELECT status FROM triggers WHERE trigger_id = 'paused-one';
-- overlap_policy skip (default): the fired run is still running at 01:01
SELECT trigger_run_due(1767229260000) AS overlap;
SELECT scheduled_for, status, error FROM trigger_runs WHERE scheduled_for = 1767229260000;
-- lease expiry reclaims: the fired run's lease (60 s) passed
SELECT count(*) FROM json_each(trigger_run_due(1767229400000, '{"ack":false}'));
SELECT run_id, status, error FROM trigger_runs WHERE run_id = 'every-min@1767229240000#1';
-- cancel: kept with its history, refused every way back
SELECT json_extract(trigger_cancel('every-min', 1767229500000), '$.status');
SELECT trigger_resume('every-min', 1767229500000);
SELECT trigger_pause('every-min', 1767229500000);
SELECT trigger_fire('every-min', 1767229500000);
SELECT json_extract(trigger_cancel('every-min', 1767229501000), '$.status') AS cancelled_again;
SELECT status, next_due_at, (SELECT count(*) FROM trigger_runs WHERE trigger_id = 'every-min') AS runs
  FROM triggers WHERE trigger_id = 'every-min';
-- unknown ids and bad arguments name the function and the argument
SELECT trigger_pause('nope', 1767229500000);
SELECT trigger_resume(5, 1767229500000);
SELECT trigger_fire('paused-one', 'later');
SELECT trigger_cancel();
