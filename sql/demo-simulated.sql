-- sql/demo-simulated.sql -- part 1 of `make demo`: a simulated morning.
-- Every call gets an explicit `now`, so this prints the same on every
-- machine. Run through the sqlite3 shell by sql/demo.sh.
.load build/triggers
.mode list
SELECT trigger_install() AS schema_version;
.mode box
.headers on
-- Monday 2026-03-09, 06:00 UTC: three triggers created with plain SQL ...
INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, interval_ms, created_at)
  VALUES ('build-check', 'agent-1', 'Check the CI build and report failures', 'interval', 3600000,
          '2026-03-09T06:00:00Z');
INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, cron_expression, timezone, created_at)
  VALUES ('standup', 'agent-1', 'Post the stand-up reminder in #team', 'cron', '30 9 * * MON-FRI',
          'Europe/Berlin', '2026-03-09T06:00:00Z');
INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, scheduled_at, timezone, created_at)
  VALUES ('ny-call', 'agent-2', 'Remind Dana about the New York call', 'once', '2026-03-09T07:15:00',
          'America/New_York', '2026-03-09T06:00:00Z');
-- ... and one through the agent-facing action, as a model would ask for it
SELECT json_extract(trigger_create_xml(
  '<response><instructions>Summarize overnight market moves</instructions>' ||
  '<triggerType>cron</triggerType><cronExpression>0 7 * * MON-FRI</cronExpression>' ||
  '<timezone>Europe/London</timezone></response>',
  '{"agent_id":"agent-2","role":"owner","now":"2026-03-09T06:00:00Z"}'), '$.triggerId') AS created_by_action;
.print
.print Triggers, with their next due time in their own zone:
SELECT trigger_id, agent_id, trigger_type AS type,
       coalesce(cron_expression, interval_ms, '') AS schedule, timezone,
       trigger_iso(next_due_at, timezone) AS next_due
  FROM triggers ORDER BY next_due_at;
-- The host loop, simulated: tick every 10 minutes from 06:00 to 12:00 UTC.
-- (ack=false records each claimed run as success at once.)
.print
.print Ticking every 10 minutes from 06:00 to 12:00 UTC ...
WITH RECURSIVE clock(now) AS (
  SELECT strftime('%s', '2026-03-09T06:10:00') * 1000
  UNION ALL SELECT now + 600000 FROM clock WHERE now < strftime('%s', '2026-03-09T12:00:00') * 1000)
SELECT count(*) AS ticks, sum(json_array_length(trigger_run_due(now, '{"ack":false,"owner":"demo"}'))) AS runs_claimed
  FROM clock;
.print
.print Runs recorded (times in UTC):
SELECT r.trigger_id, trigger_iso(r.scheduled_for) AS scheduled_for, r.status,
       trigger_iso(r.claimed_at) AS claimed_at, coalesce(r.error, '') AS note
  FROM trigger_runs r ORDER BY r.scheduled_for, r.trigger_id;
.print
.print Health at 12:00 UTC:
SELECT json_extract(h, '$.active') AS active, json_extract(h, '$.paused') AS paused,
       json_extract(h, '$.overdue') AS overdue, json_extract(h, '$.running') AS running,
       json_extract(h, '$.failures_24h') AS failures_24h,
       trigger_iso(json_extract(h, '$.next_due_at')) AS next_due
  FROM (SELECT trigger_health('2026-03-09T12:00:00Z') AS h);
