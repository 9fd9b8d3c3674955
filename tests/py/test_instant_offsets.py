"""tests/py/test_instant_offsets.py -- UTC offsets of ISO instants given
as text (docs: instants), beside the tests of whole dates: '+hh:mm:ss',
'+hhmm', '+hh', a lower-case 'z', a fraction before the offset; and the
messages for an offset cut short after ':', a one-digit hour, hours,
minutes and seconds out of range, a character after the offset, and
control bytes in the text (shown as '?')."""
import sqlite3

from util import T0, add, connect, one

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
