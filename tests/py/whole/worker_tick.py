#!/usr/bin/python3
"""tests/py/whole/worker_tick.py -- one host process for test_concurrency.py.

    worker_tick.py '<json config>'

Opens the database the way a host should (busy_timeout first, then WAL),
then ticks until its simulated clock reaches `end`, finishing every run it
claimed with success (except its 1st, (1 + drop_every)th, ... claim
before `drop_until`, which it abandons as if it had died: the lease must
bring it back). Once open it creates `<go_file>.<owner>` (ready) and waits
for `go_file`, which holds `start_wall`: the parent writes it when every
worker is ready, so a slow start (ASan, a loaded machine) costs no
simulated time. Its clock is `start_wall`-relative real time (ms) times `speed` plus
its own `offset`, so the workers' clocks disagree and go backwards
relative to each other. Each tick claims at most `limit` runs (so the
worker whose clock is ahead cannot take the whole backlog in one tick and
starve the others on a loaded machine); at `end` it ticks until a tick
claims nothing, so no backlog is left behind. Prints one
JSON line:
    {"claimed": [run_id, ...], "max_now": ms, "ticks": n,
     "lost": [run_id, ...], "dropped": [run_id, ...], "errors": [text, ...]}
and exits 1 if anything unexpected happened (any error, SQLITE_BUSY
included).
"""
import json
import sqlite3
import sys
import time


def main():
    cfg = json.loads(sys.argv[1])
    out = {"claimed": [], "max_now": None, "ticks": 0, "lost": [], "dropped": [],
           "errors": []}
    try:
        run(cfg, out)
    except Exception as e:  # reported, never swallowed
        out["errors"].append(f"{type(e).__name__}: {e}")
    print(json.dumps(out))
    return 1 if out["errors"] else 0


def wait_for_go(cfg):
    """Say ready, then wait for the shared start instant (the start barrier)."""
    open(cfg["go_file"] + "." + cfg["owner"], "w").close()
    deadline = time.time() + cfg.get("max_seconds", 60)
    while time.time() < deadline:
        try:
            with open(cfg["go_file"]) as f:
                text = f.read()
            if text.endswith("\n"):  # written whole
                return float(text)
        except FileNotFoundError:
            pass
        time.sleep(0.005)
    raise RuntimeError("no start signal")


def run(cfg, out):
    # timeout= makes the sqlite3 module call sqlite3_busy_timeout right
    # after opening, before any statement or PRAGMA.
    db = sqlite3.connect(cfg["db"], timeout=cfg.get("busy_s", 30), isolation_level=None)
    assert db.execute("PRAGMA busy_timeout").fetchone()[0] == cfg.get("busy_s", 30) * 1000
    mode = db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
    if mode != "wal":
        raise RuntimeError(f"journal_mode is {mode}")
    db.execute("PRAGMA synchronous=NORMAL")
    db.enable_load_extension(True)
    db.load_extension(cfg["ext"])
    db.enable_load_extension(False)
    opts = {"owner": cfg["owner"], "lease_ms": cfg["lease_ms"]}
    if cfg.get("limit"):
        opts["limit"] = cfg["limit"]
    opts = json.dumps(opts)
    start = wait_for_go(cfg)
    speed, offset, end = cfg["speed"], cfg["offset"], cfg["end"]
    t0 = cfg["t0"]
    deadline = time.time() + cfg.get("max_seconds", 60)
    nclaimed = 0
    drain = False
    while time.time() < deadline:
        now = t0 + int((time.time() - start) * 1000 * speed) + offset
        if now > end:
            # The last ticks are at exactly `end` (every abandoned lease
            # has passed by then) until one claims nothing.
            now, drain = end, True
        got = json.loads(db.execute("SELECT trigger_run_due(?, ?)", (now, opts)).fetchone()[0])
        out["ticks"] += 1
        out["max_now"] = now if out["max_now"] is None else max(out["max_now"], now)
        for r in got:
            out["claimed"].append(r["run_id"])
            nclaimed += 1
            # the 1st, (1+k)th, (1+2k)th ... claim before drop_until: even a
            # worker that wins the write lock rarely abandons at least one
            if cfg["drop_every"] and (nclaimed - 1) % cfg["drop_every"] == 0 \
                    and now < cfg["drop_until"]:
                out["dropped"].append(r["run_id"])
                continue  # abandoned: its lease must bring it back
            fin = t0 + int((time.time() - start) * 1000 * speed) + offset
            try:
                db.execute("SELECT trigger_run_finish(?, 'success', NULL, ?)",
                           (r["run_id"], fin)).fetchone()
            except sqlite3.OperationalError as e:
                # Only a short-lease worker may lose a run to a reclaim.
                if cfg.get("may_lose") and \
                        "already finished (failed: lease expired)" in str(e):
                    out["lost"].append(r["run_id"])
                else:
                    raise
        if not got:
            if drain:
                break
            time.sleep(0.001)
    else:
        out["errors"].append("ran out of time before the clock reached the end")
    db.close()


if __name__ == "__main__":
    sys.exit(main())
