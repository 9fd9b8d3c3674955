"""tests/py/tick/test_tick_cost.py -- the tick stays an index probe plus
work proportional to what is due (docs/scaling.md): the VM steps of an
empty tick do not grow with the triggers (1k vs 100k) nor with the
running runs (10 vs 3,000); a busy tick reads only the due rows; a claim
reads no more rows than its limit; and the state rows of a large batch
are written at its end, each with exactly its own values."""
import json

from util import MIN, T0, add, connect, finish, one, tick


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
    # The first tick of a connection: 46 since an empty tick is one
    # read-only probe (35 for each tick after it; 60 and 49 when it also
    # ran BEGIN IMMEDIATE, the two probes and COMMIT; 87 under schema 5,
    # with the three probes for times changed outside the extension,
    # which the CHECKs now refuse)
    assert costs[1000] <= 46, costs


def test_empty_tick_cost_does_not_grow_with_running_runs(ext):
    """Runs held by a host (running, lease not passed) are not scanned by
    each tick: the lease probe is one seek of the partial lease index, not
    a walk over every running run."""
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


def test_empty_tick_takes_no_write_lock(ext):
    """A tick that finds nothing to do answers from one read-only probe:
    it opens no write transaction (BEGIN IMMEDIATE took the write lock on
    every tick, so an idle host's tick failed with "database is locked"
    while another connection was writing, and paid for it in time). With
    work to do it still takes the lock, and in a caller's transaction it
    still sees that transaction's rows."""
    import os
    import sqlite3
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "t.db")
        a = connect(ext, path)
        a.execute("PRAGMA journal_mode=WAL")
        add(a, "t1")  # due at T0 + MIN
        b = connect(ext, path, install=False)
        b.execute("PRAGMA busy_timeout=0")
        a.execute("BEGIN IMMEDIATE")
        a.execute("UPDATE triggers SET instructions = 'x' WHERE trigger_id = 't1'")
        assert tick(b, T0) == []  # nothing due: no lock wanted
        stats = json.loads(one(b, "SELECT trigger_last_tick()"))
        assert stats["rows_read"] == 0 and stats["claimed"] == 0, stats
        try:
            tick(b, T0 + MIN)
            raise AssertionError("a due tick ran without the write lock")
        except sqlite3.OperationalError as e:
            assert "locked" in str(e) or "busy" in str(e), e
        a.execute("COMMIT")
        b.execute("BEGIN")
        add(b, "t2", interval_ms=1000)  # due at T0 + 1 s, in b's transaction
        assert [x["trigger_id"] for x in tick(b, T0 + 1000)] == ["t2"]
        b.execute("COMMIT")
        a.close()
        b.close()
