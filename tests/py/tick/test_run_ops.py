"""tests/py/tick/test_run_ops.py -- trigger_run_cancel and
trigger_run_retry (docs/reactive.md#cancel, #retry;
ext/tick/fn_run_ops.c, finish.c's tick_run_cancelled, reoffer.c): a
running run marked cancel-requested (its JSON and the heartbeat's answer
say so), reported cancelled or failed -> cancelled, never retried, not a
run nor a failure of its trigger, chaining run:<id>:cancelled; its lease's
end making it cancelled; a deferred run cancelled at once; retry as
attempt n+1 with the same scheduled_for and payload (retryOf), idempotent
until claimed, for a completed once trigger too; bad calls named and
nothing changed."""
import json

from util import MIN, T0, add, connect, dump, finish, one, refused, runs, tick, trig


def cancel(db, run_id, reason=None, now=None):
    return json.loads(one(db, "SELECT trigger_run_cancel(?, ?, ?)", run_id, reason, now))


def retry(db, run_id, now=None):
    return json.loads(one(db, "SELECT trigger_run_retry(?, ?)", run_id, now))


def test_a_cancelled_run_is_stopped_reported_and_never_retried(ext):
    db = connect(ext)
    add(db, "job", interval_ms=60 * MIN, max_attempts=3, pause_after_failures=1)
    add(db, "after", trigger_type="event", event_key="run:job:cancelled")
    [r] = tick(db, T0 + 60 * MIN)
    got = cancel(db, r["run_id"], "user asked", T0 + 60 * MIN + 5)
    assert got["status"] == "running" and got["cancel_requested_at"] == T0 + 60 * MIN + 5
    assert got["error"] == "user asked"
    # asked again: the first request stands
    assert cancel(db, r["run_id"], "again", T0 + 60 * MIN + 6)["cancel_requested_at"] == T0 + 60 * MIN + 5
    hb = json.loads(one(db, "SELECT trigger_run_heartbeat(?, NULL, ?)", r["run_id"], T0 + 60 * MIN + 7))
    assert hb["cancel_requested_at"] == T0 + 60 * MIN + 5
    # the host stopped the command: it reports failed (killed) -> cancelled
    finish(db, r["run_id"], "failed", "killed by signal 15", T0 + 60 * MIN + 9)
    [row] = runs(db, "job")
    assert (row["status"], row["error"], row["result"]) == (
        "cancelled", "user asked", "killed by signal 15"), row
    t = trig(db, "job")
    assert (t["status"], t["run_count"], t["last_status"]) == ("scheduled", 0, None), t
    assert one(db, "SELECT running FROM triggers_state WHERE trigger_id = 'job'") == 0
    # never retried; its chain ran
    got = tick(db, T0 + 60 * MIN + 10)
    assert [x["trigger_id"] for x in got] == ["after"], got


def test_cancelled_reported_and_lease_end_and_deferred(ext):
    db = connect(ext)
    add(db, "a", interval_ms=60 * MIN, max_attempts=3)
    add(db, "b", interval_ms=60 * MIN, max_attempts=3)
    add(db, "c", interval_ms=60 * MIN)
    ra, rb, rc = sorted(tick(db, T0 + 60 * MIN, lease_ms=MIN), key=lambda x: x["trigger_id"])
    now = T0 + 60 * MIN
    cancel(db, ra["run_id"], None, now + 1)
    finish(db, ra["run_id"], "cancelled", "stopped", now + 2)
    [row] = runs(db, "a")
    assert (row["status"], row["error"], row["result"]) == ("cancelled", "cancelled", "stopped")
    # a deferred run (waiting to be re-offered) is cancelled at once
    finish(db, rc["run_id"], "deferred", None, now + 3)
    got = cancel(db, rc["run_id"], None, now + 4)
    assert got["status"] == "cancelled" and got["finished_at"] == now + 4, got
    # a host that never reports: its lease ends, cancelled, not retried
    cancel(db, rb["run_id"], "too slow", now + 1)
    assert tick(db, now + MIN + 1) == []
    [row] = runs(db, "b")
    assert (row["status"], row["error"]) == ("cancelled", "too slow"), row
    assert [x["status"] for x in runs(db, "c")] == ["cancelled"]


def test_retry_runs_the_occurrence_again_as_the_next_attempt(ext):
    db = connect(ext)
    ev = "pr:1"
    add(db, "once", trigger_type="once", scheduled_at=T0 + MIN)
    add(db, "e", trigger_type="event", event_key=ev)
    [r] = tick(db, T0 + MIN)
    finish(db, r["run_id"], "failed", "boom", T0 + MIN + 1)
    assert trig(db, "once")["status"] == "completed"
    pending = retry(db, r["run_id"], T0 + 2 * MIN)
    assert (pending["attempt"], pending["status"], pending["scheduled_for"]) == (2, "deferred", T0 + MIN)
    assert pending["payload"]["retryOf"] == r["run_id"]
    assert pending["payload"]["triggerRunId"] == pending["run_id"]
    # idempotent until claimed
    before = dump(db)
    assert retry(db, r["run_id"], T0 + 2 * MIN + 1) == pending
    assert dump(db) == before
    assert tick(db, T0 + 2 * MIN - 1) == []           # not before its now
    [again] = tick(db, T0 + 2 * MIN)
    assert again["run_id"] == pending["run_id"] and again["attempt"] == 2
    finish(db, again["run_id"], "success", "ok", T0 + 2 * MIN + 1)
    t = trig(db, "once")
    assert (t["status"], t["run_count"]) == ("completed", 2), t
    # an event run keeps its signal in the retry
    one(db, "SELECT trigger_signal(?, '{\"n\":1}', ?)", ev, T0 + 3 * MIN)
    [er] = tick(db, T0 + 3 * MIN)
    finish(db, er["run_id"], "success", None, T0 + 3 * MIN + 1)
    [er2] = [x for x in tick(db, T0 + 4 * MIN) if x["trigger_id"] == "e"] or [None]
    assert er2 is None
    p = retry(db, er["run_id"], T0 + 4 * MIN)
    assert p["payload"]["event"] == er["payload"]["event"], p
    [got] = tick(db, T0 + 4 * MIN)
    assert got["payload"]["event"]["payload"] == {"n": 1}


def test_bad_cancel_and_retry_calls_are_named_and_change_nothing(ext):
    db = connect(ext)
    add(db, "job", interval_ms=60 * MIN)
    add(db, "gone", interval_ms=60 * MIN)
    rj, rg = sorted(tick(db, T0 + 60 * MIN), key=lambda x: x["trigger_id"])[::-1]
    assert rj["trigger_id"] == "job"
    finish(db, rg["run_id"], "success", None, T0 + 60 * MIN + 1)
    for sql, args, msg in [
        ("SELECT trigger_run_cancel(?)", ("nope",), "trigger_run_cancel: unknown run_id 'nope'"),
        ("SELECT trigger_run_cancel(?)", (rg["run_id"],),
         f"trigger_run_cancel: run '{rg['run_id']}' is already finished (success"),
        ("SELECT trigger_run_cancel(?, 5)", (rj["run_id"],), "argument 2 (reason)"),
        ("SELECT trigger_run_cancel(?, NULL, 'x')", (rj["run_id"],), "argument 3 (now)"),
        ("SELECT trigger_run_retry(?)", ("nope",), "trigger_run_retry: unknown run_id 'nope'"),
        ("SELECT trigger_run_retry(?)", (rj["run_id"],),
         f"trigger_run_retry: run '{rj['run_id']}' is running"),
        ("SELECT trigger_run_retry(NULL)", (), "argument 1 (run_id)"),
    ]:
        refused(db, sql, args, msg)
    one(db, "SELECT trigger_pause('gone', ?)", T0 + 60 * MIN + 2)
    refused(db, "SELECT trigger_run_retry(?)", (rg["run_id"],),
            "trigger 'gone' is paused (resume it first")
    db.execute("DELETE FROM triggers WHERE trigger_id = 'gone'")
    refused(db, "SELECT trigger_run_retry(?)", (rg["run_id"],), "trigger 'gone' of run")


def test_usage_reported_with_the_finish_is_kept_and_bad_usage_refused(ext):
    """trigger_run_finish's fifth argument (docs/reactive.md#usage): a
    JSON object kept in the run's usage column; a cost that is not a
    number >= 0, tokens that are not an integer >= 0, or text that is not
    an object are refused, nothing changed."""
    db = connect(ext)
    add(db, "job", interval_ms=60 * MIN)
    [r] = tick(db, T0 + 60 * MIN)
    sql = "SELECT trigger_run_finish(?, 'success', 'ok', ?, ?)"
    for usage, msg in [('{"cost":-1}', "argument 5 (usage): cost must be a number >= 0"),
                       ('{"cost":"1"}', "cost must be a number >= 0"),
                       ('{"tokens":1.5}', "tokens must be an integer >= 0"),
                       ('[1]', "argument 5 (usage): must be a JSON object"),
                       ('{"cost":', "argument 5 (usage): must be a JSON object"),
                       ('{"a":"' + "x" * 5000 + '"}', "more than 4096 bytes")]:
        refused(db, sql, (r["run_id"], T0 + 60 * MIN + 1, usage), msg)
    refused(db, sql, (r["run_id"], T0 + 60 * MIN + 1, 5), "argument 5 (usage) must be")
    one(db, sql, r["run_id"], T0 + 60 * MIN + 1, '{"cost":0.42,"tokens":1800}')
    assert json.loads(runs(db, "job")[0]["usage"]) == {"cost": 0.42, "tokens": 1800}
    # a failure's usage too (its retry is a run of its own)
    [r2] = tick(db, T0 + 120 * MIN)
    one(db, "SELECT trigger_run_finish(?, 'failed', 'x', ?, ?)", r2["run_id"], T0 + 120 * MIN,
        '{"cost":1}')
    assert json.loads(runs(db, "job")[1]["usage"]) == {"cost": 1}
