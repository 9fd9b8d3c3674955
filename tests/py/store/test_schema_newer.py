"""tests/py/store/test_schema_newer.py -- a database whose schema_version is
newer than this build knows (issue 32 item 6, docs/reliability.md "A
newer schema"): trigger_install() returned 5 and the tick, create and
finish wrote; only reading `triggers` refused. Now every entry point
refuses with one message and nothing is written, for a current file
marked newer and for an old one (version 3 tables) marked newer, which
never answers "no such table"."""
import os
import sqlite3
import tempfile

from util import FIXTURES, MIN, T0, add, connect, one, tick

NEWER = ("sqlite-triggers: this database's schema is version 7, newer than this build (6): "
         "upgrade the extension")
FALLBACK = "Admin context temporarily unavailable; continue with latest autonomous objective."

CREATE = ("'{\"instructions\":\"x\",\"trigger_type\":\"interval\",\"interval_ms\":900000}', "
          "'{\"agent_id\":\"a\",\"role\":\"owner\"}'")
# Every entry point that reads or writes the tables, as (sql, function):
# the function's name prefixes its error, a table's error is bare.
CALLS = (
    ("SELECT trigger_install()", "trigger_install"),
    (f"SELECT trigger_run_due({T0 + 5 * MIN})", "trigger_run_due"),
    (f"SELECT trigger_run_due({T0 + 5 * MIN}, '{{\"agents\":[\"a\"],\"limit\":1}}')",
     "trigger_run_due"),
    ("SELECT trigger_next_wakeup()", "trigger_next_wakeup"),
    ("SELECT trigger_health()", "trigger_health"),
    ("SELECT trigger_config('preload_max_bytes')", "trigger_config"),
    ("SELECT trigger_config('preload_max_bytes', '100')", "trigger_config"),
    ("SELECT trigger_config('preload_sql', 'SELECT 1 AS one')", "trigger_config"),
    ("SELECT trigger_prune(0)", "trigger_prune"),
    ("SELECT trigger_prune(0, NULL, 'trigger_events')", "trigger_prune"),
    ("SELECT trigger_fire('t')", "trigger_fire"),
    ("SELECT trigger_pause('t')", "trigger_pause"),
    ("SELECT trigger_resume('t')", "trigger_resume"),
    ("SELECT trigger_cancel('t')", "trigger_cancel"),
    ("SELECT trigger_run_finish('t@1767225660000#1', 'success')", "trigger_run_finish"),
    ("SELECT trigger_run_heartbeat('t@1767225660000#1')", "trigger_run_heartbeat"),
    ("SELECT trigger_run_finish_many('[]')", "trigger_run_finish_many"),
    ("SELECT trigger_run_sql_job('t@1767225660000#1')", "trigger_run_sql_job"),
    (f"SELECT trigger_create({CREATE})", "trigger_create"),
    ("SELECT trigger_create_xml('<response><instructions>x</instructions>"
     "<intervalMs>900000</intervalMs></response>', '{\"agent_id\":\"a\",\"role\":\"owner\"}')",
     "trigger_create"),
    ("SELECT trigger_describe('t')", "trigger_describe"),
    ("SELECT * FROM trigger_preview('t', 0)", "trigger_preview"),
    ("SELECT * FROM triggers", None),
    ("SELECT * FROM trigger_runs", None),
    ("INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms)"
     " VALUES ('n', 'x', 'interval', 60000)", None),
    ("UPDATE triggers SET enabled = 0", None),
    ("DELETE FROM trigger_runs", None),
)


def snapshot(path):
    """Every row of every table, and the schema: nothing may change."""
    raw = sqlite3.connect(path)
    out = []
    for (name,) in raw.execute("SELECT name FROM sqlite_schema WHERE type = 'table'"
                               " AND sql NOT LIKE 'CREATE VIRTUAL%' ORDER BY name"):
        out.append((name, raw.execute(f"SELECT * FROM \"{name}\" ORDER BY 1").fetchall()))
    out.append(raw.execute("SELECT type, name, sql FROM sqlite_schema ORDER BY name").fetchall())
    raw.close()
    return out


def mark(path, version):
    raw = sqlite3.connect(path, isolation_level=None)
    raw.execute("UPDATE triggers_config SET value = ? WHERE key = 'schema_version'", (version,))
    raw.close()


def check_refused(ext, path, calls):
    before = snapshot(path)
    db = connect(ext, path, install=False)
    for sql, fname in calls:
        try:
            got = db.execute(sql).fetchall()
            raise AssertionError(f"not refused: {sql} -> {got}")
        except sqlite3.Error as e:
            want = f"{fname}: {NEWER}" if fname else NEWER
            assert str(e) == want, (sql, str(e))
    # the summary never raises: it answers its fallback, never a misread
    assert one(db, "SELECT trigger_state_summary('a')") == FALLBACK
    assert FALLBACK in one(db, "SELECT trigger_state_payload('a')")
    db.close()
    assert snapshot(path) == before, "nothing was written"


def current_file(ext, tmp):
    path = os.path.join(tmp, "v5.db")
    db = connect(ext, path)
    add(db, "t", start_at=T0)
    tick(db, T0 + MIN)
    one(db, f"SELECT trigger_create({CREATE})")
    db.close()
    return path


def test_current_file_marked_newer(ext):
    with tempfile.TemporaryDirectory() as tmp:
        path = current_file(ext, tmp)
        mark(path, 7)
        check_refused(ext, path, CALLS + (("SELECT * FROM trigger_events", None),))
        # the same on a connection that used the tables before (a fresh
        # statement cache, the kept statements made again)
        mark(path, 5)
        db = connect(ext, path, install=False)
        assert one(db, "SELECT trigger_install()") == 6
        db.close()
        mark(path, 7)
        check_refused(ext, path, CALLS)


def test_old_file_marked_newer_never_says_no_such_table(ext):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "v3.db")
        raw = sqlite3.connect(path, isolation_level=None)
        with open(os.path.join(FIXTURES, "schema_v3.sql")) as f:
            raw.executescript(f.read())
        raw.close()
        mark(path, 7)
        check_refused(ext, path, CALLS)
        # marked back, it migrates as any version-3 file does
        mark(path, 3)
        db = connect(ext, path, install=False)
        assert one(db, "SELECT trigger_install()") == 6
        assert one(db, "SELECT count(*) FROM triggers") == 2


def test_marked_newer_inside_a_transaction(ext):
    # the caller's transaction stays open and unchanged after a refusal
    with tempfile.TemporaryDirectory() as tmp:
        path = current_file(ext, tmp)
        mark(path, 7)
        db = connect(ext, path, install=False)
        db.execute("BEGIN")
        db.execute("CREATE TABLE mine(x)")
        for sql in ("SELECT trigger_install()", f"SELECT trigger_run_due({T0 + 5 * MIN})"):
            try:
                db.execute(sql).fetchall()
                raise AssertionError(sql)
            except sqlite3.Error as e:
                assert NEWER in str(e), e
        assert db.in_transaction
        db.execute("INSERT INTO mine VALUES (1)")
        db.execute("COMMIT")
        assert one(db, "SELECT count(*) FROM mine") == 1
