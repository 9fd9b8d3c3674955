"""tests/py/host/test_host_via.py -- trigger-host --via CMD without a cluster:
Debian's sqlite3 shell (with the extension loaded) as CMD stands in for
the dqlite shell, so the statements the host writes, their quoting, the
answers it reads and its errors are checked in every `make test`. (The
same mode against a 3-node dqlite cluster with a failover:
tests/dqlite/test_host.py.)"""
import os
import subprocess
import tempfile
import time

from util import connect, one
from util.host import manual

ERROR_TEXT = "it's \"bad\"\nsecond line é; DROP TABLE triggers; --"


def host_bin(ext):
    return os.path.abspath(os.path.join(os.path.dirname(ext), "trigger-host"))


def run_host(ext, tmp, args, timeout=60):
    return subprocess.run([host_bin(ext)] + args, capture_output=True, text=True,
                          timeout=timeout, cwd=tmp)


def test_via_tick_quotes_every_value(ext):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "far.db")
        db = connect(ext, path)
        now = int(time.time() * 1000)
        for t in ("good", "bad"):
            db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type, "
                       "interval_ms, created_at) VALUES (?, ?, 'interval', 60000, ?)",
                       (t, f"run {t}", now - 61000))
        script = os.path.join(tmp, "job.sh")
        with open(script, "w") as f:
            f.write('echo "$TRIGGER_ID $TRIGGER_DB" >> ran.txt\n'
                    '[ "$TRIGGER_ID" = good ] && exit 0\n'
                    f"printf '%s\\n' '{ERROR_TEXT.replace(chr(39), chr(39) + chr(92) + chr(39) + chr(39))}' >&2\n"
                    "exit 1\n")
        via = f"sqlite3 -bail -cmd '.load {os.path.abspath(ext)}' far.db"
        r = run_host(ext, tmp, ["tick", "the-far-db", "--via", via, "--exec",
                                f"sh {script}", "--owner", "via-test"])
        assert r.returncode == 1, (r.returncode, r.stderr)  # one run failed
        with open(os.path.join(tmp, "ran.txt")) as f:
            assert sorted(f.read().split("\n")) == ["", "bad the-far-db", "good the-far-db"]
        rows = dict(db.execute("SELECT trigger_id, status || '|' || coalesce(error, '') "
                               "|| '|' || owner FROM trigger_runs"))
        assert rows == {"good": "success||via-test",
                        "bad": f"failed|{ERROR_TEXT}|via-test"}, rows
        # the wakeup and claim went through CMD too: nothing is due now
        r = run_host(ext, tmp, ["tick", "the-far-db", "--via", via])
        assert r.returncode == 0, r.stderr
        assert one(db, "SELECT count(*) FROM trigger_runs") == 2


def test_via_documented_in_help(ext):
    man = manual()
    for word in ("--via cmd", "TRIGGER_DB", "dqlite -s", "triggers-preload.so"):
        assert word in man, word


def test_via_command_failure_is_reported(ext):
    with tempfile.TemporaryDirectory() as tmp:
        r = run_host(ext, tmp, ["tick", "x", "--via",
                                "echo 'Error: no leader' >&2; exit 4; :"])
        assert r.returncode == 3, r
        assert "via: SELECT trigger_install(): exit status 4: Error: no leader" in r.stderr, \
            r.stderr


def test_via_command_killed_by_signal_is_reported(ext):
    """A --via command that dies of a signal, saying nothing, is a failure
    naming the signal (no stderr line appended), exit 3."""
    with tempfile.TemporaryDirectory() as tmp:
        r = run_host(ext, tmp, ["tick", "x", "--via", "kill -TERM $$; :"])
        assert r.returncode == 3, r
        assert "via: SELECT trigger_install(): killed by signal 15\n" in r.stderr, r.stderr


def test_via_sql_jobs_run_in_the_far_database_with_their_outcome(ext):
    """--sql --via: each job runs in the far database through
    trigger_run_sql_job (one statement: the job and its finish), and the
    host reads the run's status and error from its answer: a job that
    succeeds leaves its rows and 'success', one that fails leaves nothing
    and 'failed' with SQLite's message."""
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "far.db")
        db = connect(ext, path)
        db.execute("CREATE TABLE ledger(run_id TEXT NOT NULL, n INTEGER NOT NULL)")
        now = int(time.time() * 1000)

        def add(t, sql):
            db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type,"
                       " interval_ms, created_at, action_sql)"
                       " VALUES (?, 'a job', 'interval', 3600000, ?, ?)",
                       (t, now - 3600000 - 500, sql))

        add("good", "INSERT INTO ledger VALUES(:run_id, 1)")
        via = f"sqlite3 -bail -cmd '.load {os.path.abspath(ext)}' far.db"
        r = run_host(ext, tmp, ["tick", "the-far-db", "--via", via, "--sql"])
        assert r.returncode == 0, (r.returncode, r.stderr)  # the good job alone
        add("bad", "INSERT INTO ledger VALUES(:run_id, 2); INSERT INTO ledger VALUES(NULL, 3)")
        r = run_host(ext, tmp, ["tick", "the-far-db", "--via", via, "--sql"])
        assert r.returncode == 1, (r.returncode, r.stderr)  # the bad job failed
        assert "NOT NULL constraint failed: ledger.run_id" in r.stderr, r.stderr
        rows = {t: (s, e) for t, s, e in db.execute(
            "SELECT trigger_id, status, error FROM trigger_runs")}
        assert rows["good"] == ("success", None), rows
        assert rows["bad"][0] == "failed" and \
            "NOT NULL constraint failed: ledger.run_id" in rows["bad"][1], rows
        good_run = one(db, "SELECT run_id FROM trigger_runs WHERE trigger_id = 'good'")
        assert db.execute("SELECT run_id, n FROM ledger").fetchall() == [(good_run, 1)]
