"""tests/py/trigger/test_trigger.py -- what a row of `triggers` may hold
(ext/trigger/trigger.c, the validator every write path runs): a table of
more than 50 bad writes and calls, each failing with its message and
changing nothing; constraint failures raised as IntegrityError; integer
columns reading integer-valued text as SQLite's INTEGER affinity does
and refusing reals, blobs and other text with the value and the unit;
the default display_name (white space of every kind collapsed, six
words, 60 bytes never cutting a UTF-8 sequence), blank instructions, and
a bad byte quoted in a message as U+FFFD."""
import sqlite3

from util import MIN, T0, add, connect, dump, error, one, tick


def insert_error(db, col, val):
    sql = (f"INSERT INTO triggers(instructions, trigger_type, interval_ms{', ' + col if col else ''})"
           f" VALUES('i', 'interval', {'60000, ?' if col else '?'})")
    try:
        db.execute(sql, (val,))
    except sqlite3.IntegrityError as e:
        return str(e)
    raise AssertionError((col, val))


# (statement, args, expected message fragment)
BAD_WRITES = [
    ("INSERT INTO triggers(trigger_type, interval_ms) VALUES ('interval', 60000)", (),
     "NOT NULL constraint failed: triggers.instructions"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms) VALUES ('  ', 'interval', 60000)", (),
     "triggers.instructions: must not be empty"),
    ("INSERT INTO triggers(instructions, interval_ms) VALUES ('x', 60000)", (),
     "NOT NULL constraint failed: triggers.trigger_type"),
    ("INSERT INTO triggers(instructions, trigger_type) VALUES ('x', 'weekly')", (),
     "triggers.trigger_type: 'weekly' is not one of 'interval', 'once', 'cron'"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms) VALUES ('x', 'interval', 500)", (),
     "triggers.interval_ms: must be >= 1000, got 500"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms) VALUES ('x', 'interval', 'soon')", (),
     "triggers.interval_ms: 'soon' is not an integer number of milliseconds"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms) VALUES ('x', 'interval', 'five minutes')", (),
     "triggers.interval_ms: 'five minutes' is not an integer number of milliseconds"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms) VALUES ('x', 'interval', '0x10')", (),
     "triggers.interval_ms: '0x10' is not an integer number of milliseconds"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms) VALUES ('x', 'interval', '300000.5')", (),
     "triggers.interval_ms: '300000.5' is not an integer number of milliseconds"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, max_runs) VALUES ('x', 'interval', 60000, 'ten')", (),
     "triggers.max_runs: 'ten' is not an integer"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms) VALUES ('x', 'interval', '" + "9" * 100 + "')", (),
     "triggers.interval_ms: '" + "9" * 60 + "...' is not an integer number of milliseconds"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms) VALUES ('x', 'interval', ' 500 ')", (),
     "triggers.interval_ms: must be >= 1000, got 500"),
    ("INSERT INTO triggers(instructions, trigger_type) VALUES ('x', 'interval')", (),
     "triggers.interval_ms: required for trigger_type 'interval'"),
    ("INSERT INTO triggers(instructions, trigger_type) VALUES ('x', 'once')", (),
     "triggers.scheduled_at: required for trigger_type 'once'"),
    ("INSERT INTO triggers(instructions, trigger_type, scheduled_at) VALUES ('x', 'once', '2026-13-01T00:00:00Z')", (),
     "triggers.scheduled_at: cannot read '2026-13-01T00:00:00Z' as an instant"),
    ("INSERT INTO triggers(instructions, trigger_type, scheduled_at) VALUES ('x', 'once', 'tomorrow')", (),
     "triggers.scheduled_at: cannot read 'tomorrow' as an instant"),
    ("INSERT INTO triggers(instructions, trigger_type, scheduled_at) VALUES ('x', 'once', '2026-02-30T00:00:00Z')", (),
     "triggers.scheduled_at"),
    ("INSERT INTO triggers(instructions, trigger_type, scheduled_at) VALUES ('x', 'once', 1.5)", (),
     "triggers.scheduled_at: must be an integer (ms) or ISO-8601 text, got a real"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, timezone) VALUES ('x', 'interval', 60000, 'Mars/Olympus')", (),
     "triggers.timezone: unknown time zone 'Mars/Olympus'"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, timezone) VALUES ('x', 'interval', 60000, '../etc/passwd')", (),
     "triggers.timezone: invalid time zone name"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, timezone) VALUES ('x', 'interval', 60000, 'localtime')", (),
     "triggers.timezone: not an IANA time zone 'localtime': it names this machine's setting; give an IANA name such as Europe/Berlin"),
    ("SELECT trigger_iso(0, 'localtime')", (), "trigger_iso: argument 2 (tz): not an IANA time zone 'localtime'"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, scheduled_at) VALUES ('x', 'interval', 60000, 5)", (),
     "triggers.scheduled_at: only allowed for trigger_type 'once'"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, wake_mode) VALUES ('x', 'interval', 60000, 'later')", (),
     "triggers.wake_mode: 'later' is not one of 'inject_now', 'next_autonomy_cycle'"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, created_by) VALUES ('x', 'interval', 60000, 'robot')", (),
     "triggers.created_by: 'robot' is not one of"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, misfire_policy) VALUES ('x', 'interval', 60000, 'never')", (),
     "triggers.misfire_policy: 'never' is not one of 'coalesce', 'all', 'skip'"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, overlap_policy) VALUES ('x', 'interval', 60000, 'x')", (),
     "triggers.overlap_policy: 'x' is not one of 'skip', 'allow', 'queue'"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, enabled) VALUES ('x', 'interval', 60000, 2)", (),
     "triggers.enabled: must be 0 or 1, got 2"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, max_runs) VALUES ('x', 'interval', 60000, 0)", (),
     "triggers.max_runs: must be >= 1, got 0"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, max_attempts) VALUES ('x', 'interval', 60000, 0)", (),
     "triggers.max_attempts: must be >= 1, got 0"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, jitter_ms) VALUES ('x', 'interval', 60000, -1)", (),
     "triggers.jitter_ms: must be >= 0, got -1"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, metadata) VALUES ('x', 'interval', 60000, '[1,2]')", (),
     "triggers.metadata: must be a JSON object"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, metadata) VALUES ('x', 'interval', 60000, '{bad')", (),
     "triggers.metadata: must be a JSON object"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, start_at, end_at) VALUES ('x', 'interval', 60000, 5000, 1000)", (),
     "triggers.end_at: 1000 is before start_at 5000"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, status) VALUES ('x', 'interval', 60000, 'scheduled')", (),
     "triggers.status: is computed and cannot be written"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, next_due_at) VALUES ('x', 'interval', 60000, 5)", (),
     "triggers.next_due_at: is computed and cannot be written"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, run_count) VALUES ('x', 'interval', 60000, 5)", (),
     "triggers.run_count: is computed and cannot be written"),
    ("UPDATE triggers SET last_status = 'success'", (), "triggers.last_status: is computed and cannot be written"),
    ("UPDATE triggers SET updated_at = 1", (), "triggers.updated_at: is computed and cannot be written"),
    ("UPDATE triggers SET interval_ms = 10", (), "triggers.interval_ms: must be >= 1000, got 10"),
    ("UPDATE triggers SET trigger_id = 'other'", (), "triggers.trigger_id: cannot be changed"),
    ("INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms) VALUES ('keep', 'x', 'interval', 60000)", (),
     "UNIQUE constraint failed: triggers.trigger_id"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms) VALUES ('a', 'interval', 60000), ('b', 'interval', 60000), ('c', 'interval', 5)", (),
     "triggers.interval_ms: must be >= 1000, got 5"),
    ("INSERT INTO trigger_runs(run_id) VALUES ('x')", (), "trigger_runs: rows are written by"),
    ("SELECT trigger_run_due('yesterday')", (), "trigger_run_due: argument 1 (now): cannot read 'yesterday' as an instant"),
    ("SELECT trigger_run_due(0, '{\"limit\": -1}')", (), "trigger_run_due: options.limit: bad value -1"),
    ("SELECT trigger_run_due(0, '{\"colour\": 1}')", (), "trigger_run_due: options: unknown key 'colour'"),
    ("SELECT trigger_run_due(0, '[1]')", (), "trigger_run_due: argument 2 (options) must be a JSON object"),
    ("SELECT trigger_run_due(0, 'not json')", (), "trigger_run_due: argument 2 (options) must be a JSON object"),
    ("SELECT trigger_run_due(0, '{\"wake_mode\": \"sometime\"}')", (), "trigger_run_due: options.wake_mode: bad value"),
    ("SELECT trigger_run_due(1, 2, 3)", (), "wrong number of arguments to function trigger_run_due()"),
    ("SELECT trigger_run_finish('keep@1#1')", (), "wrong number of arguments to function trigger_run_finish()"),
    ("SELECT trigger_run_finish('keep@1#1', 'done')", (),
     "trigger_run_finish: argument 2 (status): 'done' is not one of 'success', 'failed', 'skipped', 'deferred'"),
    ("SELECT trigger_run_finish(42, 'success')", (), "trigger_run_finish: argument 1 (run_id) must be text"),
    ("SELECT trigger_run_finish('nope', 'success')", (), "trigger_run_finish: unknown run_id 'nope'"),
    ("SELECT trigger_pause('nope')", (), "trigger_pause: unknown trigger_id 'nope'"),
    ("SELECT trigger_fire(NULL)", (), "trigger_fire: argument 1 (trigger_id) must be text"),
    ("SELECT trigger_iso(0, 'Nowhere/Land')", (), "trigger_iso: argument 2 (tz): unknown time zone 'Nowhere/Land'"),
    ("SELECT trigger_iso(0, 5)", (), "trigger_iso: argument 2 (tz) must be text"),
    ("SELECT trigger_iso(x'00')", (), "trigger_iso: argument 1 (ms) must be an integer (ms) or ISO-8601 text"),
    ("SELECT trigger_next_due('{\"interval_ms\": 10}', 0)", (), "trigger_next_due: argument 1 (spec): triggers.interval_ms: must be >= 1000"),
    ("SELECT trigger_next_due('{\"colour\": 1}', 0)", (), "trigger_next_due: argument 1 (spec): unknown key 'colour'"),
    ("SELECT trigger_next_due('{\"interval_ms\": 60000}', NULL)", (), "trigger_next_due: argument 2 (after) must not be NULL"),
    ("SELECT trigger_config('no_such_key')", (), "trigger_config: argument 1 (key): unknown key 'no_such_key'"),
    ("SELECT trigger_config('min_interval_ms', 'lots')", (),
     "trigger_config: argument 2 (value): min_interval_ms: 'lots' is not an integer number of milliseconds"),
    ("SELECT trigger_config('max_active_per_scope', '5 triggers')", (),
     "trigger_config: argument 2 (value): max_active_per_scope: '5 triggers' is not an integer"),
    ("SELECT trigger_next_due('{\"interval_ms\": \"sixty\"}', 0)", (),
     "trigger_next_due: argument 1 (spec): triggers.interval_ms: 'sixty' is not an integer number of milliseconds"),
    ("SELECT trigger_dedupe_key('x', 'interval', '15 min', '')", (),
     "trigger_dedupe_key: argument 3 (schedule): '15 min' is not an integer number of milliseconds"),
    ("SELECT trigger_run_due(0, '{\"limit\": \"ten\"}')", (), "trigger_run_due: options.limit: bad value \"ten\""),
    ("SELECT trigger_prune('never')", (), "trigger_prune: argument 1 (before): cannot read 'never'"),
    # bounds (found by fuzz/sql and fuzz/options): instants within the years
    # 1-9999, durations within that span, so no schedule sum can overflow
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms) VALUES ('x', 'interval', 9223372036854775807)", (),
     "triggers.interval_ms: must be <= 315537897599999 (10,000 years), got 9223372036854775807"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms) VALUES ('x', 'interval', 1e300)", (),
     "triggers.interval_ms: 1.0e+300 is not an integer number of milliseconds"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, jitter_ms) VALUES ('x', 'interval', 60000, 7379555242810057477)", (),
     "triggers.jitter_ms: must be <= 315537897599999"),
    ("INSERT INTO triggers(instructions, trigger_type, scheduled_at) VALUES ('x', 'once', 999999999999999)", (),
     "triggers.scheduled_at: 999999999999999 ms is outside the years 1-9999"),
    ("INSERT INTO triggers(instructions, trigger_type, scheduled_at) VALUES ('x', 'once', '999999999999999')", (),
     "triggers.scheduled_at: 999999999999999 ms is outside the years 1-9999"),
    ("SELECT trigger_run_due(1e300)", (), "trigger_run_due: argument 1 (now): 1e+300 is not a whole number of ms within the years 1-9999"),
    ("SELECT trigger_run_due(-9223372036854775808)", (), "trigger_run_due: argument 1 (now): -9223372036854775808 ms is outside the years 1-9999"),
    ("SELECT trigger_run_due(0, '{\"lease_ms\": 9223372036854775807}')", (), "options.lease_ms: bad value 9223372036854775807"),
    ("SELECT trigger_config('misfire_grace_ms', 9223372036854775807)", (), "trigger_config: argument 2 (value): misfire_grace_ms must be an integer 0..315537897599999"),
]


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


def test_bad_writes_and_calls(ext):
    db = connect(ext)
    add(db, "keep")
    tick(db, T0 + MIN)  # leaves a running run behind
    before = dump(db)
    assert len(BAD_WRITES) >= 25
    for sql, args, want in BAD_WRITES:
        try:
            db.execute(sql, args).fetchall()
        except sqlite3.Error as e:
            assert want in str(e), f"{sql}\n  got:  {e}\n  want: {want}"
        else:
            assert False, f"no error for: {sql}"
        assert dump(db) == before, f"state changed by: {sql}"
        assert db.in_transaction is False, f"transaction left open by: {sql}"


def test_constraint_errors_are_integrity_errors(ext):
    db = connect(ext)
    add(db, "keep")
    try:
        db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms)"
                   " VALUES ('keep', 'x', 'interval', 60000)")
        assert False
    except sqlite3.IntegrityError as e:
        assert e.sqlite_errorname == "SQLITE_CONSTRAINT_UNIQUE", e.sqlite_errorname


def test_integer_valued_text_in_columns(ext):
    db = connect(ext)
    # SQLite's INTEGER affinity is the model: these all read as 300000
    for i, v in enumerate(["300000", " 300000 ", "\t300000\n", "3e5", "300000.0", "+300000"]):
        db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms,"
                   " max_runs, created_at) VALUES (?, ?, 'interval', ?, '3', ?)",
                   (f"t{i}", f"task {i}", v, str(T0)))
        row = db.execute("SELECT interval_ms, typeof(interval_ms), max_runs, typeof(max_runs),"
                         " next_due_at FROM triggers WHERE trigger_id = ?", (f"t{i}",)).fetchone()
        assert row == (300000, "integer", 3, "integer", T0 + 300000), (v, row)
    db.execute("UPDATE triggers SET interval_ms = '600000', jitter_ms = ' 0 ' WHERE trigger_id = 't0'")
    assert one(db, "SELECT interval_ms FROM triggers WHERE trigger_id = 't0'") == 600000
    # instants: integer-valued text is ms, other text is ISO-8601
    db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type, scheduled_at)"
               " VALUES ('o1', 'x', 'once', ' 1767225600000 ')")
    db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type, scheduled_at)"
               " VALUES ('o2', 'y', 'once', '2026-01-01T00:00:00Z')")
    assert [r[0] for r in db.execute("SELECT scheduled_at FROM triggers WHERE trigger_id"
                                     " IN ('o1', 'o2')")] == [T0, T0]
    # what is not an integer is refused with the value and the unit
    before = db.execute("SELECT count(*) FROM triggers").fetchone()
    for value, shown in [("five minutes", "'five minutes'"), ("0x10", "'0x10'"),
                         ("300000.5", "'300000.5'"), ("", "''"), ("5 min", "'5 min'")]:
        e = error(db, "INSERT INTO triggers(instructions, trigger_type, interval_ms)"
                   " VALUES ('x', 'interval', ?)", value)
        assert e == f"triggers.interval_ms: {shown} is not an integer number of milliseconds", e
    e = error(db, "UPDATE triggers SET max_attempts = 'twice' WHERE trigger_id = 't0'")
    assert e == "triggers.max_attempts: 'twice' is not an integer", e
    assert db.execute("SELECT count(*) FROM triggers").fetchone() == before
