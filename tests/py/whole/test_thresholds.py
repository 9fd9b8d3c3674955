"""tests/py/whole/test_thresholds.py -- every documented threshold of the SQL
layer, on both sides of it: the exact boundary, and one unit (1 ms, one
more item, one byte) past it. Each test here fails when its comparison
is flipped (`>` for `>=`, `<=` for `<`): issue #21, item 3. The pure
modules' thresholds are in their unit tests (tests/unit/: schedule end_at,
the redaction word rule, dedupe's ASCII lower-casing).

    threshold (docs/)               where
    misfire_grace_ms (skip)          tick/claim.c, process_due
    window_ms (run and once trigger) tick/claim.c, take_occurrence, process_due
    lease expiry (lease_until)       store/due.c ST_RUNS_LEASED / ST_RUNS_ANY,
                                     tick/fn_run_report.c renew_lease,
                                     store/health.c
    retry instant (backoff_ms)       store/due.c ST_RUNS_RETRY
    100 runs per 'all' catch-up      schedule.c sched_catch_up
    100 deferrals                    tick/reoffer.c on_retry
    confirm_below_ms, min/max_interval_ms, once in the future
                                     fn_create.c check_policy
    max_active_per_scope, max_creations_per_window (creation_window_ms)
                                     fn_create.c check_quota
    min_confidence                   fn_create.c apply_when
    trigger_prune(before)            store/prune.c
    summary caps, stale_ms           fn_summary.c fit / fit_cut / seg_admin
    280-byte admin item, 16-byte     fn_summary.c cut_text / seg_admin /
    first-item cut, 3-byte room      fit_cut
Elsewhere: the 65536-byte XML request and intervalMs 2^53
(agent/test_xml_request.py), a result's 4096 bytes
(tick/test_run_report.py), trigger_preview's 10,000 rows
(sql/test_vtab_preview.py). Each comparison here is also a mutant of
`make mutants` (tests/mutants.txt), which checks that a test fails when it
is flipped.
"""
import json
import sqlite3

from util import MIN, T0, add, connect, finish, one, runs, tick, trig

OWNER = {"agent_id": "agent-1", "role": "owner", "now": T0}


def create(db, req, ctx=None):
    return json.loads(one(db, "SELECT trigger_create(?, ?)", json.dumps(req),
                          json.dumps(ctx or OWNER)))


def health(db, now):
    return json.loads(one(db, "SELECT trigger_health(?)", now))


# ---- the tick ----------------------------------------------------------

def test_misfire_grace_boundary(ext):
    # 'skip' runs an occurrence exactly misfire_grace_ms late (default 60 s)
    # and records one a millisecond later skipped
    for late, runs_it in ((60000, True), (60001, False)):
        db = connect(ext)
        add(db, "s", misfire_policy="skip", interval_ms=10 * MIN)
        due = T0 + 10 * MIN
        got = tick(db, due + late)
        assert [r["scheduled_for"] for r in got] == ([due] if runs_it else []), (late, got)
        st = [(r["status"], r["error"]) for r in runs(db, "s")]
        if runs_it:
            assert st == [("running", None)], st
        else:
            assert st[0][0] == "skipped" and "misfire_policy skip" in st[0][1], st
    # a configured grace is the bound too
    for late, runs_it in ((5000, True), (5001, False)):
        db = connect(ext)
        one(db, "SELECT trigger_config('misfire_grace_ms', 5000)")
        add(db, "s", misfire_policy="skip", interval_ms=10 * MIN)
        got = tick(db, T0 + 10 * MIN + late)
        assert len(got) == (1 if runs_it else 0), (late, got)


def test_window_ms_boundary(ext):
    # an occurrence claimed exactly window_ms after its due time runs; one
    # claimed a millisecond later is recorded expired
    for late, claimed in ((5000, True), (5001, False)):
        db = connect(ext)
        add(db, "w", window_ms=5000, interval_ms=10 * MIN)
        got = tick(db, T0 + 10 * MIN + late)
        assert len(got) == (1 if claimed else 0), (late, got)
        [r] = runs(db, "w")
        if claimed:
            assert r["status"] == "running"
        else:
            assert r["status"] == "expired" and "not claimed within window_ms 5000" in r["error"]
        assert trig(db, "w")["status"] == "scheduled"
    # a once trigger: exactly at the window it runs (and completes: ack
    # false records the run a success at once); past it, the run and the
    # trigger are expired
    for late, status in ((5000, "completed"), (5001, "expired")):
        db = connect(ext)
        add(db, "o", trigger_type="once", scheduled_at=T0 + MIN, window_ms=5000)
        got = tick(db, T0 + MIN + late, ack=False)
        assert len(got) == (1 if status == "completed" else 0), (late, got)
        assert trig(db, "o")["status"] == status, (late, trig(db, "o"))
        assert [r["status"] for r in runs(db, "o")] == (
            ["success"] if status == "completed" else ["expired"])


def test_lease_expiry_instant(ext):
    # a lease has passed at lease_until itself (not one ms later): the tick
    # reclaims the run, trigger_health counts it, a heartbeat is refused
    db = connect(ext)
    add(db, "t", interval_ms=10 * MIN, max_attempts=2)
    [r] = tick(db, T0 + 10 * MIN, lease_ms=10000)
    until = T0 + 10 * MIN + 10000
    assert one(db, "SELECT lease_until FROM trigger_runs") == until
    h0, h1 = health(db, until - 1), health(db, until)
    assert (h0["expired_leases"], h1["expired_leases"]) == (0, 1), (h0, h1)
    # overlap skip: the trigger is stalled behind the passed lease
    assert (h0["stalled"], h1["stalled"]) == (0, 1), (h0, h1)
    assert tick(db, until - 1) == []
    assert [x["status"] for x in runs(db, "t")] == ["running"]
    try:
        one(db, "SELECT trigger_run_heartbeat(?, NULL, ?)", r["run_id"], until)
        assert False, "a heartbeat at lease_until is refused"
    except sqlite3.OperationalError as e:
        assert "its lease passed" in str(e), e
    [again] = tick(db, until)
    assert again["attempt"] == 2
    assert [(x["status"], x["error"]) for x in runs(db, "t")][0] == ("failed", "lease expired")
    # one ms before lease_until a heartbeat renews it
    db = connect(ext)
    add(db, "t", interval_ms=10 * MIN)
    [r] = tick(db, T0 + 10 * MIN, lease_ms=10000)
    beat = json.loads(one(db, "SELECT trigger_run_heartbeat(?, NULL, ?)", r["run_id"], until - 1))
    assert beat["lease_until"] == until - 1 + 10000


def test_retry_instant(ext):
    # a failed run is re-offered exactly at finish + backoff_ms, not before
    db = connect(ext)
    add(db, "t", max_attempts=3, backoff_ms=1000, interval_ms=3600000)
    [r] = tick(db, T0 + 3600000)
    finish(db, r["run_id"], "failed", "boom", T0 + 3600000 + 10)
    at = T0 + 3600000 + 10 + 1000
    assert tick(db, at - 1) == []
    [r2] = tick(db, at)
    assert r2["attempt"] == 2
    # the second retry waits twice the backoff
    finish(db, r2["run_id"], "failed", "boom", at + 5)
    assert tick(db, at + 5 + 2000 - 1) == []
    assert [x["attempt"] for x in tick(db, at + 5 + 2000)] == [3]


def test_misfire_all_bound_is_100(ext):
    # 'all' runs at most 100 missed occurrences per tick: exactly 100 are
    # all run, 101 leave one recorded skipped
    for missed, skipped in ((100, 0), (101, 1)):
        db = connect(ext)
        add(db, "a", misfire_policy="all", interval_ms=1000, start_at=T0)
        got = tick(db, T0 + (missed - 1) * 1000, ack=False)
        assert len(got) == 100, (missed, len(got))
        rows = [r for r in runs(db, "a") if r["status"] == "skipped"]
        assert len(rows) == skipped, (missed, rows)


def test_deferral_bound_is_100(ext):
    # a run deferred 99 times is offered again; after the 100th deferral
    # the next tick records it expired
    db = connect(ext)
    add(db, "t", interval_ms=3600000)
    now = T0 + 3600000
    [r] = tick(db, now)
    for k in range(1, 101):
        finish(db, r["run_id"], "deferred", None, now + 1)
        now += 10
        got = tick(db, now)
        if k < 100:
            assert [x["run_id"] for x in got] == [r["run_id"]], k
    assert got == []
    [run] = runs(db, "t")
    assert (run["status"], run["error"]) == ("expired", "deferred too many times")


# ---- the create action's policy and quotas -------------------------------

IV = {"instructions": "x", "trigger_type": "interval"}


def refused(r, code, why):
    return r["success"] is False and r["error"] == code and why in r["reason"]


def test_confirm_below_ms_boundary(ext):
    # a period of exactly confirm_below_ms (default 300000) needs no
    # confirmation; one ms shorter does
    db = connect(ext)
    assert create(db, dict(IV, interval_ms=300000))["created"]
    r = create(db, dict(IV, instructions="y", interval_ms=299999))
    assert refused(r, "CONFIRMATION_REQUIRED", "below confirm_below_ms 300000"), r
    assert create(db, dict(IV, instructions="y", interval_ms=299999),
                  dict(OWNER, confirmed=True))["created"]
    # a configured bound, and a cron period
    one(db, "SELECT trigger_config('confirm_below_ms', 3600000)")
    assert create(db, {"instructions": "h", "trigger_type": "cron",
                       "cron_expression": "0 * * * *"})["created"]
    r = create(db, {"instructions": "m", "trigger_type": "cron",
                    "cron_expression": "*/30 * * * *"})
    assert refused(r, "CONFIRMATION_REQUIRED", "below confirm_below_ms 3600000"), r


def test_interval_bounds(ext):
    # min_interval_ms (60000) and max_interval_ms (366 days) are allowed
    # themselves; one ms outside either is refused
    ok = dict(OWNER, confirmed=True)
    db = connect(ext)
    assert create(db, dict(IV, interval_ms=60000), ok)["created"]
    r = create(db, dict(IV, instructions="b", interval_ms=59999), ok)
    assert refused(r, "INVALID_SCHEDULE", "more often than min_interval_ms 60000"), r
    assert create(db, dict(IV, instructions="c", interval_ms=31622400000))["created"]
    r = create(db, dict(IV, instructions="d", interval_ms=31622400001))
    assert refused(r, "INVALID_SCHEDULE", "above max_interval_ms 31622400000"), r
    # a once trigger: strictly after now, and at most max_interval_ms ahead
    once = {"instructions": "o", "trigger_type": "once"}
    r = create(db, dict(once, scheduled_at=T0))
    assert refused(r, "INVALID_SCHEDULE", "not in the future"), r
    assert create(db, dict(once, scheduled_at=T0 + 1))["created"]
    assert create(db, dict(once, instructions="p", scheduled_at=T0 + 31622400000))["created"]
    r = create(db, dict(once, instructions="q", scheduled_at=T0 + 31622400001))
    assert refused(r, "INVALID_SCHEDULE", "further ahead than max_interval_ms"), r


def test_quota_boundaries(ext):
    # max_active_per_scope: the Nth active trigger is created, the N+1th
    # refused; a cancelled one frees its place
    db = connect(ext)
    one(db, "SELECT trigger_config('max_active_per_scope', 2)")
    a = create(db, dict(IV, instructions="a", interval_ms=900000))
    assert a["created"] and create(db, dict(IV, instructions="b", interval_ms=900000))["created"]
    r = create(db, dict(IV, instructions="c", interval_ms=900000))
    assert refused(r, "TRIGGER_QUOTA_EXCEEDED", "2 active triggers"), r
    one(db, "SELECT trigger_cancel(?)", a["triggerId"])
    assert create(db, dict(IV, instructions="c", interval_ms=900000))["created"]
    # max_creations_per_window: a creation exactly creation_window_ms ago
    # has left the window; one a millisecond younger still counts
    db = connect(ext)
    one(db, "SELECT trigger_config('max_creations_per_window', 2)")
    one(db, "SELECT trigger_config('creation_window_ms', 60000)")
    assert create(db, dict(IV, instructions="a", interval_ms=900000))["created"]
    assert create(db, dict(IV, instructions="b", interval_ms=900000),
                  dict(OWNER, now=T0 + 10))["created"]
    r = create(db, dict(IV, instructions="c", interval_ms=900000), dict(OWNER, now=T0 + 59999))
    assert refused(r, "TRIGGER_QUOTA_EXCEEDED", "2 triggers created in the last 60000 ms"), r
    assert create(db, dict(IV, instructions="c", interval_ms=900000),
                  dict(OWNER, now=T0 + 60000))["created"]


def test_min_confidence_boundary(ext):
    # a phrase whose confidence equals min_confidence is accepted; a bound
    # one hundredth higher refuses it ("in 2 hours": 0.95)
    req = {"instructions": "x", "when": "in 2 hours"}
    db = connect(ext)
    assert json.loads(one(db, "SELECT trigger_parse_when('in 2 hours', ?)", T0))["confidence"] == 0.95
    one(db, "SELECT trigger_config('min_confidence', '0.95')")
    assert create(db, req)["created"]
    one(db, "SELECT trigger_config('min_confidence', '0.96')")
    r = create(db, dict(req, instructions="y"))
    assert refused(r, "INVALID_SCHEDULE", "confidence 0.95 is below min_confidence 0.96"), r


# ---- retention ---------------------------------------------------------

def test_prune_before_is_exclusive(ext):
    # trigger_prune(before) deletes runs finished strictly before `before`
    db = connect(ext)
    add(db, "t", interval_ms=10 * MIN)
    [r] = tick(db, T0 + 10 * MIN)
    done = T0 + 10 * MIN + 5
    finish(db, r["run_id"], "success", None, done)
    assert one(db, "SELECT trigger_prune(?)", done) == 0
    assert len(runs(db, "t")) == 1
    assert one(db, "SELECT trigger_prune(?)", done + 1) == 1
    assert runs(db, "t") == []


# ---- the state summary -------------------------------------------------

def summary_db(ext):
    """An agent with admin items, successes, a failure and pending triggers:
    every segment has several lines."""
    db = connect(ext)
    add(db, "build", agent_id="a1", display_name="Check the build")
    add(db, "docs", agent_id="a1", display_name="Rebuild the docs")
    add(db, "flaky", agent_id="a1", display_name="Flaky job", max_attempts=1)
    for k in (1, 2):
        for r in tick(db, T0 + k * MIN):
            bad = r["trigger_id"] == "flaky" and k == 2
            finish(db, r["run_id"], "failed" if bad else "success",
                   "HTTP 503" if bad else f"note {k}", T0 + k * MIN + 7)
    return db


ADMIN = [{"ts": T0 + k * 1000, "text": f"directive {k}", "resolved": k == 0} for k in range(4)]
NOW = T0 + 3 * MIN


def payload(db, **opts):
    opts.setdefault("admin", ADMIN)
    return json.loads(one(db, "SELECT trigger_state_payload('a1', ?, ?)", NOW, json.dumps(opts)))


def text(db, **opts):
    opts.setdefault("admin", ADMIN)
    return one(db, "SELECT trigger_state_summary('a1', ?, ?)", NOW, json.dumps(opts))


def blen(s):
    return len(s.encode("utf-8"))


def test_summary_caps_exactly_filled(ext):
    # a segment (and the whole text) exactly as long as its cap is kept
    # whole; a cap one byte smaller cuts it
    db = summary_db(ext)
    full = payload(db)
    assert full["confidence"] == "high", full
    for key, opt in (("adminSummary", "max_admin"), ("loopSummary", "max_loop")):
        seg = full[key]
        assert seg.count("\n") >= 2, seg
        at = payload(db, **{opt: blen(seg)})
        assert at[key] == seg and at["confidence"] == "high", (opt, at)
        below = payload(db, **{opt: blen(seg) - 1})
        assert below[key] != seg and blen(below[key]) < blen(seg), (opt, below)
        assert below["confidence"] == "medium", (opt, below)
    whole = text(db)
    foot = whole.rsplit("\n\n", 1)[1]
    assert foot.startswith("As of ") and foot.endswith(".")
    assert text(db, max_footer=blen(foot)) == whole
    cut = text(db, max_footer=blen(foot) - 1).rsplit("\n\n", 1)[1]
    assert cut != foot and blen(cut) <= blen(foot) - 1, cut
    # the first clause ("As of <now>") exactly filling the footer is kept
    # whole; one byte less and it is cut with "..."
    first = "As of 2026-01-01T00:03:00Z"
    assert foot.startswith(first + ";"), foot
    assert text(db, max_footer=blen(first) + 1).rsplit("\n\n", 1)[1] == first + "."
    assert text(db, max_footer=blen(first)).rsplit("\n\n", 1)[1] == first[:-4] + "....", \
        text(db, max_footer=blen(first))
    # the total: Pending gets what the other segments leave
    assert text(db, max_total=blen(whole)) == whole
    less = text(db, max_total=blen(whole) - 1)
    assert blen(less) < blen(whole) and less.split("\n\n")[2] != whole.split("\n\n")[2], less


def test_summary_stale_boundary(ext):
    # an admin item exactly stale_ms old is current; one ms older is stale
    db = summary_db(ext)
    items = [{"ts": NOW - 5000, "text": "edge"}, {"ts": NOW - 5001, "text": "older"}]
    got = text(db, admin=items, stale_ms=5000)
    assert "edge" in got and "older" not in got and "1 stale admin item ignored" in got, got


def test_summary_failure_streak_and_overdue_marks(ext):
    # "N consecutive failures" from a streak of 2 (not 1); "(overdue)" for
    # a trigger due at or before now (not one ms after)
    db = connect(ext)
    add(db, "f", agent_id="a1", display_name="Flaky", interval_ms=MIN)
    loops = []
    for k in (1, 2):
        [r] = tick(db, T0 + k * MIN)
        finish(db, r["run_id"], "failed", "boom", T0 + k * MIN + 1)
        loops.append(payload(db, admin=[])["loopSummary"])
    assert "consecutive" not in loops[0], loops[0]
    assert "; 2 consecutive failures; error: boom" in loops[1], loops[1]
    due = trig(db, "f")["next_due_at"]
    def pend(now):  # the Pending segment, wherever the Hints line puts it
        text = one(db, "SELECT trigger_state_summary('a1', ?)", now)
        return next(s for s in text.split("\n\n") if s.startswith("Pending:"))
    assert pend(due).endswith("Flaky (f) (overdue)"), pend(due)
    assert pend(due - 1).endswith("Flaky (f)"), pend(due - 1)


def test_summary_item_and_cut_boundaries(ext):
    # an admin item of exactly SUM_ITEM_MAX (280) bytes is kept whole; one
    # byte more and it is cut with "..." (and the summary is "medium")
    db = summary_db(ext)
    for n, whole in ((280, True), (281, False)):
        p = payload(db, admin=[{"ts": NOW - 1, "text": "x" * n}])
        line = p["adminSummary"].split("\n")[1]
        assert line.endswith("x" * n if whole else "x" * 277 + "..."), (n, line)
        assert p["confidence"] == ("high" if whole else "medium"), (n, p)
    # the most important admin item is cut to fit when at least 16 bytes of
    # its text fit; with 15 it is omitted
    item = [{"ts": NOW - 1, "text": "y" * 100}]
    fixed = blen(payload(db, admin=item)["adminSummary"]) - len("Admin:") - 100
    at = payload(db, admin=item, max_admin=len("Admin:") + fixed + 16)["adminSummary"]
    assert at.endswith("] " + "y" * 13 + "..."), at
    below = payload(db, admin=item, max_admin=len("Admin:") + fixed + 15)["adminSummary"]
    assert below == "Admin:\n(+1 more admin item omitted)", below
    # a clause cut to fit keeps one character before its "...": a footer
    # cap of 5 bytes is "A....", of 4 (room for "..." alone) no footer
    assert text(db, max_footer=5).rsplit("\n\n", 1)[1] == "A....", text(db, max_footer=5)
    assert not text(db, max_footer=4).rsplit("\n\n", 1)[1].startswith(("A", ".")), \
        text(db, max_footer=4)
