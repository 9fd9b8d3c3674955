-- admin.sql: the operator's functions (docs/functions.md): trigger_version,
-- trigger_install (idempotent; the tables it makes), trigger_config,
-- trigger_health, trigger_prune (runs and events, with a limit), every
-- function's registration (its arguments and flags), and
-- trigger_internal_ctx, which holds the connection's state and does
-- nothing when called. Every call gives `now`.
.load @EXT@
.headers on
.mode list
.nullvalue NULL
SELECT trigger_version() GLOB '[0-9]*.[0-9]*.[0-9]*' AS semver;
SELECT trigger_install() AS schema_version;
SELECT trigger_install() AS again;
SELECT name FROM sqlite_schema WHERE name LIKE 'trigger%' AND type = 'table' ORDER BY name;
SELECT trigger_internal_ctx() IS NULL AS does_nothing;
-- every function: its arguments and flags (DETERMINISTIC 0x800,
-- DIRECTONLY 0x80000, INNOCUOUS 0x200000)
SELECT name, group_concat(narg, ' ') AS nargs, max(flags & 0x800 != 0) AS deterministic,
       max(flags & 0x80000 != 0) AS directonly, max(flags & 0x200000 != 0) AS innocuous
  FROM (SELECT * FROM pragma_function_list WHERE name LIKE 'trigger%' ORDER BY name, narg)
  GROUP BY name ORDER BY name;
SELECT name FROM pragma_module_list WHERE name LIKE 'trigger%' ORDER BY name;
-- config: the defaults, a value set and read back, refusals
SELECT trigger_config('misfire_grace_ms') AS grace, trigger_config('min_confidence') AS min_confidence,
       trigger_config('creator_roles') AS creator_roles, trigger_config('preload_sql') AS preload_sql;
SELECT trigger_config('misfire_grace_ms', 10000) AS set_grace;
SELECT value FROM triggers_config WHERE key = 'misfire_grace_ms';
SELECT trigger_config('creator_roles', 'owner,admin,boss') AS roles;
SELECT trigger_config('preload_sql', 'SELECT :trigger_id AS id') AS preload;
SELECT trigger_config('preload_sql', NULL) AS cleared;
SELECT trigger_config('colour');
SELECT trigger_config('misfire_grace_ms', -1);
SELECT trigger_config('min_confidence', 'high');
SELECT trigger_config('preload_sql', 'DELETE FROM triggers');
-- 2026-01-01T00:00:00Z = 1767225600000: a history to report on and prune
INSERT INTO triggers(trigger_id, agent_id, scope, instructions, trigger_type, interval_ms, created_at)
  VALUES ('every-min', 'a1', 's1', 'Check the build', 'interval', 60000, 1767225600000);
INSERT INTO triggers(trigger_id, agent_id, scope, instructions, trigger_type, interval_ms, enabled, created_at)
  VALUES ('paused', 'a2', 's2', 'Never mind', 'interval', 3600000, 0, 1767225600000);
SELECT count(*) FROM json_each(trigger_run_due(1767225660000));
SELECT trigger_run_finish('every-min@1767225660000#1', 'success', NULL, 1767225661000) IS NOT NULL;
SELECT count(*) FROM json_each(trigger_run_due(1767225720000));
SELECT trigger_run_finish('every-min@1767225720000#1', 'failed', 'boom', 1767225721000) IS NOT NULL;
SELECT count(*) FROM json_each(trigger_run_due(1767225780000));
SELECT trigger_run_finish('every-min@1767225780000#1', 'success', NULL, 1767225781000) IS NOT NULL;
SELECT count(*) FROM json_each(trigger_run_due(1767225840000, '{"lease_ms":30000}'));
SELECT trigger_health(1767225850000) AS health;
-- the options narrow every count; the lease of the running run passed
SELECT trigger_health(1767225850000, '{"agents":["a2"]}') AS health_a2;
SELECT json_extract(trigger_health(1767225880000, '{"scope":"s1"}'), '$.expired_leases') AS expired;
SELECT trigger_health(1767225850000, '{"agents":"a1"}');
-- prune: finished runs before `before`, at most `limit`; running runs kept
SELECT status, count(*) FROM trigger_runs GROUP BY 1 ORDER BY 1;
SELECT trigger_prune(1767225800000, 1) AS pruned_one;
SELECT trigger_prune(1767225800000) AS pruned;
SELECT trigger_prune(1767226000000) AS pruned_none_running;
SELECT status, count(*) FROM trigger_runs GROUP BY 1 ORDER BY 1;
SELECT count(*) AS events FROM trigger_events;
SELECT trigger_prune(1767226000000, NULL, 'trigger_events') AS events_pruned;
SELECT count(*) AS events_left FROM trigger_events;
SELECT trigger_prune(1767226000000, 0);
SELECT trigger_prune(1767226000000, 10, 'triggers');
SELECT trigger_prune('soon');
