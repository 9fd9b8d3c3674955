"""tests/py/host/test_host_renewal.py -- what trigger-host does when the
database or the operator stops cooperating while runs are out: a second
stop signal (running commands killed at once, reported failed), a lease
renewal refused
(the run was finished or reclaimed by someone else: the command goes on,
its report is refused, tick exits 1), a renewal that finds the database
locked (tried again within the lease, then renewed), renewals through
--via, and stdout closed in print mode (the claimed runs are released
'deferred', exit 3)."""
import os
import signal
import sqlite3
import subprocess
import time

from util.host import Tmp, add_interval, add_once, host_bin, now_ms, runs, wait_for
from util import one


def start_tick(ext, path, *args):
    return subprocess.Popen([host_bin(ext), "tick", path, "--extension", ext, "-v", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_refused_renewal_lets_the_command_finish_unreported(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_once(db, "long", now_ms() - 200)
        proc = start_tick(ext, path, "--exec", "sleep 2", "--lease-ms", "1000")
        assert wait_for(lambda: runs(db), 3)
        [r] = runs(db)
        # someone else settles the run while its command still works
        one(db, "SELECT trigger_run_finish(?, 'failed', 'taken over')", r["run_id"])
        _, err = proc.communicate(timeout=10)
        assert proc.returncode == 1, (proc.returncode, err)  # its report was refused
        assert "the command goes on without a lease" in err, err
        assert f"run {r['run_id']}: report success refused" in err, err
        [after] = runs(db)
        assert (after["status"], after["error"]) == ("failed", "taken over"), after


def test_renewal_on_a_locked_database_is_tried_again(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_once(db, "long", now_ms() - 200)
        proc = start_tick(ext, path, "--exec", "sleep 3", "--lease-ms", "2000",
                          "--busy-timeout", "0")
        assert wait_for(lambda: runs(db), 3)
        holder = sqlite3.connect(path, isolation_level=None)
        holder.execute("BEGIN IMMEDIATE")  # over the first renewal (at 1 s)
        time.sleep(1.4)
        holder.execute("COMMIT")
        _, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, err
        # after a tenth of the lease (at most a second)
        assert "trying again in 201 ms" in err, err
        [r] = runs(db)
        assert (r["status"], r["attempt"]) == ("success", 1), r
        assert r["lease_until"] - r["claimed_at"] > 2000, r  # renewed after the lock


def test_renewal_through_via(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_once(db, "long", now_ms() - 200)
        via = f"sqlite3 -bail -cmd '.load {os.path.abspath(ext)}' {path}"
        p = subprocess.run([host_bin(ext), "tick", "far", "--via", via, "--exec", "sleep 1.3",
                            "--lease-ms", "800"], capture_output=True, text=True, timeout=20)
        assert p.returncode == 0, p.stderr
        [r] = runs(db)
        assert (r["status"], r["attempt"]) == ("success", 1), r
        assert r["lease_until"] - r["claimed_at"] > 800, r  # renewed through CMD


def test_stdout_closed_releases_the_claimed_runs(ext):
    # a pipe whose reader is gone (EPIPE): the lease path releases its runs
    # 'deferred'; the claim's transaction is rolled back (no run rows)
    for lease in (True, False):
        with Tmp() as t:
            path, db = t.db(ext)
            for i in range(3):
                add_interval(db, f"t{i}", now_ms() - 500, interval_ms=3600000)
            r, w = os.pipe()
            os.close(r)
            try:
                p = subprocess.run([host_bin(ext), "tick", path, "--extension", ext]
                                   + (["--print-lease"] if lease else []), stdout=w,
                                   stderr=subprocess.PIPE, text=True, timeout=10)
            finally:
                os.close(w)
            assert p.returncode == 3 and "releasing runs and stopping" in p.stderr, p.stderr
            assert sorted(x["status"] for x in runs(db)) == (["deferred"] * 3 if lease else [])
            # the next tick offers them again
            assert len(subprocess.run([host_bin(ext), "tick", path, "--extension", ext],
                                      capture_output=True, text=True, timeout=10)
                       .stdout.splitlines()) == 3


def test_second_stop_signal_kills_at_once(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_once(db, "long", now_ms() - 200)
        proc = subprocess.Popen([host_bin(ext), "run", path, "--extension", ext,
                                 "--exec", "sleep 30", "--grace", "60"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert wait_for(lambda: runs(db), 3)
        time.sleep(0.2)
        t0 = time.time()
        proc.send_signal(signal.SIGTERM)  # waits up to --grace (60 s) ...
        time.sleep(0.3)
        proc.send_signal(signal.SIGTERM)  # ... unless asked twice
        _, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, err
        assert time.time() - t0 < 5
        [r] = runs(db)
        assert (r["status"], r["error"]) == ("failed", "killed: host stopped (second stop signal)"), r
