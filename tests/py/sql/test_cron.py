"""tests/py/sql/test_cron.py -- cron through SQL: the conformance vectors
fed through trigger_next_due (the C runner in tests/unit does the same at
the module level), trigger_preview, and cron triggers in the tick
(advancing from the schedule, start_at / end_at, DST)."""
import glob
import json
import os
import sqlite3
from datetime import datetime

from util import ROOT, T0, connect, one, runs, tick, trig

VECTORS = os.environ.get("VECTORS_DIR") or os.path.join(ROOT, "tests", "vectors")


def ms(iso):
    return int(datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000)


def wall(db, at, tz):
    return one(db, "SELECT substr(trigger_iso(?, ?), 1, 19)", at, tz)


def test_vectors_through_trigger_next_due(ext):
    db = connect(ext)
    files = sorted(glob.glob(os.path.join(VECTORS, "cron-*.jsonl")))
    assert files, f"no cron-*.jsonl vectors in {VECTORS} (set VECTORS_DIR)"
    total = 0
    for path in files:
        passed = 0
        for line in open(path):
            case = json.loads(line)
            if case.get("cronmd") != "expect" or "direction" in case and case["direction"] == "prev":
                continue
            expr = case.get("expr_seconds_first") or case["expr"]
            if "valid" in case:
                try:
                    one(db, "SELECT trigger_next_due(?, 0, 'UTC')", expr)
                    ok = True
                except sqlite3.OperationalError as e:
                    ok = False
                    assert "trigger_next_due: cron" in str(e), str(e)
                assert ok == case["valid"], (os.path.basename(path), expr, case["source"])
                passed += 1
                continue
            if "next" not in case:
                continue
            at = ms(case["start"])
            for want in case["next"]:
                got = one(db, "SELECT trigger_next_due(?, ?, ?)", expr, at, case["tz"])
                assert got is not None, (expr, case["start"], case["source"])
                if want is not None:
                    if case.get("compare") == "local":
                        assert wall(db, got, case["tz"]) == want[:19], (expr, case["source"])
                    else:
                        assert got == ms(want), (expr, case["start"], want, got, case["source"])
                at = got
            if case.get("exhausted"):
                assert one(db, "SELECT trigger_next_due(?, ?, ?)", expr, at, case["tz"]) is None
            passed += 1
        total += passed
        print(f"  {os.path.basename(path)}: {passed} expect cases through SQL")
    assert total >= 795, total


def test_preview(ext):
    db = connect(ext)
    rows = db.execute("SELECT n, due_at, due_iso FROM trigger_preview("
                      "'0 7 * * MON-FRI', '2026-03-27T00:00:00Z', 'Europe/Berlin') LIMIT 3").fetchall()
    assert rows == [(1, 1774591200000, "2026-03-27T07:00:00+01:00"),
                    (2, 1774846800000, "2026-03-30T07:00:00+02:00"),
                    (3, 1774933200000, "2026-03-31T07:00:00+02:00")], rows
    # a JSON interval spec, and the end of a finite series
    rows = db.execute("SELECT n, due_at FROM trigger_preview("
                      "'{\"interval_ms\":60000,\"start_at\":0,\"end_at\":180000}', 0)").fetchall()
    assert rows == [(1, 60000), (2, 120000), (3, 180000)], rows
    assert db.execute("SELECT count(*) FROM trigger_preview('0 0 30 2 *', 0)").fetchone()[0] == 0
    try:
        db.execute("SELECT * FROM trigger_preview('0 0 32 * *', 0)").fetchall()
        assert False
    except sqlite3.OperationalError as e:
        assert "trigger_preview: cron field 3 (day-of-month): 32 is out of range 1-31" in str(e)
    try:
        db.execute("SELECT * FROM trigger_preview('* * * * *')").fetchall()
        assert False
    except sqlite3.OperationalError as e:
        assert "trigger_preview" in str(e) and "after" in str(e), str(e)


def test_cron_errors_name_the_field(ext):
    db = connect(ext)
    for expr, want in [
        ("0 0 32 * *", "cron field 3 (day-of-month): 32 is out of range 1-31"),
        ("0 0 * * FRI-MON", "cron field 5 (day-of-week)"),
        ("*/61 * * * *", "cron field 1 (minute)"),
        ("0 0 * * * * 2026", "cron: expected 5 or 6 fields, got 7"),
        ("@reboot", "@reboot"),
        ("H 0 * * *", "cron field 1 (minute)"),
    ]:
        try:
            one(db, "SELECT trigger_next_due(?, 0)", expr)
            assert False, expr
        except sqlite3.OperationalError as e:
            assert str(e).startswith("trigger_next_due: ") and want in str(e), (expr, str(e))
        try:
            db.execute("INSERT INTO triggers(instructions, trigger_type, cron_expression)"
                       " VALUES ('x', 'cron', ?)", (expr,))
            assert False, expr
        except sqlite3.IntegrityError as e:
            assert str(e).startswith("triggers.cron_expression: ") and want in str(e), str(e)


def test_cron_trigger_in_the_tick(ext):
    db = connect(ext)
    # 02:30 New York every day; 2026-03-08 has no 02:30 (gap): runs at 03:00 EDT
    db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type, cron_expression,"
               " timezone, created_at) VALUES ('ny', 'x', 'cron', '30 2 * * *', 'America/New_York', ?)",
               (ms("2026-03-06T12:00:00Z"),))
    seen = []
    now = ms("2026-03-06T12:00:00Z")
    for _ in range(4):
        due = trig(db, "ny")["next_due_at"]
        now = due + 5000  # the host is 5 s late every time
        for r in tick(db, now, ack=False):
            seen.append(one(db, "SELECT trigger_iso(?, 'America/New_York')", r["scheduled_for"]))
    assert seen == ["2026-03-07T02:30:00-05:00", "2026-03-08T03:00:00-04:00",
                    "2026-03-09T02:30:00-04:00", "2026-03-10T02:30:00-04:00"], seen


def test_cron_start_end_and_coalesce(ext):
    db = connect(ext)
    db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type, cron_expression,"
               " start_at, end_at, created_at) VALUES ('h', 'x', 'cron', '0 * * * *',"
               " '2026-01-01T05:00:00Z', '2026-01-01T09:00:00Z', ?)", (T0,))
    assert trig(db, "h")["next_due_at"] == ms("2026-01-01T05:00:00Z")
    got = tick(db, ms("2026-01-01T07:30:00Z"), ack=False)
    assert [r["scheduled_for"] for r in got] == [ms("2026-01-01T07:00:00Z")]
    skipped = [r for r in runs(db, "h") if r["status"] == "skipped"]
    assert "missed: 2 occurrences from 2026-01-01T05:00:00Z to 2026-01-01T06:00:00Z" in skipped[0]["error"]
    got = tick(db, ms("2026-01-01T12:00:00Z"), ack=False)
    assert [r["scheduled_for"] for r in got] == [ms("2026-01-01T09:00:00Z")]
    t = trig(db, "h")
    assert t["status"] == "completed" and t["next_due_at"] is None


def test_created_on_a_matching_instant_first_runs_after_it(ext):
    """A cron trigger created exactly on a matching instant first runs at
    the next match, strictly after creation, whichever way it is made
    (INSERT, trigger_create, an UPDATE rescheduling it at that instant),
    as trigger_next_due(expr, created_at) and trigger_preview say."""
    db = connect(ext)
    nine = "2026-01-01T09:00:00Z"
    nxt = one(db, "SELECT trigger_next_due('0 9 * * *', ?)", nine)
    assert nxt == one(db, "SELECT due_at FROM trigger_preview('0 9 * * *', ?) WHERE n = 1", nine)
    db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type, cron_expression,"
               " created_at) VALUES ('ins', 'a', 'cron', '0 9 * * *', ?)", (nine,))
    assert trig(db, "ins")["next_due_at"] == nxt
    r = json.loads(one(db, "SELECT trigger_create(?, ?)",
                       json.dumps({"instructions": "b", "trigger_type": "cron",
                                   "cron_expression": "0 9 * * *"}),
                       json.dumps({"role": "owner", "now": nine})))
    assert trig(db, r["triggerId"])["next_due_at"] == nxt, r
    # with the zone: 09:00 in Tokyo is 00:00Z
    tokyo = "2026-01-01T00:00:00Z"
    db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type, cron_expression,"
               " timezone, created_at) VALUES ('tk', 'c', 'cron', '0 9 * * *', 'Asia/Tokyo', ?)",
               (tokyo,))
    assert trig(db, "tk")["next_due_at"] == one(
        db, "SELECT trigger_next_due('0 9 * * *', ?, 'Asia/Tokyo')", tokyo)
    assert tick(db, tokyo) == []
