"""tests/py/tick/test_tick_cache.py -- trigger_run_due keeps its prepared
statements between calls (on the connection's context while the `triggers`
table is connected, trg_ctx.stmts) and the last parsed options
(trg_ctx.last_opts).

What must hold: the cache never outlives or breaks the connection --
sqlite3_close() (not only close_v2) succeeds after ticks; another
connection changing the schema between ticks (which makes SQLite
disconnect the table while the tick is using its statements) neither
fails nor crashes the tick; DROP TABLE triggers leaves a clean "not
installed" error; changed options are honoured; trigger_last_tick()
reports one tick's cost, not a running total."""
import json
import os
import subprocess
import tempfile

from util import MIN, T0, add, connect, one, tick


def _file_db(ext, tmp):
    path = os.path.join(tmp, "t.db")
    db = connect(ext, path)
    db.execute("PRAGMA journal_mode=WAL")
    for i in range(4):
        add(db, f"t{i}", instructions=f"job {i}")
    return path, db


def test_schema_change_between_ticks(ext):
    with tempfile.TemporaryDirectory() as tmp:
        path, b = _file_db(ext, tmp)
        # `a` only ticks: no statement of its own holds the `triggers`
        # table, so a schema change makes SQLite disconnect the table from
        # inside the tick's first statement (trg_ctx.stmts: the tick
        # keeps using its statements and frees them when it ends).
        a = connect(ext, path, install=False)
        assert len(tick(a, T0 + MIN)) == 4
        b.execute("CREATE TABLE other(x)")
        assert len(tick(a, T0 + 2 * MIN)) == 4
        b.execute("CREATE INDEX other_x ON other(x)")
        assert len(tick(a, T0 + 3 * MIN, limit=2)) == 2
        a.execute("BEGIN")
        assert len(tick(a, T0 + 3 * MIN)) == 2  # inside the caller's transaction
        a.execute("COMMIT")
        assert one(b, "SELECT count(*) FROM trigger_runs") == 12
        b.close()
        a.execute("DROP TABLE triggers")
        try:
            tick(a, T0 + 4 * MIN)
            raise AssertionError("tick after DROP TABLE triggers succeeded")
        except Exception as e:  # sqlite3.OperationalError
            assert "not installed" in str(e), e
        a.close()


def test_options_change_between_ticks(ext):
    db = connect(ext)
    for i in range(6):
        add(db, f"o{i}", instructions=f"job {i}")
    assert len(tick(db, T0 + MIN, limit=1)) == 1
    assert len(tick(db, T0 + MIN, limit=1)) == 1  # same text: cached parse
    got = tick(db, T0 + MIN, limit=3, owner="w2")
    assert len(got) == 3
    assert one(db, "SELECT count(*) FROM trigger_runs WHERE owner = 'w2'") == 3
    assert len(tick(db, T0 + MIN)) == 1  # no options: unlimited, one left
    try:
        tick(db, T0 + MIN, limit="x")
        raise AssertionError("bad option accepted")
    except Exception as e:
        assert "options.limit" in str(e), e


def test_last_tick_is_per_tick(ext):
    db = connect(ext)
    add(db, "c1")
    costs = []
    for _ in range(3):
        tick(db, T0)  # nothing due yet
        costs.append(json.loads(one(db, "SELECT trigger_last_tick()"))["vm_steps"])
    # The first call also parses the options; then equal, not summed.
    assert costs[1] == costs[2] and 0 < costs[1] <= costs[0], costs


def test_close_v1_after_ticks(ext):
    """The sqlite3 shell closes with sqlite3_close(), which fails on
    unfinalized statements: the cached ones must be gone by then."""
    with tempfile.TemporaryDirectory() as tmp:
        path, db = _file_db(ext, tmp)
        db.close()
        out = subprocess.run(
            ["sqlite3", path, f".load {ext}",
             f"SELECT json_array_length(trigger_run_due({T0 + MIN}, '{{\"limit\":10}}'));",
             f"SELECT json_array_length(trigger_run_due({T0 + MIN}));"],
            capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        assert out.stdout.split() == ["4", "0"], out.stdout
        assert "sqlite3_close" not in out.stderr, out.stderr
