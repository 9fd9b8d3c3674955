"""tests/py/sql/test_spec_arg.py -- the spec argument of trigger_next_due and
trigger_preview (sql/spec_arg.c): JSON after any of JSON's white space
(a carriage return included: it once read as a cron expression), a
computed column as a key, created_at as the interval's anchor, a NULL or
non-text tz, and a word that is no trigger_id (also without the tables)."""

from util import connect, error, MIN, one, T0


def test_json_after_white_space(ext):
    db = connect(ext)
    for blank in ("\t\n", "\r", "\r\n ", " \t\r\n"):
        spec = blank + '{"interval_ms":60000}'
        assert one(db, "SELECT trigger_next_due(?, ?)", spec, T0) == T0 + MIN, repr(blank)
        assert one(db, "SELECT due_at FROM trigger_preview(?, ?) WHERE n = 2",
                   spec, T0) == T0 + 2 * MIN, repr(blank)


def test_spec_keys_and_tz(ext):
    db = connect(ext)
    assert error(db, "SELECT trigger_next_due(?, ?)", '{"status":"x"}', T0) == (
        "trigger_next_due: argument 1 (spec): unknown key 'status'")
    # created_at anchors the grid when start_at is absent
    assert one(db, "SELECT trigger_next_due(?, ?)",
               '{"interval_ms":60000,"created_at":%d}' % (T0 + 1000), T0) == T0 + MIN + 1000
    assert one(db, "SELECT trigger_next_due('* * * * *', ?, NULL)", T0) == T0 + MIN
    assert error(db, "SELECT trigger_next_due(?, ?, 5)", '{"interval_ms":60000}', T0) == (
        "trigger_next_due: argument 3 (tz) must be text")


def test_no_such_trigger(ext):
    for db in (connect(ext), connect(ext, install=False)):
        assert error(db, "SELECT n FROM trigger_preview(?, ?)", "\t\r\n nosuch", T0) == (
            "trigger_preview: argument 1 (spec): '\t\r\n nosuch' is not a trigger_id, "
            "nor a cron expression: cron: expected 5 or 6 fields, got 2")
        assert error(db, "SELECT trigger_next_due('nosuch', ?)", T0) == (
            "trigger_next_due: cron: expected 5 or 6 fields, got 1")
