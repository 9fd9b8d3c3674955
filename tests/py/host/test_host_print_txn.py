"""tests/py/host/test_host_print_txn.py -- print mode in the claim's own
transaction (host/dispatch/printtx.c): where stdout cannot block (a file, a device
that is not a terminal, a pipe with room for the batch) trigger-host
claims a batch with {"ack": false} inside BEGIN IMMEDIATE, writes its
lines, and commits: the runs are 'success' with no lease and no report of
their own, a batch is one commit, and a host killed before its commit
leaves the batch due (offered again at once, not after a lease). A
full pipe is waited for with nothing claimed; a terminal and
--print-lease take the lease path
(claim, line, report), as do the tests of test_host.py that name it."""
import fcntl
import json
import os
import pty
import re
import signal
import sqlite3
import subprocess
import threading
import time

from util.host import Tmp, add_interval, add_once, host_bin, now_ms, runs
from util import one


def connect_plain(path):
    """A second connection without the extension, writing a table of its
    own with a 1.5 s busy timeout."""
    c = sqlite3.connect(path, isolation_level=None, timeout=1.5)
    c.execute("CREATE TABLE IF NOT EXISTS side(x)")
    return c

F_SETPIPE_SZ = 1031  # <fcntl.h>; Python 3.10+ has fcntl.F_SETPIPE_SZ


def add_due(db, n, prefix="d", pad=0):
    due = now_ms() - 500
    db.execute("BEGIN")
    for i in range(n):
        add_interval(db, f"{prefix}{i:05d}", due, interval_ms=3600000,
                     instructions=f"do {prefix}{i:05d} " + "x" * pad)
    db.execute("COMMIT")


def drain(fd):
    """A thread reading fd to its end; its chunks land in the list."""
    chunks = []
    reader = threading.Thread(target=lambda: chunks.extend(iter(
        lambda: os.read(fd, 1 << 16), b"")))
    reader.start()
    return reader, chunks


def leased(r):
    """The run went through the lease path: a lease was recorded."""
    return r["lease_until"] is not None


def printed_batches(err):
    return [int(n) for n in re.findall(r"claimed (\d+) run\(s\) and printed them", err)]


def test_print_tick_in_the_claims_transaction(ext):
    # 3000 due runs of ~1.3 KB lines to a pipe: each printed once,
    # 'success' with no lease and no latency, the trigger's counters as
    # after a report; no report batch at all, as many commits as printed
    # batches, and no batch more than the pipe (1 MiB) takes
    with Tmp() as t:
        path, db = t.db(ext)
        add_due(db, 3000, pad=600)
        p = subprocess.run([host_bin(ext), "tick", path, "--extension", ext, "-v"],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr[-2000:]
        printed = [json.loads(x)["run_id"] for x in p.stdout.splitlines()]
        assert len(printed) == 3000 == len(set(printed))
        got = runs(db)
        assert sorted(r["run_id"] for r in got) == sorted(printed)
        assert all(r["status"] == "success" and not leased(r) and r["latency_ms"] == 0
                   and r["finished_at"] == r["claimed_at"] for r in got), got[0]
        assert one(db, "SELECT sum(run_count) FROM triggers") == 3000
        assert one(db, "SELECT count(*) FROM triggers WHERE last_status = 'success'") == 3000
        assert "report(s) in one transaction" not in p.stderr
        b = printed_batches(p.stderr)
        assert sum(b) == 3000 and 4 <= len(b) <= 60, b
        shortest = min(len(x) + 1 for x in p.stdout.splitlines())
        assert max(b) * shortest <= 1 << 20, (b, shortest)
        assert "3000 report(s) written in %d transaction(s)" % len(b) in p.stderr
        assert one(db, "PRAGMA integrity_check") == "ok"
        # nothing is left due: a second tick prints nothing
        p = subprocess.run([host_bin(ext), "tick", path, "--extension", ext],
                           capture_output=True, text=True, timeout=10)
        assert (p.returncode, p.stdout) == (0, ""), p.stderr


def test_print_to_a_file_and_print_lease(ext):
    # a regular file: the claim's transaction; --print-lease: the lease path
    for lease in (False, True):
        with Tmp() as t:
            path, db = t.db(ext)
            add_due(db, 5)
            with open(t.file("out"), "w") as out:
                p = subprocess.run([host_bin(ext), "tick", path, "--extension", ext]
                                   + (["--print-lease"] if lease else []),
                                   stdout=out, stderr=subprocess.PIPE, text=True, timeout=10)
            assert p.returncode == 0, p.stderr
            lines = open(t.file("out")).read().splitlines()
            got = runs(db)
            assert sorted(json.loads(x)["run_id"] for x in lines) == \
                sorted(r["run_id"] for r in got)
            assert len(got) == 5 and all(r["status"] == "success" for r in got)
            assert all(leased(r) == lease for r in got), (lease, got)


def test_print_to_a_terminal_takes_the_lease(ext):
    # a terminal may stop its writer (flow control): never inside the claim
    with Tmp() as t:
        path, db = t.db(ext)
        add_due(db, 3)
        master, slave = pty.openpty()
        try:
            p = subprocess.Popen([host_bin(ext), "tick", path, "--extension", ext],
                                 stdout=slave, stderr=subprocess.PIPE, text=True)
            os.close(slave)
            seen = b""
            deadline = time.time() + 10
            while seen.count(b"\n") < 3 and time.time() < deadline:
                try:
                    seen += os.read(master, 65536)
                except OSError:
                    break
            _, err = p.communicate(timeout=10)
        finally:
            os.close(master)
        assert p.returncode == 0, err
        got = runs(db)
        assert len(got) == 3 and all(r["status"] == "success" and leased(r) for r in got), got


def test_print_to_a_full_pipe_waits_with_nothing_claimed(ext):
    # the pipe is full: no batch can be written without blocking, so none
    # is claimed; the host waits for the reader (a stalled reader holds no
    # run: another host may take them), then prints in the claim's
    # transaction as usual
    with Tmp() as t:
        path, db = t.db(ext)
        add_due(db, 4)
        r, w = os.pipe()
        try:
            size = fcntl.fcntl(w, F_SETPIPE_SZ, 1 << 20)
            os.set_blocking(w, False)
            filled = 0
            while True:  # fill it whole
                try:
                    filled += os.write(w, b"#" * 4096)
                except BlockingIOError:
                    break
            assert filled == size, (filled, size)
            os.set_blocking(w, True)
            p = subprocess.Popen([host_bin(ext), "tick", path, "--extension", ext, "-v"],
                                 stdout=w, stderr=subprocess.PIPE, text=True)
            os.close(w)
            w = -1
            time.sleep(0.5)
            assert p.poll() is None  # waiting for room
            assert runs(db) == []
            reader, chunks = drain(r)
            _, err = p.communicate(timeout=20)
            reader.join(timeout=20)
        finally:
            os.close(r)
            if w >= 0:
                os.close(w)
        assert p.returncode == 0, err
        text = b"".join(chunks).decode()
        assert text.startswith("#" * filled)
        lines = text[filled:].splitlines()
        got = runs(db)
        assert sorted(json.loads(x)["run_id"] for x in lines) == sorted(x["run_id"] for x in got)
        assert len(got) == 4 and all(x["status"] == "success" and not leased(x) for x in got)
        assert sum(printed_batches(err)) == 4, err


def test_a_stalled_reader_never_holds_the_write_lock(ext):
    # stdout and stderr on one pipe, 400 runs of ~6 KB lines (2.4 MB: more than the pipe, grown to 1 MiB,
    # takes) and a reader that reads nothing for 4 s. The host prints what
    # fits and then waits with nothing claimed: meanwhile another
    # connection writes with a 1.5 s busy timeout, and never meets the
    # host's write lock. Then the reader reads: every run printed once and
    # 'success'.
    with Tmp() as t:
        path, db = t.db(ext)
        add_due(db, 400, pad=3000)
        r, w = os.pipe()
        try:
            p = subprocess.Popen([host_bin(ext), "tick", path, "--extension", ext],
                                 stdout=w, stderr=w)
            os.close(w)
            w = -1
            other = connect_plain(path)
            deadline = time.time() + 4
            writes = 0
            while time.time() < deadline:
                other.execute("BEGIN IMMEDIATE")  # sqlite3.OperationalError if locked
                other.execute("INSERT INTO side(x) VALUES (1)")
                other.execute("COMMIT")
                writes += 1
                time.sleep(0.05)
            assert p.poll() is None  # still waiting for the reader
            claimed = one(db, "SELECT count(*) FROM trigger_runs")
            assert 0 < claimed < 400, claimed
            reader, chunks = drain(r)
            p.wait(timeout=30)
            reader.join(timeout=30)
        finally:
            os.close(r)
            if w >= 0:
                os.close(w)
        assert p.returncode == 0
        lines = [x for x in b"".join(chunks).decode().splitlines() if x.startswith("{")]
        got = runs(db)
        assert sorted(json.loads(x)["run_id"] for x in lines) == sorted(x["run_id"] for x in got)
        assert len(got) == 400 and all(x["status"] == "success" and not leased(x) for x in got)
        assert writes > 20, writes


def test_sigkill_in_print_mode_loses_no_run(ext):
    # SIGKILL while the lines go out (lines of ~1.5 KB, a reader slower
    # than the host: batches sized to the pipe's room). A batch is
    # committed only after its lines were written: every 'success' run was
    # printed, none is 'running'. A batch killed before its commit left no
    # run: the next tick, at once (no lease to wait for), offers those
    # again. No run is lost, each occurrence counted once.
    for _ in range(3):
        with Tmp() as t:
            path, db = t.db(ext)
            add_due(db, 3000, pad=600)
            proc = subprocess.Popen([host_bin(ext), "tick", path, "--extension", ext,
                                     "--lease-ms", "2000"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            first = [json.loads(proc.stdout.readline())["run_id"] for _ in range(700)]
            proc.send_signal(signal.SIGKILL)
            rest = proc.stdout.read()
            proc.wait(timeout=5)
            printed = first + [json.loads(x)["run_id"] for x in rest.decode().splitlines()
                               if x.endswith("}")]
            status = {r["run_id"]: r for r in runs(db)}
            done = {k for k, r in status.items() if r["status"] == "success"}
            assert done <= set(printed), done - set(printed)
            assert set(r["status"] for r in status.values()) <= {"success"}
            p = subprocess.run([host_bin(ext), "tick", path, "--extension", ext],
                               capture_output=True, text=True, timeout=60)
            assert p.returncode == 0, p.stderr[-2000:]
            again = {json.loads(x)["run_id"] for x in p.stdout.splitlines()}
            after = {r["run_id"]: r["status"] for r in runs(db)}
            assert len(after) == 3000, len(after)
            assert set(after.values()) == {"success"}
            assert again.isdisjoint(done)
            assert set(after) == done | again
            assert one(db, "SELECT sum(run_count) FROM triggers") == 3000
            if len(status) < 3000:
                return  # the kill landed before the last batch was committed
    raise AssertionError("the kill never landed before the last batch")


def test_one_time_trigger_completes_in_the_claim(ext):
    # a one-time trigger printed in the claim's transaction is completed
    # there, as its report would have completed it
    with Tmp() as t:
        path, db = t.db(ext)
        add_once(db, "once", now_ms() - 100)
        p = subprocess.run([host_bin(ext), "tick", path, "--extension", ext],
                           capture_output=True, text=True, timeout=10)
        assert p.returncode == 0, p.stderr
        assert [json.loads(x)["trigger_id"] for x in p.stdout.splitlines()] == ["once"]
        [r] = runs(db)
        assert (r["status"], leased(r)) == ("success", False), r
        assert one(db, "SELECT status FROM triggers WHERE trigger_id = 'once'") == "completed"
