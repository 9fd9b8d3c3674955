"""tests/py/store/test_run_key.py -- a run is found by its run_id through
the run's key (ext/store/run_key.c): triggers_rundata has no index on
run_id, so trigger_run_finish, trigger_run_heartbeat and trigger_runs
WHERE run_id = ? parse it and seek the UNIQUE (trigger_id, incarnation,
scheduled_for, attempt) index; a run_id that does not parse, or is not
the stored spelling, names no run."""
import sqlite3

from util import MIN, T0, add, connect, error, finish, one, tick


def _no_run_id_index(db):
    idx = [r[0] for r in db.execute(
        "SELECT name FROM sqlite_schema WHERE type = 'index'"
        " AND tbl_name = 'triggers_rundata'")]
    cols = [c for i in idx for c in
            (r[2] for r in db.execute(f"PRAGMA index_info('{i}')"))]
    return idx, cols


def test_the_run_table_has_no_run_id_index(ext):
    db = connect(ext)
    idx, cols = _no_run_id_index(db)
    assert "run_id" not in cols, (idx, cols)


def test_run_ids_with_odd_trigger_ids_are_found(ext):
    db = connect(ext)
    ids = ["a@b", "x#1@2", "t~3", "@", "-", "plain"]
    for t in ids:
        add(db, t)
    got = {r["trigger_id"]: r["run_id"] for r in tick(db, T0 + MIN)}
    assert sorted(got) == sorted(ids), got
    for t, run_id in got.items():
        assert run_id.startswith(t + "@"), run_id
        row = db.execute("SELECT trigger_id, status FROM trigger_runs"
                         " WHERE run_id = ?", (run_id,)).fetchall()
        assert row == [(t, "running")], (run_id, row)
        one(db, "SELECT trigger_run_heartbeat(?, NULL, ?)", run_id, T0 + MIN + 1)
        finish(db, run_id, "success", None, T0 + MIN + 2)
        assert one(db, "SELECT status FROM trigger_runs WHERE run_id = ?",
                   run_id) == "success"


def test_a_later_incarnation_is_found_by_its_suffix(ext):
    db = connect(ext)
    at = T0 + MIN
    add(db, "s", trigger_type="once", scheduled_at=at)
    [old] = tick(db, at)
    finish(db, old["run_id"], "success", None, at + 1)
    db.execute("DELETE FROM triggers WHERE trigger_id = 's'")
    add(db, "s", trigger_type="once", scheduled_at=at, created_at=at + 2)
    [new] = tick(db, at + 3)
    assert new["run_id"] == f"s@{at}#1~2"
    assert one(db, "SELECT status FROM trigger_runs WHERE run_id = ?",
               old["run_id"]) == "success"
    assert one(db, "SELECT status FROM trigger_runs WHERE run_id = ?",
               new["run_id"]) == "running"
    # incarnation 1 is never spelled "~1": that spelling names no run
    assert one(db, "SELECT count(*) FROM trigger_runs WHERE run_id = ?",
               old["run_id"] + "~1") == 0


def test_a_run_id_that_does_not_parse_or_is_not_the_stored_one_is_unknown(ext):
    db = connect(ext)
    add(db, "t")
    [r] = tick(db, T0 + MIN)
    rid = r["run_id"]
    sched = rid.split("@")[1].split("#")[0]
    for bad in ["", "t", "t@", f"t@{sched}", f"t@{sched}#", f"t@{sched}#1x",
                f"t@{sched}#1~", f"t@0{sched}#1", f"t@{sched}#01", f"t@+{sched}#1",
                f"t@{sched}#1~1", f"t@{sched}#99999999999999999999", f"u@{sched}#1"]:
        assert one(db, "SELECT count(*) FROM trigger_runs WHERE run_id = ?", bad) == 0, bad
        msg = error(db, "SELECT trigger_run_finish(?, 'success', NULL, ?)", bad,
                    T0 + MIN + 1)
        assert "unknown run_id" in msg, (bad, msg)
    # not a text: no run either
    for v in (1, 1.5, b"t@1#1", None):
        assert one(db, "SELECT count(*) FROM trigger_runs WHERE run_id = ?", v) == 0, v
    assert one(db, "SELECT count(*) FROM trigger_runs WHERE run_id = ?", rid) == 1


def test_a_run_id_or_key_changed_alone_in_the_shadow_table_is_refused(ext):
    # the run_id is its key's: SQLite refuses an edit that parts them
    # (a CHECK), so a lookup through the key always finds the run it names
    db = connect(ext)
    add(db, "t")
    [r] = tick(db, T0 + MIN)
    for edit in ("run_id = 'other'", "attempt = 2", "scheduled_for = scheduled_for + 1",
                 "incarnation = 2", "trigger_id = 'u'"):
        msg = error(db, f"UPDATE triggers_rundata SET {edit} WHERE run_id = ?", r["run_id"],
                    kind=sqlite3.IntegrityError)
        assert "CHECK constraint failed" in msg, (edit, msg)
    assert one(db, "SELECT count(*) FROM trigger_runs WHERE run_id = ?", r["run_id"]) == 1


def test_run_id_lookups_seek_the_key_index(ext):
    db = connect(ext)
    add(db, "t")
    [r] = tick(db, T0 + MIN)
    plan = " ".join(x[3] for x in db.execute(
        "EXPLAIN QUERY PLAN SELECT * FROM trigger_runs WHERE run_id = ?", (r["run_id"],)))
    assert "VIRTUAL TABLE" in plan, plan
    # a range on run_id is not handed to the table (no index would serve it):
    # SQLite filters, the answer is right
    assert one(db, "SELECT count(*) FROM trigger_runs WHERE run_id >= ?", "t@") == 1
