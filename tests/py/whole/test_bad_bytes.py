"""tests/py/whole/test_bad_bytes.py -- every TEXT the extension stores or returns
is valid UTF-8 without NUL (docs/reliability.md#guarantees, "bad bytes"): input text
that is not (raw bytes, JSON escapes \\u0000 and lone surrogates, embedded
NULs) is refused with the field named and nothing changed; a host's report
(trigger_run_finish's error/note, the host's stderr tail) and the summary's
admin items are repaired with U+FFFD instead; and a Python host's tick
after an attempted bad create never fails to decode."""
import json
import os
import random
import sqlite3
import subprocess
import time

from util import MIN, T0, add, connect, dump, one, runs, tick

CTX = json.dumps({"agent_id": "a1", "role": "owner", "now": T0})
FFFD = "\ufffd"
# bytes that are not UTF-8, each as a SQL expression of TEXT type
BAD_SQL = {
    "0xff": "CAST(x'ff' AS TEXT)",
    "surrogate": "char(56448)",  # U+DC80 encoded in 3 bytes
    "overlong": "CAST(x'c0af' AS TEXT)",
    "truncated": "CAST(x'e282' AS TEXT)",
    "nul": "char(0)",
}


def text_problems(db):
    """Every shadow-table TEXT value that is not valid UTF-8 without NUL."""
    bad = []
    db.text_factory = bytes
    try:
        for table in ("triggers_data", "triggers_state", "triggers_rundata", "triggers_config"):
            cur = db.execute(f"SELECT * FROM {table}")
            names = [d[0] for d in cur.description]
            for row in cur:
                for name, v in zip(names, row):
                    if isinstance(v, bytes):
                        try:
                            s = v.decode("utf-8")
                        except UnicodeDecodeError as e:
                            bad.append((table, name, v, str(e)))
                            continue
                        if "\x00" in s:
                            bad.append((table, name, v, "NUL"))
    finally:
        db.text_factory = str
    return bad


def create(db, request, context=CTX):
    return json.loads(one(db, "SELECT trigger_create(?, ?)", request, context))


def refused(db, sql, args, want):
    before = dump(db)
    try:
        db.execute(sql, args).fetchall()
    except sqlite3.Error as e:
        assert want in str(e), f"{sql}\n  got:  {e}\n  want: {want}"
    else:
        assert False, f"no error for: {sql}"
    assert dump(db) == before, f"state changed by: {sql}"
    assert not db.in_transaction


def test_create_with_bad_json_escapes_is_refused_and_ticks_decode(ext):
    # The full scenario of issue #14: a create with a lone surrogate used to
    # store it, and from then on every Python tick failed to decode after
    # it had committed, losing the runs it claimed.
    db = connect(ext)
    add(db, "good", created_at=T0 - MIN)
    before = dump(db)
    for text, what in [("Ping \udc80", "lone surrogate"), ("Ping \ud800", "lone surrogate"),
                       ("\ud800x", "lone surrogate"), ("a\x00b", "NUL")]:
        req = json.dumps({"instructions": text, "trigger_type": "interval", "interval_ms": 3600000})
        assert "\\u" in req  # json.dumps escapes them: the request is ASCII
        res = create(db, req)
        assert res["success"] is False and res["error"] == "INVALID_REQUEST", res
        assert res["reason"].startswith("request.instructions: "), res
        assert what in res["reason"], res
        assert dump(db) == before
    # the same inside metadata, in the context, and raw bytes in the text
    res = create(db, json.dumps({"instructions": "x", "trigger_type": "interval",
                                 "interval_ms": 3600000, "metadata": {"k": ["\udfff"]}}))
    assert res["error"] == "INVALID_REQUEST" and res["reason"].startswith("request.metadata: "), res
    res = create(db, '{"instructions":"x","trigger_type":"interval","interval_ms":3600000}',
                 json.dumps({"agent_id": "a\udc80", "role": "owner", "now": T0}))
    assert res["error"] == "INVALID_REQUEST" and res["reason"].startswith("context.agent_id: "), res
    res = json.loads(one(db, "SELECT trigger_create('{\"instructions\":\"a' || CAST(x'ff' AS TEXT)"
                             " || '\",\"trigger_type\":\"interval\",\"interval_ms\":3600000}', ?)", CTX))
    assert res["error"] == "INVALID_REQUEST", res
    assert "request.instructions: not valid UTF-8 at byte 18 (0xff" in res["reason"], res
    res = json.loads(one(db, "SELECT trigger_create('{\"instructions\":\"a' || char(0) || 'b\"}', ?)", CTX))
    assert res["error"] == "INVALID_REQUEST" and "a NUL byte at byte 18" in res["reason"], res
    assert dump(db) == before
    # a valid surrogate pair is one character, and fine
    res = create(db, json.dumps({"instructions": "Ping \U0001F600", "trigger_type": "interval",
                                 "interval_ms": 3600000}))
    assert res["success"] is True, res
    assert one(db, "SELECT instructions FROM triggers WHERE trigger_id = ?", res["triggerId"]) == "Ping \U0001F600"
    # the host's tick from Python decodes, and every claimed run is reported
    got = tick(db, T0 + 10 * MIN, owner="py")
    assert [r["trigger_id"] for r in got] == ["good"]
    for r in got:
        one(db, "SELECT trigger_run_finish(?, 'success')", r["run_id"])
    assert all(r["status"] != "running" for r in runs(db))
    assert text_problems(db) == []


# (statement, args, expected message fragment): refused, nothing changed
BAD_INPUTS = [
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms) VALUES ('a' || {0xff}, 'interval', 60000)", (),
     "triggers.instructions: not valid UTF-8 at byte 1 (0xff: a byte that never appears in UTF-8)"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms) VALUES ({surrogate}, 'interval', 60000)", (),
     "triggers.instructions: not valid UTF-8 at byte 0 (0xed: an encoded surrogate"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms) VALUES ({overlong}, 'interval', 60000)", (),
     "triggers.instructions: not valid UTF-8 at byte 0 (0xc0: an overlong encoding)"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms) VALUES ('ab' || {truncated}, 'interval', 60000)", (),
     "triggers.instructions: not valid UTF-8 at byte 2 (0xe2 0x82: a truncated sequence)"),
    ("INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms) VALUES ('t2' || {nul} || 'evil', 'x', 'interval', 60000)", (),
     "triggers.trigger_id: a NUL byte at byte 2"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, timezone) VALUES ('x', 'interval', 60000, 'UTC' || {nul} || 'x')", (),
     "triggers.timezone: a NUL byte at byte 3"),
    ("INSERT INTO triggers(instructions, trigger_type, interval_ms, metadata) VALUES ('x', 'interval', 60000, '{{\"a\":\"\\udc80\"}}')", (),
     "triggers.metadata.a: the escape \\udc80 at byte 6 is a lone surrogate"),
    ("INSERT INTO triggers(instructions, trigger_type, scheduled_at) VALUES ('x', 'once', '2026-01-01' || {0xff})", (),
     "triggers.scheduled_at: not valid UTF-8 at byte 10"),
    ("UPDATE triggers SET display_name = 'x' || {surrogate}", (),
     "triggers.display_name: not valid UTF-8 at byte 1"),
    ("UPDATE triggers SET scope = {nul}", (), "triggers.scope: a NUL byte at byte 0"),
    ("SELECT trigger_config('creator_roles', 'owner' || {nul} || ',agent')", (),
     "trigger_config: argument 2 (value): a NUL byte at byte 5"),
    ("SELECT trigger_config('creator_roles', 'owner,' || {0xff})", (),
     "trigger_config: argument 2 (value): not valid UTF-8 at byte 6"),
    ("SELECT trigger_config('min_interval_ms', '6000' || {0xff})", (),
     "trigger_config: argument 2 (value): not valid UTF-8 at byte 4"),
    ("SELECT trigger_fire('keep' || {nul} || 'evil')", (), "trigger_fire: argument 1 (trigger_id): a NUL byte at byte 4"),
    ("SELECT trigger_pause('keep' || {surrogate})", (), "trigger_pause: argument 1 (trigger_id): not valid UTF-8"),
    ("SELECT trigger_run_finish('keep@1#1' || {nul}, 'success')", (),
     "trigger_run_finish: argument 1 (run_id): a NUL byte at byte 8"),
    ("SELECT trigger_run_due(NULL, '{{\"owner\":\"\\udc80\"}}')", (),
     "trigger_run_due: options.owner: the escape \\udc80 at byte 10 is a lone surrogate"),
    ("SELECT trigger_run_due(NULL, '{{\"owner\":\"a\\u0000b\"}}')", (),
     "trigger_run_due: options.owner: the escape \\u0000 at byte 11 is a NUL"),
    ("SELECT trigger_run_due(NULL, '{{\"owner\":\"' || {0xff} || '\"}}')", (),
     "trigger_run_due: options.owner: not valid UTF-8 at byte 10"),
    ("SELECT trigger_iso(0, 'UTC' || {nul})", (), "trigger_iso: argument 2 (tz): a NUL byte at byte 3"),
    ("SELECT trigger_iso('2026-01-01' || {0xff})", (), "trigger_iso: argument 1 (ms): not valid UTF-8 at byte 10"),
    ("SELECT trigger_next_due('{{\"interval_ms\":60000,\"timezone\":\"UTC\\u0000x\"}}', 0)", (),
     "trigger_next_due: argument 1 (spec).timezone: the escape \\u0000 at byte 36 is a NUL"),
    ("SELECT trigger_next_due('0 7 * * *' || {nul} || 'x', 0)", (),
     "trigger_next_due: argument 1 (spec): a NUL byte at byte 9"),
    ("SELECT trigger_next_due('0 7 * * *', 0, 'Europe/Berlin' || {nul})", (),
     "trigger_next_due: argument 3 (tz): a NUL byte at byte 13"),
    ("SELECT * FROM trigger_preview('0 7 * * *' || {0xff}, 0)", (), "argument 1 (spec): not valid UTF-8 at byte 9"),
    ("SELECT trigger_dedupe_key('x' || {nul} || 'y', 'interval', 60000, '')", (),
     "trigger_dedupe_key: argument 1 (instructions): a NUL byte at byte 1"),
    ("SELECT trigger_dedupe_key('x', 'interval', '6000' || {0xff}, '')", (),
     "trigger_dedupe_key: argument 3 (schedule): not valid UTF-8 at byte 4"),
    ("SELECT trigger_parse_when('in 2 hours' || {surrogate})", (),
     "trigger_parse_when: argument 1 (phrase): not valid UTF-8 at byte 10"),
]


def test_bad_input_text_is_refused_naming_the_field(ext):
    db = connect(ext)
    add(db, "keep")
    tick(db, T0 + MIN)  # a running run
    assert len(BAD_INPUTS) >= 20
    for sql, args, want in BAD_INPUTS:
        refused(db, sql.format(**BAD_SQL), args, want)
    # nothing was truncated into another trigger's id
    assert [r["trigger_id"] for r in runs(db)] == ["keep"]
    assert text_problems(db) == []


def test_error_messages_never_echo_bad_bytes(ext):
    # A message that quoted the input would itself not decode.
    db = connect(ext)
    for sql in ["SELECT trigger_iso(0, 'Mars/' || CAST(x'ff' AS TEXT))",
                "SELECT trigger_run_due(CAST(x'ff' AS TEXT))",
                "SELECT trigger_next_due(CAST(x'ff' AS TEXT), 0)",
                "SELECT trigger_config(CAST(x'ff' AS TEXT))",
                "SELECT trigger_health(0, '{\"a' || CAST(x'ff' AS TEXT) || '\":1}')",
                "SELECT trigger_health(0, '{\"scope\":\"' || char(56448) || '\"}')"]:
        try:
            db.execute(sql).fetchall()
            assert False, sql
        except sqlite3.Error as e:
            str(e).encode("utf-8")  # decodable, no surrogate escapes
            assert "\udcff" not in str(e) and FFFD not in str(e), (sql, str(e))


def python_repair(b):
    """What the extension must store for host bytes b: Python's own
    errors='replace' (the same maximal-subpart rule), NUL -> U+FFFD."""
    return b.decode("utf-8", "replace").replace("\x00", FFFD)


def test_host_reports_are_repaired_not_lost(ext):
    db = connect(ext)
    add(db, "h", instructions="do h", interval_ms=60000, max_attempts=1)
    now = T0 + MIN
    rng = random.Random(14)
    samples = [b"\xff\xfe", b"ok \xe2\x82", b"\xed\xa0\x80 lone", b"\xf4\x90\x80\x80 big",
               b"\xc0\xaf overlong", b"a\x00b", b"\xe2\x82\xac fine \xf0\x9f\x98\x80", b"\x80\x80"]
    samples += [bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40))) for _ in range(200)]
    for i, b in enumerate(samples):
        run = json.loads(one(db, "SELECT trigger_fire('h', ?)", now + i))
        status = "failed" if i % 2 else "success"
        one(db, "SELECT trigger_run_finish(?, ?, CAST(? AS TEXT), ?)", run["run_id"], status, b, now + i)
        col = "error" if status == "failed" else "result"  # a success's detail is its result
        got = one(db, f"SELECT {col} FROM trigger_runs WHERE run_id = ?", run["run_id"])
        assert got == python_repair(b), (b, got)
        if status == "failed":
            assert one(db, "SELECT last_error FROM triggers WHERE trigger_id = 'h'") == python_repair(b)
    # bytes as they came (a BLOB) are a report too; a number is not text
    run = json.loads(one(db, "SELECT trigger_fire('h', ?)", now + 1000))
    one(db, "SELECT trigger_run_finish(?, 'failed', ?, ?)", run["run_id"], b"\xff oops\x00", now + 1000)
    assert one(db, "SELECT error FROM trigger_runs WHERE run_id = ?", run["run_id"]) == FFFD + " oops" + FFFD
    run = json.loads(one(db, "SELECT trigger_fire('h', ?)", now + 2000))
    refused(db, "SELECT trigger_run_finish(?, 'failed', 42)", (run["run_id"],),
            "trigger_run_finish: argument 3 (detail) must be text")
    assert text_problems(db) == []


def test_summary_admin_items_are_repaired(ext):
    db = connect(ext)
    add(db, "s", agent_id="a1")
    opts = json.dumps({"admin": [{"ts": T0, "text": "lone \udc80 here"},
                                 {"ts": T0 - 1, "text": "nul a\x00b"}]})
    raw = ('{"admin":[{"ts":%d,"text":"raw \xff\xfe bytes"}]}' % T0).encode("latin-1")
    for o, want in [(opts, ["lone \ufffd here", "nul a\ufffdb"]), (raw, ["raw \ufffd\ufffd bytes"])]:
        sql_opts = "CAST(? AS TEXT)"
        text = one(db, f"SELECT trigger_state_summary('a1', ?, {sql_opts})", T0 + MIN, o)
        for w in want:
            assert w in text, text
        payload = json.loads(one(db, f"SELECT trigger_state_payload('a1', ?, {sql_opts})", T0 + MIN, o))
        for w in want:
            assert w in payload["adminSummary"], payload
    # a bad agent id is the fallback, never an error
    fb = one(db, "SELECT trigger_state_summary('a1' || char(0) || 'x')")
    assert fb.startswith("Admin context temporarily unavailable"), fb
    fb = one(db, "SELECT trigger_state_summary(CAST(x'ff' AS TEXT))")
    assert fb.startswith("Admin context temporarily unavailable"), fb


def test_host_stderr_bytes_are_repaired(ext):
    import tempfile
    import shutil
    tmp = tempfile.mkdtemp(prefix="bad-bytes-")
    try:
        path = os.path.join(tmp, "t.db")
        db = connect(ext, path)
        db.execute("PRAGMA journal_mode=WAL")
        now = int(time.time() * 1000)
        for tid in ("ff", "nul", "cut"):
            add(db, tid, created_at=now - 500 - MIN, interval_ms=MIN)
        host = os.path.join(os.path.dirname(ext), "trigger-host")
        # "cut": 600 bytes of 3-byte characters, so the 500-byte tail starts
        # inside one
        cmd = ('case "$TRIGGER_ID" in ff) printf "\\377\\376" >&2;; '
               'nul) printf "a\\000b" >&2;; '
               'cut) i=0; while [ $i -lt 200 ]; do printf "\\342\\202\\254" >&2; i=$((i+1)); done;; esac; exit 1')
        p = subprocess.run([host, "tick", path, "--extension", ext, "--exec", cmd],
                           capture_output=True, timeout=20)
        assert p.returncode == 1, p.stderr
        got = {r["trigger_id"]: r for r in runs(db)}  # decodes
        assert got["ff"]["status"] == "failed" and got["ff"]["error"] == FFFD * 2, got["ff"]
        assert got["nul"]["error"] == "a" + FFFD + "b", got["nul"]
        cut = got["cut"]["error"]
        assert cut.startswith("...\u20ac") and set(cut[3:]) == {"\u20ac"}, cut
        assert text_problems(db) == []
        db.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_xml_character_references_that_are_not_characters_are_refused(ext):
    # libxml2 refuses them; locked here so the XML path stays covered.
    db = connect(ext)
    before = dump(db)
    tail = "</instructions><triggerType>interval</triggerType><intervalMs>900000</intervalMs></response>"
    for ref in ("&#xD800;", "&#xDC80;", "&#0;", "&#x110000;"):
        r = json.loads(one(db, "SELECT trigger_create_xml(?, ?)", "<response><instructions>a" + ref + tail, CTX))
        assert r["error"] == "INVALID_REQUEST" and "malformed XML" in r["reason"], (ref, r)
    assert dump(db) == before
    r = json.loads(one(db, "SELECT trigger_create_xml(?, ?)", "<response><instructions>a&#x1F600;" + tail, CTX))
    assert r["created"], r
    assert text_problems(db) == []


def test_messages_that_quote_input_cut_at_a_character(ext):
    # A refusal quoting part of the input (40 bytes of a bad number, a long
    # element name in a fixed buffer) used to cut a character in half.
    db = connect(ext)
    before = dump(db)
    head = "<response><instructions>x</instructions><triggerType>interval</triggerType>"
    for k in range(1, 5):  # the 40-byte cut lands on every byte of a character
        bad = "a" * k + "\u20ac" * 20
        r = json.loads(one(db, "SELECT trigger_create_xml(?, ?)",
                           head + "<intervalMs>" + bad + "</intervalMs></response>", CTX))
        assert r["error"] == "INVALID_SCHEDULE" and "intervalMs" in r["reason"], r
        assert r["reason"].startswith("element <intervalMs>: '" + bad[:len(bad.encode()[:40].decode("utf-8", "ignore"))]), r
    for k in range(1, 5):
        name = "r" * k + "\u00e9" * 200
        r = json.loads(one(db, "SELECT trigger_create_xml(?, ?)", f"<{name}>x</{name}>", CTX))
        assert r["error"] == "INVALID_REQUEST" and "root element must be <response>" in r["reason"], r
    assert dump(db) == before


def test_when_reasons_quote_whole_characters(ext):
    # "number '%.12s' is too long" used to cut the euro sign after the digits.
    db = connect(ext)
    for k in range(5, 14):
        for tail in ("\u20ac", "\u00e9x", "\U0001F600", " hours"):
            phrase = "1" * k + tail
            r = json.loads(one(db, "SELECT trigger_parse_when(?, 0)", phrase))
            assert r["kind"] is None and r["reason"] == f"number '{'1' * min(k, 12)}' is too long", (phrase, r)
            res = create(db, json.dumps({"instructions": "x", "when": "in " + phrase}))
            assert res["error"] == "INVALID_SCHEDULE" and "is too long" in res["reason"], res
