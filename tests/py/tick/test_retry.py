"""tests/py/tick/test_retry.py -- what happens after a claim that does not
end in success (ext/tick/finish.c, reoffer.c, lifecycle.c;
docs/lifecycle.md): retries with backoff (doubling) and the lease (a
reclaimed run cannot be finished), a lease expired without attempts
left, a late finish accepted before the reclaim, a heartbeat from a clock
behind never shortening the lease; deferred runs offered again (the same
run, the same attempt; a once run too), the deferral bound ending in
expired, a deferred run whose trigger was deleted or paused before it
came due (skipped, with the reason); window_ms expiring a run;
pause_after_failures reached by a once trigger, by an interval trigger,
and by a trigger paused while its run was out (the error shown, or
"failed" when the report gave none)."""
import json
import sqlite3

from util import MIN, T0, add, connect, finish, one, runs, tick, trig


def fates(db, tid):
    return [(x["status"], x["error"], x["finished_at"]) for x in runs(db, tid)]


def test_heartbeat_from_a_clock_behind_never_shortens_the_lease(ext):
    """Issue 32, item 8: a host whose wall clock stepped back renews with a
    `now` before the claim; the lease keeps its end (a lease never moves
    backwards), so a second host ticking before it reclaims nothing. A
    failure reported from that clock has latency 0."""
    db = connect(ext)
    add(db, "t", interval_ms=3600000, max_attempts=2, start_at=T0)
    [r] = tick(db, T0 + 1000, lease_ms=60000, owner="h1")          # until T0 + 61000
    hb = lambda lease, now: json.loads(one(db, "SELECT trigger_run_heartbeat(?, ?, ?)",
                                           r["run_id"], lease, now))["lease_until"]
    assert hb(None, T0 - 30000) == T0 + 61000   # before: T0 + 30000
    assert hb(1000, T0 + 2000) == T0 + 61000    # a shorter length: kept too
    assert tick(db, T0 + 60999, owner="h2") == []
    assert runs(db, "t")[0]["status"] == "running"
    assert hb(None, T0 + 30000) == T0 + 90000   # forward as before
    finish(db, r["run_id"], "failed", "boom", T0 - 5000)
    row = runs(db, "t")[0]
    assert row["status"] == "failed" and row["latency_ms"] == 0, row


def test_deferral_bound_ends_in_expired(ext):
    db = connect(ext)
    add(db, "t", interval_ms=3600000, start_at=T0)
    [r] = tick(db, T0)
    now = T0
    for k in range(99):
        now += 10
        finish(db, r["run_id"], "deferred", None, now)
        [again] = tick(db, now + 1)
        assert again["run_id"] == r["run_id"] and again["attempt"] == 1
    now += 10
    finish(db, r["run_id"], "deferred", None, now)
    assert tick(db, now + 1) == []            # the 100th deferral ends it
    [row] = runs(db, "t")
    assert row["status"] == "expired" and "deferred too many times" in row["error"], row
    t = trig(db, "t")
    assert t["run_count"] == 0 and t["status"] == "scheduled"
    assert one(db, "SELECT running FROM triggers_state") == 0
    # the schedule is untouched: the next occurrence still runs
    [nxt] = tick(db, T0 + 3600000)
    assert nxt["scheduled_for"] == T0 + 3600000


def test_deferral_bound_expires_a_once_trigger(ext):
    # A once trigger whose only occurrence is deferred past the bound is
    # expired (as when its window passes), not completed.
    db = connect(ext)
    add(db, "o", trigger_type="once", scheduled_at=T0)
    [r] = tick(db, T0)
    now = T0
    for k in range(100):
        now += 10
        finish(db, r["run_id"], "deferred", None, now)
        claimed = tick(db, now + 1)
        assert len(claimed) == (1 if k < 99 else 0)
    t = trig(db, "o")
    assert t["status"] == "expired" and t["next_due_at"] is None, t
    assert t["last_error"] == "deferred too many times" and t["run_count"] == 0
    [row] = runs(db, "o")
    assert row["status"] == "expired"


def test_deferred_run_of_paused_trigger_is_skipped(ext):
    db = connect(ext)
    add(db, "t", interval_ms=3600000, start_at=T0)
    [r] = tick(db, T0)
    finish(db, r["run_id"], "deferred", None, T0 + 1)
    one(db, "SELECT trigger_pause('t', ?)", T0 + 2)
    assert tick(db, T0 + 3) == []
    [row] = runs(db, "t")
    assert row["status"] == "skipped" and "no longer active" in row["error"]


def test_lease_expired_without_attempts_left(ext):
    db = connect(ext)
    add(db, "t", interval_ms=3600000, start_at=T0)  # max_attempts 1
    [r] = tick(db, T0, lease_ms=2000)
    assert tick(db, T0 + 1999) == []
    assert runs(db, "t")[0]["status"] == "running"
    assert tick(db, T0 + 2000) == []           # lease passed: failed, no retry
    [row] = runs(db, "t")
    assert (row["status"], row["error"], row["attempt"]) == ("failed", "lease expired", 1)
    t = trig(db, "t")
    assert t["run_count"] == 1 and t["last_status"] == "failed"
    assert one(db, "SELECT running FROM triggers_state") == 0
    try:
        finish(db, r["run_id"], "success", None, T0 + 2500)
        assert False, "finish after reclaim must fail"
    except sqlite3.OperationalError as e:
        assert "already finished (failed: lease expired)" in str(e)


def test_late_finish_before_reclaim_is_accepted(ext):
    db = connect(ext)
    add(db, "t", interval_ms=3600000, start_at=T0, max_attempts=2)
    [r] = tick(db, T0, lease_ms=2000)
    finish(db, r["run_id"], "success", None, T0 + 9000)  # lease passed, no tick yet
    assert tick(db, T0 + 10000) == []
    assert [(x["attempt"], x["status"]) for x in runs(db, "t")] == [(1, "success")]


def test_retry_backoff_doubles(ext):
    db = connect(ext)
    add(db, "t", interval_ms=3600000, start_at=T0, max_attempts=3, backoff_ms=1000)
    [r] = tick(db, T0)
    finish(db, r["run_id"], "failed", "e1", T0 + 100)
    assert tick(db, T0 + 1099) == []
    [r2] = tick(db, T0 + 1100)
    finish(db, r2["run_id"], "failed", "e2", T0 + 2000)
    assert tick(db, T0 + 3999) == []           # 1000 * 2^1 after the finish
    [r3] = tick(db, T0 + 4000)
    assert (r3["attempt"], r3["scheduled_for"]) == (3, T0)
    finish(db, r3["run_id"], "failed", "e3", T0 + 4100)
    assert tick(db, T0 + 100000) == []          # attempts spent
    t = trig(db, "t")
    assert t["run_count"] == 3 and t["last_error"] == "e3"
    assert t["next_due_at"] == T0 + 3600000


def test_retry_backoff_and_lease(ext):
    db = connect(ext)
    add(db, "t", max_attempts=3, backoff_ms=1000, interval_ms=3600000)
    [r] = tick(db, T0 + 3600000)
    finish(db, r["run_id"], "failed", "boom", T0 + 3600000 + 10)
    assert tick(db, T0 + 3600000 + 500) == []  # backoff 1 s not over
    [r2] = tick(db, T0 + 3600000 + 1010)
    assert r2["attempt"] == 2 and r2["scheduled_for"] == T0 + 3600000
    # attempt 2 is never reported: its lease (60 s) passes, attempt 3 claimed
    [r3] = tick(db, T0 + 3600000 + 1010 + 60000)
    assert r3["attempt"] == 3
    st = {x["attempt"]: (x["status"], x["error"]) for x in runs(db, "t")}
    assert st[1] == ("failed", "boom") and st[2] == ("failed", "lease expired")
    try:
        finish(db, r2["run_id"], "success", None, T0 + 3600000 + 70000)
        assert False, "a reclaimed run cannot be finished"
    except sqlite3.OperationalError as e:
        assert "already finished (failed: lease expired)" in str(e)
    t = trig(db, "t")
    assert t["next_due_at"] == T0 + 2 * 3600000, "retries do not move the schedule"


def test_deferred_reoffers_same_run(ext):
    db = connect(ext)
    add(db, "t", interval_ms=3600000)
    [r] = tick(db, T0 + 3600000)
    finish(db, r["run_id"], "deferred", None, T0 + 3600000 + 5)
    assert trig(db, "t")["run_count"] == 0
    [again] = tick(db, T0 + 3600000 + 10)
    assert again["run_id"] == r["run_id"] and again["attempt"] == 1
    finish(db, r["run_id"], "success", None, T0 + 3600000 + 20)
    assert trig(db, "t")["run_count"] == 1


def test_window_expires(ext):
    db = connect(ext)
    add(db, "late", trigger_type="once", scheduled_at=T0 + MIN, window_ms=30000)
    assert tick(db, T0 + 2 * MIN) == []
    t = trig(db, "late")
    assert t["status"] == "expired", t["status"]
    assert [r["status"] for r in runs(db, "late")] == ["expired"]


def test_pause_after_failures(ext):
    db = connect(ext)
    add(db, "t", pause_after_failures=2)
    for k in (1, 2):
        [r] = tick(db, T0 + k * MIN)
        finish(db, r["run_id"], "failed", f"err{k}", T0 + k * MIN + 1)
    t = trig(db, "t")
    assert t["status"] == "paused" and "2 consecutive failures" in t["last_error"]


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
