"""tests/py/test_create_edges.py -- the create action's inputs that
test_create.py's tables do not hold: a context or "when" of the wrong
type, a "when" with a bad zone, non-text requests, creator_roles written
with spaces, the phrase's implied parts in metadata.when, a database
without the extension installed, and trigger_dedupe_key's refusals. Each
refusal has its code and reason and changes nothing."""
import json
import sqlite3

from util import T0, connect, dump, one

OWNER = {"agent_id": "agent-1", "role": "owner", "now": T0}
IV = {"instructions": "x", "trigger_type": "interval", "interval_ms": 900000}


def create(db, req, ctx=OWNER):
    return json.loads(one(db, "SELECT trigger_create(?, ?)",
                          req if isinstance(req, str) else json.dumps(req),
                          ctx if isinstance(ctx, str) else json.dumps(ctx)))


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
