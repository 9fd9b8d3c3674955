"""tests/py/host/test_host_daemon.py -- trigger-host as a daemon people run
(issue 19): its log lines by default, with -q, -v and --log json, and an
--exec command full of characters a log line must escape (tab, CR,
quote, backslash, DEL, other controls) in text and JSON logs; --version;
a missing database file is an error unless --create, in every mode;
retention (finished runs older than run_retention_ms pruned in bounded
batches, at most one round a minute, running and recent runs kept).
`trigger-host status` is in test_host_status.py."""
import json
import os
import re
import signal
import subprocess
import time

from util import ROOT, connect, finish, one, tick
from util.host import (Tmp, add_interval, add_once, host_bin, host_process as host, manual,
                       now_ms, run_host, runs, wait_for)

LINE = re.compile(r"^trigger-host: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z (.*)$")
FAIL_CMD = 'if [ "$TRIGGER_ID" = bad ]; then echo "boom" >&2; echo "second line" >&2; exit 3; fi'


def version():
    with open(os.path.join(ROOT, "VERSION")) as f:
        return f.read().strip()


def run_until(ext, path, done, *args, seconds=8):
    """`run` path until done() holds (or seconds pass), then SIGTERM:
    (exit status, stdout, stderr)."""
    proc = subprocess.Popen([host_bin(ext), "run", path, "--extension", ext, *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    ok = wait_for(done, seconds)
    time.sleep(0.2)  # the report lines follow the database writes
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=10)
    assert ok, ("never happened", err)
    return proc.returncode, out, err


def two_due(ext, t):
    """A database with 'ok' and 'bad' due now (each once, then in 60 s)."""
    path, db = t.db(ext)
    past = now_ms() - 500
    add_interval(db, "ok", past, interval_ms=60000)
    add_interval(db, "bad", past, interval_ms=60000)
    return path, db


def both_finished(db):
    return lambda: len([r for r in runs(db) if r["status"] != "running"]) == 2


def messages(err):
    out = []
    for line in err.splitlines():
        m = LINE.match(line)
        assert m, f"not a log line: {line!r}"
        out.append(m.group(1))
    return out


def test_default_log_start_failure_stop(ext):
    with Tmp() as t:
        path, db = two_due(ext, t)
        rc, _, err = run_until(ext, path, both_finished(db), "--exec", FAIL_CMD)
        assert rc == 0, err
        bad = runs(db, "trigger_id = 'bad'")[0]["run_id"]
        msgs = messages(err)
        assert len(msgs) == 3, msgs  # start, the failure, stop: nothing else
        start, failure, stop = msgs
        assert start.startswith(f"trigger-host {version()} started: run {path}; "
                                f"extension {ext} {version()}; --exec '"), start
        assert "--jobs 4; pid " in start, start
        assert failure == f"{path}: run {bad} failed: boom\\nsecond line", failure
        assert stop == "trigger-host stopped: 2 run(s) reported, 1 failed", stop


def test_quiet_prints_nothing(ext):
    with Tmp() as t:
        path, db = two_due(ext, t)
        rc, _, err = run_until(ext, path, both_finished(db), "--exec", FAIL_CMD, "-q")
        assert rc == 0 and err == "", err
        add_interval(db, "bad3", now_ms() - 500, interval_ms=60000)
        p = host(ext, "tick", path, "-q", "--exec", "exit 1")
        assert p.returncode == 1 and p.stderr == "", p.stderr
        # a fatal error still says why the host stopped
        p = subprocess.run([host_bin(ext), "tick", path, "-q", "--extension", t.file("nope")],
                           capture_output=True, text=True, timeout=10)
        assert p.returncode == 3 and "cannot load extension" in p.stderr, p.stderr


def test_verbose_logs_every_run(ext):
    with Tmp() as t:
        path, db = two_due(ext, t)
        rc, _, err = run_until(ext, path, both_finished(db), "--exec", FAIL_CMD, "-v")
        assert rc == 0, err
        ok = runs(db, "trigger_id = 'ok'")[0]["run_id"]
        msgs = messages(err)
        assert f"{path}: run {ok} success" in msgs, msgs
        assert any(m.endswith("claimed 2 run(s)") or "claimed 1 run(s)" in m for m in msgs), msgs
        assert len(msgs) > 4


def test_tick_logs_only_failures(ext):
    # a tick from system cron prints nothing when all went well, so cron
    # mails only failures; -v adds the start and stop lines
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "ok", now_ms() - 500, interval_ms=60000)
        p = host(ext, "tick", path, "--exec", "true")
        assert p.returncode == 0 and p.stderr == "", p.stderr
        add_interval(db, "bad", now_ms() - 500, interval_ms=60000)
        p = host(ext, "tick", path, "--exec", FAIL_CMD)
        assert p.returncode == 1
        bad = runs(db, "trigger_id = 'bad'")[0]["run_id"]
        assert messages(p.stderr) == [f"{path}: run {bad} failed: boom\\nsecond line"], p.stderr


def test_log_json_lines(ext):
    with Tmp() as t:
        path, db = two_due(ext, t)
        rc, _, err = run_until(ext, path, both_finished(db), "--exec", FAIL_CMD,
                               "--log", "json", "-v")
        assert rc == 0, err
        lines = [json.loads(x) for x in err.splitlines()]  # every line is JSON
        for x in lines:
            assert list(x)[:3] == ["ts", "level", "event"], x
            assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", x["ts"]), x
            assert x["level"] in ("debug", "info", "warn", "error", "fatal"), x
        start = [x for x in lines if x["event"] == "start"]
        # the first line that is not -v's (which says what was opened)
        assert len(start) == 1 and [x for x in lines if x["level"] != "debug"][0] == start[0]
        s = start[0]
        assert (s["level"], s["version"], s["extension_version"], s["mode"], s["databases"],
                s["extension"], s["dispatch"]) == \
            ("info", version(), version(), "run", [path], ext, FAIL_CMD), s
        assert s["pid"] > 0
        by_id = {x["trigger_id"]: x for x in lines if x["event"] == "run"}
        r = {r["trigger_id"]: r for r in runs(db)}
        keys = ["ts", "level", "event", "db", "trigger_id", "run_id", "attempt", "status", "error"]
        assert list(by_id["bad"]) == keys and list(by_id["ok"]) == keys, by_id
        assert by_id["bad"] | {"ts": 0} == {
            "ts": 0, "level": "error", "event": "run", "db": path, "trigger_id": "bad",
            "run_id": r["bad"]["run_id"], "attempt": 1, "status": "failed",
            "error": "boom\nsecond line"}, by_id["bad"]
        assert (by_id["ok"]["level"], by_id["ok"]["status"], by_id["ok"]["error"]) == \
            ("debug", "success", None)
        assert lines[-1]["event"] == "stop" and (lines[-1]["runs"], lines[-1]["failed"]) == (2, 1)
        assert any(x["event"] == "message" and "msg" in x for x in lines)
        # tick without -v: the failure only
        add_interval(db, "bad2", now_ms() - 500, interval_ms=60000)
        p = host(ext, "tick", path, "--log", "json", "--exec", "exit 1")
        got = [json.loads(x) for x in p.stderr.splitlines()]
        assert [(x["event"], x["trigger_id"], x["error"]) for x in got] == \
            [("run", "bad2", "exit status 1")], got
        p = host(ext, "tick", path, "--log", "yaml")
        assert p.returncode == 2 and "--log: expected text or json, not yaml" in p.stderr


def test_version(ext):
    p = subprocess.run([host_bin(ext), "--version", "--extension", ext], capture_output=True,
                       text=True, timeout=10)
    assert p.returncode == 0, p.stderr
    assert p.stdout == f"trigger-host {version()}\nextension {ext} {version()}\n", p.stdout
    p = subprocess.run([host_bin(ext), "--version", "--extension", "/nonexistent/triggers"],
                       capture_output=True, text=True, timeout=10)
    assert p.returncode == 0
    first, second = p.stdout.splitlines()
    assert first == f"trigger-host {version()}"
    assert second.startswith("extension not loaded: cannot load extension "
                             "/nonexistent/triggers"), second


def test_missing_database_is_an_error(ext):
    with Tmp() as t:
        missing = t.file("typo.db")
        for args in (["run", missing], ["tick", missing], ["serve", missing],
                     ["status", missing], ["run", missing, "--exec", "true"]):
            p = host(ext, *args)
            assert p.returncode == 2, (args, p.returncode, p.stderr)
            assert f"trigger-host: {missing}: no such database file" in p.stderr, p.stderr
            assert not os.path.exists(missing), args
        # serve: a directory expands to its *.db files; a missing file beside
        # it is still an error
        os.mkdir(t.file("agents"))
        connect(ext, t.file("agents/a.db")).close()
        p = host(ext, "serve", t.file("agents"), missing)
        assert p.returncode == 2 and f"{missing}: no such database file" in p.stderr
        p = host(ext, "serve", t.file("nodir"))
        assert p.returncode == 2 and "nodir: no such database file" in p.stderr
        # --create makes the file (and installs the schema)
        p = host(ext, "tick", missing, "--create")
        assert p.returncode == 0, p.stderr
        assert one(connect(ext, missing, install=False),
                   "SELECT count(*) FROM triggers") == 0
        p = host(ext, "status", t.file("other.db"), "--create")
        assert p.returncode == 2 and not os.path.exists(t.file("other.db"))


def old_runs(db, trigger_id, n, start, status="success"):
    """n finished runs of a new trigger, finished from start on (a minute
    apart); the trigger is paused afterwards, so no host claims it."""
    add_interval(db, trigger_id, start, interval_ms=60000)
    for k in range(n):
        [r] = [x for x in tick(db, start + k * 60000) if x["trigger_id"] == trigger_id]
        finish(db, r["run_id"], status, "x" if status == "failed" else None, start + k * 60000 + 1)
    db.execute("UPDATE triggers SET enabled = 0 WHERE trigger_id = ?", (trigger_id,))


def test_retention_prunes_in_batches(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        day = 86400000
        now = now_ms()
        old_runs(db, "old", 230, now - 2 * day)
        old_runs(db, "old-failed", 20, now - 2 * day, "failed")
        old_runs(db, "recent", 5, now - 600000)
        # running since two days ago, its lease still on: never pruned
        add_once(db, "long-running", now - 2 * day)
        one(db, "SELECT trigger_run_due(?, ?)", now - 2 * day, json.dumps({"lease_ms": 3 * day}))
        count = lambda: one(db, "SELECT count(*) FROM trigger_runs")  # noqa: E731
        assert count() == 256
        # retention 0: the host keeps everything
        one(db, "SELECT trigger_config('run_retention_ms', 0)")
        rc, _, err = run_until(ext, path, lambda: time.sleep(0.5) is None, "-v")
        assert rc == 0 and count() == 256 and "pruned" not in err, err
        # one hour: a round deletes the 250 old runs in batches of at most 100
        one(db, "SELECT trigger_config('run_retention_ms', 3600000)")
        proc = subprocess.Popen([host_bin(ext), "run", path, "--extension", ext, "-v"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert wait_for(lambda: count() == 6, 5), count()
            # a round at most once a minute: old runs added now wait for the next
            old_runs(db, "late", 3, now - 2 * day)
            time.sleep(1.0)
            assert one(db, "SELECT count(*) FROM trigger_runs WHERE trigger_id = 'late'") == 3
        finally:
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, err
        left = dict(db.execute("SELECT trigger_id, count(*) FROM trigger_runs GROUP BY 1"))
        assert left == {"recent": 5, "long-running": 1, "late": 3}, left
        assert one(db, "SELECT status FROM trigger_runs WHERE trigger_id = 'long-running'") == \
            "running"
        batches = [int(m) for m in re.findall(r": pruned (\d+) finished runs older than "
                                              r"run_retention_ms", err)]
        assert batches == [100, 100, 50], (batches, err)
        assert f"{path}: pruned 250 finished runs in all" in err, err


def test_retention_prunes_old_events(ext):
    # trigger_events past event_retention_ms go in the same rounds
    with Tmp() as t:
        path, db = t.db(ext)
        day = 86400000
        now = now_ms()
        for i in range(120):
            db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type,"
                       " interval_ms, created_at, enabled) VALUES (?, ?, 'interval',"
                       " 3600000, ?, 0)", (f"old{i}", f"x{i}", now - 3 * day))
        db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type,"
                   " interval_ms, enabled) VALUES ('new', 'x', 'interval', 3600000, 0)")
        events = lambda: one(db, "SELECT count(*) FROM trigger_events")  # noqa: E731
        assert events() == 121
        one(db, "SELECT trigger_config('event_retention_ms', ?)", 2 * day)
        rc, _, err = run_until(ext, path, lambda: events() == 1, "-v")
        assert rc == 0 and events() == 1, err
        assert one(db, "SELECT trigger_id FROM trigger_events") == "new"
        assert f"{path}: pruned 120 events in all" in err, err


def test_help_documents_daemon_options(ext):
    p = subprocess.run([host_bin(ext), "--help"], capture_output=True, text=True, timeout=5)
    assert p.returncode == 0
    for word in ("status [--json]", "--version", "--create", "--log json"):
        assert word in p.stdout, word
    man = manual()
    for word in ("status [--json]", "--version", "--create", "--quiet, -q", "--log text | json",
                 "run_retention_ms", "trigger_prune(before, 100)", "NEXT, LEFT, LAST, STATUS"):
        assert word in man, word


def test_odd_exec_command_escaped_in_log_lines(ext):
    with Tmp() as t:
        path, _ = t.db(ext)
        for fmt in ("text", "json"):
            rc, _, err = run_host(ext, "tick", path, "--exec", ODD, "--log", fmt, "-v")
            assert rc == 0, err
            line = start_line(err)
            assert len(line) == 1, err
            if fmt == "text":  # controls escaped, quote and backslash as they are
                assert 'echo "a\\tb\\rc\\d\\x7fe\\x01f\\x1bg\u00e9"' in line[0], line
            else:
                assert "\\u007f" in line[0] and "\\u0001" in line[0], line
                assert json.loads(line[0])["dispatch"] == ODD, line


ODD = 'echo "a\tb\rc\\d\x7fe\x01f\x1bg\u00e9"'


def start_line(err):
    return [x for x in err.splitlines() if " started: " in x or '"event":"start"' in x]
