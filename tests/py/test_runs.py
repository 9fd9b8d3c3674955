"""tests/py/test_runs.py -- the run history's robustness: DELETE through
trigger_runs refuses running runs (they hold their trigger's overlap
policy), trigger_health reports stalled triggers, a trigger re-created
under a deleted one's id is a new incarnation whose runs never collide with
the old history, a run's `result` (the detail of a non-failure) is kept
apart from `error`, and trigger_install() migrates a version-3 database."""
import json
import os
import re
import shutil
import sqlite3
import tempfile

from util import MIN, T0, add, connect, dump, finish, one, runs, tick, trig, vm_steps

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")


def health(db, now):
    return json.loads(one(db, "SELECT trigger_health(?)", now))


def wakeup(db, now):
    return one(db, "SELECT trigger_next_wakeup(?)", now)


def expect_error(db, sql, fragment, *args):
    try:
        db.execute(sql, args)
    except sqlite3.Error as e:
        assert fragment in str(e), e
        return e
    raise AssertionError(f"expected an error: {sql}")


# ---- DELETE of a running run ------------------------------------------

def test_delete_running_run_is_refused(ext):
    # Deleting the running run of a trigger used to leave its overlap hold
    # set for good: with `skip` every later occurrence was recorded
    # skipped, with `queue` nothing was claimed again and the wakeup was
    # NULL. Now the DELETE is refused and changes nothing; once the run is
    # finished it can be deleted, and the trigger goes on.
    for policy in ("skip", "queue"):
        db = connect(ext)
        add(db, "q", overlap_policy=policy)
        [r] = tick(db, T0 + MIN, lease_ms=10 * MIN)
        e = expect_error(db, "DELETE FROM trigger_runs WHERE trigger_id = 'q'",
                         f"trigger_runs: run '{r['run_id']}' is running; finish it first "
                         "(trigger_run_finish), then delete it")
        assert isinstance(e, sqlite3.IntegrityError), e
        assert [x["status"] for x in runs(db, "q")] == ["running"]
        finish(db, r["run_id"], "success", now=T0 + MIN + 1)
        db.execute("DELETE FROM trigger_runs WHERE trigger_id = 'q'")
        assert runs(db, "q") == []
        claimed = tick(db, T0 + 2 * MIN)
        assert [x["scheduled_for"] for x in claimed] == [T0 + 2 * MIN], (policy, claimed)
        assert wakeup(db, T0 + 2 * MIN) == MIN
        db.close()


def test_multi_row_delete_with_a_running_run_fails_whole(ext):
    # Finished runs before and after the running one (in rowid order): the
    # statement fails on the running run and every row stays, both in
    # autocommit mode and inside the caller's transaction (a statement
    # rollback there; the transaction's other writes stay).
    db = connect(ext)
    add(db, "a", overlap_policy="allow")
    [r1] = tick(db, T0 + MIN)
    finish(db, r1["run_id"], "success", now=T0 + MIN + 1)
    [r2] = tick(db, T0 + 2 * MIN, lease_ms=10 * MIN)   # stays running
    [r3] = tick(db, T0 + 3 * MIN)
    finish(db, r3["run_id"], "success", now=T0 + 3 * MIN + 1)
    before = [tuple(x) for x in db.execute("SELECT * FROM trigger_runs ORDER BY run_id")]
    assert len(before) == 3
    expect_error(db, "DELETE FROM trigger_runs", f"run '{r2['run_id']}' is running")
    assert [tuple(x) for x in db.execute("SELECT * FROM trigger_runs ORDER BY run_id")] == before
    db.execute("BEGIN")
    add(db, "c")
    expect_error(db, "DELETE FROM trigger_runs WHERE scheduled_for >= 0",
                 f"run '{r2['run_id']}' is running")
    assert [tuple(x) for x in db.execute("SELECT * FROM trigger_runs ORDER BY run_id")] == before
    db.execute("COMMIT")
    assert trig(db, "c") is not None
    # deleting finished runs is pruning
    db.execute("DELETE FROM trigger_runs WHERE status <> 'running'")
    assert [x["run_id"] for x in runs(db)] == [r2["run_id"]]


# ---- trigger_health.stalled ---------------------------------------------

def test_health_counts_stalled_triggers(ext):
    db = connect(ext)
    add(db, "q", overlap_policy="queue")
    add(db, "s", overlap_policy="skip")
    add(db, "a", overlap_policy="allow")
    assert len(tick(db, T0 + MIN, lease_ms=5 * MIN)) == 3
    # q's and s's next occurrences come while their runs run: q is held,
    # s's occurrence is skipped, a's is claimed
    assert [x["trigger_id"] for x in tick(db, T0 + 2 * MIN, lease_ms=5 * MIN)] == ["a"]
    h = health(db, T0 + 2 * MIN + 1)
    assert (h["stalled"], h["overdue"], h["running"]) == (0, 0, 4), h
    # no tick after the first leases passed (T0 + 6 min): q and s are held
    # back by runs older than their lease; a is not (allow)
    h = health(db, T0 + 6 * MIN + 1)
    assert (h["stalled"], h["expired_leases"]) == (2, 3), h
    # overdue counts them too: q (due, held), s (held back), a (due)
    assert h["overdue"] == 3, h
    # a tick reclaims the expired leases: nothing is held any more
    tick(db, T0 + 6 * MIN + 1, lease_ms=5 * MIN)
    h = health(db, T0 + 6 * MIN + 2)
    assert (h["stalled"], h["overdue"]) == (0, 0), h


def test_health_counts_a_hold_without_a_run(ext):
    # An inconsistent state: q's run row removed behind the extension's
    # back (its shadow table) leaves the queue hold with no run behind
    # it. Health reports it stalled (and overdue) instead of nothing.
    db = connect(ext)
    add(db, "q", overlap_policy="queue")
    [r] = tick(db, T0 + MIN, lease_ms=10 * MIN)
    assert tick(db, T0 + 2 * MIN, lease_ms=10 * MIN) == []
    h = health(db, T0 + 2 * MIN + 1)
    assert (h["stalled"], h["overdue"]) == (0, 0), h
    db.execute("DELETE FROM triggers_rundata WHERE run_id = ?", (r["run_id"],))
    h = health(db, T0 + 2 * MIN + 1)
    assert (h["stalled"], h["overdue"], h["running"]) == (1, 1, 0), h


def test_health_is_index_driven(ext):
    # Every statement trigger_health runs reads through an index, and the
    # cost of overdue and stalled does not grow with the number of idle
    # triggers (q is found by both parts of the stalled query: its run's
    # lease passed, and it is held by queue).
    steps = {}
    for n in (1000, 20000):
        db = connect(ext)
        db.execute("BEGIN")
        for i in range(n):
            add(db, f"t{i:05}", created_at=T0 + 10**9)
        db.execute("COMMIT")
        add(db, "q", overlap_policy="queue")
        assert len(tick(db, T0 + MIN, lease_ms=MIN + 1)) == 1
        assert tick(db, T0 + 2 * MIN) == []
        assert one(db, "SELECT fire_at FROM triggers_state WHERE trigger_id = 'q'") is None
        got = []
        db.set_trace_callback(got.append)
        h = health(db, T0 + 3 * MIN)
        db.set_trace_callback(None)
        assert h["active"] == n + 1 and h["stalled"] == 1, h
        used = set()
        steps[n] = {}
        for sql in [s[3:] for s in got if s.startswith("-- ") and "?1" in s]:
            plan = [r[3] for r in db.execute("EXPLAIN QUERY PLAN " + sql, (0,))]
            for step in plan:
                # a scan only of a subquery's rows or of a partial index
                assert not step.startswith("SCAN") or step.startswith("SCAN (subquery") \
                    or "USING INDEX triggers_rundata_lease" in step, (sql, plan)
                used.update(re.findall(r"USING (?:COVERING )?INDEX (\w+)", step))
            if "fire_at IS NULL" in sql:  # overdue and stalled
                steps[n][sql] = vm_steps(db, sql, T0 + 3 * MIN)
        assert {"triggers_rundata_lease", "triggers_state_due",
                "sqlite_autoindex_triggers_rundata_2"} <= used, used
        assert len(steps[n]) == 2, steps
        db.close()
    assert steps[1000] == steps[20000], steps



# ---- re-created ids: incarnations ---------------------------------------

def test_recreated_id_is_a_new_incarnation(ext):
    # standup (once) is claimed and fails, deleted, and inserted again with
    # the same instant: the new trigger's occurrence must run (it used to
    # hit the old history's run_id: tick [], completed, run_count 0).
    db = connect(ext)
    at = T0 + MIN
    add(db, "standup", trigger_type="once", scheduled_at=at)
    [old] = tick(db, at)
    assert old["run_id"] == f"standup@{at}#1"       # incarnation 1: unchanged format
    finish(db, old["run_id"], "failed", "no network", now=at + 1)
    db.execute("DELETE FROM triggers WHERE trigger_id = 'standup'")
    add(db, "standup", trigger_type="once", scheduled_at=at, created_at=at + 2)
    [new] = tick(db, at + 3)
    assert new["run_id"] == f"standup@{at}#1~2", new
    assert new["payload"]["triggerRunId"] == new["run_id"]
    t = trig(db, "standup")
    assert (t["status"], t["run_count"], t["last_error"]) == ("scheduled", 0, None), t
    finish(db, new["run_id"], "success", now=at + 4)
    t = trig(db, "standup")
    assert (t["status"], t["run_count"], t["last_status"]) == ("completed", 1, "success"), t
    assert [(r["run_id"], r["status"]) for r in runs(db, "standup")] == [
        (f"standup@{at}#1", "failed"), (f"standup@{at}#1~2", "success")]
    # a third incarnation follows the highest one in the history
    db.execute("DELETE FROM triggers WHERE trigger_id = 'standup'")
    add(db, "standup", trigger_type="once", scheduled_at=at, created_at=at + 5)
    assert [r["run_id"] for r in tick(db, at + 6)] == [f"standup@{at}#1~3"]


def test_old_incarnation_runs_never_touch_the_new_trigger(ext):
    # The old trigger's runs (one running, one waiting for a retry, one
    # deferred) outlive its DELETE. Finishing, reclaiming and re-offering
    # them closes the run rows only; the new trigger under the same id
    # keeps its own counters, schedule and completion.
    db = connect(ext)
    add(db, "x", max_attempts=3, backoff_ms=1000, overlap_policy="allow")
    [a] = tick(db, T0 + MIN, lease_ms=10 * MIN)
    [b] = tick(db, T0 + 2 * MIN, lease_ms=10 * MIN)
    [c] = tick(db, T0 + 3 * MIN, lease_ms=10 * MIN)
    finish(db, b["run_id"], "failed", "flaky", now=T0 + 3 * MIN + 1)   # retry pending
    finish(db, c["run_id"], "deferred", now=T0 + 3 * MIN + 2)          # re-offer pending
    db.execute("DELETE FROM triggers WHERE trigger_id = 'x'")
    add(db, "x", instructions="new x", overlap_policy="queue", trigger_type="once",
        scheduled_at=T0 + 10 * MIN, created_at=T0 + 3 * MIN + 3)
    fresh = trig(db, "x")
    # finishing the old running run: the run row only, the result is null
    assert finish(db, a["run_id"], "success", now=T0 + 3 * MIN + 4) is None
    assert trig(db, "x") == fresh
    # the old retry and deferral are not claimed for the new trigger
    assert tick(db, T0 + 5 * MIN) == []
    assert trig(db, "x")["run_count"] == 0 and trig(db, "x")["status"] == "scheduled"
    old = {r["run_id"]: r for r in runs(db, "x")}
    assert old[c["run_id"]]["status"] == "skipped", old
    assert old[c["run_id"]]["error"] == "trigger was deleted", old
    # the new trigger runs, finishes and completes on its own
    [n] = tick(db, T0 + 10 * MIN)
    assert n["run_id"] == f"x@{T0 + 10 * MIN}#1~2" and n["instructions"] == "new x"
    finish(db, n["run_id"], "success", now=T0 + 10 * MIN + 1)
    t = trig(db, "x")
    assert (t["status"], t["run_count"]) == ("completed", 1), t


def test_old_incarnation_lease_expiry_leaves_the_new_trigger(ext):
    db = connect(ext)
    add(db, "x", max_attempts=2, overlap_policy="queue")
    [a] = tick(db, T0 + MIN, lease_ms=MIN)
    db.execute("DELETE FROM triggers WHERE trigger_id = 'x'")
    add(db, "x", overlap_policy="queue", interval_ms=10 * MIN, created_at=T0 + MIN)
    # the old run's lease passes: failed, and no attempt 2 for anyone
    assert tick(db, T0 + 3 * MIN) == []
    [old] = runs(db, "x")
    assert (old["run_id"], old["status"], old["error"]) == (a["run_id"], "failed", "lease expired")
    t = trig(db, "x")
    assert (t["run_count"], t["last_status"], t["next_due_at"]) == (0, None, T0 + 11 * MIN), t
    [n] = tick(db, T0 + 11 * MIN)
    assert n["run_id"] == f"x@{T0 + 11 * MIN}#1~2"


def test_insert_or_replace_keeps_the_incarnation(ext):
    db = connect(ext)
    at = T0 + MIN
    add(db, "standup", trigger_type="once", scheduled_at=at)
    [r] = tick(db, at)
    db.execute("INSERT OR REPLACE INTO triggers(trigger_id, instructions, trigger_type,"
               " scheduled_at, created_at) VALUES ('standup', 'changed', 'once', ?, ?)",
               (at + MIN, at + 1))
    # the same trigger: its running run still belongs to it
    assert finish(db, r["run_id"], "success", now=at + 2)["run_count"] == 1
    [n] = tick(db, at + MIN)
    assert n["run_id"] == f"standup@{at + MIN}#1", n


def test_fire_after_recreate_does_not_collide(ext):
    db = connect(ext)
    add(db, "f")
    json.loads(one(db, "SELECT trigger_fire('f', ?)", T0 + 5))
    db.execute("DELETE FROM triggers WHERE trigger_id = 'f'")
    add(db, "f", created_at=T0 + 1)
    r = json.loads(one(db, "SELECT trigger_fire('f', ?)", T0 + 5))
    assert r["run_id"] == f"f@{T0 + 5}#1~2", r


# ---- result -------------------------------------------------------------

def test_finish_detail_is_result_or_error(ext):
    db = connect(ext)
    add(db, "t", overlap_policy="allow")
    [a] = tick(db, T0 + MIN, lease_ms=10 * MIN)
    [b] = tick(db, T0 + 2 * MIN, lease_ms=10 * MIN)
    [c] = tick(db, T0 + 3 * MIN, lease_ms=10 * MIN)
    t = finish(db, b["run_id"], "failed", "quota exceeded", now=T0 + 3 * MIN + 1)
    assert (t["last_status"], t["last_error"]) == ("failed", "quota exceeded"), t
    t = finish(db, a["run_id"], "success", "summary: all green", now=T0 + 3 * MIN + 2)
    # last_error is the last failure's error: a success leaves it
    assert (t["last_status"], t["last_error"]) == ("success", "quota exceeded"), t
    finish(db, c["run_id"], "skipped", "nothing to do", now=T0 + 3 * MIN + 3)
    got = {r["run_id"]: (r["status"], r["error"], r["result"]) for r in runs(db, "t")}
    assert got == {a["run_id"]: ("success", None, "summary: all green"),
                   b["run_id"]: ("failed", "quota exceeded", None),
                   c["run_id"]: ("skipped", None, "nothing to do")}, got
    cols = [x[1] for x in db.execute("PRAGMA table_info(trigger_runs)")]
    assert cols[cols.index("error") + 1] == "result", cols


def test_result_bounded_and_valid_utf8(ext):
    db = connect(ext)
    add(db, "t", overlap_policy="allow")
    ids = [tick(db, T0 + k * MIN, lease_ms=10 * MIN)[0]["run_id"] for k in (1, 2, 3)]
    long = "é" * 3000                        # 6000 bytes, 2 per character
    finish(db, ids[0], "success", long, now=T0 + 4 * MIN)
    got = one(db, "SELECT result FROM trigger_runs WHERE run_id = ?", ids[0])
    assert got == "é" * 2048 and len(got.encode()) == 4096, len(got.encode())
    odd = "x" + "é" * 3000                   # the 4096th byte is mid-character
    finish(db, ids[1], "success", odd, now=T0 + 4 * MIN)
    got = one(db, "SELECT result FROM trigger_runs WHERE run_id = ?", ids[1])
    assert got == "x" + "é" * 2047 and len(got.encode()) == 4095
    bad = b"ok \xff\xfe then \xe2\x82"        # invalid bytes, a cut sequence
    db.execute("SELECT trigger_run_finish(?, 'success', CAST(? AS TEXT), ?)",
               (ids[2], bad, T0 + 4 * MIN))
    got = one(db, "SELECT CAST(result AS BLOB) FROM trigger_runs WHERE run_id = ?", ids[2])
    assert got.decode("utf-8") == "ok \ufffd\ufffd then \ufffd", got


def test_deferred_result_cleared_on_reclaim(ext):
    db = connect(ext)
    add(db, "t")
    [r] = tick(db, T0 + MIN)
    finish(db, r["run_id"], "deferred", "no autonomy loop yet", now=T0 + MIN + 1)
    assert runs(db, "t")[0]["result"] == "no autonomy loop yet"
    [again] = tick(db, T0 + MIN + 2)
    assert again["run_id"] == r["run_id"]
    assert runs(db, "t")[0]["result"] is None


def test_no_ack_success_keeps_last_error(ext):
    db = connect(ext)
    add(db, "t")
    [r] = tick(db, T0 + MIN)
    finish(db, r["run_id"], "failed", "boom", now=T0 + MIN + 1)
    tick(db, T0 + 2 * MIN, ack=False)
    t = trig(db, "t")
    assert (t["last_status"], t["last_error"], t["run_count"]) == ("success", "boom", 2), t


# ---- many reports in one transaction of the caller -----------------------

def test_finish_many_in_one_transaction(ext):
    # A host writes many reports in one transaction of its own (trigger-host
    # does: host/db/reports.c). Each trigger_run_finish runs in its own
    # SAVEPOINT (statements cached on the connection): a refused one undoes
    # only itself, the others commit with the caller's COMMIT, and every run
    # and trigger ends as if each had been finished alone.
    def setup():
        db = connect(ext)
        for k in range(6):
            add(db, f"t{k}", max_attempts=2)
        claimed = tick(db, T0 + MIN, lease_ms=10 * MIN)
        assert len(claimed) == 6
        return db, claimed

    outcomes = [("success", "ok"), ("failed", "boom"), ("skipped", None),
                ("deferred", None), ("success", None), ("failed", None)]
    alone, claimed = setup()
    ids = [r["run_id"] for r in claimed]
    for rid, (status, detail) in zip(ids, outcomes):
        finish(alone, rid, status, detail, now=T0 + MIN + 5)
    batch, claimed2 = setup()
    assert claimed2 == claimed
    finish(batch, ids[2], "skipped", None, now=T0 + MIN + 1)  # finished before
    batch.execute("BEGIN IMMEDIATE")
    refused = []
    for i, (rid, (status, detail)) in enumerate(zip(ids, outcomes)):
        try:
            finish(batch, rid, status, detail, now=T0 + MIN + 5)
        except sqlite3.Error as e:
            refused.append((i, str(e)))
        if i == 3:  # an unknown run, refused, in the middle of the batch
            try:
                finish(batch, "nope@1#1", "success", now=T0 + MIN + 5)
            except sqlite3.Error as e:
                refused.append(("nope", str(e)))
    assert batch.in_transaction
    batch.execute("COMMIT")
    assert [i for i, _ in refused] == [2, "nope"], refused
    assert "already finished" in refused[0][1] and "unknown run_id" in refused[1][1]
    state = "SELECT trigger_id, status, run_count, last_status, last_error, " \
            "next_due_at, enabled FROM triggers ORDER BY trigger_id"
    run_state = "SELECT run_id, trigger_id, agent_id, scheduled_for, attempt, status, " \
                "error, result, finished_at, payload FROM trigger_runs ORDER BY run_id"
    got, want = batch.execute(state).fetchall(), alone.execute(state).fetchall()
    # t2 was finished at T0+MIN+1 in the batch database, at +5 alone
    assert got == want, (got, want)
    got_runs = [r for r in batch.execute(run_state).fetchall() if r[1] != "t2"]
    want_runs = [r for r in alone.execute(run_state).fetchall() if r[1] != "t2"]
    assert got_runs == want_runs, (got_runs, want_runs)
    # the narrow run UPDATE left each run's identity and payload as claimed
    payloads = {r["run_id"]: r["payload"] for r in claimed}
    for (rid, tid, _agent, sched, attempt, *_rest, payload) in got_runs:
        assert rid == f"{tid}@{sched}#{attempt}", rid
        assert json.loads(payload) == payloads[rid], (payload, payloads[rid])
    # a heartbeat inside the caller's transaction: its own SAVEPOINT too
    [again] = [r for r in tick(batch, T0 + MIN + 6, lease_ms=10 * MIN) if r["trigger_id"] == "t3"]
    batch.execute("BEGIN IMMEDIATE")
    one(batch, "SELECT trigger_run_heartbeat(?, ?, ?)", again["run_id"], 20 * MIN, T0 + MIN + 7)
    try:
        one(batch, "SELECT trigger_run_heartbeat(?, ?, ?)", ids[0], 20 * MIN, T0 + MIN + 7)
        raise AssertionError("a finished run's heartbeat was accepted")
    except sqlite3.Error as e:
        assert "not running" in str(e) or "finished" in str(e), e
    batch.execute("COMMIT")
    assert one(batch, "SELECT lease_until FROM trigger_runs WHERE run_id = ?",
               again["run_id"]) == T0 + MIN + 7 + 20 * MIN


def test_finish_many_is_finish_one_by_one(ext):
    # trigger_run_finish_many(runs, now) writes what one trigger_run_finish
    # per element would (every shadow row the same), answers one element
    # per report in order, and a refused report (unknown run, already
    # finished, a bad element) is undone alone. The JSON shapes json1 reads
    # (a \\u escape, a number) give the same as the usual shape.
    def setup():
        db = connect(ext)
        for k in range(8):
            add(db, f"t{k}", max_attempts=2, pause_after_failures=1 if k == 5 else None)
        claimed = tick(db, T0 + MIN, lease_ms=10 * MIN)
        assert len(claimed) == 8
        return db, [r["run_id"] for r in claimed]

    now = T0 + MIN + 5
    reports = [("success", "ok \u00e9 \"q\""), ("failed", "boom"), ("skipped", None),
               ("deferred", None), ("success", None), ("failed", "x"),
               ("success", "caf\u00e9"), ("failed", None)]
    alone, ids = setup()
    finish(alone, ids[2], "skipped", None, now=now)
    for rid, (status, detail) in zip(ids, reports):
        if rid != ids[2]:
            finish(alone, rid, status, detail, now=now)
    for shape in ("plain", "json1"):
        many, ids2 = setup()
        assert ids2 == ids
        finish(many, ids[2], "skipped", None, now=now)
        items = [{"run_id": rid, "status": st, "detail": d}
                 for rid, (st, d) in zip(ids, reports)]
        items.insert(4, {"run_id": "nope@1#1", "status": "success"})
        items.insert(5, {"run_id": ids[4], "status": "done"})
        items.insert(6, ["not", "an", "object"] if shape == "json1"
                     else {"run_id": None, "status": "success"})
        if shape == "json1":
            items[0]["extra"] = 1.5  # a number: read by json_tree instead
        text = json.dumps(items, ensure_ascii=(shape == "json1"))
        answer = json.loads(one(many, "SELECT trigger_run_finish_many(?, ?)", text, now))
        assert [a["run_id"] for a in answer] == [i.get("run_id") if isinstance(i, dict) else None
                                                 for i in items], answer
        bad = {i: a["error"] for i, a in enumerate(answer) if not a["ok"]}
        assert sorted(bad) == [2, 4, 5, 6], answer
        assert "already finished" in bad[2] and "unknown run_id" in bad[4], bad
        assert "status" in bad[5], bad
        assert bad[6] == ("not an object" if shape == "json1" else "run_id must be a string"), bad
        assert dump(many) == dump(alone), shape
    # the whole call fails for an argument that is not an array of objects
    for text in ("{}", "[1", "3"):
        try:
            one(alone, "SELECT trigger_run_finish_many(?)", text)
            raise AssertionError(text)
        except sqlite3.Error as e:
            assert "trigger_run_finish_many: argument 1 (runs)" in str(e), e
    # a bad escape inside a string is repaired there, not the whole call
    # refused: the element is still no object
    assert json.loads(one(alone, "SELECT trigger_run_finish_many(?)", "[\"\\u0000\"]")) == [
        {"run_id": None, "ok": False, "error": "not an object"}]
    assert one(alone, "SELECT trigger_run_finish_many('[]')") == "[]"
    # inside the caller's transaction: its SAVEPOINTs, the caller commits
    alone.execute("BEGIN IMMEDIATE")
    again = tick(alone, T0 + 2 * MIN, lease_ms=MIN)
    answer = json.loads(one(alone, "SELECT trigger_run_finish_many(?, ?)",
                            json.dumps([{"run_id": r["run_id"], "status": "success"}
                                        for r in again]), T0 + 2 * MIN + 1))
    assert alone.in_transaction and all(a["ok"] for a in answer), answer
    alone.execute("COMMIT")


# ---- migration 3 -> 4 -----------------------------------------------------

def test_install_migrates_version_3(ext):
    # fixtures/schema_v3.sql: t's first run succeeded with a note (kept in
    # `error` by version 3, and copied into last_error), its second runs;
    # once1's attempt 1 failed, attempt 2 runs. trigger_install() brings it
    # to version 4 keeping every row: the note moves to `result`, every run
    # and trigger is incarnation 1 (run ids unchanged), and both go on.
    fresh = connect(ext)
    want = sorted(fresh.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema"))
    tmp = tempfile.mkdtemp()
    try:
        path = os.path.join(tmp, "v3.db")
        raw = sqlite3.connect(path, isolation_level=None)
        with open(os.path.join(FIXTURES, "schema_v3.sql")) as f:
            raw.executescript(f.read())
        # a deleted trigger's success with a note longer than a result may be
        raw.execute("INSERT INTO triggers_rundata(run_id, trigger_id, agent_id, scheduled_for,"
                    " attempt, status, finished_at, error) VALUES ('gone@1#1', 'gone', '', 1, 1,"
                    " 'success', 2, ?)", ("é" * 3000,))
        before = raw.execute("SELECT count(*) FROM triggers_rundata").fetchone()[0]
        raw.close()
        db = connect(ext, path, install=False)
        assert one(db, "SELECT trigger_install()") == 5
        got = sorted(db.execute("SELECT type, name, tbl_name, sql FROM sqlite_schema"))
        assert got == want
        assert one(db, "SELECT value FROM triggers_config WHERE key = 'schema_version'") == 5
        assert one(db, "SELECT count(*) FROM trigger_runs") == before == 5
        assert one(db, "SELECT result FROM trigger_runs WHERE run_id = 'gone@1#1'") == "é" * 2048
        rs = {r["run_id"]: r for r in runs(db)}
        ok = rs[f"t@{T0 + MIN}#1"]
        assert (ok["status"], ok["error"], ok["result"]) == ("success", None, "summary: all green")
        bad = rs[f"once1@{T0 + 30000}#1"]
        assert (bad["status"], bad["error"], bad["result"]) == ("failed", "boom", None)
        assert trig(db, "t")["last_error"] is None           # was the success note
        assert trig(db, "once1")["last_error"] == "boom"
        for table in ("triggers_rundata", "triggers_data"):
            got = [x[0] for x in db.execute(f"SELECT DISTINCT incarnation FROM {table}")]
            assert got == [1], (table, got)
        # both go on: the running runs finish, the schedule continues
        assert finish(db, f"t@{T0 + 2 * MIN}#1", "success", now=T0 + 2 * MIN + 5)["run_count"] == 2
        t = finish(db, f"once1@{T0 + 30000}#2", "success", now=T0 + 2 * MIN + 6)
        assert (t["status"], t["run_count"]) == ("completed", 2), t
        assert [r["run_id"] for r in tick(db, T0 + 3 * MIN)] == [f"t@{T0 + 3 * MIN}#1"]
        # and a re-created id is a new incarnation over the migrated history
        db.execute("DELETE FROM triggers WHERE trigger_id = 'once1'")
        add(db, "once1", trigger_type="once", scheduled_at=T0 + 30000, created_at=T0)
        assert [r["run_id"] for r in tick(db, T0 + 3 * MIN + 1)] == [f"once1@{T0 + 30000}#1~2"]
        db.close()
    finally:
        shutil.rmtree(tmp)


def test_claim_reads_no_more_rows_than_its_limit(ext):
    # A host with one free slot claims with limit 1: the tick read a first
    # batch of 16 whole trigger rows anyway (15 of them for nothing). Now
    # it reads as many as the limit lets it claim, then the next ones.
    db = connect(ext)
    for k in range(20):
        add(db, f"t{k:02d}")
    for want in (1, 3):
        claimed = tick(db, T0 + MIN, limit=want)
        assert len(claimed) == want
        assert json.loads(one(db, "SELECT trigger_last_tick()"))["rows_read"] == want
    rest = tick(db, T0 + MIN)
    assert len(rest) == 16 and json.loads(one(db, "SELECT trigger_last_tick()"))["rows_read"] == 16
