"""tests/py/test_finish_many_shapes.py -- trigger_run_finish_many arrays
of shapes beside test_run_report_args.py's: nested arrays and other
non-objects beside objects, a detail that is an object, an empty object,
a repeated run_id key (the last one counts), an escaped run_id, a NUL
escape (refused with its byte), and malformed texts (a trailing comma,
text after the array, a missing comma)."""
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
    text = '[{"run_id":"%s","status":"failed","detail":"x\\u0000"}]' % rid
    try:
        many(db, text)
        assert False
    except sqlite3.Error as e:
        assert str(e) == ("trigger_run_finish_many: argument 1 (runs): the escape \\u0000 "
                          "at byte %d is a NUL (text may not contain NUL)" % (text.index("\\u0000"))), str(e)
    for bad in ('[{"run_id":"a","status":"success"},]', '[{"run_id":"a","status":"success"}] x',
                '[{"run_id":"a" "status":"success"}]'):
        try:
            many(db, bad)
            assert False, bad
        except sqlite3.Error as e:
            assert str(e) == "trigger_run_finish_many: argument 1 (runs): malformed JSON", bad
    assert many(db, json.dumps([{"run_id": rid, "status": "success"}])) == [
        {"run_id": rid, "ok": True}]
