"""tests/py/agent/test_create_refusals.py -- the create action's refusals
beyond test_create.py's: each context key with a value of the wrong type,
fields a request may not set, a request's agent_id that is not the
context's (or of another type, or null: refused, never taken as the
context's; a non-text request logs the context's agent when it is
valid), "when_text" beside instructions, metadata that is no object with
a user_id, cron schedules that fire a few times only, refusals before
the request is read (a non-text request with a bad context, a dry run,
no tables), an empty XML blob, a NULL context, a bad escape in a key,
ignored keys listed once; and the default display name made of blank
characters."""
import json

from util import T0, add, connect, dump, one

OWNER = {"agent_id": "a", "role": "owner", "now": T0}
IV = {"instructions": "x", "trigger_type": "interval", "interval_ms": 900000}
KNOWN = ("unknown key or wrong type (known: agent_id, scope, user_id, role, "
         "autonomy_available, confirmed, dry_run, now, message)")


def create(db, req, ctx=OWNER):
    """trigger_create of req and ctx: a dict is written as JSON, anything
    else (text, a number, None) is passed as it is."""
    return json.loads(one(db, "SELECT trigger_create(?, ?)",
                          json.dumps(req) if isinstance(req, dict) else req,
                          json.dumps(ctx) if isinstance(ctx, dict) else ctx))


def refused(r, code, reason):
    assert (r["success"], r["created"], r["error"]) == (False, False, code), r
    assert r["reason"] == reason, r


NOT_SETTABLE = ("field '%s' cannot be set by a request (it comes from the "
                "context or is computed)")


def test_context_keys_of_the_wrong_type(ext):
    db = connect(ext)
    for key, value in (("agent_id", 5), ("scope", 5), ("role", 5), ("user_id", 5),
                       ("autonomy_available", "yes"), ("confirmed", 1),
                       ("dry_run", "true"), ("now", True)):
        r = create(db, IV, dict(OWNER, **{key: value}))
        refused(r, "INVALID_REQUEST", f"context.{key}: {KNOWN}")
        # the refusal is logged with its code
        assert one(db, "SELECT count(*) FROM trigger_events WHERE kind = 'rejected' "
                       "AND detail LIKE ?", f"%context.{key}%") == 1
    assert one(db, "SELECT count(*) FROM triggers") == 0
    # user_id null: no user, created
    r = create(db, IV, dict(OWNER, user_id=None))
    assert r["created"], r
    assert one(db, "SELECT metadata FROM triggers") is None


def test_dry_run_kept_when_the_context_is_refused(ext):
    db = connect(ext)
    before = dump(db)
    for ctx in (dict(OWNER, dry_run=True, bogus=1), dict(OWNER, bogus=1, dry_run=True)):
        r = create(db, IV, ctx)
        refused(r, "INVALID_REQUEST", f"context.bogus: {KNOWN}")
        assert r["dryRun"] is True
    assert dump(db) == before  # a dry run writes nothing, not even the event


def test_roles_empty_and_blank_entries(ext):
    db = connect(ext)
    refused(create(db, IV, dict(OWNER, role="")), "PERMISSION_DENIED",
            "role '' may not create triggers (creator_roles: owner,admin)")
    one(db, "SELECT trigger_config('creator_roles', 'a, ,,  boss  ')")
    for role in ("", " ", "boss "):
        r = create(db, IV, dict(OWNER, role=role))
        assert r["error"] == "PERMISSION_DENIED", (role, r)
    assert create(db, IV, dict(OWNER, role="boss"))["created"]


def test_fields_a_request_may_not_set(ext):
    db = connect(ext)
    for field, value in (("created_at", T0), ("created_by", "user"), ("agent_id", 5),
                         ("agent_id", "b"), ("scope", "s")):
        refused(create(db, dict(IV, **{field: value})), "INVALID_REQUEST",
                f"field '{field}' cannot be set by a request (it comes from the "
                "context or is computed)")
    # the context's own agent_id and scope, echoed: accepted
    r = create(db, dict(IV, agent_id="a", scope=""))
    assert r["created"], r
    # twice: the same trigger
    r2 = create(db, dict(IV, agent_id="a"))
    assert (r2["success"], r2["created"], r2["existingTriggerId"]) == (True, False, r["triggerId"])


def test_when_text_beside_instructions(ext):
    db = connect(ext)
    r = create(db, {"when_text": "remind me in 2 hours to water the plants",
                    "instructions": "water"})
    assert r["created"], r
    row = db.execute("SELECT instructions, trigger_type, scheduled_at, metadata "
                     "FROM triggers").fetchone()
    assert row[:3] == ("water", "once", T0 + 2 * 3600000), row
    assert json.loads(row[3])["when"]["phrase"] == "in 2 hours"


def test_metadata_no_object_with_a_user(ext):
    db = connect(ext)
    for metadata in ("[1]", [1]):
        refused(create(db, dict(IV, metadata=metadata), dict(OWNER, user_id="u")),
                "INVALID_REQUEST", "triggers.metadata: must be a JSON object")
    assert one(db, "SELECT count(*) FROM triggers") == 0
    assert one(db, "SELECT count(*) FROM trigger_events WHERE kind = 'rejected'") == 2


def test_cron_that_fires_a_few_times(ext):
    db = connect(ext)
    day = 86400000
    # three occurrences before end_at; then one only (no gap to measure)
    for end, instr in ((T0 + 2 * day + 10 * 3600000, "thrice"), (T0 + 10 * 3600000, "once")):
        r = create(db, {"instructions": instr, "trigger_type": "cron",
                        "cron_expression": "0 9 * * *", "end_at": end})
        assert r["created"], r
    # an occurrence every minute until end_at: the shortest gap is a minute
    r = create(db, {"instructions": "often", "trigger_type": "cron",
                    "cron_expression": "* * * * *", "end_at": T0 + 5 * 60000})
    refused(r, "CONFIRMATION_REQUIRED", "runs every 60000 ms, below confirm_below_ms "
            "300000: repeat with context.confirmed = true")


def test_refused_before_the_request_is_read(ext):
    db = connect(ext)
    bad = "CAST(X'FF' AS TEXT)"
    r = json.loads(one(db, f"SELECT trigger_create(5, {bad})"))
    refused(r, "INVALID_REQUEST", "request must be JSON text")
    r = json.loads(one(db, "SELECT trigger_create(5, '{\"bogus\":1}')"))
    refused(r, "INVALID_REQUEST", "request must be JSON text")
    n = one(db, "SELECT count(*) FROM trigger_events")
    before = dump(db)
    r = json.loads(one(db, "SELECT trigger_create(5, '{\"bogus\":1,\"dry_run\":true}')"))
    refused(r, "INVALID_REQUEST", "request must be JSON text")
    assert r["dryRun"] is True and dump(db) == before
    r = json.loads(one(db, f"SELECT trigger_create_xml('<response/>', {bad})"))
    refused(r, "INVALID_REQUEST", "context: not valid UTF-8 at byte 0 (0xff: a byte "
            "that never appears in UTF-8)")
    r = json.loads(one(db, "SELECT trigger_create_xml(X'')"))
    refused(r, "INVALID_REQUEST", "malformed XML at line 1, column 1 (byte 0): Document is empty")
    assert one(db, "SELECT count(*) FROM trigger_events") == n + 2
    # without tables: answered, nowhere to log
    bare = connect(ext, install=False)
    refused(json.loads(one(bare, "SELECT trigger_create(5)")), "INVALID_REQUEST",
            "request must be JSON text")
    refused(json.loads(one(bare, "SELECT trigger_create_xml(5, '{}')")), "INVALID_REQUEST",
            "xml must be text")


def test_null_context(ext):
    db = connect(ext)
    r = create(db, IV, None)
    refused(r, "PERMISSION_DENIED", "role 'user' may not create triggers "
            "(creator_roles: owner,admin)")
    r = json.loads(one(db, "SELECT trigger_create_xml('<response><instructions>x"
                           "</instructions></response>', NULL)"))
    assert r["error"] == "PERMISSION_DENIED", r


def test_bad_escape_in_a_key(ext):
    db = connect(ext)
    r = json.loads(one(db, "SELECT trigger_create(?)", r'{"a\udc80":1}'))
    refused(r, "INVALID_REQUEST", "request (in a key): the escape \\udc80 at byte 3 is a "
            "lone surrogate (only a high surrogate followed by a low one is a character)")
    # a key inside a member's value: named under that member, still "in a key";
    # a value there is named under the member alone
    why = ("the escape \\udc80 at byte {} is a lone surrogate (only a high surrogate "
           "followed by a low one is a character)")
    r = json.loads(one(db, "SELECT trigger_create(?)", r'{"m":{"a\udc80":1}}'))
    refused(r, "INVALID_REQUEST", "request.m (in a key): " + why.format(8))
    r = json.loads(one(db, "SELECT trigger_create(?)", r'{"m":{"a":"\udc80"}}'))
    refused(r, "INVALID_REQUEST", "request.m: " + why.format(11))


def test_ignored_keys_listed_once(ext):
    # scheduledAtIso names scheduled_at; a key that is no field is listed
    # once however often and wherever it comes (a prefix or suffix of
    # another listed key is its own entry)
    db = connect(ext)
    req = ('{"instructions":"x","trigger_type":"once",'
           '"scheduledAtIso":"2026-01-02T00:00:00Z","zz":1,"zz":2,"z":1,"xz":1,'
           '"z\\"":1,"z":3}')
    r = create(db, req)
    assert r["created"] and r["ignored"] == ["zz", "z", "xz", 'z"'], r
    assert one(db, "SELECT scheduled_at FROM triggers") == T0 + 86400000


def test_when_with_two_flags(ext):
    db = connect(ext)
    r = create(db, {"instructions": "x", "when": "next friday at midnight"})
    assert r["created"], r
    meta = json.loads(one(db, "SELECT metadata FROM triggers"))
    assert meta["when"] == {"phrase": "next friday at midnight", "confidence": 0.6,
                            "flags": ["midnight_start_of_day", "next_weekday_ambiguous"],
                            "implied": []}, meta


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
