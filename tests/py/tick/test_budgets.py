"""tests/py/tick/test_budgets.py -- budgets (docs/reactive.md#budgets;
ext/tick/budget_hold.c, ext/store/budget.c): budget_window_ms with
budget_runs / budget_cost checked like the other columns (bad values
named, nothing written); at claim time a trigger over its budget in
[now - window, now) is paused (policy pause, an auto_paused event whose
detail.reason names the budget) or has its occurrences recorded skipped
until the window has room (policy skip); the window slides; an agent over
agent_budget_cost in agent_budget_window_ms has its claims held, due, not
lost; a version 6 database from before budgets gains the columns in
place; the counts are index ranges."""
import json
import shutil
import tempfile

from util import (MIN, T0, add, connect, create, events, finish, from_fixture, health,
                  one, refused, runs, tick, trig)

INSERT = ("INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms,"
          " budget_window_ms, budget_runs, budget_cost, budget_policy)"
          " VALUES('b', 'do b', 'interval', 60000, ?, ?, ?, ?)")


def finish_usage(db, run_id, now, cost):
    return json.loads(one(db, "SELECT trigger_run_finish(?, 'success', NULL, ?, ?)",
                          run_id, now, json.dumps({"cost": cost})))


def test_bad_budget_values_are_named_and_nothing_is_written(ext):
    db = connect(ext)
    for args, msg in [((3600000, 0, None, None), "triggers.budget_runs: must be >= 1, got 0"),
                      ((3600000, -2, None, None), "triggers.budget_runs: must be >= 1"),
                      ((3600000, None, 0, None), "triggers.budget_cost: must be >= 1, got 0"),
                      ((3600000, None, 2.5, None), "triggers.budget_cost: 2.5 is not an integer"),
                      ((0, 5, None, None), "triggers.budget_window_ms: must be >= 1"),
                      ((-5, 5, None, None), "triggers.budget_window_ms: must be >= 1"),
                      ((3600000, None, None, None), "triggers.budget_window_ms: needs budget_runs or budget_cost"),
                      ((None, 5, None, None), "triggers.budget_runs: needs budget_window_ms"),
                      ((None, None, 5, None), "triggers.budget_cost: needs budget_window_ms"),
                      ((None, None, None, "skip"), "triggers.budget_policy: needs budget_window_ms"),
                      ((3600000, 5, None, "stop"), "triggers.budget_policy: 'stop' is not one of 'pause', 'skip'"),
                      ((3600000, 5, None, 7), "triggers.budget_policy")]:
        refused(db, INSERT, args, msg)
    add(db, "ok", budget_window_ms=3600000, budget_runs=5, budget_policy="SKIP")
    t = trig(db, "ok")
    assert (t["budget_window_ms"], t["budget_runs"], t["budget_cost"], t["budget_policy"]) == \
        (3600000, 5, None, "skip"), t
    refused(db, "UPDATE triggers SET budget_runs = 0 WHERE trigger_id = 'ok'", (),
            "triggers.budget_runs: must be >= 1")
    refused(db, "UPDATE triggers SET budget_window_ms = NULL WHERE trigger_id = 'ok'", (),
            "needs budget_window_ms")
    db.execute("UPDATE triggers SET budget_cost = 3, budget_runs = NULL WHERE trigger_id = 'ok'")
    assert trig(db, "ok")["budget_cost"] == 3
    # the create action takes them as well
    out = create(db, {"instructions": "ping", "trigger_type": "interval", "interval_ms": 3600000,
                      "budget_window_ms": 86400000, "budget_runs": 3,
                      "budget_policy": "skip"})
    assert out["success"], out
    [t] = [x for x in db.execute("SELECT budget_runs, budget_policy FROM triggers"
                                 " WHERE instructions = 'ping'")]
    assert t == (3, "skip"), t
    out = create(db, {"instructions": "pong", "trigger_type": "interval", "interval_ms": 3600000,
                      "budget_window_ms": 86400000, "budget_runs": -1})
    assert not out["success"] and "budget_runs" in out["reason"], out


def test_pause_policy_pauses_with_an_auto_paused_event_naming_the_budget(ext):
    db = connect(ext)
    add(db, "p", budget_window_ms=3 * MIN, budget_runs=2)
    assert len(tick(db, T0 + MIN, ack=False)) == 1
    assert len(tick(db, T0 + 2 * MIN, ack=False)) == 1
    assert tick(db, T0 + 3 * MIN, ack=False) == []
    t = trig(db, "p")
    assert t["status"] == "paused" and t["next_due_at"] is None, t
    assert t["last_error"].startswith("budget: budget_runs 2 spent: 2 runs"), t
    [e] = events(db, "WHERE kind = 'auto_paused'")
    assert e["trigger_id"] == "p" and "budget_runs 2" in json.loads(e["detail"])["reason"], e
    assert health(db, T0 + 3 * MIN)["budget_held"] == 1
    # resumed: runs again once the window has room
    one(db, "SELECT trigger_resume('p', ?)", T0 + 6 * MIN)
    assert len(tick(db, T0 + 7 * MIN, ack=False)) == 1
    assert health(db, T0 + 7 * MIN)["budget_held"] == 0


def test_skip_policy_records_skipped_until_the_window_slides(ext):
    db = connect(ext)
    add(db, "s", budget_window_ms=3 * MIN, budget_runs=2, budget_policy="skip")
    for k in range(1, 7):
        tick(db, T0 + k * MIN, ack=False)
    got = [(r["scheduled_for"] - T0) // MIN for r in runs(db, "s") if r["status"] == "success"]
    skipped = [r for r in runs(db, "s") if r["status"] == "skipped"
               and r["error"].startswith("budget:")]
    assert got == [1, 2, 5, 6], got
    assert [(r["scheduled_for"] - T0) // MIN for r in skipped] == [3, 4], skipped
    assert "budget_runs 2 spent" in skipped[0]["error"]
    assert trig(db, "s")["status"] == "scheduled"


def test_cost_budget_counts_the_usage_reported_in_the_window(ext):
    db = connect(ext)
    add(db, "c", budget_window_ms=10 * MIN, budget_cost=1)
    [r] = tick(db, T0 + MIN)
    finish_usage(db, r["run_id"], T0 + MIN + 5, 0.6)
    [r] = tick(db, T0 + 2 * MIN)
    finish_usage(db, r["run_id"], T0 + 2 * MIN + 5, 0.5)
    assert tick(db, T0 + 3 * MIN) == []
    t = trig(db, "c")
    assert t["status"] == "paused" and "budget_cost 1 spent: cost 1.1" in t["last_error"], t


def test_a_new_incarnation_starts_with_an_empty_window(ext):
    db = connect(ext)
    add(db, "i", budget_window_ms=60 * MIN, budget_runs=1)
    assert len(tick(db, T0 + MIN, ack=False)) == 1
    db.execute("DELETE FROM triggers WHERE trigger_id = 'i'")
    add(db, "i", budget_window_ms=60 * MIN, budget_runs=1, created_at=T0 + MIN)
    assert len(tick(db, T0 + 2 * MIN, ack=False)) == 1


def test_agent_budget_holds_its_claims_due_until_the_window_has_room(ext):
    db = connect(ext)
    one(db, "SELECT trigger_config('agent_budget_window_ms', ?)", 10 * MIN)
    one(db, "SELECT trigger_config('agent_budget_cost', 2)")
    add(db, "a", agent_id="ag", interval_ms=MIN)
    add(db, "b", agent_id="ag", interval_ms=MIN, instructions="other")
    add(db, "c", agent_id="other", interval_ms=MIN, instructions="third")
    got = tick(db, T0 + MIN)
    assert sorted(r["trigger_id"] for r in got) == ["a", "b", "c"]
    for r in got:
        finish_usage(db, r["run_id"], T0 + MIN + 5, 1.5 if r["trigger_id"] != "c" else 9)
    # ag spent 3 >= 2, other spent 9: every claim held, nothing lost
    assert tick(db, T0 + 2 * MIN) == []
    assert health(db, T0 + 2 * MIN)["budget_held"] == 3
    assert health(db, T0 + 2 * MIN, agents=["ag"])["budget_held"] == 2
    assert trig(db, "a")["next_due_at"] == T0 + 2 * MIN
    assert trig(db, "a")["status"] == "scheduled"
    # the window slides past the costly runs: they run, the missed
    # occurrence coalesced as before
    got = tick(db, T0 + 12 * MIN)
    assert sorted(r["trigger_id"] for r in got) == ["a", "b", "c"], got
    assert health(db, T0 + 12 * MIN)["budget_held"] == 0


def test_budget_counts_are_index_ranges(ext):
    db = connect(ext)
    plans = {}
    for sql in ["SELECT count(*) FROM main.triggers_rundata WHERE trigger_id = 'x'"
                " AND incarnation = 1 AND scheduled_for >= 0 AND scheduled_for < 9"
                " AND status IN ('running', 'success', 'failed', 'cancelled')",
                "SELECT total(1) FROM main.triggers_rundata INDEXED BY triggers_rundata_outcome"
                " WHERE agent_id = 'a' AND status IN ('success', 'failed', 'cancelled')"
                " AND finished_at >= 0 AND finished_at < 9 AND finished_at IS NOT NULL"]:
        plans[sql] = " ".join(r[3] for r in db.execute("EXPLAIN QUERY PLAN " + sql))
    for sql, plan in plans.items():
        assert "SEARCH" in plan and "scheduled_for>? AND scheduled_for<?" in plan \
            or "finished_at>? AND finished_at<?" in plan, plan


def test_a_version_6_database_from_before_budgets_gains_them_in_place(ext):
    tmp = tempfile.mkdtemp()
    try:
        db = from_fixture(ext, tmp, "schema_v6_pre_budget.sql")
        try:
            db.execute("SELECT count(*) FROM triggers").fetchall()
        except Exception as e:
            assert "without the budget columns" in str(e) and "trigger_install" in str(e), e
        else:
            raise AssertionError("a version 6 table without the budget columns was used")
        db.close()
        db = from_fixture(ext, tmp, "schema_v6_pre_budget.sql")
        assert one(db, "SELECT trigger_install()") == 6
        assert one(db, "SELECT trigger_install()") == 6  # again: nothing to add
        assert one(db, "SELECT count(*) FROM triggers WHERE budget_window_ms IS NULL") == 2
        assert one(db, "PRAGMA integrity_check") == "ok"
        # the run of before counts: one run with cost 0.5 in the window
        db.execute("UPDATE triggers SET budget_window_ms = ?, budget_runs = 1 WHERE trigger_id = 't'",
                   (60 * MIN,))
        assert tick(db, T0 + 2 * MIN) == []
        assert trig(db, "t")["status"] == "paused"
        refused(db, "UPDATE triggers SET budget_policy = 'never' WHERE trigger_id = 't'", (),
                "triggers.budget_policy")
        # the CHECK holds on the added column too
        try:
            db.execute("UPDATE triggers_data SET budget_policy = 'never' WHERE trigger_id = 't'")
        except Exception as e:
            assert "CHECK" in str(e), e
        else:
            raise AssertionError("CHECK missing on the added column")
        db.close()
    finally:
        shutil.rmtree(tmp)


def test_finish_many_members_take_usage_and_bad_usage_refuses_that_report(ext):
    db = connect(ext)
    for i in range(4):
        add(db, f"m{i}", instructions=f"do m{i}")
    rs = {r["trigger_id"]: r["run_id"] for r in tick(db, T0 + MIN)}
    reports = [{"run_id": rs["m0"], "status": "success", "usage": {"cost": 0.25, "tokens": 10}},
               {"run_id": rs["m1"], "status": "success", "usage": {"cost": -1}},
               {"run_id": rs["m2"], "status": "failed", "detail": "x", "usage": "cheap"},
               {"run_id": rs["m3"], "status": "success", "usage": None}]
    got = json.loads(one(db, "SELECT trigger_run_finish_many(?, ?)", json.dumps(reports), T0 + MIN + 1))
    assert [g["ok"] for g in got] == [True, False, False, True], got
    assert got[1]["error"] == "usage: cost must be a number >= 0", got
    assert "usage must be a JSON object" in got[2]["error"], got
    by = {r["trigger_id"]: r for r in runs(db)}
    assert json.loads(by["m0"]["usage"]) == {"cost": 0.25, "tokens": 10}
    assert by["m1"]["status"] == "running" and by["m1"]["usage"] is None  # nothing changed
    assert by["m2"]["status"] == "running"
    assert by["m3"]["status"] == "success" and by["m3"]["usage"] is None
    # the flat shape (no nested member) still reads as before
    got = json.loads(one(db, "SELECT trigger_run_finish_many(?, ?)",
                         json.dumps([{"run_id": rs["m1"], "status": "success"}]), T0 + MIN + 2))
    assert got == [{"run_id": rs["m1"], "ok": True}], got


def test_summary_says_what_a_budget_holds_and_what_is_nearly_spent(ext):
    db = connect(ext)
    add(db, "p", agent_id="ag", budget_window_ms=60 * MIN, budget_runs=1)
    [r] = tick(db, T0 + MIN)
    finish_usage(db, r["run_id"], T0 + MIN + 5, 1.7)
    payload = json.loads(one(db, "SELECT trigger_state_payload('ag', ?)", T0 + MIN + 10))
    assert "pause" not in payload["hints"], payload
    # the agent's budget: 1.7 of 2 is 85%, nearly spent
    one(db, "SELECT trigger_config('agent_budget_window_ms', ?)", 60 * MIN)
    one(db, "SELECT trigger_config('agent_budget_cost', 2)")
    text = one(db, "SELECT trigger_state_summary('ag', ?)", T0 + MIN + 10)
    assert "budget nearly spent: cost 1.7 of agent_budget_cost 2" in text, text
    # the trigger's own budget pauses it: the hint pause and its line
    assert tick(db, T0 + 2 * MIN) == []
    payload = json.loads(one(db, "SELECT trigger_state_payload('ag', ?)", T0 + 2 * MIN))
    assert "pause" in payload["hints"], payload
    assert "p held by its budget (budget_runs 1 spent" in payload["loopSummary"], payload
    # spent: the agent's claims are held, said so
    one(db, "SELECT trigger_config('agent_budget_cost', 1)")
    text = one(db, "SELECT trigger_state_summary('ag', ?)", T0 + 2 * MIN)
    assert "budget spent: cost 1.7 of agent_budget_cost 1" in text and "new runs held" in text, text
