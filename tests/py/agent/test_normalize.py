"""tests/py/agent/test_normalize.py -- a model's reply as it really comes back
(docs/create-action.md#untidy-replies-normalization-and-ignored): enum values and
field names in any case and with -, _ or camel spelling, the XML wrapped
in prose or a code fence, extra fields, entities and CDATA. Each reply
goes through trigger_create_xml (or trigger_create) and the test reads
back the stored columns of the trigger it made, and what it ignored."""
import json
import sqlite3
from datetime import datetime, timezone

from util import ROOT, T0, connect, dump, one

OWNER = {"agent_id": "agent-1", "scope": "room-1", "role": "owner", "now": T0}


def ms(iso):
    return int(datetime.fromisoformat(iso).astimezone(timezone.utc).timestamp() * 1000)


def stored(db, trigger_id, cols):
    row = db.execute(f"SELECT {', '.join(cols)} FROM triggers WHERE trigger_id = ?",
                     (trigger_id,)).fetchone()
    return dict(zip(cols, row))


def created(db, result, want, ignored=()):
    assert result["success"] and result["created"], result
    assert result.get("ignored", []) == list(ignored), result
    got = stored(db, result["triggerId"], list(want))
    assert got == want, (got, want)


def create_xml(db, xml, ctx=OWNER):
    return json.loads(one(db, "SELECT trigger_create_xml(?, ?)", xml, json.dumps(ctx)))


def create(db, req, ctx=OWNER):
    return json.loads(one(db, "SELECT trigger_create(?, ?)", json.dumps(req), json.dumps(ctx)))


# (name, the model's reply, the stored columns, the names it ignored)
REPLIES = [
    ("fenced xml block with prose around it, upper and kebab enums",
     """Sure! I'll set that up for you.

```xml
<response>
  <instructions>Check the build status</instructions>
  <triggerType>INTERVAL</triggerType>
  <intervalMs>900000</intervalMs>
  <wakeMode>Inject-Now</wakeMode>
</response>
```

Let me know if you want me to change the interval.""",
     {"instructions": "Check the build status", "trigger_type": "interval",
      "interval_ms": 900000, "wake_mode": "inject_now", "scope": "room-1"}, []),

    ("PascalCase elements and values",
     """<Response>
  <DisplayName>Stand-up</DisplayName>
  <Instructions>Post the stand-up reminder</Instructions>
  <TriggerType>Cron</TriggerType>
  <CronExpression>0 9 * * MON-FRI</CronExpression>
  <Timezone>Europe/Berlin</Timezone>
  <WakeMode>NextAutonomyCycle</WakeMode>
</Response>""",
     {"display_name": "Stand-up", "trigger_type": "cron", "cron_expression": "0 9 * * MON-FRI",
      "timezone": "Europe/Berlin", "wake_mode": "next_autonomy_cycle"}, []),

    ("snake_case elements, a local instant in the trigger's zone",
     """<response>
<instructions>Send the weekly report</instructions>
<trigger_type>once</trigger_type>
<scheduled_at_iso>2026-01-02T09:00:00</scheduled_at_iso>
<timezone>America/New_York</timezone>
<wake_mode>inject_now</wake_mode>
</response>""",
     {"trigger_type": "once", "scheduled_at": ms("2026-01-02T14:00:00+00:00"),
      "timezone": "America/New_York", "wake_mode": "inject_now"}, []),

    ("maxRuns and the policies, mixed case",
     """<response><instructions>Ping the on-call channel</instructions>
<triggerType>interval</triggerType><intervalMs>3600000</intervalMs>
<maxRuns>3</maxRuns><misfirePolicy>SKIP</misfirePolicy><overlapPolicy>Queue</overlapPolicy>
</response>""",
     {"max_runs": 3, "misfire_policy": "skip", "overlap_policy": "queue"}, []),

    ("extra elements are ignored and listed",
     """<response>
  <thoughts>The user wants a daily digest, so cron is the best fit.</thoughts>
  <instructions>Summarize unread email</instructions>
  <triggerType>cron</triggerType>
  <cronExpression>0 8 * * *</cronExpression>
  <confidence>0.92</confidence>
  <plan><step>read</step><step>summarize</step></plan>
  <notes/>
</response>""",
     {"instructions": "Summarize unread email", "cron_expression": "0 8 * * *"},
     ["thoughts", "confidence", "plan"]),

    ("XML entities and a numeric character reference",
     """<response><instructions>Compare Q1 &amp; Q2 revenue; alert if the delta is &lt; 5% &gt;&gt; don&#8217;t wait</instructions>
<triggerType>interval</triggerType><intervalMs>86400000</intervalMs></response>""",
     {"instructions": "Compare Q1 & Q2 revenue; alert if the delta is < 5% >> don\u2019t wait"}, []),

    ("CDATA keeps markup and quotes as text",
     """<response>
<instructions><![CDATA[Run `grep -rn "TODO" src/ | wc -l` & post the <count> in #dev]]></instructions>
<triggerType>cron</triggerType><cronExpression>30 17 * * FRI</cronExpression>
</response>""",
     {"instructions": 'Run `grep -rn "TODO" src/ | wc -l` & post the <count> in #dev',
      "trigger_type": "cron"}, []),

    ("a when phrase in a zone",
     """Here is the schedule:
<response><instructions>Water the plants</instructions><when>every weekday at 9am</when><timezone>europe/london</timezone></response>""",
     {"trigger_type": "cron", "cron_expression": "0 9 * * 1-5", "timezone": "Europe/London"}, []),

    ("whenText: the phrase is found in the message",
     """<response><whenText>remind me tomorrow at 9am to call Anna</whenText></response>""",
     {"trigger_type": "once", "instructions": "call Anna",
      "scheduled_at": ms("2026-01-02T09:00:00+00:00")}, []),

    ("startAt and endAt bound an interval",
     """<response><instructions>Poll the deploy queue</instructions><triggerType>interval</triggerType>
<intervalMs>3600000</intervalMs><startAt>2026-01-05T08:00:00Z</startAt><endAt>2026-02-01T00:00:00Z</endAt></response>""",
     {"start_at": ms("2026-01-05T08:00:00+00:00"), "end_at": ms("2026-02-01T00:00:00+00:00"),
      "next_due_at": ms("2026-01-05T08:00:00+00:00")}, []),

    ("metadata as JSON text",
     """<response><instructions>Check the invoices</instructions><triggerType>interval</triggerType>
<intervalMs>43200000</intervalMs><metadata>{"source": "chat", "priority": "high"}</metadata></response>""",
     {"metadata": '{"source": "chat", "priority": "high"}'}, []),

    ("kebab-case elements and retry fields",
     """<response>
  <display-name>Backup check</display-name>
  <instructions>Verify last night's backup</instructions>
  <trigger-type>interval</trigger-type>
  <interval-ms>21600000</interval-ms>
  <max-attempts>4</max-attempts>
  <backoff-ms>60000</backoff-ms>
</response>""",
     {"display_name": "Backup check", "interval_ms": 21600000, "max_attempts": 4,
      "backoff_ms": 60000}, []),

    ("all upper case",
     """<RESPONSE><INSTRUCTIONS>ROTATE THE LOGS</INSTRUCTIONS><TRIGGERTYPE>INTERVAL</TRIGGERTYPE>
<INTERVALMS>7200000</INTERVALMS><WAKEMODE>NEXT_AUTONOMY_CYCLE</WAKEMODE></RESPONSE>""",
     {"instructions": "ROTATE THE LOGS", "interval_ms": 7200000,
      "wake_mode": "next_autonomy_cycle"}, []),

    ("an XML declaration and a comment in a bare fence",
     """```
<?xml version="1.0" encoding="UTF-8"?>
<!-- generated by the assistant -->
<response>
  <instructions>Renew the TLS certificate</instructions>
  <triggerType>Once</triggerType>
  <scheduledAtIso>2026-03-01T10:00:00Z</scheduledAtIso>
</response>
```""",
     {"trigger_type": "once", "scheduled_at": ms("2026-03-01T10:00:00+00:00")}, []),

    ("attributes on the root, jitter, window and pause-after-failures",
     """<response version="2" lang="en"><instructions>Refresh the dashboard cache</instructions>
<triggerType>interval</triggerType><intervalMs>1800000</intervalMs><jitterMs>5000</jitterMs>
<windowMs>600000</windowMs><pauseAfterFailures>3</pauseAfterFailures></response>""",
     {"jitter_ms": 5000, "window_ms": 600000, "pause_after_failures": 3}, []),

    ("enabled false creates a paused trigger",
     """<response><instructions>Archive old tickets</instructions><triggerType>interval</triggerType>
<intervalMs>86400000</intervalMs><enabled>False</enabled></response>""",
     {"enabled": 0, "status": "paused"}, []),

    ("a chosen trigger id",
     """<response><triggerId>standup-reminder</triggerId><instructions>Post the stand-up link</instructions>
<triggerType>cron</triggerType><cronExpression>45 8 * * 1-5</cronExpression></response>""",
     {"trigger_id": "standup-reminder"}, []),

    ("two responses: the first one counts",
     """Option A:
<response><instructions>Option A job</instructions><triggerType>interval</triggerType><intervalMs>900000</intervalMs></response>
Option B:
<response><instructions>Option B job</instructions><triggerType>interval</triggerType><intervalMs>1800000</intervalMs></response>""",
     {"instructions": "Option A job", "interval_ms": 900000}, []),

    ("a wrapper element around the response",
     """<reply><analysis>daily is enough</analysis><response><instructions>Check the mailbox</instructions>
<triggerType>cron</triggerType><cronExpression>@daily</cronExpression></response></reply>""",
     {"instructions": "Check the mailbox", "cron_expression": "@daily"}, []),

    ("the scope the context gives may be echoed",
     """<response><instructions>Greet new members</instructions><scope>room-1</scope>
<triggerType>interval</triggerType><intervalMs>3600000</intervalMs></response>""",
     {"scope": "room-1", "agent_id": "agent-1"}, []),

    ("Unicode text, white space around values, snake and camel mixed",
     """  ```xml
<response>
   <instructions>
      Erinnere das Team an die Übergabe 🚀
   </instructions>
   <trigger_type> interval </trigger_type>
   <intervalMs> 900000 </intervalMs>
   <misfire_policy>all</misfire_policy>
</response>```  """,
     {"instructions": "Erinnere das Team an die Übergabe 🚀", "misfire_policy": "all"}, []),

    ("a </response> inside CDATA does not end the element",
     """<response><instructions><![CDATA[Reply with </response> when done]]></instructions>
<triggerType>interval</triggerType><intervalMs>900000</intervalMs></response> trailing prose""",
     {"instructions": "Reply with </response> when done"}, []),
]


def test_model_replies_are_normalized(ext):
    assert len(REPLIES) >= 20
    for name, xml, want, ignored in REPLIES:
        db = connect(ext)
        r = create_xml(db, xml)
        try:
            created(db, r, want, ignored)
        except AssertionError as e:
            raise AssertionError(f"{name}: {e}") from None


def test_json_request_spellings_and_ignored(ext):
    db = connect(ext)
    r = create(db, {"Instructions": "Check the build", "triggerType": "Interval",
                    "intervalMs": 900000, "maxRuns": 5, "wakeMode": "injectNow",
                    "misfire-policy": "ALL", "priority": "high", "tags": ["a"]})
    created(db, r, {"instructions": "Check the build", "trigger_type": "interval",
                    "interval_ms": 900000, "max_runs": 5, "wake_mode": "inject_now",
                    "misfire_policy": "all"}, ["priority", "tags"])
    r = create(db, {"instructions": "Weekly sync", "trigger_type": "CRON",
                    "cron_expression": "0 10 * * MON", "overlap_policy": "Allow"})
    created(db, r, {"trigger_type": "cron", "overlap_policy": "allow"})


def test_refusals_still_list_ignored(ext):
    db = connect(ext)
    before = dump(db)
    # a field the action does not know is listed even when the create fails
    r = create(db, {"task": "Check the build", "schedule": "every hour"})
    assert r["success"] is False and r["ignored"] == ["task", "schedule"], r
    assert "instructions" in r["reason"], r
    r = create_xml(db, "<response><task>x</task><instructions>x</instructions>"
                      "<triggerType>hourly</triggerType></response>")
    assert r["error"] == "INVALID_SCHEDULE" and r["ignored"] == ["task"], r
    assert "'hourly' is not one of 'interval', 'once', 'cron'" in r["reason"], r
    assert dump(db) == before


def test_field_given_twice_in_two_spellings(ext):
    db = connect(ext)
    before = dump(db)
    body = "<instructions>x</instructions><triggerType>interval</triggerType><intervalMs>900000</intervalMs>"
    r = create_xml(db, f"<response>{body}<maxRuns>3</maxRuns><max_runs>4</max_runs></response>")
    assert r["error"] == "INVALID_REQUEST" and "more than once" in r["reason"], r
    r = create(db, {"instructions": "x", "trigger_type": "interval", "interval_ms": 900000,
                    "max_runs": 3, "maxRuns": 4})
    assert r["error"] == "INVALID_REQUEST" and "given twice" in r["reason"], r
    # a scope other than the context's is not the request's to choose
    r = create_xml(db, f"<response>{body}<scope>room-2</scope></response>")
    assert r["error"] == "INVALID_REQUEST" and "scope" in r["reason"], r
    r = create(db, {"instructions": "x", "trigger_type": "interval", "interval_ms": 900000,
                    "agentId": "agent-2"})
    assert r["error"] == "INVALID_REQUEST" and "agentId" in r["reason"], r
    # an unknown enum value is still refused, with the canonical values
    r = create(db, {"instructions": "x", "trigger_type": "interval", "interval_ms": 900000,
                    "wake_mode": "immediately"})
    assert r["error"] == "INVALID_REQUEST" and "'inject_now', 'next_autonomy_cycle'" in r["reason"], r
    assert dump(db) == before


def test_prose_safety_rules_hold(ext):
    db = connect(ext)
    before = dump(db)
    body = "<instructions>x</instructions><triggerType>interval</triggerType><intervalMs>900000</intervalMs>"
    cases = [
        # a declaration anywhere in the reply is refused, prose included
        (f"Note: <!DOCTYPE html> is HTML.\n<response>{body}</response>", "not allowed"),
        (f"text <response><!ENTITY e 'y'>{body}</response>", "not allowed"),
        # an entity the document does not define is not expanded (it is
        # text, test_model_replies.py), and a reply cut short is refused
        (f"Here: <response><instructions>&ext;</instructions></response", "malformed XML"),
        # a truncated reply is refused, not read in part
        (f"Sure!\n```xml\n<response>{body}", "malformed XML"),
        ("no XML at all, just prose", "malformed XML"),
        ("x" * 66000 + f"<response>{body}</response>", "65536 allowed"),
    ]
    for xml, why in cases:
        r = create_xml(db, xml)
        assert r["success"] is False and r["error"] == "INVALID_REQUEST" and why in r["reason"], (xml[:60], r)
    assert dump(db) == before


def test_json_enum_value_spellings(ext):
    db = connect(ext)
    r = create(db, {"instructions": "Check the build", "trigger_type": "Interval",
                    "interval_ms": 900000, "wake_mode": "injectNow", "misfire_policy": "ALL",
                    "overlap_policy": "Queue"})
    created(db, r, {"trigger_type": "interval", "wake_mode": "inject_now",
                    "misfire_policy": "all", "overlap_policy": "queue"})


def test_direct_insert_stores_canonical_values(ext):
    db = connect(ext)
    db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms, wake_mode,"
               " misfire_policy, overlap_policy, created_by)"
               " VALUES ('t1', 'x', 'INTERVAL', 900000, 'Inject-Now', 'Coalesce', 'ALLOW', 'Agent')")
    assert db.execute("SELECT trigger_type, wake_mode, misfire_policy, overlap_policy, created_by"
                      " FROM triggers").fetchone() == (
        "interval", "inject_now", "coalesce", "allow", "agent")
    db.execute("UPDATE triggers SET wake_mode = 'nextAutonomyCycle', trigger_type = 'Cron',"
               " interval_ms = NULL, cron_expression = '0 9 * * *' WHERE trigger_id = 't1'")
    assert db.execute("SELECT trigger_type, wake_mode FROM triggers").fetchone() == (
        "cron", "next_autonomy_cycle")
    try:
        db.execute("INSERT INTO triggers(instructions, trigger_type, interval_ms)"
                   " VALUES ('y', 'hourly', 900000)")
        assert False
    except sqlite3.IntegrityError as e:
        assert "triggers.trigger_type: 'hourly' is not one of" in str(e), str(e)


def test_docs_example(ext):
    # docs/create-action.md#untidy-replies-normalization-and-ignored: the reply shown there gives
    # the result and the row shown there
    import os
    import re
    doc = open(os.path.join(ROOT, "docs", "create-action.md"), encoding="utf-8").read()
    section = doc[doc.index("## Untidy replies"):doc.index("## Error codes")]
    reply = re.search(r"~~~text\n(.*?)~~~", section, re.S).group(1)
    db = connect(ext)
    ctx = {"agent_id": "agent-1", "role": "owner", "now": T0}
    r = create_xml(db, reply, ctx)
    created(db, r, {"instructions": "Send the weekly report to Anna & Ben",
                    "trigger_type": "cron", "cron_expression": "0 9 * * MON",
                    "timezone": "Europe/Berlin", "wake_mode": "inject_now", "max_runs": 10},
            ["reasoning"])
    assert "Send the weekly report to Anna & Ben|cron|0 9 * * MON|Europe/Berlin|inject_now|10" in section
    req = re.search(r"SELECT trigger_create\('(\{.*?\})',", section, re.S).group(1)
    r = create(db, json.loads(req), ctx)
    created(db, r, {"trigger_type": "interval", "misfire_policy": "skip"}, ["priority"])
