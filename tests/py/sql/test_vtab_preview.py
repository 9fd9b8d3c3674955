"""tests/py/sql/test_vtab_preview.py -- trigger_preview, the table of a
schedule's next occurrences (ext/sql/vtab_preview.c): its bounds on n
(=, <, <=, >, >=, !=, IS NOT NULL, reals, bounds that cross, the row
limit) pushed into the read so a query that ignores them still ends and
shows it by its cost, never more than 10,000 rows, its ORDER BY, its
arguments (a missing one, a trigger_id as the spec)."""
import re
import sqlite3
import subprocess
import time

from util import MIN, T0, add, column, connect, error as util_error, one


# An hourly series of 20,000 occurrences: finite, so a query that ignores
# its n constraint still ends (and shows it by its cost).
LONG = '{"trigger_type":"interval","interval_ms":3600000,"start_at":0,"end_at":71996400000}'


def shell_steps(ext, sql):
    """(output lines, VM steps) of one statement run by the sqlite3 shell."""
    script = f".load {ext}\n.stats stmt\n{sql};\n"
    p = subprocess.run(["sqlite3", "-batch", ":memory:"], input=script,
                       capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    steps = re.search(r"Virtual Machine Steps:\s+(\d+)", p.stdout)
    assert steps, p.stdout
    rows = [l for l in p.stdout.splitlines() if ":" not in l or "|" in l]
    return rows, int(steps.group(1))


P = "trigger_preview('*/5 * * * *', %d)" % T0


def error(db, sql, kind=sqlite3.OperationalError):
    return util_error(db, sql, kind=kind)


def test_preview_pushes_n_constraints(ext):
    db = connect(ext)
    q = "SELECT n FROM trigger_preview(?, 0) WHERE "
    assert [r[0] for r in db.execute(q + "n <= 5", (LONG,))] == [1, 2, 3, 4, 5]
    assert [r[0] for r in db.execute(q + "n = 3", (LONG,))] == [3]
    assert [r[0] for r in db.execute(q + "n BETWEEN 4 AND 6", (LONG,))] == [4, 5, 6]
    assert [r[0] for r in db.execute(q + "n > 2.5 AND n < 5.5", (LONG,))] == [3, 4, 5]
    assert [r[0] for r in db.execute(q + "n <= '3'", (LONG,))] == [1, 2, 3]
    assert [r[0] for r in db.execute(q + "n = 2.5", (LONG,))] == []
    assert [r[0] for r in db.execute(q + "n < 1", (LONG,))] == []
    assert [r[0] for r in db.execute(q + "n >= ? AND n <= ?", (LONG, 7, 8))] == [7, 8]
    # not bounds: SQLite still filters every row (integers sort before text)
    assert one(db, "SELECT count(*) FROM trigger_preview(?, 0) WHERE n <= 'abc'", LONG) == 10000
    assert one(db, "SELECT count(*) FROM trigger_preview(?, 0) WHERE n + 0 <= 5", LONG) == 5
    # the plan lists the pushed constraints; ORDER BY n needs no sort
    plan = [r[3] for r in db.execute("EXPLAIN QUERY PLAN SELECT * FROM trigger_preview(?, 0)"
                                     " WHERE n BETWEEN 3 AND 5 ORDER BY n", (LONG,))]
    assert plan == ["SCAN trigger_preview VIRTUAL TABLE INDEX 3:n>=,n<="], plan
    # the cost: pushed, a handful of VM steps; not pushable (n + 0), every row
    rows, pushed = shell_steps(ext, f"SELECT count(*) FROM trigger_preview('{LONG}', 0) WHERE n <= 5")
    assert rows[0] == "5", rows
    rows, scanned = shell_steps(ext, f"SELECT count(*) FROM trigger_preview('{LONG}', 0) WHERE n + 0 <= 5")
    assert rows[0] == "5", rows
    assert pushed < 100 and scanned > 10000 * 3, (pushed, scanned)


def test_preview_never_yields_more_than_10000_rows(ext):
    db = connect(ext)
    assert one(db, "SELECT count(*) FROM trigger_preview(?, 0)", LONG) == 10000
    assert one(db, "SELECT max(n) FROM trigger_preview(?, 0)", LONG) == 10000
    assert [r[0] for r in db.execute("SELECT n FROM trigger_preview(?, 0) WHERE n BETWEEN 9999"
                                     " AND 20000", (LONG,))] == [9999, 10000]
    # a join over every trigger ends (it ran until killed before the bound)
    for i in range(20):   # 50,000 occurrences each
        add(db, f"every-second-{i}", interval_ms=1000, start_at=0, end_at=49999000,
            instructions=f"tick {i}")
    t0 = time.time()
    assert one(db, "SELECT count(*) FROM triggers t, trigger_preview(t.trigger_id, 0) p") == 200000
    assert one(db, "SELECT count(*) FROM triggers t, trigger_preview(t.trigger_id, 0) p"
                   " WHERE p.n <= 3") == 60
    assert time.time() - t0 < 30


def test_preview_of_a_trigger_id(ext):
    db = connect(ext)
    add(db, "standup", trigger_type="cron", cron_expression="0 9 * * MON-FRI",
        timezone="Europe/Berlin", end_at="2026-01-06T12:00:00")
    add(db, "ping", interval_ms=3600000)          # anchor: created_at + interval
    add(db, "@daily", trigger_type="once", scheduled_at=T0 + 5 * MIN)
    rows = db.execute("SELECT n, due_iso FROM trigger_preview('standup', ?)", (T0,)).fetchall()
    assert rows == [(1, "2026-01-01T09:00:00+01:00"), (2, "2026-01-02T09:00:00+01:00"),
                    (3, "2026-01-05T09:00:00+01:00"), (4, "2026-01-06T09:00:00+01:00")], rows
    # its zone by default; tz overrides it, as for a JSON spec
    assert one(db, "SELECT due_iso FROM trigger_preview('standup', ?, 'UTC') LIMIT 1", T0) \
        == "2026-01-01T09:00:00Z"
    rows = db.execute("SELECT t.trigger_id, p.n, p.due_at FROM triggers t,"
                      " trigger_preview(t.trigger_id, ?) p WHERE p.n <= 2 AND t.trigger_id <> '@daily'"
                      " ORDER BY 1, 2", (T0,)).fetchall()
    assert rows == [("ping", 1, T0 + 3600000), ("ping", 2, T0 + 7200000),
                    ("standup", 1, 1767254400000), ("standup", 2, 1767340800000)], rows
    # a valid cron expression wins over a trigger_id of the same text
    assert one(db, "SELECT due_at FROM trigger_preview('@daily', ?) LIMIT 1", T0) == T0 + 86400000
    e = util_error(db, "SELECT * FROM trigger_preview('nightly', 0)")
    assert e == ("trigger_preview: argument 1 (spec): 'nightly' is not a trigger_id, nor a cron"
                 " expression: cron: expected 5 or 6 fields, got 1"), e
    e = util_error(db, "SELECT * FROM trigger_preview('standup', 0, 'Mars/Olympus')")
    assert e == "trigger_preview: argument 3 (tz): unknown time zone 'Mars/Olympus'", e


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
        assert column(db, f"SELECT n FROM {P} WHERE {where}") == want, where
    assert column(db, f"SELECT due_at FROM {P} WHERE n = 2") == [T0 + 10 * 60000]


def test_preview_order_by(ext):
    db = connect(ext)
    assert column(db, f"SELECT n FROM {P} WHERE n < 4 ORDER BY n DESC") == [3, 2, 1]
    assert column(db, f"SELECT n FROM {P} WHERE n < 4 ORDER BY due_at") == [1, 2, 3]
    assert column(db, f"SELECT n FROM {P} WHERE n < 4 ORDER BY due_iso DESC") == [3, 2, 1]
    assert column(db, f"SELECT n FROM {P} WHERE n < 4 ORDER BY due_iso") == [1, 2, 3]
    # a bound on n from another table: usable in one join order only
    assert column(db, f"WITH k(v) AS (VALUES (2), (4)) SELECT p.n FROM {P} p, k "
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
    assert column(db, f"SELECT n FROM trigger_preview WHERE spec = '*/5 * * * *' "
                  f"AND after = {T0} AND tz > 'A' AND n < 3") == []
    # the hidden arguments read back as NULL
    assert db.execute(f"SELECT spec, after, tz FROM {P} LIMIT 1").fetchall() == [
        (None, None, None)]
