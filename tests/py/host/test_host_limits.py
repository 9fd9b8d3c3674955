"""tests/py/host/test_host_limits.py -- trigger-host when the system refuses it
resources, for real (no stand-ins): its processes and threads
(RLIMIT_NPROC) and its file descriptors (RLIMIT_NOFILE), set on the host
alone. Without threads the checkpointer and the spawner are given up
(warned) and commands start on the loop; a command that cannot start is
its run failed with the reason, never a crash or a run left open; --via
cannot run its command (exit 3); without descriptors the signal pipe, the
database, a command's pipes and --via's pipes each fail with their
message.

RLIMIT_NPROC binds only a user that is not root: as root the host runs
under `setpriv` as an unused uid that keeps CAP_DAC_OVERRIDE alone (it
still reads and writes the root-owned database, extension and coverage
files), and its limit counts that uid's tasks, the host's own first."""
import os
import resource
import shutil
import subprocess

from util import one
from util.host import Tmp, add_interval, due_db, host_bin, now_ms, runs

EAGAIN = os.strerror(11)  # "Resource temporarily unavailable"
EMFILE = os.strerror(24)  # "Too many open files"


def limited(cmd, nproc=None, nofile=None, timeout=30):
    """cmd run with the limits given (processes and threads of its uid,
    open files): (exit status, stdout, stderr)."""
    def pre():
        if nproc is not None:
            resource.setrlimit(resource.RLIMIT_NPROC, (nproc, nproc))
        if nofile is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))
    if nproc is not None and os.geteuid() == 0:
        assert shutil.which("setpriv"), "setpriv (util-linux) is needed as root"
        uid = str(40000 + os.getpid() % 20000)  # no process of ours runs as it
        cmd = ["setpriv", "--reuid", uid, "--regid", uid, "--clear-groups",
               "--inh-caps=+dac_override", "--ambient-caps=+dac_override", "--"] + cmd
    p = subprocess.run(cmd, preexec_fn=pre, capture_output=True, text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def host(ext, *args):
    return [host_bin(ext), *args, "--extension", ext]


def test_no_threads_nor_processes(ext):
    """Only the host's own task: no checkpointer, no spawner thread, and
    posix_spawn fails on the loop; each run is failed with the reason."""
    with Tmp() as t:
        path, db = due_db(ext, t, 2)
        rc, out, err = limited(host(ext, "tick", path, "--exec", "true"), nproc=1)
        assert rc == 1, (rc, err)
        assert "cannot start the checkpointer thread: SQLite checkpoints inside commits" in err, err
        assert "cannot start the spawner thread: commands start on the loop" in err, err
        got = runs(db)
        assert [(r["trigger_id"], r["status"]) for r in got] == [("t0", "failed"), ("t1", "failed")]
        for r in got:
            assert r["error"] == f"cannot start command: posix_spawn /bin/sh: {EAGAIN}", r


def test_threads_but_no_processes(ext):
    """The host, its checkpointer and one spawner thread (3 tasks): the
    spawner's posix_spawn fails; its answer fails the run."""
    with Tmp() as t:
        path, db = due_db(ext, t, 3)
        rc, out, err = limited(host(ext, "tick", path, "--exec", "true", "--jobs", "1"),
                               nproc=3)
        assert rc == 1, (rc, err)
        assert "cannot start" not in err.replace("cannot start command", ""), err
        got = runs(db)
        assert len(got) == 3 and all(r["status"] == "failed" for r in got), got
        for r in got:
            assert r["error"] == f"cannot start command: posix_spawn /bin/sh: {EAGAIN}", r


def test_via_without_processes(ext):
    with Tmp() as t:
        rc, out, err = limited([host_bin(ext), "tick", "far", "--via", "true"], nproc=1)
        assert rc == 3, (rc, err)
        assert f"via: posix_spawn /bin/sh: {EAGAIN}" in err, err


def test_no_descriptor_for_the_signal_pipe(ext):
    """stdin, stdout, stderr and one more: the self-pipe needs two."""
    with Tmp() as t:
        path, _ = due_db(ext, t, 0)
        rc, out, err = limited(host(ext, "tick", path), nofile=4)
        assert rc == 3 and "cannot set up signal handling" in err, (rc, err)


def test_no_descriptor_for_the_database(ext):
    """The signal pipe fits, the database's journal does not: the first
    statement cannot be prepared, named with the file."""
    with Tmp() as t:
        path, _ = due_db(ext, t, 0)
        rc, out, err = limited(host(ext, "tick", path), nofile=6)
        assert rc == 3, (rc, err)
        assert f"{path}: prepare: unable to open database file" in err, err


def test_no_descriptors_for_a_commands_pipes(ext):
    """Eight commands at once, each needing three pipes, with descriptors
    for only some: the others fail with the reason (whichever of the three
    pipes ran out: three limits two apart reach each), the rest succeed."""
    for extra in (0, 2, 4):
        with Tmp() as t:
            path, db = due_db(ext, t, 8)
            rc, out, err = limited(host(ext, "tick", path, "--exec", "true", "--jobs", "8"),
                                   nofile=24 + extra)
            assert rc == 1, (extra, rc, err)
            got = [(r["status"], r["error"]) for r in runs(db)]
            assert len(got) == 8, got
            failed = [g for g in got if g[0] == "failed"]
            assert failed and len(failed) < 8, got
            assert set(got) == {("success", None),
                                ("failed", f"cannot start command: pipe: {EMFILE}")}, got


def test_via_without_descriptors_for_its_pipes(ext):
    """--via's two pipes (stdout, stderr of the command): stdin, stdout,
    stderr and the signal pipe take five descriptors; six leave none for
    the first pipe, eight none for the second (the first is closed)."""
    for nofile in (6, 8):
        rc, out, err = limited([host_bin(ext), "tick", "far", "--via", "true"], nofile=nofile)
        assert rc == 3, (nofile, rc, err)
        assert f"via: pipe: {EMFILE}" in err, (nofile, err)


def test_print_mode_to_a_full_stdout(ext):
    """A claimed run larger than stdout's buffer, stdout /dev/full. The
    lease path (--print-lease): its fputs is the write that fails (not the
    flush); the run is released (deferred). In the claim's transaction (the
    default for a device that is not a terminal): the claim is rolled
    back, no run at all, the trigger due as before. Either way the host
    stops claiming, exit 3."""
    for lease in (True, False):
        with Tmp() as t:
            path, db = t.db(ext)
            add_interval(db, "big", now_ms() - 500, interval_ms=3600000,
                         instructions="x" * 20000)
            args = host(ext, "tick", path) + (["--print-lease"] if lease else [])
            with open("/dev/full", "w") as full:
                p = subprocess.run(args, stdout=full, stderr=subprocess.PIPE,
                                   text=True, timeout=30)
            assert p.returncode == 3, (lease, p.returncode, p.stderr)
            assert f"stdout: {os.strerror(28)}; releasing runs and stopping" in p.stderr, \
                p.stderr
            if lease:
                [r] = runs(db)
                assert r["status"] == "deferred", r
            else:
                assert runs(db) == []
                assert one(db, "SELECT next_due_at < ? FROM triggers", now_ms()) == 1
