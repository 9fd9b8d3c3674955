"""tests/py/trigger/test_write.py -- the write paths of `triggers`
(ext/trigger/write.c): INSERT OR IGNORE and OR REPLACE (of a free id
too), an UPDATE that reschedules, renames and enables, a multi-row
INSERT that fails whole; enabled = 0 on a trigger that ended (nothing to
pause), a schedule change of a paused trigger (stays paused, not armed),
an UPDATE of a disabled trigger that leaves `enabled` alone (still
paused) and one that enables it; and trigger_create with a trigger_id
already taken (refused with SQLite's UNIQUE wording, nothing written)."""
import json
import sqlite3

from util import MIN, T0, add, connect, finish, one, runs, tick, trig

OWNER = json.dumps({"agent_id": "a", "role": "owner", "now": T0})
TAKEN = ("trigger_id '%s' is not available (a trigger has it, or another agent's "
         "runs do): leave trigger_id out for a generated one")


def test_disable_and_reschedule_when_not_active(ext):
    db = connect(ext)
    add(db, "o", trigger_type="once", scheduled_at=T0 + MIN)
    tick(db, T0 + MIN)
    finish(db, one(db, "SELECT run_id FROM trigger_runs"), "success", now=T0 + MIN)
    db.execute("UPDATE triggers SET enabled = 0 WHERE trigger_id = 'o'")
    t = trig(db, "o")
    assert (t["status"], t["enabled"]) == ("completed", 0), t
    add(db, "p", interval_ms=MIN, start_at=T0)
    one(db, "SELECT trigger_pause('p', ?)", T0)
    db.execute("UPDATE triggers SET interval_ms = 120000 WHERE trigger_id = 'p'")
    t = trig(db, "p")
    assert (t["status"], t["enabled"], t["next_due_at"], t["interval_ms"]) == \
        ("paused", 0, None, 120000), t


def test_insert_or_replace_of_a_free_id(ext):
    db = connect(ext)
    db.execute("INSERT OR REPLACE INTO triggers(trigger_id, instructions, trigger_type, "
               "interval_ms) VALUES('new', 'x', 'interval', 60000)")
    t = trig(db, "new")
    assert (t["status"], t["instructions"]) == ("scheduled", "x"), t
    assert one(db, "SELECT count(*) FROM trigger_events WHERE kind = 'created'") == 1


def test_create_with_an_id_taken(ext):
    db = connect(ext)
    req = {"trigger_id": "tid1", "instructions": "x", "trigger_type": "interval",
           "interval_ms": 900000}
    r = json.loads(one(db, "SELECT trigger_create(?, ?)", json.dumps(req), OWNER))
    assert (r["created"], r["triggerId"]) == (True, "tid1"), r
    r = json.loads(one(db, "SELECT trigger_create(?, ?)",
                       json.dumps(dict(req, instructions="y")), OWNER))
    assert (r["success"], r["error"], r["reason"]) == (
        False, "INVALID_REQUEST", TAKEN % "tid1"), r
    assert one(db, "SELECT instructions FROM triggers WHERE trigger_id = 'tid1'") == "x"


def test_create_with_another_agents_deleted_id(ext):
    # issue 32: an agent could take the id of another agent's deleted
    # trigger and sit on its run history (trigger_runs by trigger_id would
    # mix the two). While that history remains, the id is refused to other
    # agents; its own agent may create it again (a new incarnation).
    db = connect(ext)
    ctx = lambda agent, now=T0: json.dumps({"agent_id": agent, "role": "owner", "now": now})
    req = json.dumps({"trigger_id": "report", "instructions": "x", "trigger_type": "interval",
                      "interval_ms": 3600000})
    create = lambda agent, now=T0: json.loads(one(db, "SELECT trigger_create(?, ?)", req,
                                                  ctx(agent, now)))
    assert create("alice")["created"]
    [run] = tick(db, T0 + 3600000)
    finish(db, run["run_id"], "success", now=T0 + 3600000)
    db.execute("DELETE FROM triggers WHERE trigger_id = 'report'")
    r = create("mallory")
    assert (r["success"], r["error"], r["reason"]) == (
        False, "INVALID_REQUEST", TAKEN % "report"), r
    assert one(db, "SELECT count(*) FROM triggers") == 0
    # a direct INSERT (the application, trusted) may; an agent's own id is
    # its own
    add(db, "report", agent_id="mallory")
    db.execute("DELETE FROM triggers WHERE trigger_id = 'report'")
    r = create("alice")
    assert r["created"] and r["triggerId"] == "report", r
    db.execute("DELETE FROM triggers WHERE trigger_id = 'report'")
    # once the history is pruned the id is free for anyone
    assert one(db, "SELECT trigger_prune(?)", T0 + 10 * 3600000) == 1
    assert create("mallory")["created"]


def test_insert_or_ignore_and_replace(ext):
    db = connect(ext)
    add(db, "t", instructions="first")
    tick(db, T0 + MIN, ack=False)
    db.execute("INSERT OR IGNORE INTO triggers(trigger_id, instructions, trigger_type, interval_ms)"
               " VALUES ('t', 'second', 'interval', 60000)")
    assert trig(db, "t")["instructions"] == "first"
    db.execute("INSERT OR REPLACE INTO triggers(trigger_id, instructions, trigger_type, interval_ms, created_at)"
               " VALUES ('t', 'third', 'interval', 120000, ?)", (T0 + 2 * MIN,))
    t = trig(db, "t")
    assert t["instructions"] == "third" and t["interval_ms"] == 120000
    assert t["run_count"] == 1, "history kept"
    assert t["next_due_at"] == T0 + 4 * MIN, t["next_due_at"]
    assert one(db, "SELECT count(*) FROM triggers") == 1
    assert len(runs(db, "t")) == 1


def test_update_reschedule_rename_enable(ext):
    db = connect(ext)
    add(db, "t")
    db.execute("UPDATE triggers SET display_name = 'Renamed' WHERE trigger_id = 't'")
    t = trig(db, "t")
    assert t["display_name"] == "Renamed" and t["next_due_at"] == T0 + MIN
    db.execute("UPDATE triggers SET start_at = ?, interval_ms = 3600000 WHERE trigger_id = 't'",
               ("2030-01-01T00:00:00Z",))
    assert trig(db, "t")["next_due_at"] == 1893456000000
    db.execute("UPDATE triggers SET enabled = 0 WHERE trigger_id = 't'")
    t = trig(db, "t")
    assert t["status"] == "paused" and t["next_due_at"] is None
    db.execute("UPDATE triggers SET enabled = 1 WHERE trigger_id = 't'")
    t = trig(db, "t")
    assert t["status"] == "scheduled" and t["next_due_at"] == 1893456000000


def test_multi_row_insert_is_atomic(ext):
    db = connect(ext)
    try:
        db.execute("INSERT INTO triggers(instructions, trigger_type, interval_ms) VALUES"
                   " ('a', 'interval', 60000), ('b', 'interval', 60000), ('c', 'interval', 1)")
    except sqlite3.Error:
        pass
    assert one(db, "SELECT count(*) FROM triggers") == 0


def test_update_of_a_disabled_trigger(ext):
    db = connect(ext)
    add(db, "t", start_at=T0, enabled=0)
    state = "SELECT status, enabled, next_due_at IS NOT NULL, display_name FROM triggers"
    assert db.execute(state).fetchone() == ("paused", 0, 0, "do t")
    db.execute("UPDATE triggers SET display_name = 'x' WHERE trigger_id = 't'")
    assert db.execute(state).fetchone() == ("paused", 0, 0, "x")
    db.execute("UPDATE triggers SET enabled = 1, display_name = 'y' WHERE trigger_id = 't'")
    assert db.execute(state).fetchone() == ("scheduled", 1, 1, "y")
    db.execute("UPDATE triggers SET enabled = 1 WHERE trigger_id = 't'")
    assert db.execute(state).fetchone() == ("scheduled", 1, 1, "y")
    assert tick(db, T0, agents=[], limit=0) == [] and tick(db, T0, limit=0) == []
