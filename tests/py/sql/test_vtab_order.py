"""tests/py/sql/test_vtab_order.py -- an ORDER BY on the virtual tables'
columns is handed to the read (xBestIndex's orderByConsumed): the rows
come in the asked order, the same as SQLite sorting a plain copy would give
them, and a LIMIT over an indexed order reads only that many rows."""
import random

from util import MIN, T0, add, connect, finish, one, tick, vm_steps


def _database(ext, n, ties=True, seed=7):
    """n interval triggers; with ties, many share a next_due_at value."""
    rnd = random.Random(seed)
    db = connect(ext)
    db.execute("BEGIN")
    for i in range(n):
        db.execute(
            "INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type,"
            " interval_ms, created_at) VALUES (?, ?, ?, 'interval', ?, ?)",
            (f"t{i:05d}", f"a{i % 3}", f"job {i}", MIN * (1 + rnd.randrange(20)),
             T0 - (rnd.randrange(4) * 1000 if ties else i)))
    db.execute("COMMIT")
    return db


def _copy(db, table):
    name = "c_" + table
    db.execute(f"DROP TABLE IF EXISTS temp.{name}")
    db.execute(f"CREATE TEMP TABLE {name} AS SELECT * FROM {table}")
    return name


QUERIES = [
    "SELECT trigger_id, next_due_at FROM triggers ORDER BY next_due_at, trigger_id",
    "SELECT trigger_id FROM triggers WHERE next_due_at >= ? ORDER BY next_due_at, trigger_id LIMIT 7",
    "SELECT trigger_id FROM triggers WHERE next_due_at >= ? ORDER BY next_due_at DESC, trigger_id DESC LIMIT 7",
    "SELECT trigger_id FROM triggers WHERE next_due_at >= ? ORDER BY next_due_at, trigger_id LIMIT 5 OFFSET 40",
    "SELECT trigger_id FROM triggers WHERE agent_id = 'a1' ORDER BY next_due_at, trigger_id LIMIT 9",
    "SELECT trigger_id FROM triggers ORDER BY agent_id DESC, trigger_id LIMIT 9",
    "SELECT agent_id, count(*) FROM triggers GROUP BY agent_id",
    "SELECT DISTINCT agent_id FROM triggers ORDER BY agent_id DESC",
    "SELECT run_id FROM trigger_runs WHERE scheduled_for >= ? ORDER BY scheduled_for DESC, run_id DESC LIMIT 11",
    "SELECT run_id FROM trigger_runs ORDER BY status, run_id",
    "SELECT run_id FROM trigger_runs WHERE status = 'running' ORDER BY scheduled_for, run_id LIMIT 6",
    "SELECT run_id FROM trigger_runs WHERE status = 'success' ORDER BY run_id DESC",
    "SELECT run_id FROM trigger_runs WHERE finished_at >= ? ORDER BY finished_at DESC, run_id",
    "SELECT kind, trigger_id FROM trigger_events ORDER BY trigger_id, kind, at LIMIT 13",
    "SELECT trigger_id FROM trigger_events WHERE at >= ? ORDER BY at, trigger_id, kind",
]


def test_order_matches_sqlite_sorting_a_copy(ext):
    db = _database(ext, 600)
    runs = tick(db, T0 + 2 * MIN, limit=200)
    assert len(runs) > 20, len(runs)
    for k, r in enumerate(runs[:len(runs) // 2]):
        finish(db, r["run_id"], "success" if k % 3 else "failed", None, T0 + 2 * MIN + k)
    for sql in QUERIES:
        table = sql.split(" FROM ")[1].split()[0]
        copy = _copy(db, table)
        args = (T0,) * sql.count("?")
        got = db.execute(sql, args).fetchall()
        want = db.execute(sql.replace(f"FROM {table}", f"FROM temp.{copy}"), args).fetchall()
        assert got == want and got, (sql, got[:5], want[:5])
        if "ORDER BY" in sql and "GROUP BY" not in sql and "DISTINCT" not in sql:
            plan = " ".join(r[3] for r in db.execute("EXPLAIN QUERY PLAN " + sql, args))
            assert "|ORDER BY" in plan and "TEMP B-TREE" not in plan, (sql, plan)


def test_limit_over_the_due_order_reads_only_the_limit(ext):
    sql = ("SELECT trigger_id FROM triggers WHERE next_due_at >= ?"
           " ORDER BY next_due_at, trigger_id LIMIT 5")
    runs_sql = ("SELECT run_id FROM trigger_runs WHERE scheduled_for >= ?"
                " ORDER BY scheduled_for DESC, run_id DESC LIMIT 5")
    steps = {}
    for n in (300, 6000):
        db = _database(ext, n, ties=False)
        tick(db, T0 + 2 * MIN)
        steps[n] = (vm_steps(db, sql, T0), vm_steps(db, runs_sql, T0))
    # five rows of the index (no two share a value here): 20x the rows,
    # the same steps (without the ORDER BY handed over: 25k and 506k)
    assert steps[6000] == steps[300], steps


def test_an_order_on_the_rowid_is_left_to_sqlite(ext):
    db = _database(ext, 20)
    sql = "SELECT trigger_id FROM triggers ORDER BY rowid DESC LIMIT 3"
    plan = " ".join(r[3] for r in db.execute("EXPLAIN QUERY PLAN " + sql))
    assert "|ORDER BY" not in plan and "TEMP B-TREE" in plan, plan
    assert [r[0] for r in db.execute(sql)] == ["t00019", "t00018", "t00017"]
    assert one(db, "SELECT count(*) FROM triggers") == 20
    add(db, "zz")
    assert one(db, "SELECT trigger_id FROM triggers ORDER BY rowid DESC LIMIT 1") == "zz"


def test_an_agent_and_a_status_read_the_agents_triggers_not_the_status(ext):
    """`triggers WHERE status = ? AND agent_id = ?` (what `trigger-host
    status --agent` asks for the triggers with nothing due) walks the
    agent's index, not every trigger of the status: an unknown agent costs
    the same at 300 and 6,000 triggers, and the rows are those of a plain
    copy in the same order."""
    sql = ("SELECT trigger_id FROM triggers WHERE status = 'scheduled'"
           " AND agent_id = ? AND next_due_at IS NULL")
    listed = ("SELECT trigger_id, status FROM triggers WHERE status = ?"
              " AND agent_id = 'a1'")
    steps = {}
    for n in (300, 6000):
        db = _database(ext, n)
        steps[n] = vm_steps(db, sql, "nobody")
        db.execute("UPDATE triggers SET enabled = 0 WHERE trigger_id LIKE 't000%'")
        copy = _copy(db, "triggers")
        for st in ("scheduled", "paused"):
            got = db.execute(listed, (st,)).fetchall()
            want = db.execute(listed.replace("FROM triggers", f"FROM temp.{copy}")
                              + " ORDER BY rowid", (st,)).fetchall()
            assert got == want and got, (n, st, got[:3], want[:3])
    assert steps[6000] == steps[300], steps
