"""tests/py/test_ops_misc_forms.py -- small forms beside the other tests:
trigger_pause/resume/fire/cancel with an id that is no text (refused for
the id before a bad `now` is read), an UPDATE of a disabled trigger that
leaves `enabled` alone (still paused) and one that enables it, a tick
with agents [] and limit 0 together, and preload_sql texts ending in
blanks, ';' or a comment (one statement) or holding two statements."""

from util import add, connect, error, one, T0, tick


def test_ops_with_an_id_that_is_no_text(ext):
    db = connect(ext)
    for fn in ("trigger_pause", "trigger_resume", "trigger_fire", "trigger_cancel"):
        for args in ("NULL", "NULL, 'garbage'", "5"):
            assert error(db, f"SELECT {fn}({args})") == \
                f"{fn}: argument 1 (trigger_id) must be text", (fn, args)


def test_update_of_a_disabled_trigger(ext):
    db = connect(ext)
    add(db, "t", start_at=T0, enabled=0)
    state = "SELECT status, enabled, next_due_at IS NOT NULL, display_name FROM triggers"
    assert db.execute(state).fetchone() == ("paused", 0, 0, "do t")
    db.execute("UPDATE triggers SET display_name = 'x' WHERE trigger_id = 't'")
    assert db.execute(state).fetchone() == ("paused", 0, 0, "x")
    db.execute("UPDATE triggers SET enabled = 1, display_name = 'y' WHERE trigger_id = 't'")
    assert db.execute(state).fetchone() == ("scheduled", 1, 1, "y")
    db.execute("UPDATE triggers SET enabled = 1 WHERE trigger_id = 't'")
    assert db.execute(state).fetchone() == ("scheduled", 1, 1, "y")
    assert tick(db, T0, agents=[], limit=0) == [] and tick(db, T0, limit=0) == []


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
