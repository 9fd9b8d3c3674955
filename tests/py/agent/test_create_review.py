"""tests/py/agent/test_create_review.py -- the create action's fixes of a
seed review (docs/create-action.md): a duplicate answers with the
existing trigger's status ("existingStatus"); the creation-rate quota
counts creations in the event log, so deleting triggers does not give
them back (per scope and per user); an expired trigger's last_error and
its event's detail.reason say why; a schedule that can never run (end_at
in the past, no occurrence before end_at, a cron that never fires) is
refused INVALID_SCHEDULE; max_interval_ms bounds how far ahead the first
occurrence is, for every type; a create refused CONFIRMATION_REQUIRED
gives the agent's summary the hint await_admin_confirmation until it is
repeated with the confirmation or stale_ms passes."""
import json

from util import MIN, T0, connect, create, dump, events, one, tick

DAY = 24 * 60 * MIN
IV = {"instructions": "Check the build", "trigger_type": "interval", "interval_ms": 15 * MIN}


def ctx(now=T0, **kw):
    return dict({"agent_id": "a1", "role": "owner", "now": now}, **kw)


def refused(r, code, reason):
    assert (r["success"], r["created"], r.get("error")) == (False, False, code), r
    assert r["reason"] == reason, r


def test_duplicate_answers_with_the_existing_status(ext):
    db = connect(ext)
    tid = create(db, IV)["triggerId"]
    r = create(db, IV)
    assert (r["created"], r["existingTriggerId"], r["existingStatus"]) == \
        (False, tid, "scheduled"), r
    db.execute("SELECT trigger_pause(?)", (tid,))
    r = create(db, IV)  # paused: the agent learns it will not run
    assert (r["success"], r["created"], r["existingStatus"]) == (True, False, "paused"), r
    assert "existingStatus" not in create(db, dict(IV, instructions="other"))


def test_creation_rate_counts_the_event_log(ext):
    db = connect(ext)
    one(db, "SELECT trigger_config('max_creations_per_window', 2)")
    for i in range(2):
        assert create(db, dict(IV, instructions=f"t{i}"))["created"]
        db.execute("DELETE FROM triggers")  # gives nothing back
    before = dump(db)
    r = create(db, dict(IV, instructions="t2"))
    refused(r, "TRIGGER_QUOTA_EXCEEDED",
            "2 triggers created in the last 3600000 ms (max_creations_per_window 2)")
    assert dump(db) == before
    # the window moves on: created again
    assert create(db, dict(IV, instructions="t3"), ctx(T0 + 3600 * 1000 + 1))["created"]
    # a duplicate is no creation
    assert not create(db, dict(IV, instructions="t3"), ctx(T0 + 3600 * 1000 + 2))["created"]


def test_user_creation_rate_counts_the_event_log(ext):
    db = connect(ext)
    one(db, "SELECT trigger_config('max_creations_per_window', 2)")
    for i in range(2):  # two scopes, deleted at once
        assert create(db, dict(IV, instructions=f"u{i}"), ctx(user_id="u1", scope=f"s{i}"))["created"]
        db.execute("DELETE FROM triggers")
    r = create(db, dict(IV, instructions="u2"), ctx(user_id="u1", scope="s9"))
    refused(r, "TRIGGER_QUOTA_EXCEEDED",
            "2 triggers created by user 'u1' in the last 3600000 ms "
            "(max_creations_per_window 2, per user)")
    # another user of the agent, in a fresh scope: not u1's count
    assert create(db, dict(IV, instructions="u3"), ctx(user_id="u2", scope="s8"))["created"]
    ev = events(db, "WHERE kind = 'created' ORDER BY at, event_id")
    assert json.loads(ev[0]["detail"])["user_id"] == "u1"


def test_expired_says_why(ext):
    db = connect(ext)
    r = create(db, {"instructions": "Take the cake out", "trigger_type": "once",
                    "scheduled_at": T0 + MIN, "window_ms": MIN})
    tick(db, T0 + 10 * MIN)  # no host claimed it within its window
    row = db.execute("SELECT status, last_error FROM triggers").fetchone()
    why = "expired: not claimed within window_ms 60000 after 2026-01-01T00:01:00Z"
    assert row == ("expired", why), row
    e = events(db, "WHERE kind = 'expired'")
    assert [json.loads(x["detail"]) for x in e] == [{"reason": why}], e
    assert e[0]["trigger_id"] == r["triggerId"]


def test_expired_while_paused_says_why(ext):
    db = connect(ext)
    tid = create(db, {"instructions": "Call back", "trigger_type": "once",
                      "scheduled_at": T0 + MIN})["triggerId"]
    db.execute("SELECT trigger_pause(?, ?)", (tid, T0))
    db.execute("SELECT trigger_resume(?, ?)", (tid, T0 + 10 * MIN))
    why = "expired: its time passed while it was paused"
    assert db.execute("SELECT status, last_error FROM triggers").fetchone() == ("expired", why)
    assert json.loads(events(db, "WHERE kind = 'expired'")[0]["detail"]) == {"reason": why}


def test_a_schedule_that_can_never_run_is_refused(ext):
    db = connect(ext)
    cases = [
        (dict(IV, end_at=T0 - 1000),
         "end_at 2025-12-31T23:59:59Z is not in the future: the schedule can never run"),
        ({"instructions": "c", "trigger_type": "cron", "cron_expression": "0 9 * * *",
          "end_at": T0 + 1000},
         "the cron schedule has no occurrence before end_at 2026-01-01T00:00:01Z: "
         "it can never run"),
        (dict(IV, end_at=T0 + 10 * MIN),
         "the interval schedule has no occurrence before end_at "
         "2026-01-01T00:10:00Z: it can never run"),
        ({"instructions": "c", "trigger_type": "cron", "cron_expression": "0 0 30 2 *"},
         "cron_expression '0 0 30 2 *' never fires after now"),
        ({"instructions": "o", "trigger_type": "once", "scheduled_at": T0 - MIN},
         "scheduled_at 2025-12-31T23:59:00Z is not in the future"),
    ]
    before = dump(db)
    for req, reason in cases:
        refused(create(db, req), "INVALID_SCHEDULE", reason)
        refused(create(db, req, ctx(dry_run=True)), "INVALID_SCHEDULE", reason)
    assert dump(db) == before
    # one occurrence before end_at: created
    assert create(db, dict(IV, end_at=T0 + 20 * MIN))["created"]


def test_max_interval_bounds_every_first_occurrence(ext):
    db = connect(ext)
    one(db, "SELECT trigger_config('max_interval_ms', 30 * 86400000)")
    cases = [
        (dict(IV, start_at=T0 + 40 * DAY),
         "the first occurrence 2026-02-10T00:00:00Z is further ahead than "
         "max_interval_ms 2592000000"),
        ({"instructions": "c", "trigger_type": "cron", "cron_expression": "0 9 1 6 *"},
         "the first occurrence 2026-06-01T09:00:00Z is further ahead than "
         "max_interval_ms 2592000000"),
        ({"instructions": "c", "trigger_type": "cron", "cron_expression": "0 9 * * *",
          "start_at": T0 + 31 * DAY},
         "the first occurrence 2026-02-01T09:00:00Z is further ahead than "
         "max_interval_ms 2592000000"),
        ({"instructions": "o", "trigger_type": "once", "scheduled_at": T0 + 31 * DAY},
         "scheduled_at 2026-02-01T00:00:00Z is further ahead than max_interval_ms 2592000000"),
    ]
    for req, reason in cases:
        refused(create(db, req), "INVALID_SCHEDULE", reason)
    assert one(db, "SELECT count(*) FROM triggers") == 0
    # within the bound: created
    assert create(db, dict(IV, start_at=T0 + 29 * DAY))["created"]
    assert create(db, {"instructions": "c", "trigger_type": "cron",
                       "cron_expression": "0 9 20 1 *"})["created"]


def hints(db, now, **opts):
    return json.loads(one(db, "SELECT trigger_state_payload('a1', ?, ?)",
                          now, json.dumps(opts)))["hints"]


def test_awaiting_confirmation_hint(ext):
    db = connect(ext)
    often = dict(IV, interval_ms=2 * MIN)
    assert hints(db, T0) == []
    refused(create(db, often), "CONFIRMATION_REQUIRED",
            "runs every 120000 ms, below confirm_below_ms 300000: repeat with "
            "context.confirmed = true")
    text = one(db, "SELECT trigger_state_summary('a1', ?)", T0 + MIN)
    assert text.startswith("Hints: await_admin_confirmation\n"), text
    assert hints(db, T0 + MIN) == ["await_admin_confirmation"]
    # stale_ms passed: no hint; within it: the hint
    assert hints(db, T0 + MIN, stale_ms=MIN - 1) == []
    assert hints(db, T0 + MIN, stale_ms=MIN) == ["await_admin_confirmation"]
    # another agent's refusal is not this agent's
    assert json.loads(one(db, "SELECT trigger_state_payload('a2', ?)", T0 + MIN))["hints"] == []
    # a dry run leaves no event, so no hint
    db2 = connect(ext)
    create(db2, often, ctx(dry_run=True))
    assert hints(db2, T0 + MIN) == []
    # repeated with the confirmation (at another now: another trigger_id,
    # the same dedupe key): answered
    assert create(db, often, ctx(T0 + 2 * MIN, confirmed=True))["created"]
    assert hints(db, T0 + 3 * MIN) == []
    # before the confirmation, the hint was there
    assert hints(db, T0 + 2 * MIN - 1) == ["await_admin_confirmation"]
