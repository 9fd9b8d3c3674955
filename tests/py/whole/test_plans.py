"""tests/py/whole/test_plans.py -- every statement the extension runs on the
caller's connection is answered by an index: a workload through all the
functions and virtual tables, each statement it ran (SQLite's trace of
nested statements, plus the connection's prepared statements) put through
EXPLAIN QUERY PLAN, and any SCAN of a real table is a failure unless it is
one of the few listed below with the reason it is bounded."""
import json
import re
import sqlite3

from util import MIN, T0, add, connect, finish, one, tick

# (a substring of the statement, why its scan is bounded)
BOUNDED_SCANS = [
    ("FROM main.sqlite_schema WHERE type = 'table'",
     "the schema's few rows (the installed check)"),
    ("SELECT count(*) FROM main.triggers_rundata AS r WHERE r.status = 'running'",
     "trigger_health counts the running runs: the lease index's entries"),
    ("SELECT count(*) FROM (",
     "trigger_health's overdue/stalled counts: a union of index probes, counted"),
    ("SELECT r.lease_until FROM main.triggers_rundata AS r INDEXED BY triggers_rundata_lease",
     "trigger_next_wakeup: the lease index in order, LIMIT 1"),
    ("INDEXED BY triggers_rundata_lease WHERE status = 'running' AND status = ?1",
     "trigger_runs WHERE status = 'running': the lease index holds exactly the answer"),
]


def _workload(db):
    for i in range(12):
        add(db, f"t{i}", agent_id="a1" if i % 2 else "a2")
    db.execute("INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type,"
               " cron_expression, timezone, created_at)"
               " VALUES ('c1', 'a1', 'cron job', 'cron', '0 7 * * 1-5', 'Europe/Berlin', ?)",
               (T0,))
    runs = tick(db, T0 + MIN)
    finish(db, runs[0]["run_id"], "success", None, T0 + MIN + 5)
    finish(db, runs[1]["run_id"], "failed", "boom", T0 + MIN + 5)
    finish(db, runs[2]["run_id"], "deferred", None, T0 + MIN + 5)
    finish(db, runs[3]["run_id"], "skipped", None, T0 + MIN + 5)
    one(db, "SELECT trigger_run_heartbeat(?, NULL, ?)", runs[4]["run_id"], T0 + MIN + 6)
    one(db, "SELECT trigger_run_finish_many(?, ?)",
        json.dumps([{"run_id": runs[5]["run_id"], "status": "success"}]), T0 + MIN + 7)
    tick(db, T0 + 2 * MIN, agents=["a1"], lease_ms=1000)
    tick(db, T0 + 3 * MIN, ack=False, limit=3)
    tick(db, T0 + 10 * MIN)  # leases passed: reclaimed; the deferred run re-offered
    tick(db, T0 + 11 * MIN)
    for fn in ("trigger_fire('t5', ?)", "trigger_pause('t6', ?)",
               "trigger_resume('t6', ?)", "trigger_cancel('t7', ?)",
               "trigger_next_wakeup(?)", "trigger_health(?)",
               "trigger_state_summary('a1', ?)", "trigger_state_payload('a1', ?)"):
        one(db, "SELECT " + fn, T0 + 12 * MIN)
    one(db, "SELECT trigger_health(?, ?)", T0 + 12 * MIN,
        json.dumps({"agents": ["a1"], "scope": ""}))
    one(db, "SELECT trigger_describe('c1')")
    ctx = json.dumps({"agent_id": "a1", "now": T0})
    one(db, "SELECT trigger_create(?, ?)", json.dumps(
        {"action": "create", "instructions": "water the plants",
         "schedule": {"type": "interval", "every": "1h"}}), ctx)
    one(db, "SELECT trigger_create(?, ?)", json.dumps({"action": "list"}), ctx)
    # a named id (held by a trigger or another agent's runs?), metadata (a
    # key twice? its user_id dropped), the per-user quota
    r = json.loads(one(db, "SELECT trigger_create(?, ?)", json.dumps(
        {"instructions": "named", "trigger_id": "named-1", "trigger_type": "interval",
         "interval_ms": 3600000, "metadata": {"user_id": "u2", "k": 1}}),
        json.dumps({"agent_id": "a1", "role": "owner", "user_id": "u1", "now": T0})))
    assert r["created"], r
    run_id = one(db, "SELECT run_id FROM trigger_runs WHERE status = 'success' LIMIT 1")
    for sql, arg in [
            ("SELECT * FROM trigger_runs WHERE run_id = ?", run_id),
            ("SELECT * FROM trigger_runs WHERE trigger_id = ?", "t1"),
            ("SELECT * FROM trigger_runs WHERE agent_id = ?", "a1"),
            ("SELECT * FROM trigger_runs WHERE scheduled_for > ?", T0),
            ("SELECT * FROM trigger_runs WHERE status = ?", "running"),
            ("SELECT * FROM trigger_runs WHERE status = ?", "failed"),
            ("SELECT * FROM trigger_runs WHERE status = ?", "deferred"),
            ("SELECT count(*) FROM trigger_runs WHERE status = 'failed'"
             " AND finished_at > ?", T0),  # trigger-host status's failures
            ("SELECT * FROM trigger_runs WHERE finished_at >= ?", T0),
            ("SELECT * FROM triggers WHERE agent_id = ?", "a1"),
            ("SELECT * FROM triggers WHERE status = ?", "paused"),
            ("SELECT * FROM triggers WHERE next_due_at <= ?", T0 + 20 * MIN),
            ("SELECT * FROM trigger_events WHERE trigger_id = ?", "t1")]:
        db.execute(sql, (arg,)).fetchall()
    db.execute("UPDATE triggers SET enabled = 0 WHERE trigger_id = 't8'")
    db.execute("DELETE FROM triggers WHERE trigger_id = 't9'")
    db.execute("DELETE FROM trigger_runs WHERE status = 'success'")
    db.execute("DELETE FROM trigger_runs WHERE finished_at < ?", (T0 + 2 * MIN,))
    one(db, "SELECT trigger_prune(?)", T0 + 100 * MIN)


def _plan(db, sql):
    try:
        rows = db.execute("EXPLAIN QUERY PLAN " + sql).fetchall()
    except sqlite3.ProgrammingError as e:  # parameters: unbound is NULL
        n = int(re.search(r"uses (\d+)", str(e)).group(1))
        rows = db.execute("EXPLAIN QUERY PLAN " + sql, [None] * n).fetchall()
    return [r[3] for r in rows]


def _scans(plan):
    return [p for p in plan if p.startswith("SCAN ") and "CONSTANT ROW" not in p
            and "VIRTUAL TABLE" not in p and "json_each" not in p]


def test_every_statement_is_an_index_probe(ext):
    db = connect(ext)
    seen = []
    db.set_trace_callback(seen.append)
    _workload(db)
    db.set_trace_callback(None)
    texts = [t[3:] if t.startswith("-- ") else t for t in seen]
    texts += [r[0] for r in db.execute("SELECT sql FROM sqlite_stmt")]
    ours = [t for t in dict.fromkeys(texts)
            if "main.triggers_" in t and not t.lstrip().upper().startswith(
                ("CREATE", "DROP", "PRAGMA", "ALTER", "BEGIN", "COMMIT", "SAVEPOINT",
                 "RELEASE", "ROLLBACK"))]
    assert len(ours) > 60, len(ours)  # the workload reached the statements
    for probe in ("INDEXED BY triggers_rundata_lease WHERE status = 'running' AND status = ?1",
                  "INDEXED BY triggers_rundata_finished WHERE finished_at IS NOT NULL"):
        assert any(probe in t for t in ours), probe
    bad = []
    for sql in ours:
        scans = _scans(_plan(db, sql))
        if scans and not any(s in sql for s, _ in BOUNDED_SCANS):
            bad.append((sql[:300], scans))
    assert not bad, "\n".join(f"{s}\n    {p}" for s, p in bad)


def test_the_check_sees_a_scan(ext):
    """The check above fails on the shape of the bug it was written for:
    an OR of NULL and a range over the lease index walks every entry."""
    db = connect(ext)
    plan = _plan(db, "SELECT 1 FROM main.triggers_rundata INDEXED BY triggers_rundata_lease"
                     " WHERE status = 'running' AND (lease_until IS NULL OR lease_until > ?1)")
    assert _scans(plan), plan


def test_runs_by_status_and_finished_at_match_the_shadow_table(ext):
    db = connect(ext)
    for i in range(8):
        add(db, f"t{i}")
    runs = tick(db, T0 + MIN, lease_ms=3600000)
    for k, status in enumerate(("success", "failed", "skipped")):
        finish(db, runs[k]["run_id"], status, "e" if status == "failed" else None,
               T0 + MIN + 5)
    tick(db, T0 + 3 * MIN, ack=False)
    finish(db, runs[4]["run_id"], "deferred", None, T0 + 3 * MIN + 5)  # waits for a retry
    for status in ("running", "success", "failed", "deferred", "skipped", "x"):
        got = [r[0] for r in db.execute(
            "SELECT run_id FROM trigger_runs WHERE status = ?", (status,))]
        want = [r[0] for r in db.execute(
            "SELECT run_id FROM triggers_rundata WHERE status = ? ORDER BY id", (status,))]
        assert got == want, (status, got, want)
        if status != "x":
            assert want, status  # the data set has each kind
    # finished_at, alone (each status probed) and with a status
    for sql, args, shadow in [
            ("finished_at > ?", (T0 + MIN + 5,), "finished_at > ?"),
            ("finished_at <= ?", (T0 + MIN + 5,), "finished_at <= ?"),
            ("status = ? AND finished_at >= ?", ("failed", T0),
             "status = ? AND finished_at >= ?")]:
        got = [r[0] for r in db.execute(
            f"SELECT run_id FROM trigger_runs WHERE {sql}", args)]
        want = [r[0] for r in db.execute(
            f"SELECT run_id FROM triggers_rundata WHERE {shadow} ORDER BY id", args)]
        assert got == want and want, (sql, got, want)


def test_runs_by_agent_match_the_shadow_table(ext):
    """triggers_rundata_agent holds only the runs not finished (schema.c):
    a lookup by agent reads the finished ones from the outcome index, so
    every run of the agent is found, each once, with any other term."""
    db = connect(ext)
    for i in range(8):
        add(db, f"t{i}", agent_id="a1" if i % 2 else "a2")
    runs = tick(db, T0 + MIN, lease_ms=3600000)
    for k, status in enumerate(("success", "failed", "skipped", "deferred")):
        finish(db, runs[k]["run_id"], status, "e" if status == "failed" else None,
               T0 + MIN + 5)
    tick(db, T0 + 3 * MIN, ack=False)
    for sql, args, shadow in [
            ("agent_id = ?", ("a1",), "agent_id = ?"),
            ("agent_id = ?", ("a2",), "agent_id = ?"),
            ("agent_id = ?", ("none",), "agent_id = ?"),
            ("agent_id = ? AND status = ?", ("a1", "running"), "agent_id = ? AND status = ?"),
            ("agent_id = ? AND scheduled_for > ?", ("a2", T0 + MIN),
             "agent_id = ? AND scheduled_for > ?"),
            ("agent_id >= ?", ("a",), "agent_id >= ?")]:
        got = [r[0] for r in db.execute(
            f"SELECT run_id FROM trigger_runs WHERE {sql}", args)]
        want = [r[0] for r in db.execute(
            f"SELECT run_id FROM triggers_rundata WHERE {shadow} ORDER BY id", args)]
        assert got == want, (sql, got, want)
        if args[0] != "none":
            assert want, sql
    # the index holds the runs in flight only
    n = one(db, "SELECT count(*) FROM triggers_rundata INDEXED BY triggers_rundata_agent"
                " WHERE finished_at IS NULL AND agent_id >= ''")
    assert n == one(db, "SELECT count(*) FROM triggers_rundata WHERE finished_at IS NULL") < \
        one(db, "SELECT count(*) FROM triggers_rundata"), n
