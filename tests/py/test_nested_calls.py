"""tests/py/test_nested_calls.py -- a call of the extension made while
another holds the connection's kept statements (base/context.h): an
application function in preload_sql that calls trigger_create during a
tick. The nested call prepares its own statements, its trigger and event
are written in the tick's transaction, and the tick's claim goes on."""
import json

from util import T0, add, connect, one, tick

OWNER = json.dumps({"agent_id": "a", "role": "owner", "now": T0})


def test_create_inside_a_tick(ext):
    db = connect(ext)

    def nested():
        req = {"instructions": "nested", "trigger_type": "interval", "interval_ms": 900000}
        return one(db, "SELECT trigger_create(?, ?)", json.dumps(req), OWNER)
    db.create_function("nested", 0, nested)
    one(db, "SELECT trigger_config('preload_sql', 'SELECT nested() AS r')")
    add(db, "t", start_at=T0)
    [run] = tick(db, T0)
    got = json.loads(run["payload"]["preload"][0]["r"])
    assert got["created"], got
    assert sorted(db.execute("SELECT trigger_id FROM triggers")) == sorted(
        [("t",), (got["triggerId"],)])
    assert db.execute("SELECT kind FROM trigger_events").fetchall() == [("created",)] * 2
    assert one(db, "SELECT count(*) FROM trigger_runs WHERE status = 'running'") == 1
    # afterwards the kept statements serve a plain call again
    r = json.loads(one(db, "SELECT trigger_create(?, ?)", json.dumps(
        {"instructions": "after", "trigger_type": "interval", "interval_ms": 900000}), OWNER))
    assert r["created"], r
