"""tests/py/test_preload_values.py -- fire-time preload rows beyond
test_fire_preload.py: reals that need 17 digits to read back, a negative
infinity, tiny reals, several columns; parameters numbered (?1) or named
with @ and $; a statement without a tail."""
import sqlite3

from util import T0, add, connect, one, tick


def preload_row(db, sql):
    one(db, "SELECT trigger_config('preload_sql', ?)", sql)
    db.execute("DELETE FROM triggers")
    add(db, "t1", start_at=T0)
    return tick(db, T0)[0]["payload"]["preload"]


def test_reals(ext):
    db = connect(ext)
    rows = preload_row(db, "SELECT 0.1 + 0.2 AS r17, -1e400 AS ninf, 1e-300 AS tiny, 2.0 AS two")
    assert rows == [{"r17": 0.1 + 0.2, "ninf": float("-inf"), "tiny": 1e-300, "two": 2.0}], rows


def test_parameter_spellings(ext):
    db = connect(ext)
    rows = preload_row(db, "SELECT @scope AS s, $trigger_id AS t, :agent_id AS a, :now AS n")
    assert rows == [{"s": "", "t": "t1", "a": "", "n": T0}], rows
    try:
        one(db, "SELECT trigger_config('preload_sql', 'SELECT ?1')")
        raise AssertionError("?1 accepted")
    except sqlite3.Error as e:
        assert str(e) == ("trigger_config: argument 2 (value): preload_sql names the "
                          "parameter ?1; it may name :scope, :trigger_id, :agent_id, :now"), e
