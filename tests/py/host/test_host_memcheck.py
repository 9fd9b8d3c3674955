"""tests/py/host/test_host_memcheck.py -- the host program under a memory
checker on the paths where a slip loses memory or reads what was never
written, which its output cannot show: a SQL job run through --via, a
claim that fails and is tried again, a JOURNAL_STREAM that is not
"dev:ino". A long-running host that leaks on each job or each failed
claim grows without bound (docs/testing.md#the-host-under-a-memory-checker).

The plain build runs the host under valgrind's memcheck (tests/deps.sh
installs it): any error, a leak that no pointer reaches included, ends it
with status 99. The ASan build (make test-asan) cannot run under
valgrind: there the host runs with ASan's leak check on, which exits 99
on a leak (an uninitialised read is memcheck's alone)."""
import os
import shutil
import signal
import subprocess
import time

from util.host import Tmp, add_interval, add_once, host_bin, now_ms, wait_for

FOUND = 99  # the checker's exit status when it found something


def asan_build(ext):
    with open(host_bin(ext), "rb") as f:
        return b"__asan_init" in f.read()


def checked(ext, args, env=None):
    """The command line and environment running trigger-host args under
    the build's memory checker."""
    env = dict(env or os.environ)
    if asan_build(ext):
        env["ASAN_OPTIONS"] = "detect_leaks=1:exitcode=%d:abort_on_error=0" % FOUND
        return [os.path.abspath(host_bin(ext)), *args, "--extension", ext], env
    vg = shutil.which("valgrind")
    assert vg, "valgrind is not installed (tests/deps.sh installs it)"
    return [vg, "-q", f"--error-exitcode={FOUND}", "--leak-check=full",
            "--show-leak-kinds=definite", "--errors-for-leak-kinds=definite",
            os.path.abspath(host_bin(ext)), *args, "--extension", ext], env


def run_checked(ext, args, env=None, cwd=None, timeout=120):
    cmd, env = checked(ext, args, env)
    p = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout)
    assert p.returncode != FOUND, p.stderr[-4000:]
    return p


def test_sql_jobs_through_via_leak_nothing(ext):
    """--sql --via: each job's answer (status, detail) is freed once read;
    three jobs, one failing, and nothing is lost."""
    with Tmp() as t:
        path, db = t.db(ext, "far.db")
        db.execute("CREATE TABLE ledger(run_id TEXT NOT NULL)")
        for name, sql in (("a", "INSERT INTO ledger VALUES(:run_id)"),
                          ("b", "INSERT INTO ledger VALUES(:run_id)"),
                          ("c", "INSERT INTO ledger VALUES(NULL)")):
            add_interval(db, name, now_ms() - 500, interval_ms=3600000, action_sql=sql)
        via = f"sqlite3 -bail -cmd '.load {os.path.abspath(ext)}' far.db"
        p = run_checked(ext, ["tick", "the-far-db", "--via", via, "--sql"], cwd=t.path)
        assert p.returncode == 1, (p.returncode, p.stderr[-3000:])  # job c failed
        got = dict(db.execute("SELECT trigger_id, status FROM trigger_runs"))
        assert got == {"a": "success", "b": "success", "c": "failed"}, (got, p.stderr[-3000:])
        assert db.execute("SELECT count(*) FROM ledger").fetchone()[0] == 2


def test_claims_failing_on_a_held_lock_leak_nothing(ext):
    """A database another connection keeps write-locked when a trigger
    falls due: each failed claim's message is logged and freed, and the
    host claims once the lock goes."""
    with Tmp() as t:
        path, db = t.db(ext)
        err_path = t.file("err")
        cmd, env = checked(ext, ["run", path, "--exec", "true", "--busy-timeout", "50"])
        proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=open(err_path, "w"),
                                env=env)
        try:
            assert wait_for(lambda: "started" in open(err_path).read(), 60), \
                open(err_path).read()
            add_once(db, "late", now_ms() + 500)
            db.execute("BEGIN IMMEDIATE")  # the lock, held past the due time
            time.sleep(4)  # claims fail: 1 s, then 2 s (the backoff)
            db.execute("ROLLBACK")
            assert wait_for(lambda: db.execute(
                "SELECT count(*) FROM trigger_runs WHERE status = 'success'"
            ).fetchone()[0] == 1, 30), open(err_path).read()[-3000:]
        finally:
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=60)
        err = open(err_path).read()
        assert proc.returncode != FOUND, err[-4000:]
        assert proc.returncode == 0, (proc.returncode, err[-3000:])
        assert "database is locked" in err and "claims work again" in err, err[-3000:]


def test_a_journal_stream_that_is_not_dev_ino_is_not_half_read(ext):
    """JOURNAL_STREAM values systemd never writes: the host reads them as
    'not the journal' without using a number it did not parse (memcheck
    sees a read of what was never written)."""
    with Tmp() as t:
        path, db = t.db(ext)
        add_once(db, "a", now_ms() + 3600000)
        for stream in ("x1:2", ":7", "12:x", "-1:2"):
            env = dict(os.environ, JOURNAL_STREAM=stream)
            p = run_checked(ext, ["status", path], env=env)
            assert p.returncode == 0, (stream, p.returncode, p.stderr[-3000:])
            assert "1 trigger: 1 scheduled." in p.stdout, (stream, p.stdout)
            assert not p.stderr.startswith("<"), (stream, p.stderr)


def test_status_listing_failed_runs_leaks_nothing(ext):
    """trigger-host status with failed runs to list: each one's texts are
    freed (the listing is read into memory before it is printed)."""
    with Tmp() as t:
        path, db = t.db(ext)
        add_once(db, "bad", now_ms() - 500)
        add_once(db, "later", now_ms() + 3600000)
        p = subprocess.run([host_bin(ext), "tick", path, "--extension", ext,
                            "--exec", "echo boom >&2; exit 1"],
                           capture_output=True, text=True, timeout=30)
        assert p.returncode == 1, p.stderr
        p = run_checked(ext, ["status", path])
        assert p.returncode == 0, (p.returncode, p.stderr[-3000:])
        assert "boom" in p.stdout, p.stdout
