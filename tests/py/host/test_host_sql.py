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


def test_jobs_longer_than_the_kept_statements_run_whole(ext):
    """The host keeps the first 8 statements of a job prepared for the next
    run of the same text (docs/sql-jobs.md): a job of 11 statements run
    twice in one tick does all 11 each time."""
    with Tmp() as t:
        path, db = jobs_db(ext, t)
        sql = "; ".join([LEDGER] + ["UPDATE counter SET n = n + 1"] * 10)
        job(db, "long-a", sql)
        job(db, "long-b", sql)
        rc, _, err = tick(ext, path, "--sql")
        assert rc == 0, err
        assert [(r["trigger_id"], r["status"], r["result"]) for r in runs(db)] == \
            [("long-a", "success", "11"), ("long-b", "success", "11")], runs(db)
        assert one(db, "SELECT n FROM counter") == 20
        assert one(db, "SELECT count(*) FROM ledger") == 2


def test_usage_errors(ext):
    with Tmp() as t:
        path, _ = jobs_db(ext, t)
        for args, why in [
            (("tick", path, "--sql", "--exec", "true"), "--sql runs SQL jobs only"),
            (("tick", path, "--sql-timeout", "5"), "--sql-timeout needs --sql"),
            (("tick", path, "--sql", "--sql-timeout", "0"), "--sql-timeout: not a positive"),
        ]:
            rc, _, err = run_host(ext, *args)
            assert rc == 2 and why in err, (args, rc, err)


def test_jobs_show_in_status_page_metrics_events_and_health(ext):
    from util.http import get, parse_metrics, start_http, stop_http
    with Tmp() as t:
        path, db = jobs_db(ext, t)
        job(db, "purge", "DELETE FROM counter WHERE n < 0;\n" + LEDGER)
        job(db, "broken", "DELETE FROM ledger WHERE at = -1", pause_after_failures=1)
        db.execute("UPDATE triggers_data SET action_sql = 'DELETE FROM nope'"
                   " WHERE trigger_id = 'broken'")  # changed outside: fails when it runs
        assert one(db, "SELECT trigger_describe('purge')") == \
            "Every hour. Runs SQL: DELETE FROM counter WHERE n < 0 ..."
        proc, port, _ = start_http(ext, t, "run", path, "--sql")
        try:
            assert wait_for(lambda: one(db, "SELECT count(*) FROM trigger_runs"
                                            " WHERE finished_at IS NOT NULL") == 2, 10)
            _, _, page = get(port, "/")
            assert "Runs SQL: DELETE FROM counter WHERE n &lt; 0 ..." in page, page[-3000:]
            assert "SQL: DELETE FROM counter WHERE n &lt; 0;" in page  # the tooltip: all of it
            _, _, text = get(port, "/metrics")
            m, _ = parse_metrics(text)
            got = {dict(k[1]).get("status"): v for k, v in m.items()
                   if k[0] == "trigger_host_runs_total"}
            assert got.get("success") == 1 and got.get("failed") == 1, got
        finally:
            stop_http(proc)
        rc, out, err = run_host(ext, "status", path)
        assert rc == 0, err
        assert "Runs SQL: DELETE FROM counter WHERE n < 0 ..." in out, out
        assert "no such table: nope" in out, out  # the failed run listed
        rc, out, err = run_host(ext, "status", "--json", path)
        assert "Runs SQL: DELETE FROM counter" in out
        # the failed job paused itself (pause_after_failures 1): its event
        kinds = [r[0] for r in db.execute(
            "SELECT kind FROM trigger_events WHERE trigger_id = 'broken' ORDER BY at")]
        assert kinds == ["created", "auto_paused"], kinds
        h = json.loads(one(db, "SELECT trigger_health()"))
        assert h["failures_24h"] == 1 and h["paused"] == 1, h
