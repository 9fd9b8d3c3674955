"""tests/py/test_summary_edges.py -- admin item forms test_summary.py does
not give (docs/summary.md, "Options"): `resolved` as 0/1 and null, a
value of another type (the fallback), and an item whose text holds a lone
surrogate escape (repaired to U+FFFD, never the reason for the fallback)."""
import json

from util import T0, connect, one

FALLBACK = "Admin context temporarily unavailable; continue with latest autonomous objective."


def admin_lines(db, items):
    text = one(db, "SELECT trigger_state_summary('a1', ?, ?)", T0 + 60000,
               items if isinstance(items, str) else json.dumps({"admin": items}))
    return text if text == FALLBACK else text.split("\n\n")[0].split("\n")[1:]


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
