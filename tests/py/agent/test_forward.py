"""tests/py/agent/test_forward.py -- forward triggers: trigger_create with a
"when" phrase (docs/when.md), min_confidence, metadata, and the lifecycle of a
forward trigger (scheduled -> fired / failed / expired) in triggers.status
and trigger_runs."""
import json

from util import T0, connect, finish, one, runs, tick, trig

OWNER = {"agent_id": "a", "role": "owner", "now": T0}  # Thu 2026-01-01 00:00Z


def create(db, req, ctx=OWNER):
    return json.loads(one(db, "SELECT trigger_create(?, ?)", json.dumps(req), json.dumps(ctx)))


def test_when_once_interval_cron(ext):
    db = connect(ext)
    r = create(db, {"instructions": "Check the oven", "when": "in 20 minutes"})
    t = trig(db, r["triggerId"])
    assert (t["trigger_type"], t["scheduled_at"]) == ("once", T0 + 20 * 60000)
    meta = json.loads(t["metadata"])["when"]
    assert meta["phrase"] == "in 20 minutes" and meta["confidence"] >= 0.9
    r = create(db, {"instructions": "Water plants", "when": "every 2 hours"})
    t = trig(db, r["triggerId"])
    assert (t["trigger_type"], t["interval_ms"], t["next_due_at"]) == ("interval", 7200000, T0 + 7200000)
    r = create(db, {"instructions": "Standup", "when": "every weekday at 9:30am",
                    "timezone": "Europe/Berlin", "metadata": {"team": "core"}})
    t = trig(db, r["triggerId"])
    assert (t["trigger_type"], t["cron_expression"], t["timezone"]) == ("cron", "30 9 * * 1-5", "Europe/Berlin")
    assert one(db, "SELECT trigger_iso(?, 'Europe/Berlin')", t["next_due_at"]) == "2026-01-01T09:30:00+01:00"
    meta = json.loads(t["metadata"])
    assert meta["team"] == "core" and meta["when"]["phrase"] == "every weekday at 9:30am"


def test_when_calendar_rule_creates_an_rrule_trigger(ext):
    """A phrase that means an RFC 5545 rule ("every other Tuesday") creates
    an rrule trigger with its DTSTART and zone; "except holidays" names
    config default_calendar's calendar, and without one the create fails
    rather than run on holidays (docs/when.md#calendar-rules)."""
    db = connect(ext)
    r = create(db, {"instructions": "Standup", "when_text": "every other Tuesday at 9am",
                    "timezone": "Europe/Berlin"})
    assert r["success"] and r["created"], r
    t = trig(db, r["triggerId"])
    assert (t["trigger_type"], t["timezone"], t["calendar"]) == ("rrule", "Europe/Berlin", None), t
    assert "FREQ=WEEKLY" in t["rrule"] and "INTERVAL=2" in t["rrule"] and "BYDAY=TU" in t["rrule"], t
    # T0 is Thursday 2026-01-01: the first Tuesday after it, 09:00 in Berlin
    assert one(db, "SELECT trigger_iso(?, 'Europe/Berlin')", t["next_due_at"]) == "2026-01-06T09:00:00+01:00"
    r = create(db, {"instructions": "Pay", "when": "every weekday at 9 except holidays"})
    assert r["error"] == "INVALID_SCHEDULE" and "default_calendar" in r["reason"], r
    assert one(db, "SELECT count(*) FROM triggers") == 1
    db.execute("INSERT INTO trigger_calendar_days(calendar, day, name) VALUES ('de', '2026-01-01', 'New Year')")
    one(db, "SELECT trigger_config('default_calendar', 'de')")
    r = create(db, {"instructions": "Pay", "when": "every weekday at 9 except holidays"})
    t = trig(db, r["triggerId"])
    assert (t["trigger_type"], t["calendar"]) == ("rrule", "de"), t
    # Thursday 2026-01-01 09:00 would be first: a 'de' day, skipped
    assert one(db, "SELECT trigger_iso(?)", t["next_due_at"]) == "2026-01-02T09:00:00Z", t


def test_when_refusals_and_min_confidence(ext):
    db = connect(ext)
    for phrase, why in [("sometime soon", "vague"), ("after the meeting tomorrow", "event"),
                        ("yesterday at 5pm", "past"), ("at 25:00", "")]:
        r = create(db, {"instructions": "x", "when": phrase})
        assert r["error"] == "INVALID_SCHEDULE" and "confidence 0" in r["reason"], (phrase, r)
        assert why in r["reason"], (phrase, r)
    r = create(db, {"instructions": "x", "when": "every 2 hours", "interval_ms": 60000})
    assert r["error"] == "INVALID_REQUEST" and "not both" in r["reason"]
    # a phrase the parser accepts with 0.6 confidence (midnight + day word) ...
    low = json.loads(one(db, "SELECT trigger_parse_when('tomorrow at midnight', ?)", T0))
    assert 0 < low["confidence"] < 0.9, low
    one(db, "SELECT trigger_config('min_confidence', '0.9')")
    r = create(db, {"instructions": "x", "when": "tomorrow at midnight"})
    assert r["error"] == "INVALID_SCHEDULE" and "below min_confidence 0.90" in r["reason"], r
    one(db, "SELECT trigger_config('min_confidence', '0.5')")
    assert create(db, {"instructions": "x", "when": "tomorrow at midnight"})["created"]
    assert one(db, "SELECT count(*) FROM triggers") == 1


def test_when_text_finds_the_phrase(ext):
    """"when_text": the phrase found in a message (trigger_find_when) is the
    schedule, the rest of the message the instructions unless given."""
    db = connect(ext)
    r = create(db, {"when_text": "Remind me tomorrow at 9am to call Anna."})
    assert r["created"], r
    t = trig(db, r["triggerId"])
    assert (t["trigger_type"], t["scheduled_at"]) == ("once", T0 + 33 * 3600000)
    assert t["instructions"] == "call Anna."  # the task, without "remind me ... to"
    meta = json.loads(t["metadata"])["when"]
    assert meta["phrase"] == "tomorrow at 9am" and meta["confidence"] == 0.95, meta
    # explicit instructions win; a recurring phrase in the middle
    r = create(db, {"when_text": "water the plants every day at 7am please",
                    "instructions": "Water the plants", "timezone": "Europe/Berlin"})
    t = trig(db, r["triggerId"])
    assert (t["instructions"], t["cron_expression"], t["timezone"]) == \
        ("Water the plants", "0 7 * * *", "Europe/Berlin")
    # the same reading as trigger_find_when gives
    f = json.loads(one(db, "SELECT trigger_find_when(?, ?, 'Europe/Berlin')",
                       "water the plants every day at 7am please", T0))
    assert f["cron"] == "0 7 * * *" and f["rest"] == "water the plants", f
    assert one(db, "SELECT count(*) FROM triggers") == 2


def test_when_text_refusals_change_nothing(ext):
    db = connect(ext)
    for text, why in [("call 3 people", "no time phrase found"), ("room 101", "no time phrase found"),
                      ("version 2.5", "no time phrase found"),
                      ("call Anna after the meeting tomorrow", "'after ...' ties the time to an event"),
                      ("remind me soon", "'soon' is vague"), ("", "no time phrase found"),
                      ("restart the server at 7", "'at 7' has no am/pm: say 7am or 7pm"),
                      ("we met yesterday at 4pm", "tells of the past")]:
        r = create(db, {"when_text": text, "instructions": "x"})
        assert r["error"] == "INVALID_SCHEDULE", (text, r)
        assert why in r["reason"] and "confidence 0" in r["reason"], r
        assert r["reason"].startswith("when_text '"), r
    # the phrase alone leaves no instructions: the request still needs them
    r = create(db, {"when_text": "tomorrow at 9am"})
    assert r["error"] and "instructions" in r["reason"], r
    # min_confidence applies to the phrase found
    one(db, "SELECT trigger_config('min_confidence', '0.9')")
    r = create(db, {"when_text": "restart the server at 10"})
    assert r["error"] == "INVALID_SCHEDULE" and "below min_confidence 0.90" in r["reason"], r
    assert "when_text 'at 10'" in r["reason"], r
    one(db, "SELECT trigger_config('min_confidence', '0.5')")
    for bad, why in [({"when_text": "at 9am", "when": "at 9am"}, "not both"),
                     ({"when_text": 5}, "'when_text' must be text"),
                     ({"when_text": "in 2 hours", "interval_ms": 60000}, "not both")]:
        r = create(db, dict(bad, instructions="x"))
        assert r["error"] == "INVALID_REQUEST" and why in r["reason"], (bad, r)
    assert one(db, "SELECT count(*) FROM triggers") == 0
    assert create(db, {"when_text": "restart the server at 10"})["created"]


def test_when_through_xml(ext):
    db = connect(ext)
    r = json.loads(one(db, "SELECT trigger_create_xml(?, ?)",
                       "<response><instructions>Call Dana</instructions><when>tomorrow at 3pm</when>"
                       "<timezone>America/New_York</timezone></response>", json.dumps(OWNER)))
    assert r["created"], r
    t = trig(db, r["triggerId"])
    assert one(db, "SELECT trigger_iso(?, 'America/New_York')", t["scheduled_at"]) == "2026-01-01T15:00:00-05:00"


def test_forward_lifecycle_fired_failed_expired(ext):
    db = connect(ext)
    fired = create(db, {"instructions": "Fire me", "when": "in 5 minutes"})["triggerId"]
    failing = create(db, {"instructions": "Fail me", "when": "in 5 minutes", "max_attempts": 1})["triggerId"]
    late = create(db, {"instructions": "Only if on time", "when": "in 5 minutes",
                       "window_ms": 60000})["triggerId"]
    assert {trig(db, t)["status"] for t in (fired, failing, late)} == {"scheduled"}
    # the first host tick comes 3 minutes late: the windowed one expires
    got = {r["trigger_id"]: r for r in tick(db, T0 + 8 * 60000)}
    assert set(got) == {fired, failing}
    finish(db, got[fired]["run_id"], "success", None, T0 + 8 * 60000 + 10)
    finish(db, got[failing]["run_id"], "failed", "no network", T0 + 8 * 60000 + 10)
    assert trig(db, fired)["status"] == "completed" and trig(db, fired)["last_status"] == "success"
    f = trig(db, failing)
    assert f["status"] == "completed" and f["last_status"] == "failed" and f["last_error"] == "no network"
    e = trig(db, late)
    assert e["status"] == "expired" and e["next_due_at"] is None
    [row] = runs(db, late)
    assert row["status"] == "expired" and "window_ms 60000" in row["error"]


def test_when_with_metadata_that_is_no_object_is_refused(ext):
    """With "when" as without it, metadata must be a JSON object: the same
    INVALID_REQUEST, nothing created (the phrase used to replace it)."""
    db = connect(ext)
    for meta in ("notjson", "[1]", '"x"', "3"):
        for sched in ({"when": "in 20 minutes"},
                      {"trigger_type": "interval", "interval_ms": 3600000}):
            r = create(db, dict(sched, instructions=f"m {meta}", metadata=meta))
            assert r["success"] is False and r["error"] == "INVALID_REQUEST", (meta, sched, r)
            assert r["reason"] == "triggers.metadata: must be a JSON object", r
    assert one(db, "SELECT count(*) FROM triggers") == 0
    r = create(db, {"instructions": "ok", "when": "in 20 minutes", "metadata": '{"k":1}'})
    meta = json.loads(one(db, "SELECT metadata FROM triggers WHERE trigger_id = ?",
                          r["triggerId"]))
    assert meta["k"] == 1 and meta["when"]["phrase"] == "in 20 minutes", meta
