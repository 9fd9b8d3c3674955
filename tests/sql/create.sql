-- create.sql: the create action (docs/create-action.md): trigger_create
-- (created, a duplicate, a dry run, refusals with their codes),
-- trigger_create_xml (a model's reply, a DOCTYPE refused) and
-- trigger_dedupe_key (the key of docs/create-action.md#dedupe-keys).
-- Every context gives `now`.
.load @EXT@
.headers on
.mode list
.nullvalue NULL
SELECT trigger_install() AS schema_version;
-- 2026-01-01T00:00:00Z = 1767225600000
SELECT trigger_create('{"instructions":"Check the build","trigger_type":"interval","interval_ms":900000}',
                      '{"agent_id":"agent-1","role":"owner","now":1767225600000}') AS created;
SELECT trigger_create('{"instructions":"  check THE build","trigger_type":"interval","interval_ms":"900000"}',
                      '{"agent_id":"agent-1","role":"owner","now":1767225601000}') AS duplicate;
SELECT trigger_create('{"instructions":"Water the plants","when":"every day at 9am","timezone":"Europe/Berlin"}',
                      '{"agent_id":"agent-1","role":"owner","now":1767225602000,"dry_run":true}') AS dry_run;
SELECT trigger_create('{"instructions":"Water the plants","when":"every day at 9am","timezone":"Europe/Berlin"}',
                      '{"agent_id":"agent-1","role":"owner","now":1767225602000}') AS from_when;
SELECT trigger_id, agent_id, trigger_type, interval_ms, cron_expression, timezone, status, dedupe_key
  FROM triggers ORDER BY created_at, trigger_id;
-- refusals: a code and a reason, nothing written
SELECT trigger_create('{"instructions":"x","trigger_type":"interval","interval_ms":5}',
                      '{"agent_id":"agent-1","role":"owner","now":1767225603000}') AS too_often;
SELECT trigger_create('{"instructions":"x","trigger_type":"interval","interval_ms":900000}',
                      '{"agent_id":"agent-1","role":"guest","now":1767225603000}') AS not_allowed;
SELECT trigger_create('{"instructions":"x","trigger_type":"weekly"}',
                      '{"agent_id":"agent-1","role":"owner","now":1767225603000}') AS bad_type;
SELECT trigger_create('not json', '{"agent_id":"agent-1","role":"owner","now":1767225603000}') AS not_json;
SELECT trigger_create('{"instructions":"x","trigger_type":"interval","interval_ms":900000}', '[1]') AS bad_context;
SELECT count(*) AS still FROM triggers;
-- trigger_create_xml: a model's reply, wrapped in prose
SELECT trigger_create_xml('Sure! Here it is:
<response><instructions>Summarize overnight market moves</instructions>
<triggerType>Cron</triggerType><cronExpression>0 7 * * mon-fri</cronExpression>
<timezone>europe/berlin</timezone><colour>red</colour></response>
Anything else?', '{"agent_id":"agent-1","role":"owner","now":1767225604000}') AS from_xml;
SELECT trigger_type, cron_expression, timezone FROM triggers WHERE instructions LIKE 'Summarize%';
SELECT trigger_create_xml('<!DOCTYPE response [<!ENTITY x "y">]><response><instructions>&x;</instructions></response>',
                          '{"agent_id":"agent-1","role":"owner","now":1767225605000}') AS doctype;
SELECT trigger_create_xml(5) AS not_text;
SELECT kind, count(*) FROM trigger_events GROUP BY 1 ORDER BY 1;
-- trigger_dedupe_key(instructions, trigger_type, schedule, scope [, tz])
SELECT trigger_dedupe_key('Check the build', 'interval', 900000, '') AS interval_key;
SELECT trigger_dedupe_key('  check THE   build ', 'interval', '900000', '') AS same_key;
SELECT trigger_dedupe_key('Report', 'cron', '0 9 * * MON-FRI', '') = trigger_dedupe_key('Report', 'cron', '0 9 * * 1-5', '') AS cron_spellings;
SELECT trigger_dedupe_key('Report', 'cron', '0 9 * * *', '', 'Asia/Tokyo') <> trigger_dedupe_key('Report', 'cron', '0 9 * * *', '') AS zone_counts;
SELECT trigger_dedupe_key('Report', 'interval', 900000, '', 'Asia/Tokyo') = trigger_dedupe_key('Report', 'interval', 900000, '') AS zone_only_for_cron;
SELECT trigger_dedupe_key('x', 'weekly', 1, '');
SELECT trigger_dedupe_key('x', 'interval', 'abc', '');
SELECT trigger_dedupe_key('x', 'interval', 60000, 5);
