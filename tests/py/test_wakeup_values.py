"""tests/py/test_wakeup_values.py -- trigger_next_wakeup over state rows
changed outside the extension (DESIGN.md §4) and wake modes: a
next_due_at that is no number is never due (the walk ends there), a
fire_at that is a real or before next_due_at counts as next_due_at, a
real next_due_at is a number; a wake_mode filter skips the others."""
from util import MIN, T0, add, connect, one


def wakeup(db, opts="{}"):
    return one(db, "SELECT trigger_next_wakeup(?, ?)", T0, opts)


def test_changed_state_rows(ext):
    cases = [
        ("next_due_at = 'x'", 10 * MIN),
        (f"fire_at = {float(T0 + 2 * MIN)!r}", 5 * MIN),
        (f"fire_at = {T0 - MIN}", 5 * MIN),
        (f"next_due_at = {float(T0 + 3 * MIN)!r}, fire_at = {float(T0 + 3 * MIN)!r}", 3 * MIN),
    ]
    for change, want in cases:
        db = connect(ext)
        add(db, "a", interval_ms=5 * MIN, start_at=T0 + 5 * MIN)
        add(db, "b", interval_ms=10 * MIN, start_at=T0 + 10 * MIN)
        db.execute(f"UPDATE triggers_state SET {change} WHERE id = "
                   "(SELECT id FROM triggers_data WHERE trigger_id = 'a')")
        assert wakeup(db) == want, change
        assert wakeup(db, '{"wake_mode":"next_autonomy_cycle"}') == want, change
        assert wakeup(db, '{"wake_mode":"inject_now"}') is None, change


def test_wake_mode_filter(ext):
    db = connect(ext)
    add(db, "a", interval_ms=5 * MIN, start_at=T0 + 5 * MIN, wake_mode="inject_now")
    add(db, "b", interval_ms=10 * MIN, start_at=T0 + 2 * MIN)
    assert wakeup(db) == 2 * MIN
    assert wakeup(db, '{"wake_mode":"inject_now"}') == 5 * MIN
    assert wakeup(db, '{"wake_mode":"next_autonomy_cycle"}') == 2 * MIN
    assert wakeup(db, '{"agents":[""]}') == 2 * MIN
    assert wakeup(db, '{"agents":["x", 5]}') is None
