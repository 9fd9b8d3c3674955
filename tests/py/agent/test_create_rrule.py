"""tests/py/agent/test_create_rrule.py -- the create action with rrule
triggers (docs/create-action.md, docs/calendar.md): triggerType rrule with
<rrule> in the XML contract and `rrule` in JSON (any spelling of the type),
its scheduleText in words, the second create of one rule in another
spelling answered with the first trigger, the policy's bounds
(min_interval_ms, confirm_below_ms) on the rule's shortest gap, every bad
rule INVALID_SCHEDULE naming the part with nothing written, and the
trigger in the agent's state summary."""
import json

from util import T0, connect, create, one, trig

CTX = {"agent_id": "a1", "role": "owner", "now": T0}


def count(db):
    return one(db, "SELECT count(*) FROM triggers")


def test_create_json_and_xml(ext):
    db = connect(ext)
    r = create(db, {"instructions": "Sprint review", "triggerType": "RRULE",
                    "rrule": "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;BYHOUR=9;BYMINUTE=0",
                    "timezone": "Europe/Berlin"})
    assert r["success"] and r["created"], r
    assert r["scheduleText"] == ("Every 2 weeks on Tuesday at 09:00 (Europe/Berlin);"
                                 " first: Tuesday 2026-01-13 at 09:00 (Europe/Berlin)"), r
    t = trig(db, r["triggerId"])
    assert (t["trigger_type"], t["rrule"]) == \
        ("rrule", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;BYHOUR=9;BYMINUTE=0")
    xml = ("<response><instructions>Pay the rent</instructions>"
           "<triggerType>rrule</triggerType>"
           "<RRule>FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=17;BYMINUTE=0</RRule>"
           "<timezone>America/New_York</timezone></response>")
    r = create(db, xml, fn="trigger_create_xml")
    assert r["success"] and r["created"], r
    assert r["scheduleText"].startswith("Monthly on the last weekday at 17:00 (America/New_York);"
                                        " first: Friday 2026-01-30 at 17:00"), r
    assert "ignored" not in r, r
    # the same rule spelled otherwise: the first trigger answers
    again = create(db, {"instructions": "sprint   review", "trigger_type": "rrule",
                        "rrule": "byminute=0;byhour=9;byday=tu;interval=2;freq=weekly",
                        "timezone": "europe/berlin"})
    assert again["success"] and not again["created"], again
    assert count(db) == 2


def test_create_refusals(ext):
    db = connect(ext)
    cases = [
        ({"instructions": "x", "trigger_type": "rrule", "rrule": "FREQ=DAILY;BYHOUR=99"},
         "INVALID_SCHEDULE", "triggers.rrule: rrule: BYHOUR=99 is out of range 0..23"),
        ({"instructions": "x", "trigger_type": "rrule", "rrule": "FREQ=DAILY;UNTIL=20251231"},
         "INVALID_SCHEDULE", "triggers.rrule: rrule never occurs"),
        ({"instructions": "x", "trigger_type": "rrule"},
         "INVALID_SCHEDULE", "triggers.rrule: required for trigger_type 'rrule'"),
        ({"instructions": "x", "trigger_type": "rrule", "rrule": "FREQ=DAILY",
          "end_at": T0 + 3600000},
         "INVALID_SCHEDULE", "the rrule schedule has no occurrence before end_at"),
        ({"instructions": "x", "trigger_type": "rrule", "rrule": "FREQ=MINUTELY;INTERVAL=10",
          "when": "every day at 9"},
         "INVALID_REQUEST", "give either \"when\" or a schedule"),
        ({"instructions": "x", "trigger_type": "rrule", "rrule": "FREQ=SECONDLY;INTERVAL=30"},
         "INVALID_SCHEDULE", "rrule occurs every 30000 ms is more often than min_interval_ms"),
        ({"instructions": "x", "trigger_type": "rrule", "rrule": "FREQ=MINUTELY;INTERVAL=2"},
         "CONFIRMATION_REQUIRED", "runs every 120000 ms, below confirm_below_ms"),
    ]
    for req, code, reason in cases:
        r = create(db, req)
        assert not r["success"] and r["error"] == code and reason in r["reason"], (req, r)
    assert count(db) == 0
    ok = create(db, {"instructions": "x", "trigger_type": "rrule",
                     "rrule": "FREQ=MINUTELY;INTERVAL=2"}, dict(CTX, confirmed=True))
    assert ok["created"], ok


def test_rrule_in_the_summary(ext):
    db = connect(ext)
    r = create(db, {"instructions": "Water the plants", "trigger_type": "rrule",
                    "rrule": "FREQ=WEEKLY;BYDAY=SA;BYHOUR=8;BYMINUTE=0"})
    assert r["created"], r
    payload = json.loads(one(db, "SELECT trigger_state_payload('a1', ?)", T0))
    items = payload["pendingItems"]
    assert [(i["triggerId"], i["nextDueIso"]) for i in items] == \
        [(r["triggerId"], "2026-01-03T08:00:00Z")], items
    assert "Water the plants" in one(db, "SELECT trigger_state_summary('a1', ?)", T0)
