"""tests/py/agent/test_summary_failures.py -- the latest failure's line in
trigger_state_summary (ext/agent/fn_summary.c, docs/summary.md): its
cooldown when no retry is queued (a trigger paused after repeated
failures: no pause hint, it is paused already, resume instead; a once
trigger that has no further runs), a queued retry that is due already
("retry due now"), a failure reported without an error (shown as the
error text the run stored), an empty display name (the instructions are
shown), an error with runs of blanks (collapsed), and a failure whose
trigger was deleted since (no cooldown)."""
from util import MIN, T0, add, connect, finish, one, tick


def head_and_failure_line(db):
    text = one(db, "SELECT trigger_state_summary('a1', ?)", T0 + 3 * MIN)
    head = text.split("\n\n")[0]
    return head, [ln for ln in text.split("\n") if ln.startswith("- last failure")][0]


def failure_line(db, now):
    text = one(db, "SELECT trigger_state_summary('a1', ?)", now)
    return [ln for ln in text.split("\n") if ln.startswith("- last failure")][0]


def test_paused_after_failures(ext):
    db = connect(ext)
    add(db, "f", agent_id="a1", interval_ms=MIN, start_at=T0)
    for k in range(2):
        [r] = tick(db, T0 + k * MIN)
        finish(db, r["run_id"], "failed", "boom", now=T0 + k * MIN + 1)
    one(db, "SELECT trigger_pause('f', ?)", T0 + 2 * MIN)
    head, line = head_and_failure_line(db)
    assert head == "Hints: resume", head
    assert line == ("- last failure 2026-01-01T00:01:00.001Z do f (f); cooldown: trigger "
                    "paused; 2 consecutive failures; error: boom"), line


def test_no_further_runs(ext):
    db = connect(ext)
    add(db, "o", agent_id="a1", trigger_type="once", scheduled_at=T0 + MIN)
    [r] = tick(db, T0 + MIN)
    finish(db, r["run_id"], "failed", "bad", now=T0 + MIN + 1)
    head, line = head_and_failure_line(db)
    assert not head.startswith("Hints"), head
    assert line == ("- last failure 2026-01-01T00:01:00.001Z do o (o); cooldown: no further "
                    "runs (completed); error: bad"), line


def test_retry_at_then_due_now(ext):
    db = connect(ext)
    add(db, "r", agent_id="a1", interval_ms=MIN, start_at=T0, max_attempts=3)
    [r] = tick(db, T0)
    finish(db, r["run_id"], "failed", None, now=T0 + 1)
    assert failure_line(db, T0 + 2) == (
        "- last failure 2026-01-01T00:00:00.001Z do r (r); cooldown: retry at "
        "2026-01-01T00:00:30.001Z; error: failed")
    assert failure_line(db, T0 + 10 * MIN) == (
        "- last failure 2026-01-01T00:00:00.001Z do r (r); cooldown: retry due now; "
        "error: failed")


def test_empty_name_blank_error_and_deleted_trigger(ext):
    db = connect(ext)
    add(db, "d", agent_id="a1", interval_ms=MIN, start_at=T0, display_name="",
        instructions="do\t\td")
    [r] = tick(db, T0)
    finish(db, r["run_id"], "failed", "  x\t\t\ny \r ", now=T0 + 1)
    assert failure_line(db, T0 + 2) == (
        "- last failure 2026-01-01T00:00:00.001Z do d (d); cooldown: next run "
        "2026-01-01T00:01:00Z; error: x y")
    db.execute("DELETE FROM triggers WHERE trigger_id = 'd'")
    assert failure_line(db, T0 + 2) == (
        "- last failure 2026-01-01T00:00:00.001Z d (deleted trigger); cooldown: none; "
        "error: x y")
