"""tests/py/sql/test_when_rrule_corpus.py -- calendar rules read from
messages (docs/when.md#calendar-rules) on tests/corpus/when_rrule.jsonl
(written by tests/corpus/make_rrule_corpus.py: phrases labelled by hand
with their RFC 5545 rule, said in several zones, some on the eve of a DST
change, inside messages of a few shapes, and negatives).

A positive is right when trigger_find_when answers kind "rrule" at
confidence >= 0.5 and its rule, expanded by python-dateutil from its
start_at (the oracle, not the engine), gives the expected next 5
occurrences; its rest is the task; a phrase that excepts holidays names
config default_calendar. A negative is right when it is not a rule at
confidence >= 0.5. Prints the score; every message must be right."""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # alone: util
from util import connect, when_corpus as wc

CORPUS = os.path.join(os.path.dirname(wc.CORPUS), "when_rrule.jsonl")
CALENDAR = "us-holidays"


def judge(db, msg):
    """None when right, else why not."""
    res = wc.find_when(db, msg)
    e = msg["expect"]
    rule = res.get("kind") == "rrule" and (res.get("confidence") or 0) >= wc.MIN_CONFIDENCE
    if e["rrule"] is False:
        return f"read as a rule: {res.get('rrule')}" if rule else None
    if not rule:
        return f"not a rule: {wc.got_text(res)}"
    got = wc.rrule_next(res["rrule"], res["start_at"], msg["tz"], wc.iso_ms(msg["now"]),
                        len(e["next"]))
    if got != [wc.iso_ms(x) for x in e["next"]]:
        return f"{res['rrule']} from {res['start_at']}: other occurrences"
    if res["due_at"] != got[0]:
        return "due_at is not the first occurrence"
    if res.get("calendar") != e.get("calendar"):
        return f"calendar {res.get('calendar')!r}"
    if wc.norm_rest(res.get("rest")) != wc.norm_rest(msg["rest"]):
        return f"rest {res.get('rest')!r}"
    return None


def test_when_rrule_corpus(ext):
    db = connect(ext)
    db.execute("INSERT INTO triggers_config(key, value) VALUES ('default_calendar', ?)",
               (CALENDAR,))
    msgs = wc.load(CORPUS)
    wrong = [(m, why) for m in msgs for why in [judge(db, m)] if why]
    pos = sum(1 for m in msgs if m["expect"]["rrule"])
    zones = len({m["tz"] for m in msgs})
    print(f"rrule corpus: {len(msgs)} messages ({pos} rules, {len(msgs) - pos} not), "
          f"{zones} zones: right {len(msgs) - len(wrong)}")
    for m, why in wrong:
        print(f"  {m['id']} {m['text']!r} ({m['tz']}): {why}")
    assert not wrong, f"{len(wrong)} wrong"
    assert len(msgs) >= 150 and pos >= 100 and len(msgs) - pos >= 30


def test_except_holidays_needs_a_calendar(ext):
    db = connect(ext)
    res = json.loads(db.execute(
        "SELECT trigger_parse_when('every weekday at 9am except holidays',"
        " '2025-03-05T10:00:00Z', 'UTC')").fetchone()[0])
    assert res["kind"] is None and res["confidence"] == 0, res
    assert "default_calendar" in res["reason"], res
