"""tests/py/test_rekey_unreadable.py -- trigger_install's one-time
recomputation of tdk1 dedupe keys (store/rekey.c) over rows whose schedule
cannot be read (a cron expression or trigger type changed outside the
extension): such a row keeps its key, the others are recomputed, and the
install succeeds."""
from util import MIN, add, connect, one


def test_unreadable_schedules_keep_their_keys(ext):
    db = connect(ext)
    add(db, "good", trigger_type="cron", cron_expression="0 9 * * *")
    add(db, "badcron", trigger_type="cron", cron_expression="0 8 * * *")
    add(db, "badtype", interval_ms=MIN)
    good = one(db, "SELECT dedupe_key FROM triggers WHERE trigger_id = 'good'")
    db.execute("UPDATE triggers_data SET dedupe_key = 'tdk1:' || trigger_id")
    db.execute("UPDATE triggers_data SET cron_expression = 'nonsense' "
               "WHERE trigger_id = 'badcron'")
    db.execute("UPDATE triggers_data SET trigger_type = 'weird' WHERE trigger_id = 'badtype'")
    db.execute("DELETE FROM triggers_config WHERE key = 'dedupe_format'")
    assert one(db, "SELECT trigger_install()") == 5
    assert dict(db.execute("SELECT trigger_id, dedupe_key FROM triggers_data")) == {
        "good": good, "badcron": "tdk1:badcron", "badtype": "tdk1:badtype"}
    assert one(db, "SELECT value FROM triggers_config WHERE key = 'dedupe_format'") == "tdk2"
