"""tests/py/test_core.py -- the core runtime through Python's sqlite3:
loading, flags, writes and their validation, the tick's policies,
transactions, determinism and the cost of an empty tick."""
import json
import sqlite3

from util import MIN, T0, add, connect, dump, finish, one, runs, tick, trig


def test_heartbeat_in_transactions_and_health(ext):
    # A heartbeat joins the caller's transaction (rolled back with it), a
    # renewed run is not an expired lease for trigger_health nor reclaimed
    # by the tick, and a refused heartbeat leaves the run as it was.
    db = connect(ext)
    add(db, "t", max_attempts=2)
    [run] = tick(db, T0 + MIN, lease_ms=10000)
    rid = run["run_id"]
    beat = lambda now, *lease: json.loads(one(
        db, f"SELECT trigger_run_heartbeat(?, {'?' if lease else 'NULL'}, ?)",
        rid, *lease, now))
    db.execute("BEGIN IMMEDIATE")
    assert beat(T0 + MIN + 5000)["lease_until"] == T0 + MIN + 15000
    db.execute("ROLLBACK")
    assert one(db, "SELECT lease_until FROM trigger_runs") == T0 + MIN + 10000
    got = beat(T0 + MIN + 9000, 30000)
    assert (got["run_id"], got["status"], got["lease_until"]) == (rid, "running", T0 + MIN + 39000)
    assert set(got) == {r[1] for r in db.execute("PRAGMA table_info(trigger_runs)")}
    health = json.loads(one(db, "SELECT trigger_health(?)", T0 + MIN + 20000))
    assert (health["running"], health["expired_leases"]) == (1, 0), health
    assert tick(db, T0 + MIN + 20000) == []
    try:
        beat(T0 + MIN + 39000)
        raise AssertionError("expected an error")
    except sqlite3.OperationalError as e:
        assert str(e).startswith(f"trigger_run_heartbeat: run '{rid}': its lease passed"), e
    assert one(db, "SELECT lease_until FROM trigger_runs") == T0 + MIN + 39000
    assert [r["attempt"] for r in tick(db, T0 + MIN + 39000)] == [2]


def _interval_triggers(ext, rows):
    """A fresh database holding interval triggers t0.. of the given
    (interval_ms, created_at) rows."""
    db = connect(ext)
    db.execute("BEGIN")
    db.executemany(
        "INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms, created_at)"
        " VALUES (?, ?, 'interval', ?, ?)",
        ((f"t{i}", f"job {i}", every, at) for i, (every, at) in enumerate(rows)))
    db.execute("COMMIT")
    return db


def _empty_tick_cost(db, now):
    """vm_steps of a tick at now that claims nothing (checked: no full
    scan, no row read)."""
    assert tick(db, now) == []
    stats = json.loads(one(db, "SELECT trigger_last_tick()"))
    assert stats["fullscan_steps"] == 0 and stats["rows_read"] == 0, stats
    return stats["vm_steps"]


def test_empty_tick_cost_does_not_grow_with_triggers(ext):
    costs = {}
    for n in (1000, 100000):
        db = _interval_triggers(ext, ((3600000, T0 + i) for i in range(n)))
        costs[n] = _empty_tick_cost(db, T0 + 1000)
    assert costs[100000] == costs[1000], costs
    assert costs[1000] < 200, costs


def test_empty_tick_cost_does_not_grow_with_running_runs(ext):
    """Runs held by a host (running, lease not passed) are not scanned by
    each tick: the probe for lease values changed outside the extension is
    two index seeks (NULL, past the instant range), not a walk over every
    running run."""
    costs = {}
    for n in (10, 3000):
        db = _interval_triggers(ext, [(3600000, T0 - 3600000)] * n)
        assert len(tick(db, T0, lease_ms=86400000)) == n
        assert one(db, "SELECT count(*) FROM trigger_runs WHERE status = 'running'") == n
        costs[n] = _empty_tick_cost(db, T0 + 1000)
    assert costs[3000] == costs[10], costs


def test_busy_tick_reads_only_due_rows(ext):
    db = _interval_triggers(
        ext, ((60000 if i < 50 else 3600000, T0) for i in range(20000)))
    got = tick(db, T0 + MIN)
    stats = json.loads(one(db, "SELECT trigger_last_tick()"))
    assert len(got) == 50 and stats["claimed"] == 50
    assert stats["rows_read"] == 50 and stats["fullscan_steps"] == 0, stats


def test_tick_inside_caller_transaction(ext):
    db = connect(ext)
    add(db, "t")
    before = dump(db)
    db.execute("BEGIN")
    assert len(tick(db, T0 + MIN)) == 1
    db.execute("ROLLBACK")
    assert dump(db) == before
    db.execute("BEGIN")
    try:
        tick(db, T0 + MIN, colour=1)
    except sqlite3.OperationalError:
        pass
    assert len(tick(db, T0 + MIN)) == 1
    db.execute("COMMIT")
    assert runs(db, "t")[0]["status"] == "running"


def test_interval_anchored_and_once_completed(ext):
    db = connect(ext)
    add(db, "iv")
    add(db, "once", trigger_type="once", scheduled_at=T0 + 90000)
    for now in (T0 + MIN + 5000, T0 + 2 * MIN + 59000, T0 + 3 * MIN + 1):
        for r in tick(db, now):
            finish(db, r["run_id"], "success", None, now + 10)
    sched = [r["scheduled_for"] for r in runs(db, "iv")]
    assert sched == [T0 + MIN, T0 + 2 * MIN, T0 + 3 * MIN], sched
    assert trig(db, "iv")["next_due_at"] == T0 + 4 * MIN
    o = trig(db, "once")
    assert o["status"] == "completed" and o["last_status"] == "success" and o["run_count"] == 1


def test_schedule_past_year_9999_completes(ext):
    # The occurrence after 9999-12-31 cannot be stored: trigger_iso could
    # not print it. The trigger completes instead.
    db = connect(ext)
    day = 86400000
    add(db, "late", created_at="9999-12-31T12:00:00Z", interval_ms=day)
    t = trig(db, "late")
    assert t["status"] == "completed" and t["next_due_at"] is None, t
    add(db, "edge", created_at="9999-12-30T00:00:00Z", interval_ms=day)
    due = trig(db, "edge")["next_due_at"]
    assert one(db, "SELECT trigger_iso(?)", due) == "9999-12-31T00:00:00Z"
    got = tick(db, due + 1000)
    assert [r["trigger_id"] for r in got] == ["edge"]
    t = trig(db, "edge")
    assert t["next_due_at"] is None, t
    finish(db, got[0]["run_id"], "success", None, due + 2000)
    t = trig(db, "edge")
    assert t["status"] == "completed" and t["run_count"] == 1, t
    for ms in db.execute("SELECT next_due_at FROM triggers WHERE next_due_at IS NOT NULL"):
        one(db, "SELECT trigger_iso(?)", ms[0])
    assert one(db, "SELECT trigger_next_due(?, ?)",
               '{"interval_ms": 86400000, "start_at": "9999-12-31T00:00:00Z"}', due) is None
    assert [r[0] for r in db.execute(
        "SELECT due_at FROM trigger_preview(?, ?)",
        ('{"interval_ms": 86400000, "start_at": "9999-12-29T00:00:00Z"}', due - 2 * day)
    ).fetchall()] == [due - day, due]
    # cron already stopped at the end of 9999
    assert one(db, "SELECT trigger_next_due('0 0 * * *', ?)", due) is None


def test_max_runs(ext):
    db = connect(ext)
    add(db, "t", max_runs=2)
    for k in range(1, 5):
        tick(db, T0 + k * MIN, ack=False)
    t = trig(db, "t")
    assert t["run_count"] == 2 and t["status"] == "completed" and t["next_due_at"] is None


def test_misfire_policies(ext):
    db = connect(ext)
    add(db, "co", misfire_policy="coalesce")
    add(db, "all", misfire_policy="all")
    add(db, "skip", misfire_policy="skip")
    db.execute("SELECT trigger_config('misfire_grace_ms', 10000)")
    got = tick(db, T0 + 5 * MIN + 5000, ack=False)  # due 1..5 min
    by = {}
    for r in got:
        by.setdefault(r["trigger_id"], []).append(r["scheduled_for"])
    assert by["co"] == [T0 + 5 * MIN]
    assert by["all"] == [T0 + k * MIN for k in range(1, 6)]
    assert by["skip"] == [T0 + 5 * MIN]  # 5 s late, within the 10 s grace
    co_skipped = [r for r in runs(db, "co") if r["status"] == "skipped"]
    assert len(co_skipped) == 1 and "missed: 4 occurrences" in co_skipped[0]["error"]
    got = tick(db, T0 + 7 * MIN + 9000, ack=False)  # 'skip' is 9 s late at 7 min
    assert [r["scheduled_for"] for r in got if r["trigger_id"] == "skip"] == [T0 + 7 * MIN]
    got = tick(db, T0 + 9 * MIN + 20000, ack=False)  # 20 s late: skipped
    assert [r for r in got if r["trigger_id"] == "skip"] == []
    assert "misfire_policy skip" in runs(db, "skip")[-1]["error"]
    for name in ("co", "all", "skip"):
        assert trig(db, name)["next_due_at"] > T0 + 9 * MIN + 20000


def test_misfire_all_is_bounded(ext):
    db = connect(ext)
    add(db, "all", misfire_policy="all", interval_ms=1000, start_at=T0)
    got = tick(db, T0 + 500 * 1000, ack=False)
    assert len(got) == 100
    skipped = [r for r in runs(db, "all") if r["status"] == "skipped"]
    assert len(skipped) == 1 and "more than" in skipped[0]["error"]
    assert trig(db, "all")["next_due_at"] > T0 + 500 * 1000


def test_limit_keeps_the_rest_due(ext):
    db = connect(ext)
    for i in range(5):
        add(db, f"t{i}")
    assert len(tick(db, T0 + MIN, limit=2)) == 2
    assert len(tick(db, T0 + MIN, limit=2)) == 2
    assert len(tick(db, T0 + MIN)) == 1
    assert tick(db, T0 + MIN) == []


def test_order_is_due_then_id(ext):
    db = connect(ext)
    add(db, "b", trigger_type="once", scheduled_at=T0 + 10)
    add(db, "a", trigger_type="once", scheduled_at=T0 + 10)
    add(db, "c", trigger_type="once", scheduled_at=T0 + 5)
    assert [r["trigger_id"] for r in tick(db, T0 + 100)] == ["c", "a", "b"]


def test_wake_mode_filter_never_starves(ext):
    # 70 next_autonomy_cycle triggers are due ahead of one inject_now
    # trigger: more than one internal batch (64) of rows the filter passes
    # over. An inject_now claim still takes the inject_now trigger, and
    # leaves the others due for a claim of their own mode.
    db = connect(ext)
    for i in range(70):
        add(db, f"cycle{i:02d}", trigger_type="once", scheduled_at=T0 + 10)
    add(db, "zz-now", trigger_type="once", scheduled_at=T0 + 20,
        wake_mode="inject_now")
    claimed = tick(db, T0 + 100, wake_mode="inject_now")
    assert [r["trigger_id"] for r in claimed] == ["zz-now"]
    assert one(db, "SELECT count(*) FROM triggers WHERE next_due_at IS NOT NULL") == 70
    rest = tick(db, T0 + 100, wake_mode="next_autonomy_cycle")
    assert len(rest) == 70 and all(r["wake_mode"] == "next_autonomy_cycle" for r in rest)
    assert tick(db, T0 + 100) == []


def test_repeated_option_key_last_wins(ext):
    # json_each hands a repeated key over twice: the last value wins (and
    # the first copy is freed: tests/fuzz/corpus/options/regress-*).
    db = connect(ext)
    add(db, "now", trigger_type="once", scheduled_at=T0, wake_mode="inject_now")
    add(db, "cycle", trigger_type="once", scheduled_at=T0)
    got = one(db, "SELECT trigger_run_due(?, ?)", T0 + 1,
              '{"wake_mode":"inject_now","agents":["x"],"owner":"a",'
              '"wake_mode":"next_autonomy_cycle","agents":[""],"owner":"b"}')
    [r] = json.loads(got)
    assert r["trigger_id"] == "cycle"
    assert one(db, "SELECT owner FROM trigger_runs WHERE trigger_id = 'cycle'") == "b"


def test_retry_backoff_and_lease(ext):
    db = connect(ext)
    add(db, "t", max_attempts=3, backoff_ms=1000, interval_ms=3600000)
    [r] = tick(db, T0 + 3600000)
    finish(db, r["run_id"], "failed", "boom", T0 + 3600000 + 10)
    assert tick(db, T0 + 3600000 + 500) == []  # backoff 1 s not over
    [r2] = tick(db, T0 + 3600000 + 1010)
    assert r2["attempt"] == 2 and r2["scheduled_for"] == T0 + 3600000
    # attempt 2 is never reported: its lease (60 s) passes, attempt 3 claimed
    [r3] = tick(db, T0 + 3600000 + 1010 + 60000)
    assert r3["attempt"] == 3
    st = {x["attempt"]: (x["status"], x["error"]) for x in runs(db, "t")}
    assert st[1] == ("failed", "boom") and st[2] == ("failed", "lease expired")
    try:
        finish(db, r2["run_id"], "success", None, T0 + 3600000 + 70000)
        assert False, "a reclaimed run cannot be finished"
    except sqlite3.OperationalError as e:
        assert "already finished (failed: lease expired)" in str(e)
    t = trig(db, "t")
    assert t["next_due_at"] == T0 + 2 * 3600000, "retries do not move the schedule"


def test_deferred_reoffers_same_run(ext):
    db = connect(ext)
    add(db, "t", interval_ms=3600000)
    [r] = tick(db, T0 + 3600000)
    finish(db, r["run_id"], "deferred", None, T0 + 3600000 + 5)
    assert trig(db, "t")["run_count"] == 0
    [again] = tick(db, T0 + 3600000 + 10)
    assert again["run_id"] == r["run_id"] and again["attempt"] == 1
    finish(db, r["run_id"], "success", None, T0 + 3600000 + 20)
    assert trig(db, "t")["run_count"] == 1


def test_window_expires(ext):
    db = connect(ext)
    add(db, "late", trigger_type="once", scheduled_at=T0 + MIN, window_ms=30000)
    assert tick(db, T0 + 2 * MIN) == []
    t = trig(db, "late")
    assert t["status"] == "expired", t["status"]
    assert [r["status"] for r in runs(db, "late")] == ["expired"]


def test_overlap_queue_and_allow(ext):
    db = connect(ext)
    add(db, "q", overlap_policy="queue")
    add(db, "a", overlap_policy="allow")
    tick(db, T0 + MIN, lease_ms=600000)
    got = tick(db, T0 + 2 * MIN, lease_ms=600000)
    assert [r["trigger_id"] for r in got] == ["a"]
    assert one(db, "SELECT trigger_next_wakeup(?)", T0 + 2 * MIN) > 0, "held trigger does not spin"
    [qrun] = [r for r in runs(db, "q") if r["status"] == "running"]
    finish(db, qrun["run_id"], "success", None, T0 + 2 * MIN + 5)
    got = tick(db, T0 + 2 * MIN + 10)
    assert [r["trigger_id"] for r in got] == ["q"]


def test_pause_after_failures(ext):
    db = connect(ext)
    add(db, "t", pause_after_failures=2)
    for k in (1, 2):
        [r] = tick(db, T0 + k * MIN)
        finish(db, r["run_id"], "failed", f"err{k}", T0 + k * MIN + 1)
    t = trig(db, "t")
    assert t["status"] == "paused" and "2 consecutive failures" in t["last_error"]


def test_jitter_is_deterministic(ext):
    db = connect(ext)
    add(db, "j", jitter_ms=30000)
    due = trig(db, "j")["next_due_at"]
    assert due == T0 + MIN
    fire = one(db, "SELECT fire_at FROM triggers_state WHERE trigger_id = 'j'")
    assert due <= fire < due + 30000
    db2 = connect(ext)
    add(db2, "j", jitter_ms=30000)
    assert one(db2, "SELECT fire_at FROM triggers_state WHERE trigger_id = 'j'") == fire
    got = tick(db, fire)
    assert got[0]["scheduled_for"] == due


def test_replay_is_deterministic(ext):
    script = [
        ("INSERT INTO triggers(agent_id, instructions, trigger_type, interval_ms, created_at)"
         " VALUES ('a', 'Ping', 'interval', 60000, ?)", (T0,)),
        ("INSERT INTO triggers(instructions, trigger_type, scheduled_at, timezone, created_at)"
         " VALUES ('Once', 'once', '2026-01-01T01:00:00', 'Asia/Kolkata', ?)", (T0,)),
        ("SELECT trigger_run_due(?, '{\"owner\":\"h\"}')", (T0 + MIN,)),
        ("SELECT trigger_run_finish(run_id, 'success', NULL, ?) FROM trigger_runs WHERE status = 'running'",
         (T0 + MIN + 7,)),
        ("SELECT trigger_run_due(?)", (T0 + 9 * MIN,)),
        ("SELECT trigger_pause(trigger_id, ?) FROM triggers WHERE agent_id = 'a'", (T0 + 10 * MIN,)),
        ("SELECT trigger_resume(trigger_id, ?) FROM triggers WHERE agent_id = 'a'", (T0 + 20 * MIN,)),
        ("SELECT trigger_fire(trigger_id, ?) FROM triggers WHERE agent_id = 'a'", (T0 + 21 * MIN,)),
    ]
    dumps = []
    for _ in range(2):
        db = connect(ext)
        for sql, args in script:
            db.execute(sql, args).fetchall()
        dumps.append(dump(db))
    assert dumps[0] == dumps[1]
    assert "Ping" in dumps[0] and "running" in dumps[0]


def test_zone_cache_ignores_process_tz(ext):
    import os
    import time
    db = connect(ext)
    os.environ["TZ"] = "America/Los_Angeles"
    time.tzset()
    a = one(db, "SELECT trigger_iso(0, 'Europe/Berlin')")
    os.environ["TZ"] = "Asia/Tokyo"
    time.tzset()
    b = one(db, "SELECT trigger_iso(0, 'Europe/Berlin')")
    assert a == b == "1970-01-01T01:00:00+01:00"


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


def test_agent_filter_merges_triggers_without_an_agent(ext):
    # Triggers without an agent (agent_id '') are not in the per-agent
    # index (store/schema.c): a tick for agents ["a", ""] merges them with a's in
    # claim order (next_due_at, trigger_id), keeps the limit across both,
    # and never takes b's; the wakeup and the summary for agent '' see
    # exactly the agentless triggers.
    db = connect(ext)
    for i in range(6):
        add(db, f"n{i}", interval_ms=(i + 1) * MIN)               # agent ''
        add(db, f"a{i}", agent_id="a", interval_ms=(i + 1) * MIN)
        add(db, f"b{i}", agent_id="b", interval_ms=(i + 1) * MIN // 2)
    assert trig(db, "n0")["agent_id"] == ""
    got = [r["trigger_id"] for r in tick(db, T0 + 3 * MIN, agents=["a", ""], limit=5)]
    assert got == ["a0", "n0", "a1", "n1", "a2"], got
    got = [r["trigger_id"] for r in tick(db, T0 + 3 * MIN, agents=["", "a"])]
    assert got == ["n2"], got
    wake = lambda o: one(db, "SELECT trigger_next_wakeup(?, ?)", T0 + 3 * MIN, o)
    assert wake('{"agents":[""]}') == MIN       # n0 is next due at T0+4min
    assert wake('{"agents":["b"]}') == 0        # b's are due and unclaimed
    pending = json.loads(one(db, "SELECT trigger_state_payload('', ?)", T0 + 3 * MIN))
    names = json.dumps(pending)
    assert "do n0" in names and "do a0" not in names and "do b0" not in names, names


def ran_then_set_back(db, names, set_back):
    """Triggers `names` (one letter each) ran at T0 + MIN with success;
    those in `set_back` get that occurrence as their next due again."""
    for name in names:
        add(db, name)
    assert len(tick(db, T0 + MIN)) == len(names)
    for name in names:
        finish(db, f"{name}@{T0 + MIN}#1", "success", now=T0 + MIN + 1)
    db.execute("UPDATE triggers_state SET next_due_at = ?, fire_at = ?"
               " WHERE trigger_id IN (SELECT value FROM json_each(?))",
               (T0 + MIN, T0 + MIN, json.dumps(list(set_back))))


def test_claim_of_an_existing_run_is_redone_one_by_one(ext):
    # The tick keeps a batch's writes and writes them at the batch end
    # (tick/write_behind.c). A claim whose run already exists (here: the
    # schedules of "a" and "b" set back onto the occurrence they already
    # ran) inserts nothing, so it is not returned and takes no part of the
    # limit; the tick notices before writing, drops the kept writes and
    # processes the batch again one by one.
    db = connect(ext)
    ran_then_set_back(db, "abcde", "ab")
    add(db, "f")  # first due at T0 + MIN, never ran
    got = tick(db, T0 + MIN, limit=1)
    assert [(x["trigger_id"], x["scheduled_for"]) for x in got] == [("f", T0 + MIN)], got
    # written at once, not kept: f's schedule moved on all the same
    assert trig(db, "f")["next_due_at"] == T0 + 2 * MIN
    for name in "ab":
        assert [x["status"] for x in runs(db, name)] == ["success"]
        assert trig(db, name)["next_due_at"] == T0 + 2 * MIN
    assert one(db, "SELECT sum(running) FROM triggers_state") == 1
    assert one(db, "SELECT count(*) FROM trigger_runs WHERE status = 'running'") == 1


def test_claims_when_run_rowids_are_exhausted(ext):
    # The write-behind undoes a batch whose runs did not all go in by
    # deleting the runs above the highest rowid taken before it. Once a
    # run holds the largest rowid, SQLite picks new rowids at random and
    # there is no such mark: every batch is then written one by one, with
    # the same outcome (a conflict included).
    db = connect(ext)
    db.execute("INSERT INTO triggers_rundata(id, run_id, trigger_id, agent_id,"
               " scheduled_for, attempt, status) VALUES (9223372036854775807,"
               " 'x@1#1', 'x', '', 1, 1, 'success')")
    ran_then_set_back(db, "abcd", "a")
    add(db, "e")  # first due at T0 + MIN, never ran
    got = tick(db, T0 + MIN)
    assert [(x["trigger_id"], x["scheduled_for"]) for x in got] == [("e", T0 + MIN)], got
    assert trig(db, "e")["next_due_at"] == T0 + 2 * MIN
    assert [x["status"] for x in runs(db, "a")] == ["success"]
    assert trig(db, "a")["next_due_at"] == T0 + 2 * MIN
    got = tick(db, T0 + 2 * MIN)
    assert sorted(x["trigger_id"] for x in got) == ["a", "b", "c", "d", "e"], got
    assert one(db, "SELECT count(*) FROM triggers_rundata") == 11
    assert one(db, "SELECT count(*) FROM trigger_runs WHERE status = 'running'") == 5
    assert [x["status"] for x in runs(db, "e")] == ["failed", "running"]  # lease


def test_run_texts_quote_every_special_character(ext):
    # The tick quotes a trigger's texts once per row and builds the run's
    # payload and result element from them (fire_json.c): quotes,
    # backslashes, control characters and non-ASCII text come back exact,
    # from the result and from the stored payload, for the claim and for
    # the retry (a run made again from the row) alike.
    db = connect(ext)
    text = 'say "hi"\\ back\n\tnow\x01\x1f é ✓ 🙂 </script>'
    name = 'n"1\\'
    add(db, "q", instructions=text, display_name=name, scope='s"\n',
        agent_id='ag"\x02', max_attempts=2, backoff_ms=1)
    got = tick(db, T0 + MIN)
    assert len(got) == 1
    el = got[0]
    assert (el["trigger_id"], el["agent_id"], el["instructions"]) == ("q", 'ag"\x02', text)
    want = {"text": text, "source": "trigger", "triggerId": "q",
            "triggerRunId": f"q@{T0 + MIN}#1", "wakeMode": el["wake_mode"],
            "displayName": name, "scope": 's"\n', "scheduledFor": T0 + MIN}
    assert el["payload"] == want, el["payload"]
    stored = one(db, "SELECT payload FROM trigger_runs WHERE run_id = ?", el["run_id"])
    assert json.loads(stored) == want
    finish(db, el["run_id"], "failed", now=T0 + MIN + 1)
    again = tick(db, T0 + MIN + 2)
    assert [(x["run_id"], x["attempt"]) for x in again] == [(f"q@{T0 + MIN}#2", 2)]
    assert again[0]["payload"] == dict(want, triggerRunId=f"q@{T0 + MIN}#2")
    assert again[0]["agent_id"] == 'ag"\x02' and again[0]["instructions"] == text


def test_state_writes_of_a_large_batch(ext):
    # A batch's state rows are written at its end (tick/write_behind.c):
    # 37 due triggers, more than one multi-row run INSERT (16 rows) plus
    # single ones. Every row gets exactly its own values, with ack (running
    # counted) and without (run counted as success at once).
    db = connect(ext)
    for i in range(37):
        add(db, f"t{i:02d}", interval_ms=MIN + i * 1000)
    got = tick(db, T0 + MIN + 40000)
    assert len(got) == 37
    rows = db.execute("SELECT trigger_id, next_due_at, fire_at, claims, running,"
                      " run_count, last_status FROM triggers_state ORDER BY trigger_id").fetchall()
    for i, (tid, due, fire, claims, running, count, last) in enumerate(rows):
        assert tid == f"t{i:02d}"
        nxt = T0 + 2 * (MIN + i * 1000)  # the first occurrence, T0 + iv, ran
        assert (due, fire, claims, running, count, last) == (nxt, nxt, 1, 1, 0, None), \
            (tid, due, fire, claims, running, count, last)
    for x in got:
        finish(db, x["run_id"], "success", now=T0 + MIN + 40001)
    got = tick(db, T0 + 10 * MIN, ack=False)
    assert len(got) == 37
    now = T0 + 10 * MIN
    for tid, due, running, count, last_at, last, streak in db.execute(
            "SELECT trigger_id, next_due_at, running, run_count, last_run_at,"
            " last_status, fail_streak FROM triggers_state"):
        iv = MIN + int(tid[1:]) * 1000
        assert due == T0 + ((now - T0) // iv + 1) * iv, (tid, due)
        assert (running, count, last_at, last, streak) == (0, 2, now, "success", 0), tid
    assert one(db, "SELECT count(*) FROM triggers_state") == 37
