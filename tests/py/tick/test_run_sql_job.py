"""tests/py/tick/test_run_sql_job.py -- trigger_run_sql_job(run_id [,
timeout_ms [, now]]) (docs/sql-jobs.md#one-statement-trigger_run_sql_job):
a claimed SQL job run and its end recorded inside one statement, so the
job's effect and its run commit together even as one autocommit SELECT
(how a dqlite cluster runs each statement); a failure rolled back to the
job's savepoint and recorded 'failed' with SQLite's message, retried as
configured; the timeout; the same finish as trigger_run_finish (a
trigger completed, its events); bad input refused with nothing
changed."""
import json

from util import MIN, T0, add, connect, dump, events, one, refused, tick

LEDGER = "INSERT INTO ledger(run_id, at) VALUES(:run_id, :now)"


def jobs_db(ext, path=":memory:"):
    db = connect(ext, path)
    db.execute("CREATE TABLE ledger(run_id TEXT, at INTEGER)")
    db.execute("CREATE TABLE once(k TEXT UNIQUE)")
    db.execute("INSERT INTO once VALUES('taken')")
    return db


def claim(db, now=T0 + MIN):
    return {r["trigger_id"]: r["run_id"] for r in tick(db, now, sql=True, lease_ms=MIN)}


def run_job(db, run_id, timeout_ms=None, now=T0 + MIN + 500):
    return json.loads(one(db, "SELECT trigger_run_sql_job(?, ?, ?)", run_id,
                          timeout_ms, now))


def test_a_job_and_its_end_in_one_autocommit_statement(ext):
    db = jobs_db(ext)
    add(db, "j", action_sql=LEDGER + "; INSERT INTO ledger VALUES('second', :scheduled_for)")
    run_id = claim(db)["j"]
    assert db.in_transaction is False
    got = run_job(db, run_id)
    assert (got["run_id"], got["status"], got["result"], got["error"]) == \
        (run_id, "success", "2", None), got
    assert got["finished_at"] == T0 + MIN + 500
    assert db.execute("SELECT run_id, at FROM ledger").fetchall() == \
        [(run_id, T0 + MIN + 500), ("second", T0 + MIN)]
    assert one(db, "SELECT run_count FROM triggers WHERE trigger_id = 'j'") == 1
    assert db.in_transaction is False  # committed by the call itself


def test_a_failed_job_leaves_nothing_and_is_retried(ext):
    db = jobs_db(ext)
    add(db, "dup", action_sql=LEDGER + ";\nINSERT INTO once VALUES('taken')",
        max_attempts=2, backoff_ms=1000)
    run_id = claim(db)["dup"]
    got = run_job(db, run_id)
    assert got["status"] == "failed"
    assert got["error"] == ("action_sql: statement 2 (INSERT INTO once VALUES('taken')): "
                            "UNIQUE constraint failed: once.k"), got["error"]
    assert one(db, "SELECT count(*) FROM ledger") == 0
    # attempt 2 after the backoff, as for a run failed by trigger_run_finish
    again = tick(db, T0 + MIN + 2000, sql=True)
    assert [r["run_id"] for r in again] == [f"dup@{T0 + MIN}#2"], again


def test_timeout_interrupts_and_rolls_back(ext):
    db = jobs_db(ext)
    slow = ("WITH RECURSIVE r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r)"
            " SELECT count(*) FROM r")
    add(db, "slow", action_sql=LEDGER + "; " + slow)
    got = run_job(db, claim(db)["slow"], timeout_ms=200)
    assert got["status"] == "failed"
    assert got["error"].startswith("action_sql: statement 2 (WITH RECURSIVE r(i)")
    assert got["error"].endswith("over the timeout (interrupted): 200 ms"), got["error"]
    assert one(db, "SELECT count(*) FROM ledger") == 0


def test_inside_the_callers_transaction_a_rollback_undoes_both(ext):
    db = jobs_db(ext)
    add(db, "j", action_sql=LEDGER)
    run_id = claim(db)["j"]
    before = dump(db)
    db.execute("BEGIN")
    assert run_job(db, run_id)["status"] == "success"
    db.execute("ROLLBACK")
    assert dump(db) == before
    assert one(db, "SELECT count(*) FROM ledger") == 0
    assert run_job(db, run_id)["status"] == "success"
    assert one(db, "SELECT count(*) FROM ledger") == 1


def test_a_statement_refused_when_it_runs(ext):
    db = jobs_db(ext)
    add(db, "v", action_sql=LEDGER)
    # changed outside the extension (its shadow table): read again here
    db.execute("UPDATE triggers_data SET action_sql = 'VACUUM' WHERE trigger_id = 'v'")
    got = run_job(db, claim(db)["v"])
    assert got["error"] == ("action_sql: statement 1 (VACUUM): VACUUM cannot run "
                            "inside the job's transaction"), got["error"]


def test_its_end_is_any_finish(ext):
    db = jobs_db(ext)
    add(db, "j", action_sql=LEDGER, max_runs=1)
    run_job(db, claim(db)["j"])
    assert one(db, "SELECT status FROM triggers WHERE trigger_id = 'j'") == "completed"
    assert "completed" in [e["kind"] for e in events(db)]


def test_bad_input_is_refused_and_changes_nothing(ext):
    db = jobs_db(ext)
    add(db, "j", action_sql=LEDGER)
    add(db, "cmd")
    run_id = claim(db)["j"]
    cmd_run = tick(db, T0 + MIN)[0]["run_id"]
    sql = "SELECT trigger_run_sql_job(?, ?, ?)"
    refused(db, sql, ("nope@1#1", None, T0 + MIN), "trigger_run_sql_job: unknown run_id 'nope@1#1'")
    refused(db, sql, (cmd_run, None, T0 + MIN),
            f"trigger_run_sql_job: run '{cmd_run}' is not a SQL job (trigger 'cmd' has no action_sql)")
    refused(db, sql, (run_id, -1, T0 + MIN),
            "trigger_run_sql_job: argument 2 (timeout_ms) must be an integer")
    refused(db, sql, (run_id, "5", T0 + MIN), "argument 2 (timeout_ms) must be an integer")
    refused(db, sql, (None, None, T0 + MIN), "trigger_run_sql_job")
    run_job(db, run_id)
    refused(db, sql, (run_id, None, T0 + MIN),
            f"trigger_run_sql_job: run '{run_id}' is already finished (success)")
    assert one(db, "SELECT count(*) FROM ledger") == 1
    # a run whose trigger was deleted is no job any more
    add(db, "gone", action_sql=LEDGER)
    gone = claim(db, T0 + 2 * MIN)["gone"]
    db.execute("DELETE FROM triggers WHERE trigger_id = 'gone'")
    refused(db, sql, (gone, None, T0 + 2 * MIN), "is not a SQL job (its trigger was deleted)")
    assert one(db, "SELECT count(*) FROM ledger") == 1
