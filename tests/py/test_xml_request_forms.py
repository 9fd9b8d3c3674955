"""tests/py/test_xml_request_forms.py -- trigger_create_xml inputs beside
test_xml_request_fields.py's: values with carriage returns given as
character references (trimmed), empty elements (<displayName/>: the
default), a stray '<' or '</' after the element or '<' in the prose
before it, an end tag cut short, the input ending inside the element,
a root element of another name, end tags spelled otherwise, a second
<instructions>, CDATA, and a declaration inside the element or in
lower case before it."""
import json

from util import T0, connect, one

CTX = json.dumps({"agent_id": "a", "role": "owner", "now": T0})
IV = "<intervalMs>900000</intervalMs><triggerType>interval</triggerType>"


def xml(db, text):
    return json.loads(one(db, "SELECT trigger_create_xml(?, ?)", text, CTX))


def row(db, r):
    assert r["created"], r
    return db.execute("SELECT instructions, display_name FROM triggers WHERE trigger_id = ?",
                      (r["triggerId"],)).fetchone()


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
        (f"<response>{body}</response", "malformed XML at line 1: expected '>'"),
        (f"<response>{body}",
         "malformed XML at line 1: Premature end of data in tag response line 1"),
        (f"<response>{body}</Response >", "malformed XML at line 1: Opening and ending "
         "tag mismatch: response line 1 and Response"),
        (f"<Response>{body}</RESPONSE>", "malformed XML at line 1: Opening and ending "
         "tag mismatch: Response line 1 and RESPONSE"),
        (f"<response><instructions>b<</instructions>{IV}</response>",
         "malformed XML at line 1: StartTag: invalid element name"),
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
