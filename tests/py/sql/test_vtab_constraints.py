"""tests/py/sql/test_vtab_constraints.py -- the constraint shapes the virtual
tables `triggers` and `trigger_runs` plan and answer (ext/sql/vtab_scan.c,
vtab_triggers.c, vtab_runs.c): each lookup an index probe (the virtual
table's plan and the shadow query behind it); the scans' NULL and range
terms; the rowid that cannot change; the CREATE VIRTUAL TABLE forms each
module refuses, and RENAME or a table of another name refused.
trigger_preview's own constraints are in test_vtab_preview.py."""
import sqlite3

from util import add, column, connect, error as util_error, one, refused

def error(db, sql, kind=sqlite3.OperationalError):
    return util_error(db, sql, kind=kind)


def test_scan_terms(ext):
    db = connect(ext)
    add(db, "t1")
    add(db, "t2")
    assert column(db, "SELECT trigger_id FROM triggers WHERE trigger_id = ?", None) == []
    assert column(db, "SELECT trigger_id FROM triggers WHERE trigger_id > 't1'") == ["t2"]
    assert column(db, "SELECT trigger_id FROM triggers WHERE trigger_id >= 't1' "
                  "AND trigger_id < 't2'") == ["t1"]
    assert column(db, "SELECT run_id FROM trigger_runs WHERE run_id > 'a'") == []
    assert error(db, "UPDATE triggers SET rowid = rowid + 10 WHERE trigger_id = 't1'",
                 sqlite3.IntegrityError) == "triggers: the rowid cannot be changed"
    assert column(db, "SELECT rowid FROM triggers ORDER BY rowid") == [1, 2]


def test_create_virtual_table_forms(ext):
    db = connect(ext)
    for sql, why in (
        ("CREATE VIRTUAL TABLE temp.triggers USING triggers",
         "triggers: create it as main.triggers with no arguments (got temp.triggers)"),
        ("CREATE VIRTUAL TABLE x USING triggers(1)",
         "triggers: create it as main.triggers with no arguments (got main.x)"),
        ("CREATE VIRTUAL TABLE x USING trigger_runs",
         "trigger_runs: create it as main.trigger_runs with no arguments (got main.x)"),
        ("CREATE VIRTUAL TABLE temp.trigger_runs USING trigger_runs",
         "trigger_runs: create it as main.trigger_runs with no arguments "
         "(got temp.trigger_runs)"),
        ("ALTER TABLE trigger_runs RENAME TO r2",
         "trigger_runs: cannot be renamed to 'r2' (the functions expect this name)"),
    ):
        assert error(db, sql) == why, sql
    bare = connect(ext, install=False)
    for sql, why in (
        ("CREATE VIRTUAL TABLE triggers USING triggers(1)",
         "triggers: create it as main.triggers with no arguments (got main.triggers)"),
        ("CREATE VIRTUAL TABLE trigger_runs USING trigger_runs(1)",
         "trigger_runs: create it as main.trigger_runs with no arguments "
         "(got main.trigger_runs)"),
        ("CREATE VIRTUAL TABLE trigger_events USING trigger_events",
         "trigger_events: create the triggers table first (run sql/install.sql)"),
    ):
        assert error(bare, sql) == why, sql


def test_update_that_changes_nothing(ext):
    # SET rowid = rowid: every column unchanged, nothing written, no event
    from util import dump
    db = connect(ext)
    add(db, "a")
    before = dump(db)
    db.execute("UPDATE triggers SET rowid = rowid")
    assert dump(db) == before
    assert column(db, "SELECT kind FROM trigger_events") == ["created"]


def test_lookups_are_index_probes(ext):
    db = connect(ext)
    for sql, want in [
        ("SELECT * FROM triggers WHERE trigger_id = 'x'", "INDEX 0:trigger_id="),
        ("SELECT * FROM triggers WHERE agent_id = 'x'", "INDEX 0:agent_id="),
        ("SELECT * FROM triggers WHERE status = 'paused'", "INDEX 0:status="),
        ("SELECT * FROM triggers WHERE next_due_at < 5", "INDEX 0:next_due_at<"),
        ("SELECT * FROM trigger_runs WHERE scheduled_for >= 5", "INDEX 0:scheduled_for>="),
    ]:
        plan = " ".join(r[3] for r in db.execute("EXPLAIN QUERY PLAN " + sql))
        assert want in plan, (sql, plan)
    # and the shadow query behind each uses a real index
    for sql in ["SELECT * FROM triggers_data WHERE agent_id = 'x'",
                "SELECT * FROM triggers_data WHERE status = 'x'",
                "SELECT * FROM triggers_state WHERE next_due_at <= 5",
                "SELECT * FROM triggers_state INDEXED BY triggers_state_due WHERE next_due_at <= 5 ORDER BY next_due_at, trigger_id",
                "SELECT * FROM triggers_state WHERE agent_id = 'x' AND agent_id <> '' AND next_due_at IS NOT NULL ORDER BY next_due_at, trigger_id",
                "SELECT * FROM triggers_rundata WHERE status = 'failed' AND finished_at > 5",
                "SELECT * FROM triggers_rundata WHERE agent_id = 'x' AND status = 'success' AND finished_at <= 5 ORDER BY finished_at DESC",
                "SELECT * FROM triggers_rundata WHERE trigger_id = 'x'",
                "SELECT * FROM triggers_rundata WHERE scheduled_for > 5"]:
        plan = " ".join(r[3] for r in db.execute("EXPLAIN QUERY PLAN " + sql))
        assert "USING" in plan and "SCAN" not in plan, (sql, plan)


def test_vtabs_refuse_rename_and_other_names(ext):
    db = connect(ext)
    for table in ("triggers", "trigger_runs"):
        refused(db, f"ALTER TABLE {table} RENAME TO {table}_old", (),
                f"{table}: cannot be renamed to '{table}_old'")
    assert one(db, "SELECT count(*) FROM sqlite_schema WHERE name IN ('triggers', 'trigger_runs')") == 2
    refused(db, "CREATE VIRTUAL TABLE temp.triggers USING triggers", (),
            "triggers: create it as main.triggers with no arguments (got temp.triggers)")
    refused(db, "CREATE VIRTUAL TABLE main.jobs USING trigger_runs", (),
            "trigger_runs: create it as main.trigger_runs with no arguments (got main.jobs)")
    bare = connect(ext, install=False)
    try:
        bare.execute("CREATE VIRTUAL TABLE main.trigger_runs USING trigger_runs")
        raise AssertionError("trigger_runs created without triggers")
    except sqlite3.Error as e:
        assert "trigger_runs: create the triggers table first" in str(e), e
    assert one(bare, "SELECT count(*) FROM sqlite_schema") == 0
