"""tests/py/test_write_paths.py -- writes through the triggers table and
the create action that the other tests do not make: enabled = 0 on a
trigger that ended (nothing to pause), a schedule change of a paused
trigger (stays paused, not armed), INSERT OR REPLACE of a free id, and
trigger_create with a trigger_id already taken (refused with SQLite's
UNIQUE wording, nothing written)."""
import json

from util import MIN, T0, add, connect, finish, one, tick, trig

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
