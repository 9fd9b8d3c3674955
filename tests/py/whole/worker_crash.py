#!/usr/bin/python3
"""tests/py/whole/worker_crash.py -- a host process that dies by SIGKILL, for
test_crash.py.

    worker_crash.py '<json config>'

Modes (config "mode"):
  dispatch  tick (autocommit), print the claimed runs as one JSON line,
            finish the first `finish` of them with success, then SIGKILL
            itself: the claim committed, the rest never reported.
  tick_kill install a progress handler that SIGKILLs the process at its
            `kill_at`-th call (every `every` VM instructions, counted over
            every statement of the connection, the tick's own included),
            then tick: the kill lands inside trigger_run_due. If the tick
            finishes first, print {"completed": true, ...} and exit 0.
  txn_kill  BEGIN IMMEDIATE, tick inside that transaction, print, SIGKILL
            before COMMIT.
"""
import json
import os
import signal
import sqlite3
import sys


def die():
    sys.stdout.flush()
    os.kill(os.getpid(), signal.SIGKILL)


def main():
    cfg = json.loads(sys.argv[1])
    db = sqlite3.connect(cfg["db"], timeout=10, isolation_level=None)  # busy_timeout first
    db.enable_load_extension(True)
    db.load_extension(cfg["ext"])
    db.enable_load_extension(False)
    opts = json.dumps({"owner": cfg.get("owner", "crasher"), "lease_ms": cfg["lease_ms"]})
    mode = cfg["mode"]
    if mode == "dispatch":
        got = json.loads(db.execute("SELECT trigger_run_due(?, ?)", (cfg["now"], opts)).fetchone()[0])
        print(json.dumps({"claimed": [r["run_id"] for r in got]}), flush=True)
        for r in got[: cfg["finish"]]:
            db.execute("SELECT trigger_run_finish(?, 'success', NULL, ?)",
                       (r["run_id"], cfg["now"] + 10)).fetchone()
        die()
    elif mode == "tick_kill":
        calls = [0]

        def progress():
            calls[0] += 1
            if calls[0] >= cfg["kill_at"]:
                die()
            return 0

        db.set_progress_handler(progress, cfg["every"])
        got = db.execute("SELECT trigger_run_due(?, ?)", (cfg["now"], opts)).fetchone()[0]
        db.set_progress_handler(None, 0)
        print(json.dumps({"completed": True, "calls": calls[0], "claimed": json.loads(got)}))
        return 0
    elif mode == "txn_kill":
        db.execute("BEGIN IMMEDIATE")
        got = json.loads(db.execute("SELECT trigger_run_due(?, ?)", (cfg["now"], opts)).fetchone()[0])
        print(json.dumps({"claimed": [r["run_id"] for r in got]}), flush=True)
        die()
    return 2


if __name__ == "__main__":
    sys.exit(main())
