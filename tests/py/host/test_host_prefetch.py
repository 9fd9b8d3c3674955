"""tests/py/host/test_host_prefetch.py -- --exec runs claimed ahead of the free
slots (--prefetch, host/dispatch/dispatch.h): only while the commands are short
(their mean run time says a run claimed ahead starts within 20 ms), never
before a command has ended, never with --prefetch 0; they start in claim
order as slots free up, and a stop releases the ones still waiting
('deferred'), so none is left running. The commands get a clean environment
(--clean-env): under the sanitizer layer a preloaded runtime would make even
`true` take longer than a short command."""
import re
import subprocess
import time

from util.host import (Tmp, add_interval, executions, host_bin, now_ms, runs, start, stop, tick,
                       wait_for)


def due_db(ext, t, n):
    """n hourly triggers t00.., due in that order (1 ms apart) before now."""
    path, db = t.db(ext)
    due = now_ms() - 60000
    for i in range(n):
        add_interval(db, f"t{i:02d}", due + i, interval_ms=3600000)
    return path, db


def tick_claims(ext, t, n, cmd, *flags):
    """A `tick --exec CMD --jobs 2 FLAGS` over n due triggers: each must
    succeed. Returns (db, the size of each claim, from the -v log)."""
    path, db = due_db(ext, t, n)
    rc, _, err = tick(ext, path, "--exec", cmd, "--clean-env", "--jobs", "2", *flags, "-v", timeout=60)
    assert rc == 0, err
    assert len(runs(db, "status = 'success'")) == n
    sizes = [int(k) for k in re.findall(r": claimed (\d+) run\(s\)", err)]
    assert sum(sizes) == n, sizes
    return db, sizes


def test_short_commands_are_claimed_ahead(ext):
    # `true` ends within a few ms: after the first one ends, each claim
    # takes the free slots and up to --prefetch (default: --jobs) more.
    with Tmp() as t:
        db, sizes = tick_claims(ext, t, 40, "true")
        assert all(r["attempt"] == 1 for r in runs(db)), runs(db)
        assert 2 < max(sizes) <= 4, sizes
        # claimed in due order: a later claim never holds an earlier trigger
        order = [r[0] for r in db.execute("SELECT trigger_id FROM trigger_runs"
                                          " ORDER BY claimed_at, trigger_id")]
        assert order == sorted(order), order


def test_prefetch_zero_claims_only_free_slots(ext):
    with Tmp() as t:
        _, sizes = tick_claims(ext, t, 20, "true", "--prefetch", "0")
        assert max(sizes) <= 2, sizes


def test_long_commands_are_not_claimed_ahead(ext):
    # 60 ms commands, 2 jobs: a run claimed ahead would wait ~30 ms, more
    # than the 20 ms a prefetch may wait: every claim takes free slots only.
    with Tmp() as t:
        _, sizes = tick_claims(ext, t, 8, "sleep 0.06", "--prefetch", "64")
        assert max(sizes) <= 2, sizes


def test_stop_releases_the_runs_claimed_ahead(ext):
    # Two slots. t00..t05 end at once (a short mean run time: runs are
    # claimed ahead), t06 and later sleep 1.5 s: while t06 and t07 run, the
    # runs claimed ahead (1 to --prefetch 3 of them) wait. SIGTERM then:
    # t06 and t07 finish, the waiting runs never start and are released
    # 'deferred' (offered again, same attempt); nothing is left running.
    with Tmp() as t:
        path, db = due_db(ext, t, 14)
        log = t.file("log")
        cmd = (f'echo "$TRIGGER_ID" >> {log}; '
               'case "$TRIGGER_ID" in t0[0-5]) ;; *) sleep 1.5 ;; esac')
        proc = start(ext, "run", path, "--exec", cmd, "--clean-env", "--jobs", "2", "--prefetch", "3")
        try:
            assert wait_for(lambda: "t07" in executions(log), 10)
            time.sleep(0.3)
        finally:
            rc, _, err = stop(proc, timeout=10)
        assert rc == 0, err
        assert sorted(executions(log)) == [f"t{i:02d}" for i in range(8)], executions(log)
        status = {r["trigger_id"]: r["status"] for r in runs(db)}
        assert all(status[f"t{i:02d}"] == "success" for i in range(8)), status
        released = sorted(k for k, v in status.items() if v == "deferred")
        assert 1 <= len(released) <= 3, status
        assert released == [f"t{i:02d}" for i in range(8, 8 + len(released))], status
        assert len(status) == 8 + len(released), status  # nothing else claimed or running
        assert err.count("not started, the host stops; released (deferred)") == len(released), err


def test_prefetch_flag(ext):
    with Tmp() as t:
        path, _ = t.db(ext)
        for v in ("0", "1024"):
            rc, _, err = tick(ext, path, "--exec", "true", "--prefetch", v)
            assert rc == 0, (v, err)
        for v in ("-1", "1025"):
            rc, _, err = tick(ext, path, "--exec", "true", "--prefetch", v)
            assert rc == 2 and f"--prefetch {v}: expected 0..1024" in err, (v, err)
        p = subprocess.run([host_bin(ext), "tick", path, "--extension", ext, "--prefetch", "2"],
                           capture_output=True, text=True, timeout=10)
        assert p.returncode == 2 and "--prefetch needs --exec" in p.stderr, p.stderr
