"""tests/py/store/test_shadow.py -- shadow-table rows changed outside the
extension (docs/tables.md#changed-shadow-tables).

An application with SQLITE_DBCONFIG_DEFENSIVE off (Python's default) can
write triggers_data, triggers_state, triggers_rundata and triggers_config
directly. Whatever it writes, no call crashes, and a tick goes on with the
other triggers: a row holding a value the extension would refuse is paused
with a last_error naming the shadow table and column.

The sweep changes one value per case (every column of every shadow table;
NULL, text, a blob, a real, 0, -1, INT64 max and min, a 200 KB text, '' and
some column-specific ones) in a database of five triggers, in a process
of its own (worker_shadow.py), so that a crash is a failed case, not a
dead test run. Expected per case, one letter:
  P  paused: not claimed, next_due_at NULL, not 'scheduled', last_error
     names "<table>.<column>"
  O  harmless: the trigger keeps working (claimed in that tick)
  R  SQLite refuses the change itself: a NOT NULL column; since schema
     version 6 (STRICT tables) a value of another type, and one that
     fails a column's CHECK (a time past the instant range, a status or
     type outside its enum, a running run without a lease)
  N  not due: next_due_at NULL on a scheduled trigger leaves it out of the
     tick's index probe (nothing else changes; a resume re-arms it)
  S  paused as P, the message naming triggers_state.running: a running
     run of it no longer looks like one (its status or trigger_id
     changed), so nothing would bring its running count down; the next
     tick that finds it due and held sees no run behind the hold (issue
     32: before, it stayed held for good, its occurrences 'skipped')
  H  held without that: expected of no case any more
For every case, whatever the letter: the other triggers are claimed in
that tick, health / summary / payload / SELECT of both tables succeed,
the lifecycle calls answer (a result or an error, never a crash), the tick
results are JSON arrays, the wakeup after a tick is never "due now" for
something the tick does not take, and PRAGMA integrity_check is ok.
"""
import json
import os
import shutil
import sqlite3
import subprocess
import tempfile

from util import FIXTURES, MIN, T0, add, connect, finish, one, tick, trig

HERE = os.path.dirname(os.path.abspath(__file__))
PY = "/usr/bin/python3"
I64_MAX, I64_MIN = 2**63 - 1, -2**63

# The standard values, in the order of the expectation strings below.
VALUES = [
    ("null", ["null", None]),
    ("x", ["text", "x"]),
    ("blob", ["blob", "00ff"]),
    ("real", ["real", 1.5]),
    ("zero", ["int", 0]),
    ("neg", ["int", -1]),
    ("max", ["int", I64_MAX]),
    ("min", ["int", I64_MIN]),
    ("huge", ["repeat", ["y", 200000]]),
    ("empty", ["text", ""]),
]

# (table, column, target type, expected letter per value in VALUES order)
TRIGGER_COLUMNS = [
    ("triggers_data", "trigger_id", "interval", "RPRPPPPPPP"),
    ("triggers_data", "agent_id", "interval", "RPRPPPPPPP"),
    ("triggers_data", "scope", "interval", "ROROOOOOOO"),
    ("triggers_data", "display_name", "interval", "POROOOOOOO"),
    ("triggers_data", "instructions", "interval", "ROROOOOOOP"),
    ("triggers_data", "trigger_type", "interval", "RRRRRRRRRR"),
    ("triggers_data", "interval_ms", "interval", "PRRRPPPPRR"),
    ("triggers_data", "scheduled_at", "once", "PRRROOPPRR"),
    ("triggers_data", "cron_expression", "cron", "PPRPPPPPPP"),
    ("triggers_data", "timezone", "cron", "RPRPPPPPPP"),
    ("triggers_data", "start_at", "interval", "ORRROOPPRR"),
    ("triggers_data", "end_at", "interval", "ORRROOPPRR"),
    ("triggers_data", "wake_mode", "interval", "PPRPPPPPPP"),
    ("triggers_data", "created_by", "interval", "PPRPPPPPPP"),
    ("triggers_data", "enabled", "interval", "PRRRPPPPRR"),
    ("triggers_data", "max_runs", "interval", "ORRRPPOPRR"),
    ("triggers_data", "misfire_policy", "interval", "PPRPPPPPPP"),
    ("triggers_data", "overlap_policy", "interval", "PPRPPPPPPP"),
    ("triggers_data", "max_attempts", "interval", "PRRRPPOPRR"),
    ("triggers_data", "backoff_ms", "interval", "PRRROPPPRR"),
    ("triggers_data", "jitter_ms", "interval", "PRRROPPPRR"),
    ("triggers_data", "window_ms", "interval", "ORRRPPPPRR"),
    ("triggers_data", "pause_after_failures", "interval", "ORRRPPOPRR"),
    # the tick does not show metadata (the lifecycle calls check it)
    ("triggers_data", "metadata", "interval", "OOROOOOOOO"),
    ("triggers_data", "status", "interval", "RRRRRRRRRR"),
    ("triggers_data", "dedupe_key", "interval", "OOROOOOOOO"),
    ("triggers_data", "created_at", "interval", "RRRROOPPRR"),
    ("triggers_data", "incarnation", "interval", "RRRRPPPPRR"),
    ("triggers_state", "trigger_id", "interval", "RPRPPPPPPP"),
    ("triggers_state", "agent_id", "interval", "RPRPPPPPPP"),
    ("triggers_state", "run_count", "interval", "RRRROPPPRR"),
    ("triggers_state", "next_due_at", "interval", "NRRROORRRR"),
    ("triggers_state", "last_run_at", "interval", "ORRROOPPRR"),
    ("triggers_state", "last_status", "interval", "OOROOOOOOO"),
    ("triggers_state", "last_error", "interval", "OOROOOOOOO"),
    ("triggers_state", "updated_at", "interval", "RRRROOPPRR"),
    ("triggers_state", "fire_at", "interval", "PRRROOPPRR"),
    ("triggers_state", "claims", "interval", "RRRROPPPRR"),
    ("triggers_state", "running", "interval", "RRRROPPPRR"),
    ("triggers_state", "fail_streak", "interval", "RRRROPPPRR"),
]

# Values only some columns can get wrong: (table, column, target, value,
# letter[, the column the message names when it is another one]).
SPECIAL_TRIGGER_CASES = [
    ("triggers_data", "cron_expression", "cron", ["text", "61 * * * *"], "P"),
    ("triggers_data", "cron_expression", "cron", ["text", "* * * * MON-"], "P"),
    ("triggers_data", "timezone", "cron", ["text", "Mars/Olympus"], "P"),
    ("triggers_data", "timezone", "cron", ["text", "../../etc/passwd"], "P"),
    ("triggers_data", "timezone", "interval", ["text", "Mars/Olympus"], "P"),
    # the interval's own column is now the wrong one
    ("triggers_data", "trigger_type", "interval", ["text", "cron"], "P", "interval_ms"),
    ("triggers_data", "trigger_type", "interval", ["text", "once"], "P", "interval_ms"),
    ("triggers_data", "wake_mode", "interval", ["text", "inject_now"], "O"),
    ("triggers_data", "wake_mode", "interval", ["text", "INJECT_NOW"], "P"),
    ("triggers_data", "status", "interval", ["text", "paused"], "P"),
    ("triggers_data", "status", "interval", ["text", "completed"], "P"),
    ("triggers_data", "status", "interval", ["text", "cancelled"], "P"),
    ("triggers_data", "enabled", "interval", ["int", 2], "P"),
    ("triggers_data", "scheduled_at", "once", ["text", "2026-01-01T00:00:00Z"], "R"),
    ("triggers_data", "end_at", "interval", ["text", "2026-01-01"], "R"),
    ("triggers_data", "interval_ms", "interval", ["int", 999], "P"),
    ("triggers_data", "interval_ms", "interval", ["real", 60000.0], "O"),  # stored as 60000
    ("triggers_data", "interval_ms", "interval", ["text", "60000"], "O"),  # likewise
    ("triggers_data", "interval_ms", "interval", ["real", 1e300], "R"),
    ("triggers_data", "metadata", "interval", ["text", "[1]"], "O"),
    ("triggers_state", "next_due_at", "interval", ["text", "2026-01-01T00:01:00Z"], "R"),
    ("triggers_state", "next_due_at", "interval", ["int", 253402300800000], "R"),
    ("triggers_state", "fire_at", "interval", ["int", T0 + MIN + 30000], "O"),  # jitter-like
    # another valid incarnation: the trigger is that one (no runs of it yet)
    ("triggers_data", "incarnation", "interval", ["int", 7], "O"),
]

# Run columns: the run of trigger 'a' claimed at T0 + 1 min, changed, then
# finished by the host ("finish"), left until its lease passes ("lease"),
# or reported deferred first and re-offered ("retry"). Letters as above;
# P means trigger 'a' is paused (and the run closed).
RUN_COLUMNS = [
    # column, finish, lease, retry
    # run_id is its key's (a CHECK since version 6): the run_id or a key
    # column (trigger_id, scheduled_for, attempt, incarnation) changed
    # alone is refused at write time
    ("run_id", "RRRRRRRRRR", "RRRRRRRRRR", "RRRRRRRRRR"),
    ("trigger_id", "RRRRRRRRRR", "RRRRRRRRRR", "RRRRRRRRRR"),
    ("agent_id", "ROROOOOOOO", "ROROOOOOOO", "ROROOOOOOO"),
    ("scheduled_for", "RRRRRRRRRR", "RRRRRRRRRR", "RRRRRRRRRR"),
    ("attempt", "RRRRRRRRRR", "RRRRRRRRRR", "RRRRRRRRRR"),
    ("status", "RPRPPPPPPP", "RSRSSSSSSS", "RPRPPPPPPP"),
    ("owner", "OOROOOOOOO", "OOROOOOOOO", "OOROOOOOOO"),
    ("claimed_at", "PRRROOPPRR", "PRRROOPPRR", "ORRROOPPRR"),
    ("lease_until", "RRRROORRRR", "RRRROORRRR", "ORRROORRRR"),
    ("finished_at", "ORRROOPPRR", "ORRROOPPRR", "ORRROOPPRR"),
    ("latency_ms", "ORRROOOORR", "ORRROOOORR", "ORRROOOORR"),
    ("error", "OOROOOOOOO", "OOROOOOOOO", "OOROOOOOOO"),
    ("payload", "PPRPPPPPPP", "PPRPPPPPPP", "PPRPPPPPPP"),
    ("retry_at", "ORRROORRRR", "ORRROORRRR", "ORRROORRRR"),
    ("deferrals", "RRRROPPPRR", "RRRROPPPRR", "RRRROPPPRR"),
    ("result", "OOROOOOOOO", "OOROOOOOOO", "OOROOOOOOO"),
    ("incarnation", "RRRRRRRRRR", "RRRRRRRRRR", "RRRRRRRRRR"),
    ("lease_ms", "ORRRPPPPRR", "ORRRPPPPRR", "ORRRPPPPRR"),
]

CONFIG_KEYS = ["schema_version", "misfire_grace_ms", "min_interval_ms",
               "max_interval_ms", "confirm_below_ms", "max_active_per_scope",
               "max_creations_per_window", "creation_window_ms",
               "run_retention_ms", "creator_roles", "min_confidence"]

TARGET_ID = {"interval": "a", "cron": "c", "once": "d"}
ALL = ["a", "b", "c", "d", "e"]
# Read by every case: none of these may fail.
MUST_SUCCEED = ["health", "summary", "payload", "create", "select_triggers", "select_runs",
                "describe_rows", "finish_all0", "tick0", "finish_all1", "tick1",
                "wakeup0", "wakeup1", "end_health", "end_summary", "end_payload",
                "end_select_triggers", "end_select_runs", "integrity"]
OPS = ["trigger_fire", "trigger_pause", "trigger_resume", "trigger_cancel",
       "vtab_update"]


def run_cases(ext, cases, workers=2):
    """Run cases in worker processes (two at a time): {name: result}; a
    case during which a worker died has {"crash": status, "stderr": tail}."""
    results, todo = {}, list(cases)
    while todo:
        chunks = [todo[k::workers] for k in range(workers) if todo[k::workers]]
        procs = [subprocess.Popen([PY, os.path.join(HERE, "worker_shadow.py"),
                                   os.path.abspath(ext)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, cwd=HERE)
                 for _ in chunks]
        for p, chunk in zip(procs, chunks):  # a worker reads all, then works
            p.stdin.write(json.dumps(chunk))
            p.stdin.close()
            p.stdin = None  # written: communicate() only reads
        for p in procs:
            out, err = p.communicate(timeout=900)
            current = None
            for line in out.splitlines():
                if line.startswith("START "):
                    current = line[6:]
                else:
                    r = json.loads(line)
                    results[r["name"]] = r
                    current = None
            if current is None and p.returncode != 0:
                raise AssertionError(f"worker failed ({p.returncode}): {err[-2000:]}")
            if current is not None:
                results[current] = {"name": current, "crash": p.returncode,
                                    "stderr": err[-1500:]}
        todo = [c for c in todo if c["name"] not in results]
    return results


def outcome(r, tid, table, column):
    """The letter a case's result shows (see the module's comment); column
    is the one the message must name."""
    if r.get("tamper") != "ok":
        refused = ("NOT NULL constraint failed", "CHECK constraint failed", "cannot store")
        return "R" if any(k in r.get("tamper", "") for k in refused) else "?"
    t = r["target"]
    claimed = tid in r.get("claimed", [])
    held = "but no run of the trigger is 'running'" in (t["last_error"] or "")
    if held:
        table, column = "triggers_state", "running"
    named = f"{table}.{column}" in (t["last_error"] or "")
    if (not claimed and named and t["next_due_at"] is None and t["fire_at"] is None
            and t["status"] != "scheduled"):
        if t["status"] == "paused" and t["enabled"] != 0:
            return "?"
        return "S" if held else "P"
    if claimed and not named:
        return "O"
    if not claimed and not named and t["status"] == "scheduled":
        return "N" if t["next_due_at"] is None else "H"
    return "?"


def problems(r, others):
    """What is wrong with a case's result apart from its letter."""
    if "crash" in r:
        return [f"crashed (exit status {r['crash']}): {r['stderr']}"]
    if "exception" in r:
        return [r["exception"]]
    if r.get("tamper") != "ok":
        return []
    out = []
    if "error" in r["tick"]:
        out.append(f"tick failed: {r['tick']['error']}")
    elif not set(others) <= set(r["claimed"]):
        out.append(f"others not all claimed: {r['claimed']} (want {others})")
    for k in MUST_SUCCEED:
        if "error" in r.get(k, {"error": "missing"}):
            out.append(f"{k}: {r.get(k)}")
    for k in ("wakeup0", "wakeup1"):
        if r.get(k, {}).get("ok") == 0:
            out.append(f"{k} is 0 right after a tick: a host would loop")
    if r.get("integrity", {}).get("ok") != "ok":
        out.append(f"integrity: {r.get('integrity')}")
    for k in OPS + ["end_" + o for o in OPS] + ["describe", "preview"]:
        if k not in r:
            out.append(f"{k} missing")
    return out


def check(ext, cases):
    """Run cases; fail with every mismatch listed."""
    results = run_cases(ext, [c for c, _, _ in cases])
    bad = []
    for case, want, others in cases:
        r = results[case["name"]]
        got = "?" if "crash" in r or "exception" in r else \
            outcome(r, case["tid"], case["table"], case.get("names", case["column"]))
        errs = problems(r, others)
        if got != want:
            errs.insert(0, f"expected {want}, got {got}: target {r.get('target')}"
                           f" claimed {r.get('claimed')} tamper {r.get('tamper')}")
        if errs:
            bad.append(case["name"] + ":\n    " + "\n    ".join(e[:600] for e in errs))
    assert not bad, f"{len(bad)} of {len(cases)} cases:\n" + "\n".join(bad)
    return results


def trigger_cases(rows):
    cases = []
    for table, column, target, letters in rows:
        assert len(letters) == len(VALUES), (table, column)
        tid = TARGET_ID[target]
        for (vname, value), want in zip(VALUES, letters):
            cases.append(({"name": f"{table}.{column}={vname}", "table": table,
                           "column": column, "value": value, "target": target,
                           "tid": tid}, want, [x for x in ALL if x != tid]))
    tables = {r[0] for r in rows}
    for k, (table, column, target, value, want, *names) in enumerate(SPECIAL_TRIGGER_CASES):
        if table not in tables:
            continue
        tid = TARGET_ID[target]
        cases.append(({"name": f"{table}.{column}=special{k}", "table": table,
                       "column": column, "value": value, "target": target,
                       "tid": tid, "names": names[0] if names else column},
                      want, [x for x in ALL if x != tid]))
    return cases


def test_sweep_triggers_data(ext):
    check(ext, trigger_cases([c for c in TRIGGER_COLUMNS if c[0] == "triggers_data"]))


def test_sweep_triggers_state(ext):
    check(ext, trigger_cases([c for c in TRIGGER_COLUMNS if c[0] == "triggers_state"]))


def test_sweep_run_rows(ext):
    cases = []
    for column, *per_via in RUN_COLUMNS:
        for via, letters in zip(("finish", "lease", "retry"), per_via):
            for (vname, value), want in zip(VALUES, letters):
                cases.append(({"name": f"triggers_rundata.{column}={vname}/{via}",
                               "table": "triggers_rundata", "column": column,
                               "value": value, "via": via, "tid": "a"},
                              want, ["b", "c", "e"]))
    results = check(ext, cases)
    # A run that cannot be used is closed, never left 'running'.
    for case, want, _ in cases:
        if want == "P" and case["via"] != "retry":
            assert results[case["name"]]["target_end"]["status"] == "paused", case["name"]


def test_sweep_config_values(ext):
    """No config value crashes a tick or stops a trigger."""
    cases = []
    for key in CONFIG_KEYS:
        for vname, value in VALUES:
            cases.append(({"name": f"triggers_config.{key}={vname}", "table": "triggers_config",
                           "column": key, "value": value, "tid": "a"}, "O",
                          ["b", "c", "d", "e"]))
    check(ext, cases)


# ---- what a paused row says and how it comes back ----------------------


def db_with(ext):
    db = connect(ext)
    add(db, "a", agent_id="ag")
    add(db, "b", agent_id="ag")
    return db


def test_sigfpe_case_pauses_and_resumes_after_the_fix(ext):
    """interval_ms = 0 divided by zero in every client before the fix."""
    db = db_with(ext)
    db.execute("UPDATE triggers_data SET interval_ms = 0 WHERE trigger_id = 'a'")
    got = tick(db, T0 + 2 * MIN)
    assert [r["trigger_id"] for r in got] == ["b"]
    a = trig(db, "a")
    assert (a["status"], a["enabled"], a["next_due_at"]) == ("paused", 0, None)
    assert a["last_error"] == ("triggers_data.interval_ms: must be >= 1000, got 0;"
                               " trigger paused"), a["last_error"]
    assert one(db, "SELECT trigger_next_wakeup(?)", T0 + 2 * MIN) > 0
    # Refused until fixed, with the reason; then it resumes from now.
    try:
        one(db, "SELECT trigger_resume('a', ?)", T0 + 3 * MIN)
        assert False, "resumed with interval_ms 0"
    except sqlite3.IntegrityError as e:
        assert "triggers_data.interval_ms: must be >= 1000, got 0" in str(e), e
    try:
        db.execute("UPDATE triggers SET display_name = 'x' WHERE trigger_id = 'a'")
        assert False, "updated with interval_ms 0"
    except sqlite3.IntegrityError as e:
        assert "triggers.interval_ms: must be >= 1000, got 0" in str(e), e
    db.execute("UPDATE triggers SET interval_ms = 60000, enabled = 1 WHERE trigger_id = 'a'")
    a = trig(db, "a")
    assert a["status"] == "scheduled" and a["next_due_at"] is not None


def test_resume_after_fixing_the_shadow_row(ext):
    db = db_with(ext)
    db.execute("UPDATE triggers_data SET interval_ms = 5 WHERE trigger_id = 'a'")
    tick(db, T0 + 2 * MIN)
    assert "triggers_data.interval_ms: " in trig(db, "a")["last_error"]
    db.execute("UPDATE triggers_data SET interval_ms = 60000 WHERE trigger_id = 'a'")
    a = json.loads(one(db, "SELECT trigger_resume('a', ?)", T0 + 3 * MIN))
    assert a["status"] == "scheduled" and a["next_due_at"] == T0 + 4 * MIN
    assert sorted(r["trigger_id"] for r in tick(db, T0 + 4 * MIN)) == ["a", "b"]


def test_lifecycle_calls_on_a_changed_row(ext):
    """pause and cancel take it out of the schedule with the reason; fire
    and resume are refused (nothing changes); DELETE works."""
    db = db_with(ext)
    db.execute("UPDATE triggers_data SET misfire_policy = 'never' WHERE trigger_id = 'a'")
    why = "triggers_data.misfire_policy: 'never' is not one of 'coalesce', 'all', 'skip'"
    for fn in ("trigger_fire", "trigger_resume"):
        before = one(db, "SELECT count(*) FROM trigger_runs")
        try:
            one(db, f"SELECT {fn}('a', ?)", T0)
            assert False, fn
        except sqlite3.IntegrityError as e:
            assert f"{fn}: trigger 'a' holds a value changed outside the extension: {why}" in str(e), e
        assert one(db, "SELECT count(*) FROM trigger_runs") == before
        assert trig(db, "a")["status"] == "scheduled"
    db.execute("SAVEPOINT s")
    c = json.loads(one(db, "SELECT trigger_cancel('a', ?)", T0))
    assert c["status"] == "cancelled" and c["last_error"] == why + "; trigger cancelled"
    db.execute("ROLLBACK TO s")
    db.execute("RELEASE s")
    p = json.loads(one(db, "SELECT trigger_pause('a', ?)", T0))
    assert (p["status"], p["enabled"], p["next_due_at"]) == ("paused", 0, None)
    assert p["last_error"] == why + "; trigger paused"
    assert p["misfire_policy"] == "never"       # the value itself is left as it is
    db.execute("DELETE FROM triggers WHERE trigger_id = 'a'")
    assert trig(db, "a") is None


def test_lifecycle_json_stays_json(ext):
    """A value that is not JSON (metadata) or not of its column's type is
    shown as a JSON string in the functions' results, never pasted in."""
    db = db_with(ext)
    db.execute("UPDATE triggers_data SET metadata = '{not json' WHERE trigger_id = 'a'")
    p = json.loads(one(db, "SELECT trigger_pause('a', ?)", T0))
    assert p["metadata"] == "{not json" and p["status"] == "paused"
    assert p["last_error"] == "triggers_data.metadata: must be a JSON object; trigger paused"
    db.execute("UPDATE triggers_state SET claims = -3 WHERE trigger_id = 'b'")
    p = json.loads(one(db, "SELECT trigger_cancel('b', ?)", T0))
    assert p["status"] == "cancelled"
    assert "triggers_state.claims: " in p["last_error"]


def test_finish_of_a_run_of_a_changed_trigger(ext):
    """The host's report is recorded; the trigger is paused, its running
    count given back, so resuming it after the fix runs it again."""
    db = db_with(ext)
    [ra, rb] = tick(db, T0 + MIN)
    db.execute("UPDATE triggers_data SET backoff_ms = -5 WHERE trigger_id = 'a'")
    out = finish(db, ra["run_id"], "failed", "boom", T0 + MIN + 5)
    assert out["status"] == "paused", out
    assert out["last_error"] == "triggers_data.backoff_ms: must be >= 0, got -5; trigger paused"
    run = db.execute("SELECT status, error, retry_at FROM triggers_rundata WHERE run_id = ?",
                     (ra["run_id"],)).fetchone()
    assert run == ("failed", "boom", None)       # as reported, no retry
    assert one(db, "SELECT running FROM triggers_state WHERE trigger_id = 'a'") == 0
    db.execute("UPDATE triggers_data SET backoff_ms = 1000 WHERE trigger_id = 'a'")
    finish(db, rb["run_id"], "success", None, T0 + MIN + 5)
    one(db, "SELECT trigger_resume('a', ?)", T0 + 2 * MIN)
    assert sorted(r["trigger_id"] for r in tick(db, T0 + 3 * MIN)) == ["a", "b"]


def test_finish_of_a_changed_run(ext):
    db = db_with(ext)
    [ra, rb] = tick(db, T0 + MIN)
    # the attempt with its run_id (either alone is refused: a CHECK)
    rid = ra["run_id"][:-1] + "0"
    db.execute("UPDATE triggers_rundata SET attempt = 0, run_id = ? WHERE run_id = ?",
               (rid, ra["run_id"]))
    out = finish(db, rid, "success", None, T0 + MIN + 5)
    why = f"triggers_rundata.attempt: must be within 1..9007199254740992, got 0 (run '{rid}')"
    assert out["status"] == "paused" and out["last_error"] == why + "; trigger paused", out
    run = db.execute("SELECT status, error FROM triggers_rundata WHERE run_id = ?",
                     (rid,)).fetchone()
    assert run == ("failed", why + "; run closed (reported: success)"), run
    assert one(db, "SELECT running FROM triggers_state WHERE trigger_id = 'a'") == 0
    finish(db, rb["run_id"], "success", None, T0 + MIN + 5)


def test_finish_on_a_changed_trigger_keeps_the_result(ext):
    """finish_run on a trigger that fails its check still stores the
    report as main does: a success's detail is the run's result, not its
    error, and last_error is only the pause's reason."""
    db = db_with(ext)
    [ra, rb] = tick(db, T0 + MIN)
    db.execute("UPDATE triggers_data SET jitter_ms = -1 WHERE trigger_id = 'a'")
    out = finish(db, ra["run_id"], "success", b"done \x80", T0 + MIN + 5)
    assert out["status"] == "paused", out
    assert out["last_error"] == "triggers_data.jitter_ms: must be >= 0, got -1; trigger paused"
    run = db.execute("SELECT status, error, result FROM triggers_rundata WHERE run_id = ?",
                     (ra["run_id"],)).fetchone()
    assert run == ("success", None, "done \ufffd"), run


def test_run_incarnation_out_of_range_pauses_not_holds(ext):
    """An incarnation no write leaves (0, -1, huge) is not read as another
    incarnation's run: the trigger is paused and its running count given
    back (else it would stay held by a run that is not its own)."""
    for bad in (0, -1, 2**62):
        db = db_with(ext)
        [ra, rb] = tick(db, T0 + MIN)
        rid = f"{ra['run_id']}~{bad}"  # the run_id follows (a CHECK)
        db.execute("UPDATE triggers_rundata SET incarnation = ?, run_id = ? WHERE run_id = ?",
                   (bad, rid, ra["run_id"]))
        out = finish(db, rid, "success", None, T0 + MIN + 5)
        assert out is not None and out["status"] == "paused", (bad, out)
        assert out["last_error"].startswith("triggers_rundata.incarnation: must be within"), out
        assert one(db, "SELECT running FROM triggers_state WHERE trigger_id = 'a'") == 0


def test_heartbeat_of_a_changed_run(ext):
    """trigger_run_heartbeat reads a run back: a lease_ms or lease_until no
    claim writes is refused with the column, and nothing is written (a
    lease_ms of INT64 max would overflow now + lease_ms)."""
    db = db_with(ext)
    [ra, rb] = tick(db, T0 + MIN, lease_ms=MIN)
    rid = ra["run_id"]
    until = one(db, "SELECT lease_until FROM triggers_rundata WHERE run_id = ?", rid)
    for col, bad in (("lease_ms", I64_MAX), ("lease_ms", 0), ("lease_ms", -1),
                     ("claimed_at", I64_MIN)):
        old = one(db, f"SELECT {col} FROM triggers_rundata WHERE run_id = ?", rid)
        db.execute(f"UPDATE triggers_rundata SET {col} = ? WHERE run_id = ?", (bad, rid))
        try:
            one(db, "SELECT trigger_run_heartbeat(?, NULL, ?)", rid, T0 + MIN + 5)
            assert False, (col, bad)
        except sqlite3.Error as e:
            assert f"run '{rid}' holds a value changed outside the extension: " \
                   f"triggers_rundata.{col}: " in str(e), (col, bad, e)
        assert one(db, "SELECT lease_until FROM triggers_rundata WHERE run_id = ?",
                   rid) == until
        db.execute(f"UPDATE triggers_rundata SET {col} = ? WHERE run_id = ?", (old, rid))
    # NULL: claimed before schema version 4; renewed by the claim's length
    db.execute("UPDATE triggers_rundata SET lease_ms = NULL WHERE run_id = ?", (rid,))
    out = json.loads(one(db, "SELECT trigger_run_heartbeat(?, NULL, ?)", rid, T0 + MIN + 5))
    assert out["lease_until"] == T0 + MIN + 5 + MIN, out


def test_state_copy_mismatch_pages_on(ext):
    """triggers_state's copies of trigger_id and agent_id are the keys of
    the tick's index order: a changed copy pauses that trigger and the
    tick's batches still reach every row after it."""
    db = connect(ext)
    for i in range(40):      # more than the first batch (16 rows)
        add(db, f"t{i:02d}", interval_ms=3600000, created_at=T0 - 3600000 + i)
    db.execute("UPDATE triggers_state SET trigger_id = 'zzz' WHERE trigger_id = 't15'")
    db.execute("UPDATE triggers_state SET agent_id = 'other' WHERE trigger_id = 't03'")
    got = sorted(r["trigger_id"] for r in tick(db, T0 + 60000))
    assert got == [f"t{i:02d}" for i in range(40) if i not in (3, 15)], got
    assert trig(db, "t15")["last_error"].startswith(
        "triggers_state.trigger_id: differs from triggers_data.trigger_id 't15'")
    assert trig(db, "t03")["last_error"].startswith(
        "triggers_state.agent_id: differs from triggers_data.agent_id ''")


def test_config_values_fall_back_to_defaults(ext):
    """A config value trigger_config(key, value) would refuse is read as
    the default (never as 0 or garbage), and trigger_config(key) says so."""
    db = connect(ext)
    add(db, "late", misfire_policy="skip", interval_ms=3600000, start_at=T0)
    for key, value in [("misfire_grace_ms", "x"), ("misfire_grace_ms", -1),
                       ("misfire_grace_ms", b"\x00"), ("misfire_grace_ms", 1.5)]:
        db.execute("INSERT OR REPLACE INTO triggers_config VALUES (?, ?)", (key, value))
        try:
            one(db, "SELECT trigger_config(?)", key)
            assert False, (key, value)
        except sqlite3.IntegrityError as e:
            assert f"trigger_config: triggers_config.{key}: '" in str(e)
            assert "the default 60000 is used" in str(e), e
    # 30 s late is within the default grace of 60 s: it runs (read as 0, it
    # would be skipped).
    assert [r["trigger_id"] for r in tick(db, T0 + 30000)] == ["late"]
    # The create action's policy: min_interval_ms 'x' -> the default 60000.
    db.execute("INSERT OR REPLACE INTO triggers_config VALUES ('min_interval_ms', 'x')")
    db.execute("INSERT OR REPLACE INTO triggers_config VALUES ('creation_window_ms', ?)",
               (str(I64_MIN),))
    db.execute("INSERT OR REPLACE INTO triggers_config VALUES ('min_confidence', 'x')")
    ctx = json.dumps({"agent_id": "ag", "role": "owner", "autonomy_available": True,
                      "now": T0})
    r = json.loads(one(db, "SELECT trigger_create(?, ?)",
                       json.dumps({"instructions": "fast", "trigger_type": "interval",
                                   "interval_ms": 30000}), ctx))
    assert r["success"] is False and r["error"] == "INVALID_SCHEDULE", r
    r = json.loads(one(db, "SELECT trigger_create(?, ?)",
                       json.dumps({"instructions": "ok", "trigger_type": "interval",
                                   "interval_ms": 600000}), ctx))
    assert r["success"] is True and r["created"] is True, r
    # Setting a valid value again is the fix.
    assert one(db, "SELECT trigger_config('min_interval_ms', 1000)") == 1000
    assert one(db, "SELECT trigger_config('min_confidence', '0.25')") == "0.25"
    try:
        one(db, "SELECT trigger_config('min_confidence', 'lots')")
        assert False
    except sqlite3.Error as e:
        assert "min_confidence must be a number 0..1" in str(e), e


def test_schema_version_changed(ext):
    tmp = tempfile.mkdtemp(prefix="shadow-")
    try:
        path = os.path.join(tmp, "v.db")
        db = connect(ext, path)
        add(db, "a")
        db.close()
        for value in ("x", None, 0, -3, 2.5, b"\x01"):
            raw = sqlite3.connect(path, isolation_level=None)
            raw.execute("UPDATE triggers_config SET value = ? WHERE key = 'schema_version'",
                        (value,))
            raw.close()
            db = connect(ext, path, install=False)
            try:
                db.execute("SELECT * FROM triggers").fetchall()
                assert False, value
            except sqlite3.Error as e:
                assert "triggers_config" in str(e) and "schema_version" in str(e), (value, e)
            try:
                one(db, "SELECT trigger_install()")
                assert False, value
            except sqlite3.Error as e:
                assert "schema_version" in str(e), (value, e)
            db.close()
        raw = sqlite3.connect(path, isolation_level=None)
        raw.execute("UPDATE triggers_config SET value = 5 WHERE key = 'schema_version'")
        raw.close()
        db = connect(ext, path)
        assert [r["trigger_id"] for r in tick(db, T0 + MIN)] == ["a"]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---- the sqlite3 shell and trigger-host -------------------------------


def changed_db(ext, path):
    db = connect(ext, path)
    add(db, "a")
    add(db, "b")
    db.execute("UPDATE triggers_data SET interval_ms = 0 WHERE trigger_id = 'a'")
    db.execute("UPDATE triggers_state SET claims = -1 WHERE trigger_id = 'b'")
    add(db, "c")
    db.close()


def test_sqlite3_shell_ticks_a_changed_database(ext):
    tmp = tempfile.mkdtemp(prefix="shadow-")
    try:
        path = os.path.join(tmp, "s.db")
        changed_db(ext, path)
        sql = (f".load {ext}\n"
               f"SELECT json_array_length(trigger_run_due({T0 + 2 * MIN}));\n"
               "SELECT trigger_id, status, last_error FROM triggers ORDER BY 1;\n")
        p = subprocess.run(["sqlite3", path], input=sql, capture_output=True, text=True,
                           timeout=60)
        assert p.returncode == 0, (p.returncode, p.stderr)   # a signal is < 0
        assert p.stdout.splitlines() == [
            "1",
            "a|paused|triggers_data.interval_ms: must be >= 1000, got 0; trigger paused",
            "b|paused|triggers_state.claims: must be >= 0, got -1; trigger paused",
            "c|scheduled|"], p.stdout
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_trigger_host_tick_on_a_changed_database(ext):
    tmp = tempfile.mkdtemp(prefix="shadow-")
    try:
        path = os.path.join(tmp, "h.db")
        changed_db(ext, path)
        host = os.path.join(os.path.dirname(ext), "trigger-host")
        p = subprocess.run([host, "tick", path, "--extension", ext, "-v"],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, (p.returncode, p.stderr)   # a signal is < 0
        lines = [json.loads(x) for x in p.stdout.splitlines()]
        assert [x["trigger_id"] for x in lines] == ["c"], p.stdout
        # Its own connection is defensive (and install works with it).
        assert "open (defensive)" in p.stderr, p.stderr
        db = connect(ext, path)
        assert [trig(db, t)["status"] for t in "abc"] == ["paused", "paused", "scheduled"]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def test_trigger_host_installs_and_migrates_with_defensive_on(ext):
    """SQLITE_DBCONFIG_DEFENSIVE keeps SQL from writing the shadow tables,
    not the extension: install and the migration from schema 2 work."""
    tmp = tempfile.mkdtemp(prefix="shadow-")
    try:
        host = os.path.join(os.path.dirname(ext), "trigger-host")
        fresh = os.path.join(tmp, "fresh.db")
        p = subprocess.run([host, "tick", fresh, "--create", "--extension", ext, "-v"],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 0 and "open (defensive)" in p.stderr, p.stderr
        old = os.path.join(tmp, "v2.db")
        raw = sqlite3.connect(old, isolation_level=None)
        with open(os.path.join(FIXTURES, "schema_v2.sql")) as f:
            raw.executescript(f.read())
        raw.close()
        p = subprocess.run([host, "tick", old, "--extension", ext],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr
        raw = sqlite3.connect(old, isolation_level=None)
        assert raw.execute("SELECT value FROM triggers_config"
                           " WHERE key = 'schema_version'").fetchone()[0] == 6
        raw.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
