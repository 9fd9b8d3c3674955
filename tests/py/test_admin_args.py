"""tests/py/test_admin_args.py -- trigger_health, trigger_prune and
trigger_config: a database without the tables, each argument of the wrong
kind or value (health options, prune's limit and table, config values:
NULL, not UTF-8, preload_sql not text or not a query), and writes refused
by a read-only connection (PRAGMA query_only), named by SQLite's message."""
import json

from util import add, connect, error, finish, MIN, one, T0, tick

NOT_INSTALLED = "sqlite-triggers is not installed in this database (run sql/install.sql)"


def test_without_tables(ext):
    bare = connect(ext, install=False)
    for fn, sql in (("trigger_health", "SELECT trigger_health()"),
                    ("trigger_prune", "SELECT trigger_prune(0)"),
                    ("trigger_config", "SELECT trigger_config('min_confidence')")):
        assert error(bare, sql) == f"{fn}: {NOT_INSTALLED}"


def test_argument_refusals(ext):
    db = connect(ext)
    cases = [
        (f"SELECT trigger_health({T0}, '[1]')",
         "trigger_health: argument 2 (options) must be a JSON object"),
        (f"SELECT trigger_health({T0}, '{{\"agents\":\"a\"}}')",
         "trigger_health: argument 2 (options): agents: unknown key or wrong type "
         "(known: agents, an array of agent ids; scope, text)"),
        # issue 32: a bad option key is never quoted as raw bytes (hex, as
        # everywhere), and a long one is cut
        (f"SELECT trigger_health({T0}, CAST(X'7B2261FF223A317D' AS TEXT))",
         "trigger_health: argument 2 (options) (in a key): not valid UTF-8 at byte 3 "
         "(0xff: a byte that never appears in UTF-8)"),
        (f"SELECT trigger_health({T0}, '{{\"a\\udc80\":1}}')",
         "trigger_health: argument 2 (options) (in a key): the escape \\udc80 at byte 3 "
         "is a lone surrogate (only a high surrogate followed by a low one is a "
         "character)"),
        (f"SELECT trigger_health({T0}, '{{\"{'k' * 100}\":1}}')",
         f"trigger_health: argument 2 (options): {'k' * 60}...: unknown key or wrong "
         "type (known: agents, an array of agent ids; scope, text)"),
        ("SELECT trigger_prune(0, NULL, X'00')", "trigger_prune: argument 3 (table) must be text"),
        ("SELECT trigger_prune(0, NULL, 'x')",
         "trigger_prune: argument 3 (table): 'x' is not 'trigger_runs' or 'trigger_events'"),
        ("SELECT trigger_config('min_confidence', NULL)",
         "trigger_config: argument 2 (value) must not be NULL"),
        ("SELECT trigger_config('min_confidence', CAST(X'FF' AS TEXT))",
         "trigger_config: argument 2 (value): not valid UTF-8 at byte 0 (0xff: a byte "
         "that never appears in UTF-8)"),
        ("SELECT trigger_config('preload_sql', CAST(X'FF' AS TEXT))",
         "trigger_config: argument 2 (value): not valid UTF-8 at byte 0 (0xff: a byte "
         "that never appears in UTF-8)"),
        ("SELECT trigger_config('preload_sql', 'DELETE FROM x')",
         "trigger_config: argument 2 (value): preload_sql is not a query (it starts with "
         "'DELETE'); a preload is one read-only query (SELECT, VALUES, WITH ... SELECT)"),
        ("SELECT trigger_config('preload_sql', 'SELECT * FROM x')",
         "trigger_config: argument 2 (value): preload_sql does not prepare: no such table: x"),
        ("SELECT trigger_config('preload_sql', 5)",
         "trigger_config: argument 2 (value): preload_sql must be text (one read-only "
         "query) or NULL"),
    ]
    for sql, why in cases:
        assert error(db, sql) == why, sql
    # NULL options and a NULL table: none given
    empty = one(db, f"SELECT trigger_health({T0})")
    assert one(db, f"SELECT trigger_health({T0}, NULL)") == empty
    assert one(db, "SELECT trigger_prune(0, NULL, NULL)") == 0
    assert one(db, "SELECT trigger_config('preload_sql', NULL)") is None


def test_read_only_connection(ext):
    db = connect(ext)
    add(db, "t", interval_ms=MIN)
    tick(db, T0 + MIN)
    finish(db, one(db, "SELECT run_id FROM trigger_runs"), "success", now=T0 + MIN)
    conf = one(db, "SELECT trigger_config('min_confidence')")
    db.execute("PRAGMA query_only = 1")
    readonly = "attempt to write a readonly database"
    for sql in ("SELECT trigger_config('min_confidence', 0.5)",
                "SELECT trigger_config('preload_sql', 'SELECT 1')",
                f"SELECT trigger_prune({T0 + 10 * MIN})"):
        fn = sql.split()[1].split("(")[0]
        assert error(db, sql) == f"{fn}: {readonly}", sql
    # reads still answer
    assert one(db, "SELECT trigger_config('min_confidence')") == conf
    db.execute("PRAGMA query_only = 0")
    assert one(db, "SELECT count(*) FROM trigger_runs") == 1


def test_config_values_checked(ext):
    db = connect(ext)
    for v in ("nan", "inf", "-0.5", "1.5", "0.5x", ""):
        assert error(db, f"SELECT trigger_config('min_confidence', '{v}')") == (
            "trigger_config: argument 2 (value): min_confidence must be a number 0..1"), v
    assert one(db, "SELECT trigger_config('min_confidence', '1')") == "1"
    assert one(db, "SELECT trigger_config('min_confidence', '0')") == "0"
    # a stored integer past its bound (changed outside): reported, default used
    db.execute("INSERT OR REPLACE INTO triggers_config(key, value) "
               "VALUES('preload_max_bytes', '999999999999999')")
    assert error(db, "SELECT trigger_config('preload_max_bytes')") == (
        "trigger_config: triggers_config.preload_max_bytes: '999999999999999' is not an "
        "integer 0..1048576 (changed outside the extension); the default 4096 is used "
        "until trigger_config('preload_max_bytes', value) sets it")


def test_health_of_a_changed_rejection(ext):
    # a rejected event without code and with a detail that is no JSON
    # (changed outside): shown with empty code and reason
    db = connect(ext)
    db.execute("INSERT INTO triggers_events(at, agent_id, scope, kind, code, detail) "
               "VALUES(1, '', '', 'rejected', NULL, 'x')")
    h = json.loads(one(db, "SELECT trigger_health(10)"))
    assert h["last_create_error"] == {"code": "", "reason": "", "at": 1}, h
