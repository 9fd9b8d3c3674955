"""tests/py/agent/test_create_bounds.py -- the bounds of an agent's create
(ext/agent/create_policy.c, docs/create-action.md#bounds-of-an-agents-create): every field
an agent may set through trigger_create / trigger_create_xml at its
bound (created) and one past it (INVALID_REQUEST naming the field, its
value and the config key; nothing written but the rejected event); the
bound follows its trigger_config key; a direct INSERT of the same values
is the application's and is not bounded; a request or context over
64 KiB is refused before it is read; a rejected create's event keeps at
most 1 KiB of each text, cut on a character boundary (issue 32)."""
import json

from util import T0, connect, dump, one

CTX = {"agent_id": "a1", "role": "owner", "now": T0}
HOURLY = {"trigger_type": "interval", "interval_ms": 3600000}

# field, the default bound, (value at the bound, value past it), config key
BOUNDS = [
    ("max_attempts", 10, (10, 11), "max_agent_attempts"),
    ("jitter_ms", 3600000, (3600000, 3600001), "max_agent_jitter_ms"),
    ("window_ms", 86400000, (86400000, 86400001), "max_agent_window_ms"),
    ("max_runs", 1000000, (1000000, 1000001), "max_agent_runs"),
    ("pause_after_failures", 100, (100, 101), "max_agent_pause_after_failures"),
]
SIZES = [  # field, the default bound in bytes, config key
    ("trigger_id", 128, "max_agent_trigger_id_bytes"),
    ("display_name", 256, "max_agent_display_name_bytes"),
    ("instructions", 16384, "max_agent_instructions_bytes"),
    ("metadata", 8192, "max_agent_metadata_bytes"),
]


def create(db, req, ctx=None, fn="trigger_create"):
    body = req if isinstance(req, str) else json.dumps(req, ensure_ascii=False)
    return json.loads(one(db, f"SELECT {fn}(?, ?)", body, json.dumps(ctx or CTX)))


def events(db):
    return db.execute("SELECT kind, code, detail, trigger_id, agent_id FROM trigger_events"
                      " ORDER BY rowid").fetchall()


def refused(db, req, reason, ctx=None, fn="trigger_create"):
    """req is refused INVALID_REQUEST with reason; only its event is written."""
    before, n = dump(db), len(events(db))
    r = create(db, req, ctx, fn)
    assert (r["success"], r["created"], r.get("error"), r.get("reason")) == (
        False, False, "INVALID_REQUEST", reason), r
    assert dump(db) == before
    assert events(db)[n:][0][:2] == ("rejected", "INVALID_REQUEST")
    return r


def sized(field, n, tag):
    """A value of `field` that is n bytes long (metadata: a JSON object)."""
    if field == "metadata":
        pad = n - len('{"k":""}')
        return '{"k":"' + tag + "x" * (pad - len(tag)) + '"}'
    return tag + "x" * (n - len(tag))


def test_every_field_at_and_past_its_bound(ext):
    db = connect(ext)
    for field, default, (at, past), key in BOUNDS:
        assert one(db, "SELECT trigger_config(?)", key) == default
        req = dict(HOURLY, instructions="at " + field, **{field: at})
        assert create(db, req)["created"], field
        refused(db, dict(req, instructions="past " + field, **{field: past}),
                f"{field} {past} is above {key} {default}")
    for field, default, key in SIZES:
        assert one(db, "SELECT trigger_config(?)", key) == default
        req = {**HOURLY, "instructions": "at " + field, field: sized(field, default, "at")}
        r = create(db, req)
        assert r["created"], (field, r)
        req = {**HOURLY, "instructions": "past " + field,
               field: sized(field, default + 1, "past")}
        refused(db, req, f"{field} is {default + 1} bytes, more than {key} {default}")


def test_a_failing_job_cannot_retry_without_pause(ext):
    # the attack: max_attempts 1,000,000 and backoff_ms 0 on an hourly job
    # (a failing one ran 1,193 times in 10 s)
    db = connect(ext)
    refused(db, dict(HOURLY, instructions="retry storm", max_attempts=1000000, backoff_ms=0),
            "max_attempts 1000000 is above max_agent_attempts 10")
    # with retries, backoff_ms has a floor; without retries it has none
    refused(db, dict(HOURLY, instructions="fast retries", max_attempts=3, backoff_ms=999),
            "backoff_ms 999 is below min_agent_backoff_ms 1000 (retries are allowed: "
            "max_attempts 3)")
    assert create(db, dict(HOURLY, instructions="at the floor", max_attempts=3,
                           backoff_ms=1000))["created"]
    assert create(db, dict(HOURLY, instructions="no retry", max_attempts=1,
                           backoff_ms=0))["created"]
    # the XML contract is the same path
    xml = ("<response><instructions>xml storm</instructions><triggerType>interval"
           "</triggerType><intervalMs>3600000</intervalMs><maxAttempts>11</maxAttempts>"
           "</response>")
    refused(db, xml, "max_attempts 11 is above max_agent_attempts 10", fn="trigger_create_xml")


def test_bounds_follow_their_keys(ext):
    db = connect(ext)
    one(db, "SELECT trigger_config('max_agent_attempts', 2)")
    one(db, "SELECT trigger_config('min_agent_backoff_ms', 60000)")
    one(db, "SELECT trigger_config('max_agent_instructions_bytes', 5)")
    refused(db, dict(HOURLY, instructions="three", max_attempts=3),
            "max_attempts 3 is above max_agent_attempts 2")
    refused(db, dict(HOURLY, instructions="two", max_attempts=2, backoff_ms=30000),
            "backoff_ms 30000 is below min_agent_backoff_ms 60000 (retries are allowed: "
            "max_attempts 2)")
    refused(db, dict(HOURLY, instructions="sixsix"),
            "instructions is 6 bytes, more than max_agent_instructions_bytes 5")
    assert create(db, dict(HOURLY, instructions="fives", max_attempts=2,
                           backoff_ms=60000))["created"]
    # a size key is at most the request's own bound
    try:
        one(db, "SELECT trigger_config('max_agent_metadata_bytes', 65537)")
        assert False
    except Exception as e:
        assert "0..65536" in str(e), str(e)
    # a dry run answers the same, writing nothing
    before = dump(db)
    r = create(db, dict(HOURLY, instructions="dry", max_attempts=3),
               dict(CTX, dry_run=True))
    assert r["error"] == "INVALID_REQUEST" and r["dryRun"], r
    assert dump(db) == before


def test_a_direct_insert_is_not_bounded(ext):
    # the application is trusted: the bounds are the create action's
    db = connect(ext)
    db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms,"
               " max_attempts, backoff_ms, jitter_ms, window_ms, max_runs,"
               " pause_after_failures, metadata) VALUES ('app', ?, 'interval', ?,"
               " 1000000, 0, 86400000, 864000000, 100000000, 100000, ?)",
               ("i" * 100000, 3600000, json.dumps({"k": "m" * 100000})))
    assert one(db, "SELECT max_attempts FROM triggers WHERE trigger_id = 'app'") == 1000000


def test_request_and_context_size(ext):
    db = connect(ext)
    pad = lambda n: json.dumps(dict(HOURLY, instructions="padded", zz="p" * n))
    exact = pad(0)
    exact = pad(65536 - len(exact))
    assert len(exact) == 65536
    r = create(db, exact)
    assert r["created"] and r["ignored"] == ["zz"], r
    over = pad(65537 - len(pad(0)))
    refused(db, over, "request is 65537 bytes, more than the 65536 allowed")
    # the refusal is logged with the context's agent, as any early refusal
    assert events(db)[-1][4] == "a1"
    ctx = dict(CTX, scope="s" * 65536)
    refused(db, dict(HOURLY, instructions="big context"),
            f"context is {len(json.dumps(ctx))} bytes, more than the 65536 allowed", ctx)
    assert events(db)[-1][4] == ""  # the context was not read


def test_rejected_events_are_bounded(ext):
    db = connect(ext)
    # a refused "when" of 50,000 bytes once logged twice its size (the
    # reason quotes it, and the phrase is kept): each text is cut to 1 KiB
    phrase = "\u00e9" * 25000  # two bytes each: a cut may fall inside one
    r = create(db, {"instructions": "w", "when": phrase})
    assert r["error"] == "INVALID_SCHEDULE", r
    detail = json.loads(events(db)[-1][2])
    for k in ("reason", "phrase"):
        b = detail[k].encode("utf-8")  # valid UTF-8: decoded by json.loads
        assert len(b) <= 1024 and detail[k].endswith("..."), (k, len(b))
    assert detail["phrase"].startswith("\u00e9" * 500)
    assert len(events(db)[-1][2]) < 2300
    # a trigger_id too long for the bound is refused and not logged as the id
    r = create(db, dict(HOURLY, instructions="long id", trigger_id="t" * 5000))
    assert r["reason"] == ("trigger_id is 5000 bytes, more than "
                           "max_agent_trigger_id_bytes 128"), r
    assert events(db)[-1][3] is None
    # short texts are kept whole
    create(db, dict(HOURLY, instructions="x", interval_ms=5))
    assert events(db)[-1][2] == json.dumps(
        {"reason": "triggers.interval_ms: must be >= 1000, got 5"}, separators=(",", ":"))
