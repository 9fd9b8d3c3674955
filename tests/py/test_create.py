"""tests/py/test_create.py -- the action layer: dedupe keys (checked
against hashlib over the documented canonical text), trigger_create's
policy and result JSON, and trigger_create_xml's safety matrix."""
import json
import os
import sqlite3
import tempfile

from util import T0, connect, dedupe_key, dump, one

OWNER = {"agent_id": "agent-1", "role": "owner", "now": T0}


def create(db, req, ctx=OWNER):
    return json.loads(one(db, "SELECT trigger_create(?, ?)", json.dumps(req), json.dumps(ctx)))


def create_xml(db, xml, ctx=OWNER):
    return json.loads(one(db, "SELECT trigger_create_xml(?, ?)", xml, json.dumps(ctx)))


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


def test_xml_request_ok(ext):
    db = connect(ext)
    r = create_xml(db, """<?xml version="1.0" encoding="UTF-8"?>
<response>
  <displayName>  Morning ping </displayName>
  <instructions>Ping the team &amp; say hi</instructions>
  <triggerType>cron</triggerType>
  <intervalMs></intervalMs>
  <scheduledAtIso/>
  <cronExpression>0 7 * * MON-FRI</cronExpression>
  <timezone>Europe/Berlin</timezone>
  <wakeMode>inject_now</wakeMode>
  <thoughts>ignored: unknown elements are skipped</thoughts>
</response>""")
    assert r["created"], r
    row = db.execute("SELECT display_name, instructions, cron_expression, timezone, wake_mode"
                     " FROM triggers").fetchone()
    assert row == ("Morning ping", "Ping the team & say hi", "0 7 * * MON-FRI",
                   "Europe/Berlin", "inject_now"), row


def test_xml_safety_matrix(ext):
    db = connect(ext)
    secret = tempfile.NamedTemporaryFile("w", delete=False, suffix=".txt")
    secret.write("TOPSECRET-XXE-CONTENT")
    secret.close()
    body = "<instructions>x</instructions><triggerType>interval</triggerType><intervalMs>900000</intervalMs>"
    cases = [
        (f'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY x SYSTEM "file://{secret.name}">]>'
         f'<response><instructions>&x;</instructions></response>', "INVALID_REQUEST", "DOCTYPE"),
        ('<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>'
         '<response><instructions>&lol2;</instructions></response>', "INVALID_REQUEST", "DOCTYPE"),
        (f'<response><!ENTITY x "y">{body}</response>', "INVALID_REQUEST", "not allowed"),
        ("<response>" + "<a>" * 5000 + "</a>" * 5000 + body + "</response>", "INVALID_REQUEST", "malformed XML"),
        ("<response><instructions>x</instructions", "INVALID_REQUEST", "malformed XML"),
        ("<response><instructions>x</triggerType></response>", "INVALID_REQUEST", "malformed XML"),
        ("", "INVALID_REQUEST", "malformed XML"),
        ("just text", "INVALID_REQUEST", "malformed XML"),
        (f"<reply>{body}</reply>", "INVALID_REQUEST", "root element must be <response>"),
        (f"<response>{body}<instructions>y</instructions></response>", "INVALID_REQUEST", "more than once"),
        ("<response><instructions><b>x</b></instructions></response>", "INVALID_REQUEST", "text only"),
        ("<response><instructions></instructions><triggerType>interval</triggerType><intervalMs>900000</intervalMs></response>",
         "INVALID_REQUEST", "instructions"),
        ("<response><instructions>x</instructions><triggerType>interval</triggerType><intervalMs>99999999999999999999</intervalMs></response>",
         "INVALID_SCHEDULE", "intervalMs"),
        ("<response><instructions>x</instructions><triggerType>interval</triggerType><intervalMs>-5</intervalMs></response>",
         "INVALID_SCHEDULE", "intervalMs"),
        ("<response><instructions>x</instructions><triggerType>interval</triggerType><intervalMs>1e6</intervalMs></response>",
         "INVALID_SCHEDULE", "intervalMs"),
        ("<response><instructions>x</instructions><triggerType>interval</triggerType><intervalMs>5</intervalMs></response>",
         "INVALID_SCHEDULE", "interval_ms"),
        ("<response><instructions>x</instructions><triggerType>once</triggerType><scheduledAtIso>2026-02-30T10:00:00</scheduledAtIso></response>",
         "INVALID_SCHEDULE", "scheduled_at"),
        ("<response><instructions>x</instructions><triggerType>hourly</triggerType></response>",
         "INVALID_SCHEDULE", "trigger_type"),
        ("<response>" + "<instructions>" + "a" * 70000 + "</instructions></response>", "INVALID_REQUEST", "65536 allowed"),
    ]
    before = dump(db)
    for xml, code, why in cases:
        r = create_xml(db, xml)
        assert r["success"] is False and r["error"] == code and why in r["reason"], (xml[:80], r)
        assert "TOPSECRET" not in json.dumps(r)
        assert dump(db) == before, xml[:80]
    # bytes that are not UTF-8, as a blob
    r = json.loads(one(db, "SELECT trigger_create_xml(?, ?)",
                       b"<response><instructions>\xff\xfe</instructions></response>", json.dumps(OWNER)))
    assert r["error"] == "INVALID_REQUEST" and "UTF-8" in r["reason"], r
    r = json.loads(one(db, "SELECT trigger_create_xml(?, ?)",
                       b"<response><instructions>a\x00b</instructions></response>", json.dumps(OWNER)))
    assert r["error"] == "INVALID_REQUEST" and "NUL" in r["reason"], r
    assert dump(db) == before
    assert "TOPSECRET" not in dump(db)
    os.unlink(secret.name)


def test_xml_doctype_text_in_cdata_comment_or_pi_is_not_a_doctype(ext):
    # The pre-check reads the document structurally: "<!DOCTYPE" inside a
    # comment, a CDATA section or a processing instruction is text.
    db = connect(ext)
    tail = "<triggerType>interval</triggerType><intervalMs>900000</intervalMs></response>"
    ok = [
        ("<response><!-- no <!DOCTYPE here, nor <!ENTITY --><instructions>a</instructions>" + tail, "a"),
        ("<response><instructions><![CDATA[Explain <!DOCTYPE html> to the team]]></instructions>" + tail,
         "Explain <!DOCTYPE html> to the team"),
        ('<?xml version="1.0"?><?note <!DOCTYPE x> ?><response><instructions>c</instructions>' + tail, "c"),
        ("<response><instructions><![CDATA[d -->]]></instructions><!-- <![CDATA[ -->" + tail, "d -->"),
    ]
    for xml, want in ok:
        r = create_xml(db, xml)
        assert r["created"], (xml, r)
        assert one(db, "SELECT instructions FROM triggers WHERE trigger_id = ?", r["triggerId"]) == want
    before = dump(db)
    refused = [
        ("<!-- a --><!DOCTYPE r [<!ENTITY e \"y\">]><response><instructions>&e;</instructions>" + tail,
         "not allowed (byte 10)"),
        ("<!-- <![CDATA[ --><!DOCTYPE r><response><instructions>e</instructions>" + tail, "not allowed"),
        ("<response><instructions><![CDATA[x]]><!ENTITY e \"y\"></instructions>" + tail, "not allowed"),
        ("<!-- unterminated <!DOCTYPE r><response><instructions>e</instructions>" + tail, "malformed XML"),
        ("<response><instructions><![CDATA[ <!DOCTYPE never closed </instructions>" + tail, "malformed XML"),
    ]
    for xml, why in refused:
        r = create_xml(db, xml)
        assert r["success"] is False and r["error"] == "INVALID_REQUEST" and why in r["reason"], (xml, r)
        assert dump(db) == before


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


def test_xml_values_trimmed_and_ms_bound(ext):
    # an element's text loses the white space around it, newlines included
    # (a pretty-printed reply); the inner text is kept as written
    db = connect(ext)
    r = create_xml(db, "<response>\n  <instructions>\n    Water the  plants\n  </instructions>\n"
                       "  <triggerType>\n\tinterval\r\n</triggerType>"
                       "<intervalMs>\n900000\n</intervalMs></response>")
    assert r["created"], r
    assert db.execute("SELECT instructions, trigger_type, interval_ms FROM triggers").fetchone() \
        == ("Water the  plants", "interval", 900000)
    # intervalMs 2^53 passes the reader (and is refused by the schedule's
    # own bound); 2^53 + 1 is refused by the reader
    xml = ("<response><instructions>x</instructions><triggerType>interval</triggerType>"
           "<intervalMs>{}</intervalMs></response>")
    r = create_xml(db, xml.format(2 ** 53))
    assert r["error"] == "INVALID_SCHEDULE" and "triggers.interval_ms: must be <=" in r["reason"], r
    r = create_xml(db, xml.format(2 ** 53 + 1))
    assert r["error"] == "INVALID_SCHEDULE" and "range 0-2^53" in r["reason"], r


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


def test_xml_size_bound(ext):
    # a request of exactly 65536 bytes is read; one byte more is refused
    db = connect(ext)
    one(db, "SELECT trigger_config('max_agent_instructions_bytes', 65536)")
    head = "<response><instructions>"
    tail = ("</instructions><triggerType>interval</triggerType>"
            "<intervalMs>900000</intervalMs></response>")
    for n, created in ((65536, True), (65537, False)):
        xml = head + "a" * (n - len(head) - len(tail)) + tail
        r = create_xml(db, xml)
        if created:
            assert r["created"], r
        else:
            assert r["error"] == "INVALID_REQUEST" and \
                r["reason"] == "XML is 65537 bytes, more than the 65536 allowed", r
