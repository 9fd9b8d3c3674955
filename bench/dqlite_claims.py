#!/usr/bin/python3
"""bench/dqlite_claims.py -- claims per second through a 3-node dqlite
cluster (127.0.0.1, tests/dqlite/cluster.py, the preload library on every
node) against a local SQLite file, for docs/scaling.md.

    /usr/bin/python3 bench/dqlite_claims.py [BUILD_DIR]     (about a minute)

Two shapes, each on a fresh database holding TRIGGERS interval triggers
(one a minute, all due together, overlap 'allow': every tick claims every
due one although the earlier runs are still running):
  - batch: one trigger_run_due claims all of them; claims/s = TRIGGERS /
    the statement's wall time (median of REPS ticks a minute apart);
  - single: SINGLE ticks with "limit":1, one statement each, claim one run
    each; claims/s = SINGLE / the total wall time;
  - floor: SINGLE `SELECT 1` statements, the same way: what the transport
    alone allows (process start, connection, round trip), without a tick.
Targets: the cluster through the `dqlite` shell (one process per
statement, as trigger-host --via runs it), a local file through Debian's
`sqlite3` shell (one process per statement: the same shape), and a local
file in this process (Python's sqlite3, no process per statement). Every
local file is in WAL mode with SQLite's default synchronous (FULL);
dqlite commits each transaction to a quorum of Raft logs.
Prints a markdown table; nothing is written.
"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "dqlite"))
from cluster import Cluster  # noqa: E402

T0 = 1767225600000
MIN = 60000
TRIGGERS = 10000
REPS = 3
SINGLE = 200

SETUP = [
    "SELECT trigger_install()",
    "INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms, "
    "overlap_policy, created_at) SELECT printf('t%05d', x), 'job ' || x, "
    "'interval', 60000, 'allow', "
    f"{T0} FROM (WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n "
    "WHERE x < {n}) SELECT x FROM n)",
]


def tick(now, limit=None):
    opts = '{"owner":"bench","lease_ms":600000%s}' % (
        f',"limit":{limit}' if limit else "")
    return f"SELECT json_array_length(trigger_run_due({now}, '{opts}'))"


class InProcess:
    name = "local file, in process (Python sqlite3)"

    def __init__(self, ext, path):
        import sqlite3
        self.db = sqlite3.connect(path, isolation_level=None)
        self.db.enable_load_extension(True)
        self.db.load_extension(ext)
        self.db.execute("PRAGMA journal_mode=WAL")

    def sql(self, s):
        row = self.db.execute(s).fetchone()
        return str(row[0]) if row else ""


class Cli:
    name = "local file, `sqlite3` shell per statement"

    def __init__(self, ext, path):
        self.args = ["sqlite3", "-cmd", f".load {ext}", path]
        self.sql("PRAGMA journal_mode=WAL")

    def sql(self, s):
        return subprocess.run(self.args + [s], capture_output=True, text=True,
                              check=True).stdout.strip()


class Dqlite:
    name = "dqlite, 3 nodes, `dqlite` shell per statement"

    def __init__(self, cluster, db):
        self.c, self.db = cluster, db

    def sql(self, s):
        return self.c.sql(self.db, s)


def measure(target, n):
    for s in SETUP:
        target.sql(s.replace("{n}", str(n)))
    batch = []
    for k in range(REPS):
        t = time.perf_counter()
        got = target.sql(tick(T0 + (k + 1) * MIN))
        batch.append(time.perf_counter() - t)
        assert got == str(n), got
    t = time.perf_counter()
    for k in range(SINGLE):
        got = target.sql(tick(T0 + (REPS + 1) * MIN, limit=1))
        assert got == "1", got
    single = time.perf_counter() - t
    t = time.perf_counter()
    for k in range(SINGLE):
        assert target.sql("SELECT 1") == "1"
    floor = time.perf_counter() - t
    return n / statistics.median(batch), SINGLE / single, SINGLE / floor


def main():
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    ext = os.path.abspath(os.path.join(build, "triggers"))
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        rows.append((InProcess.name, *measure(InProcess(ext, f"{tmp}/a.db"), TRIGGERS)))
        rows.append((Cli.name, *measure(Cli(ext, f"{tmp}/b.db"), TRIGGERS)))
        c = Cluster(os.path.join(build, "triggers-preload.so"))
        try:
            c.start()
            rows.append((Dqlite.name, *measure(Dqlite(c, "bench"), TRIGGERS)))
        finally:
            c.close()
    print(f"| target | batch: {TRIGGERS} due, one tick (claims/s) "
          f"| single: ticks of 1 (claims/s) | floor: `SELECT 1` (statements/s) |")
    print("|---|---|---|---|")
    for name, batch, single, floor in rows:
        print(f"| {name} | {batch:,.0f} | {single:,.0f} | {floor:,.0f} |")


if __name__ == "__main__":
    main()
