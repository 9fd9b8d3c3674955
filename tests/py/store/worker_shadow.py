#!/usr/bin/python3
"""tests/py/store/worker_shadow.py -- runs shadow-table tamper cases for
test_shadow.py, in a process of its own so that a crash (a signal) is
seen by the parent and pinned on the case that caused it.

    worker_shadow.py EXT < cases.json

For each case (a JSON object, see test_shadow.py) it builds a fresh
database holding several triggers (and, for a run case, their runs),
changes one value of one shadow-table row the way an application could
with SQLITE_DBCONFIG_DEFENSIVE off, then ticks and calls every function
that reads the row back. Before a case it prints "START <name>" and after
it one JSON line of what it saw, flushing each, so a crash in the middle
leaves the name of the case on stdout.
"""
import json
import os
import sqlite3
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/py: util
from util import MIN, T0, add, connect, one

AGENT = "ag"
LEASE = MIN
# The trigger a case changes (by the column it needs) and the others.
TARGETS = {"interval": "a", "cron": "c", "once": "d"}
OTHERS = ("b", "e")


def value(spec):
    """A case's value as Python gives it to SQLite."""
    kind, v = spec
    if kind == "null":
        return None
    if kind == "blob":
        return bytes.fromhex(v)
    if kind == "repeat":      # ["repeat", [char, n]]: a huge text
        return v[0] * v[1]
    return v                  # int, real, text


def build(ext, with_runs):
    db = connect(ext)
    add(db, "a", agent_id=AGENT, max_attempts=3, backoff_ms=1000,
        metadata='{"k":1}')
    add(db, "b", agent_id=AGENT)
    add(db, "c", agent_id=AGENT, trigger_type="cron", cron_expression="* * * * *",
        timezone="Europe/Berlin", max_attempts=3)
    add(db, "d", agent_id=AGENT, trigger_type="once", scheduled_at=T0 + MIN,
        max_attempts=3)
    add(db, "e", interval_ms=2 * MIN)    # no agent; first due at T0 + 2 min
    if with_runs:
        claimed = json.loads(one(db, "SELECT trigger_run_due(?, ?)", T0 + MIN,
                                 json.dumps({"lease_ms": LEASE})))
        assert sorted(r["trigger_id"] for r in claimed) == ["a", "b", "c", "d"], claimed
        for r in claimed:      # the others' runs end; a's is the one changed
            if r["trigger_id"] != "a":
                one(db, "SELECT trigger_run_finish(?, 'success', NULL, ?)",
                    r["run_id"], T0 + MIN + 1)
    return db


def rowid_of(db, trigger_id):
    return one(db, "SELECT id FROM triggers_data WHERE trigger_id = ?", trigger_id)


def target_state(db, rid):
    row = db.execute(
        "SELECT d.status, d.enabled, s.next_due_at, s.fire_at, s.last_error"
        " FROM triggers_data AS d JOIN triggers_state AS s ON s.id = d.id"
        " WHERE d.id = ?", (rid,)).fetchone()
    if row is None:
        return None
    return dict(zip(("status", "enabled", "next_due_at", "fire_at", "last_error"),
                    [x if not isinstance(x, bytes) else x.hex() for x in row]))


def attempt(out, name, fn):
    """Record fn's outcome under name: its result, or the error's text."""
    try:
        out[name] = {"ok": fn()}
    except sqlite3.Error as e:
        out[name] = {"error": f"{type(e).__name__}: {e}"}


def tick(db, now, **opts):
    text = one(db, "SELECT trigger_run_due(?, ?)", now, json.dumps(opts))
    json.loads(text)   # always a JSON array
    return json.loads(text)


def reads(db, tid, rid, now, out, prefix):
    """Every read of the tampered row: none may crash; errors are noted."""
    attempt(out, prefix + "wakeup", lambda: one(db, "SELECT trigger_next_wakeup(?)", now))
    attempt(out, prefix + "health",
            lambda: json.loads(one(db, "SELECT trigger_health(?)", now)))
    attempt(out, prefix + "summary",
            lambda: one(db, "SELECT trigger_state_summary(?, ?)", AGENT, now))
    attempt(out, prefix + "payload",
            lambda: json.loads(one(db, "SELECT trigger_state_payload(?, ?)", AGENT, now)))
    db.execute("SAVEPOINT op")   # a duplicate of 'a' (dedupe, quotas), undone
    attempt(out, prefix + "create", lambda: json.loads(one(
        db, "SELECT trigger_create(?, ?)",
        json.dumps({"instructions": "do a", "trigger_type": "interval",
                    "interval_ms": MIN}),
        json.dumps({"agent_id": AGENT, "role": "owner", "autonomy_available": True,
                    "now": now}))))
    db.execute("ROLLBACK TO op")
    db.execute("RELEASE op")
    attempt(out, prefix + "select_triggers",
            lambda: len(db.execute("SELECT * FROM triggers").fetchall()))
    attempt(out, prefix + "select_runs",
            lambda: len(db.execute("SELECT * FROM trigger_runs").fetchall()))
    attempt(out, prefix + "describe_rows", lambda: [
        repr(r) for r in db.execute(
            "SELECT trigger_id, trigger_iso(next_due_at), trigger_iso(last_run_at)"
            " FROM triggers WHERE typeof(next_due_at) IN ('integer', 'null')"
            " AND typeof(last_run_at) IN ('integer', 'null')"
            " AND coalesce(next_due_at, 0) BETWEEN -62135596800000 AND 253402300799999"
            " AND coalesce(last_run_at, 0) BETWEEN -62135596800000 AND 253402300799999")])
    # The schedule of a trigger named by its id (sql/spec_arg.c): a result or
    # an error, never a crash.
    attempt(out, prefix + "describe", lambda: one(db, "SELECT trigger_describe(?)", tid))
    attempt(out, prefix + "preview", lambda: len(db.execute(
        "SELECT * FROM trigger_preview(?, ?) LIMIT 3", (tid, now)).fetchall()))
    # Each lifecycle call on its own, undone afterwards.
    for op in ("trigger_fire", "trigger_pause", "trigger_resume", "trigger_cancel"):
        db.execute("SAVEPOINT op")
        attempt(out, prefix + op,
                lambda op=op: json.loads(one(db, f"SELECT {op}(?, ?)", tid, now)))
        db.execute("ROLLBACK TO op")
        db.execute("RELEASE op")
    db.execute("SAVEPOINT op")
    attempt(out, prefix + "vtab_update", lambda: db.execute(
        "UPDATE triggers SET display_name = 'renamed' WHERE rowid = ?", (rid,)).rowcount)
    db.execute("ROLLBACK TO op")
    db.execute("RELEASE op")


def run_case(ext, case):
    out = {"name": case["name"]}
    is_run = case["table"] == "triggers_rundata"
    db = build(ext, is_run)
    tid = TARGETS[case.get("target", "interval")]
    rid = rowid_of(db, tid)
    v = value(case["value"])
    table, col = case["table"], case["column"]
    try:
        if table == "triggers_config":
            db.execute("INSERT OR REPLACE INTO triggers_config(key, value) VALUES(?, ?)",
                       (col, v))
        elif is_run:
            run_id = f"{tid}@{T0 + MIN}#1"
            if case.get("via") == "retry":     # a deferred run, re-offered
                one(db, "SELECT trigger_run_finish(?, 'deferred', NULL, ?)", run_id,
                    T0 + MIN + 1)
            db.execute(f"UPDATE triggers_rundata SET {col} = ? WHERE run_id = ?",
                       (v, run_id))
        else:
            db.execute(f"UPDATE {table} SET {col} = ? WHERE id = ?", (v, rid))
        out["tamper"] = "ok"
    except sqlite3.Error as e:
        out["tamper"] = f"{type(e).__name__}: {e}"
        return out
    # The first tick after the change (a's lease has passed by then): the
    # others must still be claimed.
    if is_run:   # a heartbeat of the changed run (undone): never a crash
        db.execute("SAVEPOINT op")
        attempt(out, "heartbeat", lambda: one(
            db, "SELECT trigger_run_heartbeat(?, NULL, ?)", run_id, T0 + MIN + 2))
        db.execute("ROLLBACK TO op")
        db.execute("RELEASE op")
    if is_run and case.get("via") == "finish":
        attempt(out, "finish", lambda: json.loads(one(
            db, "SELECT trigger_run_finish(?, 'success', NULL, ?)", run_id,
            T0 + MIN + 2)))
    now = T0 + MIN + LEASE
    attempt(out, "tick", lambda: tick(db, now, lease_ms=LEASE))
    if "ok" in out["tick"]:
        out["claimed"] = sorted({r["trigger_id"] for r in out["tick"]["ok"]})
        out["tick"] = {"ok": len(out["tick"]["ok"])}
    out["target"] = target_state(db, rid)
    reads(db, tid, rid, now, out, "")
    # Later: finish what runs, tick on; then no busy loop: right after a
    # tick at `now`, the wakeup never says "due now" for something the
    # tick would not take.
    for k in range(2):
        later = now + (k + 1) * 3 * MIN
        attempt(out, f"finish_all{k}", lambda: [
            one(db, "SELECT trigger_run_finish(?, 'success', NULL, ?)", r, later)
            for (r,) in db.execute(
                "SELECT run_id FROM trigger_runs WHERE status = 'running'"
                " AND typeof(run_id) = 'text'").fetchall()])
        attempt(out, f"tick{k}", lambda: len(tick(db, later, lease_ms=LEASE)))
        attempt(out, f"wakeup{k}", lambda: one(db, "SELECT trigger_next_wakeup(?)", later))
    out["target_end"] = target_state(db, rid)
    reads(db, tid, rid, now + 7 * MIN, out, "end_")
    attempt(out, "integrity", lambda: one(db, "PRAGMA integrity_check"))
    return out


def main():
    ext = sys.argv[1]
    cases = json.load(sys.stdin)
    for case in cases:
        print("START " + case["name"], flush=True)
        try:
            out = run_case(ext, case)
        except Exception as e:  # reported, never swallowed
            out = {"name": case["name"], "exception": f"{type(e).__name__}: {e}"}
        print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
