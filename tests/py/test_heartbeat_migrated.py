"""tests/py/test_heartbeat_migrated.py -- trigger_run_heartbeat on runs
claimed before schema version 4 (no lease_ms: the lease as claimed,
lease_until - claimed_at, is renewed; when that is not positive, the
default lease), and on a running run whose lease_until was cleared
outside the extension (refused as a changed value, never renewed)."""
import json
import shutil
import sqlite3
import tempfile

from util import from_fixture, one

RUN = "t@1767225720000#1"  # claimed 1767225720000, lease until 1767225780000


def migrated(ext, tmp):
    db = from_fixture(ext, tmp, "schema_v3.sql")
    assert one(db, "SELECT trigger_install()") == 5
    return db


def beat(db, run_id, now):
    return json.loads(one(db, "SELECT trigger_run_heartbeat(?, NULL, ?)", run_id, now))


def test_lease_as_claimed(ext):
    tmp = tempfile.mkdtemp()
    try:
        db = migrated(ext, tmp)
        assert one(db, "SELECT lease_ms FROM triggers_rundata WHERE run_id = ?", RUN) is None
        now = 1767225750000
        beat(db, RUN, now)
        assert one(db, "SELECT lease_until FROM trigger_runs WHERE run_id = ?", RUN) == now + 60000
        # a claim after its lease (changed outside): the default lease
        db.execute("UPDATE triggers_rundata SET claimed_at = lease_until + 1 WHERE run_id = ?",
                   (RUN,))
        until = one(db, "SELECT lease_until FROM trigger_runs WHERE run_id = ?", RUN)
        beat(db, RUN, now + 1)
        got = one(db, "SELECT lease_until FROM trigger_runs WHERE run_id = ?", RUN)
        assert got > now + 1 and got != until, (got, until)
        db.execute("UPDATE triggers_rundata SET lease_until = NULL WHERE run_id = ?", (RUN,))
        try:
            beat(db, RUN, now + 2)
            raise AssertionError("renewed")
        except sqlite3.Error as e:
            assert str(e) == (f"trigger_run_heartbeat: run '{RUN}' holds a value changed "
                              "outside the extension: triggers_rundata.lease_until: NULL "
                              "on a running run (fix it in the shadow table first)"), e
    finally:
        shutil.rmtree(tmp)
