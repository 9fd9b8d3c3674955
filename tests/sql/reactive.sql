-- reactive.sql: event triggers (docs/reactive.md): trigger_signal and
-- the trigger_signals table (an application's SQL trigger signalling in
-- its own transaction), the run's payload.event, a timeout, a bad value
-- named; `now` given throughout.
.load @EXT@
.headers on
.mode list
.nullvalue NULL
SELECT trigger_install() AS schema_version;
INSERT INTO triggers(trigger_id, instructions, trigger_type, event_key, created_at)
  VALUES ('ship', 'Ship the order', 'event', 'order:1:paid', 1767225600000);
INSERT INTO triggers(trigger_id, instructions, trigger_type, event_key, scheduled_at, max_runs, created_at)
  VALUES ('merged', 'Review the merge, or remind at 17:00', 'event', 'pr:42:merged',
          '2026-01-01T17:00:00Z', 1, 1767225600000);
SELECT trigger_id, status, next_due_at, trigger_describe(trigger_id) AS described FROM triggers ORDER BY trigger_id;
-- the outbox: an AFTER UPDATE trigger signals in the writing transaction
CREATE TABLE orders(id INTEGER PRIMARY KEY, status TEXT, total REAL);
CREATE TRIGGER order_paid AFTER UPDATE OF status ON orders WHEN NEW.status = 'paid' BEGIN
  INSERT INTO trigger_signals(event_key, payload, now)
    VALUES ('order:' || NEW.id || ':paid', '{"total":' || NEW.total || '}', 1767225660000);
END;
INSERT INTO orders VALUES (1, 'new', 9.5);
BEGIN; UPDATE orders SET status = 'paid'; ROLLBACK;
SELECT next_due_at AS after_rollback FROM triggers WHERE trigger_id = 'ship';
UPDATE orders SET status = 'paid';
SELECT count(*) AS kept FROM trigger_signals;
SELECT value FROM json_each(trigger_run_due(1767225720000));
-- a signal from SQL, then the timeout of a trigger never signalled
SELECT trigger_signal('order:1:paid', '{"total":12}', 1767225780000) AS made_due;
SELECT trigger_signal('nobody:waits', NULL, 1767225780000) AS made_due;
SELECT json_extract(value, '$.payload.event') AS event FROM json_each(trigger_run_due(1767225780000));
SELECT json_extract(value, '$.payload.event') AS event FROM json_each(trigger_run_due(1767286800000));
-- bad values: named, nothing written
SELECT trigger_signal('order:1:paid', '[1]');
INSERT INTO triggers(instructions, trigger_type) VALUES ('x', 'event');
INSERT INTO triggers(instructions, trigger_type, event_key, debounce_max_ms) VALUES ('x', 'event', 'k', 5000);
-- chains: a finished run signals run:<trigger_id>:<status>
INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms, created_at)
  VALUES ('build', 'Build', 'interval', 3600000, 1767286800000);
INSERT INTO triggers(trigger_id, instructions, trigger_type, event_key, created_at)
  VALUES ('deploy', 'Deploy the build', 'event', 'run:build:success', 1767286800000);
SELECT json_extract(value, '$.run_id') AS claimed FROM json_each(trigger_run_due(1767290400000));
SELECT json_extract(trigger_run_finish('build@1767290400000#1', 'success', 'green', 1767290460000), '$.last_status') AS build;
SELECT json_extract(value, '$.run_id') AS claimed, json_extract(value, '$.payload.event.key') AS key
  FROM json_each(trigger_run_due(1767290460000));
-- debounce: three edits, one run 5 s after the last, with the last payload and the count
INSERT INTO triggers(trigger_id, instructions, trigger_type, event_key, debounce_ms, created_at)
  VALUES ('summarize', 'Summarize the edits', 'event', 'doc:7:edited', 5000, 1767286800000);
SELECT trigger_signal('doc:7:edited', '{"rev":1}', 1767290500000) + trigger_signal('doc:7:edited', '{"rev":2}', 1767290502000)
     + trigger_signal('doc:7:edited', '{"rev":3}', 1767290504000) AS signals;
SELECT next_due_at FROM triggers WHERE trigger_id = 'summarize';
SELECT json_extract(value, '$.payload.event') AS event FROM json_each(trigger_run_due(1767290509000));
-- cancel: a running run marked, reported failed by a stopped command -> cancelled
SELECT json_extract(value, '$.run_id') AS claimed FROM json_each(trigger_run_due(1767294000000));
SELECT json_extract(trigger_run_cancel('build@1767294000000#1', 'not needed', 1767294001000), '$.cancel_requested_at') AS asked;
SELECT json_extract(trigger_run_finish('build@1767294000000#1', 'failed', 'killed by signal 15', 1767294002000), '$.run_count') AS run_count;
SELECT run_id, status, error, result FROM trigger_runs WHERE run_id = 'build@1767294000000#1';
SELECT trigger_run_cancel('build@1767294000000#1');
-- retry: attempt 2 of the same occurrence, its payload with retryOf, once until claimed
SELECT json_extract(trigger_run_retry('build@1767294000000#1', 1767294003000), '$.run_id') AS pending;
SELECT json_extract(trigger_run_retry('build@1767294000000#1', 1767294004000), '$.run_id') AS same;
SELECT json_extract(value, '$.run_id') AS claimed, json_extract(value, '$.payload.retryOf') AS retry_of
  FROM json_each(trigger_run_due(1767294005000));
SELECT trigger_run_retry('build@1767294000000#2');
-- usage reported with a finish (the fifth argument), kept in the run
SELECT json_extract(value, '$.run_id') AS claimed FROM json_each(trigger_run_due(1767297600000));
SELECT json_extract(trigger_run_finish('build@1767297600000#1', 'success', 'ok', 1767297601000, '{"cost":0.42,"tokens":1800}'), '$.run_count') AS run_count;
SELECT usage FROM trigger_runs WHERE run_id = 'build@1767297600000#1';
SELECT trigger_run_finish('build@1767297600000#1', 'success', NULL, NULL, '{"cost":-1}');
