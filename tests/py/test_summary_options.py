"""tests/py/test_summary_options.py -- options of trigger_state_summary
that are not what docs/summary.md allows, each answered with the
fallback text (never an error): a ts that is no number or text, admin
given twice, an item without text followed by another, a ts as text."""
import json

from util import T0, connect, one

FALLBACK = "Admin context temporarily unavailable; continue with latest autonomous objective."


def summary(db, opts):
    return one(db, "SELECT trigger_state_summary('a1', ?, ?)", T0 + 60000, opts)


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
