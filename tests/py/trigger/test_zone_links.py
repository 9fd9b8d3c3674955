"""tests/py/trigger/test_zone_links.py -- a link zone name (US/Eastern,
Asia/Calcutta, Zulu, GMT) is written and keyed as its zone
(docs/time.md#link-names): the INSERT/UPDATE validator, the create action,
trigger_dedupe_key, and the specs of trigger_next_due, trigger_preview and
trigger_describe, whose outputs name the zone. Without the system's
tzdata.zi, a link name stays as given."""
import json
import os
import shutil
import tempfile

from util import T0, add, connect, create, dedupe_key, error, one, trig

LINKS = [("US/Eastern", "America/New_York"), ("us/eastern", "America/New_York"),
         ("Asia/Calcutta", "Asia/Kolkata"), ("US/Pacific", "America/Los_Angeles"),
         ("Zulu", "UTC"), ("Etc/UTC", "UTC"), ("Etc/UCT", "UTC"), ("Universal", "UTC"),
         ("GMT", "UTC"), ("Etc/GMT", "UTC"), ("Greenwich", "UTC"), ("GMT0", "UTC"),
         ("Z", "UTC"), ("Europe/Berlin", "Europe/Berlin"), ("Etc/GMT+5", "Etc/GMT+5")]


def test_insert_and_update_store_the_zone(ext):
    db = connect(ext)
    for i, (name, zone) in enumerate(LINKS):
        add(db, f"c{i}", trigger_type="cron", cron_expression="0 9 * * *", timezone=name)
        t = trig(db, f"c{i}")
        assert t["timezone"] == zone, (name, t["timezone"])
        assert t["dedupe_key"] == dedupe_key(f"do c{i}", "cron", "0 0 9 * * *", "", zone), name
    # the same instant as the zone's own trigger
    assert trig(db, "c0")["next_due_at"] == one(
        db, "SELECT trigger_next_due('0 9 * * *', ?, 'America/New_York')", T0)
    db.execute("UPDATE triggers SET timezone = 'Asia/Calcutta' WHERE trigger_id = 'c0'")
    assert trig(db, "c0")["timezone"] == "Asia/Kolkata"


def test_a_link_is_a_duplicate_of_its_zone(ext):
    db = connect(ext)
    add(db, "ny", agent_id="a1", instructions="standup", trigger_type="cron",
        cron_expression="0 9 * * *", timezone="America/New_York")
    e = error(db, "INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type,"
                  " cron_expression, timezone) VALUES ('e', 'a1', 'standup', 'cron',"
                  " '0 9 * * *', 'US/Eastern')")
    assert "UNIQUE constraint failed: triggers.dedupe_key (active trigger 'ny'" in e, e
    res = create(db, {"instructions": "standup", "trigger_type": "cron",
                      "cron_expression": "0 9 * * *", "timezone": "US/Eastern"})
    assert res["existingTriggerId"] == "ny" and res["created"] is False, res
    res = create(db, {"instructions": "call", "trigger_type": "cron",
                      "cron_expression": "0 9 * * *", "timezone": "Asia/Calcutta"})
    assert res["success"], res
    assert trig(db, res["triggerId"])["timezone"] == "Asia/Kolkata"
    res = create(db, {"instructions": "nap", "when": "every day at 3pm", "timezone": "Zulu"})
    assert trig(db, res["triggerId"])["timezone"] == "UTC", res


def test_keys_and_specs_name_the_zone(ext):
    db = connect(ext)
    key = one(db, "SELECT trigger_dedupe_key('standup', 'cron', '0 9 * * *', '', 'US/Eastern')")
    assert key == one(db, "SELECT trigger_dedupe_key('standup', 'cron', '0 9 * * *', '',"
                          " 'America/New_York')")
    assert key == dedupe_key("standup", "cron", "0 0 9 * * *", "", "America/New_York")
    assert one(db, "SELECT trigger_dedupe_key('x', 'cron', '0 9 * * *', '', 'Zulu')") == \
        one(db, "SELECT trigger_dedupe_key('x', 'cron', '0 9 * * *', '')")
    assert one(db, "SELECT trigger_describe('0 9 * * *', 'US/Eastern')") == \
        "At 09:00 (America/New_York)"
    spec = json.dumps({"trigger_type": "cron", "cron_expression": "0 9 * * *",
                       "timezone": "Asia/Calcutta"})
    assert "(Asia/Kolkata)" in one(db, "SELECT trigger_describe(?)", spec)
    assert one(db, "SELECT trigger_next_due(?, ?)", spec, T0) == \
        one(db, "SELECT trigger_next_due('0 9 * * *', ?, 'Asia/Kolkata')", T0)
    iso = [r[0] for r in db.execute(
        "SELECT due_iso FROM trigger_preview('0 9 * * *', ?, 'US/Eastern') LIMIT 2", (T0,))]
    assert iso == [r[0] for r in db.execute(
        "SELECT due_iso FROM trigger_preview('0 9 * * *', ?, 'America/New_York') LIMIT 2",
        (T0,))]
    when = json.loads(one(db, "SELECT trigger_parse_when('tomorrow at 9am', ?, 'US/Eastern')",
                          T0))
    assert when["tz"] == "America/New_York", when


def zoneinfo_without_links():
    """A zoneinfo directory of a few TZif files and no tzdata.zi."""
    d = tempfile.mkdtemp()
    for rel in ("America/New_York", "US/Eastern", "Europe/Berlin"):
        os.makedirs(os.path.join(d, os.path.dirname(rel)), exist_ok=True)
        shutil.copy(os.path.join("/usr/share/zoneinfo", rel), os.path.join(d, rel))
    return d


def test_without_tzdata_zi_a_link_stays_as_given(ext):
    d = zoneinfo_without_links()
    old = os.environ.get("TZDIR")
    os.environ["TZDIR"] = d
    try:
        db = connect(ext)
        add(db, "e", trigger_type="cron", cron_expression="0 9 * * *", timezone="US/Eastern")
        add(db, "u", trigger_type="cron", cron_expression="0 9 * * *", timezone="Etc/UTC")
        assert trig(db, "e")["timezone"] == "US/Eastern"
        assert trig(db, "u")["timezone"] == "UTC"  # the UTC family needs no file
        assert trig(db, "e")["next_due_at"] == one(
            db, "SELECT trigger_next_due('0 9 * * *', ?, 'America/New_York')", T0)
        db.close()
    finally:
        if old is None:
            del os.environ["TZDIR"]
        else:
            os.environ["TZDIR"] = old
        shutil.rmtree(d)
