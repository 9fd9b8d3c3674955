"""tests/py/tick/test_wakeup.py -- trigger_next_wakeup (ext/tick/fn_wakeup.c):
the time to the next thing the tick would take, following the tick's
filters (agents, wake_mode; another agent's overdue trigger, lease or
retry is not a reason to wake), a jittered trigger pending neither
claimed nor blocking; and state rows changed outside the extension
(docs/tables.md): a next_due_at that is no number is never due (the walk
ends there), a fire_at that is a real or before next_due_at counts as
next_due_at, a real next_due_at is a number."""
import json
import sqlite3

from util import MIN, T0, add, connect, finish, one, tick


def wakeup(db, opts="{}"):
    return one(db, "SELECT trigger_next_wakeup(?, ?)", T0, opts)


def test_changed_state_rows(ext):
    # (next_due_at = 'x' is refused by the STRICT table since schema 6)
    cases = [
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


def test_next_wakeup(ext):
    db = connect(ext)
    assert one(db, "SELECT trigger_next_wakeup(?)", T0) is None
    add(db, "t")
    assert one(db, "SELECT trigger_next_wakeup(?)", T0) == MIN
    assert one(db, "SELECT trigger_next_wakeup(?)", T0 + 2 * MIN) == 0


def test_jitter_pending_trigger_neither_claimed_nor_blocking(ext):
    # "a" is due first but its jitter puts its fire time later; "b" is due
    # after it with no jitter. A tick between the two fire times claims
    # only "b"; the wakeup points at a's jittered fire time; health counts
    # only b as overdue before the tick.
    db = connect(ext)
    add(db, "a", trigger_type="once", scheduled_at=T0 + 10, jitter_ms=3600000)
    add(db, "b", trigger_type="once", scheduled_at=T0 + 20)
    fire_a = one(db, "SELECT fire_at FROM triggers_state WHERE trigger_id = 'a'")
    assert fire_a > T0 + 1000  # this id and occurrence jitter by > 1 s
    now = T0 + 30
    assert json.loads(one(db, "SELECT trigger_health(?)", now))["overdue"] == 1
    assert one(db, "SELECT trigger_next_wakeup(?)", now) == 0
    [rb] = tick(db, now)
    assert rb["trigger_id"] == "b"
    finish(db, rb["run_id"], "success", None, now)
    assert one(db, "SELECT trigger_next_wakeup(?)", now) == fire_a - now
    assert tick(db, fire_a - 1) == []
    [r] = tick(db, fire_a)
    assert r["trigger_id"] == "a" and r["scheduled_for"] == T0 + 10


def test_next_wakeup_follows_the_tick_filters(ext):
    # A host serving agent "a" (or one wake_mode) is woken for what its own
    # tick would take, not for another agent's overdue trigger or lease.
    db = connect(ext)
    add(db, "b-late", agent_id="b", trigger_type="once", scheduled_at=T0 - 3600000)
    add(db, "a-soon", agent_id="a", trigger_type="once", scheduled_at=T0 + 10 * MIN)
    add(db, "a-now", agent_id="a", trigger_type="once", scheduled_at=T0 + 5 * MIN,
        wake_mode="inject_now")
    add(db, "b-run", agent_id="b", trigger_type="once", scheduled_at=T0 - 1000)
    wake = lambda opts=None: one(db, "SELECT trigger_next_wakeup(?, ?)", T0, opts)
    assert wake() == 0
    assert wake('{"agents":["a"]}') == 5 * MIN
    assert wake('{"agents":["a"],"wake_mode":"next_autonomy_cycle"}') == 10 * MIN
    assert wake('{"wake_mode":"inject_now"}') == 5 * MIN
    assert wake('{"agents":[]}') is None
    assert wake('{"agents":["nobody", 7]}') is None
    # b's run is claimed with a 1-minute lease: a's wakeup ignores it
    tick(db, T0, agents=["b"], lease_ms=MIN)
    assert wake('{"agents":["b"]}') == MIN
    assert wake('{"agents":["a"]}') == 5 * MIN
    # a retry of b (failed with attempts left) is b's, not a's
    add(db, "b-retry", agent_id="b", trigger_type="once", scheduled_at=T0,
        max_attempts=2, backoff_ms=2 * MIN)
    [r] = [x for x in tick(db, T0, agents=["b"]) if x["trigger_id"] == "b-retry"]
    finish(db, r["run_id"], "failed", "boom", T0)
    assert one(db, "SELECT trigger_next_wakeup(?, ?)", T0 + 1, '{"agents":["b"]}') == MIN - 1
    assert wake('{"agents":["a"]}') == 5 * MIN
    # the same options text as the tick, including keys the wakeup ignores
    assert wake('{"agents":["a"],"owner":"h","limit":5,"lease_ms":1000,"ack":true}') == 5 * MIN
    try:
        wake('{"colour":1}')
        assert False
    except sqlite3.Error as e:
        assert "trigger_next_wakeup: options: unknown key 'colour'" in str(e), e
