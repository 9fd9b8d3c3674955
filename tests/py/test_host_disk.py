"""tests/py/test_host_disk.py -- trigger-host on a disk that fills up
(build/host_disk.so, tests/fault/host_disk.c, preloaded: from the K-th
write, sync or truncation of the process on, every one fails with
SQLITE_FULL; FAULT_DISK_FOR=M: only M of them, a disk freed again).

A print-mode tick over 30 due triggers, the disk full from each point of
its run on (the claim, the reports, the close), then a healthy tick after
the lease, on both of print mode's paths (the lease path, and the claim's
transaction committed after the lines): no run is lost -- every occurrence is printed at least once,
and ends 'success' or, when its printed run's report could not be
written, 'failed' by the lease ('lease expired') -- nothing stays
running, the exit status says what happened (0, 1 reports not written,
3 the claim failed) with the disk named in the log, and the database is
whole. A full disk that clears within the lease loses no report: the
batch is kept and written again. `trigger-host run` outlasts a full disk:
its claims are tried again until the disk has room."""
import json
import os
import signal
import subprocess
import time

from test_host import Tmp, add_interval, host_bin, now_ms, runs
from util import one

N = 30
LEASE_MS = 500


def preload(ext):
    """LD_PRELOAD for the host: the sanitizer runtimes first (make
    test-asan exports them as PRELOAD), then the full disk."""
    so = os.path.join(os.path.dirname(os.path.abspath(ext)), "host_disk.so")
    assert os.path.exists(so), so
    return ":".join(p for p in (os.environ.get("PRELOAD", ""), so) if p)


def tick(ext, path, env=None, args=()):
    p = subprocess.run([host_bin(ext), "tick", path, "--extension", ext,
                        "--lease-ms", str(LEASE_MS), *args],
                       capture_output=True, text=True, timeout=60,
                       env=dict(os.environ, **(env or {})))
    return p.returncode, [json.loads(x)["run_id"] for x in p.stdout.splitlines()], p.stderr


def due_db(ext, t):
    path, db = t.db(ext)
    due = now_ms() - 500
    db.execute("BEGIN")
    for i in range(N):
        add_interval(db, f"d{i:02d}", due, interval_ms=3600000)
    db.execute("COMMIT")
    return path, db


def full_from(ext, k, lasting=0):
    return {"LD_PRELOAD": preload(ext), "FAULT_DISK_AFTER": str(k),
            "FAULT_DISK_FOR": str(lasting)}


def test_full_disk_at_every_point_of_a_tick_loses_no_run(ext):
    full_disk_sweep(ext, ["--print-lease"], {0, 1, 3})
    # in the claim's transaction there are no reports: the claim (and its
    # commit after the lines) fails whole, or all is done
    full_disk_sweep(ext, [], {0, 3})


def full_disk_sweep(ext, args, expect):
    seen = set()
    for k in (1, 5, 10, 15, 20, 25, 30, 35, 41, 60):
        with Tmp() as t:
            path, db = due_db(ext, t)
            rc, printed, err = tick(ext, path, full_from(ext, k), args)
            assert rc in (0, 1, 3), (k, rc, err[-2000:])
            if rc:
                assert "database or disk is full" in err, (k, err[-2000:])
            if rc == 3 and not args:
                assert runs(db) == [], k  # rolled back: nothing claimed
            seen.add(rc)
            if any(r["status"] == "running" for r in runs(db)):
                time.sleep(LEASE_MS / 1000 + 0.1)
            rc2, printed2, err2 = tick(ext, path)
            assert rc2 == 0, (k, err2[-2000:])
            rc3, printed3, err3 = tick(ext, path)
            assert (rc3, printed3) == (0, []), (k, printed3)
            got = {r["run_id"]: r for r in runs(db)}
            assert len(got) == N, (k, len(got))
            assert set(printed) | set(printed2) == set(got), k
            for r in got.values():
                assert r["status"] == "success" or (r["status"], r["error"]) == \
                    ("failed", "lease expired"), (k, r)
                if r["status"] == "failed":
                    assert r["run_id"] in printed, (k, r)  # delivered, report lost
            assert one(db, "PRAGMA integrity_check") == "ok", k
    # the sweep reached the claim (3), the reports (1) and a clean run (0)
    assert seen == expect, (args, seen)


def test_full_disk_that_clears_loses_no_report(ext):
    with Tmp() as t:
        path, db = due_db(ext, t)
        # from the reports' first write on, three writes fail: the batch is
        # kept, tried again, and written once the disk has room again
        rc, printed, err = tick(ext, path, full_from(ext, 30, 3), ["--print-lease"])
        assert rc == 0, err[-2000:]
        assert "report(s) tried again" in err, err[-2000:]
        assert sorted(printed) == sorted(r["run_id"] for r in runs(db))
        assert {r["status"] for r in runs(db)} == {"success"}
        assert one(db, "SELECT sum(run_count) FROM triggers") == N


def test_run_mode_outlasts_a_full_disk(ext):
    # trigger-host run over a disk full for a while (three writes fail,
    # from its first on: each failed claim is tried again a second later):
    # it keeps going, claims once the disk has room, and ends with every
    # occurrence printed and 'success'; SIGTERM still ends it cleanly
    with Tmp() as t:
        path, db = due_db(ext, t)
        env = dict(os.environ, **full_from(ext, 1, 3))
        proc = subprocess.Popen([host_bin(ext), "run", path, "--extension", ext,
                                 "--lease-ms", str(LEASE_MS)],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True, env=env)
        deadline = time.time() + 20
        while time.time() < deadline and (
                one(db, "SELECT count(*) FROM trigger_runs WHERE status = 'success'") < N):
            time.sleep(0.1)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, (proc.returncode, err[-2000:])
        assert "database or disk is full" in err, err[-2000:]
        printed = [json.loads(x)["run_id"] for x in out.splitlines()]
        got = {r["run_id"]: r["status"] for r in runs(db)}
        assert set(got.values()) == {"success"} and len(got) == N, got
        assert set(printed) == set(got), (sorted(printed), sorted(got))
