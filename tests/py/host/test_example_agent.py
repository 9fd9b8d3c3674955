"""tests/py/host/test_example_agent.py -- the example agent loop
host/examples/agent_loop.py (issue 6, item 9), run as a subprocess with
/usr/bin/python3 on a simulated clock (--now), and imported for its
claim/deliver functions: inject_now runs become agent_messages rows and
runs 'success'; with autonomy off next_autonomy_cycle runs are 'deferred'
(no message, same run re-offered, expired after 100 deferrals) and with it
on the same run_id is injected once; a wake_mode claim never takes the
other mode; repeating a step or a delivery never duplicates a message; a
refused report rolls the injection back; real time sleeps until
trigger_next_wakeup()."""
import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

from util import MIN, ROOT, T0, add, connect, one, runs, trig

EXAMPLE = os.path.join(ROOT, "host", "examples", "agent_loop.py")
PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
DUE = T0 + MIN  # first occurrence of the triggers added with util.add


class Db:
    """A database file in a temporary directory, installed, with a connection."""

    def __init__(self, ext):
        self.ext = os.path.abspath(ext)
        self.dir = tempfile.mkdtemp(prefix="agent-loop-")
        self.path = os.path.join(self.dir, "agent.db")
        self.db = connect(self.ext, self.path)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.db.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def loop(self, *args, expect_rc=0):
        """Run the example; returns its stdout lines."""
        p = subprocess.run([PY, EXAMPLE, "--db", self.path, "--extension", self.ext,
                            *map(str, args)], capture_output=True, text=True, timeout=20)
        assert p.returncode == expect_rc, (p.returncode, p.stdout, p.stderr)
        return p.stdout.splitlines()

    def messages(self):
        cur = self.db.execute("SELECT * FROM agent_messages ORDER BY id")
        cols = [d[0] for d in cur.description]
        return [dict(zip(cols, r)) for r in cur.fetchall()]


def module():
    spec = importlib.util.spec_from_file_location("agent_loop", EXAMPLE)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def two_modes(db):
    """An inject_now interval and a next_autonomy_cycle once trigger, both due at DUE."""
    add(db, "ping", agent_id="a1", wake_mode="inject_now", instructions="Answer the ping")
    add(db, "digest", agent_id="a1", wake_mode="next_autonomy_cycle",
        trigger_type="once", scheduled_at=DUE, instructions="Write the digest")


def test_inject_now_becomes_message_and_success(ext):
    with Db(ext) as t:
        two_modes(t.db)
        out = t.loop("--now", DUE, "--once")
        assert out == [f"2026-01-01T00:01:00Z inject_now          ping@{DUE}#1 injected",
                       f"2026-01-01T00:01:00Z next_autonomy_cycle digest@{DUE}#1 injected"], out
        msgs = t.messages()
        assert [m["run_id"] for m in msgs] == [f"ping@{DUE}#1", f"digest@{DUE}#1"], msgs
        m = msgs[0]
        assert (m["trigger_id"], m["wake_mode"], m["role"], m["text"], m["created_at"]) == \
            ("ping", "inject_now", "trigger", "Answer the ping", DUE), m
        p = json.loads(m["payload"])
        assert p["text"] == "Answer the ping" and p["source"] == "trigger", p
        assert p["triggerRunId"] == f"ping@{DUE}#1" and p["wakeMode"] == "inject_now", p
        r = runs(t.db, "ping")
        assert [(x["status"], x["owner"], x["finished_at"]) for x in r] == \
            [("success", "agent-loop", DUE)], r
        tr = trig(t.db, "ping")
        assert (tr["run_count"], tr["last_status"], tr["next_due_at"]) == (1, "success", DUE + MIN), tr
        assert trig(t.db, "digest")["status"] == "completed"


def test_deferred_while_autonomy_off_then_injected_once(ext):
    with Db(ext) as t:
        two_modes(t.db)
        out = t.loop("--now", DUE, "--ticks", 3, "--step-ms", MIN, "--autonomy", "off")
        # inject_now is unaffected: one message per minute.
        assert [l.split()[2] for l in out if "inject_now" in l] == \
            [f"ping@{DUE + i * MIN}#1" for i in range(3)], out
        # The same occurrence, same run_id and attempt, is offered and deferred 3 times.
        assert [l.split(" ", 1)[1].split() for l in out if "next_autonomy_cycle" in l] == \
            [["next_autonomy_cycle", f"digest@{DUE}#1", "deferred"]] * 3, out
        assert [m["trigger_id"] for m in t.messages()] == ["ping"] * 3
        r = runs(t.db, "digest")
        assert [(x["run_id"], x["status"], x["error"], x["result"]) for x in r] == \
            [(f"digest@{DUE}#1", "deferred", None, "autonomy loop is off")], r
        assert one(t.db, "SELECT deferrals FROM triggers_rundata WHERE run_id = ?",
                   f"digest@{DUE}#1") == 3
        tr = trig(t.db, "digest")
        assert (tr["run_count"], tr["status"]) == (0, "scheduled"), tr
        # Autonomy back on: that very run is injected, once.
        out = t.loop("--now", DUE + 3 * MIN, "--once")
        assert f"2026-01-01T00:04:00Z next_autonomy_cycle digest@{DUE}#1 injected" in out, out
        digest = [m for m in t.messages() if m["trigger_id"] == "digest"]
        assert [(m["run_id"], m["wake_mode"], m["text"]) for m in digest] == \
            [(f"digest@{DUE}#1", "next_autonomy_cycle", "Write the digest")], digest
        r = runs(t.db, "digest")
        assert [(x["run_id"], x["attempt"], x["status"]) for x in r] == \
            [(f"digest@{DUE}#1", 1, "success")], r
        tr = trig(t.db, "digest")
        assert (tr["run_count"], tr["status"], tr["last_status"]) == (1, "completed", "success"), tr
        # Later steps offer it no more.
        t.loop("--now", DUE + 4 * MIN, "--once")
        assert len([m for m in t.messages() if m["trigger_id"] == "digest"]) == 1


def test_deferral_bound_expires_the_run(ext):
    with Db(ext) as t:
        add(t.db, "digest", wake_mode="next_autonomy_cycle", trigger_type="once", scheduled_at=DUE)
        out = t.loop("--now", DUE, "--ticks", 105, "--step-ms", 1000, "--autonomy", "off")
        assert out == [f"{l.split()[0]} next_autonomy_cycle digest@{DUE}#1 deferred"
                       for l in out] and len(out) == 100, (len(out), out[-3:])
        r = runs(t.db, "digest")
        assert [(x["status"], x["error"]) for x in r] == [("expired", "deferred too many times")], r
        assert t.loop("--now", DUE + 200000, "--once") == []
        assert t.messages() == []


def test_wake_mode_filter(ext):
    mod = module()
    with Db(ext) as t:
        two_modes(t.db)
        add(t.db, "other", agent_id="a2", wake_mode="inject_now")
        opts = argparse.Namespace(owner="o", agent="a1")
        got = mod.claim(t.db, DUE, "inject_now", opts)
        assert [(r["run_id"], r["wake_mode"]) for r in got] == [(f"ping@{DUE}#1", "inject_now")], got
        # The inject_now claim left the next_autonomy_cycle trigger (and agent a2) alone.
        assert runs(t.db, "digest") == [] and trig(t.db, "digest")["next_due_at"] == DUE
        assert runs(t.db, "other") == []
        got = mod.claim(t.db, DUE, "next_autonomy_cycle", opts)
        assert [(r["run_id"], r["wake_mode"]) for r in got] == \
            [(f"digest@{DUE}#1", "next_autonomy_cycle")], got
        # Through the program: --agent a1 injects only a1's runs, each under its own mode.
        add(t.db, "ping2", agent_id="a1", wake_mode="inject_now")
        t.loop("--now", DUE, "--once", "--agent", "a2")
        assert [(m["trigger_id"], m["wake_mode"]) for m in t.messages()] == [("other", "inject_now")]
        assert runs(t.db, "ping2") == []


def test_repeated_step_and_delivery_do_not_duplicate(ext):
    mod = module()
    with Db(ext) as t:
        two_modes(t.db)
        first = t.loop("--now", DUE, "--once")
        assert len(first) == 2 and len(t.messages()) == 2, first
        assert t.loop("--now", DUE, "--once") == []  # the same step again
        assert len(t.messages()) == 2
        # A run handed out again after its message was stored (at-least-once):
        # INSERT OR IGNORE keeps one message and the run is still reported.
        run = mod.claim(t.db, DUE + MIN, "inject_now", argparse.Namespace(owner="o", agent=None))[0]
        t.db.execute("INSERT INTO agent_messages(run_id, text) VALUES (?, 'stored earlier')",
                     (run["run_id"],))
        assert mod.deliver(t.db, run, "success", DUE + MIN) == "already injected"
        assert [m["text"] for m in t.messages() if m["run_id"] == run["run_id"]] == ["stored earlier"]
        assert runs(t.db, "ping")[-1]["status"] == "success"
        # Delivering a finished run again: refused, nothing added.
        assert mod.deliver(t.db, run, "success", DUE + MIN).startswith("refused")
        assert len(t.messages()) == 3


def test_refused_report_rolls_back_the_injection(ext):
    mod = module()
    with Db(ext) as t:
        two_modes(t.db)
        db = mod.open_db(t.path, t.ext)  # the example's own connection and table
        run = mod.claim(db, DUE, "inject_now", argparse.Namespace(owner="o", agent=None))[0]
        one(t.db, "SELECT trigger_run_finish(?, 'failed', 'reclaimed elsewhere', ?)", run["run_id"], DUE)
        what = mod.deliver(db, run, "success", DUE + 1)
        assert what.startswith("refused") and "already finished" in what, what
        assert not db.in_transaction
        db.close()
        assert t.messages() == []
        assert runs(t.db, "ping")[0]["error"] == "reclaimed elsewhere"


def test_real_time_sleeps_until_next_wakeup(ext):
    with Db(ext) as t:
        due = int(time.time() * 1000) + 700
        t.db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type, scheduled_at,"
                     " wake_mode) VALUES ('soon', 'Wake up', 'once', ?, 'inject_now')", (due,))
        t0 = time.monotonic()
        out = t.loop("--ticks", 2, "--max-sleep-ms", 5000)
        took = time.monotonic() - t0
        assert [l.split()[1:] for l in out] == [["inject_now", f"soon@{due}#1", "injected"]], out
        assert 0.5 < took < 3.0, took  # woke at the due time, not after --max-sleep-ms
        m = t.messages()
        assert len(m) == 1 and m[0]["created_at"] >= due, m


def test_help(ext):
    p = subprocess.run([PY, EXAMPLE, "--help"], capture_output=True, text=True, timeout=20)
    assert p.returncode == 0 and "--autonomy" in p.stdout and "--now" in p.stdout, p
