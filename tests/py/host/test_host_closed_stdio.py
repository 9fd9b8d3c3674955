"""tests/py/host/test_host_closed_stdio.py -- trigger-host started with stdin,
stdout and stderr closed (as a careless daemon manager may start it):
descriptors 0-2 are then handed out to its own pipes, and a command's
stdin pipe can get descriptor 2 (in --via mode no database file holds it
once a statement's pipes are closed). shell.c then moves every source
above them before the dup2()s onto 0-2 (a source below 3 could be
overwritten by an earlier one): the command reads its payload on stdin,
its stdout is the run's result, its stderr is not mixed in."""
import os
import subprocess

from util.host import Tmp, add_interval, host_bin, now_ms, runs


def test_commands_get_their_stdio_with_the_hosts_closed(ext):
    with Tmp() as t:
        path, db = t.db(ext, "far.db")
        add_interval(db, "a", now_ms() - 500, interval_ms=3600000)
        via = f"sqlite3 -bail -cmd '.load {os.path.abspath(ext)}' {path}"
        got = t.file("stdin.txt")

        def close_stdio():
            for fd in (0, 1, 2):
                os.close(fd)
        p = subprocess.Popen([host_bin(ext), "tick", "far", "--via", via, "--exec",
                              f"cat > {got}; echo result; echo noise >&2"],
                             preexec_fn=close_stdio)
        assert p.wait(timeout=30) == 0
        [r] = runs(db)
        assert (r["status"], r["result"], r["error"]) == ("success", "result", None), r
        with open(got) as f:
            assert f.read() == r["payload"] + "\n"
