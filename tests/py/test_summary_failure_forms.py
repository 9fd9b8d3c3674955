"""tests/py/test_summary_failure_forms.py -- the latest failure's line in
trigger_state_summary for cases test_summary.py and
test_summary_cooldown.py do not give: a queued retry that is due already
("retry due now"), a failure reported without an error (shown as the
error text the run stored), an empty display name (the instructions are
shown), an error with runs of blanks (collapsed), and a failure whose
trigger was deleted since (no cooldown)."""
from util import MIN, T0, add, connect, finish, one, tick


def loop_line(db, now):
    text = one(db, "SELECT trigger_state_summary('a1', ?)", now)
    return [ln for ln in text.split("\n") if ln.startswith("- last failure")][0]


def test_retry_at_then_due_now(ext):
    db = connect(ext)
    add(db, "r", agent_id="a1", interval_ms=MIN, start_at=T0, max_attempts=3)
    [r] = tick(db, T0)
    finish(db, r["run_id"], "failed", None, now=T0 + 1)
    assert loop_line(db, T0 + 2) == (
        "- last failure 2026-01-01T00:00:00.001Z do r (r); cooldown: retry at "
        "2026-01-01T00:00:30.001Z; error: failed")
    assert loop_line(db, T0 + 10 * MIN) == (
        "- last failure 2026-01-01T00:00:00.001Z do r (r); cooldown: retry due now; "
        "error: failed")


def test_empty_name_blank_error_and_deleted_trigger(ext):
    db = connect(ext)
    add(db, "d", agent_id="a1", interval_ms=MIN, start_at=T0, display_name="",
        instructions="do\t\td")
    [r] = tick(db, T0)
    finish(db, r["run_id"], "failed", "  x\t\t\ny \r ", now=T0 + 1)
    assert loop_line(db, T0 + 2) == (
        "- last failure 2026-01-01T00:00:00.001Z do d (d); cooldown: next run "
        "2026-01-01T00:01:00Z; error: x y")
    db.execute("DELETE FROM triggers WHERE trigger_id = 'd'")
    assert loop_line(db, T0 + 2) == (
        "- last failure 2026-01-01T00:00:00.001Z d (deleted trigger); cooldown: none; "
        "error: x y")
