"""tests/py/base/test_context.py -- a call of the extension made while
another holds the connection's kept statements (ext/base/context.h): an
application function in preload_sql that calls trigger_create during a
tick. Since issue 32 a preload may call no function with side effects
(tick/test_preload_guard.py): the nested call is refused, writes
nothing, and the tick's claim goes on with preloadError; afterwards the
kept statements serve a plain call again."""
import json
import sqlite3

from util import T0, add, connect, one, tick

OWNER = json.dumps({"agent_id": "a", "role": "owner", "now": T0})


def test_create_inside_a_tick(ext):
    db = connect(ext)
    refused = []

    def nested():
        req = {"instructions": "nested", "trigger_type": "interval", "interval_ms": 900000}
        try:
            return one(db, "SELECT trigger_create(?, ?)", json.dumps(req), OWNER)
        except sqlite3.Error as e:
            refused.append(str(e))
            raise
    db.create_function("nested", 0, nested)
    one(db, "SELECT trigger_config('preload_sql', 'SELECT nested() AS r')")
    add(db, "t", start_at=T0)
    [run] = tick(db, T0)
    assert "preloadError" in run["payload"] and "preload" not in run["payload"], run
    assert refused == ["trigger_create: may not be called from preload_sql (a preload is a "
                       "read-only query; it may not call a function of sqlite-triggers with "
                       "side effects)"], refused
    assert db.execute("SELECT trigger_id FROM triggers").fetchall() == [("t",)]
    assert db.execute("SELECT kind FROM trigger_events").fetchall() == [("created",)]
    assert one(db, "SELECT count(*) FROM trigger_runs WHERE status = 'running'") == 1
    # afterwards the kept statements serve a plain call again
    r = json.loads(one(db, "SELECT trigger_create(?, ?)", json.dumps(
        {"instructions": "after", "trigger_type": "interval", "interval_ms": 900000}), OWNER))
    assert r["created"], r
