"""tests/py/store/test_rekey.py -- trigger_install's one-time recomputation
of dedupe keys (ext/store/rekey.c): the tdk1 keys of an older database
(without a cron's time zone) become tdk2 keys once, in its transaction,
without making two active triggers collide; rows whose schedule cannot be
read (a cron expression or trigger type changed outside the extension)
keep their key, the others are recomputed, and the install succeeds."""
import os
import sqlite3
import tempfile

from util import MIN, T0, add, connect, create, dedupe_key, one, trig


def cron(tz, ins="Send the report"):
    return {"instructions": ins, "trigger_type": "cron", "cron_expression": "0 9 * * *",
            "timezone": tz}


def old_database(ext, path):
    """A database as version 0.1 left it: tdk1 keys, no dedupe_format."""
    db = connect(ext, path)
    rows = [  # trigger_id, type, schedule column, schedule canon, tz, status
        ("ny", "cron", "0 9 * * MON-FRI", "0 0 9 * * 1-5", "America/New_York", "scheduled"),
        ("tokyo", "cron", "0 9 * * MON-FRI", "0 0 9 * * 1-5", "Asia/Tokyo", "cancelled"),
        ("utc", "cron", "0 9 * * MON-FRI", "0 0 9 * * 1-5", "UTC", "cancelled"),
        ("iv", "interval", 3600000, "3600000", "Asia/Tokyo", "scheduled"),
        ("once", "once", T0 + 86400000, str(T0 + 86400000), "UTC", "scheduled"),
    ]
    for tid, ttype, sched, _canon, tz, _status in rows:
        col = {"cron": "cron_expression", "interval": "interval_ms",
               "once": "scheduled_at"}[ttype]
        db.execute(f"INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type,"
                   f" {col}, timezone, created_at) VALUES (?, 'a1', 'Send the report', ?, ?,"
                   f" ?, ?)", (tid, ttype, sched, tz, T0))
    new_keys = {tid: one(db, "SELECT dedupe_key FROM triggers WHERE trigger_id = ?", tid)
                for tid, *_ in rows}
    for tid, ttype, _sched, canon, _tz, status in rows:
        db.execute("UPDATE triggers_data SET dedupe_key = ?, status = ? WHERE trigger_id = ?",
                   (dedupe_key("Send the report", ttype, canon, "", fmt="tdk1"), status, tid))
    db.execute("DELETE FROM triggers_config WHERE key = 'dedupe_format'")
    db.close()
    return new_keys


def test_unreadable_schedules_keep_their_keys(ext):
    db = connect(ext)
    add(db, "good", trigger_type="cron", cron_expression="0 9 * * *")
    add(db, "badcron", trigger_type="cron", cron_expression="0 8 * * *")
    good = one(db, "SELECT dedupe_key FROM triggers WHERE trigger_id = 'good'")
    db.execute("UPDATE triggers_data SET dedupe_key = 'tdk1:' || trigger_id")
    db.execute("UPDATE triggers_data SET cron_expression = 'nonsense' "
               "WHERE trigger_id = 'badcron'")
    # (an unknown trigger_type, the other unreadable case, is refused by
    # its CHECK since schema version 6)
    db.execute("DELETE FROM triggers_config WHERE key = 'dedupe_format'")
    assert one(db, "SELECT trigger_install()") == 6
    assert dict(db.execute("SELECT trigger_id, dedupe_key FROM triggers_data")) == {
        "good": good, "badcron": "tdk1:badcron"}
    assert one(db, "SELECT value FROM triggers_config WHERE key = 'dedupe_format'") == "tdk2"


def test_install_recomputes_tdk1_keys_once(ext):
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "old.db")
        want = old_database(ext, path)
        raw = sqlite3.connect(path)
        old = dict(raw.execute("SELECT trigger_id, dedupe_key FROM triggers_data"))
        raw.close()
        # the three crons had one tdk1 key (only one of them active)
        assert old["ny"] == old["tokyo"] == old["utc"], old
        assert all(k.startswith("tdk1:") for k in old.values()), old
        db = connect(ext, path, install=False)
        db.execute("BEGIN")
        assert one(db, "SELECT trigger_install()") == 6
        db.execute("ROLLBACK")  # the install is the caller's transaction's
        assert one(db, "SELECT count(*) FROM triggers_data WHERE dedupe_key LIKE 'tdk1:%'") == 5
        assert one(db, "SELECT trigger_install()") == 6
        got = dict(db.execute("SELECT trigger_id, dedupe_key FROM triggers"))
        assert got == want, (got, want)
        assert len(set(got.values())) == 5, got  # the zones split the crons
        assert one(db, "SELECT value FROM triggers_config WHERE key = 'dedupe_format'") == "tdk2"
        # idempotent: the next install changes nothing, and looks no more
        # (a tdk1 key written behind its back now stays)
        db.execute("UPDATE triggers_data SET dedupe_key = 'tdk1:x' WHERE trigger_id = 'utc'")
        assert one(db, "SELECT trigger_install()") == 6
        assert one(db, "SELECT dedupe_key FROM triggers WHERE trigger_id = 'utc'") == "tdk1:x"
        db.execute("UPDATE triggers_data SET dedupe_key = ? WHERE trigger_id = 'utc'",
                   (want["utc"],))
        # the recomputed keys are the rule's: Tokyo's twin is now free to be
        # created, New York's is still a duplicate
        r = create(db, cron("Asia/Tokyo") | {"cron_expression": "0 9 * * 1-5"})
        assert r["created"], r
        r = create(db, cron("America/New_York") | {"cron_expression": "0 9 * * MON-FRI"})
        assert r["created"] is False and r["existingTriggerId"] == "ny", r
        db.close()


def test_recompute_never_collides(ext):
    """Two active triggers of one agent have different tdk1 keys; their
    tdk2 keys differ too, so the unique index of active keys holds through
    the recomputation, with every kind of schedule and zone."""
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "old.db")
        db = connect(ext, path)
        n = 0
        for ins in ("a", "A  a", "b"):
            for tz in ("UTC", "Asia/Tokyo"):
                for expr in ("0 9 * * *", "0 9 * * 1-5", "@daily"):
                    n += 1
                    db.execute("INSERT OR IGNORE INTO triggers(trigger_id, agent_id, instructions,"
                               " trigger_type, cron_expression, timezone) VALUES"
                               " (?, 'a1', ?, 'cron', ?, ?)", (f"c{n}", ins, expr, tz))
        keys = dict(db.execute("SELECT trigger_id, dedupe_key FROM triggers"))
        seen = set()  # under tdk1, one of each key could be active
        for tid in sorted(keys):
            r = trig(db, tid)
            canon = {"0 9 * * *": "0 0 9 * * *", "0 9 * * 1-5": "0 0 9 * * 1-5",
                     "@daily": "0 0 0 * * *"}[r["cron_expression"]]
            old = dedupe_key(r["instructions"], "cron", canon, "", fmt="tdk1")
            db.execute("UPDATE triggers_data SET dedupe_key = ?, status = ?"
                       " WHERE trigger_id = ?",
                       (old, "cancelled" if old in seen else "scheduled", tid))
            seen.add(old)
        db.execute("DELETE FROM triggers_config WHERE key = 'dedupe_format'")
        active = one(db, "SELECT count(*) FROM triggers WHERE status = 'scheduled'")
        assert one(db, "SELECT trigger_install()") == 6
        assert dict(db.execute("SELECT trigger_id, dedupe_key FROM triggers")) == keys
        assert one(db, "SELECT count(DISTINCT dedupe_key) FROM triggers"
                       " WHERE status = 'scheduled'") == active
        db.close()
