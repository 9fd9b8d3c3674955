"""tests/py/test_vtab_constraints.py -- the constraint shapes the virtual
tables plan and answer: trigger_preview's bounds on n (=, <, <=, >, >=,
!=, IS NOT NULL, reals, bounds that cross, the row limit), its ORDER BY,
a missing or unreadable argument and a bound on a hidden column that is
no argument; the scans' NULL and range terms; the rowid that cannot
change; and the CREATE VIRTUAL TABLE forms each module refuses."""
import sqlite3

from util import add, connect, error as util_error, T0

P = "trigger_preview('*/5 * * * *', %d)" % T0


def ns(db, sql, *args):
    return [r[0] for r in db.execute(sql, args).fetchall()]


def error(db, sql, kind=sqlite3.OperationalError):
    return util_error(db, sql, kind=kind)


def test_preview_bounds_on_n(ext):
    db = connect(ext)
    cases = [
        ("n != 3 AND n < 4", [1, 2]),
        ("n IS NOT NULL AND n < 3", [1, 2]),
        ("n < 1e20 AND n < 3", [1, 2]),
        ("n = 2.0", [2]),
        ("n = 2.5", []),
        ("n < 2.5", [1, 2]),
        ("n > -2.5 AND n < 3", [1, 2]),
        ("n > 0.5 AND n < 3", [1, 2]),
        ("n > 1.5 AND n < 3", [2]),
        ("n < 3 AND n = 5", []),
        ("n = 5 AND n < 3", []),
        ("n = 5 AND n = 4", []),
        ("n = 4 AND n = 5", []),
        ("n = 3 AND n < 5", [3]),
        ("n < 5 AND n = 3", [3]),
        ("n > -1e20 AND n < 3", [1, 2]),
        ("n >= 3 AND n <= 4", [3, 4]),
        ("n > 0 AND n < 3", [1, 2]),
        ("n > 9998", [9999, 10000]),  # the series ends after 10000 rows
        ("n BETWEEN '2' AND '3'", [2, 3]),
        ("n > 'x'", []),
    ]
    for where, want in cases:
        assert ns(db, f"SELECT n FROM {P} WHERE {where}") == want, where
    assert ns(db, f"SELECT due_at FROM {P} WHERE n = 2") == [T0 + 10 * 60000]


def test_preview_order_by(ext):
    db = connect(ext)
    assert ns(db, f"SELECT n FROM {P} WHERE n < 4 ORDER BY n DESC") == [3, 2, 1]
    assert ns(db, f"SELECT n FROM {P} WHERE n < 4 ORDER BY due_at") == [1, 2, 3]
    assert ns(db, f"SELECT n FROM {P} WHERE n < 4 ORDER BY due_iso DESC") == [3, 2, 1]
    assert ns(db, f"SELECT n FROM {P} WHERE n < 4 ORDER BY due_iso") == [1, 2, 3]
    # a bound on n from another table: usable in one join order only
    assert ns(db, f"WITH k(v) AS (VALUES (2), (4)) SELECT p.n FROM {P} p, k "
                  "WHERE p.n = k.v ORDER BY 1") == [2, 4]
    assert "ORDER BY" not in " ".join(
        str(r) for r in db.execute(f"EXPLAIN QUERY PLAN SELECT n FROM {P} ORDER BY due_at"))


def test_preview_arguments(ext):
    db = connect(ext)
    assert error(db, "SELECT n FROM trigger_preview('*/5 * * * *') LIMIT 2") == (
        "trigger_preview: needs spec and after arguments: "
        "trigger_preview(spec, after [, tz])")
    assert error(db, "SELECT n FROM trigger_preview('*/5 * * * *', 'garbage')") == (
        "trigger_preview: argument 2 (after): cannot read 'garbage' as an instant: "
        "expected 4-digit year at offset 0, found 'garb'")
    assert error(db, f"SELECT n FROM trigger_preview WHERE after = {T0}") == (
        "trigger_preview: needs spec and after arguments: "
        "trigger_preview(spec, after [, tz])")
    # a range on the zone argument is no argument: checked on each row
    assert ns(db, f"SELECT n FROM trigger_preview WHERE spec = '*/5 * * * *' "
                  f"AND after = {T0} AND tz > 'A' AND n < 3") == []
    # the hidden arguments read back as NULL
    assert db.execute(f"SELECT spec, after, tz FROM {P} LIMIT 1").fetchall() == [
        (None, None, None)]


def test_scan_terms(ext):
    db = connect(ext)
    add(db, "t1")
    add(db, "t2")
    assert ns(db, "SELECT trigger_id FROM triggers WHERE trigger_id = ?", None) == []
    assert ns(db, "SELECT trigger_id FROM triggers WHERE trigger_id > 't1'") == ["t2"]
    assert ns(db, "SELECT trigger_id FROM triggers WHERE trigger_id >= 't1' "
                  "AND trigger_id < 't2'") == ["t1"]
    assert ns(db, "SELECT run_id FROM trigger_runs WHERE run_id > 'a'") == []
    assert error(db, "UPDATE triggers SET rowid = rowid + 10 WHERE trigger_id = 't1'",
                 sqlite3.IntegrityError) == "triggers: the rowid cannot be changed"
    assert ns(db, "SELECT rowid FROM triggers ORDER BY rowid") == [1, 2]


def test_create_virtual_table_forms(ext):
    db = connect(ext)
    for sql, why in (
        ("CREATE VIRTUAL TABLE temp.triggers USING triggers",
         "triggers: create it as main.triggers with no arguments (got temp.triggers)"),
        ("CREATE VIRTUAL TABLE x USING triggers(1)",
         "triggers: create it as main.triggers with no arguments (got main.x)"),
        ("CREATE VIRTUAL TABLE x USING trigger_runs",
         "trigger_runs: create it as main.trigger_runs with no arguments (got main.x)"),
        ("CREATE VIRTUAL TABLE temp.trigger_runs USING trigger_runs",
         "trigger_runs: create it as main.trigger_runs with no arguments "
         "(got temp.trigger_runs)"),
        ("ALTER TABLE trigger_runs RENAME TO r2",
         "trigger_runs: cannot be renamed to 'r2' (the functions expect this name)"),
    ):
        assert error(db, sql) == why, sql
    bare = connect(ext, install=False)
    for sql, why in (
        ("CREATE VIRTUAL TABLE triggers USING triggers(1)",
         "triggers: create it as main.triggers with no arguments (got main.triggers)"),
        ("CREATE VIRTUAL TABLE trigger_runs USING trigger_runs(1)",
         "trigger_runs: create it as main.trigger_runs with no arguments "
         "(got main.trigger_runs)"),
        ("CREATE VIRTUAL TABLE trigger_events USING trigger_events",
         "trigger_events: create the triggers table first (run sql/install.sql)"),
    ):
        assert error(bare, sql) == why, sql


def test_update_that_changes_nothing(ext):
    # SET rowid = rowid: every column unchanged, nothing written, no event
    from util import dump
    db = connect(ext)
    add(db, "a")
    before = dump(db)
    db.execute("UPDATE triggers SET rowid = rowid")
    assert dump(db) == before
    assert ns(db, "SELECT kind FROM trigger_events") == ["created"]
