"""tests/py/tick/test_run_report.py -- the host's reports (ext/tick/fn_run_report.c,
finish.c): trigger_run_finish, trigger_run_finish_many and
trigger_run_heartbeat. A finish's detail is `result` for a success or a
deferral and `error` for a failure (bounded, valid UTF-8; a deferred
result cleared on reclaim; a success without ack keeps last_error);
finish_many is finish one by one, in one transaction, each element of its
array refused alone (its run_id answered, the others finished) whatever
its shape, a bad detail repaired rather than the batch refused; a
heartbeat joins the caller's transaction, and renews a run claimed before
schema version 4 by its lease as claimed. Each function in a database
without the tables, with an unreadable `now`, runs that are no text and
lease_ms out of range."""
import json
import shutil
import sqlite3
import tempfile

from util import (MIN, T0, add, connect, dump, error, finish, from_fixture, one, runs, tick,
                  trig)

NOT_INSTALLED = "sqlite-triggers is not installed in this database (run sql/install.sql)"
GARBAGE = "cannot read 'garbage' as an instant: expected 4-digit year at offset 0, found 'garb'"


RUN = "t@1767225720000#1"  # claimed 1767225720000, lease until 1767225780000


def migrated(ext, tmp):
    db = from_fixture(ext, tmp, "schema_v3.sql")
    assert one(db, "SELECT trigger_install()") == 6
    return db


def beat(db, run_id, now):
    return json.loads(one(db, "SELECT trigger_run_heartbeat(?, NULL, ?)", run_id, now))


NOT_OBJECT = {"run_id": None, "ok": False, "error": "not an object"}


def many(db, text):
    return json.loads(one(db, "SELECT trigger_run_finish_many(?, ?)", text, T0 + 1))


# Details trigger_run_finish repairs (each invalid sequence and NUL ->
# U+FFFD): raw bytes, and in JSON also the escapes no text decodes to.
BAD_DETAILS = [b"x\xffy", b"x\x00y", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
               b"ab\xe2\x82", b"\x80\x80", b"ok \xe2\x82\xac \xfe"]


BAD_ESCAPES = [(b"x\\u0000y", "x\ufffdy"), (b"\\udc80", "\ufffd"), (b"a\\ud800b", "a\ufffdb")]


def test_without_tables(ext):
    bare = connect(ext, install=False)
    for fn, args in (("trigger_run_finish", "'r', 'success'"), ("trigger_run_finish_many", "'[]'"),
                     ("trigger_run_heartbeat", "'r'"), ("trigger_run_due", ""),
                     ("trigger_next_wakeup", ""), ("trigger_fire", "'x'"),
                     ("trigger_pause", "'x'")):
        assert error(bare, f"SELECT {fn}({args})") == f"{fn}: {NOT_INSTALLED}", fn


def test_argument_refusals(ext):
    db = connect(ext)
    add(db, "t", start_at=T0, max_attempts=3)
    [r] = tick(db, T0, lease_ms=5000)
    rid = r["run_id"]
    span = "argument 2 (lease_ms) must be an integer 1..315537897599999"
    for sql, why in (
        ("SELECT trigger_run_finish('r', 'success', NULL, 'garbage')",
         "trigger_run_finish: argument 4 (now): " + GARBAGE),
        ("SELECT trigger_run_finish_many('[]', 'garbage')",
         "trigger_run_finish_many: argument 2 (now): " + GARBAGE),
        ("SELECT trigger_run_heartbeat('r', NULL, 'garbage')",
         "trigger_run_heartbeat: argument 3 (now): " + GARBAGE),
        ("SELECT trigger_run_finish_many(5)",
         "trigger_run_finish_many: argument 1 (runs) must be text"),
        ("SELECT trigger_run_finish_many('{\"a\":1}')",
         "trigger_run_finish_many: argument 1 (runs) must be a JSON array of "
         "{run_id, status, detail} objects"),
        ("SELECT trigger_run_finish_many('[1,')",
         "trigger_run_finish_many: argument 1 (runs): malformed JSON"),
        (f"SELECT trigger_run_heartbeat('{rid}', 315537897600000)", "trigger_run_heartbeat: " + span),
        (f"SELECT trigger_run_heartbeat('{rid}', 1.5)", "trigger_run_heartbeat: " + span),
        (f"SELECT trigger_run_heartbeat('{rid}', 0)", "trigger_run_heartbeat: " + span),
    ):
        assert error(db, sql) == why, sql
    assert runs(db, "t")[0]["status"] == "running"


def test_finish_many_elements_refused_alone(ext):
    db = connect(ext)
    add(db, "t", start_at=T0)
    [r] = tick(db, T0)
    rid = r["run_id"]
    items = [{"run_id": 5, "status": "x"}, {"run_id": "a", "status": 5},
             {"run_id": "a", "status": "success", "detail": 5}, {"status": "success"},
             {"run_id": "x"}, {"run_id": "x", "status": "success", "detail": None}, 5,
             {"run_id": rid, "status": "success", "detail": None, "other": [1]}]
    got = json.loads(one(db, "SELECT trigger_run_finish_many(?, ?)", json.dumps(items), T0 + 1))
    assert got == [
        {"run_id": None, "ok": False, "error": "run_id must be a string"},
        {"run_id": "a", "ok": False, "error": "status must be a string"},
        {"run_id": "a", "ok": False, "error": "detail must be a string or null"},
        {"run_id": None, "ok": False, "error": "run_id is missing"},
        {"run_id": "x", "ok": False, "error": "status is missing"},
        {"run_id": "x", "ok": False, "error": "unknown run_id 'x'"},
        {"run_id": None, "ok": False, "error": "not an object"},
        {"run_id": rid, "ok": True},
    ], got
    assert runs(db, "t")[0]["status"] == "success"
    # the usual shape, read without json1: missing members
    got = json.loads(one(db, "SELECT trigger_run_finish_many(?)",
                         '[{"status":"success"},{"run_id":"x"},'
                         '{"run_id":"y","status":"success","detail":null}]'))
    assert [g["error"] for g in got] == ["run_id is missing", "status is missing",
                                         "unknown run_id 'y'"], got


def test_heartbeat_in_transactions_and_health(ext):
    # A heartbeat joins the caller's transaction (rolled back with it), a
    # renewed run is not an expired lease for trigger_health nor reclaimed
    # by the tick, and a refused heartbeat leaves the run as it was.
    db = connect(ext)
    add(db, "t", max_attempts=2)
    [run] = tick(db, T0 + MIN, lease_ms=10000)
    rid = run["run_id"]
    beat = lambda now, *lease: json.loads(one(
        db, f"SELECT trigger_run_heartbeat(?, {'?' if lease else 'NULL'}, ?)",
        rid, *lease, now))
    db.execute("BEGIN IMMEDIATE")
    assert beat(T0 + MIN + 5000)["lease_until"] == T0 + MIN + 15000
    db.execute("ROLLBACK")
    assert one(db, "SELECT lease_until FROM trigger_runs") == T0 + MIN + 10000
    got = beat(T0 + MIN + 9000, 30000)
    assert (got["run_id"], got["status"], got["lease_until"]) == (rid, "running", T0 + MIN + 39000)
    assert set(got) == {r[1] for r in db.execute("PRAGMA table_info(trigger_runs)")}
    health = json.loads(one(db, "SELECT trigger_health(?)", T0 + MIN + 20000))
    assert (health["running"], health["expired_leases"]) == (1, 0), health
    assert tick(db, T0 + MIN + 20000) == []
    try:
        beat(T0 + MIN + 39000)
        raise AssertionError("expected an error")
    except sqlite3.OperationalError as e:
        assert str(e).startswith(f"trigger_run_heartbeat: run '{rid}': its lease passed"), e
    assert one(db, "SELECT lease_until FROM trigger_runs") == T0 + MIN + 39000
    assert [r["attempt"] for r in tick(db, T0 + MIN + 39000)] == [2]


def test_element_shapes(ext):
    db = connect(ext)
    add(db, "t", start_at=T0)
    [r] = tick(db, T0)
    rid = r["run_id"]
    assert many(db, json.dumps([[1, 2], {"run_id": "x", "status": "success",
                                          "detail": {"a": [1]}}])) == [
        NOT_OBJECT, {"run_id": "x", "ok": False, "error": "detail must be a string or null"}]
    assert many(db, json.dumps([[{"run_id": "y"}], "s", None, {}])) == [
        NOT_OBJECT, NOT_OBJECT, NOT_OBJECT,
        {"run_id": None, "ok": False, "error": "run_id is missing"}]
    text = '[{"run_id":"%s","status":"success","run_id":"z"}]' % rid
    assert many(db, text) == [{"run_id": "z", "ok": False, "error": "unknown run_id 'z'"}]
    assert many(db, '[{"run_id":"\\u0061","status":"success"}]') == [
        {"run_id": "a", "ok": False, "error": "unknown run_id 'a'"}]
    assert runs(db, "t")[0]["status"] == "running"
    for bad in ('[{"run_id":"a","status":"success"},]', '[{"run_id":"a","status":"success"}] x',
                '[{"run_id":"a" "status":"success"}]'):
        try:
            many(db, bad)
            assert False, bad
        except sqlite3.Error as e:
            assert str(e) == "trigger_run_finish_many: argument 1 (runs): malformed JSON", bad
    assert many(db, json.dumps([{"run_id": rid, "status": "success"}])) == [
        {"run_id": rid, "ok": True}]


def test_one_bad_detail_is_repaired_not_the_batch_refused(ext):
    """Issue 32, item 14: one element's detail with invalid UTF-8, a NUL or
    a bad escape fails neither the batch nor its own report: the detail is
    stored repaired exactly as trigger_run_finish stores the same bytes;
    a run_id or status with such bytes refuses its element alone (the
    answer quotes no raw byte); a wrong type refuses its element alone, as
    finish refuses that argument."""
    for status in ("success", "failed"):
        col = "error" if status == "failed" else "result"
        for bad in BAD_DETAILS:
            db = connect(ext)
            add(db, "a", start_at=T0)
            add(db, "b", start_at=T0)
            add(db, "c", start_at=T0)
            ids = {r["trigger_id"]: r["run_id"] for r in tick(db, T0)}
            one(db, "SELECT trigger_run_finish(?, ?, CAST(? AS TEXT), ?)", ids["c"], status, bad, T0 + 1)
            text = b'[{"run_id":"%s","status":"%s","detail":"%s"},{"run_id":"%s","status":"success"}]' % (
                ids["a"].encode(), status.encode(), bad, ids["b"].encode())
            got = json.loads(one(db, "SELECT trigger_run_finish_many(CAST(? AS TEXT), ?)", text, T0 + 1))
            assert got == [{"run_id": ids["a"], "ok": True}, {"run_id": ids["b"], "ok": True}], (bad, got)
            stored = {r["trigger_id"]: r[col] for r in runs(db)}
            want = bad.decode("utf-8", "replace").replace("\x00", "\ufffd")
            assert stored["a"] == stored["c"] == want, (bad, stored)
    db = connect(ext)
    add(db, "a", start_at=T0)
    add(db, "b", start_at=T0)
    ids = {r["trigger_id"]: r["run_id"] for r in tick(db, T0)}
    for esc, want in BAD_ESCAPES:
        text = b'[{"run_id":"%s","status":"deferred","detail":"%s"}]' % (ids["a"].encode(), esc)
        assert many(db, text.decode()) == [{"run_id": ids["a"], "ok": True}]
        assert runs(db, "a")[0]["result"] == want
        tick(db, T0 + 2)  # re-offered: running again
    # a run_id, a status or a key with bad bytes: its element alone
    text = (b'[{"run_id":"%s\xff","status":"success"},{"run_id":"%s","status":"succ\xffess"},'
            b'{"run_id":"%s","status":"success","x\xff":"1","detail":5}]'
            % (ids["a"].encode(), ids["a"].encode(), ids["b"].encode()))
    got = json.loads(one(db, "SELECT trigger_run_finish_many(CAST(? AS TEXT), ?)", text, T0 + 3))
    assert [g["ok"] for g in got] == [False, False, False], got
    assert got[0]["run_id"] == ids["a"] + "\ufffd" and "run_id is not valid UTF-8" in got[0]["error"], got
    assert "status" in got[1]["error"] and got[2]["error"] == "detail must be a string or null", got
    assert [r["status"] for r in runs(db)] == ["running", "running"]
    # bytes outside every string: not JSON, the call fails naming the byte
    try:
        one(db, "SELECT trigger_run_finish_many(CAST(? AS TEXT), ?)", b'[\xff]', T0 + 3)
        assert False
    except sqlite3.Error as e:
        assert str(e) == ("trigger_run_finish_many: argument 1 (runs): not valid UTF-8 at byte 1 "
                          "(0xff: a byte that never appears in UTF-8)"), str(e)


def test_lease_as_claimed(ext):
    tmp = tempfile.mkdtemp()
    try:
        db = migrated(ext, tmp)
        assert one(db, "SELECT lease_ms FROM triggers_rundata WHERE run_id = ?", RUN) is None
        now = 1767225750000
        beat(db, RUN, now)
        assert one(db, "SELECT lease_until FROM trigger_runs WHERE run_id = ?", RUN) == now + 60000
        # a claim after its lease (changed outside): the default lease
        db.execute("UPDATE triggers_rundata SET claimed_at = lease_until + 1 WHERE run_id = ?",
                   (RUN,))
        until = one(db, "SELECT lease_until FROM trigger_runs WHERE run_id = ?", RUN)
        beat(db, RUN, now + 1)
        got = one(db, "SELECT lease_until FROM trigger_runs WHERE run_id = ?", RUN)
        assert got > now + 1 and got != until, (got, until)
        # a running run without a lease: refused by the table's CHECK
        # (schema version 6), not left for the heartbeat to find
        try:
            db.execute("UPDATE triggers_rundata SET lease_until = NULL WHERE run_id = ?",
                       (RUN,))
            raise AssertionError("written")
        except sqlite3.IntegrityError as e:
            assert "CHECK constraint failed: status <> 'running' OR lease_until IS NOT NULL" \
                in str(e), e
        beat(db, RUN, now + 2)
    finally:
        shutil.rmtree(tmp)


def test_finish_detail_is_result_or_error(ext):
    db = connect(ext)
    add(db, "t", overlap_policy="allow")
    [a] = tick(db, T0 + MIN, lease_ms=10 * MIN)
    [b] = tick(db, T0 + 2 * MIN, lease_ms=10 * MIN)
    [c] = tick(db, T0 + 3 * MIN, lease_ms=10 * MIN)
    t = finish(db, b["run_id"], "failed", "quota exceeded", now=T0 + 3 * MIN + 1)
    assert (t["last_status"], t["last_error"]) == ("failed", "quota exceeded"), t
    t = finish(db, a["run_id"], "success", "summary: all green", now=T0 + 3 * MIN + 2)
    # last_error is the last failure's error: a success leaves it
    assert (t["last_status"], t["last_error"]) == ("success", "quota exceeded"), t
    finish(db, c["run_id"], "skipped", "nothing to do", now=T0 + 3 * MIN + 3)
    got = {r["run_id"]: (r["status"], r["error"], r["result"]) for r in runs(db, "t")}
    assert got == {a["run_id"]: ("success", None, "summary: all green"),
                   b["run_id"]: ("failed", "quota exceeded", None),
                   c["run_id"]: ("skipped", None, "nothing to do")}, got
    cols = [x[1] for x in db.execute("PRAGMA table_info(trigger_runs)")]
    assert cols[cols.index("error") + 1] == "result", cols


def test_result_bounded_and_valid_utf8(ext):
    db = connect(ext)
    add(db, "t", overlap_policy="allow")
    ids = [tick(db, T0 + k * MIN, lease_ms=10 * MIN)[0]["run_id"] for k in (1, 2, 3)]
    long = "é" * 3000                        # 6000 bytes, 2 per character
    finish(db, ids[0], "success", long, now=T0 + 4 * MIN)
    got = one(db, "SELECT result FROM trigger_runs WHERE run_id = ?", ids[0])
    assert got == "é" * 2048 and len(got.encode()) == 4096, len(got.encode())
    odd = "x" + "é" * 3000                   # the 4096th byte is mid-character
    finish(db, ids[1], "success", odd, now=T0 + 4 * MIN)
    got = one(db, "SELECT result FROM trigger_runs WHERE run_id = ?", ids[1])
    assert got == "x" + "é" * 2047 and len(got.encode()) == 4095
    bad = b"ok \xff\xfe then \xe2\x82"        # invalid bytes, a cut sequence
    db.execute("SELECT trigger_run_finish(?, 'success', CAST(? AS TEXT), ?)",
               (ids[2], bad, T0 + 4 * MIN))
    got = one(db, "SELECT CAST(result AS BLOB) FROM trigger_runs WHERE run_id = ?", ids[2])
    assert got.decode("utf-8") == "ok \ufffd\ufffd then \ufffd", got


def test_deferred_result_cleared_on_reclaim(ext):
    db = connect(ext)
    add(db, "t")
    [r] = tick(db, T0 + MIN)
    finish(db, r["run_id"], "deferred", "no autonomy loop yet", now=T0 + MIN + 1)
    assert runs(db, "t")[0]["result"] == "no autonomy loop yet"
    [again] = tick(db, T0 + MIN + 2)
    assert again["run_id"] == r["run_id"]
    assert runs(db, "t")[0]["result"] is None


def test_no_ack_success_keeps_last_error(ext):
    db = connect(ext)
    add(db, "t")
    [r] = tick(db, T0 + MIN)
    finish(db, r["run_id"], "failed", "boom", now=T0 + MIN + 1)
    tick(db, T0 + 2 * MIN, ack=False)
    t = trig(db, "t")
    assert (t["last_status"], t["last_error"], t["run_count"]) == ("success", "boom", 2), t


def test_finish_many_in_one_transaction(ext):
    # A host writes many reports in one transaction of its own (trigger-host
    # does: host/db/reports.c). Each trigger_run_finish runs in its own
    # SAVEPOINT (statements cached on the connection): a refused one undoes
    # only itself, the others commit with the caller's COMMIT, and every run
    # and trigger ends as if each had been finished alone.
    def setup():
        db = connect(ext)
        for k in range(6):
            add(db, f"t{k}", max_attempts=2)
        claimed = tick(db, T0 + MIN, lease_ms=10 * MIN)
        assert len(claimed) == 6
        return db, claimed

    outcomes = [("success", "ok"), ("failed", "boom"), ("skipped", None),
                ("deferred", None), ("success", None), ("failed", None)]
    alone, claimed = setup()
    ids = [r["run_id"] for r in claimed]
    for rid, (status, detail) in zip(ids, outcomes):
        finish(alone, rid, status, detail, now=T0 + MIN + 5)
    batch, claimed2 = setup()
    assert claimed2 == claimed
    finish(batch, ids[2], "skipped", None, now=T0 + MIN + 1)  # finished before
    batch.execute("BEGIN IMMEDIATE")
    refused = []
    for i, (rid, (status, detail)) in enumerate(zip(ids, outcomes)):
        try:
            finish(batch, rid, status, detail, now=T0 + MIN + 5)
        except sqlite3.Error as e:
            refused.append((i, str(e)))
        if i == 3:  # an unknown run, refused, in the middle of the batch
            try:
                finish(batch, "nope@1#1", "success", now=T0 + MIN + 5)
            except sqlite3.Error as e:
                refused.append(("nope", str(e)))
    assert batch.in_transaction
    batch.execute("COMMIT")
    assert [i for i, _ in refused] == [2, "nope"], refused
    assert "already finished" in refused[0][1] and "unknown run_id" in refused[1][1]
    state = "SELECT trigger_id, status, run_count, last_status, last_error, " \
            "next_due_at, enabled FROM triggers ORDER BY trigger_id"
    run_state = "SELECT run_id, trigger_id, agent_id, scheduled_for, attempt, status, " \
                "error, result, finished_at, payload FROM trigger_runs ORDER BY run_id"
    got, want = batch.execute(state).fetchall(), alone.execute(state).fetchall()
    # t2 was finished at T0+MIN+1 in the batch database, at +5 alone
    assert got == want, (got, want)
    got_runs = [r for r in batch.execute(run_state).fetchall() if r[1] != "t2"]
    want_runs = [r for r in alone.execute(run_state).fetchall() if r[1] != "t2"]
    assert got_runs == want_runs, (got_runs, want_runs)
    # the narrow run UPDATE left each run's identity and payload as claimed
    payloads = {r["run_id"]: r["payload"] for r in claimed}
    for (rid, tid, _agent, sched, attempt, *_rest, payload) in got_runs:
        assert rid == f"{tid}@{sched}#{attempt}", rid
        assert json.loads(payload) == payloads[rid], (payload, payloads[rid])
    # a heartbeat inside the caller's transaction: its own SAVEPOINT too
    [again] = [r for r in tick(batch, T0 + MIN + 6, lease_ms=10 * MIN) if r["trigger_id"] == "t3"]
    batch.execute("BEGIN IMMEDIATE")
    one(batch, "SELECT trigger_run_heartbeat(?, ?, ?)", again["run_id"], 20 * MIN, T0 + MIN + 7)
    try:
        one(batch, "SELECT trigger_run_heartbeat(?, ?, ?)", ids[0], 20 * MIN, T0 + MIN + 7)
        raise AssertionError("a finished run's heartbeat was accepted")
    except sqlite3.Error as e:
        assert "not running" in str(e) or "finished" in str(e), e
    batch.execute("COMMIT")
    assert one(batch, "SELECT lease_until FROM trigger_runs WHERE run_id = ?",
               again["run_id"]) == T0 + MIN + 7 + 20 * MIN


def test_finish_many_is_finish_one_by_one(ext):
    # trigger_run_finish_many(runs, now) writes what one trigger_run_finish
    # per element would (every shadow row the same), answers one element
    # per report in order, and a refused report (unknown run, already
    # finished, a bad element) is undone alone. The JSON shapes json1 reads
    # (a \\u escape, a number) give the same as the usual shape.
    def setup():
        db = connect(ext)
        for k in range(8):
            add(db, f"t{k}", max_attempts=2, pause_after_failures=1 if k == 5 else None)
        claimed = tick(db, T0 + MIN, lease_ms=10 * MIN)
        assert len(claimed) == 8
        return db, [r["run_id"] for r in claimed]

    now = T0 + MIN + 5
    reports = [("success", "ok \u00e9 \"q\""), ("failed", "boom"), ("skipped", None),
               ("deferred", None), ("success", None), ("failed", "x"),
               ("success", "caf\u00e9"), ("failed", None)]
    alone, ids = setup()
    finish(alone, ids[2], "skipped", None, now=now)
    for rid, (status, detail) in zip(ids, reports):
        if rid != ids[2]:
            finish(alone, rid, status, detail, now=now)
    for shape in ("plain", "json1"):
        many, ids2 = setup()
        assert ids2 == ids
        finish(many, ids[2], "skipped", None, now=now)
        items = [{"run_id": rid, "status": st, "detail": d}
                 for rid, (st, d) in zip(ids, reports)]
        items.insert(4, {"run_id": "nope@1#1", "status": "success"})
        items.insert(5, {"run_id": ids[4], "status": "done"})
        items.insert(6, ["not", "an", "object"] if shape == "json1"
                     else {"run_id": None, "status": "success"})
        if shape == "json1":
            items[0]["extra"] = 1.5  # a number: read by json_tree instead
        text = json.dumps(items, ensure_ascii=(shape == "json1"))
        answer = json.loads(one(many, "SELECT trigger_run_finish_many(?, ?)", text, now))
        assert [a["run_id"] for a in answer] == [i.get("run_id") if isinstance(i, dict) else None
                                                 for i in items], answer
        bad = {i: a["error"] for i, a in enumerate(answer) if not a["ok"]}
        assert sorted(bad) == [2, 4, 5, 6], answer
        assert "already finished" in bad[2] and "unknown run_id" in bad[4], bad
        assert "status" in bad[5], bad
        assert bad[6] == ("not an object" if shape == "json1" else "run_id must be a string"), bad
        assert dump(many) == dump(alone), shape
    # the whole call fails for an argument that is not an array of objects
    for text in ("{}", "[1", "3"):
        try:
            one(alone, "SELECT trigger_run_finish_many(?)", text)
            raise AssertionError(text)
        except sqlite3.Error as e:
            assert "trigger_run_finish_many: argument 1 (runs)" in str(e), e
    # a bad escape inside a string is repaired there, not the whole call
    # refused: the element is still no object
    assert json.loads(one(alone, "SELECT trigger_run_finish_many(?)", "[\"\\u0000\"]")) == [
        {"run_id": None, "ok": False, "error": "not an object"}]
    assert one(alone, "SELECT trigger_run_finish_many('[]')") == "[]"
    # inside the caller's transaction: its SAVEPOINTs, the caller commits
    alone.execute("BEGIN IMMEDIATE")
    again = tick(alone, T0 + 2 * MIN, lease_ms=MIN)
    answer = json.loads(one(alone, "SELECT trigger_run_finish_many(?, ?)",
                            json.dumps([{"run_id": r["run_id"], "status": "success"}
                                        for r in again]), T0 + 2 * MIN + 1))
    assert alone.in_transaction and all(a["ok"] for a in answer), answer
    alone.execute("COMMIT")
