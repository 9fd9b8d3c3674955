"""tests/py/tick/test_lifecycle.py -- trigger_pause, trigger_resume,
trigger_fire and trigger_cancel (ext/tick/fn_trigger_ops.c, lifecycle.c;
docs/lifecycle.md) at the lifecycle's edges: a cancelled trigger refused
every way back (reschedule, resume, fire, pause); a trigger out of
occurrences when it is re-armed or resumed (max_runs reached, a once
trigger whose instant passed while paused, an end_at that passed); the
status resume gives a trigger paused while its run is out; resume
starting a new failure streak; a skipped run not counted toward
max_runs; runs whose trigger was deleted closed; an id that is no text
refused before a bad `now` is read. Each refusal names what was wrong
and changes nothing."""
from util import MIN, T0, add, connect, error, finish, one, refused, retry_at, runs, tick, trig


def state(db, trigger_id):
    t = trig(db, trigger_id)
    return t["status"], t["next_due_at"]


def status_enabled_due(db, tid):
    return db.execute("SELECT status, enabled, next_due_at FROM triggers "
                      "WHERE trigger_id = ?", (tid,)).fetchone()


def pause_resume(db, tid, paused_at, resumed_at):
    one(db, "SELECT trigger_pause(?, ?)", tid, paused_at)
    assert status_enabled_due(db, tid) == ("paused", 0, None), tid
    one(db, "SELECT trigger_resume(?, ?)", tid, resumed_at)
    return status_enabled_due(db, tid)


def test_cancelled_trigger_stays_cancelled(ext):
    db = connect(ext)
    add(db, "c")
    one(db, "SELECT trigger_cancel('c', ?)", T0 + 1)
    why = "trigger 'c' is cancelled and cannot be rescheduled or resumed"
    refused(db, "UPDATE triggers SET interval_ms = 120000 WHERE trigger_id = 'c'", (), why)
    refused(db, "UPDATE triggers SET cron_expression = '* * * * *', trigger_type = 'cron',"
                " interval_ms = NULL WHERE trigger_id = 'c'", (), why)
    refused(db, "UPDATE triggers SET enabled = 0 WHERE trigger_id = 'c'", (), why)
    refused(db, "SELECT trigger_fire('c', ?)", (T0 + 2,), "trigger 'c' is cancelled")
    refused(db, "SELECT trigger_resume('c', ?)", (T0 + 2,),
            "trigger 'c' is cancelled and cannot be resumed")
    refused(db, "SELECT trigger_pause('c', ?)", (T0 + 2,),
            "trigger 'c' is cancelled and cannot be paused")
    # what does not schedule may still change, and it stays cancelled
    db.execute("UPDATE triggers SET display_name = 'old job' WHERE trigger_id = 'c'")
    assert state(db, "c") == ("cancelled", None)
    assert trig(db, "c")["display_name"] == "old job"
    assert one(db, "SELECT trigger_cancel('c', ?)", T0 + 3) is not None  # idempotent
    assert tick(db, T0 + 10 * MIN) == []


def test_completed_by_max_runs_stays_completed_until_raised(ext):
    db = connect(ext)
    add(db, "m", max_runs=1)
    [r] = tick(db, T0 + MIN)
    finish(db, r["run_id"], "success", None, T0 + MIN + 5)
    assert state(db, "m") == ("completed", None)
    # a new schedule does not revive it: its runs are spent
    db.execute("UPDATE triggers SET interval_ms = 120000 WHERE trigger_id = 'm'")
    assert state(db, "m") == ("completed", None)
    assert tick(db, T0 + 10 * MIN) == []
    # raising max_runs does: the next occurrence of the new schedule
    db.execute("UPDATE triggers SET max_runs = 2 WHERE trigger_id = 'm'")
    status, nxt = state(db, "m")
    assert status == "scheduled" and nxt is not None, (status, nxt)
    assert len(tick(db, nxt)) == 1


def test_resume_after_max_runs_completes(ext):
    # paused while its last allowed run ran; that run finished; resuming
    # finds no occurrence left
    db = connect(ext)
    add(db, "m", max_runs=1)
    [r] = tick(db, T0 + MIN)
    one(db, "SELECT trigger_pause('m', ?)", T0 + MIN + 1)
    finish(db, r["run_id"], "success", None, T0 + MIN + 2)
    assert state(db, "m") == ("paused", None)
    one(db, "SELECT trigger_resume('m', ?)", T0 + MIN + 3)
    t = trig(db, "m")
    assert (t["status"], t["next_due_at"], t["enabled"], t["run_count"]) == ("completed", None, 1, 1)


def test_once_whose_instant_passed_while_paused_expires(ext):
    for resume in ("function", "update"):
        db = connect(ext)
        add(db, "o", trigger_type="once", scheduled_at=T0 + MIN)
        one(db, "SELECT trigger_pause('o', ?)", T0 + 1)
        if resume == "function":
            one(db, "SELECT trigger_resume('o', ?)", T0 + 2 * MIN)
        else:
            db.execute("UPDATE triggers SET enabled = 1 WHERE trigger_id = 'o'")
        assert state(db, "o") == ("expired", None), resume
        assert tick(db, T0 + 3 * MIN) == [] and runs(db, "o") == []
    # resumed before its instant it is simply scheduled again
    db = connect(ext)
    add(db, "o", trigger_type="once", scheduled_at=T0 + MIN)
    one(db, "SELECT trigger_pause('o', ?)", T0 + 1)
    one(db, "SELECT trigger_resume('o', ?)", T0 + MIN - 1)
    assert state(db, "o") == ("scheduled", T0 + MIN)


def test_interval_whose_end_passed_while_paused_completes(ext):
    db = connect(ext)
    add(db, "e", end_at=T0 + 3 * MIN)
    one(db, "SELECT trigger_pause('e', ?)", T0 + 1)
    one(db, "SELECT trigger_resume('e', ?)", T0 + 5 * MIN)
    assert state(db, "e") == ("completed", None)
    # resumed in time it goes on from the next occurrence after now
    db = connect(ext)
    add(db, "e", end_at=T0 + 3 * MIN)
    one(db, "SELECT trigger_pause('e', ?)", T0 + 1)
    one(db, "SELECT trigger_resume('e', ?)", T0 + 2 * MIN + 5)
    assert state(db, "e") == ("scheduled", T0 + 3 * MIN)


def test_runs_of_a_deleted_trigger_are_closed(ext):
    db = connect(ext)
    add(db, "l", interval_ms=3600000, max_attempts=3)
    add(db, "r", interval_ms=3600000, max_attempts=3, backoff_ms=1000)
    add(db, "d", interval_ms=3600000)
    due = T0 + 3600000
    got = {r["trigger_id"]: r for r in tick(db, due, lease_ms=10000)}
    finish(db, got["r"]["run_id"], "failed", "boom", due + 1)
    finish(db, got["d"]["run_id"], "deferred", None, due + 1)
    db.execute("DELETE FROM triggers")
    assert one(db, "SELECT count(*) FROM triggers") == 0
    # the lease passes, the retry and the deferral come due: nothing is
    # offered again, each run is closed
    assert retry_at(db, "r", 1) == due + 1 + 1000
    assert tick(db, due + 20000) == []
    st = {r["trigger_id"]: (r["status"], r["error"], retry_at(db, r["trigger_id"], 1))
          for r in runs(db)}
    assert st == {"l": ("failed", "lease expired", None),
                  "r": ("failed", "boom", None),
                  "d": ("skipped", "trigger was deleted", None)}, st
    assert tick(db, due + 30000) == []


def test_resume_starts_a_new_failure_streak(ext):
    # pause_after_failures counts the failures since the last resume: after
    # trigger_resume or UPDATE .. SET enabled = 1, one more failure does not
    # pause the trigger again (DESIGN: both resume the same way)
    for how in ("trigger_resume", "update"):
        db = connect(ext)
        add(db, "t", pause_after_failures=2)
        for k in (1, 2):
            [r] = tick(db, T0 + k * MIN)
            finish(db, r["run_id"], "failed", f"err{k}", T0 + k * MIN + 1)
        assert trig(db, "t")["status"] == "paused"
        if how == "update":
            db.execute("UPDATE triggers SET enabled = 1 WHERE trigger_id = 't'")
        else:
            one(db, "SELECT trigger_resume('t', ?)", T0 + 3 * MIN)
        due = trig(db, "t")["next_due_at"]
        [r] = tick(db, due)
        finish(db, r["run_id"], "failed", "err3", due + 1)
        t = trig(db, "t")
        assert (t["status"], t["last_error"]) == ("scheduled", "err3"), (how, t)
        [r] = tick(db, t["next_due_at"])
        finish(db, r["run_id"], "failed", "err4", t["next_due_at"] + 1)
        t = trig(db, "t")
        assert t["status"] == "paused" and "after 2 consecutive failures; last: err4" \
            in t["last_error"], (how, t)


def test_skipped_run_does_not_count_toward_max_runs(ext):
    """max_runs counts runs that ran: a run the host finishes `skipped`
    gives its claim back, so max_runs 1 does not end the trigger with
    run_count 0; the next occurrence (strictly after the report) runs, and
    that one, finished success, completes it."""
    db = connect(ext)
    add(db, "m1", max_runs=1)
    (run,) = tick(db, T0 + MIN)
    after = finish(db, run["run_id"], "skipped", "nobody home", T0 + MIN + 5)
    assert after["status"] == "scheduled" and after["run_count"] == 0, after
    assert after["next_due_at"] == T0 + 2 * MIN, after
    (run,) = tick(db, T0 + 2 * MIN)
    assert run["scheduled_for"] == T0 + 2 * MIN, run
    after = finish(db, run["run_id"], "success", None, T0 + 2 * MIN + 5)
    assert after["status"] == "completed" and after["run_count"] == 1, after
    assert after["next_due_at"] is None, after
    assert tick(db, T0 + 10 * MIN) == []
    # max_runs 2: a skip in between still leaves two runs that ran
    add(db, "m2", max_runs=2)
    done = []
    for k in range(1, 6):
        for r in tick(db, T0 + k * MIN):
            if r["trigger_id"] == "m2":
                status = "skipped" if k == 2 else "success"
                done.append((k, finish(db, r["run_id"], status, None, T0 + k * MIN + 1)))
    assert [k for k, _ in done] == [1, 2, 3], done
    assert done[-1][1]["status"] == "completed" and done[-1][1]["run_count"] == 2, done
    # a once trigger skipped has nothing left: completed, not re-armed
    add(db, "o1", trigger_type="once", scheduled_at=T0 + 20 * MIN, max_runs=1)
    (run,) = [r for r in tick(db, T0 + 20 * MIN) if r["trigger_id"] == "o1"]
    after = finish(db, run["run_id"], "skipped", None, T0 + 20 * MIN + 1)
    assert after["status"] == "completed" and after["run_count"] == 0, after


def test_resume_when_used_up(ext):
    db = connect(ext)
    add(db, "m", interval_ms=MIN, max_runs=1, start_at=T0)
    add(db, "o", trigger_type="once", scheduled_at=T0 + MIN)
    tick(db, T0)
    one(db, "SELECT trigger_pause('m', ?)", T0 + 1)
    one(db, "SELECT trigger_resume('m', ?)", T0 + 2)
    t = trig(db, "m")
    assert (t["enabled"], t["next_due_at"]) == (1, None), t
    assert t["status"] != "scheduled", t
    # a once trigger paused before its instant, resumed after it: expired
    one(db, "SELECT trigger_pause('o', ?)", T0 + 1)
    one(db, "SELECT trigger_resume('o', ?)", T0 + 2 * MIN)
    t = trig(db, "o")
    assert (t["status"], t["next_due_at"], t["enabled"]) == ("expired", None, 1), t


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


def test_ops_with_an_id_that_is_no_text(ext):
    db = connect(ext)
    for fn in ("trigger_pause", "trigger_resume", "trigger_fire", "trigger_cancel"):
        for args in ("NULL", "NULL, 'garbage'", "5"):
            assert error(db, f"SELECT {fn}({args})") == \
                f"{fn}: argument 1 (trigger_id) must be text", (fn, args)
