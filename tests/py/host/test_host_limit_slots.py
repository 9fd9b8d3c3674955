"""tests/py/host/test_host_limit_slots.py -- --limit together with --jobs
(test_host_opts.py has --limit alone): in tick mode a pass claims as slots
free up until --limit runs are claimed, no more; in run mode --limit bounds
each claim, and every due run is still claimed, claim after claim."""
import signal
import subprocess

from util.host import Tmp, due_db, host_bin, runs, wait_for


def test_tick_limit_with_one_slot(ext):
    with Tmp() as t:
        path, db = due_db(ext, t, 6)
        p = subprocess.run([host_bin(ext), "tick", path, "--extension", ext, "--limit", "3",
                            "--jobs", "1", "--exec", "true"],
                           capture_output=True, text=True, timeout=30)
        assert p.returncode == 0, p.stderr
        got = runs(db)
        assert len(got) == 3 and all(r["status"] == "success" for r in got), got


def test_run_limit_claims_again(ext):
    with Tmp() as t:
        path, db = due_db(ext, t, 3)
        proc = subprocess.Popen([host_bin(ext), "run", path, "--extension", ext, "--limit", "1",
                                 "--exec", "true"],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            assert wait_for(lambda: sum(r["status"] == "success" for r in runs(db)) == 3, 15), \
                runs(db)
        finally:
            proc.send_signal(signal.SIGTERM)
            _, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, err
        assert len(runs(db)) == 3
