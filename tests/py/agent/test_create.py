"""tests/py/agent/test_create.py -- the create action (ext/agent/fn_create.c,
docs/create-action.md): trigger_create's policy and result JSON (created,
duplicate, the unique rule a paused trigger still counts for, a direct
INSERT's duplicate as a UNIQUE error), refusals and their codes, quotas,
creator_roles written with spaces, the phrase's implied parts in
metadata.when, the refusals of shape (a context or "when" of the wrong
type, a "when" with a bad zone, non-text requests), a database without
the extension installed. Each refusal has its code and reason and
changes nothing. Dedupe keys are in sql/test_dedupe.py, the XML request
in test_xml_request.py, the bounds in test_create_bounds.py."""
import json
import sqlite3

from util import T0, connect, dedupe_key, dump, one

OWNER = {"agent_id": "agent-1", "role": "owner", "now": T0}


def create(db, req, ctx=OWNER):
    return json.loads(one(db, "SELECT trigger_create(?, ?)",
                          req if isinstance(req, str) else json.dumps(req),
                          ctx if isinstance(ctx, str) else json.dumps(ctx)))


IV = {"instructions": "x", "trigger_type": "interval", "interval_ms": 900000}


def test_create_success_and_duplicate(ext):
    db = connect(ext)
    r = create(db, {"instructions": "Check the build", "trigger_type": "interval",
                    "interval_ms": 900000})
    assert r["actionName"] == "CREATE_TASK" and r["success"] and r["created"]
    assert r["dedupeKey"] == dedupe_key("Check the build", "interval", "900000", "")
    row = db.execute("SELECT agent_id, created_by, next_due_at, wake_mode, timezone FROM triggers"
                     " WHERE trigger_id = ?", (r["triggerId"],)).fetchone()
    assert row == ("agent-1", "user", T0 + 900000, "next_autonomy_cycle", "UTC"), row
    d = create(db, {"instructions": "  check THE build", "trigger_type": "interval",
                    "interval_ms": 900000})
    assert d["success"] and not d["created"] and d["existingTriggerId"] == r["triggerId"]
    assert one(db, "SELECT count(*) FROM triggers") == 1
    # another agent or scope is not a duplicate
    other = create(db, {"instructions": "Check the build", "trigger_type": "interval",
                        "interval_ms": 900000}, dict(OWNER, scope="room-2"))
    assert other["created"]
    # a cancelled trigger no longer blocks
    one(db, "SELECT trigger_cancel(?)", r["triggerId"])
    again = create(db, {"instructions": "Check the build", "trigger_type": "interval",
                        "interval_ms": 900000})
    assert again["created"] and again["triggerId"] != r["triggerId"]


def test_create_refusals(ext):
    db = connect(ext)
    iv = {"instructions": "x", "trigger_type": "interval", "interval_ms": 900000}
    cases = [
        ("not json", OWNER, "INVALID_REQUEST", "request must be a JSON object"),
        ([1, 2], OWNER, "INVALID_REQUEST", "request must be a JSON object"),
        (iv, dict(OWNER, autonomy_available=False), "AUTONOMY_UNAVAILABLE", "autonomy"),
        (iv, dict(OWNER, role="user"), "PERMISSION_DENIED", "role 'user'"),
        (iv, {"agent_id": "a"}, "PERMISSION_DENIED", "role 'user'"),
        (iv, dict(OWNER, colour=1), "INVALID_REQUEST", "context.colour"),
        ({"instructions": "x"}, OWNER, "INVALID_REQUEST", "trigger_type"),
        ({"trigger_type": "interval", "interval_ms": 900000}, OWNER, "INVALID_REQUEST", "instructions"),
        (dict(iv, createdBy="agent"), OWNER, "INVALID_REQUEST", "field 'createdBy' cannot be set"),
        (dict(iv, agent_id="someone-else"), OWNER, "INVALID_REQUEST", "field 'agent_id' cannot be set"),
        (dict(iv, status="completed"), OWNER, "INVALID_REQUEST", "field 'status' cannot be set"),
        (dict(iv, interval_ms=30000), OWNER, "INVALID_SCHEDULE", "min_interval_ms 60000"),
        (dict(iv, interval_ms=400 * 86400000), OWNER, "INVALID_SCHEDULE", "max_interval_ms"),
        (dict(iv, interval_ms="often"), OWNER, "INVALID_SCHEDULE", "triggers.interval_ms"),
        (dict(iv, timezone="Mars/Base"), OWNER, "INVALID_SCHEDULE", "unknown time zone"),
        ({"instructions": "x", "trigger_type": "once", "scheduled_at": T0 - 1}, OWNER,
         "INVALID_SCHEDULE", "not in the future"),
        ({"instructions": "x", "trigger_type": "once", "scheduled_at": "2030-01-01T00:00:00Z"}, OWNER,
         "INVALID_SCHEDULE", "further ahead than max_interval_ms"),
        ({"instructions": "x", "trigger_type": "cron", "cron_expression": "*/10 * * * * *"}, OWNER,
         "INVALID_SCHEDULE", "more often than min_interval_ms"),
        ({"instructions": "x", "trigger_type": "cron", "cron_expression": "0 0 30 2 *"}, OWNER,
         "INVALID_SCHEDULE", "never fires"),
        ({"instructions": "x", "trigger_type": "cron", "cron_expression": "0 0 32 * *"}, OWNER,
         "INVALID_SCHEDULE", "cron field 3 (day-of-month): 32 is out of range 1-31"),
        (dict(iv, interval_ms=120000), OWNER, "CONFIRMATION_REQUIRED", "confirm_below_ms"),
        ({"instructions": "x", "trigger_type": "cron", "cron_expression": "*/2 * * * *"}, OWNER,
         "CONFIRMATION_REQUIRED", "confirmed"),
    ]
    before = dump(db)
    for req, ctx, code, why in cases:
        text = req if isinstance(req, str) else json.dumps(req)
        r = json.loads(one(db, "SELECT trigger_create(?, ?)", text, json.dumps(ctx)))
        assert r["success"] is False and r["created"] is False, (req, r)
        assert r["error"] == code and why in r["reason"], (req, r)
        assert dump(db) == before, req
    ok = create(db, dict(iv, interval_ms=120000), dict(OWNER, confirmed=True))
    assert ok["created"]


def test_quotas(ext):
    db = connect(ext)
    one(db, "SELECT trigger_config('max_active_per_scope', 3)")
    for i in range(3):
        assert create(db, {"instructions": f"job {i}", "trigger_type": "interval",
                           "interval_ms": 900000})["created"]
    r = create(db, {"instructions": "job 4", "trigger_type": "interval", "interval_ms": 900000})
    assert r["error"] == "TRIGGER_QUOTA_EXCEEDED" and "max_active_per_scope 3" in r["reason"]
    assert create(db, {"instructions": "job 4", "trigger_type": "interval", "interval_ms": 900000},
                  dict(OWNER, scope="other"))["created"], "quotas count per (agent, scope)"
    one(db, "SELECT trigger_config('max_active_per_scope', 50)")
    one(db, "SELECT trigger_config('max_creations_per_window', 3)")
    r = create(db, {"instructions": "job 5", "trigger_type": "interval", "interval_ms": 900000})
    assert r["error"] == "TRIGGER_QUOTA_EXCEEDED" and "max_creations_per_window 3" in r["reason"]
    later = dict(OWNER, now=T0 + 3600001)
    assert create(db, {"instructions": "job 5", "trigger_type": "interval", "interval_ms": 900000},
                  later)["created"], "the window slides"


def test_direct_insert_duplicate_is_unique_error(ext):
    db = connect(ext)
    db.execute("INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, interval_ms)"
               " VALUES ('first', 'a1', 'Check the build', 'interval', 900000)")
    before = dump(db)
    try:
        db.execute("INSERT INTO triggers(agent_id, instructions, trigger_type, interval_ms)"
                   " VALUES ('a1', '  check the BUILD ', 'interval', 900000)")
        assert False
    except sqlite3.IntegrityError as e:
        assert e.sqlite_errorname == "SQLITE_CONSTRAINT_UNIQUE"
        assert "UNIQUE constraint failed: triggers.dedupe_key" in str(e) and "'first'" in str(e), str(e)
    assert dump(db) == before
    # another agent, or a paused-then-cancelled original, does not collide
    db.execute("INSERT INTO triggers(agent_id, instructions, trigger_type, interval_ms)"
               " VALUES ('a2', 'Check the build', 'interval', 900000)")
    one(db, "SELECT trigger_cancel('first')")
    db.execute("INSERT INTO triggers(agent_id, instructions, trigger_type, interval_ms)"
               " VALUES ('a1', 'Check the build', 'interval', 900000)")
    assert one(db, "SELECT count(DISTINCT dedupe_key) FROM triggers") == 1
    # an UPDATE that makes two active triggers equal is refused too
    db.execute("INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, interval_ms)"
               " VALUES ('other', 'a1', 'Something else', 'interval', 900000)")
    try:
        db.execute("UPDATE triggers SET instructions = 'check the build' WHERE trigger_id = 'other'")
        assert False
    except sqlite3.IntegrityError as e:
        assert "triggers.dedupe_key" in str(e)


def test_paused_trigger_counts_for_the_unique_rule(ext):
    # a trigger inserted paused (enabled = 0) is active: an equal one is a
    # duplicate, whichever of the two is paused
    db = connect(ext)
    db.execute("INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, interval_ms)"
               " VALUES ('first', 'a1', 'Check the build', 'interval', 900000)")
    try:
        db.execute("INSERT INTO triggers(agent_id, instructions, trigger_type, interval_ms, enabled)"
                   " VALUES ('a1', 'check the build', 'interval', 900000, 0)")
        assert False, "a paused duplicate was inserted"
    except sqlite3.IntegrityError as e:
        assert "UNIQUE constraint failed: triggers.dedupe_key" in str(e), str(e)
    one(db, "SELECT trigger_pause('first')")
    r = create(db, {"instructions": "Check the build", "trigger_type": "interval",
                    "interval_ms": 900000}, dict(OWNER, agent_id="a1"))
    assert r["created"] is False and r["existingTriggerId"] == "first", r


def test_refusals_of_shape(ext):
    db = connect(ext)
    cases = [
        (IV, "[1]", "INVALID_REQUEST", "context must be a JSON object"),
        ({"instructions": "x", "when": 5}, OWNER, "INVALID_REQUEST", "field 'when' must be text"),
        ({"instructions": "x", "when": "in 2 hours", "timezone": "Mars/Base"}, OWNER,
         "INVALID_SCHEDULE", "triggers.timezone: unknown time zone 'Mars/Base'"),
    ]
    before = dump(db)
    for req, ctx, code, why in cases:
        r = create(db, req, ctx)
        assert (r["success"], r["created"], r["error"]) == (False, False, code), (req, r)
        assert why in r["reason"], (req, r)
        assert dump(db) == before, req
    for sql, why in (("SELECT trigger_create(5)", "request must be JSON text"),
                     ("SELECT trigger_create_xml(5)", "xml must be text")):
        r = json.loads(one(db, sql))
        assert (r["success"], r["error"], r["reason"]) == (False, "INVALID_REQUEST", why), r
    assert dump(db) == before


def test_creator_roles_with_spaces(ext):
    db = connect(ext)
    one(db, "SELECT trigger_config('creator_roles', ' owner , boss ')")
    assert create(db, IV, dict(OWNER, role="boss"))["created"]
    for role in ("bos", "boss ", " boss", "owner , boss"):
        r = create(db, dict(IV, instructions="y"), dict(OWNER, role=role))
        assert r["error"] == "PERMISSION_DENIED" and f"role '{role}'" in r["reason"], (role, r)


def test_when_records_implied_parts(ext):
    db = connect(ext)
    r = create(db, {"instructions": "x", "when": "on the 5th"})
    assert r["created"], r
    meta = json.loads(one(db, "SELECT metadata FROM triggers WHERE trigger_id = ?", r["triggerId"]))
    assert meta["when"] == {"phrase": "on the 5th", "confidence": 0.8, "flags": [],
                            "implied": ["time", "month", "year"]}, meta


def test_not_installed(ext):
    db = connect(ext, install=False)
    for sql in ("SELECT trigger_create('{}')",
                "SELECT trigger_create_xml('<response/>')"):
        try:
            one(db, sql)
            raise AssertionError(sql)
        except sqlite3.OperationalError as e:
            assert "sqlite-triggers is not installed in this database" in str(e), e
    assert one(db, "SELECT count(*) FROM sqlite_schema") == 0
