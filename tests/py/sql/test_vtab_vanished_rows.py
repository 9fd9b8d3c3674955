"""tests/py/sql/test_vtab_vanished_rows.py -- an UPDATE or DELETE of the
triggers table whose own expression deletes another row it was going to
visit (an application function that writes): the vanished row is passed
over, nothing fails, and each trigger leaves exactly one `deleted`
event."""
from util import connect, one


def pair(db, names):
    for n in names:
        db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms)"
                   " VALUES(?, 'do ' || ?, 'interval', 60000)", (n, n))


def test_update_passes_over_a_vanished_row(ext):
    db = connect(ext)
    pair(db, "ab")

    def rm(tid, other):
        db.execute("DELETE FROM triggers WHERE trigger_id = ?", (other,))
        return "new " + tid
    db.create_function("rm", 2, rm)
    db.execute("UPDATE triggers SET instructions = "
               "rm(trigger_id, CASE trigger_id WHEN 'a' THEN 'b' ELSE 'a' END)")
    assert db.execute("SELECT trigger_id, instructions FROM triggers").fetchall() == \
        [("a", "new a")]
    assert one(db, "SELECT count(*) FROM triggers_state") == 1
    assert db.execute("SELECT kind, trigger_id FROM trigger_events WHERE kind <> 'created' "
                      "ORDER BY kind").fetchall() == [("deleted", "b"), ("updated", "a")]


def test_delete_passes_over_a_vanished_row(ext):
    db = connect(ext)
    pair(db, "cd")

    def rm(other):
        db.execute("DELETE FROM triggers WHERE trigger_id = ?", (other,))
        return 1
    db.create_function("rm", 1, rm)
    db.execute("DELETE FROM triggers WHERE rm('d')")
    assert one(db, "SELECT count(*) FROM triggers") == 0
    assert sorted(db.execute("SELECT trigger_id FROM trigger_events WHERE kind = 'deleted'")
                  .fetchall()) == [("c",), ("d",)]
