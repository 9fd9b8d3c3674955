"""tests/py/host/test_host_verbs.py -- the operator's verbs and listings
(host/cli/verbs.c, host/cli/history.c): pause, resume, cancel and fire
change one trigger through the extension's functions (the same events in
trigger_events), fire queues a run the next claim takes; an unknown id
says so and exits 4, a refusal exits 1 with the extension's message, and
nothing is written then; runs and events list newest first with --limit,
--all, --since and --json."""
import json
import subprocess

from util import events, one
from util.host import Tmp, add_interval, host_bin, now_ms, runs, tick


def cmd(ext, *args):
    return subprocess.run([host_bin(ext), *args, "--extension", ext], capture_output=True,
                          text=True, timeout=30)


def kinds(db, trigger_id):
    return [e["kind"] for e in events(db, "WHERE trigger_id = ?", trigger_id)]


def test_verbs_change_the_trigger_as_the_functions_do(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "daily", now_ms() + 3600000, interval_ms=86400000)
        p = cmd(ext, "pause", path, "daily")
        assert (p.returncode, p.stdout, p.stderr) == (0, "", ""), p
        assert one(db, "SELECT status FROM triggers WHERE trigger_id = 'daily'") == "paused"
        p = cmd(ext, "pause", path, "daily")  # so already: done, no second event
        assert p.returncode == 0 and kinds(db, "daily").count("paused") == 1, p
        p = cmd(ext, "resume", path, "daily", "--json")
        assert p.returncode == 0 and json.loads(p.stdout)["status"] == "scheduled", p
        p = cmd(ext, "cancel", path, "daily")
        assert p.returncode == 0, p
        assert sorted(kinds(db, "daily")) == ["cancelled", "created", "paused", "resumed"]
        before = one(db, "SELECT count(*) FROM trigger_events")
        for verb in ("resume", "fire"):  # the extension refuses: its message, exit 1
            p = cmd(ext, verb, path, "daily")
            assert p.returncode == 1, p
            assert p.stderr.startswith(f"trigger-host: {verb} daily: trigger_{verb}: "), p.stderr
            assert "cancelled" in p.stderr, p.stderr
        assert one(db, "SELECT count(*) FROM trigger_events") == before
        assert runs(db) == []


def test_unknown_id_says_so_and_exits_4(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "real", now_ms() + 3600000)
        for args in (["pause", path, "nope"], ["resume", path, "nope"],
                     ["cancel", path, "nope"], ["fire", path, "nope"],
                     ["runs", path, "nope"], ["events", path, "nope"]):
            p = cmd(ext, *args)
            assert p.returncode == 4, (args, p)
            assert p.stderr == f"trigger-host: {args[0]} nope: no such trigger in {path}\n", p
            assert p.stdout == "", p
        assert runs(db) == [] and kinds(db, "real") == ["created"]
        # usage errors: exit 2, nothing opened
        for args, words in ((["pause", path], "missing TRIGGER_ID"),
                            (["fire", path, "a", "b"], "takes a database and a TRIGGER_ID"),
                            (["runs", path, "a", "b"], "at most one TRIGGER_ID"),
                            (["pause", path, "real", "--since", "1h"], "--since is an option"),
                            (["pause", path, "real", "--exec", "true"], "no --exec"),
                            (["runs", path, "--since", "yesterday"], "--since yesterday: expected"),
                            (["pause", t.file("missing.db"), "real"], "no such database file")):
            p = cmd(ext, *args)
            assert p.returncode == 2 and words in p.stderr, (args, p.stderr)


def test_fire_queues_a_run_the_next_claim_takes(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "later", now_ms() + 3600000, interval_ms=86400000)
        nxt = one(db, "SELECT next_due_at FROM triggers")
        p = cmd(ext, "fire", path, "later")
        assert p.returncode == 0, p
        run_id = p.stdout.strip()
        [r] = runs(db)
        assert (r["run_id"], r["status"]) == (run_id, "deferred"), r
        assert one(db, "SELECT next_due_at FROM triggers") == nxt  # schedule unchanged
        rc, out, err = tick(ext, path, "--exec", "echo ran $TRIGGER_RUN_ID")
        assert rc == 0, err
        [r] = runs(db)
        assert (r["status"], r["result"]) == ("success", "ran " + run_id), r
        # a paused trigger's queued run would be skipped by the claim: refused
        cmd(ext, "pause", path, "later")
        p = cmd(ext, "fire", path, "later")
        assert p.returncode == 1 and "is paused" in p.stderr and "resume it first" in p.stderr, p
        assert len(runs(db)) == 1


def test_runs_and_events_newest_first(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        now = now_ms()
        add_interval(db, "a", now - 10 * 60000 - 1, interval_ms=60000, max_attempts=1)
        add_interval(db, "b", now + 60000, interval_ms=3600000)
        for k in range(10):  # ten runs of a, a minute apart, the odd ones failed
            [r] = json.loads(one(db, "SELECT trigger_run_due(?)",
                                 now - (10 - k) * 60000))
            one(db, "SELECT trigger_run_finish(?, ?, ?, ?)", r["run_id"],
                "failed" if k % 2 else "success", f"out {k}", now - (10 - k) * 60000 + 5)
        p = cmd(ext, "runs", path)
        assert p.returncode == 0, p
        lines = p.stdout.splitlines()
        assert lines[0].split() == ["SCHEDULED", "STATUS", "ATTEMPT", "LATENCY", "RUN", "ERROR",
                                    "/", "RESULT"], lines[0]
        assert [x.split()[2] for x in lines[1:]] == ["failed", "success"] * 5, lines
        assert lines[1].endswith("out 9") and lines[-1].endswith("out 0"), lines
        p = cmd(ext, "runs", path, "a", "--limit", "3", "--json")
        s = json.loads(p.stdout)
        assert [r["result"] or r["error"] for r in s["runs"]] == ["out 9", "out 8", "out 7"], s
        assert (s["shown"], s["more"], s["trigger_id"]) == (3, True, "a"), s
        assert s["runs"][0]["payload"]["triggerId"] == "a", s
        p = cmd(ext, "runs", path, "--limit", "2")
        assert "2 shown, newest first; --limit N, --all or --since for more." in p.stdout, p
        p = cmd(ext, "runs", path, "--since", "4min", "--json")
        assert [r["result"] or r["error"] for r in json.loads(p.stdout)["runs"]] == \
            ["out 9", "out 8", "out 7"], p.stdout
        p = cmd(ext, "runs", path, "--since", str(now + 1), "--all")
        assert p.stdout == "-- No runs since then --\n", p.stdout
        p = cmd(ext, "runs", path, "b")  # a trigger without runs: no rows, exit 0
        assert (p.returncode, p.stdout) == (0, "-- No runs --\n"), p
        cmd(ext, "pause", path, "b")
        cmd(ext, "resume", path, "b")
        p = cmd(ext, "events", path, "b")
        assert [x.split()[2] for x in p.stdout.splitlines()[1:]] == ["resumed", "paused",
                                                                     "created"], p.stdout
        p = cmd(ext, "events", path, "--json", "--limit", "1")
        s = json.loads(p.stdout)
        assert [(e["kind"], e["trigger_id"]) for e in s["events"]] == [("resumed", "b")], s
        # reads only: a listing opens the file read-only
        assert cmd(ext, "runs", path, "--since", "2026-01-01T00:00:00Z").returncode == 0


def test_retry_cancel_run_and_signal(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "job", now_ms() + 3600000, interval_ms=86400000)
        db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type, event_key)"
                   " VALUES ('on-merge', 'Deploy', 'event', 'pr:merged')")
        # a run that failed, retried from the shell: the next claim takes attempt 2
        run_id = cmd(ext, "fire", path, "job").stdout.strip()
        rc, out, err = tick(ext, path, "--exec", "exit 3")
        assert rc == 1, err
        p = cmd(ext, "retry", path, run_id)
        assert p.returncode == 0, p
        retry_id = p.stdout.strip()
        assert retry_id.endswith("#2") and retry_id != run_id, retry_id
        rc, out, err = tick(ext, path, "--exec", "echo second")
        assert rc == 0, err
        assert one(db, "SELECT status || ' ' || result FROM trigger_runs WHERE run_id = ?",
                   retry_id) == "success second"
        # a running run cannot be retried: the extension's message, exit 1
        running = json.loads(one(db, "SELECT trigger_fire('job')"))["run_id"]
        p = cmd(ext, "retry", path, running)
        assert p.returncode == 1 and "is running" in p.stderr, p
        # cancel-run marks it; its report then records it cancelled
        p = cmd(ext, "cancel-run", path, running, "--json")
        assert p.returncode == 0 and json.loads(p.stdout)["cancel_requested_at"], p
        for verb in ("retry", "cancel-run"):
            p = cmd(ext, verb, path, "job@1#1")
            assert p.returncode == 4, p
            assert p.stderr == f"trigger-host: {verb} job@1#1: no such run in {path}\n", p
        # signal: how many event triggers it made due
        p = cmd(ext, "signal", path, "pr:merged", '{"pr": 7}')
        assert (p.returncode, p.stdout) == (0, "1\n"), p
        assert cmd(ext, "signal", path, "nobody:listens").stdout == "0\n"
        p = cmd(ext, "signal", path, "pr:merged", "not json")
        assert p.returncode == 1 and "trigger_signal: payload" in p.stderr, p
        rc, out, err = tick(ext, path)
        assert rc == 0 and '"pr":7' in out.replace(" ", ""), out
        for args, words in ((["retry", path], "missing RUN_ID"),
                            (["signal", path], "missing KEY"),
                            (["signal", path, "k", "{}", "x"], "at most a JSON"),
                            (["cancel-run", path, "a", "b"], "a database and a RUN_ID")):
            p = cmd(ext, *args)
            assert p.returncode == 2 and words in p.stderr, (args, p.stderr)
