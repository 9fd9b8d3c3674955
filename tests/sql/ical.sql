-- tests/sql/ical.sql -- trigger_ical (docs/ical.md): a feed's exact bytes
-- (an exact cron as an RRULE with its zone's VTIMEZONE, a cron that no
-- RRULE says as RDATEs, an interval as an RRULE in UTC, a once trigger),
-- narrowed to an agent, and its refusals. Lines end in CRLF: shown here
-- with the CR removed.
.load @EXT@
.mode list
SELECT trigger_install() AS installed;
INSERT INTO triggers(trigger_id, agent_id, instructions, display_name, trigger_type,
                     cron_expression, timezone, created_at)
  VALUES ('standup', 'ops', 'Standup', 'Standup, room 1', 'cron', '0 9 * * MON-FRI',
          'Europe/Berlin', 1767225600000),
         ('fri13', 'ops', 'Check', NULL, 'cron', '0 0 13 * FRI', 'America/New_York',
          1767225600000);
INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms, created_at)
  VALUES ('poll', 'Poll', 'interval', 5400000, 1767225600000);
INSERT INTO triggers(trigger_id, instructions, trigger_type, scheduled_at, timezone, created_at)
  VALUES ('remind', 'Remind me', 'once', '2026-03-20T10:00:00', 'Asia/Tokyo', 1767225600000);
SELECT replace(trigger_ical('{"from":"2026-03-01T00:00:00Z","to":"2026-03-21T00:00:00Z"}'),
               char(13), '');
SELECT replace(trigger_ical('{"agents":["ops"],"from":"2026-03-16T00:00:00Z",
                              "to":"2026-03-17T00:00:00Z"}'), char(13), '');
SELECT trigger_ical('{"to":"2026-03-01T00:00:00Z","from":"2026-03-01T00:00:00Z"}');
SELECT trigger_ical('{"scope":1}');
SELECT trigger_ical('[]');
