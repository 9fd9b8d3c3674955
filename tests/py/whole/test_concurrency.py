"""tests/py/whole/test_concurrency.py -- several OS processes ticking one WAL
database (issue 5, item 6).

Four worker processes (tests/py/whole/worker_tick.py) tick the same file at
once over 300 interval triggers (misfire_policy 'all', overlap 'allow',
so every occurrence gets its own run row), each with its own owner and a
clock that is offset from the others (so clocks also go backwards
relative to each other), each tick claiming at most TICK_LIMIT runs (a
worker that took the whole backlog in one tick starved the others on a
loaded CI machine). Three finish every run they claim; the fourth
uses a short lease and abandons every 5th claim, so leases expire and
are reclaimed, by any worker, as attempt 2. Afterwards:
  - no worker saw an error (SQLITE_BUSY / "database is locked" included);
  - no run id was handed to two workers, or twice to one;
  - the set of occurrences with an attempt-1 row is exactly the
    arithmetic set {start_at + k * interval_ms <= max now ticked};
  - attempts are 1..n without gaps, every non-final attempt is
    'failed: lease expired', every final one 'success' (or 'failed:
    lease expired' when the attempts are spent), nothing is running;
  - the triggers' counters agree with the runs, next_due_at is the first
    occurrence after the last tick, and the file passes integrity_check.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from util import T0

HERE = os.path.dirname(os.path.abspath(__file__))
N_TRIGGERS = 300
SPAN_MS = 10 * 60000      # simulated time covered by the workers
SPEED = 200               # simulated ms per real ms: SPAN_MS in 3 s
LONG_LEASE = 86400000
TICK_LIMIT = 8            # runs per tick: the backlog is shared, not taken whole


def interval_of(i):
    return 10000 + (i * 7919 % 50) * 1000 + (i % 7) * 137   # 10 s .. ~60 s, varied


def open_db(ext, path):
    import sqlite3
    db = sqlite3.connect(path, timeout=30, isolation_level=None)  # busy_timeout first
    assert db.execute("PRAGMA journal_mode=WAL").fetchone()[0] == "wal"
    db.enable_load_extension(True)
    db.load_extension(ext)
    db.enable_load_extension(False)
    return db


def start_workers(ext, path, configs):
    go = path + ".go"
    procs = []
    for c in configs:
        c = dict(c, ext=os.path.abspath(ext), db=path, go_file=go)
        procs.append(subprocess.Popen(
            ["/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable,
             os.path.join(HERE, "worker_tick.py"), json.dumps(c)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=dict(os.environ)))
    # Start barrier: the clocks start together once every worker has opened
    # the database and loaded the extension, however slow that was.
    ready = [go + "." + c["owner"] for c in configs]
    deadline = time.time() + 60
    while not all(os.path.exists(r) for r in ready) and time.time() < deadline:
        if any(p.poll() is not None for p in procs):
            break  # a worker died before the start: reported below
        time.sleep(0.005)
    with open(go + ".tmp", "w") as f:
        f.write(f"{time.time() + 0.05}\n")
    os.replace(go + ".tmp", go)
    results = []
    for p, c in zip(procs, configs):
        try:
            out, err = p.communicate(timeout=90)
        except subprocess.TimeoutExpired:
            p.kill()
            out, err = p.communicate()
            raise AssertionError(f"worker {c['owner']} hung")
        lines = [line for line in out.splitlines() if line.startswith("{")]
        assert lines, f"worker {c['owner']} exit {p.returncode}: {out} {err}"
        res = json.loads(lines[-1])
        res["rc"] = p.returncode
        res["stderr"] = err
        res["owner"] = c["owner"]
        results.append(res)
    return results


def test_four_processes_tick_one_wal_file(ext):
    tmp = tempfile.mkdtemp(prefix="trg-conc-")
    try:
        four_processes(ext, os.path.join(tmp, "conc.db"))
    finally:
        shutil.rmtree(tmp)


def four_processes(ext, path):
    db = open_db(ext, path)
    db.execute("SELECT trigger_install()")
    db.execute("BEGIN")
    for i in range(N_TRIGGERS):
        db.execute(
            "INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type,"
            " interval_ms, start_at, misfire_policy, overlap_policy, max_attempts,"
            " created_at) VALUES (?, ?, ?, 'interval', ?, ?, 'all', 'allow', 2, ?)",
            (f"t{i:03d}", f"agent-{i % 5}", f"job {i}", interval_of(i), T0, T0))
    db.execute("COMMIT")
    db.close()

    end = T0 + SPAN_MS
    base = dict(t0=T0, end=end, speed=SPEED,
                max_seconds=60, drop_every=0, drop_until=0, limit=TICK_LIMIT)
    configs = [
        # Offsets of a few hundred simulated ms (about 1 ms of real time
        # at SPEED): the clocks disagree and go backwards relative to each
        # other, yet the write lock, not the offset, decides who claims.
        # With offsets of seconds the clock furthest ahead took every run
        # and the others, w3 included (nothing to abandon), claimed none.
        dict(base, owner="w0", offset=0, lease_ms=LONG_LEASE),
        dict(base, owner="w1", offset=-250, lease_ms=LONG_LEASE),
        dict(base, owner="w2", offset=170, lease_ms=LONG_LEASE),
        dict(base, owner="w3", offset=-70, lease_ms=60000, may_lose=True,
             drop_every=5, drop_until=end - 120000),
    ]
    t_start = time.time()
    results = start_workers(ext, path, configs)
    elapsed = time.time() - t_start

    for r in results:
        assert r["rc"] == 0 and not r["errors"], (r["owner"], r["errors"], r["stderr"][-2000:])
        assert r["ticks"] > 5, (r["owner"], r["ticks"])
    claimed = [rid for r in results for rid in r["claimed"]]
    assert len(claimed) == len(set(claimed)), "a run was handed out twice"
    max_now = max(r["max_now"] for r in results)
    assert max_now > T0 + SPAN_MS // 2, max_now

    db = open_db(ext, path)
    assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    rows = db.execute(
        "SELECT trigger_id, scheduled_for, attempt, status, error, run_id, owner,"
        " claimed_at FROM trigger_runs").fetchall()
    keys = [(r[0], r[1], r[2]) for r in rows]
    assert len(keys) == len(set(keys)), "an occurrence/attempt exists twice"
    # Every row was claimed by a worker, every claim has its row.
    assert sorted(r[5] for r in rows) == sorted(claimed)

    intervals = {f"t{i:03d}": interval_of(i) for i in range(N_TRIGGERS)}
    expected = set()
    for tid, iv in intervals.items():
        k = 0
        while T0 + k * iv <= max_now:
            expected.add((tid, T0 + k * iv))
            k += 1
    got_first = {(r[0], r[1]) for r in rows if r[2] == 1}
    missing = sorted(expected - got_first)
    extra = sorted(got_first - expected)
    assert not missing, f"{len(missing)} occurrences lost, e.g. {missing[:5]}"
    assert not extra, f"{len(extra)} occurrences beyond the last tick, e.g. {extra[:5]}"

    by_occ = {}
    for r in rows:
        by_occ.setdefault((r[0], r[1]), []).append(r)
    reclaimed = 0
    for occ, rs in by_occ.items():
        rs.sort(key=lambda r: r[2])
        assert [r[2] for r in rs] == list(range(1, len(rs) + 1)), (occ, rs)
        assert len(rs) <= 2, (occ, rs)
        for r in rs[:-1]:
            assert (r[3], r[4]) == ("failed", "lease expired"), r
            reclaimed += 1
        last = rs[-1]
        assert last[3] == "success" or (last[3], last[4], last[2]) == \
            ("failed", "lease expired", 2), last
    import sys as _s
    for r in results:
        cn = r.get("claim_nows", [])
        _s.stderr.write("%s claims=%d ticks=%d first=%s before_until=%d dropped=%d\n" % (r["owner"], len(cn), r["ticks"], (min(cn)-T0) if cn else None, sum(1 for x in cn if x < end-120000), len(r["dropped"])))
    dropped = [x for r in results for x in r["dropped"]]
    assert dropped, [(r["owner"], len(r["claimed"]), r["ticks"]) for r in results]
    assert reclaimed > 0, "the abandoned runs were reclaimed"
    status_of = {r[5]: (r[3], r[4]) for r in rows}
    for rid in dropped:  # each abandoned attempt was ended by its lease
        assert status_of[rid] == ("failed", "lease expired"), (rid, status_of[rid])
    for rid in (x for r in results for x in r["lost"]):
        # a finish refused because the run had been reclaimed
        assert status_of[rid] == ("failed", "lease expired"), (rid, status_of[rid])
    n_running = db.execute("SELECT count(*) FROM trigger_runs WHERE status = 'running'").fetchone()[0]
    assert n_running == 0

    for tid, running, run_count, next_due in db.execute(
            "SELECT trigger_id, running, run_count, next_due_at FROM triggers_state"):
        iv = intervals[tid]
        n_exec = sum(1 for occ, rs in by_occ.items() if occ[0] == tid for _ in rs)
        assert running == 0, (tid, running)
        assert run_count == n_exec, (tid, run_count, n_exec)
        assert next_due == T0 + ((max_now - T0) // iv + 1) * iv, (tid, next_due, max_now)
    owners = {r[6] for r in rows}
    assert len(owners) >= 3, f"the claims were shared: {owners}"
    db.close()
    assert elapsed < 40, f"took {elapsed:.1f}s"
