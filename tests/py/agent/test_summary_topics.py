"""tests/py/agent/test_summary_topics.py -- which admin texts are directives
on a topic (docs/summary.md#conflicting-directives): leading white space, tabs after
the colon, every character a topic may hold, case; and texts that are no
directive (a digit first, a character no topic holds, no space after the
colon, no colon, a character just outside the letters first: '[', '`',
'{', '~', '!'); a newline or carriage return after the colon makes one, a
vertical tab or the end of the text does not; questions ending in '?'
after trailing white space, before vertical tabs and form feeds, in a
lone '?' or in the full-width U+FF1F; control characters collapsed in
shown text; a long item cut on a character; the order of future and
stale items."""
import json

from util import T0, connect, one


def admin(db, items):
    text = one(db, "SELECT trigger_state_summary('a1', ?, ?)", T0 + 60000,
               json.dumps({"admin": items}))
    head, admin_seg = text.split("\n\n")[:2] if text.startswith("Hints") else (None, text.split("\n\n")[0])
    return head, admin_seg.split("\n")[1:]


def admin_segment(db, items):
    text = one(db, "SELECT trigger_state_summary('a1', ?, ?)", T0 + 60000,
               json.dumps({"admin": items}))
    return text.split("\n\nLoop")[0]


def pair(db, text):
    return admin_segment(db, [{"ts": T0, "text": text}, {"ts": T0 + 1, "text": text + "2"}])


def test_directives_and_conflicts(ext):
    db = connect(ext)
    _, lines = admin(db, [{"ts": T0, "text": "\t\r\n Deploy: hold"},
                          {"ts": T0 + 1, "text": "DEPLOY:\tgo"},
                          {"ts": T0 + 2, "text": "a.b/c-d_e 9  : one"},
                          {"ts": T0 + 3, "text": "A.B/C-D_E 9: two"}])
    assert lines == [
        "- [open 2026-01-01T00:00:00.003Z] A.B/C-D_E 9: two [conflict: overrides 1 earlier]",
        "- [open 2026-01-01T00:00:00.001Z] DEPLOY: go [conflict: overrides 1 earlier]"], lines


def test_texts_that_are_no_directive(ext):
    db = connect(ext)
    texts = ["1abc: x", "ab*c: x", "abc:x", "abc", "abc: y"]
    _, lines = admin(db, [{"ts": T0 + i, "text": t} for i, t in enumerate(texts)])
    assert [line.split("] ", 1)[1] for line in lines] == list(reversed(texts)), lines


def test_questions_and_control_characters(ext):
    db = connect(ext)
    head, lines = admin(db, [{"ts": T0, "text": "ok?  \t"}])
    assert head == "Hints: await_admin_confirmation" and lines[0].endswith("] ok?"), (head, lines)
    head, lines = admin(db, [{"ts": T0, "text": "what\uff1f"}])
    assert head == "Hints: await_admin_confirmation", head
    head, lines = admin(db, [{"ts": T0, "text": "a\x01\x7f  b  \n"}])
    assert head is None and lines == ["- [open 2026-01-01T00:00:00Z] a b"], (head, lines)


def test_long_item_cut_on_a_character(ext):
    db = connect(ext)
    _, lines = admin(db, [{"ts": T0, "text": "\u00e9" * 200}])
    text = lines[0].split("] ", 1)[1]
    assert text == "\u00e9" * 138 + "...", text
    assert len(text.encode()) <= 280


def test_order_future_and_stale_items(ext):
    # equal ts: the later in the array first; a future ts is current (never
    # stale), newest; a question may end in any white space; an item older
    # than stale_ms is dropped and counted in the footer
    db = connect(ext)
    items = [{"ts": T0, "text": "first"}, {"ts": T0, "text": "second"},
             {"ts": T0 + 3600000, "text": "future?\r\n\x0b"},
             {"ts": T0 - 10**9, "text": "old"}]
    text = one(db, "SELECT trigger_state_summary('a1', ?, ?)", T0 + 60000,
               json.dumps({"admin": items, "stale_ms": 86400000}))
    segs = text.split("\n\n")
    assert segs[0] == "Hints: await_admin_confirmation", segs
    assert segs[1].split("\n")[1:] == [
        "- [open 2026-01-01T01:00:00Z] future?",
        "- [open 2026-01-01T00:00:00Z] second",
        "- [open 2026-01-01T00:00:00Z] first"], segs[1]
    assert segs[-1].endswith("; 1 stale admin item ignored."), segs[-1]


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
        assert admin_segment(db, [{"ts": T0, "text": text}]) == ask + shown, text
    assert admin_segment(db, [{"ts": T0, "text": "ok\x0b"}]) == \
        "Admin:\n- [open 2026-01-01T00:00:00Z] ok"
