-- check.sql -- create/tick/finish through the sqlite3 shell; prints what
-- tests/bindings/run.sh compares. @EXT@ and @INSTALL_SQL@ are replaced by
-- the extension and sql/install.sql (of the build tree or an install).
.bail on
.mode list
.headers off
.load @EXT@
.output /dev/null
.read @INSTALL_SQL@
.output stdout
INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, interval_ms, created_at)
  VALUES ('check', 'a1', 'Check the build', 'interval', 60000, 1767225600000);
SELECT 'version=' || trigger_version();
SELECT 'run_id=' || json_extract(value, '$.run_id') FROM json_each(trigger_run_due(1767225660000));
SELECT 'run_count=' || json_extract(trigger_run_finish('check@1767225660000#1', 'success', NULL, 1767225661000), '$.run_count');
SELECT 'status=' || status FROM trigger_runs WHERE run_id = 'check@1767225660000#1';
