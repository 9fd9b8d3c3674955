"""bench/serve_sim.py -- the smallest unit of docs/scaling.md's sharding
recipe, run at reduced scale: one `trigger-host serve` over FILES database
files of TRIGGERS interval triggers each, every trigger firing once per
PERIOD seconds (spread evenly over the period), for SECS seconds. Not part
of `make bench`.

    python3 bench/serve_sim.py WORKDIR [FILES [TRIGGERS [PERIOD [SECS]]]]
    (defaults 10 10000 60 180; TRIGGER_HOST and TRIGGERS_EXT as in make bench)

The host runs in print mode (its stdout is a pipe read here: batches are
claimed and printed in the claim's own transaction, docs/host.md). A run's
due-to-dispatch lag is the instant its line is read here minus its
scheduled_for. Printed: runs per second, lag p50/p90/p99/max over the runs
due after the first PERIOD (the warm-up: the first wakeup of every file),
the host's CPU (user + system, from /proc) per second of wall time and per
run, its peak RSS, and the runs counted against the fires due (nothing
missed, nothing twice). Results: docs/scaling.md#capacity.
"""
import json
import os
import select
import sqlite3
import statistics
import subprocess
import sys
import time

HOST = os.environ.get("TRIGGER_HOST", "build/trigger-host")
EXT = os.environ.get("TRIGGERS_EXT", "build/triggers")


def wall_ms():
    return time.time_ns() // 1000000


def build(path, k, n, period_ms, first_due):
    """n interval triggers of period_ms (ids s<k>_<i>: unique over the
    files), trigger i first due at first_due + i * period_ms / n
    (hostbench.c's hb_build_due)."""
    for ext in ("", "-wal", "-shm"):
        if os.path.exists(path + ext):
            os.remove(path + ext)
    db = sqlite3.connect(path, isolation_level=None)
    db.enable_load_extension(True)
    db.load_extension(EXT)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("SELECT trigger_install()")
    db.execute("BEGIN")
    db.execute("WITH RECURSIVE c(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM c"
               " WHERE i < ?1 - 1)"
               " INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type,"
               " interval_ms, created_at)"
               " SELECT printf('s%02d_%06d', ?4, i), printf('agent%04d', i % 1000),"
               " printf('job %06d: %-52s', i, 'sim'), 'interval', ?2,"
               " ?3 + (i * ?2) / ?1 - ?2 FROM c", (n, period_ms, first_due, k))
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()


def cpu_secs(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    tick = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / tick  # utime, stime


def peak_rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p / 100 * len(xs)))]


def main():
    work = sys.argv[1]
    files = int(sys.argv[2]) if len(sys.argv) > 2 else 10
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 10000
    period = int(sys.argv[4]) if len(sys.argv) > 4 else 60
    secs = int(sys.argv[5]) if len(sys.argv) > 5 else 180
    os.makedirs(work, exist_ok=True)
    period_ms = period * 1000
    t_build = time.time()
    start = wall_ms() + 5000 + files * 1500  # first fires after the build
    paths = [os.path.join(work, f"shard{k:02d}.db") for k in range(files)]
    for k, p in enumerate(paths):
        build(p, k, n, period_ms, start)
    print(f"built {files} files x {n} triggers in {time.time() - t_build:.1f} s")
    proc = subprocess.Popen([HOST, "serve", *paths, "--extension", EXT, "-q"],
                            stdout=subprocess.PIPE, stderr=open(
                                os.path.join(work, "host.err"), "w"))
    end = start + secs * 1000
    lags, dues, seen, buf = [], [], set(), b""
    cpu0 = None
    while wall_ms() < end + 2000:
        if cpu0 is None and wall_ms() >= start + period_ms:
            cpu0, w0 = cpu_secs(proc.pid), time.time()
        r, _, _ = select.select([proc.stdout], [], [], 0.05)
        if not r:
            continue
        chunk = os.read(proc.stdout.fileno(), 1 << 20)
        if not chunk:
            break
        now = wall_ms()
        buf += chunk
        *lines, buf = buf.split(b"\n")
        for line in lines:
            run = json.loads(line)
            key = (run["trigger_id"], run["scheduled_for"], run.get("attempt"))
            assert key not in seen, key
            seen.add(key)
            due = run["scheduled_for"]
            if start + period_ms <= due < end:
                lags.append(now - due)
                dues.append(due)
    cpu = cpu_secs(proc.pid) - cpu0
    wall = time.time() - w0
    rss = peak_rss_kib(proc.pid)
    proc.terminate()
    proc.wait(timeout=30)
    want = 0  # fires due in [start + period, end): every trigger once per period
    per_ms = files * n / period_ms
    want = round((end - start - period_ms) * per_ms)
    print(f"runs timed: {len(lags)} (fires due in the window: ~{want});"
          f" {len(seen)} runs in all, none twice")
    print(f"rate: {len(lags) / ((end - start - period_ms) / 1000):.0f} runs/s"
          f" ({files} files x {n} triggers, one fire per {period} s each)")
    print(f"lag ms: p50 {statistics.median(lags):.1f}, p90 {pct(lags, 90):.1f},"
          f" p99 {pct(lags, 99):.1f}, max {max(lags):.1f}")
    late = sorted({(d - start) // 10000 * 10 for d, x in zip(dues, lags) if x > 100})
    print(f"runs over 100 ms late: {sum(x > 100 for x in lags)}, due in the"
          f" 10-second windows starting at (s) {late}")
    print(f"host CPU: {cpu / wall * 100:.1f}% of one core"
          f" ({cpu / max(1, len(lags)) * 1e6:.0f} us per run); peak RSS {rss / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
