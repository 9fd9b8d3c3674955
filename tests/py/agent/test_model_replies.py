"""tests/py/agent/test_model_replies.py -- the corpus of untidy model replies
(tests/corpus/model_replies.jsonl, hand-labelled): each reply, XML through
trigger_create_xml or JSON through trigger_create, gives the labelled
trigger (its instructions and schedule columns) or the labelled refusal
with its exact reason, which says where a really broken reply broke
(docs/create-action.md#untidy-replies-normalization-and-ignored). A
refusal writes no trigger."""
import json
import os

from util import ROOT, connect, create, one

CORPUS = os.path.join(ROOT, "tests", "corpus", "model_replies.jsonl")
COLUMNS = ("instructions", "trigger_type", "interval_ms", "cron_expression", "timezone")


def cases():
    with open(CORPUS, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def test_corpus_of_model_replies(ext):
    rows = cases()
    assert len(rows) >= 40 and {r["form"] for r in rows} == {"xml", "json"}
    wrong = []
    for i, case in enumerate(rows):
        db = connect(ext)
        fn = "trigger_create_xml" if case["form"] == "xml" else "trigger_create"
        r = create(db, case["reply"], fn=fn)
        if "expect" in case:
            cur = db.execute(f"SELECT {', '.join(COLUMNS)} FROM triggers")
            got = [dict(zip(COLUMNS, row)) for row in cur.fetchall()]
            want = {c: case["expect"].get(c) for c in COLUMNS}
            if not r.get("created") or got != [want]:
                wrong.append((i, case["note"], r, got))
        elif (r.get("error"), r.get("reason")) != (case["error"], case["reason"]) or \
                one(db, "SELECT count(*) FROM triggers") != 0:
            wrong.append((i, case["note"], r))
    assert not wrong, "\n".join(map(repr, wrong))
