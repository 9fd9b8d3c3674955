"""tests/py/agent/test_xml_request.py -- trigger_create_xml's request
(ext/agent/xml_request.c, docs/create-action.md): a request read and its
safety matrix (DOCTYPE, entities, external references refused; DOCTYPE
text inside CDATA, a comment or a processing instruction is no
DOCTYPE), the size bound; fields: values trimmed of tabs and carriage
returns (given as character references too), an element named by its
key (<scheduled_at>), <enabled> words, a number of milliseconds too
long, a field holding markup, an unknown element holding markup
(ignored, listed), empty elements (<displayName/>: the default), prose
after the element, a stray '<' or '</' after it or '<' in the prose
before it, an end tag cut short or spelled otherwise, the input ending
inside the element, a root element of another name, a second
<instructions>, CDATA, and a declaration inside the element or in lower
case before it."""
import json
import os
import tempfile

from util import T0, connect, dump, one

CTX = json.dumps({"agent_id": "a", "role": "owner", "now": T0})
IV = "<intervalMs>900000</intervalMs><triggerType>interval</triggerType>"


def xml(db, text):
    return json.loads(one(db, "SELECT trigger_create_xml(?, ?)", text, CTX))


def row(db, r):
    assert r["created"], r
    return db.execute("SELECT instructions, display_name FROM triggers WHERE trigger_id = ?",
                      (r["triggerId"],)).fetchone()


OWNER = {"agent_id": "agent-1", "role": "owner", "now": T0}


def create_xml(db, xml, ctx=OWNER):
    return json.loads(one(db, "SELECT trigger_create_xml(?, ?)", xml, json.dumps(ctx)))


def test_values_trimmed_and_key_names(ext):
    db = connect(ext)
    r = xml(db, "<response><instructions>\t\r hi \r\t</instructions>"
                "<triggerType>once</triggerType>"
                "<scheduled_at>2026-01-02T00:00:00Z</scheduled_at></response>")
    assert r["created"], r
    assert db.execute("SELECT instructions, trigger_type, scheduled_at FROM triggers").fetchone() \
        == ("hi", "once", T0 + 86400000)


def test_enabled_words(ext):
    db = connect(ext)
    for word, enabled in (("no", 0), ("yes", 1), ("TRUE", 1), ("False", 0)):
        r = xml(db, f"<response><instructions>{word}</instructions>{IV}"
                    f"<enabled>{word}</enabled></response>")
        assert r["created"], r
        assert one(db, "SELECT enabled FROM triggers WHERE trigger_id = ?",
                   r["triggerId"]) == enabled, word
    r = xml(db, f"<response><instructions>d</instructions>{IV}<enabled>maybe</enabled></response>")
    assert (r["error"], r["reason"]) == ("INVALID_REQUEST",
                                         "triggers.enabled: 'maybe' is not an integer"), r


def test_refused_elements(ext):
    db = connect(ext)
    cases = [
        ("<response><instructions>a</instructions><intervalMs>12345678901234567</intervalMs>"
         "</response>", "INVALID_SCHEDULE",
         "element <intervalMs>: '12345678901234567' is not a whole number of "
         "milliseconds in range 0-2^53"),
        ("<response><instructions>hi <b>x</b></instructions></response>", "INVALID_REQUEST",
         "element <instructions> must contain text only, found <b>"),
        ("x <response", "INVALID_REQUEST",
         "malformed XML at line 1, column 12 (byte 11): Couldn't find end of Start Tag "
         "response line 1"),
        ("<response>\t", "INVALID_REQUEST",
         "malformed XML at line 1, column 12 (byte 11): Premature end of data in tag "
         "response line 1"),
        ("a </", "INVALID_REQUEST",
         "malformed XML at line 1, column 1 (byte 0): Start tag expected, '<' not found"),
        ("<response><!DOCTYPE x></response> <!--", "INVALID_REQUEST",
         "XML declarations such as <!DOCTYPE> or <!ENTITY> are not allowed (byte 10)"),
    ]
    for text, code, reason in cases:
        r = xml(db, text)
        assert (r["success"], r["error"], r["reason"]) == (False, code, reason), (text, r)
    assert one(db, "SELECT count(*) FROM triggers") == 0


def test_prose_after_and_unknown_markup(ext):
    db = connect(ext)
    r = xml(db, f"<response><instructions>e</instructions>{IV}</response> trailing <b>")
    assert r["created"] and "ignored" not in r, r
    r = xml(db, f"<response><instructions>f</instructions><extra><x>1</x></extra>{IV}</response>")
    assert r["created"] and r["ignored"] == ["extra"], r


def test_accepted_forms(ext):
    db = connect(ext)
    cases = (
        (f"<response><instructions>&#13;a1&#13;</instructions>{IV}</response>", "a1"),
        (f"<response><instructions>&#13;&#10;\ta2 &#13;</instructions>{IV}"
         "<displayName/></response>", "a2"),
        (f"<response><instructions>a3</instructions>{IV}<displayName></displayName>"
         "<foo/></response>", "a3"),
        (f"<response><instructions>a4</instructions>{IV}</response><", "a4"),
        (f"<response><instructions>a5</instructions>{IV}</response></", "a5"),
        (f"text < <response><instructions>a6</instructions>{IV}</response> tail", "a6"),
        (f"<response><instructions>a7</instructions>{IV}<![CDATA[ x ]]></response>", "a7"),
    )
    for text, name in cases:
        assert row(db, xml(db, text)) == (name, name), text
    assert one(db, "SELECT count(*) FROM triggers") == len(cases)


def test_refused_forms(ext):
    db = connect(ext)
    body = f"<instructions>b</instructions>{IV}"
    cases = (
        (f"<other>{body}</other>", "the root element must be <response>, got <other>"),
        (f"<response>{body}</response",
         "malformed XML at line 1, column 117 (byte 116): expected '>'"),
        (f"<response>{body}",
         "malformed XML at line 1, column 107 (byte 106): Premature end of data in tag "
         "response line 1"),
        (f"<response>{body}</Response >", "malformed XML at line 1, column 119 (byte 118): "
         "Opening and ending tag mismatch: response line 1 and Response"),
        (f"<Response>{body}</RESPONSE>", "malformed XML at line 1, column 118 (byte 117): "
         "Opening and ending tag mismatch: Response line 1 and RESPONSE"),
        (f"<response><instructions>b</instructions>{IV}<b </response>",
         "malformed XML at line 1, column 110 (byte 109): Couldn't find end of Start Tag b "
         "line 1"),
        (f"<response>{body}<instructions/></response>",
         "element <instructions> appears more than once (as <instructions> too)"),
        (f"<response>{body}<!DOCTYPE x></response>",
         "XML declarations such as <!DOCTYPE> or <!ENTITY> are not allowed (byte 106)"),
        (f"<!doctype response><response>{body}</response>",
         "XML declarations such as <!DOCTYPE> or <!ENTITY> are not allowed (byte 0)"),
    )
    for text, reason in cases:
        r = xml(db, text)
        assert (r["created"], r["error"], r["reason"]) == (False, "INVALID_REQUEST", reason), r
    assert one(db, "SELECT count(*) FROM triggers") == 0


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
