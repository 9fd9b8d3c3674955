"""tests/py/whole/test_length_limit.py -- calls under a small SQLITE_LIMIT_LENGTH
(an application's sqlite3_limit): a tick or a create whose text would
pass the limit fails as SQLite's own "string or blob too big" (or another
SQLite error), never as out of memory (the tick's result once was), and
changes nothing; with room enough, the same call succeeds."""
import json
import sqlite3

from util import MIN, T0, add, connect, dump, one, tick

OWNER = json.dumps({"agent_id": "a", "role": "owner", "now": T0})


def attempt(db, limit, call):
    before = dump(db)
    db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, limit)
    try:
        call()
        return "ok"
    except sqlite3.Error as e:  # a MemoryError is a failure of this test
        db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, 10**9)
        assert dump(db) == before, (limit, e)
        return type(e).__name__
    finally:
        db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, 10**9)


def test_tick_under_a_length_limit(ext):
    seen = set()
    for limit in list(range(150, 800, 25)) + [2000]:
        db = connect(ext)
        add(db, "a", start_at=T0, agent_id="ag", metadata='{"k":"' + "v" * 50 + '"}')
        add(db, "b", trigger_type="cron", cron_expression="*/5 * * * *", agent_id="ag")
        seen.add(attempt(db, limit, lambda: tick(db, T0 + 5 * MIN)))
    assert {"ok", "DataError"} <= seen <= {"ok", "DataError", "OperationalError"}, seen


def test_create_under_a_length_limit(ext):
    req = json.dumps({"instructions": "x" * 40, "trigger_type": "interval",
                      "interval_ms": 900000, "bogus": 1})
    seen = set()
    for limit in range(100, 400, 15):
        db = connect(ext)
        seen.add(attempt(db, limit, lambda: one(db, "SELECT trigger_create(?, ?)", req, OWNER)))
    assert "ok" in seen and "DataError" in seen, seen
