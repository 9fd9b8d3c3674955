"""tests/py/test_tdk2.py -- dedupe keys with a cron's time zone (tdk2):
INSERT and trigger_create key a cron trigger with its own zone, so one
cron in two zones is two triggers; trigger_install() recomputes the tdk1
keys of an older database once, in its transaction, without making two
active triggers collide."""
import json
import sqlite3

from util import T0, connect, one, trig

OWNER = {"agent_id": "a1", "role": "owner", "now": T0}


def create(db, req, ctx=OWNER):
    return json.loads(one(db, "SELECT trigger_create(?, ?)", json.dumps(req), json.dumps(ctx)))


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
