"""tests/py/test_trigger_values.py -- values an INSERT INTO triggers
reads: reals and blobs in integer columns (the message names the column
and, for a duration, its unit), the default display_name (white space of
every kind collapsed, six words, 60 bytes never cutting a UTF-8
sequence), blank instructions; and trigger_resume of a trigger whose
max_runs or once-instant is used up while paused."""
import sqlite3

from util import MIN, T0, add, connect, one, tick, trig


def insert_error(db, col, val):
    sql = (f"INSERT INTO triggers(instructions, trigger_type, interval_ms{', ' + col if col else ''})"
           f" VALUES('i', 'interval', {'60000, ?' if col else '?'})")
    try:
        db.execute(sql, (val,))
    except sqlite3.IntegrityError as e:
        return str(e)
    raise AssertionError((col, val))


def test_integer_columns_refuse_reals_and_blobs(ext):
    db = connect(ext)
    for col, val, why in (
        (None, 1.5, "triggers.interval_ms: 1.5 is not an integer number of milliseconds"),
        (None, b"\x00", "triggers.interval_ms: must be an integer, got a blob"),
        ("max_runs", 1.5, "triggers.max_runs: 1.5 is not an integer"),
        ("max_runs", "1.5", "triggers.max_runs: '1.5' is not an integer"),
        ("max_runs", b"\x00", "triggers.max_runs: must be an integer, got a blob"),
        ("jitter_ms", 2.5, "triggers.jitter_ms: 2.5 is not an integer number of milliseconds"),
        ("enabled", 1.5, "triggers.enabled: 1.5 is not an integer"),
        ("metadata", 5, "triggers.metadata: must be text, got an integer"),
    ):
        assert insert_error(db, col, val) == why, (col, val)
    assert one(db, "SELECT count(*) FROM triggers") == 0


def test_default_display_name(ext):
    db = connect(ext)
    for instructions, name in (
        ("\t\r\n a\tb\r\nc  d", "a b c d"),
        ("one two three four five six seven", "one two three four five six"),
        ("\u00e9" * 40, "\u00e9" * 30),          # 60 bytes, the last whole
        ("a" * 59 + "\u00e9", "a" * 59),         # no half sequence
        ("x\u00e9" * 30, "x\u00e9" * 20),
        ("ab\u00e9" * 30, "ab\u00e9" * 15),
        ("abc\u00e9" * 30, "abc\u00e9" * 12),
    ):
        db.execute("INSERT INTO triggers(instructions, trigger_type, interval_ms) "
                   "VALUES(?, 'interval', 60000)", (instructions,))
        assert one(db, "SELECT display_name FROM triggers WHERE rowid = last_insert_rowid()") \
            == name, instructions
    try:
        db.execute("INSERT INTO triggers(instructions, trigger_type, interval_ms) "
                   "VALUES('  \t\r\n ', 'interval', 60000)")
        raise AssertionError("blank instructions")
    except sqlite3.IntegrityError as e:
        assert str(e) == "triggers.instructions: must not be empty"


def test_resume_when_used_up(ext):
    db = connect(ext)
    add(db, "m", interval_ms=MIN, max_runs=1, start_at=T0)
    add(db, "o", trigger_type="once", scheduled_at=T0 + MIN)
    tick(db, T0)
    one(db, "SELECT trigger_pause('m', ?)", T0 + 1)
    one(db, "SELECT trigger_resume('m', ?)", T0 + 2)
    t = trig(db, "m")
    assert (t["enabled"], t["next_due_at"]) == (1, None), t
    assert t["status"] != "scheduled", t
    # a once trigger paused before its instant, resumed after it: expired
    one(db, "SELECT trigger_pause('o', ?)", T0 + 1)
    one(db, "SELECT trigger_resume('o', ?)", T0 + 2 * MIN)
    t = trig(db, "o")
    assert (t["status"], t["next_due_at"], t["enabled"]) == ("expired", None, 1), t


def test_echo_of_bad_bytes(ext):
    # the value quoted in the message is valid text: the bad byte as U+FFFD
    db = connect(ext)
    try:
        db.execute("INSERT INTO triggers(instructions, trigger_type, interval_ms) "
                   "VALUES('x', 'interval', CAST(X'31FF' AS TEXT))")
        raise AssertionError("accepted")
    except sqlite3.IntegrityError as e:
        assert str(e) == ("triggers.interval_ms: '1\ufffd' is not an integer number "
                          "of milliseconds"), e
