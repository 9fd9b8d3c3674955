"""tests/py/whole/test_fault.py -- a full disk (issue 5, item 8).

`PRAGMA max_page_count` caps the file just above its size, so the writes
of the tick, of trigger_create, of INSERT INTO triggers and of
trigger_run_finish fail with SQLITE_FULL. Each must raise an SQL error
that says so (never a half result, never "not an error"), leave every
table byte-identical and no transaction open; with room again, the same
call claims / creates exactly what it would have without the fault.
Out-of-memory is covered by the C harness tests/fault/oom.c.
"""
import json
import os
import shutil
import sqlite3
import tempfile

from util.crash import NOW, build, copy_db, open_db
from util import T0, dump, one

OPTS = json.dumps({"owner": "host", "lease_ms": 30000})
BIG = "x" * 20000  # needs overflow pages whatever the free space


def page_count(db):
    return db.execute("PRAGMA page_count").fetchone()[0]


def expect_full(fn, what):
    try:
        fn()
    except sqlite3.Error as e:
        assert e.sqlite_errorcode & 0xff == 13, (what, e.sqlite_errorname, str(e))  # SQLITE_FULL
        assert "full" in str(e), (what, str(e))
        return str(e)
    raise AssertionError(f"{what}: no error with the disk full")


def tick_under_caps(ext, journal):
    tmp = tempfile.mkdtemp(prefix="trg-full-")
    try:
        pristine = os.path.join(tmp, "p.db")
        build(ext, pristine, journal)
        ref = os.path.join(tmp, "ref.db")
        copy_db(pristine, ref)
        db = open_db(ext, ref)
        ref_claims = [r["run_id"] for r in json.loads(one(db, "SELECT trigger_run_due(?, ?)", NOW, OPTS))]
        ref_after = dump(db)
        db.close()

        path = os.path.join(tmp, "t.db")
        copy_db(pristine, path)
        db = open_db(ext, path)
        before = dump(db)
        base = page_count(db)
        failures = 0
        for extra in range(0, 200):
            db.execute(f"PRAGMA max_page_count = {base + extra}")
            try:
                got = json.loads(one(db, "SELECT trigger_run_due(?, ?)", NOW, OPTS))
            except sqlite3.Error as e:
                assert e.sqlite_errorcode & 0xff == 13, (extra, e.sqlite_errorname, str(e))
                assert str(e).startswith("trigger_run_due: ") and "full" in str(e), str(e)
                assert not db.in_transaction, "no transaction left open"
                assert dump(db) == before, f"changed by a failed tick (cap +{extra})"
                failures += 1
                continue
            assert [r["run_id"] for r in got] == ref_claims
            assert dump(db) == ref_after
            break
        else:
            raise AssertionError("the tick never fit")
        assert failures >= 3, failures
        db.execute("PRAGMA max_page_count = 1000000")
        assert json.loads(one(db, "SELECT trigger_run_due(?, ?)", NOW, OPTS)) == []
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        db.close()
        return failures
    finally:
        shutil.rmtree(tmp)


def test_full_disk_tick_wal(ext):
    tick_under_caps(ext, "wal")


def test_full_disk_tick_rollback_journal(ext):
    tick_under_caps(ext, "delete")


def test_full_disk_tick_in_caller_transaction(ext):
    tmp = tempfile.mkdtemp(prefix="trg-full-")
    try:
        path = os.path.join(tmp, "t.db")
        build(ext, path, "wal")
        db = open_db(ext, path)
        before = dump(db)
        db.execute(f"PRAGMA max_page_count = {page_count(db)}")
        db.execute("BEGIN IMMEDIATE")
        one(db, "SELECT trigger_config('misfire_grace_ms', 61000)")
        marked = dump(db)
        expect_full(lambda: one(db, "SELECT trigger_run_due(?, ?)", NOW, OPTS), "tick in txn")
        # The failed tick undid its own work; the caller's transaction and
        # its earlier change are the caller's to keep or drop.
        if db.in_transaction:
            assert dump(db) == marked
            db.execute("ROLLBACK")
        assert dump(db) == before
        assert db.execute("SELECT count(*) FROM sqlite_master WHERE 0").fetchone()[0] == 0
        db.execute("PRAGMA max_page_count = 1000000")
        db.execute("BEGIN IMMEDIATE")
        got = json.loads(one(db, "SELECT trigger_run_due(?, ?)", NOW, OPTS))
        db.execute("COMMIT")
        assert len(got) > 40
        db.close()
    finally:
        shutil.rmtree(tmp)


def test_full_disk_create_insert_finish(ext):
    tmp = tempfile.mkdtemp(prefix="trg-full-")
    try:
        path = os.path.join(tmp, "t.db")
        build(ext, path, "wal")
        db = open_db(ext, path)
        # BIG is past the agent's default bound (create_bounds.c)
        db.execute("SELECT trigger_config('max_agent_instructions_bytes', 65536)")
        db.execute(f"PRAGMA max_page_count = {page_count(db)}")
        before = dump(db)
        ctx = json.dumps({"agent_id": "a", "role": "owner", "now": T0})
        req = json.dumps({"instructions": BIG, "trigger_type": "interval", "interval_ms": 900000})
        msg = expect_full(lambda: one(db, "SELECT trigger_create(?, ?)", req, ctx), "trigger_create")
        assert msg.startswith("trigger_create: "), msg
        assert dump(db) == before and not db.in_transaction
        expect_full(lambda: db.execute(
            "INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms, created_at)"
            " VALUES ('big', ?, 'interval', 60000, ?)", (BIG, T0)), "INSERT")
        assert dump(db) == before and not db.in_transaction
        expect_full(lambda: db.execute(
            "UPDATE triggers SET instructions = ? WHERE trigger_id = 'p01'", (BIG,)), "UPDATE")
        assert dump(db) == before and not db.in_transaction
        run_id = one(db, "SELECT run_id FROM trigger_runs WHERE status = 'running' LIMIT 1")
        expect_full(lambda: one(db, "SELECT trigger_run_finish(?, 'failed', ?, ?)",
                                run_id, BIG, NOW), "trigger_run_finish")
        assert dump(db) == before and not db.in_transaction
        # Room again: the same calls succeed.
        db.execute("PRAGMA max_page_count = 1000000")
        r = json.loads(one(db, "SELECT trigger_create(?, ?)", req, ctx))
        assert r["success"] and r["created"], r
        db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms,"
                   " created_at) VALUES ('big', ?, 'interval', 60000, ?)", (BIG + "y", T0))
        one(db, "SELECT trigger_run_finish(?, 'failed', ?, ?)", run_id, BIG, NOW)
        assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        db.close()
    finally:
        shutil.rmtree(tmp)
