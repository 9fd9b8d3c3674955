"""tests/py/tick/test_events.py -- trigger_events (docs/tables.md#the-trigger_events-table): one event per
lifecycle change and per trigger_create* call, in the change's
transaction; a rejected forward trigger keeps its phrase, confidence and
reason; the busy tick writes none per run; the table is read-only, newest
first, indexed by time and trigger_id, pruned by trigger_prune; a
version-4 database migrates; trigger_health's recent_creations and
last_create_error, and its agents / scope narrowing."""
import json
import re
import sqlite3

from util import MIN, T0, add, connect, events, finish, health, one, tick

OWNER = {"agent_id": "agent-1", "role": "owner", "now": T0}
HOURLY = {"instructions": "Check the build", "trigger_type": "interval",
          "interval_ms": 3600000}


def create(db, req, ctx=OWNER, xml=False):
    fn = "trigger_create_xml" if xml else "trigger_create"
    body = req if isinstance(req, str) or req is None else json.dumps(req)
    return json.loads(one(db, f"SELECT {fn}(?, ?)", body, json.dumps(ctx)))


def kinds(db):
    return [e["kind"] for e in events(db, "ORDER BY rowid")]  # as written


# ---- the create action ---------------------------------------------------

def test_every_create_call_leaves_one_event(ext):
    db = connect(ext)
    db.execute("SELECT trigger_config('max_active_per_scope', 2)")
    cases = [
        (HOURLY, OWNER, "created", None),
        (HOURLY, OWNER, "duplicate", None),
        ({"instructions": "x"}, OWNER, "rejected", "INVALID_REQUEST"),
        ({**HOURLY, "interval_ms": 1000}, OWNER, "rejected", "INVALID_SCHEDULE"),
        ({**HOURLY, "interval_ms": 120000}, OWNER, "rejected", "CONFIRMATION_REQUIRED"),
        (HOURLY, {**OWNER, "role": "user"}, "rejected", "PERMISSION_DENIED"),
        (HOURLY, {**OWNER, "autonomy_available": False}, "rejected", "AUTONOMY_UNAVAILABLE"),
        ({**HOURLY, "instructions": "second"}, OWNER, "created", None),
        ({**HOURLY, "instructions": "third"}, OWNER, "rejected", "TRIGGER_QUOTA_EXCEEDED"),
        ("[1]", OWNER, "rejected", "INVALID_REQUEST"),
    ]
    for i, (req, ctx, kind, code) in enumerate(cases):
        res = create(db, req, ctx)
        assert res.get("error") == code, (i, res)
        evs = events(db)
        assert len(evs) == i + 1, (i, evs)
        e = evs[0]  # newest first
        assert (e["kind"], e["code"], e["agent_id"], e["at"]) == (kind, code, "agent-1", T0), (i, e)
        if kind == "created":
            assert e["trigger_id"] == res["triggerId"]
            # the dedupe key: a confirmation awaited with it is answered
            assert json.loads(e["detail"]) == {"dedupe_key": res["dedupeKey"]}
        if kind == "duplicate":
            assert e["trigger_id"] == res["existingTriggerId"]
        if kind == "rejected":
            assert json.loads(e["detail"])["reason"] == res["reason"], (e, res)
    # refusals before the request is read: not text, bad bytes, bad XML
    n = len(events(db))
    assert create(db, None, OWNER)["error"] == "INVALID_REQUEST"
    assert json.loads(one(db, "SELECT trigger_create(?, ?)", b"\xff",
                          json.dumps(OWNER)))["error"] == "INVALID_REQUEST"
    assert create(db, "<response><instructions>x", OWNER, xml=True)["error"] == "INVALID_REQUEST"
    assert create(db, "<!DOCTYPE x><response/>", {**OWNER, "scope": "s"}, xml=True)["success"] is False
    evs = events(db)
    assert len(evs) == n + 4, evs
    assert all(e["kind"] == "rejected" and e["code"] for e in evs[:4]), evs[:4]
    assert evs[0]["scope"] == "s" and evs[0]["agent_id"] == "agent-1", evs[0]
    # a context that is not valid text is not read: the event has no agent
    one(db, "SELECT trigger_create(?, ?)", json.dumps(HOURLY), b'{"agent_id":"\xff"}')
    assert events(db)[0]["agent_id"] == "" and len(events(db)) == n + 5


def test_rejected_forward_trigger_keeps_phrase_confidence_reason(ext):
    db = connect(ext)
    db.execute("SELECT trigger_config('min_confidence', '0.8')")
    res = create(db, {"instructions": "standup", "when": "tomorrow morning"})
    assert res["error"] == "INVALID_SCHEDULE", res
    [e] = events(db)
    d = json.loads(e["detail"])
    assert (e["kind"], e["code"]) == ("rejected", "INVALID_SCHEDULE")
    assert d == {"reason": res["reason"], "phrase": "tomorrow morning", "confidence": 0.7}, d
    # not understood at all: confidence 0, the parser's reason
    res = create(db, {"instructions": "x", "when": "sometime soon-ish"})
    d = json.loads(events(db)[0]["detail"])
    assert d["confidence"] == 0 and d["phrase"] == "sometime soon-ish" and "vague" in d["reason"], d
    # when_text: the message is kept as the phrase when none is found
    create(db, {"when_text": "call Anna about the thing"})
    d = json.loads(events(db)[0]["detail"])
    assert d["phrase"] == "call Anna about the thing" and d["confidence"] == 0, d


def test_dry_run_writes_no_event(ext):
    db = connect(ext)
    dry = {**OWNER, "dry_run": True}
    assert create(db, HOURLY, dry)["dryRun"] is True
    assert create(db, {"instructions": "x"}, dry)["dryRun"] is True
    assert create(db, "<response>", dry, xml=True)["dryRun"] is True
    assert events(db) == [] and one(db, "SELECT count(*) FROM triggers") == 0


def test_create_in_a_rolled_back_transaction_leaves_nothing(ext):
    db = connect(ext)
    db.execute("BEGIN")
    assert create(db, {"instructions": "x"})["error"] == "INVALID_REQUEST"
    assert create(db, HOURLY)["created"] is True
    assert len(events(db)) == 2
    db.execute("ROLLBACK")
    assert events(db) == [] and one(db, "SELECT count(*) FROM triggers") == 0
    # committed: the refusal stays (the function does not fail)
    db.execute("BEGIN")
    create(db, {"instructions": "x"})
    db.execute("COMMIT")
    assert kinds(db) == ["rejected"]


# ---- the lifecycle -------------------------------------------------------

def test_lifecycle_changes_are_events(ext):
    db = connect(ext)
    add(db, "a", agent_id="ag", scope="room")
    db.execute("UPDATE triggers SET instructions = 'do more' WHERE trigger_id = 'a'")
    db.execute("UPDATE triggers SET enabled = 0 WHERE trigger_id = 'a'")
    db.execute("UPDATE triggers SET enabled = 1 WHERE trigger_id = 'a'")
    one(db, "SELECT trigger_pause('a', ?)", T0 + 1)
    one(db, "SELECT trigger_pause('a', ?)", T0 + 2)  # already paused: nothing
    one(db, "SELECT trigger_resume('a', ?)", T0 + 3)
    db.execute("INSERT OR REPLACE INTO triggers(trigger_id, instructions, trigger_type,"
               " interval_ms, agent_id, scope) VALUES ('a', 'replaced', 'interval', 60000,"
               " 'ag', 'room')")
    one(db, "SELECT trigger_cancel('a', ?)", T0 + 4)
    db.execute("DELETE FROM triggers WHERE trigger_id = 'a'")
    assert kinds(db) == ["created", "updated", "paused", "resumed", "paused", "resumed",
                         "updated", "cancelled", "deleted"], kinds(db)
    evs = events(db)
    assert {(e["agent_id"], e["scope"], e["trigger_id"]) for e in evs} == {("ag", "room", "a")}
    assert [e["at"] for e in evs if e["at"] in (T0 + 1, T0 + 3, T0 + 4)] == [T0 + 4, T0 + 3, T0 + 1]


def test_tick_changes_are_events(ext):
    db = connect(ext)
    add(db, "fails", pause_after_failures=2)
    add(db, "twice", max_runs=2)
    add(db, "late", trigger_type="once", scheduled_at=T0 + 30000, window_ms=1000)
    for k in (1, 2):
        rs = {r["trigger_id"]: r for r in tick(db, T0 + k * MIN)}
        finish(db, rs["fails"]["run_id"], "failed", "boom", T0 + k * MIN + 1)
        finish(db, rs["twice"]["run_id"], "success", None, T0 + k * MIN + 2)
    n = len(events(db))
    tick(db, T0 + 3 * MIN)
    assert len(events(db)) == n
    got = [(e["trigger_id"], e["kind"], e["at"]) for e in events(db, "WHERE kind <> 'created'")]
    assert sorted(got) == sorted([
        ("fails", "auto_paused", T0 + 2 * MIN + 1),
        ("twice", "completed", T0 + 2 * MIN + 2),
        ("late", "expired", T0 + MIN),
    ]), got
    [ap] = events(db, "WHERE kind = 'auto_paused'")
    assert json.loads(ap["detail"])["reason"].startswith("paused after 2 consecutive failures"), ap
    # a row quarantined by the tick (changed outside the extension)
    add(db, "bad")
    db.execute("UPDATE triggers_data SET interval_ms = -5 WHERE trigger_id = 'bad'")
    tick(db, T0 + 4 * MIN)
    [q] = events(db, "WHERE trigger_id = 'bad' AND kind <> 'created'")
    assert q["kind"] == "auto_paused" and "interval_ms" in json.loads(q["detail"])["reason"], q


def test_busy_tick_writes_no_event_per_run(ext):
    db = connect(ext)
    db.execute("BEGIN")
    for i in range(200):
        add(db, f"t{i:03}")
    db.execute("COMMIT")
    n = len(events(db))
    for k in range(1, 4):
        rs = tick(db, T0 + k * MIN)
        assert len(rs) == 200
        for r in rs[:50]:
            finish(db, r["run_id"], "success", None, T0 + k * MIN + 1)
    assert len(events(db)) == n == 200


# ---- the table -----------------------------------------------------------

def test_events_table_reads_newest_first_through_indexes(ext):
    db = connect(ext)
    add(db, "b", created_at=T0 + 5)
    add(db, "a", created_at=T0 + 9)
    add(db, "c", created_at=T0 + 1)
    one(db, "SELECT trigger_pause('c', ?)", T0 + 9)
    assert [(e["trigger_id"], e["at"]) for e in events(db)] == [
        ("c", T0 + 9), ("a", T0 + 9), ("b", T0 + 5), ("c", T0 + 1)]
    assert [e["kind"] for e in events(db, "WHERE trigger_id = 'c'")] == ["paused", "created"]
    assert [e["trigger_id"] for e in events(db, "WHERE at >= ? AND at < ?", T0 + 5, T0 + 9)] == ["b"]
    for where, index in (("trigger_id = 'c'", "triggers_events_trigger"),
                         ("at >= 5", "triggers_events_at")):
        plan = " ".join(r[3] for r in db.execute(
            f"EXPLAIN QUERY PLAN SELECT * FROM trigger_events WHERE {where}"))
        assert re.search(r"INDEX 0:(trigger_id=|at>=)", plan), plan
        got = []
        db.set_trace_callback(got.append)
        db.execute(f"SELECT * FROM trigger_events WHERE {where}").fetchall()
        db.set_trace_callback(None)
        inner = [s[3:] for s in got if s.startswith("-- ") and "triggers_events" in s]
        assert inner, got
        plan = " ".join(r[3] for r in db.execute("EXPLAIN QUERY PLAN " + inner[0], ("c",)))
        assert index in plan and "TEMP B-TREE" not in plan, plan
    for sql in ("INSERT INTO trigger_events(at, kind) VALUES (1, 'x')",
                "UPDATE trigger_events SET kind = 'x'", "DELETE FROM trigger_events"):
        try:
            db.execute(sql)
            raise AssertionError(sql)
        except sqlite3.DatabaseError as e:
            assert "trigger_events: read-only" in str(e), e
    assert len(events(db)) == 4


def test_prune_deletes_old_events_in_batches(ext):
    db = connect(ext)
    assert one(db, "SELECT trigger_config('event_retention_ms')") == 7 * 86400000
    db.execute("BEGIN")
    for i in range(30):
        add(db, f"t{i:02}", created_at=T0 + i)
    db.execute("COMMIT")
    assert one(db, "SELECT trigger_prune(?, 10, 'trigger_events')", T0 + 25) == 10
    assert one(db, "SELECT trigger_prune(?, NULL, 'trigger_events')", T0 + 25) == 15
    assert one(db, "SELECT trigger_prune(?, NULL, 'trigger_events')", T0 + 25) == 0
    assert [e["at"] for e in events(db)] == [T0 + i for i in range(29, 24, -1)]
    assert one(db, "SELECT trigger_prune(?, NULL, 'trigger_runs')", T0 + 99) == 0
    assert len(events(db)) == 5  # runs only: events stay
    try:
        one(db, "SELECT trigger_prune(1, NULL, 'runs')")
        raise AssertionError("accepted")
    except sqlite3.OperationalError as e:
        assert "argument 3 (table)" in str(e), e


# ---- trigger_health ------------------------------------------------------

def test_health_recent_creations_and_last_create_error(ext):
    db = connect(ext)
    h = health(db, T0)
    assert (h["recent_creations"], h["last_create_error"]) == (0, None), h
    create(db, HOURLY)
    create(db, HOURLY)  # duplicate: not a creation
    create(db, {**HOURLY, "instructions": "later"}, {**OWNER, "now": T0 + 30 * MIN})
    res = create(db, {"instructions": "x"}, {**OWNER, "now": T0 + 40 * MIN})
    h = health(db, T0 + 50 * MIN)
    assert h["recent_creations"] == 2, h
    assert h["last_create_error"] == {"code": "INVALID_REQUEST", "reason": res["reason"],
                                      "at": T0 + 40 * MIN}, h
    # the window is creation_window_ms back from now; errors as of now
    assert health(db, T0 + 70 * MIN)["recent_creations"] == 1
    assert health(db, T0 + 39 * MIN)["last_create_error"] is None
    db.execute("SELECT trigger_config('creation_window_ms', 100)")
    assert health(db, T0 + 50 * MIN)["recent_creations"] == 0
    # a later refusal of another code is the latest
    create(db, HOURLY, {**OWNER, "role": "user", "now": T0 + 45 * MIN})
    assert health(db, T0 + 50 * MIN)["last_create_error"]["code"] == "PERMISSION_DENIED"


def test_health_options_narrow_every_count(ext):
    db = connect(ext)
    # the same picture for agent x (scope s1 and s2) and agent y (scope s1)
    for agent, scope in (("x", "s1"), ("x", "s2"), ("y", "s1")):
        p = f"{agent}{scope}-"
        add(db, p + "run", agent_id=agent, scope=scope)
        add(db, p + "fail", agent_id=agent, scope=scope)
        add(db, p + "paused", agent_id=agent, scope=scope, enabled=0)
        ctx = {"agent_id": agent, "scope": scope, "role": "owner", "now": T0}
        create(db, {**HOURLY, "instructions": "c " + p}, ctx)
        create(db, {"instructions": "bad " + p}, ctx)
    rs = tick(db, T0 + MIN, lease_ms=1000)
    for r in rs:
        if r["trigger_id"].endswith("-fail"):
            finish(db, r["run_id"], "failed", "boom", T0 + MIN + 1)
    now = T0 + MIN + 500
    whole = health(db, now)
    assert (whole["active"], whole["paused"], whole["running"], whole["failures_24h"],
            whole["recent_creations"]) == (9, 3, 3, 3, 12), whole
    # created events: the INSERTs' and the create action's
    one_part = {"active": 3, "paused": 1, "running": 1, "failures_24h": 1,
                "recent_creations": 4}
    for opts, parts in (({"agents": ["x"]}, 2), ({"agents": ["y"]}, 1),
                        ({"scope": "s1"}, 2), ({"agents": ["x"], "scope": "s2"}, 1),
                        ({"agents": ["x", "y"], "scope": "s1"}, 2),
                        ({"agents": []}, 0), ({"scope": "none"}, 0)):
        h = health(db, now, **opts)
        for k, v in one_part.items():
            assert h[k] == v * parts, (opts, k, h)
        assert (h["last_create_error"] is None) == (parts == 0), (opts, h)
    h = health(db, now, agents=["y"])
    assert h["last_create_error"]["reason"].startswith("NOT NULL"), h
    # leases passed: running runs are expired leases and their triggers
    # stalled and overdue, narrowed the same way
    later = T0 + MIN + 2000
    assert health(db, later)["expired_leases"] == 3
    for opts, parts in (({"agents": ["x"]}, 2), ({"scope": "s2"}, 1), ({"agents": ["z"]}, 0)):
        h = health(db, later, **opts)
        assert (h["expired_leases"], h["stalled"]) == (parts, parts), (opts, h)
        assert h["overdue"] == parts, (opts, h)
        assert (h["next_due_at"] is None) == (parts == 0), (opts, h)
    for bad in ('[1]', '{"agents": "x"}', '{"scope": 1}', '{"nope": 1}'):
        try:
            one(db, "SELECT trigger_health(?, ?)", now, bad)
            raise AssertionError(bad)
        except sqlite3.OperationalError as e:
            assert "trigger_health: argument 2 (options)" in str(e), e
