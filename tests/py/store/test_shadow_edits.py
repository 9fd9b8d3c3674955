"""tests/py/store/test_shadow_edits.py -- shadow-table edits the sweep of
test_shadow.py does not make (issue 32, items 5 and 7): bytes that are
not valid UTF-8 (and NUL) written straight into a text column, and a
running run deleted or rewritten under its trigger.

Bad bytes are treated as any other changed value: the trigger is paused
with a last_error that names the column and shows the bytes in hex, the
tick's result and every later answer are valid UTF-8, and no run is left
waiting for its lease. A trigger held by a running count with no running
run behind it (skip, queue) is counted `stalled` by trigger_health and
paused by the next tick that finds it due, its count set right, so a
resume brings it back.
"""
import json
import sqlite3

from util import MIN, T0, add, connect, one

BAD = [b"x\xff\xfey", b"x\x00y", b"\xed\xa0\x80", b"ok\xe2\x82"]
# (table, column, the trigger it is changed on)
TRIGGER_TEXTS = [("triggers_data", c, "a") for c in (
    "trigger_id", "agent_id", "scope", "display_name", "instructions",
    "timezone", "wake_mode", "created_by", "misfire_policy", "overlap_policy",
    "metadata", "dedupe_key")] + [
    ("triggers_data", "cron_expression", "c")] + [
    ("triggers_state", c, "a") for c in ("trigger_id", "agent_id", "last_status", "last_error")]
# trigger_type and status: an enum's CHECK refuses any other text (schema
# version 6), bad bytes included (test_enum_check_refuses_bad_bytes).
RUN_TEXTS = ["agent_id", "status", "owner", "error", "result", "payload"]
# run_id and the key's trigger_id: bad bytes in either alone are refused
# at write time (the run_id is its key's, a CHECK since version 6)
RUN_KEY_TEXTS = ["run_id", "trigger_id"]


def strict(db, sql, *args):
    """The text a call returns, decoded strictly (an error if it is not
    valid UTF-8)."""
    v = one(db, sql, *args)
    return v.decode("utf-8") if isinstance(v, bytes) else v


def build(ext):
    db = connect(ext)
    db.text_factory = bytes  # read back what is stored, decode on purpose
    add(db, "a", agent_id="ag", scope="s", metadata='{"k":1}', start_at=T0)
    add(db, "b", agent_id="ag", start_at=T0)
    add(db, "c", trigger_type="cron", cron_expression="* * * * *", created_at=T0)
    return db


def state(db, rowid):
    row = db.execute("SELECT d.status, s.last_error, s.running FROM triggers_data d"
                     " JOIN triggers_state s ON s.id = d.id WHERE d.id = ?", (rowid,)).fetchone()
    return row[0].decode(), row[1].decode("utf-8") if row[1] else None, row[2]


def events_decode(db):
    for row in db.execute("SELECT * FROM trigger_events").fetchall():
        for v in row:
            if isinstance(v, bytes):
                v.decode("utf-8")


def test_enum_check_refuses_bad_bytes(ext):
    for col in ("trigger_type", "status"):
        for bad in BAD:
            db = build(ext)
            try:
                db.execute(f"UPDATE triggers_data SET {col} = CAST(? AS TEXT)"
                           " WHERE trigger_id = 'a'", (bad,))
                assert False, (col, bad)
            except sqlite3.IntegrityError as e:
                assert "CHECK constraint failed" in str(e), e


def test_bad_bytes_in_a_trigger_text_pause_it(ext):
    for table, col, tid in TRIGGER_TEXTS:
        for bad in BAD:
            case = f"{table}.{col}={bad!r}"
            db = build(ext)
            rowid = one(db, "SELECT id FROM triggers_data WHERE trigger_id = ?", tid)
            db.execute(f"UPDATE {table} SET {col} = CAST(? AS TEXT) WHERE id = ?", (bad, rowid))
            got = json.loads(strict(db, "SELECT trigger_run_due(?)", T0 + MIN))
            claimed = sorted(r["trigger_id"] for r in got)
            assert claimed == sorted({"a", "b", "c"} - {tid}), (case, claimed)
            status, err, _ = state(db, rowid)
            assert status == "paused", (case, status)
            assert f"{table}.{col}: " in err and err.endswith("; trigger paused"), (case, err)
            if not (table == "triggers_state" and col in ("trigger_id", "agent_id")):
                assert ("not valid UTF-8 at byte" in err and "(0x" in err) or \
                    "a NUL byte at byte" in err, (case, err)
            # every later answer about it is text too
            for op in ("trigger_fire", "trigger_pause", "trigger_resume", "trigger_cancel"):
                db.execute("SAVEPOINT op")
                try:
                    strict(db, f"SELECT {op}(?, ?)", tid, T0 + MIN + 1)
                except sqlite3.Error:
                    pass
                db.execute("ROLLBACK TO op")
                db.execute("RELEASE op")
            strict(db, "SELECT trigger_run_due(?)", T0 + 2 * MIN)
            strict(db, "SELECT trigger_health(?)", T0 + 2 * MIN)
            events_decode(db)


def test_bad_bytes_in_a_run_id_or_its_trigger_id_are_refused(ext):
    for col in RUN_KEY_TEXTS:
        for bad in BAD:
            db = build(ext)
            claimed = json.loads(strict(db, "SELECT trigger_run_due(?)", T0 + MIN))
            [run] = [r for r in claimed if r["trigger_id"] == "a"]
            try:
                db.execute(f"UPDATE triggers_rundata SET {col} = CAST(? AS TEXT)"
                           " WHERE run_id = ?", (bad, run["run_id"]))
                assert False, (col, bad)
            except sqlite3.IntegrityError as e:
                assert "CHECK constraint failed" in str(e), (col, bad, e)
            assert one(db, "SELECT status FROM trigger_runs WHERE run_id = ?",
                       run["run_id"]) == b"running"


def test_bad_bytes_in_a_run_never_leave_it_waiting(ext):
    """A claimed run (its lease passes), a deferred one (re-offered) or one
    the host finishes, with bad bytes in a text column: the tick's result
    is text, the run is closed at once (never 'running' past its lease),
    and its trigger paused with a message that quotes no raw byte."""
    for col in RUN_TEXTS:
        for via in ("lease", "deferred", "finish"):
            for bad in BAD[:2]:
                case = f"{col}={bad!r}/{via}"
                db = build(ext)
                now = T0 + MIN
                claimed = json.loads(strict(db, "SELECT trigger_run_due(?, ?)", now,
                                            json.dumps({"lease_ms": MIN})))
                [run] = [r for r in claimed if r["trigger_id"] == "a"]
                rid = one(db, "SELECT id FROM triggers_rundata WHERE run_id = ?", run["run_id"])
                if via == "deferred":
                    strict(db, "SELECT trigger_run_finish(?, 'deferred', NULL, ?)",
                           run["run_id"], now + 1)
                db.execute(f"UPDATE triggers_rundata SET {col} = CAST(? AS TEXT) WHERE id = ?",
                           (bad, rid))
                if via == "finish":
                    strict(db, "SELECT trigger_run_finish(?, 'success', 'done', ?)",
                           run["run_id"], now + 2)
                later = now + MIN + 1
                got = json.loads(strict(db, "SELECT trigger_run_due(?, ?)", later,
                                        json.dumps({"lease_ms": MIN})))
                assert "b" in [r["trigger_id"] for r in got], (case, got)
                row = db.execute("SELECT status, error FROM triggers_rundata WHERE id = ?",
                                 (rid,)).fetchone()
                if not (col == "status" and via == "lease"):  # not found as running: held
                    assert row[0] != b"running" and row[0] != b"deferred", (case, row)
                    assert row[1] is None or row[1].decode("utf-8"), case
                stuck = one(db, "SELECT count(*) FROM triggers_rundata WHERE status = 'running'"
                            " AND lease_until <= ?", later)
                assert stuck == 0, case
                status, err, running = state(db, 1)
                assert status == "paused" and running == 0, (case, status, err, running)
                assert f"triggers_rundata.{col}: " in err or \
                    "triggers_state.running: 1, but no run" in err, (case, err)
                events_decode(db)


def held(ext, policy, edit):
    db = connect(ext)
    add(db, "a", overlap_policy=policy, start_at=T0)
    add(db, "b", overlap_policy="allow", start_at=T0)
    claimed = json.loads(one(db, "SELECT trigger_run_due(?, ?)", T0, json.dumps({"lease_ms": 10 * MIN})))
    [ra] = [r for r in claimed if r["trigger_id"] == "a"]
    db.execute(edit, (ra["run_id"],))
    return db, ra


def test_an_edited_running_run_never_holds_its_trigger(ext):
    """Issue 32, item 7: a running run deleted from the shadow table, or
    rewritten (status, trigger_id, incarnation), held its trigger for good
    under overlap skip and queue: no claim, trigger_health.stalled 0."""
    edits = ["DELETE FROM triggers_rundata WHERE run_id = ?",
             "UPDATE triggers_rundata SET status = 'success' WHERE run_id = ?",
             # the key rewritten with its run_id (either alone is refused)
             "UPDATE triggers_rundata SET trigger_id = 'elsewhere',"
             " run_id = 'elsewhere' || substr(run_id, instr(run_id, '@')) WHERE run_id = ?",
             "UPDATE triggers_rundata SET incarnation = 7, run_id = run_id || '~7'"
             " WHERE run_id = ?"]
    for policy in ("skip", "queue"):
        for edit in edits:
            case = (policy, edit)
            db, ra = held(ext, policy, edit)
            health = json.loads(one(db, "SELECT trigger_health(?)", T0 + MIN))
            assert health["stalled"] == 1, (case, health)
            got = json.loads(one(db, "SELECT trigger_run_due(?)", T0 + MIN))
            assert [r["trigger_id"] for r in got] == ["b"], (case, got)
            row = db.execute("SELECT t.status, t.last_error, s.running FROM triggers t JOIN"
                             " triggers_state s ON s.trigger_id = t.trigger_id"
                             " WHERE t.trigger_id = 'a'").fetchone()
            assert row[0] == "paused" and row[2] == 0, (case, row)
            assert row[1] == ("triggers_state.running: 1, but no run of the trigger is"
                              " 'running' in triggers_rundata (a run row deleted or changed"
                              " outside the extension); trigger paused"), (case, row)
            assert json.loads(one(db, "SELECT trigger_health(?)", T0 + MIN))["stalled"] == 0
            kinds = [k for (k,) in db.execute(
                "SELECT kind FROM trigger_events WHERE trigger_id = 'a'")]
            assert "auto_paused" in kinds, (case, kinds)
            # resumed: it runs again, held by nothing
            one(db, "SELECT trigger_resume('a', ?)", T0 + 2 * MIN)
            got = json.loads(one(db, "SELECT trigger_run_due(?)", T0 + 3 * MIN))
            assert "a" in [r["trigger_id"] for r in got], (case, got)


def test_a_live_hold_is_left_alone(ext):
    """No false alarm: a long run renewed by heartbeats holds its skip or
    queue trigger as before, also a retry (attempt 2 of an older
    occurrence) behind newer rows; the hold ends when it finishes."""
    for policy in ("skip", "queue"):
        db = connect(ext)
        add(db, "a", overlap_policy=policy, max_attempts=2, backoff_ms=0, start_at=T0)
        [r1] = json.loads(one(db, "SELECT trigger_run_due(?, ?)", T0, json.dumps({"lease_ms": MIN})))
        one(db, "SELECT trigger_run_finish(?, 'failed', 'x', ?)", r1["run_id"], T0 + 1)
        # the retry and the next occurrence: attempt 2 of T0 is claimed
        got = json.loads(one(db, "SELECT trigger_run_due(?, ?)", T0 + 2, json.dumps({"lease_ms": MIN})))
        assert [r["run_id"] for r in got] == [f"a@{T0}#2"], got
        run = got[0]["run_id"]
        for k in range(1, 8):
            now = T0 + k * MIN
            one(db, "SELECT trigger_run_heartbeat(?, ?, ?)", run, 2 * MIN, now - MIN // 2)
            assert json.loads(one(db, "SELECT trigger_run_due(?)", now)) == [], (policy, k)
            assert json.loads(one(db, "SELECT trigger_health(?)", now))["stalled"] == 0
            assert one(db, "SELECT status FROM triggers WHERE trigger_id = 'a'") == "scheduled"
        one(db, "SELECT trigger_run_finish(?, 'success', NULL, ?)", run, T0 + 8 * MIN - 1)
        got = json.loads(one(db, "SELECT trigger_run_due(?)", T0 + 8 * MIN))
        assert [r["trigger_id"] for r in got] == ["a"], (policy, got)
