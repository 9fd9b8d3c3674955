"""tests/py/tick/test_occurrence_property.py -- "every occurrence is recorded or
run" (docs/reliability.md#guarantees) as a property, under every policy
combination and a tick `limit` (issue 32, item 2).

Random worlds (seeded: the same worlds on every run) of a few triggers:
interval, once and cron schedules, with or without start_at / end_at,
window_ms, max_runs and jitter, each misfire_policy (coalesce / all /
skip, with a small misfire_grace_ms now and then), overlap_policy (skip
/ allow / queue) and max_attempts 1 or 2. Each world is ticked at random
instants (small steps and gaps that make misfires) with a random `limit`
(or none), `lease_ms` and now and then `ack: false`; each claimed run
gets a fate: finished success, failed or deferred (now or a few ticks
later), or never finished, so its lease expires. A last tick without a
limit after every run is finished drains what the limits held back.

Then, per trigger, the occurrences of its schedule before its
next_due_at (all of them once its schedule ended) are checked against
the runs table: each one is the scheduled_for of exactly one attempt-1
run row (any status), or lies within the span ("from A to B") that
exactly one 'missed' skipped row states, never both, never twice; every
row's occurrence is one of the schedule's; no row is at or after
next_due_at. Occurrences are the extension's own (the trigger's first
next_due_at, then trigger_preview), so this checks the tick's
bookkeeping, not the schedule arithmetic.
"""
import json
import random
import re
import sqlite3
import time

from util import connect, one

SEED = 32
WORLDS = 600  # about 3,300 triggers
SPAN = re.compile(r"from (\S+) to (\S+) \(misfire_policy")


def iso_ms(text):
    """ISO-8601 UTC text as trigger_iso writes it -> ms."""
    from datetime import datetime, timezone
    t = datetime.strptime(text.rstrip("Z").split(".")[0], "%Y-%m-%dT%H:%M:%S")
    ms = int(t.replace(tzinfo=timezone.utc).timestamp()) * 1000
    if "." in text:
        ms += int(text.rstrip("Z").split(".")[1].ljust(3, "0")[:3])
    return ms


def make_trigger(rng, db, tid, scale, cron):
    cols = {"instructions": "do " + tid, "created_at": rng.randint(0, 3 * scale)}
    kind = rng.choices(["interval", "once", "cron"], [6, 1, 3 if cron else 0])[0]
    cols["trigger_type"] = kind
    if kind == "interval":
        cols["interval_ms"] = rng.randint(1, 5) * scale + (rng.randint(0, 999) if scale == 1000 else 0)
    elif kind == "once":
        cols["scheduled_at"] = rng.randint(0, 20 * scale)
    else:
        cols["cron_expression"] = rng.choice(["* * * * *", "*/2 * * * *", "*/3 * * * *"])
    if kind != "once" and rng.random() < 0.25:
        cols["start_at"] = rng.randint(0, 8 * scale)
    if kind != "once" and rng.random() < 0.25:
        cols["end_at"] = cols.get("start_at", cols["created_at"]) + rng.randint(2, 40) * scale
    cols["misfire_policy"] = rng.choice(["coalesce", "all", "skip"])
    cols["overlap_policy"] = rng.choice(["skip", "allow", "queue"])
    cols["max_attempts"] = rng.choice([1, 2])
    cols["backoff_ms"] = rng.choice([0, scale // 2, 2 * scale])
    if rng.random() < 0.3:
        cols["window_ms"] = rng.randint(1, 3 * scale)
    if rng.random() < 0.3:
        cols["max_runs"] = rng.randint(1, 8)
    if rng.random() < 0.2:
        cols["jitter_ms"] = rng.randint(0, scale)
    names = ["trigger_id"] + list(cols)
    db.execute(f"INSERT INTO triggers({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
               [tid] + list(cols.values()))
    return one(db, "SELECT next_due_at FROM triggers WHERE trigger_id = ?", tid)


def finish(db, run_id, status, now):
    try:
        one(db, "SELECT trigger_run_finish(?, ?, ?, ?)", run_id, status, status, now)
    except sqlite3.Error as e:  # reclaimed meanwhile (lease expired)
        assert "already finished" in str(e), e


def play(rng, db, scale):
    """Tick the world at random; returns the last tick's now."""
    fates = {}  # run_id -> (status or None, the tick it is finished at)
    now = rng.randint(0, 3 * scale)
    for k in range(rng.randint(6, 16)):
        step = rng.choice([0, rng.randint(1, scale), rng.randint(scale, 4 * scale),
                           rng.randint(5 * scale, 30 * scale)])
        if rng.random() < 0.02:  # past the 100 occurrences 'all' runs in one tick
            step = rng.randint(150 * scale, 400 * scale)
        now += step
        opts = {"lease_ms": rng.randint(scale // 2, 6 * scale)}
        if rng.random() < 0.75:
            opts["limit"] = rng.randint(1, 4)
        if rng.random() < 0.05:
            opts["ack"] = False
        for run in json.loads(one(db, "SELECT trigger_run_due(?, ?)", now, json.dumps(opts))):
            fate = rng.choices(["success", "failed", "deferred", None], [35, 20, 15, 30])[0]
            fates[run["run_id"]] = (fate, k + rng.choice([0, 0, 1, 2]))
        for run_id, (fate, at) in list(fates.items()):
            if fate and at <= k:
                del fates[run_id]
                finish(db, run_id, fate, now + rng.randint(0, scale // 4))
    # Drain: every run ends, then ticks without a limit take what is due.
    for _ in range(3):
        for (run_id,) in db.execute("SELECT run_id FROM trigger_runs WHERE status = 'running'").fetchall():
            finish(db, run_id, "success", now)
        one(db, "SELECT trigger_run_due(?)", now)
    return now


def occurrences(db, tid, first, upto):
    """The schedule's occurrences from first, all <= upto (ascending)."""
    if first is None or first > upto:
        return [] if first is None else [first]
    rows = db.execute("SELECT due_at FROM trigger_preview(?, ?) WHERE due_at <= ?",
                      (tid, first, upto)).fetchall()
    out = [first] + [r[0] for r in rows]
    more = db.execute("SELECT due_at FROM trigger_preview(?, ?) LIMIT 1", (tid, upto)).fetchall()
    return out + [r[0] for r in more]  # and the first one past upto


def check_trigger(db, tid, first, last_now):
    t = db.execute("SELECT t.next_due_at, s.fire_at, t.status, t.max_runs, s.claims FROM triggers t"
                   " JOIN triggers_state s ON s.trigger_id = t.trigger_id WHERE t.trigger_id = ?",
                   (tid,)).fetchone()
    next_due, fire_at, status, max_runs, claims = t
    rows = db.execute("SELECT scheduled_for, attempt, status, error FROM trigger_runs "
                      "WHERE trigger_id = ? ORDER BY scheduled_for, attempt", (tid,)).fetchall()
    horizon = next_due if next_due is not None else last_now
    occ = occurrences(db, tid, first, max(horizon, last_now))
    occ_set = set(occ)
    cover = {}
    problems = []
    for sched, attempt, rstatus, err in rows:
        if sched not in occ_set:
            problems.append(f"row at {sched} is not an occurrence")
        if next_due is not None and sched >= next_due:
            problems.append(f"row at {sched} >= next_due_at {next_due}")
        if attempt != 1:
            continue
        m = SPAN.search(err or "") if rstatus == "skipped" else None
        if m and (err or "").startswith("missed"):
            lo, hi = iso_ms(m.group(1)), iso_ms(m.group(2))
            if lo != sched:
                problems.append(f"span from {lo} on a row at {sched}")
            covered = [o for o in occ if lo <= o <= hi]
        else:
            covered = [sched]
        for o in covered:
            cover[o] = cover.get(o, 0) + 1
    twice = sorted(o for o, n in cover.items() if n > 1)
    if twice:
        problems.append(f"recorded twice: {twice[:5]}")
    if next_due is not None:
        must = [o for o in occ if o < next_due]
        if next_due not in occ_set:
            problems.append(f"next_due_at {next_due} is not an occurrence")
        if status == "scheduled" and next_due <= last_now and (fire_at or 0) <= last_now:
            problems.append(f"still due at {next_due} after the drain")
    else:
        # The schedule ended: every occurrence up to the last one recorded
        # (max_runs ends it early), and all of them up to the last tick
        # unless max_runs did.
        top = max(cover) if cover else None
        must = [o for o in occ if top is not None and o <= top]
        ended_by_runs = max_runs is not None and claims >= max_runs
        if not ended_by_runs and status in ("scheduled", "completed"):
            must = [o for o in occ if o <= last_now]
    lost = [o for o in must if o not in cover]
    if lost:
        problems.append(f"lost: {len(lost)} (first {lost[:5]})")
    return problems, len(must)


def test_every_occurrence_is_recorded_or_run_under_a_limit(ext):
    rng = random.Random(SEED)
    t0 = time.time()
    bad, ntrig, nocc = [], 0, 0
    for w in range(WORLDS):
        cron = rng.random() < 0.2
        scale = 60000 if cron else 1000
        db = connect(ext)
        if rng.random() < 0.3:
            one(db, "SELECT trigger_config('misfire_grace_ms', ?)", rng.choice([0, scale, 3 * scale]))
        firsts = {}
        for i in range(rng.randint(3, 8)):
            tid = f"w{w}t{i}"
            firsts[tid] = make_trigger(rng, db, tid, scale, cron)
        last_now = play(rng, db, scale)
        for tid, first in firsts.items():
            ntrig += 1
            problems, n = check_trigger(db, tid, first, last_now)
            nocc += n
            for p in problems:
                bad.append(f"{tid}: {p}")
        db.close()
    assert ntrig > 2500 and nocc > 50000, (ntrig, nocc)
    assert not bad, f"{len(bad)} problems in {ntrig} triggers ({time.time() - t0:.1f}s):\n" + \
        "\n".join(bad[:30])


def test_all_with_overlap_skip_under_a_limit_keeps_the_rest_due(ext):
    """The issue's example: the occurrence the overlap skipped used none of
    the limit, so the next one (6000) is still taken or stays due."""
    db = connect(ext)
    db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms,"
               " misfire_policy, overlap_policy, created_at)"
               " VALUES ('t', 'x', 'interval', 2000, 'all', 'skip', 0)")
    json.loads(one(db, "SELECT trigger_run_due(3500, '{\"lease_ms\":3000,\"limit\":2}')"))
    json.loads(one(db, "SELECT trigger_run_due(6000, '{\"lease_ms\":3000,\"limit\":1}')"))
    got = db.execute("SELECT scheduled_for, status FROM trigger_runs ORDER BY scheduled_for").fetchall()
    assert got == [(2000, "running"), (4000, "skipped"), (6000, "skipped")], got
    assert one(db, "SELECT next_due_at FROM triggers") == 8000
