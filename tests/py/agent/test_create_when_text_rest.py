"""tests/py/agent/test_create_when_text_rest.py -- trigger_create's "when_text"
without instructions: the text around the phrase becomes the
instructions ("remind me to call"); a text that is the phrase alone, or
the phrase with blanks and a comma, leaves none (refused: instructions
is NOT NULL), as does a bare "when"; with instructions given, they are
kept."""
import json

from util import T0, connect, one

OWNER = {"agent_id": "a", "role": "owner", "now": T0}
DUE = T0 + 33 * 3600000  # tomorrow 09:00Z


def create(db, req):
    return json.loads(one(db, "SELECT trigger_create(?, ?)", json.dumps(req), json.dumps(OWNER)))


def test_rest_of_the_text(ext):
    db = connect(ext)
    for req in ({"when_text": "tomorrow at 9am"}, {"when_text": "  tomorrow at 9am ,"},
                {"when": "tomorrow at 9am"}):
        r = create(db, req)
        assert (r["created"], r["error"], r["reason"]) == (
            False, "INVALID_REQUEST", "NOT NULL constraint failed: triggers.instructions"), (req, r)
    for req, ins in (({"when_text": "remind me tomorrow at 9am to call"}, "remind me to call"),
                     ({"when_text": "tomorrow at 9am", "instructions": "x"}, "x")):
        r = create(db, req)
        assert r["created"], (req, r)
        assert db.execute("SELECT instructions, scheduled_at FROM triggers WHERE trigger_id = ?",
                          (r["triggerId"],)).fetchone() == (ins, DUE), req
