"""tests/py/sql/test_dedupe.py -- dedupe keys (trigger_dedupe_key, and the
key INSERT and trigger_create give a row; docs/create-action.md#dedupe-keys):
each key against hashlib over the documented canonical text, equivalent
spellings of one schedule give one key, the refusals of each argument;
with a cron's time zone (tdk2) one cron in two zones is two triggers.
The one-time recomputation of older keys is in store/test_rekey.py."""
import sqlite3

from util import connect, create, dedupe_key, one, trig

def cron(tz, ins="Send the report"):
    return {"instructions": ins, "trigger_type": "cron", "cron_expression": "0 9 * * *",
            "timezone": tz}


def test_one_cron_in_two_zones_is_two_triggers(ext):
    db = connect(ext)
    ny = create(db, cron("America/New_York"))
    tokyo = create(db, cron("asia/tokyo"))
    assert ny["created"] and tokyo["created"], (ny, tokyo)
    assert ny["dedupeKey"] != tokyo["dedupeKey"]
    # the trigger's zone, as stored (canonical spelling), is the key's
    assert tokyo["dedupeKey"] == one(db, "SELECT trigger_dedupe_key(?, 'cron', ?, '', ?)",
                                     "Send the report", "0 9 * * *", "Asia/Tokyo")
    assert trig(db, tokyo["triggerId"])["dedupe_key"] == tokyo["dedupeKey"]
    again = create(db, cron("America/New_York"))
    assert again["created"] is False and again["existingTriggerId"] == ny["triggerId"], again
    # a direct INSERT keys with its zone too: Tokyo's twin is a UNIQUE error,
    # Berlin's is another trigger
    try:
        db.execute("INSERT INTO triggers(agent_id, instructions, trigger_type, cron_expression,"
                   " timezone) VALUES ('a1', 'Send the report', 'cron', '0 9 * * *',"
                   " 'Asia/Tokyo')")
        assert False, "duplicate inserted"
    except sqlite3.IntegrityError as e:
        assert "triggers.dedupe_key" in str(e), e
    db.execute("INSERT INTO triggers(agent_id, instructions, trigger_type, cron_expression,"
               " timezone) VALUES ('a1', 'Send the report', 'cron', '0 9 * * *',"
               " 'Europe/Berlin')")
    # the zone of UTC, named or not, is one key; an UPDATE of the zone rekeys
    assert one(db, "SELECT trigger_dedupe_key('x', 'cron', '0 9 * * *', '')") == \
        one(db, "SELECT trigger_dedupe_key('x', 'cron', '0 9 * * *', '', 'utc')")
    db.execute("UPDATE triggers SET timezone = 'Europe/Paris' WHERE trigger_id = ?",
               (ny["triggerId"],))
    assert trig(db, ny["triggerId"])["dedupe_key"] == one(
        db, "SELECT trigger_dedupe_key('Send the report', 'cron', '0 9 * * *', '',"
            " 'Europe/Paris')")


def test_dedupe_key_tz_argument_errors(ext):
    db = connect(ext)
    for tz, want in (("Mars/Base", "trigger_dedupe_key: argument 5 (tz): "),
                     (5, "trigger_dedupe_key: argument 5 (tz) must be text")):
        try:
            one(db, "SELECT trigger_dedupe_key('x', 'cron', '0 9 * * *', '', ?)", tz)
            assert False, tz
        except sqlite3.Error as e:
            assert str(e).startswith(want), e
    # an interval or once key ignores a valid zone
    assert one(db, "SELECT trigger_dedupe_key('x', 'interval', 60000, '', 'Asia/Tokyo')") == \
        one(db, "SELECT trigger_dedupe_key('x', 'interval', 60000, '')")


def test_dedupe_key_matches_documented_format(ext):
    db = connect(ext)
    cases = [
        ("Check the build", "interval", 900000, "", "900000"),
        ("  Ärger  im BÜRO\t", "once", "2026-01-01T00:00:00Z", "room", "1767225600000"),
        ("Report", "cron", "0 9 * * MON-FRI", "", "0 0 9 * * 1-5"),
        ('quote " and \\ slash', "cron", "@daily", "x", "0 0 0 * * *"),
    ]
    for ins, ttype, sched, scope, canon in cases:
        got = one(db, "SELECT trigger_dedupe_key(?, ?, ?, ?)", ins, ttype, sched, scope)
        assert got == dedupe_key(ins, ttype, canon, scope), (ins, got)
        # the fifth argument, tz: a cron's zone is part of its schedule (the
        # name as canonically spelled); other types leave it out
        for tz, canon_tz in (("America/New_York", "America/New_York"),
                             ("asia/tokyo", "Asia/Tokyo"), (None, "UTC")):
            got = one(db, "SELECT trigger_dedupe_key(?, ?, ?, ?, ?)", ins, ttype, sched,
                      scope, tz)
            assert got == dedupe_key(ins, ttype, canon, scope, canon_tz), (ins, tz, got)


def test_dedupe_equivalent_spellings(ext):
    db = connect(ext)
    k = lambda *a: one(db, "SELECT trigger_dedupe_key(?, ?, ?, ?)", *a)
    assert k("x", "cron", "0 9 * * MON-FRI", "") == k("x", "cron", "0 9 * * 1-5", "")
    assert k("x", "cron", "@daily", "") == k("x", "cron", "0 0 * * *", "")
    assert k("x", "cron", "0 0 * * 7", "") == k("x", "cron", "0 0 * * 0", "")
    assert k("A  b", "interval", 60000, "") == k("a b", "interval", "60000", "")
    assert k("x", "interval", 60000, "s1") != k("x", "interval", 60000, "s2")
    assert k("x", "once", "2026-01-01T01:00:00+01:00", "") == k("x", "once", 1767225600000, "")
    try:
        k("x", "cron", "0 9 * * FUNDAY", "")
        assert False
    except sqlite3.OperationalError as e:
        assert "trigger_dedupe_key: argument 3 (schedule): cron field 5 (day-of-week)" in str(e)


def test_dedupe_key_refusals(ext):
    db = connect(ext)
    for args, why in (
            (("x", "weekly", 1, ""), "argument 2 (trigger_type): 'weekly' is not one of"),
            (("x", "interval", "abc", ""), "argument 3 (schedule): 'abc' is not an integer"),
            (("x", "interval", 1.5, ""), "argument 3 (schedule): '1.5' is not an integer"),
            (("x", "once", "someday", ""), "argument 3 (schedule)")):
        try:
            one(db, "SELECT trigger_dedupe_key(?, ?, ?, ?)", *args)
            raise AssertionError(args)
        except sqlite3.OperationalError as e:
            assert str(e).startswith("trigger_dedupe_key: " + why), (args, e)


def test_dedupe_key_arguments(ext):
    db = connect(ext)
    k = one(db, "SELECT trigger_dedupe_key('x', 'interval', 60000, 's')")
    assert k.startswith("tdk2:") and k != one(
        db, "SELECT trigger_dedupe_key('x', 'interval', 60000, NULL)")
    for args, why in (("'x', 'interval', 60000, 5", "argument 4 (scope) must be text"),
                      ("'x', 'cron', NULL, ''", "argument 3 (schedule) must be text"),
                      ("'x', 'interval', NULL, NULL", "argument 3 (schedule) must not be NULL"),
                      ("'x', 'once', NULL, NULL", "argument 3 (schedule) must not be NULL")):
        try:
            one(db, f"SELECT trigger_dedupe_key({args})")
            raise AssertionError(args)
        except sqlite3.Error as e:
            assert str(e) == "trigger_dedupe_key: " + why, (args, e)
