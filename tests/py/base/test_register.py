"""tests/py/base/test_register.py -- loading the extension and the flags
its SQL functions are registered with (ext/ext.c, ext/base/register.c):
every function loads with trigger_version() and the tables; the pure ones
are INNOCUOUS and never DETERMINISTIC (zone data changes with tzdata), the
ones with side effects DIRECTONLY. (The summary functions' flags are
checked in agent/test_summary.py.)"""
from util import connect, one


def test_load_and_version(ext):
    db = connect(ext)
    assert one(db, "SELECT trigger_version()").count(".") == 2
    assert one(db, "SELECT count(*) FROM triggers") == 0


def test_function_flags(ext):
    db = connect(ext)
    flags = dict(db.execute(
        "SELECT name, flags FROM pragma_function_list WHERE name LIKE 'trigger_%'"))
    DETERMINISTIC, DIRECTONLY, INNOCUOUS = 0x800, 0x80000, 0x200000
    assert flags["trigger_version"] & DETERMINISTIC and flags["trigger_version"] & INNOCUOUS
    for pure in ("trigger_iso", "trigger_next_due"):
        assert flags[pure] & INNOCUOUS and not flags[pure] & DIRECTONLY, pure
        # zone data can change with tzdata upgrades: never DETERMINISTIC
        assert not flags[pure] & DETERMINISTIC, pure
    for side in ("trigger_run_due", "trigger_run_finish", "trigger_run_heartbeat",
                 "trigger_fire", "trigger_pause",
                 "trigger_resume", "trigger_cancel", "trigger_prune", "trigger_config",
                 "trigger_install", "trigger_ical"):
        assert flags[side] & DIRECTONLY and not flags[side] & INNOCUOUS, side
