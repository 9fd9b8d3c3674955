"""tests/py/test_create_context_forms.py -- trigger_create's handling of
the context beside a refused request that test_create_refusals.py does
not give: a request's agent_id of another type or null (refused, never
taken as the context's), a non-text request with a text, blob, integer
or absent context (the refusal is logged with the context's agent only
when the context is valid text), and the default display name built
from instructions with tabs, carriage returns and newlines."""
import json

from util import T0, add, connect, one

OWNER = {"agent_id": "a", "role": "owner", "now": T0}
IV = {"instructions": "x", "trigger_type": "interval", "interval_ms": 900000}
NOT_SETTABLE = ("field '%s' cannot be set by a request (it comes from the "
                "context or is computed)")


def create(db, req, ctx):
    return json.loads(one(db, "SELECT trigger_create(?, ?)", req, ctx))


def test_request_agent_of_another_type_is_refused(ext):
    db = connect(ext)
    for value in (5, None, 1.5, ["a"]):
        r = create(db, json.dumps(dict(IV, agent_id=value)), json.dumps(OWNER))
        assert (r["created"], r["error"], r["reason"]) == \
            (False, "INVALID_REQUEST", NOT_SETTABLE % "agent_id"), (value, r)
    for value in (5, None):
        r = create(db, json.dumps(dict(IV, scope=value)), json.dumps(OWNER))
        assert r["reason"] == NOT_SETTABLE % "scope", (value, r)
    # the context's own values, echoed, are fine
    r = create(db, json.dumps(dict(IV, agent_id="a", scope="")), json.dumps(OWNER))
    assert r["created"], r
    assert one(db, "SELECT count(*) FROM triggers") == 1


def test_non_text_request_logs_the_context_agent_when_valid(ext):
    db = connect(ext)
    cases = ((json.dumps(dict(OWNER, agent_id="good")), "good"),
             (b"\xff\xfe", ""),
             (7, ""),
             (None, ""))
    for ctx, agent in cases:
        r = create(db, 5, ctx)
        assert (r["created"], r["error"], r["reason"]) == \
            (False, "INVALID_REQUEST", "request must be JSON text"), (ctx, r)
        assert one(db, "SELECT agent_id FROM trigger_events WHERE kind = 'rejected' "
                       "ORDER BY rowid DESC LIMIT 1") == agent, ctx
    r = json.loads(one(db, "SELECT trigger_create(x'00')"))
    assert r["reason"] == "request must be JSON text", r
    assert one(db, "SELECT count(*) FROM trigger_events WHERE kind = 'rejected'") == 5
    assert one(db, "SELECT count(*) FROM triggers") == 0


def test_default_display_name_from_blank_characters(ext):
    db = connect(ext)
    r = create(db, json.dumps(dict(IV, instructions="\t\r\n one\t\ttwo\r\nthree \n"
                                                    " four five six seven")),
               json.dumps(OWNER))
    assert r["created"], r
    assert one(db, "SELECT display_name FROM triggers WHERE trigger_id = ?",
               r["triggerId"]) == "one two three four five six"
    add(db, "short", instructions="  a\tb \r\n")
    add(db, "crlf", instructions="\r\rx\r\n\r\ny\n")
    add(db, "long", instructions="w" * 70)
    got = dict(db.execute("SELECT trigger_id, display_name FROM triggers "
                          "WHERE trigger_id IN ('short', 'crlf', 'long')"))
    assert got == {"short": "a b", "crlf": "x y", "long": "w" * 60}, got
