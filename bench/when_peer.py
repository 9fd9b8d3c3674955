#!/usr/bin/python3
"""bench/when_peer.py -- ours (trigger_find_when) and chrono-node side by side
on the one-time part of the message corpus (expected "once" or no schedule),
scored by the same rules (tests/py/util/when_corpus.py). Run by bench/when_peer.sh.

    /usr/bin/python3 bench/when_peer.py EXT CHRONO_ANSWERS_JSONL [--list]

--list also prints every message the two score differently.
"""
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "py"))
from util import connect, when_corpus as wc  # noqa: E402


def chrono_answer(row):
    return {"confident": row["due_ms"] is not None, "kind": "once", "due_ms": row["due_ms"],
            "interval_ms": None, "next": None}


def line(name, t):
    return (f"{name:26s} {t['n']:4d}  right {t['right']:4d} ({wc.pct(t['right'], t['n']):5.1f}%)  "
            f"confident-wrong {t['confident_wrong']:4d} ({wc.pct(t['confident_wrong'], t['n']):5.1f}%)  "
            f"missed {t['missed']:4d} ({wc.pct(t['missed'], t['n']):5.1f}%)")


def main():
    ext, answers = sys.argv[1], sys.argv[2]
    with open(answers, encoding="utf-8") as f:
        rows = [json.loads(x) for x in f if x.strip()]
    version = rows[0]["version"]
    chrono = {r["id"]: r for r in rows[1:]}
    db = connect(ext, install=False)
    ours, peer, differ = [], [], []
    for msg in wc.load():
        if not wc.is_one_time(msg):
            continue
        res = wc.find_when(db, msg)
        v_ours = wc.verdict(msg, wc.our_answer(db, msg, res))
        v_peer = wc.verdict(msg, chrono_answer(chrono[msg["id"]]))
        ours.append((msg, v_ours))
        peer.append((msg, v_peer))
        if v_ours != v_peer:
            differ.append((msg, v_ours, v_peer, res, chrono[msg["id"]]))
    print(f"one-time part of the corpus: {len(ours)} messages "
          f"({sum(1 for m, _ in ours if m['expect'].get('kind') == 'once')} once, "
          f"{sum(1 for m, _ in ours if m['expect'].get('schedule') is False)} no schedule)")
    print(line("ours (trigger_find_when)", wc.tally(ours)))
    print(line(f"chrono-node {version}", wc.tally(peer)))
    print("by family (right / confident-wrong / missed: ours | chrono):")
    for fam in sorted({m["family"] for m, _ in ours}):
        a = wc.tally([x for x in ours if x[0]["family"] == fam])
        b = wc.tally([x for x in peer if x[0]["family"] == fam])
        print(f"  {fam:24s} {a['n']:3d}   {a['right']:3d} {a['confident_wrong']:3d} {a['missed']:3d}"
              f"   | {b['right']:3d} {b['confident_wrong']:3d} {b['missed']:3d}")
    if "--list" in sys.argv[3:]:
        print("scored differently (ours | chrono):")
        for msg, a, b, res, c in differ:
            print(f"  {msg['id']}  {msg['text']!r}: expected {wc.expected_text(msg)}")
            print(f"      ours {a}: {wc.got_text(res)}")
            print(f"      chrono {b}: {c['text']!r} -> {c['due_ms']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
