-- Holidays (docs/calendar.md#holidays-and-business-days): trigger_calendar_days,
-- trigger_calendar_import, calendar and calendar_policy on cron and rrule triggers.
.load @EXT@
.mode list
.headers on
SELECT trigger_install() AS installed;
INSERT INTO trigger_calendar_days(calendar, day, name) VALUES ('us', '2026-01-19', 'Martin Luther King Jr. Day');
SELECT trigger_calendar_import('us', 'BEGIN:VCALENDAR
BEGIN:VEVENT
DTSTART;VALUE=DATE:20000101
RRULE:FREQ=YEARLY
SUMMARY:New Year''s Day
END:VEVENT
BEGIN:VEVENT
DTSTART;VALUE=DATE:20260216
SUMMARY:Washington''s Birthday
END:VEVENT
END:VCALENDAR', '{"from":"2026-01-01","years":2}') AS added;
SELECT calendar, day, name FROM trigger_calendar_days ORDER BY day;
EXPLAIN QUERY PLAN SELECT day FROM trigger_calendar_days WHERE calendar = 'us';
INSERT INTO triggers(trigger_id, instructions, trigger_type, cron_expression, calendar, calendar_policy, created_at)
  VALUES ('standup', 'Standup', 'cron', '0 9 * * MON', 'us', 'previous_business_day', '2026-01-01T00:00:00Z');
SELECT trigger_describe('standup');
SELECT n, due_iso FROM trigger_preview('standup', '2026-01-10T00:00:00Z') LIMIT 3;
SELECT n, due_iso FROM trigger_preview('{"rrule":"FREQ=WEEKLY;BYDAY=MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0","calendar":"us","calendar_policy":"next_business_day"}', '2026-02-10T00:00:00Z') LIMIT 2;
SELECT trigger_config('business_days');
INSERT INTO triggers(instructions, trigger_type, cron_expression, calendar) VALUES ('x', 'cron', '0 9 * * *', 'mars');
INSERT INTO trigger_calendar_days VALUES ('us', '2026-02-30', '');
SELECT trigger_calendar_import('us', 'not a calendar');
