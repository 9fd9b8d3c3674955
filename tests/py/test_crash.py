"""tests/py/test_crash.py -- a host killed with SIGKILL (issue 5, item 7).

A worker process (tests/py/worker_crash.py) opens a database prepared
here, and dies by SIGKILL:
  - mid-dispatch: after its tick committed, having finished only some of
    the claimed runs. The file opens clean, nothing is reclaimed before
    the lease ends, and the first tick after it reclaims exactly the
    unfinished runs as attempt n+1 (attempt n recorded 'failed: lease
    expired');
  - mid-tick, inside the tick's write transaction: a progress handler
    kills the process after the k-th batch of VM instructions, for k
    spread over the whole tick (and just before its end); and inside a
    caller's BEGIN IMMEDIATE before COMMIT. In WAL and in rollback-journal
    mode, the file opens clean and holds exactly the state before the
    tick (or, if the kill came after COMMIT, exactly the state after it:
    never anything in between), and a normal tick then claims exactly
    what the uninterrupted tick claims, leaving byte-identical tables.
"""
import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile

from util import MIN, T0, dump, finish, one

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
NOW = T0 + 5 * MIN + 10000      # the crashing tick's clock


def open_db(ext, path):
    db = sqlite3.connect(path, timeout=10, isolation_level=None)  # busy_timeout first
    db.enable_load_extension(True)
    db.load_extension(ext)
    db.enable_load_extension(False)
    return db


def build(ext, path, journal):
    """A database with work for all three probes of the tick at NOW:
    expired leases, a deferred run and a retry, and many due triggers."""
    db = open_db(ext, path)
    assert db.execute(f"PRAGMA journal_mode={journal}").fetchone()[0] == journal
    db.execute("PRAGMA synchronous=OFF")  # setup only; the workers use the default
    db.execute("SELECT trigger_install()")
    db.execute("BEGIN")
    ins = ("INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms,"
           " scheduled_at, cron_expression, start_at, misfire_policy, overlap_policy,"
           " max_attempts, backoff_ms, jitter_ms, window_ms, created_at)"
           " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 3, 1000, ?, ?, ?)")
    rows = [
        ("all", "interval", 60000, None, None, T0, "all", "allow", None, None),
        ("co", "interval", 45000, None, None, T0, "coalesce", "allow", None, None),
        ("cron", "cron", None, None, "*/2 * * * *", None, "coalesce", "skip", None, None),
        ("once", "once", None, T0 + 4 * MIN, None, None, "coalesce", "skip", None, None),
        ("jit", "interval", 60000, None, None, T0, "all", "allow", 20000, None),
        ("win", "interval", 60000, None, None, T0, "all", "allow", None, 150000),
        ("q", "interval", 60000, None, None, T0, "all", "queue", None, None),
    ]
    for i in range(40):
        rows.append((f"p{i:02d}", "interval", 20000 + 1000 * (i % 9), None, None, T0,
                     "all" if i % 2 else "coalesce", "allow", None, None))
    for (tid, ty, iv, at, cron, start, mis, ov, jit, win) in rows:
        db.execute(ins, (tid, "job " + tid, ty, iv, at, cron, start, mis, ov, jit, win, T0))
    db.execute("COMMIT")
    # Earlier history: a tick at T0 + 1 min, some runs finished, one
    # deferred, one failed (a retry is due), the rest left running with a
    # lease that has passed by NOW.
    got = json.loads(one(db, "SELECT trigger_run_due(?, ?)", T0 + MIN,
                         json.dumps({"owner": "before", "lease_ms": 30000})))
    assert len(got) > 40
    for k, r in enumerate(got):
        if k % 4 == 0:
            finish(db, r["run_id"], "success", None, T0 + MIN + 5)
        elif k % 4 == 1 and r["trigger_id"] != "q":
            pass  # left running: lease expired at NOW
        elif k == 2:
            finish(db, r["run_id"], "deferred", None, T0 + MIN + 5)
        elif k == 6:
            finish(db, r["run_id"], "failed", "boom", T0 + MIN + 5)
        else:
            finish(db, r["run_id"], "success", None, T0 + MIN + 5)
    db.close()


def copy_db(src, dst):
    for suffix in ("-wal", "-shm", "-journal"):
        if os.path.exists(dst + suffix):
            os.unlink(dst + suffix)
    shutil.copyfile(src, dst)


def run_worker(ext, cfg):
    cfg = dict(cfg, ext=os.path.abspath(ext))
    p = subprocess.run([PY, os.path.join(HERE, "worker_crash.py"), json.dumps(cfg)],
                       capture_output=True, text=True, timeout=60)
    lines = [line for line in p.stdout.splitlines() if line.startswith("{")]
    return p.returncode, (json.loads(lines[-1]) if lines else None), p.stderr


def check_clean(ext, path, journal):
    db = open_db(ext, path)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == journal
    return db


def test_kill_mid_dispatch_reclaims_after_lease(ext):
    tmp = tempfile.mkdtemp(prefix="trg-crash-")
    try:
        path = os.path.join(tmp, "d.db")
        build(ext, path, "wal")
        rc, out, err = run_worker(ext, dict(mode="dispatch", db=path, now=NOW,
                                            lease_ms=2000, finish=5))
        assert rc == -9, (rc, err)
        claimed = out["claimed"]
        assert len(claimed) > 40
        db = check_clean(ext, path, "wal")
        st = {r[0]: r[1:] for r in db.execute(
            "SELECT run_id, status, owner, lease_until, trigger_id, scheduled_for, attempt"
            " FROM trigger_runs WHERE owner = 'crasher'")}
        assert sorted(st) == sorted(claimed), "the claim committed, all of it"
        done, left = claimed[:5], claimed[5:]
        assert all(st[r][0] == "success" for r in done)
        assert all(st[r][0] == "running" and st[r][2] == NOW + 2000 for r in left)
        before_lease = json.loads(one(db, "SELECT trigger_run_due(?, ?)", NOW + 1999,
                                      json.dumps({"owner": "rescuer"})))
        assert all(r["attempt"] == 1 and r["scheduled_for"] > NOW for r in before_lease), \
            "nothing is reclaimed before the lease ends"
        got = json.loads(one(db, "SELECT trigger_run_due(?, ?)", NOW + 2000,
                             json.dumps({"owner": "rescuer"})))
        reclaimed = {(r["trigger_id"], r["scheduled_for"], r["attempt"] - 1)
                     for r in got if r["attempt"] > 1}
        assert reclaimed == {tuple(st[r][3:]) for r in left}, "every unfinished run, once"
        assert all(r["scheduled_for"] > NOW for r in got if r["attempt"] == 1)
        for r in left:
            status, error = db.execute("SELECT status, error FROM trigger_runs WHERE run_id = ?",
                                       (r,)).fetchone()
            assert (status, error) == ("failed", "lease expired"), (r, status, error)
        # the crasher's finished runs stay finished; nothing is running twice
        dup = db.execute("SELECT trigger_id, scheduled_for, count(*) FROM trigger_runs"
                         " WHERE status = 'running' GROUP BY 1, 2 HAVING count(*) > 1").fetchall()
        assert dup == []
        for tid, running, n in db.execute(
                "SELECT d.trigger_id, d.running, (SELECT count(*) FROM triggers_rundata r"
                " WHERE r.trigger_id = d.trigger_id AND r.status = 'running')"
                " FROM triggers_state d"):
            assert running == n, (tid, running, n)
        db.close()
    finally:
        shutil.rmtree(tmp)


def reference(ext, pristine, tmp, journal):
    """The uninterrupted tick: its claims, the dump after it, and how many
    progress-handler calls it makes."""
    ref = os.path.join(tmp, "ref.db")
    copy_db(pristine, ref)
    db = open_db(ext, ref)
    before = dump(db)
    calls = [0]

    def count():
        calls[0] += 1
        return 0

    db.set_progress_handler(count, 1)
    got = json.loads(one(db, "SELECT trigger_run_due(?, ?)", NOW,
                         json.dumps({"owner": "crasher", "lease_ms": 30000})))
    db.set_progress_handler(None, 0)
    after = dump(db)
    db.close()
    return before, after, [r["run_id"] for r in got], calls[0]


def kill_inside_tick(ext, journal):
    tmp = tempfile.mkdtemp(prefix="trg-crash-")
    try:
        pristine = os.path.join(tmp, "pristine.db")
        build(ext, pristine, journal)
        if journal == "wal":  # fold the WAL into the file, so one file is the state
            db = open_db(ext, pristine)
            db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            db.close()
        before, after, ref_claims, total = reference(ext, pristine, tmp, journal)
        assert len(ref_claims) > 40 and total > 100, (len(ref_claims), total)
        assert before != after
        points = sorted({1, 2, 5} | {total * k // 12 for k in range(1, 12)} |
                        {total - 3, total - 2, total - 1})
        trial = os.path.join(tmp, "trial.db")
        seen = {"before": 0, "after": 0}
        for k in points + ["txn"]:
            copy_db(pristine, trial)
            if k == "txn":
                cfg = dict(mode="txn_kill", db=trial, now=NOW, lease_ms=30000)
            else:
                cfg = dict(mode="tick_kill", db=trial, now=NOW, lease_ms=30000,
                           kill_at=k, every=1)
            rc, out, err = run_worker(ext, cfg)
            assert rc == -9 or (rc == 0 and out and out.get("completed")), (k, rc, out, err)
            if journal == "delete" and k not in (1, 2, 5):
                # the kill landed inside the write transaction: a hot journal
                assert os.path.getsize(trial + "-journal") > 0, k
            if k == "txn":
                assert sorted(out["claimed"]) == sorted(ref_claims)
            db = check_clean(ext, trial, journal)
            state = dump(db)
            assert state in (before, after), f"half-written state after a kill at {k}/{total}"
            seen["before" if state == before else "after"] += 1
            if k == "txn":
                assert state == before, "an uncommitted caller transaction is rolled back"
            got = json.loads(one(db, "SELECT trigger_run_due(?, ?)", NOW,
                                 json.dumps({"owner": "crasher", "lease_ms": 30000})))
            assert [r["run_id"] for r in got] == (ref_claims if state == before else []), k
            assert dump(db) == after, f"the tick after a kill at {k} differs"
            assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            db.close()
        assert seen["before"] >= len(points) - 3, seen
        return seen
    finally:
        shutil.rmtree(tmp)


def test_kill_inside_tick_wal(ext):
    kill_inside_tick(ext, "wal")


def test_kill_inside_tick_rollback_journal(ext):
    kill_inside_tick(ext, "delete")
