"""tests/py/tick/test_sql_jobs.py -- a trigger's action_sql (SQL jobs,
docs/sql-jobs.md) in the extension: checked when written by compiling
each statement against the current schema without running it (an error
names action_sql and the statement; ATTACH, DETACH, VACUUM, transaction
statements and PRAGMA writes refused; parameters only those a host binds);
refused to the create action (PERMISSION_DENIED); claimed only by a tick
with "sql": true and by no other (runs, retries, expired leases, the
wakeup); the payload and the claim's element carry the statements; the
empty tick costs no more VM steps with SQL jobs in the table."""
import json

from util import MIN, T0, add, connect, create, error, finish, one, refused, tick, trig, vm_steps

JOB = "DELETE FROM sessions WHERE expires_at < :now"


def job_db(ext):
    db = connect(ext)
    db.execute("CREATE TABLE sessions(id INTEGER PRIMARY KEY, expires_at INTEGER)")
    db.execute("CREATE TABLE ledger(run_id TEXT UNIQUE, at INTEGER)")
    return db


def insert_job(sql):
    return ("INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms,"
            " created_at, action_sql) VALUES ('j', 'job', 'interval', 60000, ?, ?)",
            (T0, sql))


def test_written_when_it_compiles(ext):
    db = job_db(ext)
    sql = JOB + "; INSERT INTO ledger VALUES(:run_id, :scheduled_for);\n-- done\n"
    add(db, "purge", action_sql=sql)
    assert trig(db, "purge")["action_sql"] == sql
    # no statement ran when it was written
    assert one(db, "SELECT count(*) FROM ledger") == 0


def test_refused_statements_name_action_sql_and_the_statement(ext):
    db = job_db(ext)
    cases = [
        ("DELETE FROM nope", "statement 1 (DELETE FROM nope): no such table: nope"),
        (JOB + "; UPDATE sessions SET nope = 1",
         "statement 2 (UPDATE sessions SET nope = 1): no such column: nope"),
        ("SELEC 1", 'statement 1 (SELEC 1): near "SELEC": syntax error'),
        ("VACUUM", "statement 1 (VACUUM): VACUUM cannot run inside the job's transaction"),
        ("ATTACH 'x.db' AS x", "statement 1 (ATTACH 'x.db' AS x): ATTACH changes"),
        (JOB + ";DETACH main", "statement 2 (DETACH main): DETACH changes"),
        ("PRAGMA journal_mode = delete", "a PRAGMA that sets a value"),
        ("PRAGMA main.synchronous(0)", "a PRAGMA that sets a value"),
        ("BEGIN; " + JOB, "statement 1 (BEGIN): the job runs inside the host's transaction"),
        (JOB + "; COMMIT", "statement 2 (COMMIT): the job runs inside"),
        ("SAVEPOINT a", "the job runs inside the host's transaction"),
        ("ROLLBACK", "the job runs inside the host's transaction"),
        ("DELETE FROM sessions WHERE id = :id",
         "parameter :id is not one a host binds (:trigger_id, :run_id, :scheduled_for, :now)"),
        ("DELETE FROM sessions WHERE id = ?", "parameter ? is not one a host binds"),
        ("  ;; -- nothing\n", "triggers.action_sql: holds no statement"),
    ]
    for sql, why in cases:
        q, args = insert_job(sql)
        refused(db, q, args, "triggers.action_sql: " if "holds no" not in why else why)
        msg = error(db, q, *args)
        assert why in msg, (sql, msg)
    # a PRAGMA that reads is a job like any other; so is a long statement, cut
    add(db, "opt", action_sql="PRAGMA optimize")
    long = "DELETE FROM sessions WHERE " + " OR ".join(f"id = {i}" for i in range(40)) + " OR x"
    q, args = insert_job(long)
    assert "(DELETE FROM sessions WHERE id = 0 OR id = 1 OR id = 2 OR id ...): no such column: x" \
        in error(db, q, *args)


def test_the_pragma_is_not_run_by_the_check(ext):
    db = job_db(ext)
    before = one(db, "PRAGMA cache_size")
    q, args = insert_job("PRAGMA cache_size = 7")
    error(db, q, *args)
    assert one(db, "PRAGMA cache_size") == before


def test_update_checks_a_changed_job_only(ext):
    db = job_db(ext)
    add(db, "purge", action_sql=JOB)
    refused(db, "UPDATE triggers SET action_sql = 'DELETE FROM gone' WHERE trigger_id = 'purge'",
            (), "triggers.action_sql: statement 1 (DELETE FROM gone): no such table: gone")
    # the job's table dropped: pausing it is still possible (not compiled again)
    db.execute("DROP TABLE sessions")
    db.execute("UPDATE triggers SET enabled = 0 WHERE trigger_id = 'purge'")
    assert trig(db, "purge")["status"] == "paused"
    db.execute("UPDATE triggers SET action_sql = NULL WHERE trigger_id = 'purge'")
    assert trig(db, "purge")["action_sql"] is None


def test_the_create_action_refuses_a_job(ext):
    db = job_db(ext)
    for key in ("action_sql", "actionSql"):
        got = create(db, {"instructions": "purge", "trigger_type": "interval",
                          "interval_ms": 3600000, key: JOB})
        assert got["error"] == "PERMISSION_DENIED", got
        assert "action_sql" in got["reason"], got
    assert one(db, "SELECT count(*) FROM triggers") == 0


def test_claimed_only_by_a_tick_that_asks(ext):
    db = job_db(ext)
    add(db, "cmd", start_at=T0)
    add(db, "purge", start_at=T0, action_sql=JOB)
    assert [r["trigger_id"] for r in tick(db, T0)] == ["cmd"]
    assert [r["trigger_id"] for r in tick(db, T0, sql=False)] == []
    got = tick(db, T0, sql=True)
    assert [r["trigger_id"] for r in got] == ["purge"]
    assert got[0]["action_sql"] == JOB
    assert got[0]["payload"]["actionSql"] == JOB
    assert "action_sql" not in tick(db, T0 + MIN)[0]


def test_wakeup_of_a_host_without_sql_ignores_due_jobs(ext):
    db = job_db(ext)
    add(db, "purge", start_at=T0, action_sql=JOB)
    assert one(db, "SELECT trigger_next_wakeup(?)", T0 + 5 * MIN) is None
    assert one(db, "SELECT trigger_next_wakeup(?, '{\"sql\":true}')", T0 + 5 * MIN) == 0


def test_retries_and_expired_leases_go_to_sql_ticks_only(ext):
    db = job_db(ext)
    add(db, "purge", start_at=T0, action_sql=JOB, max_attempts=3, backoff_ms=1000)
    run = tick(db, T0, sql=True)[0]
    finish(db, run["run_id"], "failed", "no such table", T0 + 10)
    assert tick(db, T0 + 5000) == []
    again = tick(db, T0 + 5000, sql=True)
    assert [(r["trigger_id"], r["attempt"]) for r in again] == [("purge", 2)]
    # its lease passes: a tick without sql leaves it, a sql tick reclaims it
    late = T0 + 5000 + 10 * MIN
    tick(db, late)
    assert one(db, "SELECT status FROM trigger_runs WHERE attempt = 2") == "running"
    got = tick(db, late, sql=True)
    assert one(db, "SELECT error FROM trigger_runs WHERE attempt = 2") == "lease expired"
    assert ("purge", 3) in [(r["trigger_id"], r["attempt"]) for r in got]


def test_bad_sql_option(ext):
    db = job_db(ext)
    assert error(db, "SELECT trigger_run_due(?, '{\"sql\":1}')", T0) == \
        "trigger_run_due: options.sql: bad value 1 (want true or false)"


def test_empty_tick_costs_the_same_with_jobs(ext):
    plain, jobs = job_db(ext), job_db(ext)
    for i in range(50):
        add(plain, f"t{i}", start_at=T0 + 3600000)
        add(jobs, f"t{i}", start_at=T0 + 3600000, action_sql=JOB if i % 2 else None)
    for opts in ("{}", '{"sql":true}'):
        a = vm_steps(plain, "SELECT trigger_run_due(?, ?)", T0, opts)
        b = vm_steps(jobs, "SELECT trigger_run_due(?, ?)", T0, opts)
        assert a == b, (opts, a, b)
    assert json.loads(one(jobs, "SELECT trigger_run_due(?, '{}')", T0)) == []
