"""tests/py/host/test_host_many_jobs.py -- more commands at once than the
host's first allocations hold (test_host_limits.py has the usual --jobs):
with --jobs 10 (above the spawner's 8 threads) ten commands run at the
same time, each waiting until all ten have started; and in print mode a
stdout lost on the first of two databases stops the claims before the
second (exit 3, its trigger left unclaimed)."""
import subprocess

from util.host import Tmp, add_once, due_db, host_bin, now_ms, runs


def test_ten_commands_at_once(ext):
    with Tmp() as t:
        path, db = due_db(ext, t, 10)
        d = t.file("started")
        cmd = (f"mkdir -p {d}; touch {d}/$TRIGGER_ID; i=0; "
               f"while [ $(ls {d} | wc -l) -lt 10 ] && [ $i -lt 200 ]; do "
               "sleep 0.05; i=$((i+1)); done; ls " + d + " | wc -l")
        p = subprocess.run([host_bin(ext), "tick", path, "--extension", ext, "--jobs", "10",
                            "--exec", cmd], capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr
        got = runs(db)
        assert len(got) == 10, got
        # each saw all ten started before it ended: they ran at once
        assert all((r["status"], r["result"]) == ("success", "10") for r in got), got


def test_stdout_lost_on_the_first_of_two_databases(ext):
    with Tmp() as t:
        (a, da), (b, db) = t.db(ext, "a.db"), t.db(ext, "b.db")
        add_once(da, "x", now_ms() - 1000)
        add_once(db, "y", now_ms() - 1000)
        p = subprocess.run(f"{host_bin(ext)} tick {a} {b} --extension {ext} >&-", shell=True,
                           capture_output=True, text=True, timeout=30)
        assert p.returncode == 3, (p.returncode, p.stderr)
        assert [r["status"] for r in runs(da)] == ["deferred"]
        assert runs(db) == []
