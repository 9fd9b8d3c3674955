"""tests/py/test_finish_many_shapes.py -- trigger_run_finish_many arrays
of shapes beside test_run_report_args.py's: nested arrays and other
non-objects beside objects, a detail that is an object, an empty object,
a repeated run_id key (the last one counts), an escaped run_id, a NUL
escape (repaired, as trigger_run_finish repairs a detail: issue 32), and
malformed texts (a trailing comma, text after the array, a missing
comma)."""
import json
import sqlite3

from util import T0, add, connect, one, runs, tick

NOT_OBJECT = {"run_id": None, "ok": False, "error": "not an object"}


def many(db, text):
    return json.loads(one(db, "SELECT trigger_run_finish_many(?, ?)", text, T0 + 1))


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


# Details trigger_run_finish repairs (each invalid sequence and NUL ->
# U+FFFD): raw bytes, and in JSON also the escapes no text decodes to.
BAD_DETAILS = [b"x\xffy", b"x\x00y", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf4\x90\x80\x80",
               b"ab\xe2\x82", b"\x80\x80", b"ok \xe2\x82\xac \xfe"]
BAD_ESCAPES = [(b"x\\u0000y", "x\ufffdy"), (b"\\udc80", "\ufffd"), (b"a\\ud800b", "a\ufffdb")]


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
