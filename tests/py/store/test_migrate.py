"""tests/py/store/test_migrate.py -- trigger_install() migrating the schema
of an older version (ext/store/migrate.c), from the `.dump` of a database of
each version in tests/py/fixtures/: version 1 and 2 (one table for a
trigger's definition and state), 3 (runs without lease_ms) and 4 (no
events table); the rows kept, the indexes and the version number set, the
runs of the older version read and finished as before."""
import json
import os
import shutil
import sqlite3
import tempfile

from util import (FIXTURES, MIN, T0, add, connect, events, finish, from_fixture, one, runs,
                  tick, trig)


# Version 1 differs from version 2 only in its indexes: _fire, _due on
# next_due_at alone, _agent on fire_at, _pending; finished-run indexes not
# partial.
V2_TO_V1 = """
    DROP INDEX triggers_data_due; DROP INDEX triggers_data_agent;
    DROP INDEX triggers_rundata_finished; DROP INDEX triggers_rundata_outcome;
    CREATE INDEX triggers_data_fire ON triggers_data(fire_at, trigger_id) WHERE fire_at IS NOT NULL;
    CREATE INDEX triggers_data_due ON triggers_data(next_due_at) WHERE next_due_at IS NOT NULL;
    CREATE INDEX triggers_data_agent ON triggers_data(agent_id, fire_at);
    CREATE INDEX triggers_data_pending ON triggers_data(agent_id, status, next_due_at, trigger_id);
    CREATE INDEX triggers_rundata_finished ON triggers_rundata(status, finished_at);
    CREATE INDEX triggers_rundata_outcome ON triggers_rundata(agent_id, status, finished_at);
    UPDATE triggers_config SET value = 1 WHERE key = 'schema_version';
"""


def test_install_migrates_older_schemas(ext):
    # fixtures/schema_v2.sql is the `.dump` of a version-2 database (one
    # table for a trigger's definition and state): trigger t, every minute
    # from 1700000000000, ticked once, its run still running. Versions 1
    # and 2 are brought to version 4 (through 3) by trigger_install(),
    # keeping every row; the schema then equals a fresh install's, and t
    # goes on. (Version 3 -> 4: test_install_migrates_version_3.)
    fresh = connect(ext)
    want = sorted(fresh.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema"))
    tmp = tempfile.mkdtemp()
    for version in (1, 2):
        db = from_fixture(ext, tmp, "schema_v2.sql", V2_TO_V1 if version == 1 else "")
        assert one(db, "SELECT trigger_install()") == 6
        got = sorted(db.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema"))
        assert got == want, version
        assert one(db, "SELECT value FROM triggers_config WHERE key = 'schema_version'") == 6
        t = trig(db, "t")
        assert (t["next_due_at"], t["status"], t["run_count"]) == (1700000120000, "scheduled", 0)
        assert one(db, "SELECT running FROM triggers_state") == 1
        assert finish(db, "t@1700000060000#1", "success", now=1700000070000)["run_count"] == 1
        assert [r["run_id"] for r in tick(db, 1700000120000)] == ["t@1700000120000#1"]
        db.close()
    shutil.rmtree(tmp)


def test_install_migrates_v3_runs(ext):
    # Version 3 -> 4 adds triggers_rundata.lease_ms (the claim's lease
    # length, trigger_run_heartbeat's default). A run claimed under version
    # 3 (fixtures/schema_v3.sql: t@T0+MIN#1... t's second run, claimed at
    # 1767225720000 with lease_until 1767225780000) has none: its heartbeat
    # renews by its lease as claimed (60 s).
    tmp = tempfile.mkdtemp()
    db = from_fixture(ext, tmp, "schema_v3.sql")
    assert one(db, "SELECT trigger_install()") == 6
    assert one(db, "SELECT count(*) FROM triggers_rundata WHERE lease_ms IS NOT NULL") == 0
    run_id = "t@1767225720000#1"
    run = json.loads(one(db, "SELECT trigger_run_heartbeat(?, NULL, ?)", run_id,
                         1767225730000))
    assert run["lease_until"] == 1767225730000 + 60000, run
    assert finish(db, run_id, "success", now=1767225731000)["run_count"] == 2
    db.close()
    shutil.rmtree(tmp)


def test_install_migrates_version_3(ext):
    # fixtures/schema_v3.sql: t's first run succeeded with a note (kept in
    # `error` by version 3, and copied into last_error), its second runs;
    # once1's attempt 1 failed, attempt 2 runs. trigger_install() brings it
    # to version 4 keeping every row: the note moves to `result`, every run
    # and trigger is incarnation 1 (run ids unchanged), and both go on.
    fresh = connect(ext)
    want = sorted(fresh.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema"))
    tmp = tempfile.mkdtemp()
    try:
        path = os.path.join(tmp, "v3.db")
        raw = sqlite3.connect(path, isolation_level=None)
        with open(os.path.join(FIXTURES, "schema_v3.sql")) as f:
            raw.executescript(f.read())
        # a deleted trigger's success with a note longer than a result may be
        raw.execute("INSERT INTO triggers_rundata(run_id, trigger_id, agent_id, scheduled_for,"
                    " attempt, status, finished_at, error) VALUES ('gone@1#1', 'gone', '', 1, 1,"
                    " 'success', 2, ?)", ("é" * 3000,))
        before = raw.execute("SELECT count(*) FROM triggers_rundata").fetchone()[0]
        raw.close()
        db = connect(ext, path, install=False)
        assert one(db, "SELECT trigger_install()") == 6
        got = sorted(db.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema"))
        assert got == want
        assert one(db, "SELECT value FROM triggers_config WHERE key = 'schema_version'") == 6
        assert one(db, "SELECT count(*) FROM trigger_runs") == before == 5
        assert one(db, "SELECT result FROM trigger_runs WHERE run_id = 'gone@1#1'") == "é" * 2048
        rs = {r["run_id"]: r for r in runs(db)}
        ok = rs[f"t@{T0 + MIN}#1"]
        assert (ok["status"], ok["error"], ok["result"]) == ("success", None, "summary: all green")
        bad = rs[f"once1@{T0 + 30000}#1"]
        assert (bad["status"], bad["error"], bad["result"]) == ("failed", "boom", None)
        assert trig(db, "t")["last_error"] is None           # was the success note
        assert trig(db, "once1")["last_error"] == "boom"
        for table in ("triggers_rundata", "triggers_data"):
            got = [x[0] for x in db.execute(f"SELECT DISTINCT incarnation FROM {table}")]
            assert got == [1], (table, got)
        # both go on: the running runs finish, the schedule continues
        assert finish(db, f"t@{T0 + 2 * MIN}#1", "success", now=T0 + 2 * MIN + 5)["run_count"] == 2
        t = finish(db, f"once1@{T0 + 30000}#2", "success", now=T0 + 2 * MIN + 6)
        assert (t["status"], t["run_count"]) == ("completed", 2), t
        assert [r["run_id"] for r in tick(db, T0 + 3 * MIN)] == [f"t@{T0 + 3 * MIN}#1"]
        # and a re-created id is a new incarnation over the migrated history
        db.execute("DELETE FROM triggers WHERE trigger_id = 'once1'")
        add(db, "once1", trigger_type="once", scheduled_at=T0 + 30000, created_at=T0)
        assert [r["run_id"] for r in tick(db, T0 + 3 * MIN + 1)] == [f"once1@{T0 + 30000}#1~2"]
        db.close()
    finally:
        shutil.rmtree(tmp)


def test_install_migrates_version_4(ext):
    fresh = connect(ext)
    want = sorted(fresh.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema"))
    tmp = tempfile.mkdtemp()
    try:
        db = from_fixture(ext, tmp, "schema_v4.sql")
        assert one(db, "SELECT trigger_install()") == 6
        assert one(db, "SELECT trigger_install()") == 6  # idempotent
        got = sorted(db.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema"))
        assert got == want
        assert events(db) == []
        [r] = tick(db, T0 + 6 * MIN)  # the running run's lease passed: reclaimed
        one(db, "SELECT trigger_pause('t', ?)", T0 + 6 * MIN)
        assert [(e["kind"], e["agent_id"]) for e in events(db)] == [("paused", "a1")]
        db.close()
    finally:
        shutil.rmtree(tmp)


# Values a version-5 table took and a version-6 (STRICT, CHECK) one refuses.
V5_CHANGED = """
    UPDATE triggers_data SET interval_ms = 'soon' WHERE trigger_id = 'r';
    UPDATE triggers_state SET next_due_at = 253402300800000 WHERE trigger_id = 'u';
    UPDATE triggers_rundata SET lease_until = NULL WHERE run_id = 't@1767225660000#1';
    UPDATE triggers_rundata SET retry_at = x'00' WHERE run_id = 'r@1767225660000#1';
"""


def test_install_migrates_version_5(ext):
    # fixtures/schema_v5.sql: t running, r failed with its retry queued,
    # four crons/once of link zone names. 5 -> 6 rebuilds the three tables
    # STRICT with their CHECKs: every row and id kept, the schema then a
    # fresh install's, the runs finished and re-offered as before.
    fresh = connect(ext)
    want = sorted(fresh.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema"))
    tmp = tempfile.mkdtemp()
    try:
        db = from_fixture(ext, tmp, "schema_v5.sql")
        ids = sorted(db.execute("SELECT id, trigger_id FROM triggers_data"))
        assert one(db, "SELECT trigger_install()") == 6
        assert sorted(db.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema")) == want
        assert sorted(db.execute("SELECT id, trigger_id FROM triggers_data")) == ids
        # action_sql, new in version 6: no trigger of version 5 is a SQL job
        assert one(db, "SELECT count(*) FROM triggers WHERE action_sql IS NULL") == len(ids)
        assert one(db, "SELECT count(*) FROM trigger_runs") == 2
        assert one(db, "PRAGMA integrity_check") == "ok"
        assert finish(db, "t@1767225660000#1", "success", now=T0 + MIN + 5)["run_count"] == 1
        got = sorted(r["run_id"] for r in tick(db, T0 + 2 * MIN))
        assert got == ["r@1767225660000#2", "t@1767225720000#1"], got
        # what version 6 added works on the migrated tables: an event
        # trigger signalled and claimed (docs/reactive.md)
        add(db, "ev", trigger_type="event", event_key="k", created_at=T0 + 2 * MIN)
        assert one(db, "SELECT trigger_signal('k', '{\"a\":1}', ?)", T0 + 3 * MIN) == 1
        [r] = [x for x in tick(db, T0 + 3 * MIN) if x["trigger_id"] == "ev"]
        assert r["payload"]["event"]["payload"] == {"a": 1}, r
        db.close()
    finally:
        shutil.rmtree(tmp)


def test_version_5_values_the_new_tables_refuse_pause_their_triggers(ext):
    # A value changed outside the extension under version 5 that the STRICT
    # tables refuse is not copied as it was: its trigger is paused, naming
    # the table, column and value; the other triggers go on.
    tmp = tempfile.mkdtemp()
    try:
        db = from_fixture(ext, tmp, "schema_v5.sql", V5_CHANGED)
        assert one(db, "SELECT trigger_install()") == 6
        why = {r["trigger_id"]: r for r in
               (trig(db, t) for t in ("t", "r", "u", "ny", "kol", "z"))}
        found = "is refused by schema version 6 (changed outside the extension; " \
                "found by trigger_install); trigger paused"
        for tid, start in (("r", "triggers_data.interval_ms: 'soon' "),
                           ("u", "triggers_state.next_due_at: 253402300800000 "),
                           ("t", "triggers_rundata.lease_until: NULL on the running run "
                                 "'t@1767225660000#1' ")):
            t = why[tid]
            assert t["last_error"] == start + found, t
            assert (t["status"], t["enabled"], t["next_due_at"]) == ("paused", 0, None), t
        for tid in ("ny", "kol", "z"):
            assert why[tid]["status"] == "scheduled" and why[tid]["last_error"] is None
        # the running run without a lease expires at the next tick; the
        # retry of a paused trigger is not run
        got = tick(db, T0 + 2 * MIN)
        assert all(r["trigger_id"] not in ("t", "r", "u") for r in got), got
        runs = dict(db.execute("SELECT run_id, status FROM trigger_runs"))
        assert runs["t@1767225660000#1"] == "failed", runs
        assert one(db, "SELECT running FROM triggers_state WHERE trigger_id = 't'") == 0
        assert one(db, "PRAGMA integrity_check") == "ok"
        db.close()
    finally:
        shutil.rmtree(tmp)


def test_version_5_run_id_not_its_key_pauses_its_trigger(ext):
    # Version 6 checks that a run's run_id is its key's (a lookup by run_id
    # seeks the key): a v5 run_id changed outside the extension pauses its
    # trigger, naming it, and the run is copied under its key's run_id.
    tmp = tempfile.mkdtemp()
    try:
        db = from_fixture(ext, tmp, "schema_v5.sql",
                          "UPDATE triggers_rundata SET run_id = 'renamed' WHERE id = 1;")
        assert one(db, "SELECT trigger_install()") == 6
        t = trig(db, "r")
        assert t["last_error"] == (
            "triggers_rundata.run_id: 'renamed' is not its run's key (changed outside"
            " the extension; found by trigger_install); trigger paused"), t
        assert (t["status"], t["enabled"], t["next_due_at"]) == ("paused", 0, None), t
        assert one(db, "SELECT status FROM trigger_runs WHERE run_id = ?",
                   "r@1767225660000#1") == "failed"
        assert one(db, "SELECT count(*) FROM trigger_runs WHERE run_id = 'renamed'") == 0
        assert trig(db, "t")["status"] == "scheduled"
        assert one(db, "PRAGMA integrity_check") == "ok"
        db.close()
    finally:
        shutil.rmtree(tmp)
