"""tests/py/store/test_rezone.py -- trigger_install's one-time rewrite of
stored link zone names as their zones (ext/store/rezone.c,
docs/time.md#link-names): US/Eastern -> America/New_York, the UTC family ->
UTC, dedupe keys of crons computed again; when a rewritten key meets
another active trigger's, the older keeps its status and key and the newer
is paused (key NULL, last_error, an auto_paused event): no row is dropped.
On the version-5 fixture (migrated in the same install) and on a version-6
database."""
import json
import shutil
import tempfile

from util import MIN, T0, add, connect, dedupe_key, error, events, from_fixture, one, trig


def test_version_5_fixture_link_names_become_zones(ext):
    tmp = tempfile.mkdtemp()
    try:
        db = from_fixture(ext, tmp, "schema_v5.sql")
        due = dict(db.execute("SELECT trigger_id, next_due_at FROM triggers_state"))
        assert one(db, "SELECT trigger_install()") == 6
        zones = dict(db.execute("SELECT trigger_id, timezone FROM triggers"))
        assert zones == {"t": "UTC", "ny": "America/New_York", "kol": "Asia/Kolkata",
                         "z": "UTC", "u": "UTC", "r": "UTC"}, zones
        keys = dict(db.execute("SELECT trigger_id, dedupe_key FROM triggers"))
        assert keys["ny"] == dedupe_key("do ny", "cron", "0 0 9 * * *", "", "America/New_York")
        assert keys["kol"] == dedupe_key("do kol", "cron", "0 30 8 * * 1-5", "", "Asia/Kolkata")
        assert keys["u"] == dedupe_key("do u", "cron", "0 */5 * * * *", "", "UTC")
        assert keys["z"] == "tdk2:339c9801b36dbc5162b8b89ea02e296f"  # a once: no zone
        # the schedule is the same: the zone's offsets are the link's
        assert dict(db.execute("SELECT trigger_id, next_due_at FROM triggers_state")) == due
        assert all(r["status"] == "scheduled" for r in (trig(db, t) for t in ("ny", "kol", "z")))
        assert one(db, "SELECT value FROM triggers_config WHERE key = 'zone_names'") == "canonical"
        assert one(db, "PRAGMA integrity_check") == "ok"
        db.close()
    finally:
        shutil.rmtree(tmp)


def as_before(db, trigger_id, tz, instructions="standup"):
    """The row as an older version wrote it: the zone name as given (a
    link), instructions that may repeat another active trigger's, the key
    of both."""
    t = trig(db, trigger_id)
    key = dedupe_key(instructions, "cron", "0 0 9 * * *", t["scope"], tz)
    db.execute("UPDATE triggers_data SET instructions = ?, timezone = ?, dedupe_key = ?"
               " WHERE trigger_id = ?", (instructions, tz, key, trigger_id))


def cron(db, tid, tz, created, **cols):
    cols.setdefault("agent_id", "a1")
    add(db, tid, trigger_type="cron", cron_expression="0 9 * * *", timezone=tz,
        created_at=created, **cols)


def test_version_6_collisions_pause_the_newer(ext):
    db = connect(ext)
    cron(db, "ny", "America/New_York", T0, instructions="standup")  # older than its link copy
    cron(db, "east", "America/New_York", T0 + MIN)
    cron(db, "cal", "Asia/Kolkata", T0 + 2 * MIN)                    # the older of two
    cron(db, "kol", "Asia/Kolkata", T0 + 3 * MIN)
    cron(db, "gone", "America/New_York", T0 + 4 * MIN)
    cron(db, "other", "America/New_York", T0 + 5 * MIN, agent_id="a2")
    as_before(db, "east", "US/Eastern")
    as_before(db, "cal", "Asia/Calcutta")
    as_before(db, "kol", "Asia/Kolkata", "standup ")  # the same key once cal is rewritten
    # a cancelled copy and another agent's never collide
    db.execute("UPDATE triggers_data SET status = 'cancelled' WHERE trigger_id = 'gone'")
    as_before(db, "gone", "US/Eastern")
    as_before(db, "other", "US/Eastern")
    db.execute("DELETE FROM triggers_config WHERE key = 'zone_names'")
    assert one(db, "SELECT trigger_install()") == 6
    t = {tid: trig(db, tid) for tid in ("ny", "east", "cal", "kol", "gone", "other")}
    assert {k: v["timezone"] for k, v in t.items()} == {
        "ny": "America/New_York", "east": "America/New_York", "cal": "Asia/Kolkata",
        "kol": "Asia/Kolkata", "gone": "America/New_York", "other": "America/New_York"}
    key = dedupe_key("standup", "cron", "0 0 9 * * *", "", "America/New_York")
    # ny is older: it stays; east (rewritten) is paused
    assert (t["ny"]["status"], t["ny"]["dedupe_key"]) == ("scheduled", key)
    assert (t["east"]["status"], t["east"]["enabled"], t["east"]["next_due_at"],
            t["east"]["dedupe_key"]) == ("paused", 0, None, None), t["east"]
    assert t["east"]["last_error"] == (
        "paused by trigger_install: time zone 'US/Eastern' is stored as its zone "
        "'America/New_York' now, which makes this trigger a duplicate of the older active "
        "trigger 'ny' of agent 'a1' (same instructions, type, schedule and scope)")
    # cal (rewritten) is older than kol: kol, already canonical, is paused
    kkey = dedupe_key("standup", "cron", "0 0 9 * * *", "", "Asia/Kolkata")
    assert (t["cal"]["status"], t["cal"]["dedupe_key"]) == ("scheduled", kkey)
    assert (t["kol"]["status"], t["kol"]["dedupe_key"]) == ("paused", None)
    assert "duplicate of the older active trigger 'cal'" in t["kol"]["last_error"]
    assert (t["gone"]["status"], t["gone"]["dedupe_key"]) == ("cancelled", key)
    assert (t["other"]["status"], t["other"]["dedupe_key"]) == ("scheduled", key)
    ev = {e["trigger_id"]: e for e in events(db, "WHERE kind = 'auto_paused'")}
    assert set(ev) == {"east", "kol"}, ev
    assert json.loads(ev["east"]["detail"]) == {"reason": t["east"]["last_error"]}
    assert one(db, "SELECT count(*) FROM triggers") == 6  # none dropped
    # the newer one stays out while the older is active
    e = error(db, "SELECT trigger_resume('east', ?)", T0 + 10 * MIN)
    assert "UNIQUE constraint failed: triggers.dedupe_key (active trigger 'ny'" in e, e
    db.execute("SELECT trigger_cancel('ny', ?)", (T0 + 10 * MIN,))
    db.execute("SELECT trigger_resume('east', ?)", (T0 + 10 * MIN,))
    assert (trig(db, "east")["status"], trig(db, "east")["dedupe_key"]) == ("scheduled", key)
    assert one(db, "PRAGMA integrity_check") == "ok"


def test_once_per_database(ext):
    db = connect(ext)
    cron(db, "e", "America/New_York", T0, instructions="standup")
    assert one(db, "SELECT value FROM triggers_config WHERE key = 'zone_names'") == "canonical"
    as_before(db, "e", "US/Eastern")  # changed outside after the pass: left alone
    assert one(db, "SELECT trigger_install()") == 6
    assert trig(db, "e")["timezone"] == "US/Eastern"
    db.execute("DELETE FROM triggers_config WHERE key = 'zone_names'")
    assert one(db, "SELECT trigger_install()") == 6
    assert trig(db, "e")["timezone"] == "America/New_York"
