"""tests/py/tick/test_preload_guard.py -- what a preload may not do (issue 32
item 1, docs/reliability.md#what-a-preload-may-do-item-1): call a function of the extension
with side effects (the tick inside the tick recursed until SIGSEGV, so
`trigger-host run` crashed at every restart), write through one, use a
PRAGMA (which acted while the check prepared it: a refused
`PRAGMA query_only=1` still changed the connection), or make one huge
value. Each is refused by trigger_config without running it, and a
preload stored before (by an older version, or written into the config
table directly) is checked again where the tick prepares it: the claim
goes on with payload.preloadError. A text ending in blanks, ';' or a
comment is one statement; two statements are refused."""
import json
import sqlite3
import subprocess
import sys
import textwrap

from util import MIN, T0, add, connect, error, one, tick

PRAGMA_TEXTS = (
    "PRAGMA query_only=1",
    "PRAGMA synchronous=OFF",
    "PRAGMA writable_schema=ON",
    "PRAGMA busy_timeout=1234",
    "PRAGMA hard_heap_limit=100000",
    "PRAGMA soft_heap_limit=100000",
    "PRAGMA cache_size=7",
    "PRAGMA foreign_keys=ON",
    "PRAGMA recursive_triggers=ON",
    "PRAGMA trusted_schema=OFF",
    "PRAGMA integrity_check",
    "PRAGMA table_info(triggers_data)",
    "EXPLAIN PRAGMA query_only=1",
    "SELECT 1 AS one; PRAGMA query_only=1",
    "SELECT * FROM pragma_busy_timeout",
    "SELECT * FROM pragma_optimize",
    "SELECT name FROM pragma_table_info('triggers_data')",
    "SELECT name FROM PRAGMA_TABLE_INFO('triggers_data') AS p",
    "SELECT * FROM \"pragma_busy_timeout\"",
    "SELECT * FROM 'pragma_busy_timeout'",
    "/* a comment */ -- and another\n PRAGMA query_only=1",
)

# What a PRAGMA above would change: the connection's settings, and the
# process-wide heap limits.
STATE = ("query_only", "synchronous", "writable_schema", "busy_timeout",
         "hard_heap_limit", "soft_heap_limit", "cache_size", "foreign_keys",
         "recursive_triggers", "trusted_schema")


def state(db):
    return {p: one(db, f"PRAGMA {p}") for p in STATE}


def store_preload(db, sql):
    """preload_sql as an older version or a direct write left it: unchecked."""
    db.execute("INSERT OR REPLACE INTO triggers_config(key, value) VALUES('preload_sql', ?)", (sql,))


def set_refused(db, sql):
    before = one(db, "SELECT trigger_config('preload_sql')")
    msg = error(db, "SELECT trigger_config('preload_sql', ?)", sql)
    assert msg.startswith("trigger_config: argument 2 (value): preload_sql "), msg
    assert one(db, "SELECT trigger_config('preload_sql')") == before, sql
    return msg


def side_functions(db):
    """The extension's functions with side effects, as SQLite lists them
    (SQLITE_DIRECTONLY), each with an argument count it takes."""
    rows = db.execute("SELECT name, max(narg) FROM pragma_function_list"
                      " WHERE name LIKE 'trigger%' AND flags & 0x80000 GROUP BY name").fetchall()
    assert len(rows) >= 18, rows
    return rows


def call_text(name, narg):
    args = [":trigger_id", ":now", "NULL", "NULL", "NULL"][:max(narg, 0)]
    if name.startswith("trigger_create"):
        args = ["'{}'"]
    return f"SELECT {name}({', '.join(args)}) AS r"


def test_every_side_function_refused_when_set(ext):
    db = connect(ext)
    one(db, "SELECT trigger_config('preload_sql', 'SELECT 1 AS one')")
    for name, narg in side_functions(db):
        msg = set_refused(db, call_text(name, narg))
        assert f"calls {name}(), a function of sqlite-triggers with side effects" in msg, msg
    # in any case, inside an expression, a subquery, a CTE or a view
    db.execute("CREATE VIEW v AS SELECT 1 AS x")
    for sql in ("SELECT TRIGGER_RUN_DUE(:now) AS r",
                "SELECT coalesce(NULL, trigger_fire(:trigger_id)) AS r",
                "SELECT (SELECT trigger_pause(:trigger_id)) AS r",
                "WITH c AS (SELECT trigger_cancel(:trigger_id) AS r) SELECT r FROM c",
                "SELECT x, trigger_resume(:trigger_id) AS r FROM v"):
        assert "a function of sqlite-triggers with side effects" in set_refused(db, sql), sql
    # the pure ones are a preload's to use, and the extension's tables too
    for sql in ("SELECT trigger_describe(:trigger_id) AS d, trigger_iso(:now) AS at",
                "SELECT count(*) AS n FROM triggers WHERE agent_id = :agent_id",
                "SELECT count(*) AS n FROM trigger_runs WHERE trigger_id = :trigger_id"):
        assert one(db, "SELECT trigger_config('preload_sql', ?)", sql) == sql


def test_recursion_stored_before_fires_with_preload_error(ext):
    # Before the fix the tick recursed until SIGSEGV; run in a subprocess
    # so that the crash fails this test instead of ending the test run.
    code = textwrap.dedent(f"""
        import json, sys
        sys.path.insert(0, {sys.path[0]!r})
        from util import connect, add, tick, T0
        for sql in ("SELECT trigger_run_due(:now) AS r", "SELECT trigger_fire(:trigger_id) AS r",
                    "SELECT trigger_run_due(:now, '{{\\"limit\\":1}}') AS r"):
            db = connect({ext!r})
            add(db, "t", start_at=T0)
            add(db, "u", start_at=T0)
            db.execute("INSERT OR REPLACE INTO triggers_config(key, value) VALUES('preload_sql', ?)", (sql,))
            print(json.dumps([r["payload"] for r in tick(db, T0)]))
        """)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, (p.returncode, p.stderr[-2000:])
    lines = [json.loads(l) for l in p.stdout.splitlines()]
    assert len(lines) == 3, p.stdout
    for payloads in lines:
        assert payloads, lines
        for pl in payloads:
            assert "preload" not in pl, pl
            assert "a function of sqlite-triggers with side effects" in pl["preloadError"], pl


def test_stored_write_fires_with_preload_error_and_writes_nothing(ext):
    for sql in ("SELECT trigger_pause(:trigger_id) AS r",
                "SELECT trigger_cancel(:trigger_id) AS r",
                "SELECT trigger_config('max_active_per_scope', '1') AS r",
                "SELECT trigger_prune(:now) AS r",
                "SELECT trigger_create('{\"instructions\":\"x\",\"trigger_type\":\"interval\","
                "\"interval_ms\":900000}', '{\"agent_id\":\"a\",\"role\":\"owner\"}') AS r",
                "SELECT trigger_install() AS r"):
        db = connect(ext)
        add(db, "t", start_at=T0)
        store_preload(db, sql)
        events = one(db, "SELECT count(*) FROM trigger_events")
        [run] = tick(db, T0)
        assert "calls trigger_" in run["payload"]["preloadError"], run
        assert db.execute("SELECT trigger_id, status FROM triggers").fetchall() == [("t", "scheduled")], sql
        assert one(db, "SELECT count(*) FROM trigger_events") == events, sql
        assert one(db, "SELECT value FROM triggers_config WHERE key = 'max_active_per_scope'") is None


def test_application_function_calling_back_is_refused(ext):
    # An application function in the preload that calls the extension: the
    # static check cannot see through it, the functions refuse at run time.
    calls = {
        "pause": "SELECT trigger_pause('t')",
        "tick": "SELECT trigger_run_due()",
        "create": "SELECT trigger_create('{\"instructions\":\"x\",\"trigger_type\":\"interval\","
                  "\"interval_ms\":900000}', '{\"agent_id\":\"a\",\"role\":\"owner\"}')",
        "insert": "INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms)"
                  " VALUES ('n', 'x', 'interval', 900000)",
        "delete_run": "DELETE FROM trigger_runs",
        "health": "SELECT trigger_health()",
        "summary": "SELECT trigger_state_summary('a')",
    }
    for what, sql in calls.items():
        db = connect(ext)
        add(db, "t", start_at=T0)
        add(db, "done", trigger_type="once", scheduled_at=T0 - 10 * MIN)
        tick(db, T0 - 10 * MIN, lease_ms=3600000)  # a run for DELETE to meet
        seen = []

        def nested():
            try:
                r = db.execute(sql).fetchall()
                seen.append(("ok", r))
            except sqlite3.Error as e:
                seen.append(("error", str(e)))
            return 1
        db.create_function("nested", 0, nested)
        one(db, "SELECT trigger_config('preload_sql', 'SELECT nested() AS r')")
        shadow = ("SELECT * FROM triggers_data", "SELECT * FROM triggers_state WHERE trigger_id <> 't'",
                  "SELECT * FROM triggers_rundata", "SELECT * FROM triggers_events",
                  "SELECT * FROM triggers_config WHERE key <> 'preload_sql'")
        before = [db.execute(q).fetchall() for q in shadow]
        runs = tick(db, T0)
        assert [r["trigger_id"] for r in runs] == ["t"], runs
        assert runs[0]["payload"]["preload"] == [{"r": 1}], runs
        if what == "summary":  # never an error: the fallback
            assert seen == [("ok", [("Admin context temporarily unavailable; continue with "
                                     "latest autonomous objective.",)])], seen
        else:
            assert seen and seen[0][0] == "error", (what, seen)
            assert "from preload_sql" in seen[0][1], seen
        db.execute("DELETE FROM triggers_rundata WHERE run_id = ?", (runs[0]["run_id"],))
        after = [db.execute(q).fetchall() for q in shadow]
        assert after == before, (what, [(q, b, a) for q, b, a in zip(shadow, before, after) if a != b])
        # afterwards the same calls work
        one(db, "SELECT trigger_config('preload_sql', NULL)")
        assert json.loads(one(db, "SELECT trigger_health()"))["running"] == 1


def test_pragmas_refused_without_acting(ext):
    db = connect(ext)
    one(db, "SELECT trigger_config('preload_sql', 'SELECT 1 AS one')")
    before = state(db)
    for sql in PRAGMA_TEXTS:
        msg = set_refused(db, sql)
        assert ("PRAGMA" in msg or (";" in sql and "more than one statement" in msg)
                or "not a query (it starts with 'EXPLAIN')" in msg), msg
        assert state(db) == before, (sql, state(db))
        one(db, "SELECT trigger_config('max_active_per_scope', '30')")  # still writable


def test_pragmas_stored_before_fire_with_preload_error_without_acting(ext):
    db = connect(ext)
    before = state(db)
    for i, sql in enumerate(PRAGMA_TEXTS):
        add(db, f"t{i}", start_at=T0 + i)
        store_preload(db, sql)
        [run] = tick(db, T0 + i)
        why = run["payload"]["preloadError"]
        assert ("PRAGMA" in why or (";" in sql and "more than one statement" in why)
                or "not a query (it starts with 'EXPLAIN')" in why), (sql, why)
        assert "preload" not in run["payload"], run
        assert state(db) == before, (sql, state(db))


def test_a_view_cannot_hide_a_side_function(ext):
    # The check reads the text, not the views it names: SQLite itself
    # refuses the extension's functions with side effects in a view
    # (SQLITE_DIRECTONLY), so none can hide behind one.
    db = connect(ext)
    db.execute("CREATE VIEW v AS SELECT trigger_run_due(0) AS r")
    msg = error(db, "SELECT trigger_config('preload_sql', 'SELECT r FROM v')")
    assert "unsafe use of trigger_run_due()" in msg, msg
    db.execute("DROP VIEW v")
    db.execute("CREATE VIEW v AS SELECT trigger_describe('0 9 * * *') AS d")
    assert one(db, "SELECT trigger_config('preload_sql', 'SELECT d FROM v')") == "SELECT d FROM v"


def test_huge_value_bounded_before_it_is_made(ext):
    # randomblob(9e8) allocated 900 MB (then its 1.8 GB of hex) before the
    # byte bound cut it; now SQLITE_LIMIT_LENGTH stops it at 1 MiB. In a
    # subprocess, to measure the growth of its peak memory alone.
    code = textwrap.dedent(f"""
        import json, resource, sys, time
        sys.path.insert(0, {sys.path[0]!r})
        from util import connect, add, tick, one, T0
        db = connect({ext!r})
        add(db, "t", start_at=T0)
        db.execute("INSERT OR REPLACE INTO triggers_config(key, value) VALUES('preload_sql', ?)",
                   ("SELECT randomblob(9e8) AS b",))
        peak = lambda: resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        before = peak()
        t0 = time.time()
        [run] = tick(db, T0)
        took = time.time() - t0
        grew = peak() - before
        after = one(db, "SELECT length(randomblob(3000000))")  # the limit restored
        print(json.dumps([run["payload"], took, after, grew]))
        """)
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr[-2000:]
    payload, took, after, grew_kb = json.loads(p.stdout.splitlines()[-1])
    assert "string or blob too big" in payload["preloadError"], payload
    assert "at most 1048576 bytes" in payload["preloadError"], payload
    assert took < 5, took
    assert after == 3000000
    # the peak grew by far less than the 900 MB value (under ASan too)
    assert grew_kb < 100 * 1024, grew_kb


def test_values_within_the_bound_still_truncate(ext):
    db = connect(ext)
    db.execute("CREATE TABLE notes(id INTEGER PRIMARY KEY, body TEXT)")
    db.execute("INSERT INTO notes VALUES (1, ?), (2, 'short')", ("y" * 100000,))
    one(db, "SELECT trigger_config('preload_sql', 'SELECT id, substr(body, 1, 3) AS s,"
            " length(body) AS n FROM notes ORDER BY id')")
    add(db, "t", start_at=T0)
    [run] = tick(db, T0)
    # a stored text longer than preload_max_bytes is still read and cut
    assert run["payload"]["preload"] == [{"id": 1, "s": "yyy", "n": 100000},
                                         {"id": 2, "s": "sho", "n": 5}], run
    one(db, "SELECT trigger_config('preload_sql', 'SELECT randomblob(5000) AS b')")
    [run] = tick(db, T0 + MIN)
    assert run["payload"]["preload"] == [] and run["payload"]["preloadTruncated"], run
    # an application's own length limit is kept, and restored
    db.setlimit(sqlite3.SQLITE_LIMIT_LENGTH, 2000)
    [run] = tick(db, T0 + 2 * MIN)
    assert "string or blob too big" in run["payload"]["preloadError"], run
    assert db.getlimit(sqlite3.SQLITE_LIMIT_LENGTH) == 2000


def test_preload_sql_tails(ext):
    db = connect(ext)
    for sql in ("SELECT 1;  ", "SELECT 1;", "SELECT 1 -- c", "SELECT 1; -- c"):
        assert one(db, "SELECT trigger_config('preload_sql', ?)", sql) == sql, sql
    assert error(db, "SELECT trigger_config('preload_sql', 'SELECT 1; SELECT 2')") == (
        "trigger_config: argument 2 (value): preload_sql holds more than one statement; "
        "a preload is one read-only query")
    assert error(db, "SELECT trigger_config('preload_sql', ' ')") == (
        "trigger_config: argument 2 (value): preload_sql holds no statement "
        "(NULL or '' clears it)")
    assert one(db, "SELECT trigger_config('preload_sql')") == "SELECT 1; -- c"
