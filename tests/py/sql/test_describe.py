"""tests/py/sql/test_describe.py -- trigger_describe (ext/sql/fn_describe.c):
a schedule in words, for cron text, a JSON spec and a trigger's id."""
from util import add, connect, error, one


def test_describe(ext):
    db = connect(ext)
    # the examples of docs/functions.md#trigger_describe
    assert one(db, "SELECT trigger_describe('0 7 * * MON-FRI', 'Europe/Berlin')") \
        == "At 07:00, Monday through Friday (Europe/Berlin)"
    assert one(db, "SELECT trigger_describe('*/15 * * * *')") == "Every 15 minutes"
    assert one(db, "SELECT trigger_describe(?)",
               '{"scheduled_at":"2026-03-09T07:15:00","timezone":"America/New_York"}') \
        == "Once on 2026-03-09 at 07:15 (America/New_York)"
    assert one(db, "SELECT trigger_describe('30 9-17 * * *')") \
        == "At 30 minutes past the hour, between 09:00 and 17:59"
    assert one(db, "SELECT trigger_describe('{\"interval_ms\":\"900000\"}')") == "Every 15 minutes"
    assert one(db, "SELECT trigger_describe('@weekly', 'asia/tokyo')") \
        == "At 00:00, only on Sunday (Asia/Tokyo)"
    assert one(db, "SELECT trigger_describe(NULL)") is None
    # a trigger_id: its type, zone and bounds
    add(db, "standup", trigger_type="cron", cron_expression="0 9 * * MON-FRI",
        timezone="Europe/Berlin", end_at="2026-06-30T18:00:00")
    add(db, "ping", interval_ms=3600000)
    add(db, "launch", trigger_type="once", scheduled_at="2026-03-09T07:15:00",
        timezone="America/New_York")
    rows = db.execute("SELECT trigger_id, trigger_describe(trigger_id) FROM triggers"
                      " ORDER BY trigger_id").fetchall()
    assert rows == [
        ("launch", "Once on 2026-03-09 at 07:15 (America/New_York)"),
        ("ping", "Every hour"),
        ("standup", "At 09:00, Monday through Friday, until 2026-06-30 18:00 (Europe/Berlin)"),
    ], rows
    assert one(db, "SELECT trigger_describe('standup', 'UTC')") \
        == "At 09:00, Monday through Friday, until 2026-06-30 16:00"
    # usable in a view (INNOCUOUS), even with trusted_schema off
    db.execute("PRAGMA trusted_schema = 0")
    db.execute("CREATE VIEW schedules AS SELECT trigger_id, trigger_describe(trigger_id) AS said"
               " FROM triggers")
    assert one(db, "SELECT said FROM schedules WHERE trigger_id = 'ping'") == "Every hour"
    flags = one(db, "SELECT flags FROM pragma_function_list WHERE name = 'trigger_describe'")
    assert flags & 0x200000 and not flags & (0x80000 | 0x800), hex(flags)  # INNOCUOUS only
    for sql, want in [
        ("SELECT trigger_describe('nightly')",
         "trigger_describe: argument 1 (spec): 'nightly' is not a trigger_id, nor a cron"
         " expression: cron: expected 5 or 6 fields, got 1"),
        ("SELECT trigger_describe('0 0 32 * *')",
         "trigger_describe: cron field 3 (day-of-month): 32 is out of range 1-31"),
        ("SELECT trigger_describe('@fortnightly')",
         "trigger_describe: cron: unknown macro '@fortnightly' (allowed @yearly @annually"
         " @monthly @weekly @daily @midnight @hourly)"),
        ("SELECT trigger_describe('0 7 * * *', 'Europe/Berln')",
         "trigger_describe: argument 2 (tz): unknown time zone 'Europe/Berln'; did you mean"
         " 'Europe/Berlin'?"),
        ("SELECT trigger_describe('standup', 5)", "trigger_describe: argument 2 (tz) must be text"),
        ("SELECT trigger_describe('0 7 * * *', 5)", "trigger_describe: argument 2 (tz) must be text"),
        ("SELECT trigger_describe(42)",
         "trigger_describe: argument 1 (spec) must be text (a cron expression or a JSON object)"),
        ("SELECT trigger_describe('{\"interval_ms\": 10}')",
         "trigger_describe: argument 1 (spec): triggers.interval_ms: must be >= 1000, got 10"),
    ]:
        assert error(db, sql) == want, (sql, error(db, sql))
