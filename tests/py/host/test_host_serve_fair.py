"""tests/py/host/test_host_serve_fair.py -- `serve` shares its --jobs slots
among its databases: each claim pass starts at the database after the one
that claimed last (host/loop.c), so a database with a backlog does not
hold the others' due runs until it has caught up."""
from util.host import Tmp, add_interval, now_ms, runs, start, stop, wait_for


def test_backlog_in_one_database_does_not_starve_another(ext):
    with Tmp() as t:
        big, big_db = t.db(ext, "a.db")
        small, small_db = t.db(ext, "b.db")
        due = now_ms() - 60000
        for i in range(40):
            add_interval(big_db, f"a{i:02d}", due + i, interval_ms=3600000, instructions=f"a {i}")
        for i in range(3):
            add_interval(small_db, f"b{i}", due + i, interval_ms=3600000, instructions=f"b {i}")
        # one slot, 50 ms commands, nothing claimed ahead: a.db's 40 runs
        # take 2 s one after the other
        proc = start(ext, "serve", big, small, "--exec", "sleep 0.05", "--jobs", "1",
                     "--prefetch", "0")
        try:
            assert wait_for(lambda: len(runs(small_db, "status = 'success'")) == 3, 10)
            claimed_big = len(runs(big_db))
        finally:
            rc, _, err = stop(proc, timeout=10)
        assert rc == 0, err
        # taking turns: a.db had claimed about as many as b.db by then
        assert claimed_big <= 5, claimed_big
