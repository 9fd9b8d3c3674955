"""tests/py/test_deferred_fates.py -- what becomes of a deferred run and
of failures beside test_lifecycle_edges.py's: a deferred run whose
trigger was deleted or paused before the retry came due (skipped, with
the reason), a deferred once run offered again (same attempt), and
pause_after_failures reached by a once trigger, by an interval trigger,
and by a trigger paused while its run was out (the error shown, or
"failed" when the report gave none)."""
from util import MIN, T0, add, connect, finish, one, runs, tick


def fates(db, tid):
    return [(x["status"], x["error"], x["finished_at"]) for x in runs(db, tid)]


def test_deferred_run_of_a_deleted_or_paused_trigger(ext):
    db = connect(ext)
    for tid in ("d", "q"):
        add(db, tid, agent_id="a1", interval_ms=3600000, start_at=T0, max_attempts=3)
    for r in tick(db, T0):
        finish(db, r["run_id"], "deferred", "later", now=T0 + 1)
    db.execute("DELETE FROM triggers WHERE trigger_id = 'd'")
    one(db, "SELECT trigger_pause('q', ?)", T0 + 2)
    assert tick(db, T0 + 20 * MIN) == []
    assert fates(db, "d") == [("skipped", "trigger was deleted", T0 + 20 * MIN)]
    assert fates(db, "q") == [("skipped", "trigger is no longer active", T0 + 20 * MIN)]


def test_deferred_once_run_offered_again(ext):
    db = connect(ext)
    add(db, "o", agent_id="a1", trigger_type="once", scheduled_at=T0, max_attempts=3)
    [r] = tick(db, T0)
    finish(db, r["run_id"], "deferred", "later", now=T0 + 1)
    assert db.execute("SELECT status, next_due_at FROM triggers").fetchone() == ("scheduled", None)
    assert [(x["trigger_id"], x["attempt"]) for x in tick(db, T0 + 20 * MIN)] == [("o", 1)]
    assert [(x["status"], x["attempt"]) for x in runs(db, "o")] == [("running", 1)]


def test_pause_after_failures_forms(ext):
    db = connect(ext)
    add(db, "o", agent_id="a1", trigger_type="once", scheduled_at=T0, pause_after_failures=1)
    add(db, "i", agent_id="a1", interval_ms=MIN, start_at=T0, pause_after_failures=1)
    add(db, "p", agent_id="a1", interval_ms=MIN, start_at=T0, pause_after_failures=1)
    got = {r["trigger_id"]: r["run_id"] for r in tick(db, T0)}
    one(db, "SELECT trigger_pause('p', ?)", T0 + 1)
    for tid, error in (("o", None), ("i", None), ("p", "e")):
        finish(db, got[tid], "failed", error, now=T0 + 2)
    rows = dict((t, (s, e, le)) for t, s, e, le in db.execute(
        "SELECT trigger_id, status, enabled, last_error FROM triggers"))
    assert rows == {
        "o": ("paused", 0, "paused after 1 consecutive failures; last: failed"),
        "i": ("paused", 0, "paused after 1 consecutive failures; last: failed"),
        "p": ("paused", 0, "paused after 1 consecutive failures; last: e")}, rows
