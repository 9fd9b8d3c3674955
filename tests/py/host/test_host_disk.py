"""tests/py/host/test_host_disk.py -- trigger-host on a disk that fills up
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
import shutil
import signal
import subprocess
import time

from util.host import Tmp, add_interval, host_bin, now_ms, runs
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


def cpu_seconds(pid):
    """User + system CPU time of a running process (all its threads)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def line_count(path):
    with open(path, errors="replace") as f:
        return sum(1 for _ in f)


def idle_while(proc, err_path, seconds):
    """(log lines written, CPU seconds used) by proc over `seconds`."""
    lines0, cpu0 = line_count(err_path), cpu_seconds(proc.pid)
    time.sleep(seconds)
    return line_count(err_path) - lines0, cpu_seconds(proc.pid) - cpu0


def test_run_backs_off_on_a_full_disk_and_loses_no_report(ext):
    # trigger-host run with reports pending when the disk fills: it used to
    # try the reports with every claim and the claim again at once (a failed
    # write asked for a new wakeup): 46,883 log lines and 3.45 CPU-seconds
    # in 5 s. Now claims back off (1 s doubling to 5 s), reports are tried
    # again on their own schedule, a failure that goes on is logged once a
    # minute; freed, the disk takes every report: nothing lost or run twice
    with Tmp() as t:
        path, db = t.db(ext)
        due = now_ms() - 500
        db.execute("BEGIN")
        for i in range(8):
            add_interval(db, f"d{i}", due, interval_ms=3600000)
        db.execute("COMMIT")
        full, ran, err_path = t.file("full"), t.file("ran"), t.file("err")
        env = dict(os.environ, LD_PRELOAD=preload(ext), FAULT_DISK_WHILE=full)
        cmd = f'echo "$TRIGGER_RUN_ID" >> {ran}; sleep 1'
        proc = subprocess.Popen([host_bin(ext), "run", path, "--extension", ext,
                                 "--exec", cmd, "--jobs", "4", "--prefetch", "0"],
                                stdout=subprocess.DEVNULL, stderr=open(err_path, "w"),
                                env=env)
        try:
            deadline = time.time() + 10
            while time.time() < deadline and (
                    not os.path.exists(ran) or line_count(ran) < 4):
                time.sleep(0.02)
            open(full, "w").close()  # the disk is full: the 4 reports are pending
            time.sleep(1.5)          # the commands end, their reports fail
            lines, cpu = idle_while(proc, err_path, 5)
            log = open(err_path).read()
            assert "database or disk is full" in log, log[-2000:]
            assert lines <= 12 and cpu < 0.5, (lines, cpu, log[-3000:])
            os.remove(full)          # room again
            deadline = time.time() + 20
            while time.time() < deadline and one(
                    db, "SELECT count(*) FROM trigger_runs WHERE status = 'success'") < 8:
                time.sleep(0.1)
        finally:
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=15) == 0
        log = open(err_path).read()
        got = runs(db)
        assert [(r["status"], r["attempt"]) for r in got] == [("success", 1)] * 8, \
            (got, log[-3000:])
        executed = open(ran).read().split()
        assert sorted(executed) == sorted(r["run_id"] for r in got), executed
        assert "reports written again" in log and "claims work again" in log, log[-3000:]


def test_run_backs_off_on_a_read_only_database(ext):
    # a database file the host cannot write (opened read-only by SQLite):
    # serve goes on with the other databases, warns once at open, and its
    # failing claims are logged once (then once a minute), not every second
    with Tmp() as t:
        ro, rodb = t.db(ext, "ro.db")
        ok, okdb = t.db(ext, "ok.db")
        add_interval(rodb, "ro", now_ms() - 500, interval_ms=3600000)
        add_interval(okdb, "ok", now_ms() + 300, interval_ms=3600000)
        rodb.close()
        os.chmod(ro, 0o444)
        # root writes any file: drop the capability that lets it
        prefix = []
        if os.geteuid() == 0:
            if not shutil.which("setpriv"):
                print("SKIP test_run_backs_off_on_a_read_only_database: root without setpriv")
                return
            prefix = ["setpriv", "--bounding-set=-dac_override,-dac_read_search"]
        err_path = t.file("err")
        proc = subprocess.Popen([*prefix, host_bin(ext), "serve", ro, ok, "--extension", ext],
                                stdout=subprocess.DEVNULL, stderr=open(err_path, "w"))
        try:
            time.sleep(0.5)
            lines, cpu = idle_while(proc, err_path, 6)
        finally:
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(timeout=15) == 0
        log = open(err_path).read()
        assert "opened read-only" in log, log
        failures = [x for x in log.splitlines() if "readonly database" in x]
        assert 1 <= len(failures) <= 2, log
        assert lines <= 3 and cpu < 0.5, (lines, cpu, log)
        assert [r["status"] for r in runs(okdb)] == ["success"], log
