.load @EXT@
-- when.sql: trigger_parse_when(phrase [, now [, tz]]) -- the JSON of
-- docs/when.md for accepted, recurring and rejected phrases, argument
-- errors, and the function's flags. The process TZ (set by run.sh) must
-- not matter: the zone is the third argument, default UTC.
.headers on
.mode list
.nullvalue NULL
-- 2025-03-08T15:00:00Z = Saturday 10:00 in New York, the eve of spring-forward
SELECT trigger_parse_when('tomorrow at 9am', '2025-03-08T15:00:00Z', 'America/New_York') AS once;
SELECT trigger_parse_when('Tomorrow at 2:30 A.M.', 1741446000000, 'America/New_York') AS dst_gap;
SELECT trigger_parse_when('in 90 minutes', '2025-03-08T15:00:00Z') AS duration_utc;
SELECT trigger_parse_when('next friday', '2025-03-05T10:00:00Z', 'UTC') AS next_weekday;
SELECT trigger_parse_when('every weekday at 8:30', '2025-03-08T15:00:00Z', 'Europe/Berlin') AS cron;
SELECT trigger_parse_when('every 15 minutes', '2025-03-08T15:00:00Z', 'Asia/Kolkata') AS interval;
-- calendar rules (docs/when.md#calendar-rules): kind rrule, its start_at
SELECT trigger_parse_when('every other Tuesday at 9', '2025-03-08T15:00:00Z', 'America/New_York') AS rrule;
SELECT trigger_parse_when('the 2nd and 4th Friday of every month at 10am', '2025-03-08T15:00:00Z', 'Europe/Berlin') AS rrule_monthly;
SELECT trigger_parse_when('in 1 month', '2025-01-31T12:00:00Z', 'Australia/Lord_Howe') AS clamped;
SELECT trigger_parse_when('after the meeting tomorrow', '2025-03-08T15:00:00Z') AS partial;
SELECT trigger_parse_when('yesterday', '2025-03-08T15:00:00Z') AS past;
SELECT trigger_parse_when('february 30', '2025-03-08T15:00:00Z') AS invalid;
SELECT trigger_parse_when('say "hi" at \9', '2025-03-08T15:00:00Z') AS escaped;
-- fields one by one
SELECT json_extract(j, '$.kind') AS kind, json_extract(j, '$.due_at_iso') AS due,
       json_extract(j, '$.confidence') AS confidence, json_extract(j, '$.cron') AS cron
  FROM (SELECT trigger_parse_when(p, '2025-03-05T10:00:00Z', 'UTC') AS j
          FROM (SELECT 'now' AS p UNION ALL SELECT '2 hours' UNION ALL SELECT 'at 7'
                UNION ALL SELECT 'every monday' UNION ALL SELECT 'soon'));
-- the confidence threshold a caller would apply (min_confidence 0.5)
SELECT json_extract(trigger_parse_when('tomorrow at midnight', 0), '$.confidence') >= 0.5 AS usable;
-- NULL phrase -> NULL; NULL now -> the wall clock; NULL tz -> UTC
SELECT trigger_parse_when(NULL) AS null_phrase;
SELECT abs(json_extract(trigger_parse_when('in 1 hour'), '$.due_at')
           - 3600000 - CAST((julianday('now') - 2440587.5) * 86400000 AS INTEGER)) < 5000 AS wall_clock;
SELECT json_extract(trigger_parse_when('noon', 0, NULL), '$.tz') AS default_tz;
-- argument errors name the function and the argument
SELECT trigger_parse_when(5);
SELECT trigger_parse_when('now', 'yesterday-ish');
SELECT trigger_parse_when('now', 0, 'Mars/Olympus');
SELECT trigger_parse_when('now', 0, 42);
SELECT trigger_parse_when();
-- innocuous, not deterministic (it reads the clock when now is omitted)
SELECT narg, (flags & 0x800) != 0 AS deterministic, (flags & 0x200000) != 0 AS innocuous
  FROM pragma_function_list WHERE name = 'trigger_parse_when' ORDER BY narg;
-- trigger_find_when(text [, now [, tz]]): the phrase inside a message, with
-- phrase, span (code points) and rest
SELECT trigger_find_when('remind me tomorrow at 9am to call Anna', '2025-03-08T15:00:00Z', 'America/New_York') AS found;
SELECT trigger_find_when('call 3 people in room 101 about version 2.5', '2025-03-08T15:00:00Z') AS none;
SELECT json_extract(j, '$.phrase') AS phrase, json_extract(j, '$.span') AS span,
       json_extract(j, '$.rest') AS rest, json_extract(j, '$.confidence') AS confidence
  FROM (SELECT trigger_find_when(m, '2025-03-05T10:00:00Z', 'UTC') AS j
          FROM (SELECT '«Zürich» call (at 5pm).' AS m UNION ALL SELECT 'Every weekday at 8:30: stand-up'
                UNION ALL SELECT 'call Anna in 20 minutes' UNION ALL SELECT 'after the meeting tomorrow'
                UNION ALL SELECT 'today at 9am' UNION ALL SELECT 'walk 5 m'));
-- the text substring at the span is the phrase
SELECT substr(m, json_extract(j, '$.span[0]') + 1,
              json_extract(j, '$.span[1]') - json_extract(j, '$.span[0]')) = json_extract(j, '$.phrase') AS span_ok
  FROM (SELECT m, trigger_find_when(m, 0) AS j FROM (SELECT 'Tâche: «tomorrow at 9am» ✓' AS m));
SELECT trigger_find_when(NULL) AS null_text;
SELECT trigger_find_when(5);
SELECT trigger_find_when('at noon', 'soonish');
SELECT trigger_find_when('at noon', 0, 'Mars/Olympus');
SELECT narg, (flags & 0x800) != 0 AS deterministic, (flags & 0x200000) != 0 AS innocuous
  FROM pragma_function_list WHERE name = 'trigger_find_when' ORDER BY narg;
