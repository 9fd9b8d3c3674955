"""tests/py/util/crash.py -- the database the crash and full-disk tests
start from (whole/test_crash.py, whole/test_fault.py): opened with the
extension, built with runs in every state, copied file by file."""
import json
import os
import shutil
import sqlite3

from util import MIN, T0, finish, one


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
