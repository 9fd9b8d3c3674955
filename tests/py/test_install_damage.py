"""tests/py/test_install_damage.py -- trigger_install and the triggers
table over what is not theirs or was damaged: a table or view named
triggers (refused, nothing changed), a schema_version row missing, NULL
or not a number (refused with what is wrong, by install and by the
table), and a long stored value shown cut on a character boundary."""
import os
import tempfile

from util import connect, error, one

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
             "(changed outside the extension; this one writes 5)"),
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
