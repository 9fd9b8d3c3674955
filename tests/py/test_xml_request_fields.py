"""tests/py/test_xml_request_fields.py -- trigger_create_xml's reading of
fields beyond test_create.py's: values trimmed of tabs and carriage
returns, an element named by its key (<scheduled_at>), <enabled> words,
a number of milliseconds too long, a field holding markup, an unknown
element holding markup (ignored, listed), prose after the element, and
unfinished tags at the end of the input."""
import json

from util import T0, connect, one

CTX = json.dumps({"agent_id": "a", "role": "owner", "now": T0})
IV = "<intervalMs>900000</intervalMs><triggerType>interval</triggerType>"


def xml(db, text):
    return json.loads(one(db, "SELECT trigger_create_xml(?, ?)", text, CTX))


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
         "malformed XML at line 1: Couldn't find end of Start Tag response line 1"),
        ("<response>\t", "INVALID_REQUEST",
         "malformed XML at line 1: Premature end of data in tag response line 1"),
        ("a </", "INVALID_REQUEST", "malformed XML at line 1: Start tag expected, '<' not found"),
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
