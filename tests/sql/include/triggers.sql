-- tests/sql/include/triggers.sql: the triggers tick.sql, lifecycle.sql and
-- tables.sql start from (`.read` from the top of the tree, as run.sh
-- runs them): an interval trigger every minute, a once trigger at 09:00
-- in Berlin, a paused hourly one, in a database installed here.
-- 2026-01-01T00:00:00Z = 1767225600000.
SELECT trigger_install() AS schema_version;
INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, interval_ms, created_at)
  VALUES ('every-min', 'a1', 'Check the build', 'interval', 60000, 1767225600000);
INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, scheduled_at, timezone, created_at)
  VALUES ('berlin-9', 'a2', 'Say good morning to the team in Berlin', 'once', '2026-01-01T09:00:00', 'Europe/Berlin', 1767225600000);
INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, interval_ms, start_at, enabled, created_at)
  VALUES ('paused-one', 'a1', 'Never mind', 'interval', 3600000, '2026-01-01T00:30:00Z', 0, 1767225600000);
