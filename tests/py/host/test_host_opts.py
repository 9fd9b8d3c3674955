"""tests/py/host/test_host_opts.py -- trigger-host's options (host/cli/args.c):
the claim and connection flags end to end (each flag's effect on what is
claimed or how the database is waited for, and its bounds on both sides: a
value just inside is taken, one just outside is a usage error, exit 2),
the default extension path (beside the binary, else the install directory
compiled in, which the error names), and the idle backoff of run mode
when trigger_next_wakeup reports work that the claim does not return (a
--via stand-in answers the wakeup with "due now": --poll-ms doubling up
to 1 s, never a spin). At their edges: --env names made of every kind of
character (one outside each range is refused, exit 2; letters, digits
and '_' pass; empty, starting with a digit or a character below '0'),
and --agents with empty names between its commas (skipped)."""
import json
import os
import re
import shutil
import signal
import sqlite3
import subprocess
import threading
import time

from util.host import Tmp, add_interval, host_bin, now_ms, run_host, runs, tick


def usage(ext, *args):
    p = subprocess.run([host_bin(ext), "tick", "x.db", "--extension", ext, *args],
                       capture_output=True, text=True, timeout=10)
    return p.returncode, p.stderr


def test_numeric_flags_bounds(ext):
    with Tmp() as t:
        path, _ = t.db(ext)
        # (flag, lowest, highest accepted)
        for flag, lo, hi in (("--lease-ms", 1, 366 * 86400000), ("--limit", 1, 1000000000),
                             ("--poll-ms", 10, 5000), ("--busy-timeout", 0, 3600000),
                             ("--jobs", 1, 1024)):
            for v in (lo, hi):
                rc, _, err = tick(ext, path, flag, str(v))
                assert rc == 0, (flag, v, err)
            for v in (lo - 1, hi + 1):
                rc, err = usage(ext, flag, str(v))
                assert rc == 2 and f"{flag} {v}: expected {lo}..{hi}" in err, (flag, v, err)
            rc, err = usage(ext, flag, "12abc")
            assert rc == 2 and "expected" in err, (flag, err)
        for flag in ("--timeout", "--grace"):
            rc, err = usage(ext, "--exec", "true", flag, "0")
            assert rc == 2 and f"{flag}: not a positive number of seconds" in err, err
        rc, err = usage(ext, "--timeout", "1")
        assert rc == 2 and "--timeout needs --exec" in err, err
        rc, err = usage(ext, "--colour")
        assert rc == 2 and "unknown option" in err, err
        rc, err = usage(ext, "--wake-mode", "later")
        assert rc == 2 and "expected inject_now or next_autonomy_cycle, not later" in err, err


def test_mode_arguments(ext):
    with Tmp() as t:
        p = subprocess.run([host_bin(ext), "run", "a.db", "b.db"], capture_output=True,
                           text=True, timeout=10)
        assert p.returncode == 2 and "run takes one database" in p.stderr, p.stderr
        os.mkdir(t.file("empty"))
        p = subprocess.run([host_bin(ext), "serve", t.file("empty")], capture_output=True,
                           text=True, timeout=10)
        assert p.returncode == 2 and "no *.db file in" in p.stderr, p.stderr


def test_limit_claims_at_most_n(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        for i in range(5):
            add_interval(db, f"t{i}", now_ms() - 500, interval_ms=3600000)
        rc, out, err = tick(ext, path, "--limit", "2")
        assert rc == 0, err
        assert len(out.splitlines()) == 2, out
        assert len(runs(db)) == 2
        rc, out, err = tick(ext, path, "--limit", "3", "--exec", "true")
        assert rc == 0, err
        assert len(runs(db)) == 5 and all(r["status"] == "success" for r in runs(db))


def test_lease_ms_is_the_claims_lease(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "t", now_ms() - 500, interval_ms=3600000)
        rc, out, err = tick(ext, path, "--lease-ms", "123456", "--print-lease")
        assert rc == 0, err
        [r] = runs(db)
        assert r["lease_until"] - r["claimed_at"] == 123456, r


def test_wake_mode_claims_only_that_mode(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "now", now_ms() - 500, interval_ms=3600000, wake_mode="inject_now")
        add_interval(db, "later", now_ms() - 500, interval_ms=3600000)
        rc, out, err = tick(ext, path, "--wake-mode", "inject_now")
        assert rc == 0, err
        assert [json.loads(x)["trigger_id"] for x in out.splitlines()] == ["now"]
        rc, out, err = tick(ext, path, "--wake-mode", "next_autonomy_cycle")
        assert [json.loads(x)["trigger_id"] for x in out.splitlines()] == ["later"], (out, err)


def test_busy_timeout_waits_for_the_lock(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "t", now_ms() - 500, interval_ms=3600000)
        holder = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        holder.execute("BEGIN IMMEDIATE")
        t0 = time.time()
        rc, out, err = tick(ext, path, "--busy-timeout", "0")
        assert rc == 3 and "database is locked" in err, (rc, err)
        assert time.time() - t0 < 2
        # with a timeout it waits until the lock is released, then claims
        timer = threading.Timer(0.5, lambda: holder.execute("COMMIT"))
        timer.start()
        t0 = time.time()
        rc, out, err = tick(ext, path, "--busy-timeout", "5000")
        took = time.time() - t0
        timer.join()
        assert rc == 0 and len(out.splitlines()) == 1, (rc, err)
        assert 0.4 < took < 4, took


def test_default_extension_path(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "t", now_ms() - 500, interval_ms=3600000)
        # beside the binary (the build tree): no --extension needed
        p = subprocess.run([host_bin(ext), "tick", path], capture_output=True, text=True,
                           timeout=10)
        assert p.returncode == 0 and json.loads(p.stdout)["trigger_id"] == "t", p.stderr
        # a copy of the binary with no extension beside it falls back to the
        # install directory compiled in (--help names it), and the load
        # error names that path
        lone = t.file("trigger-host")
        shutil.copy(host_bin(ext), lone)
        helptext = subprocess.run([lone, "--help"], capture_output=True, text=True,
                                  timeout=10).stdout
        extdir = re.search(r"else in (\S+)/\)", helptext).group(1)
        if not os.path.exists(os.path.join(extdir, "triggers.so")):
            p = subprocess.run([lone, "tick", path], capture_output=True, text=True,
                               timeout=10)
            assert p.returncode == 3 and "cannot load extension" in p.stderr, p.stderr
            assert extdir + "/triggers" in p.stderr, (extdir, p.stderr)


def test_idle_backoff_when_due_work_is_not_claimable(ext):
    # The wakeup says "due now" but the claim returns nothing (work another
    # host takes first, or filtered out): the host looks again after
    # --poll-ms, doubling up to 1 s, instead of claiming in a loop.
    with Tmp() as t:
        path, _ = t.db(ext)
        fake = t.file("fake.sh")
        with open(fake, "w") as f:
            f.write('echo "$1" >> "$0.log"\n'
                    'case $1 in *trigger_next_wakeup*) echo 0 ;;\n'
                    f'  *) sqlite3 -bail -cmd ".load {os.path.abspath(ext)}" "{path}" "$1" ;;\n'
                    'esac\n')
        proc = subprocess.Popen([host_bin(ext), "run", "far", "--via", f"sh {fake}",
                                 "--poll-ms", "100", "-v"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(3.2)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, err
        waits = [int(line.rsplit(" ", 2)[1]) for line in err.splitlines()
                 if "due work is not ours, next look in" in line]
        assert waits[:6] == [100, 200, 400, 800, 1000, 1000], err
        claims = sum("trigger_run_due" in line for line in open(fake + ".log"))
        assert claims <= len(waits) + 1, (claims, waits)


def test_usage_errors(ext):
    """Each malformed command line is a usage error (exit 2) naming what
    is wrong: the mode and database arguments, flag values that are not
    numbers at all (empty, overflowing), --log and --env values, flags that
    do not go with status or --via; --version alone finds the extension
    beside the binary."""
    def host(*args):
        p = subprocess.run([host_bin(ext), *args], capture_output=True, text=True,
                           timeout=10)
        return p.returncode, p.stderr

    for args, want in (
            ((), "missing mode (run, serve, tick, status, mcp, pause, resume, cancel, fire, retry, cancel-run, signal, runs or events)"),
            (("tick",), "tick: missing database"),
            (("status", "a.db", "b.db"), "status takes one database"),
            (("status", "a.db", "--via", "cat"),
             "status reads a local database file (no --via)"),
            (("tick", "a.db", "--synchronous", "normal", "--via", "cat"),
             "--synchronous is for a local database, not --via"),
            (("tick", "a.db", "--log", "xml"), "--log: expected text or json, not xml"),
            (("tick", "a.db", "--limit", ""), "--limit : expected 1..1000000000"),
            (("tick", "a.db", "--limit", "99999999999999999999"),
             "--limit 99999999999999999999: expected 1..1000000000"),
            (("tick", "a.db", "--exec", "true", "--timeout", ""),
             "--timeout: not a positive number of seconds"),
            (("tick", "a.db", "--exec", "true", "--timeout", "1e999"),
             "--timeout: not a positive number of seconds"),
            (("tick", "a.db", "--exec", "true", "--timeout", "2s"),
             "--timeout: not a positive number of seconds"),
            (("tick", "a.db", "--exec", "true", "--timeout", str(86400 * 366 + 1)),
             "--timeout: not a positive number of seconds"),
            (("tick", "a.db", "--exec", "true", "--env", ""), "--env : not a variable name"),
            (("tick", "a.db", "--exec", "true", "--env", "1BAD"),
             "--env 1BAD: not a variable name"),
            (("tick", "a.db", "--exec", "true", "--env", "A-B"),
             "--env A-B: not a variable name")):
        rc, err = host(*args)
        assert rc == 2 and want in err, (args, rc, err)
    p = subprocess.run([host_bin(ext), "--version"], capture_output=True, text=True,
                       timeout=10)
    assert p.returncode == 0 and p.stdout.startswith("trigger-host ") and \
        "extension " in p.stdout, p.stdout


def test_database_path_through_a_file(ext):
    """A database path whose directory part is a regular file (ENOTDIR, not
    ENOENT) is a usage error naming the system's reason, even with --create."""
    with Tmp() as t:
        plain = t.file("plain")
        with open(plain, "w") as f:
            f.write("x")
        for extra in ((), ("--create",)):
            p = subprocess.run([host_bin(ext), "tick", plain + "/x.db", "--extension", ext,
                                *extra], capture_output=True, text=True, timeout=10)
            assert p.returncode == 2, (extra, p.returncode, p.stderr)
            assert f"trigger-host: {plain}/x.db: Not a directory" in p.stderr, p.stderr


def test_status_of_a_file_that_is_no_database(ext):
    """status on an existing file that is not SQLite: exit 3, the path and
    SQLite's reason named, nothing on stdout."""
    with Tmp() as t:
        junk = t.file("junk.db")
        with open(junk, "wb") as f:
            f.write(b"not sqlite at all\n" * 256)
        p = subprocess.run([host_bin(ext), "status", junk, "--extension", ext],
                           capture_output=True, text=True, timeout=10)
        assert p.returncode == 3, (p.returncode, p.stderr)
        assert "reading the schema: file is not a database" in p.stderr, p.stderr
        assert p.stdout == "", p.stdout


def test_env_names_by_character(ext):
    with Tmp() as t:
        path, _ = t.db(ext)
        for bad in ("a@", "a[", "a~", "a`", "a{", "@a", "~a"):  # around A-Z, a-z, 0-9
            rc, _, err = run_host(ext, "tick", path, "--exec", "true", "--clean-env",
                              "--env", bad)
            assert rc == 2 and f"--env {bad}: not a variable name" in err, (bad, rc, err)
        rc, _, err = run_host(ext, "tick", path, "--exec", "true", "--clean-env",
                          "--env", "_Az09_", "--log", "text")
        assert rc == 0, err


def test_agents_list_with_empty_names(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        for agent in ("a", "b", "c"):
            add_interval(db, agent, now_ms() - 500, interval_ms=3600000, agent_id=agent)
        rc, out, err = run_host(ext, "tick", path, "--agents", ",a,,b,", "-v")
        assert rc == 0, err
        assert sorted(json.loads(x)["agent_id"] for x in out.splitlines()) == ["a", "b"], out
        assert '"agents":["a","b"]' in err, err


def test_env_names_empty_or_leading_digit_or_lower(ext):
    with Tmp() as t:
        path, _ = t.db(ext)
        for bad in ("", "0", "9A", "1_", "$X", " A"):
            rc, _, err = run_host(ext, "tick", path, "--exec", "true", "--clean-env",
                              "--env", bad)
            assert rc == 2 and f"--env {bad}: not a variable name" in err, (bad, rc, err)
        rc, _, err = run_host(ext, "tick", path, "--exec", "true", "--clean-env", "--env", "A9")
        assert rc == 0, err
