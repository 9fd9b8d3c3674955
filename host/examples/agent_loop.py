#!/usr/bin/python3
"""host/examples/agent_loop.py -- an agent runtime's trigger loop, in Python.

What it shows: the integration the extension exists for, with nothing but
Debian's /usr/bin/python3 and its stdlib sqlite3 module. The agent keeps its
conversation in an ordinary table of the same database, agent_messages, and
every step of the loop does two claims filtered by wake mode (docs/host.md,
"Your own loop"; the option is docs/lifecycle.md's):

  trigger_run_due(now, '{"wake_mode":"inject_now","owner":...}')
      runs that must reach the agent at once: each run's payload (its
      "text" is the trigger's instructions) becomes a message row and the
      run is reported trigger_run_finish(run_id, 'success').
  trigger_run_due(now, '{"wake_mode":"next_autonomy_cycle","owner":...}')
      runs meant for the agent's next autonomous turn. With the autonomy
      loop on they are injected the same way. With it off (--autonomy off)
      they are reported 'deferred': no message, no run counted, and the
      tick re-offers the same occurrence (same run_id, same attempt) at the
      next step. After 100 deferrals the tick records the run 'expired'
      ("deferred too many times"), so a long-off autonomy loop loses it.
      Occurrences of the same trigger that fall due meanwhile are recorded
      'skipped' under the default overlap_policy 'skip': the oldest waits.

Exactly-once injection: the INSERT into agent_messages and the
trigger_run_finish of one run are one transaction (BEGIN IMMEDIATE ..
COMMIT): a crash never leaves a message whose run was not reported, nor a
reported run without its message (a crash after the claim leaves the run
'running' until its lease passes; the tick then reclaims it as the next
attempt, or records it failed "lease expired"). If the run was finished
elsewhere meanwhile, trigger_run_finish refuses and the message is rolled
back. Delivery is at-least-once (a run can be handed out again: a deferred
one comes back with the same run_id), so agent_messages.run_id is UNIQUE and
injection is INSERT OR IGNORE: a second delivery adds no second message.

Time: with --now (ms or ISO-8601) the clock is simulated: --ticks N steps
at now, now+step-ms, ... and no sleeping, so the output and the rows are
deterministic (the tests use this). Without --now it runs in real time,
sleeping until trigger_next_wakeup() says something is due (at most
--max-sleep-ms; waking early when another connection commits, like
trigger-host). trigger_next_wakeup() is 0 while a deferred run waits, so in
real time deferred runs are re-offered at most every --defer-ms.

Run it (from the repository, after `make`):
  host/examples/agent_loop.py --db /tmp/agent.db --demo --now 2026-01-01T09:00:00Z \\
      --ticks 3 --step-ms 60000 --autonomy off     # digest deferred 3 times
  host/examples/agent_loop.py --db /tmp/agent.db --now 2026-01-01T09:03:00Z --once
                                                   # autonomy on: injected once
  sqlite3 /tmp/agent.db 'SELECT run_id, wake_mode, text FROM agent_messages'
  host/examples/agent_loop.py --db /tmp/agent.db --demo   # real time, Ctrl-C stops
--demo adds two triggers for agent-1 (if absent): an inject_now reminder
every minute and a next_autonomy_cycle digest every 5 minutes.
"""
import argparse
import datetime
import json
import os
import sqlite3
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SCHEMA = """CREATE TABLE IF NOT EXISTS agent_messages(
  id INTEGER PRIMARY KEY, run_id TEXT NOT NULL UNIQUE, trigger_id TEXT,
  wake_mode TEXT, role TEXT, text TEXT, payload TEXT, created_at INTEGER)"""

DEMO = [  # trigger_id, wake_mode, interval_ms, instructions
    ("standup-reminder", "inject_now", 60000, "Remind the team: standup starts now"),
    ("daily-digest", "next_autonomy_cycle", 300000, "Write the digest of today's work"),
]


def open_db(path, extension):
    db = sqlite3.connect(path, isolation_level=None, timeout=5.0)  # busy_timeout 5 s
    db.enable_load_extension(True)
    db.load_extension(extension)
    db.enable_load_extension(False)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("SELECT trigger_install()")
    db.execute(SCHEMA)
    return db


def add_demo(db, agent, now):
    for tid, mode, every, text in DEMO:  # first occurrence due at `now`
        db.execute("INSERT OR IGNORE INTO triggers(trigger_id, agent_id, instructions,"
                   " trigger_type, interval_ms, wake_mode, created_at)"
                   " VALUES (?, ?, ?, 'interval', ?, ?, ?)",
                   (tid, agent, text, every, mode, now - every))


def claim(db, now, mode, args):
    opts = {"wake_mode": mode, "owner": args.owner}
    if args.agent:
        opts["agents"] = [args.agent]
    text = db.execute("SELECT trigger_run_due(?, ?)", (now, json.dumps(opts))).fetchone()[0]
    return json.loads(text)


def deliver(db, run, status, now, detail=None):
    """Inject the run's payload (status 'success') and report the run, in one
    transaction (detail: the run's result, or a failure's error). Returns
    what happened, for the log line."""
    p = run["payload"]
    db.execute("BEGIN IMMEDIATE")
    try:
        fresh = True
        if status == "success":
            cur = db.execute(
                "INSERT OR IGNORE INTO agent_messages(run_id, trigger_id, wake_mode, role,"
                " text, payload, created_at) VALUES (?, ?, ?, 'trigger', ?, ?, ?)",
                (run["run_id"], run["trigger_id"], run["wake_mode"], p["text"],
                 json.dumps(p), now))
            fresh = cur.rowcount == 1
        db.execute("SELECT trigger_run_finish(?, ?, ?, ?)", (run["run_id"], status, detail, now))
        db.execute("COMMIT")
    except sqlite3.Error as e:
        if db.in_transaction:
            db.execute("ROLLBACK")
        return f"refused, nothing injected: {e}"
    if status == "deferred":
        return "deferred"
    return "injected" if fresh else "already injected"


def step(db, now, args, claim_deferrable=True):
    """One step: inject_now first, then next_autonomy_cycle (unless
    claim_deferrable is false). Prints a line per run; True if one was deferred."""
    lines, deferred = [], False
    for run in claim(db, now, "inject_now", args):
        lines.append((run, deliver(db, run, "success", now)))
    if claim_deferrable:
        for run in claim(db, now, "next_autonomy_cycle", args):
            if args.autonomy == "on":
                lines.append((run, deliver(db, run, "success", now)))
            else:
                lines.append((run, deliver(db, run, "deferred", now, "autonomy loop is off")))
                deferred = True
    iso = db.execute("SELECT trigger_iso(?)", (now,)).fetchone()[0]
    for run, what in lines:
        print(f"{iso} {run['wake_mode']:<19} {run['run_id']} {what}", flush=True)
    return deferred


def sleep_until_due(db, args):
    """Sleep until trigger_next_wakeup() (capped), or until another
    connection commits (PRAGMA data_version changes). With --agent the
    wakeup is asked for that agent's work only, as its claims are."""
    opts = json.dumps({"agents": [args.agent]}) if args.agent else None
    wake = db.execute("SELECT trigger_next_wakeup(NULL, ?)", (opts,)).fetchone()[0]
    ms = args.max_sleep_ms if wake is None else min(wake, args.max_sleep_ms)
    if ms <= 0:
        ms = args.min_sleep_ms  # something due we did not take: poll
    seen = db.execute("PRAGMA data_version").fetchone()[0]
    end = time.monotonic() + ms / 1000
    while (left := end - time.monotonic()) > 0:
        time.sleep(min(left, args.min_sleep_ms / 1000))
        if db.execute("PRAGMA data_version").fetchone()[0] != seen:
            return


def instant(text):
    if text.lstrip("-").isdigit():
        return int(text)
    dt = datetime.datetime.fromisoformat(text.replace("Z", "+00:00"))
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=datetime.timezone.utc)
    return int(dt.timestamp() * 1000)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=(
        "inject_now runs become agent_messages rows at once; next_autonomy_cycle runs "
        "too while the autonomy loop is on, else they are reported deferred. The "
        "module docstring explains the transactions and deferral."))
    ap.add_argument("--db", required=True, help="database file (created if missing)")
    ap.add_argument("--extension", default=os.path.join(REPO, "build", "triggers"),
                    help="extension path without suffix (default: build/triggers of the repo)")
    ap.add_argument("--agent", help="claim only this agent's triggers (default: all)")
    ap.add_argument("--owner", default="agent-loop", help="owner recorded on claimed runs")
    ap.add_argument("--autonomy", choices=("on", "off"), default="on",
                    help="is the autonomy loop running? off: defer next_autonomy_cycle runs")
    ap.add_argument("--now", type=instant, help="simulated clock start (ms or ISO-8601)")
    ap.add_argument("--once", action="store_true", help="one step, then exit (= --ticks 1)")
    ap.add_argument("--ticks", type=int, help="steps to run (default: 1 with --now, else forever)")
    ap.add_argument("--step-ms", type=int, default=60000, help="simulated time between steps")
    ap.add_argument("--max-sleep-ms", type=int, default=60000, help="real time: longest sleep")
    ap.add_argument("--min-sleep-ms", type=int, default=200, help="real time: poll period")
    ap.add_argument("--defer-ms", type=int, default=60000,
                    help="real time, autonomy off: re-offer deferred runs at most this often")
    ap.add_argument("--demo", action="store_true", help="add two demo triggers for --agent (default agent-1)")
    args = ap.parse_args(argv)
    ticks = 1 if args.once else args.ticks
    ticks = 1 if ticks is None and args.now is not None else ticks
    try:
        db = open_db(args.db, args.extension)
        clock = (lambda i: args.now + i * args.step_ms) if args.now is not None \
            else (lambda i: int(time.time() * 1000))
        if args.demo:
            args.agent = args.agent or "agent-1"
            add_demo(db, args.agent, clock(0))
        i, last_defer = 0, None
        while ticks is None or i < ticks:
            now = clock(i)
            # Simulated: every step offers everything. Real time: deferred
            # runs are due again at once, so offer them every --defer-ms.
            ready = (args.now is not None or args.autonomy == "on" or last_defer is None
                     or now - last_defer >= args.defer_ms)
            if step(db, now, args, ready) and args.now is None:
                last_defer = now
            i += 1
            if args.now is None and (ticks is None or i < ticks):
                sleep_until_due(db, args)
    except sqlite3.Error as e:
        print(f"agent_loop: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
