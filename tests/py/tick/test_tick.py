"""tests/py/tick/test_tick.py -- trigger_run_due's policies (ext/tick/claim.c,
fn_run_due.c; docs/lifecycle.md): interval anchoring, once triggers
completing, a schedule past year 9999, max_runs, the misfire policies and
the bound of an 'all' catch-up (cut by `limit` too), `limit` keeping the
rest due, the claim order (due, then id), a wake_mode filter that never
starves, overlap 'queue', 'allow' and 'skip', jitter (deterministic,
within its bounds), the agents filter merging triggers without an agent;
the tick inside the caller's transaction, clocks going backwards (with
running leases too), next_due_at never left behind now, replays that
give the same bytes (on two files too), the zone cache ignoring the
process TZ; a claim of a run that exists redone one by one, claims once
run rowids are exhausted, and run texts that quote every special
character. Retries, leases and deferrals are in test_retry.py, the cost
of a tick in test_tick_cost.py."""
import json
import sqlite3

from util import MIN, T0, add, connect, dump, finish, one, runs, tick, trig


def keys(db):
    return sorted((r["trigger_id"], r["scheduled_for"], r["attempt"]) for r in runs(db))


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


def test_limit_cuts_an_all_catch_up(ext):
    db = connect(ext)
    add(db, "a", misfire_policy="all", interval_ms=MIN, start_at=T0 + MIN)
    now = T0 + 5 * MIN  # occurrences at 1..5 min
    got = tick(db, now, limit=2, ack=False)
    assert [r["scheduled_for"] for r in got] == [T0 + MIN, T0 + 2 * MIN]
    assert trig(db, "a")["next_due_at"] == T0 + 3 * MIN, "the rest stays due"
    assert [r["scheduled_for"] for r in tick(db, now, ack=False)] == [T0 + k * MIN for k in (3, 4, 5)]
    assert not [r for r in runs(db, "a") if r["status"] == "skipped"]
