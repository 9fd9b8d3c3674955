"""tests/py/store/test_install.py -- trigger_install (ext/store/install.c,
schema.c) and the check of the schema when a connection first uses the
tables: install is idempotent; it refuses a foreign table named like a
shadow table, and a table or view named triggers (nothing changed); a
schema_version row missing, NULL or not a number (refused with what is
wrong, by install and by the table); a connection to an older schema is
refused until install migrates it, and the schema is checked when a
connection attaches; a long stored value shown cut on a character
boundary. Migrations are in test_migrate.py, a newer schema in
test_schema_newer.py, several installs at once in
test_install_concurrent.py."""
import os
import shutil
import sqlite3
import tempfile

from util import add, connect, error, from_fixture, one, refused

NOT_OURS = ("trigger_install: {} 'triggers' already exists and is not a "
            "sqlite-triggers table; nothing was changed")
MISSING = "triggers: shadow tables missing or damaged (triggers_config has no schema_version)"


def test_triggers_name_taken(ext):
    """What holds the name is named as what it is: a table, a view."""
    for ddl, kind in (("CREATE TABLE triggers(x)", "table"),
                      ("CREATE VIEW triggers AS SELECT 1", "view")):
        db = connect(ext, install=False)
        db.execute(ddl)
        assert error(db, "SELECT trigger_install()") == NOT_OURS.format(kind), ddl
        assert one(db, "SELECT count(*) FROM sqlite_schema") == 1


def test_schema_version_damaged(ext):
    with tempfile.TemporaryDirectory() as d:
        for i, (change, why) in enumerate((
            ("DELETE FROM triggers_config WHERE key = 'schema_version'", MISSING),
            ("UPDATE triggers_config SET value = NULL WHERE key = 'schema_version'", MISSING),
            ("UPDATE triggers_config SET value = 'x' WHERE key = 'schema_version'",
             "triggers: triggers_config.schema_version is 'x', not a version number "
             "(changed outside the extension; this one writes 6)"),
        )):
            path = os.path.join(d, f"{i}.db")
            db = connect(ext, path)
            db.execute(change)
            db.close()
            db = connect(ext, path, install=False)
            assert error(db, "SELECT trigger_install()") == "trigger_install: " + why, change
            assert error(db, "SELECT count(*) FROM triggers") == why, change


def test_long_stored_value_cut_on_a_character(ext):
    db = connect(ext)
    db.execute("INSERT OR REPLACE INTO triggers_config(key, value) VALUES('min_confidence', ?)",
               ("x" + "\u00e9" * 100,))
    msg = error(db, "SELECT trigger_config('min_confidence')")
    shown = msg.split("'")[1]
    assert shown == "x" + "\u00e9" * 19 + "...", msg


def test_install_refuses_foreign_table(ext):
    db = connect(ext, install=False)
    db.execute("CREATE TABLE triggers(x)")
    db.execute("INSERT INTO triggers VALUES (1)")
    try:
        db.execute("SELECT trigger_install()")
        assert False, "install should fail"
    except sqlite3.OperationalError as e:
        assert "table 'triggers' already exists and is not a sqlite-triggers table" in str(e)
    names = [r[0] for r in db.execute("SELECT name FROM sqlite_schema ORDER BY 1")]
    assert names == ["triggers"], names
    assert one(db, "SELECT x FROM triggers") == 1


def test_install_idempotent(ext):
    db = connect(ext)
    before = list(db.execute("SELECT * FROM sqlite_schema ORDER BY name"))
    db.execute("SELECT trigger_install()")
    assert list(db.execute("SELECT * FROM sqlite_schema ORDER BY name")) == before


def test_connect_refuses_an_older_schema_until_install(ext):
    # A version-2 database opened by this extension: the tables say to run
    # trigger_install(), instead of failing on a missing table.
    tmp = tempfile.mkdtemp()
    db = from_fixture(ext, tmp, "schema_v2.sql")
    try:
        db.execute("SELECT count(*) FROM triggers").fetchone()
        raise AssertionError("expected an error")
    except sqlite3.OperationalError as e:
        assert "run SELECT trigger_install()" in str(e), e
    assert one(db, "SELECT trigger_install()") == 6
    assert one(db, "SELECT count(*) FROM triggers") == 1
    db.close()
    shutil.rmtree(tmp)


def test_schema_checked_when_a_connection_attaches(ext):
    # a database whose schema_version a newer extension wrote, then one
    # whose schema_version is gone: a new connection refuses to read it
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "t.db")
        db = connect(ext, path)
        add(db, "t")
        for change, message in (
                ("UPDATE triggers_config SET value = 99 WHERE key = 'schema_version'",
                 "this database's schema is version 99, newer than this build (6): "
                 "upgrade the extension"),
                ("DELETE FROM triggers_config WHERE key = 'schema_version'",
                 "shadow tables missing or damaged")):
            db.execute(change)
            db.close()
            db = connect(ext, path, install=False)
            try:
                db.execute("SELECT count(*) FROM triggers").fetchone()
                raise AssertionError(f"read after: {change}")
            except sqlite3.Error as e:
                assert message in str(e), e
        assert one(db, "SELECT count(*) FROM triggers_data") == 1, "nothing was changed"


def test_install_beside_a_foreign_shadow_named_table(ext):
    db = connect(ext, install=False)
    db.execute("CREATE TABLE triggers_rundata(x)")
    db.execute("INSERT INTO triggers_rundata VALUES (42)")
    schema = lambda d: d.execute("SELECT name, sql FROM sqlite_schema").fetchall()
    refused(db, "SELECT trigger_install()", (),
            "table 'triggers_rundata' already exists; nothing was changed", schema)
    assert [r[0] for r in schema(db)] == ["triggers_rundata"]
    assert one(db, "SELECT x FROM triggers_rundata") == 42
