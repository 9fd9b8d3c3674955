"""tests/py/test_summary_topic_chars.py -- first characters and
separators of admin directives beside test_summary_topics.py's: a text
beginning with a character just outside the letters ('[', '`', '{', '~',
'!') is no directive; a newline or carriage return after the colon
makes one, a vertical tab or the end of the text does not; questions
ending in '?' before vertical tabs and form feeds, or in a lone '?'."""
import json

from util import T0, connect, one


def admin(db, items):
    text = one(db, "SELECT trigger_state_summary('a1', ?, ?)", T0 + 60000,
               json.dumps({"admin": items}))
    return text.split("\n\nLoop")[0]


def pair(db, text):
    return admin(db, [{"ts": T0, "text": text}, {"ts": T0 + 1, "text": text + "2"}])


def test_directive_first_character_and_separator(ext):
    db = connect(ext)
    for text in ("~abc: x", "[abc: x", "!abc: x", "{abc: x", "`ab: x", "abc:", "abc:\x0bx"):
        shown = " ".join(text.split()) if "\x0b" not in text else "abc: x"
        assert pair(db, text) == ("Admin:\n- [open 2026-01-01T00:00:00.001Z] %s2\n"
                                  "- [open 2026-01-01T00:00:00Z] %s" % (shown, shown)), text
    for text, shown in (("abc:\nx", "abc: x"), ("abc:\rx", "abc: x"), ("Zed: x", "Zed: x"),
                        ("zed: x", "zed: x")):
        assert pair(db, text) == ("Admin:\n- [open 2026-01-01T00:00:00.001Z] %s2 "
                                  "[conflict: overrides 1 earlier]" % shown), text


def test_question_endings(ext):
    db = connect(ext)
    ask = "Hints: await_admin_confirmation\n\nAdmin:\n- [open 2026-01-01T00:00:00Z] "
    for text, shown in (("ok?\x0b", "ok?"), ("ok?\x0c\x0c", "ok?"), ("?", "?"),
                        ("ok\uff1f\r", "ok\uff1f")):
        assert admin(db, [{"ts": T0, "text": text}]) == ask + shown, text
    assert admin(db, [{"ts": T0, "text": "ok\x0b"}]) == \
        "Admin:\n- [open 2026-01-01T00:00:00Z] ok"
