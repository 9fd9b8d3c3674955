"""tests/py/test_reliability.py -- edge cases of the lifecycle (issue 5,
items 1-5) that test_core.py does not cover: clocks going backwards,
the deferral bound, window_ms with misfire 'all', lease expiry without
attempts left, overlap 'skip', jitter bounds, late-but-accepted finishes.
"""
import json
import sqlite3

from util import MIN, T0, add, connect, dump, finish, one, runs, tick, trig


def keys(db):
    return sorted((r["trigger_id"], r["scheduled_for"], r["attempt"]) for r in runs(db))


def test_clock_backwards_claims_nothing_twice_loses_nothing(ext):
    db = connect(ext)
    add(db, "all", misfire_policy="all", overlap_policy="allow", start_at=T0)
    add(db, "co", overlap_policy="allow", start_at=T0)
    add(db, "once", trigger_type="once", scheduled_at=T0 + 3 * MIN)
    first = tick(db, T0 + 5 * MIN + 1, ack=False)
    assert sorted(r["scheduled_for"] - T0 for r in first if r["trigger_id"] == "all") == \
        [k * MIN for k in range(6)]
    before = dump(db)
    # The clock jumps back: nothing is due again, nothing is written.
    for now in (T0 + 5 * MIN, T0 + 3 * MIN, T0, T0 - 10 * MIN):
        assert tick(db, now, ack=False) == [], now
    assert dump(db) == before
    # Forward again: exactly the next occurrences, none lost in between.
    got = tick(db, T0 + 7 * MIN, ack=False)
    assert sorted((r["trigger_id"], r["scheduled_for"] - T0) for r in got) == \
        [("all", 6 * MIN), ("all", 7 * MIN), ("co", 7 * MIN)]
    ks = [k for k in keys(db) if k[0] == "all"]
    assert ks == [("all", T0 + k * MIN, 1) for k in range(8)], ks
    assert len(set(keys(db))) == len(keys(db))
    assert trig(db, "once")["status"] == "completed"


def test_clock_backwards_with_running_leases(ext):
    """A lease is measured in the tick's `now`: a tick from a clock behind
    the claimer's never expires the lease early, and finishing with an
    earlier `now` than the claim is accepted."""
    db = connect(ext)
    add(db, "t", interval_ms=3600000, max_attempts=2, start_at=T0)
    [r] = tick(db, T0 + 1000, lease_ms=5000)
    assert tick(db, T0 - 60000) == []        # a clock far behind
    assert tick(db, T0 + 5999) == []         # lease ends at T0 + 6000
    assert runs(db, "t")[0]["status"] == "running"
    finish(db, r["run_id"], "success", None, T0 + 500)   # finisher's clock is behind
    [row] = runs(db, "t")
    # a finish before the claim took no time: latency 0, never negative
    assert row["status"] == "success" and row["latency_ms"] == 0
    assert tick(db, T0 + 7000) == []
    t = trig(db, "t")
    assert t["run_count"] == 1 and one(db, "SELECT running FROM triggers_state") == 0


def test_heartbeat_from_a_clock_behind_never_shortens_the_lease(ext):
    """Issue 32, item 8: a host whose wall clock stepped back renews with a
    `now` before the claim; the lease keeps its end (a lease never moves
    backwards), so a second host ticking before it reclaims nothing. A
    failure reported from that clock has latency 0."""
    db = connect(ext)
    add(db, "t", interval_ms=3600000, max_attempts=2, start_at=T0)
    [r] = tick(db, T0 + 1000, lease_ms=60000, owner="h1")          # until T0 + 61000
    hb = lambda lease, now: json.loads(one(db, "SELECT trigger_run_heartbeat(?, ?, ?)",
                                           r["run_id"], lease, now))["lease_until"]
    assert hb(None, T0 - 30000) == T0 + 61000   # before: T0 + 30000
    assert hb(1000, T0 + 2000) == T0 + 61000    # a shorter length: kept too
    assert tick(db, T0 + 60999, owner="h2") == []
    assert runs(db, "t")[0]["status"] == "running"
    assert hb(None, T0 + 30000) == T0 + 90000   # forward as before
    finish(db, r["run_id"], "failed", "boom", T0 - 5000)
    row = runs(db, "t")[0]
    assert row["status"] == "failed" and row["latency_ms"] == 0, row


def test_deferral_bound_ends_in_expired(ext):
    db = connect(ext)
    add(db, "t", interval_ms=3600000, start_at=T0)
    [r] = tick(db, T0)
    now = T0
    for k in range(99):
        now += 10
        finish(db, r["run_id"], "deferred", None, now)
        [again] = tick(db, now + 1)
        assert again["run_id"] == r["run_id"] and again["attempt"] == 1
    now += 10
    finish(db, r["run_id"], "deferred", None, now)
    assert tick(db, now + 1) == []            # the 100th deferral ends it
    [row] = runs(db, "t")
    assert row["status"] == "expired" and "deferred too many times" in row["error"], row
    t = trig(db, "t")
    assert t["run_count"] == 0 and t["status"] == "scheduled"
    assert one(db, "SELECT running FROM triggers_state") == 0
    # the schedule is untouched: the next occurrence still runs
    [nxt] = tick(db, T0 + 3600000)
    assert nxt["scheduled_for"] == T0 + 3600000


def test_deferral_bound_expires_a_once_trigger(ext):
    # A once trigger whose only occurrence is deferred past the bound is
    # expired (as when its window passes), not completed.
    db = connect(ext)
    add(db, "o", trigger_type="once", scheduled_at=T0)
    [r] = tick(db, T0)
    now = T0
    for k in range(100):
        now += 10
        finish(db, r["run_id"], "deferred", None, now)
        claimed = tick(db, now + 1)
        assert len(claimed) == (1 if k < 99 else 0)
    t = trig(db, "o")
    assert t["status"] == "expired" and t["next_due_at"] is None, t
    assert t["last_error"] == "deferred too many times" and t["run_count"] == 0
    [row] = runs(db, "o")
    assert row["status"] == "expired"


def test_deferred_run_of_paused_trigger_is_skipped(ext):
    db = connect(ext)
    add(db, "t", interval_ms=3600000, start_at=T0)
    [r] = tick(db, T0)
    finish(db, r["run_id"], "deferred", None, T0 + 1)
    one(db, "SELECT trigger_pause('t', ?)", T0 + 2)
    assert tick(db, T0 + 3) == []
    [row] = runs(db, "t")
    assert row["status"] == "skipped" and "no longer active" in row["error"]


def test_window_with_misfire_all(ext):
    db = connect(ext)
    add(db, "w", misfire_policy="all", overlap_policy="allow", window_ms=150000,
        start_at=T0)
    # due at 0..10 min; at 10 min only those at most 150 s late are claimed
    got = tick(db, T0 + 10 * MIN, ack=False)
    assert [r["scheduled_for"] - T0 for r in got] == [8 * MIN, 9 * MIN, 10 * MIN]
    st = [(r["scheduled_for"] - T0, r["status"]) for r in runs(db, "w")]
    assert st == [(k * MIN, "expired") for k in range(8)] + \
        [(k * MIN, "success") for k in (8, 9, 10)], st
    assert all("window_ms 150000" in r["error"] for r in runs(db, "w") if r["status"] == "expired")
    t = trig(db, "w")
    assert t["status"] == "scheduled" and t["next_due_at"] == T0 + 11 * MIN
    assert t["run_count"] == 3


def test_lease_expired_without_attempts_left(ext):
    db = connect(ext)
    add(db, "t", interval_ms=3600000, start_at=T0)  # max_attempts 1
    [r] = tick(db, T0, lease_ms=2000)
    assert tick(db, T0 + 1999) == []
    assert runs(db, "t")[0]["status"] == "running"
    assert tick(db, T0 + 2000) == []           # lease passed: failed, no retry
    [row] = runs(db, "t")
    assert (row["status"], row["error"], row["attempt"]) == ("failed", "lease expired", 1)
    t = trig(db, "t")
    assert t["run_count"] == 1 and t["last_status"] == "failed"
    assert one(db, "SELECT running FROM triggers_state") == 0
    try:
        finish(db, r["run_id"], "success", None, T0 + 2500)
        assert False, "finish after reclaim must fail"
    except sqlite3.OperationalError as e:
        assert "already finished (failed: lease expired)" in str(e)


def test_late_finish_before_reclaim_is_accepted(ext):
    db = connect(ext)
    add(db, "t", interval_ms=3600000, start_at=T0, max_attempts=2)
    [r] = tick(db, T0, lease_ms=2000)
    finish(db, r["run_id"], "success", None, T0 + 9000)  # lease passed, no tick yet
    assert tick(db, T0 + 10000) == []
    assert [(x["attempt"], x["status"]) for x in runs(db, "t")] == [(1, "success")]


def test_retry_backoff_doubles(ext):
    db = connect(ext)
    add(db, "t", interval_ms=3600000, start_at=T0, max_attempts=3, backoff_ms=1000)
    [r] = tick(db, T0)
    finish(db, r["run_id"], "failed", "e1", T0 + 100)
    assert tick(db, T0 + 1099) == []
    [r2] = tick(db, T0 + 1100)
    finish(db, r2["run_id"], "failed", "e2", T0 + 2000)
    assert tick(db, T0 + 3999) == []           # 1000 * 2^1 after the finish
    [r3] = tick(db, T0 + 4000)
    assert (r3["attempt"], r3["scheduled_for"]) == (3, T0)
    finish(db, r3["run_id"], "failed", "e3", T0 + 4100)
    assert tick(db, T0 + 100000) == []          # attempts spent
    t = trig(db, "t")
    assert t["run_count"] == 3 and t["last_error"] == "e3"
    assert t["next_due_at"] == T0 + 3600000


def test_overlap_skip_records_skipped(ext):
    db = connect(ext)
    add(db, "s", start_at=T0)                 # overlap_policy skip (default)
    [r] = tick(db, T0, lease_ms=600000)
    assert tick(db, T0 + MIN, lease_ms=600000) == []
    st = [(x["scheduled_for"] - T0, x["status"]) for x in runs(db, "s")]
    assert st == [(0, "running"), (MIN, "skipped")], st
    assert "overlap_policy skip" in runs(db, "s")[1]["error"]
    finish(db, r["run_id"], "success", None, T0 + MIN + 1)
    [r2] = tick(db, T0 + 2 * MIN)
    assert r2["scheduled_for"] == T0 + 2 * MIN


def test_jitter_bounds_and_spread(ext):
    db = connect(ext)
    for i in range(200):
        add(db, f"j{i}", jitter_ms=10000, start_at=T0, interval_ms=MIN)
    fires = [f - T0 for (f,) in db.execute("SELECT fire_at FROM triggers_state")]
    assert all(0 <= f < 10000 for f in fires), fires
    assert len(set(fires)) > 150, "the jitter is spread, not constant"
    got = tick(db, T0 + 9999, ack=False)
    assert len(got) == 200 and all(r["scheduled_for"] == T0 for r in got)
    # the next occurrence jitters independently of the first
    fires2 = [f - T0 - MIN for (f,) in db.execute("SELECT fire_at FROM triggers_state")]
    assert all(0 <= f < 10000 for f in fires2) and fires2 != fires
    assert tick(db, T0 + MIN - 1, ack=False) == []


def test_tick_never_leaves_next_due_at_behind_now(ext):
    db = connect(ext)
    for pol in ("coalesce", "all", "skip"):
        add(db, pol, misfire_policy=pol, interval_ms=1000, start_at=T0,
            overlap_policy="allow")
    add(db, "cron", trigger_type="cron", cron_expression="*/2 * * * *")
    for now in (T0 + 1, T0 + 250 * 1000 + 7, T0 + 10**7):
        tick(db, now, ack=False)
        for (tid, due) in db.execute("SELECT trigger_id, next_due_at FROM triggers"):
            assert due > now, (tid, due, now)


def test_replay_on_two_files_is_identical(ext):
    """Issue 5 item 9, with every writer: the create action (JSON and
    `when`), INSERT, ticks with leases expiring, retries and deferrals,
    fire, pause/resume, cancel, config and prune, all with explicit `now`,
    replayed on two fresh files."""
    import json
    import os
    import tempfile
    ctx = json.dumps({"agent_id": "a", "role": "owner", "now": T0})
    script = [
        ("SELECT trigger_config('misfire_grace_ms', 30000)", ()),
        ("SELECT trigger_create(?, ?)", (json.dumps({"instructions": "Check the build",
                                                     "trigger_type": "interval",
                                                     "interval_ms": 3600000}), ctx)),
        ("SELECT trigger_create(?, ?)", (json.dumps({"instructions": "Water the plants",
                                                     "when": "every day at 9am",
                                                     "timezone": "Europe/Berlin"}), ctx)),
        ("INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, interval_ms,"
         " start_at, misfire_policy, overlap_policy, max_attempts, backoff_ms, jitter_ms,"
         " created_at) VALUES ('j', 'a', 'Poll', 'interval', 60000, ?, 'all', 'allow', 3, 1000,"
         " 20000, ?)", (T0, T0)),
        ("INSERT INTO triggers(trigger_id, instructions, trigger_type, cron_expression,"
         " timezone, window_ms, created_at) VALUES ('c', 'Report', 'cron', '*/5 * * * *',"
         " 'America/New_York', 60000, ?)", (T0,)),
        ("SELECT trigger_run_due(?, '{\"owner\":\"h1\",\"lease_ms\":5000}')", (T0 + 5 * MIN,)),
        ("SELECT trigger_run_finish(run_id, 'failed', 'boom', ?) FROM trigger_runs"
         " WHERE trigger_id = 'j' AND status = 'running' AND scheduled_for = ?",
         (T0 + 5 * MIN + 10, T0)),
        ("SELECT trigger_run_finish(run_id, 'deferred', NULL, ?) FROM trigger_runs"
         " WHERE trigger_id = 'j' AND status = 'running' AND scheduled_for = ?",
         (T0 + 5 * MIN + 10, T0 + MIN)),
        ("SELECT trigger_run_due(?, '{\"owner\":\"h2\",\"lease_ms\":60000}')", (T0 + 7 * MIN,)),
        ("SELECT trigger_fire('j', ?)", (T0 + 8 * MIN + 1,)),
        ("SELECT trigger_pause('c', ?)", (T0 + 9 * MIN,)),
        ("SELECT trigger_resume('c', ?)", (T0 + 30 * MIN,)),
        ("SELECT trigger_run_due(?, '{\"owner\":\"h1\",\"ack\":false}')", (T0 + 40 * MIN,)),
        ("SELECT trigger_cancel('j', ?)", (T0 + 41 * MIN,)),
        ("SELECT trigger_prune(?)", (T0 + 6 * MIN,)),
    ]
    dumps = []
    tmp = tempfile.mkdtemp(prefix="trg-replay-")
    try:
        for k in range(2):
            db = connect(ext, os.path.join(tmp, f"r{k}.db"))
            for sql, args in script:
                db.execute(sql, args).fetchall()
            dumps.append(dump(db))
            db.close()
    finally:
        for f in os.listdir(tmp):
            os.unlink(os.path.join(tmp, f))
        os.rmdir(tmp)
    assert dumps[0] == dumps[1]
    for word in ("lease expired", "Water the plants", "cancelled", "h2"):
        assert word in dumps[0], word
