-- schedule.sql: a schedule's instants and words without a table
-- (docs/functions.md, docs/time.md, docs/cron.md): trigger_next_due,
-- trigger_iso, trigger_preview (a spec or a trigger's id) and
-- trigger_describe. The process TZ (set by run.sh) must not matter.
.load @EXT@
.headers on
.mode list
.nullvalue NULL
SELECT trigger_install() AS schema_version;
-- trigger_iso and trigger_next_due (2026-01-01T00:00:00Z = 1767225600000)
SELECT trigger_iso(1767225600000), trigger_iso(1767225600250, 'America/New_York'), trigger_iso(NULL);
SELECT trigger_iso(1767225600000, 'asia/tokyo') AS any_case;
SELECT trigger_next_due('{"trigger_type":"interval","interval_ms":60000,"start_at":0}', 1767225630000) AS next_interval;
SELECT trigger_next_due('{"trigger_type":"once","scheduled_at":"2026-03-08T02:30:00","timezone":"America/New_York"}', 0) AS gap_moves_forward;
SELECT trigger_iso(trigger_next_due('{"scheduled_at":"2026-11-01T01:30:00","timezone":"America/New_York"}', 0), 'America/New_York') AS repeated_takes_first;
SELECT trigger_next_due('{"trigger_type":"once","scheduled_at":1000}', 1000) AS past_once;
SELECT trigger_iso(trigger_next_due('0 7 * * MON-FRI', '2026-01-02T07:00:00Z', 'Europe/Berlin'), 'Europe/Berlin') AS next_weekday_7;
SELECT trigger_iso(trigger_next_due('0 2 * * *', '2026-03-29T00:00:00Z', 'Europe/Berlin'), 'Europe/Berlin') AS cron_in_the_gap;
SELECT trigger_next_due('0 0 * * *', '9999-12-31T12:00:00Z') AS past_9999;
SELECT trigger_iso(0, 'Asia/Tokio');
SELECT trigger_next_due('0 9 * * FUNDAY', 0);
SELECT trigger_next_due('{"interval_ms":60000,"colour":"red"}', 0);
SELECT trigger_next_due('*/5 * * * *');
-- trigger_preview: the next occurrences as a table
SELECT n, due_at, due_iso FROM trigger_preview('0 9 * * MON-FRI', '2026-01-01T00:00:00Z', 'Europe/Berlin') LIMIT 4;
SELECT n, due_iso FROM trigger_preview('{"interval_ms":3600000,"start_at":"2026-01-01T00:00:00Z","end_at":"2026-01-01T03:00:00Z"}', 0);
SELECT count(*) FROM trigger_preview('* * * * *', 0) WHERE n < 100;
SELECT count(*) AS capped FROM trigger_preview('* * * * *', 0);
INSERT INTO triggers(trigger_id, instructions, trigger_type, cron_expression, timezone, end_at, created_at)
  VALUES ('standup', 'Post the standup', 'cron', '0 9 * * MON-FRI', 'Europe/Berlin', '2026-01-09T18:00:00', '2026-01-01T00:00:00Z');
SELECT n, due_iso FROM trigger_preview('standup', '2026-01-05T00:00:00Z');
SELECT * FROM trigger_preview('nope', 0);
SELECT * FROM trigger_preview('*/5 * * * *');
EXPLAIN QUERY PLAN SELECT * FROM trigger_preview('*/5 * * * *', 0) WHERE n < 3;
-- trigger_describe: the schedule in words
SELECT trigger_describe('0 7 * * MON-FRI', 'Europe/Berlin');
SELECT trigger_describe('*/15 * * * *');
SELECT trigger_describe('{"scheduled_at":"2026-03-09T07:15:00","timezone":"America/New_York"}');
SELECT trigger_describe('30 9-17 * * *');
SELECT trigger_describe('@weekly', 'asia/tokyo');
SELECT trigger_describe('standup');
SELECT trigger_describe(NULL) AS null_spec;
SELECT trigger_describe('0 9 * * FUNDAY');
-- rrule schedules (docs/calendar.md): bare rule text (DTSTART = after) and JSON specs
SELECT trigger_next_due('FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;BYHOUR=9;BYMINUTE=0;BYSECOND=0', '2026-01-01T10:00:00Z', 'Europe/Berlin');
SELECT n, due_iso FROM trigger_preview('FREQ=MONTHLY;BYDAY=2FR,4FR;BYHOUR=10;BYMINUTE=0;BYSECOND=0', '2026-01-01T00:00:00Z', 'Asia/Tokyo') LIMIT 4;
SELECT n, due_iso FROM trigger_preview('{"rrule":"FREQ=DAILY;COUNT=3","start_at":"2026-03-28T02:30:00","timezone":"Europe/Berlin"}', 0);
SELECT trigger_describe('FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;BYHOUR=9;BYMINUTE=0', 'Europe/Berlin');
SELECT trigger_describe('FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=17;BYMINUTE=0');
SELECT trigger_dedupe_key('Sprint review', 'rrule', 'freq=weekly;interval=2;byday=tu', '', 'Europe/Berlin');
SELECT trigger_next_due('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', 0);
