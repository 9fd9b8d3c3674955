"""tests/py/store/test_install_concurrent.py -- trigger_install() called at once
on a new file by threads, processes and two hosts (issue 32 item 11,
docs/reliability.md#concurrent-first-install-item-11): it failed "table
'triggers_data' already exists" (13 of 480 calls from threads, 1 of 320
from processes), because the names were checked before its transaction.
Every call must succeed, and the file holds one installation. A host's
switch to WAL that met another connection's write lock failed at once
too: it waits within --busy-timeout."""
import multiprocessing
import os
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time

from util import connect, one


def install(ext, path, errors, barrier=None):
    try:
        db = connect(ext, path, install=False)
        if barrier:
            barrier.wait()
        assert one(db, "SELECT trigger_install()") == 6
        db.close()
    except Exception as e:  # noqa: BLE001 -- every failure is counted
        errors.append(repr(e))


def installed_once(ext, path):
    db = connect(ext, path, install=False)
    names = [r[0] for r in db.execute(
        "SELECT name FROM sqlite_schema WHERE name LIKE 'trigger%' AND type = 'table' ORDER BY 1")]
    assert names == ["trigger_calendar_days", "trigger_events", "trigger_runs", "triggers",
                     "triggers_calendar", "triggers_config", "triggers_data",
                     "triggers_events", "triggers_rundata", "triggers_state"], names
    assert one(db, "SELECT value FROM triggers_config WHERE key = 'schema_version'") == 6
    db.close()


def test_threads_install_one_new_file(ext):
    errors = []
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(60):
            path = os.path.join(tmp, f"{rep}.db")
            barrier = threading.Barrier(8)
            ts = [threading.Thread(target=install, args=(ext, path, errors, barrier))
                  for _ in range(8)]
            for t in ts:
                t.start()
            for t in ts:
                t.join()
            installed_once(ext, path)
    assert errors == [], (len(errors), errors[:3])


def _process(ext, path, barrier, queue):
    errors = []
    install(ext, path, errors, barrier)
    queue.put(errors)


def test_processes_install_one_new_file(ext):
    errors = []
    ctx = multiprocessing.get_context("fork")
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(50):
            path = os.path.join(tmp, f"{rep}.db")
            barrier, queue = ctx.Barrier(4), ctx.Queue()
            ps = [ctx.Process(target=_process, args=(ext, path, barrier, queue)) for _ in range(4)]
            for p in ps:
                p.start()
            for _ in ps:
                errors += queue.get(timeout=60)
            for p in ps:
                p.join()
                assert p.exitcode == 0
            installed_once(ext, path)
    assert errors == [], (len(errors), errors[:3])


def test_two_hosts_start_on_one_new_file(ext):
    host = os.path.join(os.path.dirname(ext), "trigger-host")
    with tempfile.TemporaryDirectory() as tmp:
        for rep in range(30):
            path = os.path.join(tmp, f"{rep}.db")
            ps = [subprocess.Popen([host, "tick", path, "--create", "--extension", ext],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                  for _ in range(2)]
            for p in ps:
                out, err = p.communicate(timeout=60)
                assert p.returncode == 0, (rep, p.returncode, err)
            installed_once(ext, path)


def test_host_switching_to_wal_waits_for_a_writer(ext):
    # The host's PRAGMA journal_mode=WAL met another connection's write
    # lock and failed at once ("database is locked", exit 3): SQLite does
    # not wait there. It now tries again within --busy-timeout.
    host = os.path.join(os.path.dirname(ext), "trigger-host")
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "x.db")
        db = sqlite3.connect(path, isolation_level=None)
        db.execute("CREATE TABLE mine(x)")
        db.execute("BEGIN IMMEDIATE")
        db.execute("INSERT INTO mine VALUES (1)")
        p = subprocess.Popen([host, "tick", path, "--extension", ext],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(0.5)
        db.execute("COMMIT")
        out, err = p.communicate(timeout=30)
        assert p.returncode == 0, (p.returncode, err)
        db.close()
        assert one(sqlite3.connect(path), "PRAGMA journal_mode") == "wal"
        installed_once(ext, path)


if __name__ == "__main__":
    sys.exit("run through tests/py/run.py")
