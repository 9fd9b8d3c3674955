"""tests/py/util/when_corpus.py -- loads tests/corpus/when_messages.jsonl and
scores answers to it: ours (trigger_find_when) in tests/py/sql/test_when_corpus.py
and a peer's (chrono-node, bench/when_peer.py), by the same rules
(docs/when.md#corpus).

An answer is {"confident", "kind", "due_ms", "interval_ms", "next"}; each
message gets one verdict:
- right: a schedule at confidence >= 0.5 that equals the expected one (the
  same instant for once, the same interval, the same next 3 occurrences for
  cron and rrule), or confidence < 0.5 on a message that is no schedule;
- confident_wrong: confidence >= 0.5 and another schedule, or any schedule
  at >= 0.5 on a message that is none;
- missed: confidence < 0.5 on a message that is a schedule.
"""
import datetime as dt
import json
import os
import re

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "..", "..", "corpus", "when_messages.jsonl")
MIN_CONFIDENCE = 0.5
VERDICTS = ("right", "confident_wrong", "missed")


def load(path=CORPUS):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def iso_ms(text):
    return int(dt.datetime.fromisoformat(text).timestamp() * 1000)


def is_one_time(msg):
    """Messages of the one-time part: expected once, or no schedule."""
    e = msg["expect"]
    return e.get("schedule") is False or e.get("kind") == "once"


def preview(db, spec, after_ms, tz):
    """The next 3 occurrences of a cron line or a JSON spec, by the engine."""
    try:
        rows = db.execute("SELECT due_at FROM trigger_preview(?, ?, ?) LIMIT 3", (spec, after_ms, tz)).fetchall()
    except Exception:
        return None
    return [r[0] for r in rows]


def rrule_next(rule, start_ms, tz, after_ms, count=3):
    """The first `count` occurrences after after_ms (UTC ms) of RECUR value
    `rule` whose DTSTART is start_ms's wall-clock time in tz, expanded by
    python-dateutil (the oracle, independent of the engine): wall-clock
    times to instants by RFC 5545's rule (a time in a gap moves forward by
    the gap, a repeated one takes its first pass: zoneinfo's fold=0)."""
    from zoneinfo import ZoneInfo
    from dateutil import rrule as du
    zone = ZoneInfo(tz)
    start = dt.datetime.fromtimestamp(start_ms / 1000, zone).replace(tzinfo=None)
    out = []
    for wall in du.rrulestr(rule, dtstart=start):
        ms = int(wall.replace(tzinfo=zone).timestamp() * 1000)
        if ms > after_ms and ms not in out:
            out.append(ms)
        if len(out) == count or wall.year > start.year + 50:
            break
    return out


def find_when(db, msg):
    text = db.execute("SELECT trigger_find_when(?, ?, ?)", (msg["text"], msg["now"], msg["tz"])).fetchone()[0]
    return json.loads(text)


def our_answer(db, msg, res):
    """trigger_find_when's result as an answer; a recurring schedule also
    as its next 3 occurrences after now (how cron and rrule expectations
    are compared, whatever kind the answer has)."""
    ans = {"confident": (res.get("confidence") or 0) >= MIN_CONFIDENCE, "kind": res.get("kind"),
           "due_ms": res.get("due_at"), "interval_ms": res.get("interval_ms"), "next": None}
    now_ms, tz = iso_ms(msg["now"]), res.get("tz") or msg["tz"]
    if ans["kind"] == "interval" and ans["interval_ms"]:
        ans["next"] = [now_ms + k * ans["interval_ms"] for k in (1, 2, 3)]
    elif ans["kind"] == "cron":
        ans["next"] = preview(db, res["cron"], now_ms, tz)
    elif ans["kind"] == "rrule" and res.get("rrule") and res.get("start_at") is not None:
        ans["next"] = rrule_next(res["rrule"], res["start_at"], tz, now_ms)
    return ans


def same_schedule(expect, ans):
    kind = expect["kind"]
    if kind == "once":
        return ans["kind"] == "once" and ans["due_ms"] == iso_ms(expect["due"])
    if kind == "interval":
        return ans["kind"] == "interval" and ans["interval_ms"] == expect["interval_ms"]
    return ans["next"] is not None and ans["next"] == [iso_ms(x) for x in expect["next"]]


def verdict(msg, ans):
    e = msg["expect"]
    if e.get("schedule") is False:
        return "confident_wrong" if ans["confident"] else "right"
    if not ans["confident"]:
        return "missed"
    return "right" if same_schedule(e, ans) else "confident_wrong"


def norm_rest(text):
    text = re.sub(r"\s+", " ", text or "").strip().lower()
    return re.sub(r"[\s.!?,;:]+$", "", text)


def rest_right(msg, res):
    return res.get("rest") is not None and norm_rest(res["rest"]) == norm_rest(msg["rest"])


def tally(rows):
    """rows: (msg, verdict) -> {"n", "right", "confident_wrong", "missed"}."""
    t = {"n": 0, **{v: 0 for v in VERDICTS}}
    for _, v in rows:
        t["n"] += 1
        t[v] += 1
    return t


def pct(k, n):
    return 100.0 * k / n if n else 0.0


def expected_text(msg):
    e = msg["expect"]
    if e.get("schedule") is False:
        return "no schedule"
    if e["kind"] == "once":
        return e["due"]
    if e["kind"] == "interval":
        return f"every {e['interval_ms']} ms"
    return f"{e['kind']} {e.get('cron') or e.get('rrule')} -> {e['next'][0]}, ..."


def got_text(res):
    conf = res.get("confidence") or 0
    what = {"once": res.get("due_at_iso"), "interval": f"every {res.get('interval_ms')} ms",
            "cron": f"cron {res.get('cron')} -> {res.get('due_at_iso')}",
            "rrule": f"rrule {res.get('rrule')} -> {res.get('due_at_iso')}"}.get(res.get("kind"), "nothing")
    out = f"{conf:.2f} {what}"
    if res.get("phrase"):
        out += f" phrase={res['phrase']!r}"
    if res.get("reason"):
        out += f" reason={res['reason']!r}"
    return out
