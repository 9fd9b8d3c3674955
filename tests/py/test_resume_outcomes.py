"""tests/py/test_resume_outcomes.py -- the status trigger_resume gives a
trigger paused while its run is out (docs/lifecycle.md): max_runs all
claimed (completed), a once trigger whose instant was claimed
(completed), a once trigger paused before its instant and resumed after
it (expired), runs left under max_runs (scheduled, next occurrence);
then the runs out when paused finish and are counted."""
from util import MIN, T0, add, connect, finish, one, tick


def state(db, tid):
    return db.execute("SELECT status, enabled, next_due_at FROM triggers "
                      "WHERE trigger_id = ?", (tid,)).fetchone()


def pause_resume(db, tid, paused_at, resumed_at):
    one(db, "SELECT trigger_pause(?, ?)", tid, paused_at)
    assert state(db, tid) == ("paused", 0, None), tid
    one(db, "SELECT trigger_resume(?, ?)", tid, resumed_at)
    return state(db, tid)


def test_resume_while_a_run_is_out(ext):
    db = connect(ext)
    add(db, "m1", agent_id="a1", interval_ms=MIN, start_at=T0, max_runs=1)
    add(db, "m2", agent_id="a1", interval_ms=MIN, start_at=T0, max_runs=2)
    add(db, "o", agent_id="a1", trigger_type="once", scheduled_at=T0)
    got = {r["trigger_id"]: r["run_id"] for r in tick(db, T0)}
    assert sorted(got) == ["m1", "m2", "o"], got
    assert pause_resume(db, "m1", T0 + 1, T0 + 2) == ("completed", 1, None)
    assert pause_resume(db, "m2", T0 + 1, T0 + 2) == ("scheduled", 1, T0 + MIN)
    assert pause_resume(db, "o", T0 + 1, T0 + 2 * MIN) == ("completed", 1, None)
    for tid, run_id in got.items():
        finish(db, run_id, "success", now=T0 + 3)
    counts = dict(db.execute("SELECT trigger_id, run_count FROM triggers"))
    assert counts == {"m1": 1, "m2": 1, "o": 1}, counts
    assert state(db, "m1")[0] == "completed" and state(db, "o")[0] == "completed"


def test_once_paused_before_its_instant_expires(ext):
    db = connect(ext)
    add(db, "o2", agent_id="a1", trigger_type="once", scheduled_at=T0 + MIN)
    assert pause_resume(db, "o2", T0, T0 + 2 * MIN) == ("expired", 1, None)
    assert tick(db, T0 + 3 * MIN) == []
    add(db, "o3", agent_id="a1", trigger_type="once", scheduled_at=T0 + MIN)
    assert pause_resume(db, "o3", T0, T0 + 1) == ("scheduled", 1, T0 + MIN)
