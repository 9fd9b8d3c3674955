"""tests/py/util/__init__.py -- helpers shared by the Python tests: open a
database with the extension loaded and installed, run the tick, dump
tables; where the repository's files are. The host's helpers are in
util/host.py and util/http.py, the crash tests' database in util/crash.py."""
import hashlib
import json
import os
import sqlite3

T0 = 1767225600000  # 2026-01-01T00:00:00Z
MIN = 60000
PY_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/py
ROOT = os.path.dirname(os.path.dirname(PY_DIR))  # the repository
FIXTURES = os.path.join(PY_DIR, "fixtures")  # databases of older versions


def connect(ext, path=":memory:", install=True):
    db = sqlite3.connect(path, isolation_level=None)
    db.enable_load_extension(True)
    db.load_extension(ext)
    db.enable_load_extension(False)
    if install:
        db.execute("SELECT trigger_install()")
    return db


def one(db, sql, *args):
    row = db.execute(sql, args).fetchone()
    return row[0] if row else None


def error(db, sql, *args, kind=sqlite3.Error):
    """The message of the error that sql (with args) raises; fails the test
    when it raises none."""
    try:
        db.execute(sql, args).fetchall()
    except kind as e:
        return str(e)
    raise AssertionError(sql)


def column(db, sql, *args):
    """The first column of every row sql (with args) gives."""
    return [r[0] for r in db.execute(sql, args).fetchall()]


def create(db, req, ctx=None, fn="trigger_create"):
    """trigger_create (or fn, e.g. trigger_create_xml) of req and ctx, each
    a dict (written as JSON) or a text passed as it is; ctx defaults to the
    owner of agent a1 at T0. Its answer, parsed."""
    ctx = {"agent_id": "a1", "role": "owner", "now": T0} if ctx is None else ctx
    return json.loads(one(db, f"SELECT {fn}(?, ?)",
                          req if req is None or isinstance(req, str) else json.dumps(req),
                          ctx if isinstance(ctx, str) else json.dumps(ctx)))


def vm_steps(db, sql, *args):
    """VM steps of one statement, the nested statements it runs included."""
    steps = [0]

    def count():
        steps[0] += 1
        return 0
    db.set_progress_handler(count, 1)
    one(db, sql, *args)
    db.set_progress_handler(None, 1)
    return steps[0]


def tick(db, now, **opts):
    text = one(db, "SELECT trigger_run_due(?, ?)", now, json.dumps(opts))
    return json.loads(text)


def finish(db, run_id, status, error=None, now=None):
    return json.loads(one(db, "SELECT trigger_run_finish(?, ?, ?, ?)", run_id, status, error, now))


def add(db, trigger_id, **cols):
    cols = dict(cols)
    cols.setdefault("instructions", "do " + trigger_id)
    cols.setdefault("trigger_type", "interval")
    if cols["trigger_type"] == "interval":
        cols.setdefault("interval_ms", MIN)
    cols.setdefault("created_at", T0)
    names = ["trigger_id"] + list(cols)
    db.execute(
        f"INSERT INTO triggers({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
        [trigger_id] + list(cols.values()),
    )


def trig(db, trigger_id):
    cur = db.execute("SELECT * FROM triggers WHERE trigger_id = ?", (trigger_id,))
    row = cur.fetchone()
    return dict(zip([d[0] for d in cur.description], row)) if row else None


def runs(db, trigger_id=None):
    sql = "SELECT * FROM trigger_runs"
    args = ()
    if trigger_id:
        sql += " WHERE trigger_id = ?"
        args = (trigger_id,)
    cur = db.execute(sql + " ORDER BY scheduled_for, attempt", args)
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r)) for r in cur.fetchall()]


def dump(db):
    """Every shadow row, as text: equal dumps = byte-identical state."""
    out = []
    for table in ("triggers_data", "triggers_state", "triggers_rundata",
                  "triggers_config"):
        for row in db.execute(f"SELECT * FROM {table} ORDER BY 1"):
            out.append(f"{table}|{row!r}")
    return "\n".join(out)


def refused(db, sql, args, message, snapshot=dump):
    """sql (with args) fails with message in its error and changes nothing
    that snapshot(db) shows."""
    before = snapshot(db)
    try:
        db.execute(sql, args)
    except sqlite3.Error as e:
        assert message in str(e), (sql, str(e))
    else:
        raise AssertionError(f"not refused: {sql}")
    assert snapshot(db) == before, sql


def from_fixture(ext, tmp, name, extra=""):
    """A database file restored from fixtures/<name> (plus extra SQL),
    opened afresh so the restored schema is read."""
    path = os.path.join(tmp, name + ".db")
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path, isolation_level=None)
    with open(os.path.join(FIXTURES, name)) as f:
        db.executescript(f.read() + extra)
    db.close()
    return connect(ext, path, install=False)


def events(db, where="", *args):
    """Rows of trigger_events (its rowid as event_id), as dicts."""
    cur = db.execute("SELECT rowid AS event_id, * FROM trigger_events " + where, args)
    cols = [d[0] for d in cur.description]
    return [dict(zip(cols, r)) for r in cur.fetchall()]


def health(db, now, **opts):
    """trigger_health at now (with opts as its options, when given), parsed."""
    if opts:
        return json.loads(one(db, "SELECT trigger_health(?, ?)", now, json.dumps(opts)))
    return json.loads(one(db, "SELECT trigger_health(?)", now))


def dedupe_key(instructions, ttype, schedule, scope, tz="UTC", fmt="tdk2"):
    """The documented dedupe key (docs/create-action.md#dedupe-keys): a
    cron's or rrule's canonical schedule is followed by a space and its
    time zone;
    fmt "tdk1" is version 0.1's key, the same text without the zone."""
    norm = " ".join(instructions.split())
    norm = "".join(c.lower() if "A" <= c <= "Z" else c for c in norm)
    if ttype in ("cron", "rrule") and fmt == "tdk2":
        schedule = f"{schedule} {tz}"
    text = json.dumps([fmt, norm, ttype, schedule, scope], separators=(",", ":"),
                      ensure_ascii=False)
    return f"{fmt}:" + hashlib.sha256(text.encode()).hexdigest()[:32]


def retry_at(db, trigger_id, attempt):
    """The run's pending retry instant (a shadow column, not in trigger_runs)."""
    return one(db, "SELECT retry_at FROM triggers_rundata WHERE trigger_id = ? AND attempt = ?",
               trigger_id, attempt)
