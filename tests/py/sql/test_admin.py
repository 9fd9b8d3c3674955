"""tests/py/sql/test_admin.py -- the operator's functions (ext/sql/fn_admin.c)
trigger_health and trigger_prune: the counts of health (stalled triggers,
a hold without a run, a changed rejection; each count an index probe),
prune of finished runs with its limit (one bounded write transaction,
NULL = all; running, deferred and retry-pending runs never deleted, and
no write transaction when nothing is due for deletion); with
trigger_config (test_config.py): a database without the tables, each
argument of the wrong kind or value (health options, prune's limit and
table), and writes refused by a read-only connection (PRAGMA
query_only), named by SQLite's message."""
import json
import os
import re
import sqlite3
import tempfile

from util import MIN, T0, add, connect, error, finish, health, one, runs, tick, vm_steps

NOT_INSTALLED = "sqlite-triggers is not installed in this database (run sql/install.sql)"


def test_without_tables(ext):
    bare = connect(ext, install=False)
    for fn, sql in (("trigger_health", "SELECT trigger_health()"),
                    ("trigger_prune", "SELECT trigger_prune(0)"),
                    ("trigger_config", "SELECT trigger_config('min_confidence')")):
        assert error(bare, sql) == f"{fn}: {NOT_INSTALLED}"


def test_argument_refusals(ext):
    db = connect(ext)
    cases = [
        (f"SELECT trigger_health({T0}, '[1]')",
         "trigger_health: argument 2 (options) must be a JSON object"),
        (f"SELECT trigger_health({T0}, '{{\"agents\":\"a\"}}')",
         "trigger_health: argument 2 (options): agents: unknown key or wrong type "
         "(known: agents, an array of agent ids; scope, text)"),
        # issue 32: a bad option key is never quoted as raw bytes (hex, as
        # everywhere), and a long one is cut
        (f"SELECT trigger_health({T0}, CAST(X'7B2261FF223A317D' AS TEXT))",
         "trigger_health: argument 2 (options) (in a key): not valid UTF-8 at byte 3 "
         "(0xff: a byte that never appears in UTF-8)"),
        (f"SELECT trigger_health({T0}, '{{\"a\\udc80\":1}}')",
         "trigger_health: argument 2 (options) (in a key): the escape \\udc80 at byte 3 "
         "is a lone surrogate (only a high surrogate followed by a low one is a "
         "character)"),
        (f"SELECT trigger_health({T0}, '{{\"{'k' * 100}\":1}}')",
         f"trigger_health: argument 2 (options): {'k' * 60}...: unknown key or wrong "
         "type (known: agents, an array of agent ids; scope, text)"),
        ("SELECT trigger_prune(0, NULL, X'00')", "trigger_prune: argument 3 (table) must be text"),
        ("SELECT trigger_prune(0, NULL, 'x')",
         "trigger_prune: argument 3 (table): 'x' is not 'trigger_runs' or 'trigger_events'"),
        ("SELECT trigger_config('min_confidence', NULL)",
         "trigger_config: argument 2 (value) must not be NULL"),
        ("SELECT trigger_config('min_confidence', CAST(X'FF' AS TEXT))",
         "trigger_config: argument 2 (value): not valid UTF-8 at byte 0 (0xff: a byte "
         "that never appears in UTF-8)"),
        ("SELECT trigger_config('preload_sql', CAST(X'FF' AS TEXT))",
         "trigger_config: argument 2 (value): not valid UTF-8 at byte 0 (0xff: a byte "
         "that never appears in UTF-8)"),
        ("SELECT trigger_config('preload_sql', 'DELETE FROM x')",
         "trigger_config: argument 2 (value): preload_sql is not a query (it starts with "
         "'DELETE'); a preload is one read-only query (SELECT, VALUES, WITH ... SELECT)"),
        ("SELECT trigger_config('preload_sql', 'SELECT * FROM x')",
         "trigger_config: argument 2 (value): preload_sql does not prepare: no such table: x"),
        ("SELECT trigger_config('preload_sql', 5)",
         "trigger_config: argument 2 (value): preload_sql must be text (one read-only "
         "query) or NULL"),
    ]
    for sql, why in cases:
        assert error(db, sql) == why, sql
    # NULL options and a NULL table: none given
    empty = one(db, f"SELECT trigger_health({T0})")
    assert one(db, f"SELECT trigger_health({T0}, NULL)") == empty
    assert one(db, "SELECT trigger_prune(0, NULL, NULL)") == 0
    assert one(db, "SELECT trigger_config('preload_sql', NULL)") is None


def test_read_only_connection(ext):
    db = connect(ext)
    add(db, "t", interval_ms=MIN)
    tick(db, T0 + MIN)
    finish(db, one(db, "SELECT run_id FROM trigger_runs"), "success", now=T0 + MIN)
    conf = one(db, "SELECT trigger_config('min_confidence')")
    db.execute("PRAGMA query_only = 1")
    readonly = "attempt to write a readonly database"
    for sql in ("SELECT trigger_config('min_confidence', 0.5)",
                "SELECT trigger_config('preload_sql', 'SELECT 1')",
                f"SELECT trigger_prune({T0 + 10 * MIN})"):
        fn = sql.split()[1].split("(")[0]
        assert error(db, sql) == f"{fn}: {readonly}", sql
    # reads still answer
    assert one(db, "SELECT trigger_config('min_confidence')") == conf
    db.execute("PRAGMA query_only = 0")
    assert one(db, "SELECT count(*) FROM trigger_runs") == 1


def test_health_of_a_changed_rejection(ext):
    # a rejected event without code and with a detail that is no JSON
    # (changed outside): shown with empty code and reason
    db = connect(ext)
    db.execute("INSERT INTO triggers_events(at, agent_id, scope, kind, code, detail) "
               "VALUES(1, '', '', 'rejected', NULL, 'x')")
    h = json.loads(one(db, "SELECT trigger_health(10)"))
    assert h["last_create_error"] == {"code": "", "reason": "", "at": 1}, h


def test_prune_and_health(ext):
    db = connect(ext)
    add(db, "t")
    for k in range(1, 4):
        [r] = tick(db, T0 + k * MIN)
        finish(db, r["run_id"], "failed" if k == 2 else "success", "x", T0 + k * MIN + 1)
    h = json.loads(one(db, "SELECT trigger_health(?)", T0 + 3 * MIN + 2))
    assert h["active"] == 1 and h["failures_24h"] == 1 and h["running"] == 0
    assert h["next_due_at"] == T0 + 4 * MIN
    assert one(db, "SELECT trigger_prune(?)", T0 + 2 * MIN + 5) == 2
    assert len(runs(db, "t")) == 1


def test_prune_limit(ext):
    # trigger_prune(before, limit): at most limit rows per call (one bounded
    # write transaction; trigger-host prunes in such batches), NULL = all;
    # running runs, deferred ones and failed ones with a retry pending are
    # never deleted, however many calls.
    with tempfile.TemporaryDirectory(prefix="prune-") as tmp:
        path = os.path.join(tmp, "p.db")
        db = connect(ext, path)
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA busy_timeout=0")
        add(db, "t")
        add(db, "r", max_attempts=3, backoff_ms=60 * MIN)
        add(db, "d")
        add(db, "u")
        last = {"t": "success", "r": "failed", "d": "deferred"}  # u: left running
        for k in range(1, 8):
            for r in tick(db, T0 + k * MIN):
                status = "success" if k < 7 else last.get(r["trigger_id"])
                if status:
                    finish(db, r["run_id"], status, "x" if status == "failed" else None,
                           T0 + k * MIN + 1)
        statuses = dict(db.execute("SELECT status, count(*) FROM trigger_runs GROUP BY 1"))
        assert statuses == {"success": 25, "failed": 1, "deferred": 1, "running": 1}, statuses
        before = T0 + 100 * MIN
        keep, total = 3, 28  # the failed run (retry pending), deferred, running
        done = 0
        for limit in (3, "3", 2.0):  # integer-valued text and reals as integers
            n = one(db, "SELECT trigger_prune(?, ?)", before, limit)
            assert n == min(int(limit), total - keep - done), (limit, n)
            done += n
        assert one(db, "SELECT trigger_prune(?, NULL)", before) == total - keep - done
        assert one(db, "SELECT trigger_prune(?, 5)", before) == 0
        left = dict(db.execute("SELECT trigger_id, status FROM trigger_runs"))
        assert left == {"r": "failed", "d": "deferred", "u": "running"}, left
        # nothing to delete: no write transaction (another connection holds the
        # write lock; trigger-host prunes every minute, also when idle)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")
        assert one(db, "SELECT trigger_prune(?, 100)", before) == 0
        other.execute("ROLLBACK")
        for bad in (0, -1, "ten", 1.5):
            try:
                db.execute("SELECT trigger_prune(?, ?)", (before, bad))
                assert False, bad
            except sqlite3.Error as e:
                assert "trigger_prune: argument 2 (limit) must be an integer >= 1 or NULL" in str(e), e


def test_health_counts_stalled_triggers(ext):
    db = connect(ext)
    add(db, "q", overlap_policy="queue")
    add(db, "s", overlap_policy="skip")
    add(db, "a", overlap_policy="allow")
    assert len(tick(db, T0 + MIN, lease_ms=5 * MIN)) == 3
    # q's and s's next occurrences come while their runs run: q is held,
    # s's occurrence is skipped, a's is claimed
    assert [x["trigger_id"] for x in tick(db, T0 + 2 * MIN, lease_ms=5 * MIN)] == ["a"]
    h = health(db, T0 + 2 * MIN + 1)
    assert (h["stalled"], h["overdue"], h["running"]) == (0, 0, 4), h
    # no tick after the first leases passed (T0 + 6 min): q and s are held
    # back by runs older than their lease; a is not (allow)
    h = health(db, T0 + 6 * MIN + 1)
    assert (h["stalled"], h["expired_leases"]) == (2, 3), h
    # overdue counts them too: q (due, held), s (held back), a (due)
    assert h["overdue"] == 3, h
    # a tick reclaims the expired leases: nothing is held any more
    tick(db, T0 + 6 * MIN + 1, lease_ms=5 * MIN)
    h = health(db, T0 + 6 * MIN + 2)
    assert (h["stalled"], h["overdue"]) == (0, 0), h


def test_health_counts_a_hold_without_a_run(ext):
    # An inconsistent state: q's run row removed behind the extension's
    # back (its shadow table) leaves the queue hold with no run behind
    # it. Health reports it stalled (and overdue) instead of nothing.
    db = connect(ext)
    add(db, "q", overlap_policy="queue")
    [r] = tick(db, T0 + MIN, lease_ms=10 * MIN)
    assert tick(db, T0 + 2 * MIN, lease_ms=10 * MIN) == []
    h = health(db, T0 + 2 * MIN + 1)
    assert (h["stalled"], h["overdue"]) == (0, 0), h
    db.execute("DELETE FROM triggers_rundata WHERE run_id = ?", (r["run_id"],))
    h = health(db, T0 + 2 * MIN + 1)
    assert (h["stalled"], h["overdue"], h["running"]) == (1, 1, 0), h


CAP = 10000  # trigger_health's counts stop past it (docs/functions.md)


def _overdue_db(ext, n, running=0):
    """n triggers due at T0 + MIN, the first `running` of them claimed
    with leases that pass at T0 + 2 * MIN."""
    db = connect(ext)
    db.execute("BEGIN")
    for i in range(n):
        add(db, f"t{i:05}", overlap_policy="skip")
    db.execute("COMMIT")
    if running:
        assert len(tick(db, T0 + MIN, limit=running, lease_ms=MIN)) == running
    return db


def test_health_counts_stop_past_the_cap(ext):
    # 21k and 42k overdue triggers (and 10,001 runs whose leases passed,
    # each trigger stalled behind one): every count past the cap reads
    # 10,001 with "<count>_capped": true, and the statements cost the same
    # VM steps on both (a bounded read, not a walk over what is due: it
    # took 45 s on 1M overdue triggers, bench/README.md).
    steps = {}
    for n in (21000, 42000):
        db = _overdue_db(ext, n, running=CAP + 1)
        now = T0 + 3 * MIN
        h = health(db, now)
        for key in ("active", "overdue", "running", "expired_leases", "stalled",
                    "recent_creations"):
            assert h[key] == CAP + 1 and h[key + "_capped"] is True, (key, h)
        assert h["paused"] == 0 and "paused_capped" not in h, h
        steps[n] = vm_steps(db, "SELECT trigger_health(?)", now)
        db.close()
    assert steps[21000] == steps[42000], steps


def test_health_counts_below_the_cap_are_exact(ext):
    # at the cap itself the count is exact and has no _capped key: the
    # JSON of a database under 10,000 keeps its shape
    db = _overdue_db(ext, CAP)
    h = health(db, T0 + 3 * MIN)
    assert (h["active"], h["overdue"]) == (CAP, CAP), h
    assert not [k for k in h if k.endswith("_capped")], h


def test_health_is_index_driven(ext):
    # Every statement trigger_health runs reads through an index, and the
    # cost of overdue and stalled does not grow with the number of idle
    # triggers (q is found by both parts of the stalled query: its run's
    # lease passed, and it is held by queue).
    steps = {}
    for n in (1000, 20000):
        db = connect(ext)
        db.execute("BEGIN")
        for i in range(n):
            add(db, f"t{i:05}", created_at=T0 + 10**9)
        db.execute("COMMIT")
        add(db, "q", overlap_policy="queue")
        assert len(tick(db, T0 + MIN, lease_ms=MIN + 1)) == 1
        assert tick(db, T0 + 2 * MIN) == []
        assert one(db, "SELECT fire_at FROM triggers_state WHERE trigger_id = 'q'") is None
        got = []
        db.set_trace_callback(got.append)
        h = health(db, T0 + 3 * MIN)
        db.set_trace_callback(None)
        assert h["active"] == min(n + 1, CAP + 1) and h["stalled"] == 1, h
        assert h.get("active_capped", False) == (n + 1 > CAP), h
        used = set()
        steps[n] = {}
        for sql in [s[3:] for s in got if s.startswith("-- ") and "?1" in s]:
            plan = [r[3] for r in db.execute("EXPLAIN QUERY PLAN " + sql, (0,))]
            for step in plan:
                # a scan only of a subquery's rows (r, s: the LIMITed reads
                # of the lease and due indexes) or of a partial index
                assert not step.startswith("SCAN") or step.startswith("SCAN (subquery") \
                    or step in ("SCAN r", "SCAN s") \
                    or "USING INDEX triggers_rundata_lease" in step, (sql, plan)
                used.update(re.findall(r"USING (?:COVERING )?INDEX (\w+)", step))
            if "fire_at IS NULL" in sql:  # overdue and stalled
                steps[n][sql] = vm_steps(db, sql, T0 + 3 * MIN)
        # the run table's one autoindex is its key (run_id has none)
        assert {"triggers_rundata_lease", "triggers_state_due",
                "sqlite_autoindex_triggers_rundata_1"} <= used, used
        assert len(steps[n]) == 2, steps
        db.close()
    assert steps[1000] == steps[20000], steps
