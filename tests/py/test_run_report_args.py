"""tests/py/test_run_report_args.py -- trigger_run_finish,
trigger_run_finish_many and trigger_run_heartbeat (and the other tick
functions) in a database without the tables, with an unreadable `now`,
runs that are no text, lease_ms out of range, and every way an element
of finish_many's array is refused alone (its run_id answered, the others
finished)."""
import json

from util import add, connect, error, one, runs, T0, tick

NOT_INSTALLED = "sqlite-triggers is not installed in this database (run sql/install.sql)"
GARBAGE = "cannot read 'garbage' as an instant: expected 4-digit year at offset 0, found 'garb'"


def test_without_tables(ext):
    bare = connect(ext, install=False)
    for fn, args in (("trigger_run_finish", "'r', 'success'"), ("trigger_run_finish_many", "'[]'"),
                     ("trigger_run_heartbeat", "'r'"), ("trigger_run_due", ""),
                     ("trigger_next_wakeup", ""), ("trigger_fire", "'x'"),
                     ("trigger_pause", "'x'")):
        assert error(bare, f"SELECT {fn}({args})") == f"{fn}: {NOT_INSTALLED}", fn


def test_argument_refusals(ext):
    db = connect(ext)
    add(db, "t", start_at=T0, max_attempts=3)
    [r] = tick(db, T0, lease_ms=5000)
    rid = r["run_id"]
    span = "argument 2 (lease_ms) must be an integer 1..315537897599999"
    for sql, why in (
        ("SELECT trigger_run_finish('r', 'success', NULL, 'garbage')",
         "trigger_run_finish: argument 4 (now): " + GARBAGE),
        ("SELECT trigger_run_finish_many('[]', 'garbage')",
         "trigger_run_finish_many: argument 2 (now): " + GARBAGE),
        ("SELECT trigger_run_heartbeat('r', NULL, 'garbage')",
         "trigger_run_heartbeat: argument 3 (now): " + GARBAGE),
        ("SELECT trigger_run_finish_many(5)",
         "trigger_run_finish_many: argument 1 (runs) must be text"),
        ("SELECT trigger_run_finish_many('{\"a\":1}')",
         "trigger_run_finish_many: argument 1 (runs) must be a JSON array of "
         "{run_id, status, detail} objects"),
        ("SELECT trigger_run_finish_many('[1,')",
         "trigger_run_finish_many: argument 1 (runs): malformed JSON"),
        (f"SELECT trigger_run_heartbeat('{rid}', 315537897600000)", "trigger_run_heartbeat: " + span),
        (f"SELECT trigger_run_heartbeat('{rid}', 1.5)", "trigger_run_heartbeat: " + span),
        (f"SELECT trigger_run_heartbeat('{rid}', 0)", "trigger_run_heartbeat: " + span),
    ):
        assert error(db, sql) == why, sql
    assert runs(db, "t")[0]["status"] == "running"


def test_finish_many_elements_refused_alone(ext):
    db = connect(ext)
    add(db, "t", start_at=T0)
    [r] = tick(db, T0)
    rid = r["run_id"]
    items = [{"run_id": 5, "status": "x"}, {"run_id": "a", "status": 5},
             {"run_id": "a", "status": "success", "detail": 5}, {"status": "success"},
             {"run_id": "x"}, {"run_id": "x", "status": "success", "detail": None}, 5,
             {"run_id": rid, "status": "success", "detail": None, "other": [1]}]
    got = json.loads(one(db, "SELECT trigger_run_finish_many(?, ?)", json.dumps(items), T0 + 1))
    assert got == [
        {"run_id": None, "ok": False, "error": "run_id must be a string"},
        {"run_id": "a", "ok": False, "error": "status must be a string"},
        {"run_id": "a", "ok": False, "error": "detail must be a string or null"},
        {"run_id": None, "ok": False, "error": "run_id is missing"},
        {"run_id": "x", "ok": False, "error": "status is missing"},
        {"run_id": "x", "ok": False, "error": "unknown run_id 'x'"},
        {"run_id": None, "ok": False, "error": "not an object"},
        {"run_id": rid, "ok": True},
    ], got
    assert runs(db, "t")[0]["status"] == "success"
    # the usual shape, read without json1: missing members
    got = json.loads(one(db, "SELECT trigger_run_finish_many(?)",
                         '[{"status":"success"},{"run_id":"x"},'
                         '{"run_id":"y","status":"success","detail":null}]'))
    assert [g["error"] for g in got] == ["run_id is missing", "status is missing",
                                         "unknown run_id 'y'"], got
