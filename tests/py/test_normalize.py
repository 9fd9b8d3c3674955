"""tests/py/test_normalize.py -- a model's reply as it really comes back
(DESIGN.md §7, "Normalization"; docs/create-action.md): enum values and
field names in any case and with -, _ or camel spelling, the XML wrapped
in prose or a code fence, extra fields, entities and CDATA. Each reply
goes through trigger_create_xml (or trigger_create) and the test reads
back the stored columns of the trigger it made, and what it ignored."""
import json
import sqlite3
from datetime import datetime, timezone

from util import T0, connect, dump, one

OWNER = {"agent_id": "agent-1", "scope": "room-1", "role": "owner", "now": T0}


def ms(iso):
    return int(datetime.fromisoformat(iso).astimezone(timezone.utc).timestamp() * 1000)


def stored(db, trigger_id, cols):
    row = db.execute(f"SELECT {', '.join(cols)} FROM triggers WHERE trigger_id = ?",
                     (trigger_id,)).fetchone()
    return dict(zip(cols, row))


def created(db, result, want, ignored=()):
    assert result["success"] and result["created"], result
    assert result.get("ignored", []) == list(ignored), result
    got = stored(db, result["triggerId"], list(want))
    assert got == want, (got, want)


def create_xml(db, xml, ctx=OWNER):
    return json.loads(one(db, "SELECT trigger_create_xml(?, ?)", xml, json.dumps(ctx)))


def create(db, req, ctx=OWNER):
    return json.loads(one(db, "SELECT trigger_create(?, ?)", json.dumps(req), json.dumps(ctx)))


def test_json_enum_value_spellings(ext):
    db = connect(ext)
    r = create(db, {"instructions": "Check the build", "trigger_type": "Interval",
                    "interval_ms": 900000, "wake_mode": "injectNow", "misfire_policy": "ALL",
                    "overlap_policy": "Queue"})
    created(db, r, {"trigger_type": "interval", "wake_mode": "inject_now",
                    "misfire_policy": "all", "overlap_policy": "queue"})


def test_direct_insert_stores_canonical_values(ext):
    db = connect(ext)
    db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms, wake_mode,"
               " misfire_policy, overlap_policy, created_by)"
               " VALUES ('t1', 'x', 'INTERVAL', 900000, 'Inject-Now', 'Coalesce', 'ALLOW', 'Agent')")
    assert db.execute("SELECT trigger_type, wake_mode, misfire_policy, overlap_policy, created_by"
                      " FROM triggers").fetchone() == (
        "interval", "inject_now", "coalesce", "allow", "agent")
    db.execute("UPDATE triggers SET wake_mode = 'nextAutonomyCycle', trigger_type = 'Cron',"
               " interval_ms = NULL, cron_expression = '0 9 * * *' WHERE trigger_id = 't1'")
    assert db.execute("SELECT trigger_type, wake_mode FROM triggers").fetchone() == (
        "cron", "next_autonomy_cycle")
    try:
        db.execute("INSERT INTO triggers(instructions, trigger_type, interval_ms)"
                   " VALUES ('y', 'hourly', 900000)")
        assert False
    except sqlite3.IntegrityError as e:
        assert "triggers.trigger_type: 'hourly' is not one of" in str(e), str(e)

