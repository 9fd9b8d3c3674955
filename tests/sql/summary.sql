-- summary.sql: trigger_state_summary / trigger_state_payload through the
-- shell (docs/summary.md): segments, redaction, a directive conflict,
-- stale items, lowered caps, the fallback, execution hints, and the index plans of the
-- summary's run and pending reads (the same shape as ext/store/agent.c's).
.load @EXT@
.headers off
.mode list
.nullvalue NULL
SELECT trigger_install() > 0;
-- 2026-03-08T06:00:00Z = 1772949600000
INSERT INTO triggers(trigger_id, agent_id, display_name, instructions, trigger_type, interval_ms, created_at)
  VALUES ('build-check', 'agent-1', 'Check the build', 'Check the CI build', 'interval', 900000, 1772949600000);
INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, interval_ms, created_at)
  VALUES ('market-am', 'agent-1', 'Summarize overnight market moves', 'interval', 3600000, 1772946000000);
SELECT count(*) FROM json_each(trigger_run_due('2026-03-08T06:15:00Z'));
SELECT trigger_run_finish('build-check@1772950500000#1', 'success', NULL, '2026-03-08T06:15:04Z') IS NOT NULL;
SELECT trigger_run_finish('market-am@1772949600000#1', 'failed',
  'quote API returned 429 with Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln',
  '2026-03-08T06:15:04Z') IS NOT NULL;
SELECT trigger_state_summary('agent-1', '2026-03-08T06:20:00Z', '{"admin":[
  {"ts":"2026-03-08T06:10:00Z","text":"deploy: hold until QA signs off"},
  {"ts":"2026-03-08T06:18:00Z","text":"deploy: go ahead, QA passed"},
  {"ts":"2026-03-08T06:12:00Z","text":"use the staging DB, password=hunter2","resolved":true},
  {"ts":"2026-03-07T06:00:00Z","text":"yesterday''s note"}],
  "stale_ms":43200000}');
SELECT trigger_state_payload('agent-1', '2026-03-08T06:20:00Z', '{"max_admin":0,"max_loop":120}');
SELECT length(trigger_state_summary('agent-1', '2026-03-08T06:20:00Z', '{"max_total":200}')) <= 200;
-- malformed options: the fixed fallback, never an error
SELECT trigger_state_summary('agent-1', '2026-03-08T06:20:00Z', '{"admin":"not an array"}');
SELECT trigger_state_payload('agent-1', '2026-03-08T06:20:00Z', '{"max_total":-1}');
-- execution hints: a paused trigger (resume) and an open admin question
-- (await_admin_confirmation), first line of the text and "hints" in the payload
SELECT trigger_pause('market-am', '2026-03-08T06:21:00Z') IS NOT NULL;
SELECT trigger_state_summary('agent-1', '2026-03-08T06:22:00Z', '{"admin":[
  {"ts":"2026-03-08T06:21:30Z","text":"Can I roll back the release?"}],"max_loop":0,"max_footer":0}');
SELECT json_extract(trigger_state_payload('agent-1', '2026-03-08T06:22:00Z', '{"admin":[
  {"ts":"2026-03-08T06:21:30Z","text":"Can I roll back the release?"}]}'), '$.hints');
-- the reads behind the summary are bounded index searches
EXPLAIN QUERY PLAN SELECT r.trigger_id, d.display_name FROM triggers_rundata AS r
  LEFT JOIN triggers_data AS d ON d.trigger_id = r.trigger_id
  WHERE r.agent_id = 'agent-1' AND r.status = 'success' AND r.finished_at <= 5
  ORDER BY r.finished_at DESC, r.id DESC LIMIT 3;
EXPLAIN QUERY PLAN SELECT s.trigger_id, d.display_name
  FROM triggers_state AS s INDEXED BY triggers_state_agent
  CROSS JOIN triggers_data AS d ON d.id = s.id
  WHERE s.agent_id = 'agent-1' AND s.agent_id <> '' AND d.status = 'scheduled'
  AND s.next_due_at IS NOT NULL ORDER BY s.next_due_at, s.trigger_id LIMIT 5;
