"""tests/py/host/test_host_cancel.py -- trigger_run_cancel reaching a
command trigger-host runs (docs/reactive.md#cancel-in-trigger-host;
host/dispatch/dispatch.c's check_cancel, exec.c's children_cancel): in
run mode the command's process group gets SIGTERM within about a second
of the cancel (its child too), the run is reported cancelled with what it
wrote; a command that ignores SIGTERM is killed 5 s later; the metrics
count it."""
import os
import time

from util import one
from util.host import Tmp, add_once, now_ms, runs, start, stop, wait_for


def running(db):
    r = runs(db)
    return r[0] if r and r[0]["status"] == "running" else None


def test_a_cancel_stops_the_command_group_within_two_seconds(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_once(db, "long", now_ms() - 500)
        pids = t.file("pids")
        # the command and a child of its own: both in its process group
        cmd = (f"sleep 60 & echo $! > {pids}; echo started; "
               f"trap 'echo stopped; kill $!; exit 143' TERM; wait")
        proc = start(ext, "run", path, "--exec", cmd, "--lease-ms", "60000")
        try:
            assert wait_for(lambda: running(db) and os.path.exists(pids), 10), runs(db)
            time.sleep(0.3)
            child = int(open(pids).read())
            asked = time.time()
            one(db, "SELECT trigger_run_cancel(?, 'not needed')", running(db)["run_id"])
            assert wait_for(lambda: runs(db)[0]["status"] != "running", 5)
            took = time.time() - asked
            r = runs(db)[0]
            assert r["status"] == "cancelled", r
            assert took < 2.5, took
            assert r["error"] == "not needed" and "stopped" in (r["result"] or ""), r
            assert wait_for(lambda: not os.path.exists(f"/proc/{child}") or
                            open(f"/proc/{child}/stat").read().split()[2] == "Z", 3)
        finally:
            rc, out, err = stop(proc)
        assert "cancel requested" in err, err


def test_a_command_that_ignores_sigterm_is_killed_after_the_grace(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_once(db, "stubborn", now_ms() - 500)
        cmd = "trap '' TERM; echo holding; while :; do sleep 0.1; done"
        proc = start(ext, "run", path, "--exec", cmd)
        try:
            assert wait_for(lambda: running(db), 10)
            time.sleep(0.3)
            asked = time.time()
            one(db, "SELECT trigger_run_cancel(?)", running(db)["run_id"])
            assert wait_for(lambda: runs(db)[0]["status"] != "running", 10)
            took = time.time() - asked
            r = runs(db)[0]
            assert r["status"] == "cancelled" and r["result"] == "holding", r
            assert 4.5 <= took < 8, took
        finally:
            rc, out, err = stop(proc)
        assert "SIGKILL" in err, err
