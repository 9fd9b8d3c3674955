"""tests/py/host/test_host_sql.py -- trigger-host --sql (SQL jobs,
docs/sql-jobs.md): each claimed job run in one transaction with its finish
(success with the rows changed as result; a failure rolled back and
finished 'failed' with SQLite's message naming the statement, retried as
configured); --sql-timeout interrupts a job and nothing of it stays; a
statement refused or no longer compiling when it runs fails the run; a
host without --sql never claims a job and a --sql host claims nothing
else; the usage errors of --sql."""
import json
import time

from util.host import Tmp, add_interval, now_ms, run_host, runs, tick, wait_for, start, stop
from util import one

LEDGER = "INSERT INTO ledger(run_id, at) VALUES(:run_id, :scheduled_for)"


def jobs_db(ext, t):
    path, db = t.db(ext)
    db.execute("CREATE TABLE ledger(run_id TEXT, at INTEGER)")
    db.execute("CREATE TABLE counter(n INTEGER)")
    db.execute("INSERT INTO counter VALUES(0)")
    return path, db


def job(db, trigger_id, sql, due=None, **cols):
    add_interval(db, trigger_id, due if due is not None else now_ms() - 500,
                 interval_ms=3600000, action_sql=sql, **cols)


def test_a_job_and_its_run_commit_together(ext):
    with Tmp() as t:
        path, db = jobs_db(ext, t)
        job(db, "purge", LEDGER + "; UPDATE counter SET n = n + 1")
        add_interval(db, "cmd", now_ms() - 500, interval_ms=3600000)
        rc, out, err = tick(ext, path, "--sql", "-v")
        assert rc == 0, err
        assert out == ""  # nothing printed: jobs run, commands are not claimed
        got = runs(db)
        assert [(r["trigger_id"], r["status"], r["result"]) for r in got] == \
            [("purge", "success", "2")], got
        assert one(db, "SELECT run_id FROM ledger") == got[0]["run_id"]
        assert one(db, "SELECT n FROM counter") == 1
        assert "running SQL jobs" in err
        # the command trigger is a print-mode host's; it never runs a job
        rc, out, err = tick(ext, path)
        assert [json.loads(x)["trigger_id"] for x in out.splitlines()] == ["cmd"]


def test_a_failed_job_leaves_nothing_and_is_retried(ext):
    with Tmp() as t:
        path, db = jobs_db(ext, t)
        db.execute("CREATE TABLE once(k TEXT UNIQUE)")
        db.execute("INSERT INTO once VALUES('taken')")
        job(db, "dup", LEDGER + "; UPDATE counter SET n = n + 1;"
                "\nINSERT INTO once VALUES('taken')", max_attempts=2, backoff_ms=1000)
        rc, _, err = tick(ext, path, "--sql")
        assert rc == 1, err  # a failed run: tick's exit status 1
        (r,) = runs(db)
        assert r["status"] == "failed"
        assert r["error"] == ("action_sql: statement 3 (INSERT INTO once VALUES('taken')): "
                              "UNIQUE constraint failed: once.k"), r["error"]
        assert one(db, "SELECT count(*) FROM ledger") == 0
        assert one(db, "SELECT n FROM counter") == 0
        # retried after its backoff, and still failing: attempt 2, then done
        time.sleep(1.1)
        tick(ext, path, "--sql")
        assert [(r["attempt"], r["status"]) for r in runs(db)] == [(1, "failed"), (2, "failed")]
        assert one(db, "SELECT count(*) FROM ledger") == 0


def test_timeout_interrupts_and_rolls_back(ext):
    with Tmp() as t:
        path, db = jobs_db(ext, t)
        slow = ("WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r)"
                " SELECT count(*) FROM r")
        job(db, "slow", LEDGER + "; " + slow)
        started = time.time()
        rc, _, err = tick(ext, path, "--sql", "--sql-timeout", "0.3")
        assert time.time() - started < 5
        (r,) = runs(db)
        assert r["status"] == "failed"
        assert r["error"].startswith("action_sql: statement 2 (WITH RECURSIVE r(i)")
        assert r["error"].endswith("over --sql-timeout (interrupted): 300 ms"), r["error"]
        assert one(db, "SELECT count(*) FROM ledger") == 0


def test_a_job_that_no_longer_compiles_or_was_changed_fails(ext):
    with Tmp() as t:
        path, db = jobs_db(ext, t)
        db.execute("CREATE TABLE gone(x)")
        job(db, "lost", LEDGER + "; DELETE FROM gone")
        job(db, "vacuum", LEDGER)
        db.execute("DROP TABLE gone")
        # changed outside the extension (its shadow table): checked again
        db.execute("UPDATE triggers_data SET action_sql = 'VACUUM'"
                   " WHERE trigger_id = 'vacuum'")
        tick(ext, path, "--sql")
        got = {r["trigger_id"]: r for r in runs(db)}
        assert got["lost"]["error"] == ("action_sql: statement 2 (DELETE FROM gone): "
                                        "no such table: gone")
        assert got["vacuum"]["error"] == ("action_sql: statement 1 (VACUUM): VACUUM "
                                          "cannot run inside the job's transaction")
        assert one(db, "SELECT count(*) FROM ledger") == 0


def test_run_mode_runs_a_job_when_due(ext):
    with Tmp() as t:
        path, db = jobs_db(ext, t)
        job(db, "soon", LEDGER, due=now_ms() + 700)
        p = start(ext, "run", path, "--sql")
        try:
            assert wait_for(lambda: one(db, "SELECT count(*) FROM ledger") == 1, 10)
        finally:
            rc, _, err = stop(p)
        assert rc == 0, err
        assert [r["status"] for r in runs(db)] == ["success"]


def test_usage_errors(ext):
    with Tmp() as t:
        path, _ = jobs_db(ext, t)
        for args, why in [
            (("tick", path, "--sql", "--exec", "true"), "--sql runs SQL jobs only"),
            (("tick", path, "--sql-timeout", "5"), "--sql-timeout needs --sql"),
            (("tick", path, "--sql", "--via", "cat"), "no --via"),
            (("tick", path, "--sql", "--sql-timeout", "0"), "--sql-timeout: not a positive"),
        ]:
            rc, _, err = run_host(ext, *args)
            assert rc == 2 and why in err, (args, rc, err)
