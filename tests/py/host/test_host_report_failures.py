"""tests/py/host/test_host_report_failures.py -- a batch of reports whose write
fails as a whole (reports.c's batch_failed): the database refuses it (an
SQL trigger of the database's owner aborts every finish: the reports are
dropped, each logged with the reason, tick exits 1, the runs stay running
for their lease to reclaim), or another connection holds the write lock
(--busy-timeout 0): kept and tried again while their leases hold, then
written; dropped, "its lease has passed", when the lock outlasts it; in
run mode, reports joining a claim whose BEGIN finds the lock are kept
too."""
import os
import sqlite3
import subprocess
import time

from util.host import Tmp, add_interval, host_bin, now_ms, runs, wait_for
from util import one


def due(ext, t, n=1):
    path, db = t.db(ext)
    for i in range(n):
        add_interval(db, f"t{i}", now_ms() - 500, interval_ms=3600000)
    return path, db


def start_tick(ext, path, *args):
    return subprocess.Popen([host_bin(ext), "tick", path, "--extension", ext, *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_batch_refused_by_the_database(ext):
    with Tmp() as t:
        path, db = due(ext, t, 2)
        owner = sqlite3.connect(path, isolation_level=None)  # no extension: plain SQL
        owner.execute("CREATE TRIGGER refuse BEFORE UPDATE OF status ON triggers_rundata"
                      " WHEN NEW.status IN ('success', 'failed')"
                      " BEGIN SELECT RAISE(ABORT, 'finishing is refused here'); END")
        p = subprocess.run([host_bin(ext), "tick", path, "--extension", ext, "--exec", "true"],
                           capture_output=True, text=True, timeout=20)
        assert p.returncode == 1, (p.returncode, p.stderr)
        got = runs(db)
        assert [r["status"] for r in got] == ["running", "running"], got
        for r in got:
            assert (f"{path}: run {r['run_id']}: report success refused: not written: "
                    f"{path}: trigger_run_finish_many: finishing is refused here") in p.stderr, \
                p.stderr
        assert "tried again" not in p.stderr, p.stderr


def hold_lock_while_running(path, t, seconds):
    """Once the command has started: the write lock for `seconds`."""
    assert wait_for(lambda: os.path.exists(t.file("started")), 10)
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    time.sleep(seconds)
    holder.execute("COMMIT")
    holder.close()


def test_batch_on_a_locked_database_waits_while_the_lease_holds(ext):
    with Tmp() as t:
        path, db = due(ext, t)
        proc = start_tick(ext, path, "--exec", f"touch {t.file('started')}; sleep 0.3",
                          "--busy-timeout", "0")
        hold_lock_while_running(path, t, 1.5)
        _, err = proc.communicate(timeout=20)
        assert proc.returncode == 0, (proc.returncode, err)
        assert (f"{path}: trigger_run_finish_many: database is locked; 1 report(s) tried "
                f"again in 1001 ms") in err, err
        [r] = runs(db)
        assert r["status"] == "success", r


def test_batch_on_a_locked_database_dropped_when_its_lease_passes(ext):
    with Tmp() as t:
        path, db = due(ext, t)
        proc = start_tick(ext, path, "--exec", f"touch {t.file('started')}; sleep 0.2",
                          "--busy-timeout", "0", "--lease-ms", "1000")
        hold_lock_while_running(path, t, 2.0)
        _, err = proc.communicate(timeout=20)
        assert proc.returncode == 1, (proc.returncode, err)
        assert "1 report(s) tried again in 101 ms" in err, err  # a tenth of the lease
        [r] = runs(db)
        assert (f"{path}: run {r['run_id']}: report success refused: not written: {path}: "
                "trigger_run_finish_many: database is locked (its lease has passed)") in err, err
        assert r["status"] == "running", r  # for the lease's expiry to settle


def test_run_mode_reports_joining_a_claim_under_a_held_lock_are_kept(ext):
    """Run mode writes the pending reports in the next claim's
    transaction. When that BEGIN IMMEDIATE finds another connection's
    write lock (--busy-timeout 0), the reports are kept and written once
    the lock is gone, not counted written and dropped (their runs would
    stay 'running' until the lease passed)."""
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "first", now_ms() - 500, interval_ms=3600000)
        add_interval(db, "second", now_ms() + 600, interval_ms=3600000)
        proc = subprocess.Popen(
            [host_bin(ext), "run", path, "--extension", ext, "--exec",
             f"touch {t.file('ran')}-$TRIGGER_ID", "--busy-timeout", "0",
             "--report-ms", "1000", "--lease-ms", "120000"],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            assert wait_for(lambda: os.path.exists(t.file("ran") + "-first"), 10)
            # its report waits (--report-ms 1000) for the next claim, the
            # second's (due 600 ms after the start), which finds the lock
            holder = sqlite3.connect(path, isolation_level=None)
            holder.execute("BEGIN IMMEDIATE")
            time.sleep(2.5)
            first = one(db, "SELECT status FROM trigger_runs WHERE trigger_id = 'first'")
            holder.execute("COMMIT")
            holder.close()
            assert first == "running", first
            assert wait_for(lambda: one(db, "SELECT status FROM trigger_runs"
                                            " WHERE trigger_id = 'first'") == "success", 10)
            assert wait_for(lambda: os.path.exists(t.file("ran") + "-second"), 10)
        finally:
            proc.terminate()
            _, err = proc.communicate(timeout=10)
        assert "report(s) tried again" in err, err
        assert "refused" not in err, err
