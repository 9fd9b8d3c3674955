"""tests/py/agent/test_dry_run.py -- the validate phase (docs/create-action.md):
"dry_run": true in the context runs every check of trigger_create and
trigger_create_xml and returns the result the call would give, with
"dryRun": true, writing nothing (no trigger, no event). A matrix of
requests, each asked dry and then for real on the same database: the
answers agree (success, duplicate, every error code)."""
import json

from util import T0, connect, dump, one

OWNER = {"agent_id": "agent-1", "role": "owner", "now": T0}
HOURLY = {"instructions": "Check the build", "trigger_type": "interval",
          "interval_ms": 3600000}
XML = ("<response><instructions>Water the plants</instructions>"
       "<triggerType>interval</triggerType><intervalMs>7200000</intervalMs></response>")


def call(db, req, ctx, xml=False):
    fn = "trigger_create_xml" if xml else "trigger_create"
    body = req if isinstance(req, (str, bytes)) or req is None else json.dumps(req)
    return json.loads(one(db, f"SELECT {fn}(?, ?)", body, json.dumps(ctx)))


def state(db):
    return (dump(db), db.execute("SELECT rowid, * FROM trigger_events").fetchall())


MATRIX = [
    (HOURLY, OWNER, False),                                            # created
    (HOURLY, OWNER, False),                                            # duplicate
    ({**HOURLY, "instructions": "check  THE build"}, OWNER, False),    # duplicate (canonical)
    ({**HOURLY, "scope": "agent-1"}, OWNER, False),                    # scope from context
    ({"instructions": "x"}, OWNER, False),                             # INVALID_REQUEST
    ("[1]", OWNER, False),                                             # INVALID_REQUEST
    (None, OWNER, False),                                              # INVALID_REQUEST
    ({**HOURLY, "agent_id": "other"}, OWNER, False),                   # INVALID_REQUEST
    ({**HOURLY, "bogus": 1, "instructions": "ignored key"}, OWNER, False),  # created, ignored
    ({**HOURLY, "interval_ms": "soon"}, OWNER, False),                 # INVALID_SCHEDULE
    ({**HOURLY, "interval_ms": 1000}, OWNER, False),                   # INVALID_SCHEDULE
    ({**HOURLY, "interval_ms": 400 * 86400000}, OWNER, False),         # INVALID_SCHEDULE
    ({**HOURLY, "timezone": "Mars/Base"}, OWNER, False),               # INVALID_SCHEDULE
    ({"instructions": "c", "trigger_type": "cron", "cron_expression": "61 * * * *"},
     OWNER, False),                                                    # INVALID_SCHEDULE
    ({"instructions": "o", "trigger_type": "once", "scheduled_at": T0 - 1}, OWNER, False),
    ({"instructions": "w", "when": "sometime"}, OWNER, False),         # confidence 0
    ({"instructions": "w", "when": "tomorrow at 9am"}, OWNER, False),  # created
    ({"instructions": "w", "when": "tomorrow at 9am"}, OWNER, False),  # duplicate
    ({"when_text": "remind me tomorrow at 10am to call Anna"}, OWNER, False),
    ({**HOURLY, "interval_ms": 120000, "instructions": "fast"}, OWNER, False),  # CONFIRMATION
    ({**HOURLY, "interval_ms": 120000, "instructions": "fast"},
     {**OWNER, "confirmed": True}, False),                             # created
    ({**HOURLY, "interval_ms": 120000, "instructions": "fast"}, OWNER, False),  # duplicate wins
    (HOURLY, {**OWNER, "role": "user"}, False),                        # PERMISSION_DENIED
    (HOURLY, {**OWNER, "role": "agent"}, False),                       # PERMISSION_DENIED
    (HOURLY, {**OWNER, "autonomy_available": False}, False),           # AUTONOMY_UNAVAILABLE
    (HOURLY, {**OWNER, "bogus": 1}, False),                            # INVALID_REQUEST (context)
    ({**HOURLY, "instructions": "q1"}, {**OWNER, "scope": "full"}, False),  # created
    ({**HOURLY, "instructions": "q2"}, {**OWNER, "scope": "full"}, False),  # created
    ({**HOURLY, "instructions": "q3"}, {**OWNER, "scope": "full"}, False),  # QUOTA
    ({**HOURLY, "instructions": "q1"}, {**OWNER, "scope": "full"}, False),  # duplicate
    (XML, OWNER, True),                                                # created
    (XML, OWNER, True),                                                # duplicate
    ("<response><instructions>x", OWNER, True),                        # INVALID_REQUEST
    ("<!DOCTYPE r><response/>", OWNER, True),                          # refused
    ("<response><triggerType>cron</triggerType><cronExpression>bad</cronExpression>"
     "<instructions>y</instructions></response>", OWNER, True),        # INVALID_SCHEDULE
    ({**HOURLY, "trigger_id": "named", "instructions": "named one"}, OWNER, False),
    ({**HOURLY, "trigger_id": "named", "instructions": "another"}, OWNER, False),  # id taken
]


def test_dry_run_agrees_with_the_real_create(ext):
    db = connect(ext)
    db.execute("SELECT trigger_config('max_active_per_scope', 2)")
    codes = set()
    outcomes = set()
    for i, (req, ctx, xml) in enumerate(MATRIX):
        before = state(db)
        dry = call(db, req, {**ctx, "dry_run": True}, xml)
        assert state(db) == before, (i, "a dry run wrote")
        assert dry.pop("dryRun") is True, (i, dry)
        real = call(db, req, ctx, xml)
        assert "dryRun" not in real
        assert dry == real, (i, req, dry, real)
        codes.add(real.get("error"))
        outcomes.add((real["success"], real["created"]))
        # the real call logged exactly one event
        assert len(db.execute("SELECT 1 FROM trigger_events").fetchall()) == i + 1
    assert len(MATRIX) >= 30
    assert codes == {None, "INVALID_REQUEST", "INVALID_SCHEDULE", "TRIGGER_QUOTA_EXCEEDED",
                     "PERMISSION_DENIED", "AUTONOMY_UNAVAILABLE",
                     "CONFIRMATION_REQUIRED"}, codes
    assert outcomes == {(True, True), (True, False), (False, False)}, outcomes


def test_dry_run_in_a_callers_transaction(ext):
    # inside the caller's transaction the dry run's savepoint is undone;
    # the caller's own writes stay
    db = connect(ext)
    db.execute("BEGIN")
    call(db, HOURLY, OWNER)
    res = call(db, {**HOURLY, "instructions": "more"}, {**OWNER, "dry_run": True})
    assert (res["created"], res["dryRun"]) == (True, True), res
    db.execute("COMMIT")
    assert one(db, "SELECT count(*) FROM triggers") == 1
    assert one(db, "SELECT count(*) FROM trigger_events") == 1


def test_dry_run_must_be_a_boolean(ext):
    db = connect(ext)
    res = call(db, HOURLY, {**OWNER, "dry_run": "yes"})
    assert res["error"] == "INVALID_REQUEST" and "dry_run" in res["reason"], res
    assert "dryRun" not in res


TAKEN = ("trigger_id '{}' is not available (a trigger has it, or another agent's "
         "runs do): leave trigger_id out for a generated one")


def test_another_agents_id_is_answered_as_any_taken_id(ext):
    # issue 32: a dry run must not tell one agent about another agent's
    # triggers. A trigger_id that is taken gets one answer, dry or real,
    # whoever holds it: nothing names the holder or its trigger.
    db = connect(ext)
    a = {**OWNER, "agent_id": "agent-a"}
    b = {**OWNER, "agent_id": "agent-b"}
    assert call(db, {**HOURLY, "trigger_id": "mine"}, a)["created"]
    assert call(db, {**HOURLY, "instructions": "b's", "trigger_id": "bs"}, b)["created"]
    answers = []
    for ctx, tid in ((b, "mine"), (b, "bs"), (a, "mine")):
        req = {**HOURLY, "instructions": "another", "trigger_id": tid}
        before = state(db)
        dry = call(db, req, {**ctx, "dry_run": True})
        assert state(db) == before and dry.pop("dryRun") is True
        real = call(db, req, ctx)
        assert dry == real, (dry, real)
        assert (real["success"], real["error"], real["reason"]) == (
            False, "INVALID_REQUEST", TAKEN.format(tid)), real
        assert "agent-a" not in json.dumps(real) and "existingTriggerId" not in real
        answers.append(real)
    assert answers[0] == dict(answers[2]), answers  # another's = one's own
    # a free id: created, dry and real alike
    req = {**HOURLY, "instructions": "free", "trigger_id": "free"}
    dry = call(db, req, {**b, "dry_run": True})
    assert dry.pop("dryRun") and dry == call(db, req, b)
