"""tests/py/test_summary_cooldown.py -- the latest failure's cooldown in
trigger_state_summary when no retry is queued: a trigger paused after
repeated failures (no pause hint: it is paused already; resume instead),
and a once trigger that has no further runs."""
from util import MIN, T0, add, connect, finish, one, tick


def loop_line(db):
    text = one(db, "SELECT trigger_state_summary('a1', ?)", T0 + 3 * MIN)
    head = text.split("\n\n")[0]
    return head, [ln for ln in text.split("\n") if ln.startswith("- last failure")][0]


def test_paused_after_failures(ext):
    db = connect(ext)
    add(db, "f", agent_id="a1", interval_ms=MIN, start_at=T0)
    for k in range(2):
        [r] = tick(db, T0 + k * MIN)
        finish(db, r["run_id"], "failed", "boom", now=T0 + k * MIN + 1)
    one(db, "SELECT trigger_pause('f', ?)", T0 + 2 * MIN)
    head, line = loop_line(db)
    assert head == "Hints: resume", head
    assert line == ("- last failure 2026-01-01T00:01:00.001Z do f (f); cooldown: trigger "
                    "paused; 2 consecutive failures; error: boom"), line


def test_no_further_runs(ext):
    db = connect(ext)
    add(db, "o", agent_id="a1", trigger_type="once", scheduled_at=T0 + MIN)
    [r] = tick(db, T0 + MIN)
    finish(db, r["run_id"], "failed", "bad", now=T0 + MIN + 1)
    head, line = loop_line(db)
    assert not head.startswith("Hints"), head
    assert line == ("- last failure 2026-01-01T00:01:00.001Z do o (o); cooldown: no further "
                    "runs (completed); error: bad"), line
