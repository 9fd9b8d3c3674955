"""tests/py/sql/test_config.py -- trigger_config (ext/sql/fn_admin.c,
ext/store/config.c): the empty text for a text key (stored as given),
the empty preload_sql (cleared: NULL), a number or blob for a text key
(refused with its type), the same value set twice, min_confidence out of
0..1 or no number; and values changed outside the extension in
triggers_config, which a read names with the default it falls back to
(an integer past its bound included)."""
import sqlite3

from util import connect, error, one

OUTSIDE = ("trigger_config: triggers_config.%s: '%s' is not %s (changed outside the "
           "extension); the default %s is used until trigger_config('%s', value) sets it")


def test_set_forms(ext):
    db = connect(ext)
    assert one(db, "SELECT trigger_config('creator_roles', '')") == ""
    assert one(db, "SELECT trigger_config('creator_roles')") == ""
    assert one(db, "SELECT value FROM triggers_config WHERE key = 'creator_roles'") == ""
    assert one(db, "SELECT trigger_config('preload_sql', '')") is None
    assert one(db, "SELECT trigger_config('preload_sql')") is None
    assert one(db, "SELECT count(*) FROM triggers_config WHERE key = 'preload_sql'") == 0
    # a number for a text key is a mistake (creator_roles = 5), refused
    # with its type; the setting is left as it was
    for bad, kind in ((5, "an integer"), (5.5, "a real"), (b"owner", "a blob")):
        try:
            one(db, "SELECT trigger_config('creator_roles', ?)", bad)
            assert False, bad
        except sqlite3.Error as e:
            assert str(e) == ("trigger_config: argument 2 (value): creator_roles must be "
                              "text, got " + kind), str(e)
    assert one(db, "SELECT trigger_config('creator_roles')") == ""
    for _ in range(2):
        assert one(db, "SELECT trigger_config('creator_roles', 'owner')") == "owner"
    for bad in (2, -0.5, "x"):
        try:
            one(db, "SELECT trigger_config('min_confidence', ?)", bad)
            assert False, bad
        except sqlite3.Error as e:
            assert str(e).startswith("trigger_config: argument 2 (value): min_confidence "
                                     "must be a number 0..1"), str(e)


def test_values_changed_outside(ext):
    db = connect(ext)
    for key, value, rule, default in (
            ("min_confidence", "abc", "a number 0..1", "0.5"),
            ("min_confidence", "1.5", "a number 0..1", "0.5"),
            ("misfire_grace_ms", "x", "an integer 0..315537897599999", "60000")):
        db.execute("INSERT OR REPLACE INTO triggers_config VALUES (?, ?)", (key, value))
        try:
            one(db, "SELECT trigger_config(?)", key)
            assert False, key
        except sqlite3.Error as e:
            assert str(e) == OUTSIDE % (key, value, rule, default, key), str(e)
    db.execute("INSERT OR REPLACE INTO triggers_config VALUES ('unknown_key', 'x')")
    try:
        one(db, "SELECT trigger_config('unknown_key')")
        assert False
    except sqlite3.Error as e:
        assert str(e) == "trigger_config: argument 1 (key): unknown key 'unknown_key'"


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
