"""tests/py/base/test_args.py -- the arguments every SQL function reads the
same way (ext/base/args.c): integer-valued text where integers go, in
columns' arguments, options and JSON requests alike (as PHP and HTML
forms send numbers); time zone names in any case, with a "did you mean"
for an unknown one; ISO instants given as text with UTC offsets
('+hh:mm:ss', '+hhmm', '+hh', a lower-case 'z', a fraction before the
offset), and the messages for an offset cut short after ':', a one-digit
hour, hours, minutes and seconds out of range, a character after the
offset, and control bytes in the text (shown as '?')."""
import json
import sqlite3

from util import MIN, T0, add, connect, error, one

HOUR = 3600000


def test_accepted_offsets(ext):
    db = connect(ext)
    for k, (text, ms) in enumerate((
            ("2026-01-01T01:00:00+01:00", T0),
            ("2026-01-01T01:00:30+01:00:30", T0),
            ("2026-01-01T01:30:00+0130", T0),
            ("2026-01-01T01:00:00+01", T0),
            ("2025-12-31T23:00:00-01", T0),
            ("2026-01-01T00:00:00z", T0),
            ("2026-01-01T01:00:30.5+01:00:30", T0 + 500))):
        add(db, f"t{k}", start_at=text)
        assert one(db, "SELECT start_at FROM triggers WHERE trigger_id = ?", f"t{k}") == ms, text


def test_refused_offsets(ext):
    db = connect(ext)
    base = "2026-01-01T00:00:00"
    for tail, why in (
            ("+01:00:", "expected 2-digit offset second at offset 26, found end of text"),
            ("+01:", "expected 2-digit offset minute at offset 23, found end of text"),
            ("-0", "expected 2-digit offset hour at offset 20, found '0'"),
            ("+24:00", "offset hour 24 is out of range 0-23"),
            ("+01:60", "offset minute 60 is out of range 0-59"),
            ("+01:00:60", "offset second 60 is out of range 0-59"),
            ("+01x", "unexpected 'x' at offset 22")):
        try:
            one(db, "SELECT trigger_next_wakeup(?)", base + tail)
            assert False, tail
        except sqlite3.Error as e:
            assert str(e) == ("trigger_next_wakeup: argument 1 (now): cannot read '%s' as an "
                              "instant: %s" % (base + tail, why)), str(e)
    try:
        one(db, "SELECT trigger_next_wakeup(?)", "20\x01\x02")
        assert False
    except sqlite3.Error as e:
        assert str(e).endswith("expected 4-digit year at offset 0, found '20??'"), str(e)
    assert one(db, "SELECT trigger_next_wakeup(?)", base + "+01") is None


def test_integer_valued_text_in_arguments_and_json(ext):
    db = connect(ext)
    add(db, "a", interval_ms=MIN)
    assert one(db, "SELECT trigger_iso(' 1767225600000 ')") == "2026-01-01T00:00:00Z"
    assert one(db, "SELECT trigger_next_due('*/5 * * * *', '1767225600000')") == T0 + 5 * MIN
    assert one(db, "SELECT trigger_config('min_interval_ms', ' 30000 ')") == 30000
    assert one(db, "SELECT typeof(trigger_config('min_interval_ms'))") == "integer"
    assert one(db, "SELECT trigger_config('max_active_per_scope', '2e1')") == 20
    assert (one(db, "SELECT trigger_dedupe_key('x', 'interval', ' 900000 ', '')")
            == one(db, "SELECT trigger_dedupe_key('x', 'interval', 900000, '')"))
    spec = '{"trigger_type":"interval","interval_ms":"60000","start_at":"0"}'
    assert one(db, "SELECT trigger_next_due(?, ?)", spec, T0 + 30000) == T0 + MIN
    # tick options as a form would send them
    runs = json.loads(one(db, "SELECT trigger_run_due(?, ?)", str(T0 + MIN),
                          '{"limit":"1","lease_ms":"30000"}'))
    assert [r["run_id"] for r in runs] == [f"a@{T0 + MIN}#1"]
    assert one(db, "SELECT lease_until FROM trigger_runs") == T0 + MIN + 30000
    e = error(db, "SELECT trigger_run_due(0, '{\"limit\":\"all\"}')")
    assert 'options.limit: bad value "all"' in e, e
    # a create request with strings for numbers
    res = json.loads(one(db, "SELECT trigger_create(?, ?)",
                         '{"instructions":"Water the plants","trigger_type":"interval",'
                         '"interval_ms":"900000","max_runs":"4"}',
                         json.dumps({"agent_id": "a1", "role": "owner", "now": T0})))
    assert res["created"], res
    assert db.execute("SELECT interval_ms, max_runs FROM triggers WHERE trigger_id = ?",
                      (res["triggerId"],)).fetchone() == (900000, 4)
    res = json.loads(one(db, "SELECT trigger_create(?, ?)",
                         '{"instructions":"x","trigger_type":"interval","interval_ms":"15 min"}',
                         json.dumps({"agent_id": "a1", "role": "owner", "now": T0})))
    assert res["error"] == "INVALID_SCHEDULE", res
    assert "'15 min' is not an integer number of milliseconds" in res["reason"], res
    # the summary's options too (it never fails: a bad one falls back)
    text = one(db, "SELECT trigger_state_summary('a1', ?, '{\"max_total\":\"200\"}')", T0)
    assert len(text.encode()) <= 200 and not text.startswith("Admin context"), text


def test_zone_names_in_any_case(ext):
    db = connect(ext)
    add(db, "b", trigger_type="cron", cron_expression="0 7 * * *", timezone="europe/berlin")
    add(db, "u", timezone="utc")
    assert db.execute("SELECT trigger_id, timezone FROM triggers ORDER BY 1").fetchall() == [
        ("b", "Europe/Berlin"), ("u", "UTC")]
    assert one(db, "SELECT next_due_at FROM triggers WHERE trigger_id = 'b'") == T0 + 6 * 60 * MIN
    db.execute("UPDATE triggers SET timezone = 'AMERICA/NEW_YORK' WHERE trigger_id = 'b'")
    assert one(db, "SELECT timezone FROM triggers WHERE trigger_id = 'b'") == "America/New_York"
    assert one(db, "SELECT trigger_iso(0, 'asia/tokyo')") == "1970-01-01T09:00:00+09:00"
    when = json.loads(one(db, "SELECT trigger_parse_when('tomorrow at 9am', 0, 'asia/tokyo')"))
    assert when["tz"] == "Asia/Tokyo", when
    res = json.loads(one(db, "SELECT trigger_create(?, ?)",
                         '{"instructions":"x","when":"every day at 9am","timezone":"europe/paris"}',
                         json.dumps({"agent_id": "a1", "role": "owner", "now": T0})))
    assert one(db, "SELECT timezone FROM triggers WHERE trigger_id = ?", res["triggerId"]) \
        == "Europe/Paris"
    # unknown names: a suggestion when one is close, none otherwise
    for name, want in [
        ("Europe/Berln", "triggers.timezone: unknown time zone 'Europe/Berln'; did you mean 'Europe/Berlin'?"),
        ("Berlin", "triggers.timezone: unknown time zone 'Berlin'; did you mean 'Europe/Berlin'?"),
        ("America/New York", "triggers.timezone: invalid time zone name 'America/New York'; did you mean 'America/New_York'?"),
        ("Mars/Olympus", "triggers.timezone: unknown time zone 'Mars/Olympus'"),
    ]:
        e = error(db, "INSERT INTO triggers(instructions, trigger_type, interval_ms, timezone)"
                   " VALUES ('x', 'interval', 60000, ?)", name)
        assert e == want, e
    e = error(db, "SELECT trigger_iso(0, 'Asia/Tokio')")
    assert e == "trigger_iso: argument 2 (tz): unknown time zone 'Asia/Tokio'; did you mean 'Asia/Tokyo'?", e
