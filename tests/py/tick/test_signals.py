"""tests/py/tick/test_signals.py -- event triggers (docs/reactive.md;
ext/trigger/signal.c, ext/tick/fn_signal.c, ext/tick/vtab_signals.c,
claim.c's process_event): trigger_signal makes every active event
trigger of its key due and the claimed run carries payload.event (key,
the last payload, at, count); an event trigger waits for the next signal
after its run; scheduled_at is a timeout ({"timeout":true}) that the
first signal overrides; INSERT INTO trigger_signals from an
application's SQL trigger under both trusted_schema settings, nothing
signalled by a rolled-back transaction; the signal an index probe
(steps independent of the other event triggers); bad values named and
nothing written; a paused trigger not signalled, its earlier signal due
at resume; signals nested through SQL triggers stopped at depth 16."""
import json
import sqlite3

from util import MIN, T0, add, connect, create, error, finish, one, refused, runs, tick, trig, vm_steps


def sig(db, key, payload=None, now=None):
    return one(db, "SELECT trigger_signal(?, ?, ?)", key,
               None if payload is None else json.dumps(payload), now)


def ev(db, tid, **cols):
    cols.setdefault("event_key", "pr:merged")
    add(db, tid, trigger_type="event", **cols)


def test_a_signal_makes_the_trigger_due_with_the_last_payload_and_the_count(ext):
    db = connect(ext)
    ev(db, "review")
    t = trig(db, "review")
    assert t["status"] == "scheduled" and t["next_due_at"] is None, t
    assert tick(db, T0 + MIN) == []
    assert sig(db, "pr:merged", {"pr": 41}, T0 + MIN) == 1
    assert sig(db, "pr:merged", {"pr": 42}, T0 + MIN + 500) == 1
    assert sig(db, "other", {"pr": 1}, T0 + MIN) == 0
    assert trig(db, "review")["next_due_at"] == T0 + MIN
    [r] = tick(db, T0 + 2 * MIN)
    assert r["scheduled_for"] == T0 + MIN
    assert r["payload"]["event"] == {"key": "pr:merged", "payload": {"pr": 42},
                                     "at": T0 + MIN + 500, "count": 2}, r
    # after its run it waits again: nothing due until the next signal
    t = trig(db, "review")
    assert t["status"] == "scheduled" and t["next_due_at"] is None, t
    finish(db, r["run_id"], "success", None, T0 + 2 * MIN)
    assert trig(db, "review")["status"] == "scheduled"
    assert tick(db, T0 + 3 * MIN) == []
    sig(db, "pr:merged", None, T0 + 4 * MIN)
    [r2] = tick(db, T0 + 4 * MIN)
    assert r2["payload"]["event"] == {"key": "pr:merged", "payload": None,
                                      "at": T0 + 4 * MIN, "count": 1}, r2


def test_scheduled_at_is_a_timeout_that_the_first_signal_overrides(ext):
    db = connect(ext)
    five = T0 + 17 * 60 * MIN
    ev(db, "late", scheduled_at=five, max_runs=1)
    ev(db, "early", event_key="pr:7", scheduled_at=five, max_runs=1)
    assert trig(db, "late")["next_due_at"] == five
    # early is signalled before its timeout: one run, the timeout gone
    sig(db, "pr:7", {"ok": True}, T0 + MIN)
    [r] = tick(db, T0 + MIN)
    assert r["trigger_id"] == "early" and r["payload"]["event"]["count"] == 1
    finish(db, r["run_id"], "success", None, T0 + MIN)
    assert trig(db, "early")["status"] == "completed"
    # late is not: at its timeout it runs with {"timeout": true}
    [r] = tick(db, five)
    assert r["trigger_id"] == "late" and r["payload"]["event"] == {"timeout": True}, r
    finish(db, r["run_id"], "success", None, five)
    assert trig(db, "late")["status"] == "completed"
    assert sig(db, "pr:merged", None, five + 1) == 0   # completed: not signalled


def test_trigger_signals_from_an_sql_trigger_in_the_writing_transaction(ext):
    """The outbox: an application's AFTER UPDATE trigger signals through
    trigger_signals; it works whatever trusted_schema says, the table
    keeps nothing, and a rolled-back transaction signals nothing."""
    for trusted in ("ON", "OFF"):
        db = connect(ext)
        ev(db, "ship", event_key="order:1:paid")
        db.executescript(f"""
            PRAGMA trusted_schema = {trusted};
            CREATE TABLE orders(id INTEGER PRIMARY KEY, status TEXT, total REAL);
            CREATE TRIGGER order_paid AFTER UPDATE OF status ON orders
            WHEN NEW.status = 'paid' BEGIN
              INSERT INTO trigger_signals(event_key, payload, now)
              VALUES ('order:' || NEW.id || ':paid',
                      '{{"total":' || NEW.total || '}}', {T0 + MIN});
            END;
            INSERT INTO orders VALUES (1, 'new', 9.5);
        """)
        db.executescript("BEGIN; UPDATE orders SET status = 'paid'; ROLLBACK;")
        assert trig(db, "ship")["next_due_at"] is None, trusted
        assert tick(db, T0 + 2 * MIN) == []
        db.execute("UPDATE orders SET status = 'paid'")
        assert one(db, "SELECT count(*) FROM trigger_signals") == 0
        [r] = tick(db, T0 + 2 * MIN)
        assert r["payload"]["event"] == {"key": "order:1:paid", "payload": {"total": 9.5},
                                         "at": T0 + MIN, "count": 1}, (trusted, r)


def test_a_signal_is_an_index_probe(ext):
    """A signal's work does not grow with the other event triggers (keys
    of their own), nor with clock triggers: the partial index on active
    event triggers' keys."""
    def steps(others):
        db = connect(ext)
        for i in range(others):
            ev(db, f"o{i}", event_key=f"key:{i}")
            add(db, f"c{i}")
        ev(db, "mine", event_key="mine")
        sig(db, "mine", None, T0)   # statements prepared
        return vm_steps(db, "SELECT trigger_signal('mine', NULL, ?)", T0 + 1)
    small, big = steps(10), steps(2000)
    assert big <= small * 1.05 + 20, (small, big)
    db = connect(ext)
    plan = " ".join(r[3] for r in db.execute(
        "EXPLAIN QUERY PLAN SELECT id FROM triggers_data INDEXED BY triggers_data_event"
        " WHERE event_key = 'k' AND event_key IS NOT NULL AND status = 'scheduled'"))
    assert "USING INDEX triggers_data_event" in plan or "USING COVERING INDEX" in plan, plan


# One signal making one trigger due: 155 VM steps measured (r41; a plain
# indexed UPDATE of the same state: 24). bench/README.md, the signal row.
SIGNAL_STEPS_MAX = 160


def test_a_signal_costs_a_bounded_number_of_vm_steps(ext):
    """What one signal making one trigger due costs, statements prepared:
    it must not regrow (bench/README.md, the signal row), whatever the
    other event triggers."""
    db = connect(ext)
    for i in range(50):
        ev(db, f"o{i}", event_key=f"key:{i}")
    sig(db, "key:0", None, T0)       # statements prepared
    steps = vm_steps(db, "SELECT trigger_signal('key:1', NULL, ?)", T0 + 1)
    assert steps <= SIGNAL_STEPS_MAX, steps


def test_bad_event_columns_and_signals_are_named_and_change_nothing(ext):
    db = connect(ext)
    ins = ("INSERT INTO triggers(trigger_id, instructions, trigger_type, event_key,"
           " interval_ms, debounce_ms, debounce_max_ms, start_at) VALUES (?,?,?,?,?,?,?,?)")
    cases = [
        (("e", "x", "event", None, None, None, None, None),
         "triggers.event_key: required for trigger_type 'event'"),
        (("e", "x", "interval", "k", MIN, None, None, None),
         "triggers.event_key: only allowed for trigger_type 'event' (this trigger is 'interval')"),
        (("e", "x", "event", "  ", None, None, None, None), "triggers.event_key: must not be empty"),
        (("e", "x", "event", "k" * 513, None, None, None, None),
         "triggers.event_key: is 513 bytes, more than 512"),
        (("e", "x", "event", "k", None, 0, None, None), "triggers.debounce_ms: must be >= 1, got 0"),
        (("e", "x", "event", "k", None, None, 5000, None), "triggers.debounce_max_ms: needs debounce_ms"),
        (("e", "x", "event", "k", None, 6000, 5000, None),
         "triggers.debounce_max_ms: 5000 is less than debounce_ms 6000"),
        (("e", "x", "interval", None, MIN, 1000, None, None),
         "triggers.debounce_ms: only allowed for trigger_type 'event'"),
        (("e", "x", "event", "k", None, None, None, T0),
         "triggers.start_at: not allowed for trigger_type 'event'"),
    ]
    for args, msg in cases:
        refused(db, ins, args, msg)
    refused(db, "INSERT INTO triggers(instructions, trigger_type, scheduled_at) VALUES ('x', 'cron', 5)",
            (), "triggers.scheduled_at: only allowed for trigger_type 'once' or 'event'")
    ev(db, "e")
    for sql, args, msg in [
        ("SELECT trigger_signal(?)", ("",), "trigger_signal: event_key: must not be empty"),
        ("SELECT trigger_signal(?)", ("k" * 513,), "trigger_signal: event_key: is 513 bytes"),
        ("SELECT trigger_signal(?, ?)", ("pr:merged", "[1]"), "trigger_signal: payload: must be a JSON object"),
        ("SELECT trigger_signal(?, ?)", ("pr:merged", "{"), "trigger_signal: payload: must be a JSON object"),
        ("SELECT trigger_signal(?, ?)", ("pr:merged", 5), "trigger_signal: argument 2 (payload) must be"),
        ("SELECT trigger_signal(?, NULL, ?)", ("pr:merged", "soon"), "trigger_signal: argument 3 (now)"),
        ("SELECT trigger_signal(NULL)", (), "trigger_signal: argument 1 (event_key)"),
        ("INSERT INTO trigger_signals(event_key) VALUES (NULL)", (),
         "NOT NULL constraint failed: trigger_signals.event_key"),
        ("INSERT INTO trigger_signals(event_key, payload) VALUES ('pr:merged', 'x')", (),
         "trigger_signals: payload: must be a JSON object"),
        ("INSERT INTO trigger_signals(event_key, now) VALUES ('pr:merged', 'x')", (),
         "trigger_signals: argument 3 (now)"),
        ("SELECT trigger_signal(?, ?)", ("pr:merged", '{"a":"' + "x" * 65536 + '"}'),
         "trigger_signal: payload: is 65544 bytes, more than 65536"),
    ]:
        refused(db, sql, args, msg)
    # a signal without the extension's tables
    bare = connect(ext, install=False)
    assert "not installed" in error(bare, "INSERT INTO trigger_signals(event_key) VALUES ('k')")
    assert "not installed" in error(bare, "SELECT trigger_signal('k')")


def test_a_paused_trigger_is_not_signalled_and_an_earlier_signal_runs_at_resume(ext):
    db = connect(ext)
    ev(db, "a")
    ev(db, "b")
    one(db, "SELECT trigger_pause('a', ?)", T0)
    assert sig(db, "pr:merged", None, T0 + 1) == 1           # b only
    one(db, "SELECT trigger_pause('b', ?)", T0 + 2)           # signalled, then paused
    assert tick(db, T0 + MIN) == []
    one(db, "SELECT trigger_resume('a', ?)", T0 + MIN)
    one(db, "SELECT trigger_resume('b', ?)", T0 + MIN)
    assert trig(db, "a")["next_due_at"] is None
    assert trig(db, "b")["next_due_at"] == T0 + MIN
    [r] = tick(db, T0 + MIN)
    assert r["trigger_id"] == "b" and r["payload"]["event"]["at"] == T0 + 1, r


def test_signals_that_signal_themselves_through_sql_triggers_stop_at_depth_16(ext):
    """A signal writes triggers_state; an SQL trigger there that signals
    again would recurse without end: the 16th nested signal is refused
    and the statement changes nothing."""
    db = connect(ext)
    ev(db, "loop", event_key="loop")
    db.execute("""CREATE TRIGGER again AFTER UPDATE ON triggers_state BEGIN
                    INSERT INTO trigger_signals(event_key, now) VALUES ('loop', 1767225600000);
                  END""")
    before = one(db, "SELECT event_count FROM triggers_state")
    msg = error(db, "SELECT trigger_signal('loop', NULL, ?)", T0)
    assert "signal 'loop' nested 16 deep (a chain that signals itself): stopped" in msg, msg
    assert one(db, "SELECT event_count FROM triggers_state") == before
    db.execute("DROP TRIGGER again")
    assert sig(db, "loop", None, T0) == 1


def test_event_trigger_json_and_describe(ext):
    db = connect(ext)
    ev(db, "d", scheduled_at=T0 + 60 * MIN, debounce_ms=5000)
    t = trig(db, "d")
    assert (t["event_key"], t["debounce_ms"], t["debounce_max_ms"]) == ("pr:merged", 5000, None)
    assert one(db, "SELECT trigger_describe('d')") == (
        "When 'pr:merged' is signalled, or at 2026-01-01 01:00 if not signalled by then")
    # the same instructions and key are one trigger for the dedupe key
    k1 = one(db, "SELECT dedupe_key FROM triggers WHERE trigger_id = 'd'")
    ev(db, "d2", event_key="pr:other", scheduled_at=T0 + 60 * MIN, instructions="do d")
    assert one(db, "SELECT dedupe_key FROM triggers WHERE trigger_id = 'd2'") != k1


def test_debounce_folds_signals_into_one_run_with_the_last_payload(ext):
    db = connect(ext)
    ev(db, "sum", event_key="doc:edit", debounce_ms=5000)
    ev(db, "capped", event_key="doc:edit", debounce_ms=5000, debounce_max_ms=6000)
    for k, at in enumerate((T0, T0 + 2000, T0 + 4000)):
        assert sig(db, "doc:edit", {"edit": k}, at) == 2
    # each signal moves the run to its own time + 5 s; capped at the first + 6 s
    assert trig(db, "sum")["next_due_at"] == T0 + 9000
    assert trig(db, "capped")["next_due_at"] == T0 + 6000
    [r] = tick(db, T0 + 6000)
    assert r["trigger_id"] == "capped" and r["payload"]["event"] == {
        "key": "doc:edit", "payload": {"edit": 2}, "at": T0 + 4000, "count": 3}, r
    assert tick(db, T0 + 8999) == []
    [r] = tick(db, T0 + 9000)
    assert r["trigger_id"] == "sum" and r["payload"]["event"]["count"] == 3, r
    # the default bound is 10 x debounce_ms: a signal every 4 s for a
    # minute runs once, 50 s after the first
    db = connect(ext)
    ev(db, "s", event_key="k", debounce_ms=5000)
    for at in range(T0, T0 + 60000, 4000):
        sig(db, "k", None, at)
        assert trig(db, "s")["next_due_at"] == min(at + 5000, T0 + 50000)
        got = tick(db, at)
        if at >= T0 + 50000:
            break
        assert got == []
    assert len(runs(db, "s")) == 1 and runs(db, "s")[0]["scheduled_for"] == T0 + 50000


def test_a_finished_run_signals_its_chain_in_the_same_transaction(ext):
    """Every finished run signals run:<trigger_id>:<status>: a report,
    a batch of reports, a lease that ends, a window that expires an
    occurrence, and a run recorded at once ({"ack": false}); a report
    rolled back signals nothing."""
    db = connect(ext)
    add(db, "build", interval_ms=MIN, max_attempts=1)
    for st in ("success", "failed", "expired"):
        ev(db, "on-" + st, event_key="run:build:" + st)
    def due():
        return sorted(r["trigger_id"] for r in tick(db, now[0]) if r["trigger_id"] != "build")
    now = [T0 + MIN]
    [b] = tick(db, now[0])
    db.execute("BEGIN")
    finish(db, b["run_id"], "success", None, now[0] + 10)
    db.execute("ROLLBACK")
    assert trig(db, "on-success")["next_due_at"] is None
    finish(db, b["run_id"], "success", None, now[0] + 10)
    assert trig(db, "on-success")["next_due_at"] == now[0] + 10
    now[0] = T0 + 2 * MIN
    assert [r["trigger_id"] for r in tick(db, now[0])] == ["on-success", "build"]
    # a batch of reports (the host's): failed
    b2 = "build@%d#1" % (T0 + 2 * MIN)
    one(db, "SELECT trigger_run_finish_many(?, ?)",
        json.dumps([{"run_id": b2, "status": "failed", "error": "red"}]), now[0] + 5)
    now[0] = T0 + 3 * MIN
    got = tick(db, now[0])
    assert sorted(r["trigger_id"] for r in got) == ["build", "on-failed"], got
    # a lease that ends: failed too
    now[0] = T0 + 4 * MIN + 1
    got = tick(db, now[0])
    assert "on-failed" in [r["trigger_id"] for r in got], got
    # ack false: recorded success at once, its chain due in the same instant
    now[0] = T0 + 6 * MIN
    tick(db, now[0], ack=False)
    assert trig(db, "on-success")["next_due_at"] == now[0]


def test_a_window_that_expires_an_occurrence_signals_expired(ext):
    db = connect(ext)
    add(db, "once", trigger_type="once", scheduled_at=T0 + MIN, window_ms=1000)
    ev(db, "late", event_key="run:once:expired")
    tick(db, T0 + 2 * MIN)
    assert [r["status"] for r in runs(db, "once")] == ["expired"]
    [r] = tick(db, T0 + 2 * MIN)
    assert r["trigger_id"] == "late" and r["payload"]["event"]["key"] == "run:once:expired"


def test_an_agent_creates_an_event_trigger(ext):
    """The create action takes an event trigger: no first occurrence is
    needed (it waits for its key); a timeout must be in the future."""
    db = connect(ext)
    ctx = {"agent_id": "a1", "now": T0, "role": "owner"}
    ok = create(db, {"instructions": "Deploy after the build", "triggerType": "event",
                     "eventKey": "run:build:success"}, ctx)
    assert ok["created"], ok
    assert trig(db, ok["triggerId"])["event_key"] == "run:build:success"
    late = create(db, {"instructions": "Too late", "triggerType": "event", "eventKey": "k",
                       "scheduledAt": T0 - 1000}, ctx)
    assert late["error"] == "INVALID_SCHEDULE" and "not in the future" in late["reason"], late


def test_a_cycle_of_chains_cannot_loop_within_a_tick(ext):
    """A tick reads its due triggers once, in due order (docs/reactive.md
    #chains): two event triggers that chain to each other run at most once
    each per tick, however many are due; a chain made due behind the
    tick's position waits for the next tick, and with a few due (one
    batch) the chained trigger is always the next tick's."""
    db = connect(ext)
    pairs = 40  # more than the first batch of a tick (16 rows)
    for i in range(pairs):
        ev(db, "a%02d" % i, event_key="run:b%02d:success" % i)
        ev(db, "b%02d" % i, event_key="run:a%02d:success" % i)
    for i in range(pairs):
        assert sig(db, "run:b%02d:success" % i, None, T0) == 1
    got = [r["trigger_id"] for r in tick(db, T0 + MIN, ack=False)]
    assert len(got) == len(set(got)), got  # none twice in one tick
    assert {g for g in got if g.startswith("a")} == {"a%02d" % i for i in range(pairs)}
    # the rest of the cycle goes on tick by tick, never twice in one
    for k in range(2, 5):
        again = [r["trigger_id"] for r in tick(db, T0 + k * MIN, ack=False)]
        assert again and len(again) == len(set(again)), again
    # one pair: the chained trigger is the next tick's
    db2 = connect(ext)
    ev(db2, "x", event_key="go")
    ev(db2, "y", event_key="run:x:success")
    sig(db2, "go", None, T0)
    assert [r["trigger_id"] for r in tick(db2, T0 + MIN, ack=False)] == ["x"]
    assert [r["trigger_id"] for r in tick(db2, T0 + MIN + 1, ack=False)] == ["y"]


def test_a_signal_pauses_an_event_trigger_changed_outside_the_extension(ext):
    """An event trigger is never due until signalled, so the signal may be
    the only read it gets: one whose stored row fails its check
    (docs/tables.md#changed-shadow-tables) is paused by the signal with a
    last_error naming the column and an auto_paused event, as a tick
    would pause it; the other triggers of the key are signalled."""
    for col, bad in (("timezone", b"x\xff\xfey"), ("overlap_policy", b"x\x00y"),
                     ("instructions", b"\xed\xa0\x80")):
        db = connect(ext)
        ev(db, "bad")
        ev(db, "good")
        db.execute(f"UPDATE triggers_data SET {col} = CAST(? AS TEXT)"
                   " WHERE trigger_id = 'bad'", (bad,))
        assert sig(db, "pr:merged", now=T0 + MIN) == 1, col
        status, err, due = db.execute(
            "SELECT status, last_error, next_due_at FROM triggers"
            " WHERE trigger_id = 'bad'").fetchone()
        assert status == "paused" and due is None, (col, status, due)
        assert err.startswith(f"triggers_data.{col}: ") and \
            err.endswith("; trigger paused"), (col, err)
        kinds = [k for (k,) in db.execute(
            "SELECT kind FROM trigger_events WHERE trigger_id = 'bad'")]
        assert sorted(kinds) == ["auto_paused", "created"], (col, kinds)
        got = tick(db, T0 + MIN)
        assert [r["trigger_id"] for r in got] == ["good"], (col, got)
        # paused: not signalled again, nothing more written for it
        assert sig(db, "pr:merged", now=T0 + 2 * MIN) == 1
        assert db.execute("SELECT count(*) FROM trigger_events WHERE"
                          " trigger_id = 'bad'").fetchone()[0] == len(kinds), col
        db.close()
