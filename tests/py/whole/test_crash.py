"""tests/py/whole/test_crash.py -- a host killed with SIGKILL (issue 5, item 7).

A worker process (tests/py/whole/worker_crash.py) opens a database prepared
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
import subprocess
import sys
import tempfile

from util import dump, one
from util.crash import NOW, build, copy_db, open_db

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable


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
