"""tests/py/tick/test_incarnations.py -- a trigger re-created under a
deleted one's id is a new incarnation (ext/tick/claim.c, finish.c): its
runs never collide with the old history, the old incarnation's runs and
lease expiries never touch the new trigger, INSERT OR REPLACE keeps the
incarnation, and a fire after the re-creation takes a new run id."""
import json

from util import MIN, T0, add, connect, finish, one, runs, tick, trig


def test_recreated_id_is_a_new_incarnation(ext):
    # standup (once) is claimed and fails, deleted, and inserted again with
    # the same instant: the new trigger's occurrence must run (it used to
    # hit the old history's run_id: tick [], completed, run_count 0).
    db = connect(ext)
    at = T0 + MIN
    add(db, "standup", trigger_type="once", scheduled_at=at)
    [old] = tick(db, at)
    assert old["run_id"] == f"standup@{at}#1"       # incarnation 1: unchanged format
    finish(db, old["run_id"], "failed", "no network", now=at + 1)
    db.execute("DELETE FROM triggers WHERE trigger_id = 'standup'")
    add(db, "standup", trigger_type="once", scheduled_at=at, created_at=at + 2)
    [new] = tick(db, at + 3)
    assert new["run_id"] == f"standup@{at}#1~2", new
    assert new["payload"]["triggerRunId"] == new["run_id"]
    t = trig(db, "standup")
    assert (t["status"], t["run_count"], t["last_error"]) == ("scheduled", 0, None), t
    finish(db, new["run_id"], "success", now=at + 4)
    t = trig(db, "standup")
    assert (t["status"], t["run_count"], t["last_status"]) == ("completed", 1, "success"), t
    assert [(r["run_id"], r["status"]) for r in runs(db, "standup")] == [
        (f"standup@{at}#1", "failed"), (f"standup@{at}#1~2", "success")]
    # a third incarnation follows the highest one in the history
    db.execute("DELETE FROM triggers WHERE trigger_id = 'standup'")
    add(db, "standup", trigger_type="once", scheduled_at=at, created_at=at + 5)
    assert [r["run_id"] for r in tick(db, at + 6)] == [f"standup@{at}#1~3"]


def test_old_incarnation_runs_never_touch_the_new_trigger(ext):
    # The old trigger's runs (one running, one waiting for a retry, one
    # deferred) outlive its DELETE. Finishing, reclaiming and re-offering
    # them closes the run rows only; the new trigger under the same id
    # keeps its own counters, schedule and completion.
    db = connect(ext)
    add(db, "x", max_attempts=3, backoff_ms=1000, overlap_policy="allow")
    [a] = tick(db, T0 + MIN, lease_ms=10 * MIN)
    [b] = tick(db, T0 + 2 * MIN, lease_ms=10 * MIN)
    [c] = tick(db, T0 + 3 * MIN, lease_ms=10 * MIN)
    finish(db, b["run_id"], "failed", "flaky", now=T0 + 3 * MIN + 1)   # retry pending
    finish(db, c["run_id"], "deferred", now=T0 + 3 * MIN + 2)          # re-offer pending
    db.execute("DELETE FROM triggers WHERE trigger_id = 'x'")
    add(db, "x", instructions="new x", overlap_policy="queue", trigger_type="once",
        scheduled_at=T0 + 10 * MIN, created_at=T0 + 3 * MIN + 3)
    fresh = trig(db, "x")
    # finishing the old running run: the run row only, the result is null
    assert finish(db, a["run_id"], "success", now=T0 + 3 * MIN + 4) is None
    assert trig(db, "x") == fresh
    # the old retry and deferral are not claimed for the new trigger
    assert tick(db, T0 + 5 * MIN) == []
    assert trig(db, "x")["run_count"] == 0 and trig(db, "x")["status"] == "scheduled"
    old = {r["run_id"]: r for r in runs(db, "x")}
    assert old[c["run_id"]]["status"] == "skipped", old
    assert old[c["run_id"]]["error"] == "trigger was deleted", old
    # the new trigger runs, finishes and completes on its own
    [n] = tick(db, T0 + 10 * MIN)
    assert n["run_id"] == f"x@{T0 + 10 * MIN}#1~2" and n["instructions"] == "new x"
    finish(db, n["run_id"], "success", now=T0 + 10 * MIN + 1)
    t = trig(db, "x")
    assert (t["status"], t["run_count"]) == ("completed", 1), t


def test_old_incarnation_lease_expiry_leaves_the_new_trigger(ext):
    db = connect(ext)
    add(db, "x", max_attempts=2, overlap_policy="queue")
    [a] = tick(db, T0 + MIN, lease_ms=MIN)
    db.execute("DELETE FROM triggers WHERE trigger_id = 'x'")
    add(db, "x", overlap_policy="queue", interval_ms=10 * MIN, created_at=T0 + MIN)
    # the old run's lease passes: failed, and no attempt 2 for anyone
    assert tick(db, T0 + 3 * MIN) == []
    [old] = runs(db, "x")
    assert (old["run_id"], old["status"], old["error"]) == (a["run_id"], "failed", "lease expired")
    t = trig(db, "x")
    assert (t["run_count"], t["last_status"], t["next_due_at"]) == (0, None, T0 + 11 * MIN), t
    [n] = tick(db, T0 + 11 * MIN)
    assert n["run_id"] == f"x@{T0 + 11 * MIN}#1~2"


def test_insert_or_replace_keeps_the_incarnation(ext):
    db = connect(ext)
    at = T0 + MIN
    add(db, "standup", trigger_type="once", scheduled_at=at)
    [r] = tick(db, at)
    db.execute("INSERT OR REPLACE INTO triggers(trigger_id, instructions, trigger_type,"
               " scheduled_at, created_at) VALUES ('standup', 'changed', 'once', ?, ?)",
               (at + MIN, at + 1))
    # the same trigger: its running run still belongs to it
    assert finish(db, r["run_id"], "success", now=at + 2)["run_count"] == 1
    [n] = tick(db, at + MIN)
    assert n["run_id"] == f"standup@{at + MIN}#1", n


def test_fire_after_recreate_does_not_collide(ext):
    db = connect(ext)
    add(db, "f")
    json.loads(one(db, "SELECT trigger_fire('f', ?)", T0 + 5))
    db.execute("DELETE FROM triggers WHERE trigger_id = 'f'")
    add(db, "f", created_at=T0 + 1)
    r = json.loads(one(db, "SELECT trigger_fire('f', ?)", T0 + 5))
    assert r["run_id"] == f"f@{T0 + 5}#1~2", r
