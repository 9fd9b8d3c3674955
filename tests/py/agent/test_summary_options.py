"""tests/py/agent/test_summary_options.py -- options of
trigger_state_summary that are not what docs/summary.md allows, each
answered with the fallback text (never an error): a ts that is no number
or text, admin given twice, an item without text followed by another, a
ts as text; admin item forms: `resolved` as 0/1 and null, a value of
another type (the fallback), and an item whose text holds a lone
surrogate escape (repaired to U+FFFD, never the reason for the fallback)."""
import json

from util import T0, connect, one

FALLBACK = "Admin context temporarily unavailable; continue with latest autonomous objective."


def summary(db, opts):
    return one(db, "SELECT trigger_state_summary('a1', ?, ?)", T0 + 60000, opts)


def admin_lines(db, items):
    text = one(db, "SELECT trigger_state_summary('a1', ?, ?)", T0 + 60000,
               items if isinstance(items, str) else json.dumps({"admin": items}))
    return text if text == FALLBACK else text.split("\n\n")[0].split("\n")[1:]


def test_fallbacks(ext):
    db = connect(ext)
    for opts in ('{"admin":[{"ts":[1],"text":"x"}]}',
                 '{"admin":[{"ts":1,"text":"x"}],"admin":[]}',
                 '{"admin":[{"ts":1},{"ts":2,"text":"y"}]}',
                 '{"admin":[{"ts":1,"text":5}]}'):
        assert summary(db, opts).startswith(FALLBACK), opts


def test_ts_as_iso_text(ext):
    db = connect(ext)
    text = summary(db, json.dumps({"admin": [{"ts": "2026-01-01T00:00:30Z", "text": "x"}]}))
    assert "- [open 2026-01-01T00:00:30Z] x" in text, text


def test_resolved_forms(ext):
    db = connect(ext)
    items = [{"ts": T0 + 1, "text": "one", "resolved": 1},
             {"ts": T0 + 2, "text": "zero", "resolved": 0},
             {"ts": T0 + 3, "text": "null", "resolved": None},
             {"ts": T0 + 4, "text": "true", "resolved": True}]
    got = [(line.split()[1][1:], line.split()[-1]) for line in admin_lines(db, items)]
    assert got == [("open", "null"), ("open", "zero"), ("resolved", "true"),
                   ("resolved", "one")], got
    for bad in (2.5, "yes", [1]):
        assert admin_lines(db, [{"ts": T0, "text": "x", "resolved": bad}]) == FALLBACK, bad


def test_bad_text_is_repaired(ext):
    db = connect(ext)
    got = admin_lines(db, '{"admin":[{"ts":%d,"text":"bad \\udc80 x"}]}' % T0)
    assert got == ["- [open 2026-01-01T00:00:00Z] bad \ufffd x"], got
