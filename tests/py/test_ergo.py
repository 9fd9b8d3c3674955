"""tests/py/test_ergo.py -- what makes the extension easy to adopt from
an application: integer-valued text where integers go (as PHP and HTML
forms send numbers), time zone names in any case with a "did you mean",
trigger_preview's bounds and trigger_id specs, trigger_describe. (The
README's quick start is run by test_docs.py.)"""
import re
import sqlite3
import subprocess
import time

from util import MIN, T0, add, connect, one


def err_of(db, sql, *args):
    try:
        db.execute(sql, args).fetchall()
    except sqlite3.Error as e:
        return str(e)
    raise AssertionError(f"no error for {sql}")


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
    e = err_of(db, "SELECT * FROM trigger_preview('nightly', 0)")
    assert e == ("trigger_preview: argument 1 (spec): 'nightly' is not a trigger_id, nor a cron"
                 " expression: cron: expected 5 or 6 fields, got 1"), e
    e = err_of(db, "SELECT * FROM trigger_preview('standup', 0, 'Mars/Olympus')")
    assert e == "trigger_preview: argument 3 (tz): unknown time zone 'Mars/Olympus'", e


def test_describe(ext):
    db = connect(ext)
    # DESIGN.md section 5's examples
    assert one(db, "SELECT trigger_describe('0 7 * * MON-FRI', 'Europe/Berlin')") \
        == "At 07:00, Monday through Friday (Europe/Berlin)"
    assert one(db, "SELECT trigger_describe('*/15 * * * *')") == "Every 15 minutes"
    assert one(db, "SELECT trigger_describe(?)",
               '{"scheduled_at":"2026-03-09T07:15:00","timezone":"America/New_York"}') \
        == "Once on 2026-03-09 at 07:15 (America/New_York)"
    assert one(db, "SELECT trigger_describe('30 9-17 * * *')") \
        == "At 30 minutes past the hour, between 09:00 and 17:59"
    assert one(db, "SELECT trigger_describe('{\"interval_ms\":\"900000\"}')") == "Every 15 minutes"
    assert one(db, "SELECT trigger_describe('@weekly', 'asia/tokyo')") \
        == "At 00:00, only on Sunday (Asia/Tokyo)"
    assert one(db, "SELECT trigger_describe(NULL)") is None
    # a trigger_id: its type, zone and bounds
    add(db, "standup", trigger_type="cron", cron_expression="0 9 * * MON-FRI",
        timezone="Europe/Berlin", end_at="2026-06-30T18:00:00")
    add(db, "ping", interval_ms=3600000)
    add(db, "launch", trigger_type="once", scheduled_at="2026-03-09T07:15:00",
        timezone="America/New_York")
    rows = db.execute("SELECT trigger_id, trigger_describe(trigger_id) FROM triggers"
                      " ORDER BY trigger_id").fetchall()
    assert rows == [
        ("launch", "Once on 2026-03-09 at 07:15 (America/New_York)"),
        ("ping", "Every hour"),
        ("standup", "At 09:00, Monday through Friday, until 2026-06-30 18:00 (Europe/Berlin)"),
    ], rows
    assert one(db, "SELECT trigger_describe('standup', 'UTC')") \
        == "At 09:00, Monday through Friday, until 2026-06-30 16:00"
    # usable in a view (INNOCUOUS), even with trusted_schema off
    db.execute("PRAGMA trusted_schema = 0")
    db.execute("CREATE VIEW schedules AS SELECT trigger_id, trigger_describe(trigger_id) AS said"
               " FROM triggers")
    assert one(db, "SELECT said FROM schedules WHERE trigger_id = 'ping'") == "Every hour"
    flags = one(db, "SELECT flags FROM pragma_function_list WHERE name = 'trigger_describe'")
    assert flags & 0x200000 and not flags & (0x80000 | 0x800), hex(flags)  # INNOCUOUS only
    for sql, want in [
        ("SELECT trigger_describe('nightly')",
         "trigger_describe: argument 1 (spec): 'nightly' is not a trigger_id, nor a cron"
         " expression: cron: expected 5 or 6 fields, got 1"),
        ("SELECT trigger_describe('0 0 32 * *')",
         "trigger_describe: cron field 3 (day-of-month): 32 is out of range 1-31"),
        ("SELECT trigger_describe('@fortnightly')",
         "trigger_describe: cron: unknown macro '@fortnightly' (allowed @yearly @annually"
         " @monthly @weekly @daily @midnight @hourly)"),
        ("SELECT trigger_describe('0 7 * * *', 'Europe/Berln')",
         "trigger_describe: argument 2 (tz): unknown time zone 'Europe/Berln'; did you mean"
         " 'Europe/Berlin'?"),
        ("SELECT trigger_describe('standup', 5)", "trigger_describe: argument 2 (tz) must be text"),
        ("SELECT trigger_describe('0 7 * * *', 5)", "trigger_describe: argument 2 (tz) must be text"),
        ("SELECT trigger_describe(42)",
         "trigger_describe: argument 1 (spec) must be text (a cron expression or a JSON object)"),
        ("SELECT trigger_describe('{\"interval_ms\": 10}')",
         "trigger_describe: argument 1 (spec): triggers.interval_ms: must be >= 1000, got 10"),
    ]:
        assert err_of(db, sql) == want, (sql, err_of(db, sql))
