"""tests/py/tick/test_fire_preload.py -- fire-time preload
(ext/tick/fire_preload.c, docs/lifecycle.md#fire-time-preload-preload_sql): trigger_config('preload_sql', ...)
takes one read-only query, checked when it is set; at claim the tick runs
it with the names it uses bound (:scope, :trigger_id, :agent_id, :now) and
merges its rows into each claimed run's payload as `preload`, bounded by
PRELOAD_MAX_ROWS rows and preload_max_bytes bytes (`preloadTruncated`);
a query that fails or runs away gives `preloadError` and the claim goes
on. The prepared query is kept per connection and prepared again only
when the configured text changes. Values read back exactly: reals that
need 17 digits, a negative infinity, tiny reals, several columns;
parameters numbered (?1) or named with @ and $. (test_preload.py is
about the preload *library*, build/triggers-preload.so.)"""
import json
import sqlite3

from util import MIN, T0, add, connect, dump, finish, one, runs, tick

SCOPED = "SELECT id, text FROM memories WHERE scope = :scope ORDER BY id"


def _db(ext, path=":memory:"):
    db = connect(ext, path)
    db.execute("CREATE TABLE memories(id INTEGER PRIMARY KEY, scope TEXT, text TEXT)")
    db.executemany("INSERT INTO memories(scope, text) VALUES(?, ?)",
                   [("a", "a one"), ("b", "b one"), ("a", "a two"), ("c", "c one")])
    return db


def _set(db, sql):
    return one(db, "SELECT trigger_config('preload_sql', ?)", sql)


def _refused(db, sql, words):
    before = dump(db)
    try:
        _set(db, sql)
    except sqlite3.Error as e:
        msg = str(e)
        assert msg.startswith("trigger_config: "), msg
        assert words in msg, msg
        assert dump(db) == before  # nothing changed
        return msg
    raise AssertionError(f"{sql!r} was accepted")


def _payloads(out):
    return {r["trigger_id"]: r["payload"] for r in out}


def preload_row(db, sql):
    one(db, "SELECT trigger_config('preload_sql', ?)", sql)
    db.execute("DELETE FROM triggers")
    add(db, "t1", start_at=T0)
    return tick(db, T0)[0]["payload"]["preload"]


def test_rows_of_each_runs_scope(ext):
    db = _db(ext)
    assert _set(db, SCOPED) == SCOPED
    for tid, scope in (("ta", "a"), ("tb", "b"), ("tz", "z")):
        add(db, tid, scope=scope)
    got = _payloads(tick(db, T0 + MIN))
    assert got["ta"]["preload"] == [{"id": 1, "text": "a one"}, {"id": 3, "text": "a two"}]
    assert got["tb"]["preload"] == [{"id": 2, "text": "b one"}]
    assert got["tz"]["preload"] == []
    for p in got.values():  # merged after the keys consumers already read
        assert p["source"] == "trigger" and p["text"].startswith("do ")
        assert "preloadTruncated" not in p and "preloadError" not in p
    # the run row keeps the payload handed out
    stored = {r["trigger_id"]: json.loads(r["payload"]) for r in runs(db)}
    assert stored == got


def test_every_name_bound(ext):
    db = _db(ext)
    _set(db, "SELECT :scope AS s, @trigger_id AS t, $agent_id AS a, :now AS n, :scope AS s2")
    add(db, "t1", scope="room", agent_id="ag")
    p = tick(db, T0 + MIN)[0]["payload"]
    assert p["preload"] == [{"s": "room", "t": "t1", "a": "ag", "n": T0 + MIN, "s2": "room"}]
    # a query naming none of them needs no binding at all
    _set(db, "SELECT 42 AS answer")
    assert tick(db, T0 + 2 * MIN)[0]["payload"]["preload"] == [{"answer": 42}]


def test_values_as_json(ext):
    db = _db(ext)
    _set(db, "SELECT 1.5 AS r, 1e400 AS inf, x'00ff' AS b, NULL AS z,"
             " CAST(x'61ff62' AS TEXT) AS bad, 'q\"\\' AS q, 'é' AS u")
    add(db, "t1")
    row = tick(db, T0 + MIN)[0]["payload"]["preload"][0]
    assert row["r"] == 1.5 and row["inf"] == float("inf")
    assert row["b"] == "00FF" and row["z"] is None
    assert row["bad"] == "a\ufffdb" and row["q"] == 'q"\\' and row["u"] == "é"


def test_write_statement_refused(ext):
    db = _db(ext)
    _set(db, SCOPED)
    # refused from the text alone, before anything is prepared
    for sql in ("DELETE FROM memories", "INSERT INTO memories(text) VALUES('x')",
                "UPDATE memories SET text = 'x'", "DROP TABLE memories",
                "CREATE TABLE x(y)", "ATTACH ':memory:' AS x", "BEGIN", "ANALYZE"):
        word = sql.split()[0]
        _refused(db, sql, f"preload_sql is not a query (it starts with '{word}')")
    _refused(db, "PRAGMA user_version = 3", "preload_sql uses PRAGMA user_version")
    # a query's form that writes: refused once prepared
    _refused(db, "WITH m AS (SELECT 1) DELETE FROM memories", "preload_sql is not read-only")
    _refused(db, "WITH m AS (SELECT 1) INSERT INTO memories(text) SELECT 'x' RETURNING id",
             "preload_sql is not read-only")
    assert one(db, "SELECT count(*) FROM memories") == 4


def test_multi_statement_refused(ext):
    db = _db(ext)
    _set(db, SCOPED)
    _refused(db, "SELECT 1; SELECT 2", "preload_sql holds more than one statement")
    _refused(db, "SELECT 1; DELETE FROM memories", "more than one statement")
    _refused(db, "SELECT 1; nonsense", "more than one statement")
    assert one(db, "SELECT trigger_config('preload_sql')") == SCOPED  # kept
    # a trailing semicolon or comment is still one statement
    assert _set(db, "SELECT 1 AS one; -- done\n ;") is not None


def test_other_refusals(ext):
    db = _db(ext)
    _refused(db, "SELEC 1", "preload_sql is not a query (it starts with 'SELEC')")
    _refused(db, "SELECT 1 FROM", 'preload_sql does not prepare: incomplete input')
    _refused(db, "SELECT * FROM nowhere", "no such table: nowhere")
    _refused(db, "SELECT :user", "names the parameter :user")
    _refused(db, "SELECT ?", "a parameter without a name")
    _refused(db, "   ", "holds no statement")
    _refused(db, 7, "must be text")
    assert one(db, "SELECT trigger_config('preload_sql')") is None


def test_null_or_empty_clears(ext):
    db = _db(ext)
    add(db, "t1", scope="a", overlap_policy="allow")
    for k, clear in enumerate((None, "")):
        _set(db, SCOPED)
        assert "preload" in tick(db, T0 + MIN * (1 + 2 * k))[0]["payload"]
        assert _set(db, clear) is None
        assert one(db, "SELECT trigger_config('preload_sql')") is None
        p = tick(db, T0 + MIN * (2 + 2 * k))[0]["payload"]
        assert not [k for k in p if k.startswith("preload")]


def test_failing_query_never_fails_the_claim(ext):
    db = _db(ext)
    _set(db, SCOPED)
    add(db, "t1", scope="a")
    add(db, "t2", scope="b")
    assert len(tick(db, T0 + MIN)) == 2  # prepared and kept
    db.execute("DROP TABLE memories")
    out = tick(db, T0 + 2 * MIN)
    assert len(out) == 2
    for r in out:
        assert "preload" not in r["payload"]
        assert "no such table: memories" in r["payload"]["preloadError"]
    assert {r["status"] for r in runs(db) if r["scheduled_for"] == T0 + 2 * MIN} == {"running"}
    # a fresh connection prepares it anew and fails the same way
    fire = json.loads(one(db, "SELECT trigger_fire('t1', ?)", T0 + 2 * MIN + 5))
    assert "no such table: memories" in fire["payload"]["preloadError"]
    for r in runs(db):
        if r["status"] == "running":
            finish(db, r["run_id"], "success", None, T0 + 2 * MIN + 9)
    # and once the table is back, the kept text works again
    db.execute("CREATE TABLE memories(id INTEGER PRIMARY KEY, scope TEXT, text TEXT)")
    db.execute("INSERT INTO memories(scope, text) VALUES('a', 'back')")
    got = _payloads(tick(db, T0 + 3 * MIN))
    assert got["t1"]["preload"] == [{"id": 1, "text": "back"}]


def test_runtime_error_and_runaway(ext):
    db = _db(ext)
    add(db, "t1")
    _set(db, "SELECT json_extract('not json', '$.x') AS x")
    p = tick(db, T0 + MIN)[0]["payload"]
    assert p["preloadError"].startswith("preload_sql failed: "), p
    # a query that never ends is stopped by the step bound
    _set(db, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c)"
             " SELECT count(*) AS n FROM c")
    p = tick(db, T0 + 2 * MIN)[0]["payload"]
    assert "stopped after 1000000 steps" in p["preloadError"], p
    assert one(db, "SELECT trigger_config('preload_sql', NULL)") is None
    # the handler it used is gone: the application's own still works
    calls = []
    db.set_progress_handler(lambda: calls.append(1) or 0, 10)
    one(db, "SELECT count(*) FROM memories, memories, memories")
    assert calls


def test_truncated_at_max_bytes(ext):
    db = _db(ext)
    db.executemany("INSERT INTO memories(scope, text) VALUES('big', ?)",
                   [(f"{i:03d}" + "x" * 96,) for i in range(100)])
    _set(db, SCOPED)
    assert one(db, "SELECT trigger_config('preload_max_bytes')") == 4096
    add(db, "t1", scope="big")
    p = tick(db, T0 + MIN)[0]["payload"]
    text = json.dumps(p["preload"], separators=(",", ":"))
    assert p["preloadTruncated"] is True
    assert len(text) <= 4096 and len(text) > 4096 - 130  # whole rows, as many as fit
    assert [r["text"][:3] for r in p["preload"]] == [f"{i:03d}" for i in range(len(p["preload"]))]
    assert one(db, "SELECT trigger_config('preload_max_bytes', 300)") == 300
    p = tick(db, T0 + 2 * MIN)[0]["payload"]
    assert len(p["preload"]) == 2 and p["preloadTruncated"] is True
    one(db, "SELECT trigger_config('preload_max_bytes', 10)")
    p = tick(db, T0 + 3 * MIN)[0]["payload"]
    assert p["preload"] == [] and p["preloadTruncated"] is True
    # exactly fitting: not truncated
    one(db, "SELECT trigger_config('preload_max_bytes', 4096)")
    _set(db, "SELECT id FROM memories WHERE scope = 'a'")
    p = tick(db, T0 + 4 * MIN)[0]["payload"]
    assert p["preload"] == [{"id": 1}, {"id": 3}] and "preloadTruncated" not in p
    # the bound itself is bounded
    for bad in (-1, 1048577, "x"):
        try:
            one(db, "SELECT trigger_config('preload_max_bytes', ?)", bad)
        except sqlite3.Error as e:
            assert str(e).startswith("trigger_config: "), e
        else:
            raise AssertionError(bad)


def test_row_bound(ext):
    db = _db(ext)
    _set(db, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c"
             " LIMIT 1500) SELECT x FROM c")
    one(db, "SELECT trigger_config('preload_max_bytes', 1048576)")
    add(db, "t1")
    p = tick(db, T0 + MIN)[0]["payload"]
    assert len(p["preload"]) == 1000 and p["preloadTruncated"] is True


def test_fire_and_retry_claims_preload(ext):
    db = _db(ext)
    _set(db, SCOPED)
    add(db, "t1", scope="b", max_attempts=2, backoff_ms=1000)
    fire = json.loads(one(db, "SELECT trigger_fire('t1', ?)", T0 + 5))
    assert fire["payload"]["preload"] == [{"id": 2, "text": "b one"}]
    finish(db, fire["run_id"], "failed", "boom", T0 + 10)
    db.execute("INSERT INTO memories(scope, text) VALUES('b', 'b two')")
    retry = [r for r in tick(db, T0 + 30000) if r["attempt"] == 2]
    assert retry and retry[0]["payload"]["preload"][-1]["text"] == "b two"
    # skipped and expired rows are not claims: no preload
    for r in runs(db):
        if r["status"] in ("skipped", "expired"):
            assert "preload" not in json.loads(r["payload"])


def test_prepared_once_per_connection(ext):
    """Counted with an authorizer: SQLite asks it while preparing only."""
    db = _db(ext)
    for i in range(50):
        add(db, f"t{i:02d}", scope="ab"[i % 2])
    _set(db, SCOPED)
    reads = []

    def auth(action, arg1, arg2, dbname, source):
        if action == sqlite3.SQLITE_READ and arg1 == "memories":
            reads.append(arg2)
        return sqlite3.SQLITE_OK
    db.set_authorizer(auth)
    assert len(tick(db, T0 + MIN)) == 50
    first = len(reads)
    # one prepare and its EXPLAIN (which says whether the query opens a
    # virtual table: docs/lifecycle.md#fire-time-preload-preload_sql),
    # each reading (id, text, scope, id): not 50 prepares
    assert 0 < first <= 8
    assert len(tick(db, T0 + 2 * MIN)) == 50
    assert len(reads) == first  # kept between ticks
    _set(db, "SELECT text FROM memories WHERE scope = :scope")
    reads.clear()
    out = tick(db, T0 + 3 * MIN)
    assert 0 < len(reads) <= 8  # the config changed: prepared again, once
    assert out[0]["payload"]["preload"][0] == {"text": "a one"}
    db.set_authorizer(None)


def test_change_from_another_connection(ext):
    import os
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "p.db")
        a = _db(ext, path)
        a.execute("PRAGMA journal_mode=WAL")
        add(a, "t1", scope="a")
        _set(a, SCOPED)
        assert len(tick(a, T0 + MIN)[0]["payload"]["preload"]) == 2
        b = connect(ext, path, install=False)
        _set(b, "SELECT count(*) AS n FROM memories")
        assert tick(a, T0 + 2 * MIN)[0]["payload"]["preload"] == [{"n": 4}]
        _set(b, None)
        assert "preload" not in tick(a, T0 + 3 * MIN)[0]["payload"]
        a.close()
        b.close()


def test_preload_reads_the_extensions_tables(ext):
    """A natural preload: the trigger's own last results, through the
    trigger_runs virtual table, read inside the tick."""
    db = _db(ext)
    _set(db, "SELECT result FROM trigger_runs WHERE trigger_id = :trigger_id"
             " AND status = 'success' ORDER BY scheduled_for DESC LIMIT 2")
    add(db, "t1")
    add(db, "t2")
    for k in range(1, 4):
        out = tick(db, T0 + k * MIN)
        assert len(out) == 2
        for r in out:
            want = [{"result": f"{r['trigger_id']} {j}"} for j in range(k - 1, 0, -1)][:2]
            assert r["payload"]["preload"] == want, (k, r)
            finish(db, r["run_id"], "success", f"{r['trigger_id']} {k}", T0 + k * MIN + 5)


def test_reals(ext):
    db = connect(ext)
    rows = preload_row(db, "SELECT 0.1 + 0.2 AS r17, -1e400 AS ninf, 1e-300 AS tiny, 2.0 AS two")
    assert rows == [{"r17": 0.1 + 0.2, "ninf": float("-inf"), "tiny": 1e-300, "two": 2.0}], rows


def test_parameter_spellings(ext):
    db = connect(ext)
    rows = preload_row(db, "SELECT @scope AS s, $trigger_id AS t, :agent_id AS a, :now AS n")
    assert rows == [{"s": "", "t": "t1", "a": "", "n": T0}], rows
    try:
        one(db, "SELECT trigger_config('preload_sql', 'SELECT ?1')")
        raise AssertionError("?1 accepted")
    except sqlite3.Error as e:
        assert str(e) == ("trigger_config: argument 2 (value): preload_sql names the "
                          "parameter ?1; it may name :scope, :trigger_id, :agent_id, :now"), e
