#!/usr/bin/python3
"""bench/prune_batch.py -- how long one trigger_prune(before, limit) batch
holds the write lock, for several limits: the measurement behind
PRUNE_BATCH in host/db/prune.h (trigger-host's retention).

A file database in WAL mode (synchronous FULL, SQLite's default, as the
host uses it) with ROWS finished runs older than the cut-off (payloads of
about 400 bytes, a result of 60) and ROWS/4 recent ones, all in the
triggers_rundata indexes. For each limit it deletes batches until REPS
of them were timed and prints the median and the worst time of one batch
(one statement, one write transaction, commit and fsync included) and the
rows deleted per second. Not part of `make bench` (it needs no baseline:
the number is absolute, what a concurrent writer may wait).

    /usr/bin/python3 bench/prune_batch.py build/triggers [ROWS]
"""
import os
import sqlite3
import statistics
import sys
import tempfile
import time

LIMITS = (50, 100, 200, 500, 1000)
REPS = 15
T0 = 1767225600000  # 2026-01-01


def fill(path, ext, rows):
    db = sqlite3.connect(path, isolation_level=None)
    db.enable_load_extension(True)
    db.load_extension(ext)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("SELECT trigger_install()")
    payload = '{"text":"' + "x" * 360 + '","source":"trigger"}'
    db.execute("BEGIN")
    for i in range(rows + rows // 4):
        old = i < rows
        fin = T0 + i * 1000 if old else T0 + 400 * 86400000 + i
        tid = f"t{i % 1000}"
        status = ("success", "failed", "skipped", "expired")[i % 4] if old else "success"
        db.execute(
            "INSERT INTO triggers_rundata(run_id, trigger_id, agent_id, scheduled_for, attempt,"
            " status, owner, claimed_at, lease_until, finished_at, latency_ms, result, payload)"
            " VALUES (?, ?, 'agent', ?, 1, ?, 'bench', ?, ?, ?, 5, ?, ?)",
            (f"{tid}@{fin}#1", tid, fin, status, fin - 5, fin + 60000, fin,
             "summary: " + "y" * 50, payload))
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return db


def main():
    ext = sys.argv[1] if len(sys.argv) > 1 else "build/triggers"
    rows = int(sys.argv[2]) if len(sys.argv) > 2 else 200000
    cut = T0 + 300 * 86400000
    print(f"{rows} old finished runs, {rows // 4} recent; one batch = one "
          f"trigger_prune(before, limit) statement\n")
    print("| limit | median ms | max ms | rows/s |")
    print("|---:|---:|---:|---:|")
    for limit in LIMITS:
        with tempfile.TemporaryDirectory() as tmp:
            db = fill(os.path.join(tmp, "p.db"), ext, rows)
            times = []
            deleted = 0
            while len(times) < REPS:
                t = time.perf_counter()
                n = db.execute("SELECT trigger_prune(?, ?)", (cut, limit)).fetchone()[0]
                times.append((time.perf_counter() - t) * 1000)
                deleted += n
                assert n == limit, (n, limit)
            med = statistics.median(times)
            print(f"| {limit} | {med:.2f} | {max(times):.2f} | "
                  f"{deleted / (sum(times) / 1000):,.0f} |")
            db.close()


if __name__ == "__main__":
    main()
