"""tests/py/sql/test_vtab_runs.py -- DELETE through trigger_runs
(ext/sql/vtab_runs.c): a running run holds its trigger's overlap policy,
so its DELETE is refused and changes nothing, alone or in a multi-row
DELETE (which fails whole); once finished it can be deleted and the
trigger goes on."""
import sqlite3

from util import MIN, T0, add, connect, finish, one, runs, tick, trig


def wakeup(db, now):
    return one(db, "SELECT trigger_next_wakeup(?)", now)


def expect_error(db, sql, fragment, *args):
    try:
        db.execute(sql, args)
    except sqlite3.Error as e:
        assert fragment in str(e), e
        return e
    raise AssertionError(f"expected an error: {sql}")


# ---- DELETE of a running run ------------------------------------------

def test_delete_running_run_is_refused(ext):
    # Deleting the running run of a trigger used to leave its overlap hold
    # set for good: with `skip` every later occurrence was recorded
    # skipped, with `queue` nothing was claimed again and the wakeup was
    # NULL. Now the DELETE is refused and changes nothing; once the run is
    # finished it can be deleted, and the trigger goes on.
    for policy in ("skip", "queue"):
        db = connect(ext)
        add(db, "q", overlap_policy=policy)
        [r] = tick(db, T0 + MIN, lease_ms=10 * MIN)
        e = expect_error(db, "DELETE FROM trigger_runs WHERE trigger_id = 'q'",
                         f"trigger_runs: run '{r['run_id']}' is running; finish it first "
                         "(trigger_run_finish), then delete it")
        assert isinstance(e, sqlite3.IntegrityError), e
        assert [x["status"] for x in runs(db, "q")] == ["running"]
        finish(db, r["run_id"], "success", now=T0 + MIN + 1)
        db.execute("DELETE FROM trigger_runs WHERE trigger_id = 'q'")
        assert runs(db, "q") == []
        claimed = tick(db, T0 + 2 * MIN)
        assert [x["scheduled_for"] for x in claimed] == [T0 + 2 * MIN], (policy, claimed)
        assert wakeup(db, T0 + 2 * MIN) == MIN
        db.close()


def test_multi_row_delete_with_a_running_run_fails_whole(ext):
    # Finished runs before and after the running one (in rowid order): the
    # statement fails on the running run and every row stays, both in
    # autocommit mode and inside the caller's transaction (a statement
    # rollback there; the transaction's other writes stay).
    db = connect(ext)
    add(db, "a", overlap_policy="allow")
    [r1] = tick(db, T0 + MIN)
    finish(db, r1["run_id"], "success", now=T0 + MIN + 1)
    [r2] = tick(db, T0 + 2 * MIN, lease_ms=10 * MIN)   # stays running
    [r3] = tick(db, T0 + 3 * MIN)
    finish(db, r3["run_id"], "success", now=T0 + 3 * MIN + 1)
    before = [tuple(x) for x in db.execute("SELECT * FROM trigger_runs ORDER BY run_id")]
    assert len(before) == 3
    expect_error(db, "DELETE FROM trigger_runs", f"run '{r2['run_id']}' is running")
    assert [tuple(x) for x in db.execute("SELECT * FROM trigger_runs ORDER BY run_id")] == before
    db.execute("BEGIN")
    add(db, "c")
    expect_error(db, "DELETE FROM trigger_runs WHERE scheduled_for >= 0",
                 f"run '{r2['run_id']}' is running")
    assert [tuple(x) for x in db.execute("SELECT * FROM trigger_runs ORDER BY run_id")] == before
    db.execute("COMMIT")
    assert trig(db, "c") is not None
    # deleting finished runs is pruning
    db.execute("DELETE FROM trigger_runs WHERE status <> 'running'")
    assert [x["run_id"] for x in runs(db)] == [r2["run_id"]]
