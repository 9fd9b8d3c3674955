"""tests/dqlite/test_sql_job.py -- SQL jobs exactly once over the dqlite
cluster (issue 40 item 3, docs/sql-jobs.md#over-dqlite---via): each job
and its run record are one statement, `trigger_run_sql_job`, so one
transaction of the cluster however the statement is sent.

  - test_sql_job_kill_points: a ledger job (one row per run, named by its
    run_id) run through the shell with an explicit `now`, the leader
    SIGKILLed before the job, inside it (the job still running its
    statements), during its commit (followers paused, so the commit waits
    for its quorum) and after the commit. Each time the survivors hold
    the ledger row exactly when the run is `success`; sent again, the job
    is refused when it committed and runs once when it did not.
  - test_host_sql_via_killed_at_random: `trigger-host run --sql --via`
    over the cluster, a dozen interval jobs every second, the host
    SIGKILLed at random moments (restarted each time; the runs it cut
    end `failed: lease expired` and are retried) and the leader killed
    once. At the end the ledger's rows are exactly the successful runs,
    none twice.
"""
import json
import os
import random
import signal
import subprocess
import time

from cluster import SqlError, wait_until
from test_failover import send_killing_leader

T0 = 1767225600000  # 2026-01-01T00:00:00Z
MIN = 60000
LEDGER = "INSERT INTO ledger(run_id, at) VALUES(:run_id, :now)"
# a job that goes on counting for a few seconds after its ledger row (one
# statement: the shell splits a command at each ';')
SLOW = ("INSERT INTO ledger(run_id, at) SELECT :run_id, :now UNION ALL "
        "SELECT NULL, n FROM (SELECT count(*) AS n FROM (WITH RECURSIVE r(x) AS "
        "(SELECT 1 UNION ALL SELECT x + 1 FROM r WHERE x < 30000000) SELECT x "
        "FROM r)) WHERE n < 0")


def job_sql(run_id, now):
    return f"SELECT trigger_run_sql_job('{run_id}', 0, {now})"


def ledger_and_runs(c, db):
    """(ledger run_ids, {run_id: status}) on the cluster."""
    ledger = json.loads(c.sql(db, "SELECT json_group_array(run_id) FROM ledger"))
    runs = json.loads(c.sql(db, "SELECT json_group_object(run_id, status) "
                            "FROM trigger_runs"))
    return ledger, runs


def assert_exactly_once(c, db, what):
    ledger, runs = ledger_and_runs(c, db)
    done = sorted(r for r, s in runs.items() if s == "success")
    assert sorted(ledger) == done, f"{what}: ledger {sorted(ledger)} != success {done}"
    return ledger, runs


def test_sql_job_kill_points(ctx):
    c = ctx.cluster
    db = "sqljobs"
    c.sql(db, "SELECT trigger_install()")
    c.sql(db, "CREATE TABLE ledger(run_id TEXT, at INTEGER)")
    jobs = {"before": LEDGER, "inside": SLOW, "commit": LEDGER,
            "after": LEDGER}
    for name, sql in jobs.items():
        c.sql(db, "INSERT INTO triggers(trigger_id, instructions, trigger_type, "
              f"interval_ms, created_at, action_sql) VALUES ('{name}', 'job {name}', "
              f"'interval', {MIN}, {T0}, '{sql.replace(chr(39), chr(39) * 2)}')")
    claimed = json.loads(c.sql(db, "SELECT trigger_run_due(%d, '%s')" % (
        T0 + MIN, json.dumps({"sql": True, "lease_ms": 3600000}))))
    run_of = {r["trigger_id"]: r["run_id"] for r in claimed}
    assert sorted(run_of) == sorted(jobs), claimed
    outcomes = []
    for k, point in enumerate(jobs):
        for a in c.addrs:
            if a not in c.procs:
                c.restart(a)
        run_id = run_of[point]
        sql = job_sql(run_id, T0 + MIN + 1000 * (k + 1))
        got = send_killing_leader(c, db, sql, point)
        if got is not None:
            assert json.loads(got)["status"] == "success", got
        ledger, runs = assert_exactly_once(c, db, point)
        applied = runs[run_id] == "success"
        assert applied or runs[run_id] == "running", (point, runs[run_id])
        if point in ("before", "after"):
            assert applied, f"{point}: the committed job is missing"
        if point == "inside":
            assert not applied, f"{point}: an uncommitted job was applied"
        outcomes.append(f"{point}: {'applied' if applied else 'not applied'}")
        # sent again: refused when it committed, run once when it did not
        try:
            again = json.loads(c.sql(db, sql))
            assert not applied, f"{point}: a finished job ran again: {again}"
            assert again["status"] == "success", again
        except SqlError as e:  # the shell does not show the message
            assert applied, (point, e)
        ledger, runs = assert_exactly_once(c, db, point + ", sent again")
        assert ledger.count(run_id) == 1, (point, ledger)
    # bad input fails and changes nothing (its messages: tests/py/tick/)
    before = ledger_and_runs(c, db)
    for bad in [job_sql("nope@1#1", T0), job_sql(run_of["after"], T0 + 2 * MIN)]:
        rc, _, _ = c.shell(bad, db=db)
        assert rc != 0, f"{bad}: no error"
    assert ledger_and_runs(c, db) == before
    print("  sql job kill points: " + "; ".join(outcomes))


def test_host_sql_via_killed_at_random(ctx):
    c = ctx.cluster
    db = "hostsql"
    rnd = random.Random(int(os.environ.get("DQLITE_SEED", "40")))
    c.sql(db, "SELECT trigger_install()")
    c.sql(db, "CREATE TABLE ledger(run_id TEXT, at INTEGER)")
    now = int(time.time() * 1000)
    # a dozen jobs a second: the host is mostly inside a job's statement
    for t in (f"j{i:02}" for i in range(12)):
        c.sql(db, "INSERT INTO triggers(trigger_id, instructions, trigger_type, "
              f"interval_ms, created_at, action_sql, max_attempts) VALUES ('{t}', "
              f"'ledger {t}', 'interval', 1000, {now}, '{LEDGER}', 5)")
    via = " ".join(c.shell_args("X")[:-1]) + ' "$TRIGGER_DB"'
    err_path = os.path.join(ctx.tmp, "hostsql.stderr")
    hosts = []

    def start():
        with open(err_path, "ab") as err:
            p = subprocess.Popen(
                [ctx.host, "run", db, "--sql", "--via", via, "--sql-timeout", "5",
                 "--lease-ms", "4000", "--poll-ms", "200"],
                stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL,
                env=c.shell_env)
        c.others.append(p)
        hosts.append(p)
        return p

    host = start()
    wait_until(lambda: int(c.sql(db, "SELECT count(*) FROM ledger")) >= 2, 60,
               "two jobs to run")
    kills = 0
    end = time.monotonic() + 16
    leader_killed = False
    while time.monotonic() < end:
        time.sleep(rnd.uniform(0.2, 1.5))
        if not leader_killed and time.monotonic() > end - 10:
            c.kill(c.leader())
            leader_killed = True
            continue
        host.send_signal(signal.SIGKILL)
        host.wait()
        kills += 1
        host = start()
    # after the last kill: jobs run again (the leases of the cut ones pass)
    seen = int(c.sql(db, "SELECT count(*) FROM ledger"))
    wait_until(lambda: int(c.sql(db, "SELECT count(*) FROM ledger")) >= seen + 3, 60,
               "three more jobs after the kills")
    host.send_signal(signal.SIGTERM)
    assert host.wait(timeout=60) == 0, "trigger-host exit status"
    ledger, runs = assert_exactly_once(c, db, "after the kills")
    assert len(ledger) == len(set(ledger)), "a job done twice"
    statuses = [s for s in runs.values()]
    with open(err_path, errors="replace") as f:
        log = f.read()
    print(f"  host --sql --via: {kills} host kills, leader killed once, "
          f"{len(ledger)} jobs done, {statuses.count('running')} cut (running), "
          f"{statuses.count('failed')} failed (lease expired), "
          f"{log.count('refused')} job statement(s) cut")
    assert len(ledger) >= 8, (len(ledger), log[-3000:])
