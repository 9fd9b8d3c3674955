"""tests/py/sql/test_sql_use.py -- the two virtual tables inside the schema:
a dashboard view over `triggers` and `trigger_runs`, and an application's
AFTER INSERT trigger that creates a trigger (the outbox pattern), each with
PRAGMA trusted_schema ON and OFF (Debian's SQLite 3.40). Functions with
side effects stay direct-only: a view or trigger that calls them fails."""
import json
import os
import shutil
import sqlite3
import tempfile

from util import MIN, T0, add, connect, one, tick

OUTBOX = """
CREATE TABLE outbox(id INTEGER PRIMARY KEY, task TEXT NOT NULL, every_ms INTEGER,
                    created_at INTEGER NOT NULL);
CREATE TRIGGER outbox_schedules AFTER INSERT ON outbox BEGIN
  INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type, interval_ms, created_at)
    VALUES ('outbox-' || new.id, 'mailer', new.task, 'interval', new.every_ms, new.created_at);
END;
CREATE TRIGGER outbox_cancels AFTER DELETE ON outbox BEGIN
  DELETE FROM trigger_runs WHERE trigger_id = 'outbox-' || old.id;
  DELETE FROM triggers WHERE trigger_id = 'outbox-' || old.id;
END;
CREATE TRIGGER outbox_pauses AFTER UPDATE OF every_ms ON outbox WHEN new.every_ms IS NULL BEGIN
  UPDATE triggers SET enabled = 0 WHERE trigger_id = 'outbox-' || new.id;
END;
"""

DASHBOARD = """
CREATE VIEW due_soon AS
  SELECT t.trigger_id, t.display_name, t.next_due_at,
         trigger_iso(t.next_due_at, t.timezone) AS due_local,
         count(r.run_id) AS runs, max(r.finished_at) AS last_finished
  FROM triggers t LEFT JOIN trigger_runs r ON r.trigger_id = t.trigger_id
  WHERE t.status = 'scheduled'
  GROUP BY t.trigger_id
  ORDER BY t.next_due_at, t.trigger_id;
"""


def trusted(db, on):
    db.execute(f"PRAGMA trusted_schema = {1 if on else 0}")
    assert one(db, "PRAGMA trusted_schema") == (1 if on else 0)


def test_dashboard_view(ext):
    for on in (True, False):
        tmp = tempfile.mkdtemp()
        path = os.path.join(tmp, "app.db")
        db = connect(ext, path)
        trusted(db, on)
        db.executescript(DASHBOARD)
        add(db, "build", interval_ms=15 * MIN)
        add(db, "digest", trigger_type="cron", cron_expression="0 7 * * *",
            timezone="Europe/Berlin")
        add(db, "old", trigger_type="once", scheduled_at=T0 + MIN)
        for run in tick(db, T0 + 15 * MIN):
            db.execute("SELECT trigger_run_finish(?, 'success', NULL, ?)",
                       (run["run_id"], T0 + 16 * MIN))
        rows = db.execute("SELECT trigger_id, due_local, runs, last_finished"
                          " FROM due_soon").fetchall()
        assert rows == [("build", "2026-01-01T00:30:00Z", 1, T0 + 16 * MIN),
                        ("digest", "2026-01-01T07:00:00+01:00", 0, None)], (on, rows)
        db.close()
        # a new connection reads the view from the schema under the same pragma
        db = connect(ext, path, install=False)
        trusted(db, on)
        assert one(db, "SELECT count(*) FROM due_soon") == 2
        assert one(db, "SELECT trigger_id FROM due_soon LIMIT 1") == "build"
        db.close()
        shutil.rmtree(tmp)


def test_outbox_trigger_creates_a_trigger(ext):
    for on in (True, False):
        db = connect(ext)
        trusted(db, on)
        db.executescript(OUTBOX)
        db.execute("INSERT INTO outbox(task, every_ms, created_at) VALUES (?, ?, ?)",
                   ("Send the newsletter", 10 * MIN, T0))
        row = db.execute("SELECT trigger_id, agent_id, instructions, interval_ms, next_due_at"
                         " FROM triggers").fetchone()
        assert row == ("outbox-1", "mailer", "Send the newsletter", 10 * MIN, T0 + 10 * MIN), row
        runs = tick(db, T0 + 10 * MIN)
        assert [r["run_id"] for r in runs] == [f"outbox-1@{T0 + 10 * MIN}#1"], runs
        assert runs[0]["payload"]["text"] == "Send the newsletter"
        # a bad outbox row fails the application's INSERT: neither row stays
        try:
            db.execute("INSERT INTO outbox(task, every_ms, created_at) VALUES ('x', 5, ?)", (T0,))
            assert False, "a 5 ms interval must be refused"
        except sqlite3.IntegrityError as e:
            assert "triggers.interval_ms: must be >= 1000, got 5" in str(e), e
        assert one(db, "SELECT count(*) FROM outbox") == 1
        assert one(db, "SELECT count(*) FROM triggers") == 1
        # UPDATE and DELETE through the application's triggers
        db.execute("UPDATE outbox SET every_ms = NULL WHERE id = 1")
        assert one(db, "SELECT status FROM triggers WHERE trigger_id = 'outbox-1'") == "paused"
        db.execute("SELECT trigger_run_finish(?, 'success', NULL, ?)",
                   (runs[0]["run_id"], T0 + 11 * MIN))
        db.execute("DELETE FROM outbox WHERE id = 1")
        assert one(db, "SELECT count(*) FROM triggers") == 0
        assert one(db, "SELECT count(*) FROM trigger_runs") == 0
        db.close()


def test_outbox_inside_a_transaction_rolls_back(ext):
    db = connect(ext)
    trusted(db, False)
    db.executescript(OUTBOX)
    db.execute("BEGIN")
    db.execute("INSERT INTO outbox(task, every_ms, created_at) VALUES ('a', 60000, ?)", (T0,))
    db.execute("INSERT INTO outbox(task, every_ms, created_at) VALUES ('b', 60000, ?)", (T0,))
    assert one(db, "SELECT count(*) FROM triggers") == 2
    db.execute("ROLLBACK")
    assert one(db, "SELECT count(*) FROM triggers") == 0
    assert json.loads(one(db, "SELECT trigger_run_due(?)", T0 + MIN)) == []


def test_side_effect_functions_stay_direct_only(ext):
    for on in (True, False):
        db = connect(ext)
        trusted(db, on)
        add(db, "keep")
        for ddl, use in [
            ("CREATE VIEW claim AS SELECT trigger_run_due(0) AS r", "SELECT * FROM claim"),
            ("CREATE VIEW fire AS SELECT trigger_fire('keep', 0) AS r", "SELECT * FROM fire"),
            ("CREATE TABLE t1(x); CREATE TRIGGER t1_ai AFTER INSERT ON t1 BEGIN"
             " SELECT trigger_pause('keep'); END", "INSERT INTO t1 VALUES (1)"),
            ("CREATE TABLE t2(x); CREATE TRIGGER t2_ai AFTER INSERT ON t2 BEGIN"
             " SELECT trigger_create('{}'); END", "INSERT INTO t2 VALUES (1)"),
        ]:
            db.executescript(ddl)
            try:
                db.execute(use).fetchall()
                assert False, f"{use} must be refused"
            except sqlite3.OperationalError as e:
                assert "unsafe use of trigger_" in str(e), e
        assert one(db, "SELECT status FROM triggers") == "scheduled"
        assert one(db, "SELECT count(*) FROM trigger_runs") == 0
        db.close()
