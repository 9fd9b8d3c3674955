"""tests/py/test_preload.py -- build/triggers-preload.so (ext/preload.c; at
the top of tests/py as preload.c is at the top of ext/) in programs that
link the system libsqlite3 and never load an extension:
build/plain-sqlite (tests/preload/plain_sqlite.c), Python's sqlite3 module
without enable_load_extension, Debian's sqlite3 shell. Under LD_PRELOAD
every connection they open has the functions and tables; without it they
have none. When the program's open fails (a directory that does not
exist, a read-only open of a missing file): the open's own error reaches
the program unchanged and nothing is registered; the next open in the
same process that succeeds has the extension. (The same library inside
dqlite nodes: tests/dqlite/.)"""
import os
import subprocess
import tempfile

from util import T0, MIN

PY = "/usr/bin/python3"


def paths(ext):
    d = os.path.dirname(ext)
    return os.path.join(d, "triggers-preload.so"), os.path.join(d, "plain-sqlite")


def preload_env(ext, on=True):
    """The environment with the preload library (after the sanitizer
    runtimes of `make test-asan`, which must come first)."""
    env = dict(os.environ)
    first = os.environ.get("PRELOAD", "")
    lib = paths(ext)[0] if on else ""
    env["LD_PRELOAD"] = ":".join(p for p in (first, os.path.abspath(lib) if lib else "") if p)
    return env


def run(args, env):
    return subprocess.run(args, capture_output=True, text=True, env=env, timeout=60)


def test_plain_program_gets_the_extension(ext):
    plain = paths(ext)[1]
    with tempfile.TemporaryDirectory() as tmp:
        db = os.path.join(tmp, "app.db")
        r = run([plain, db, "SELECT trigger_version()", "SELECT trigger_install()",
                 "INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms,"
                 f" created_at) VALUES ('tick', 'do it', 'interval', {MIN}, {T0})",
                 f"SELECT value ->> 'run_id' FROM json_each(trigger_run_due({T0 + MIN}))",
                 f"SELECT trigger_run_finish('tick@{T0 + MIN}#1', 'success', NULL, {T0 + MIN})"
                 " ->> 'run_count'",
                 "SELECT run_id, status FROM trigger_runs"],
                preload_env(ext))
        assert r.returncode == 0, r.stderr
        assert r.stdout.split("\n") == [
            "0.1.0", "6", f"tick@{T0 + MIN}#1", "1", f"tick@{T0 + MIN}#1|success", ""], r.stdout
        # a second process sees the file's rows, and without the preload
        # the same program has no extension
        r = run([plain, db, "SELECT trigger_version()"], preload_env(ext, on=False))
        assert r.returncode == 1
        assert "no such function: trigger_version" in r.stderr, r.stderr


def test_every_connection_of_a_process(ext):
    """Python's sqlite3 (sqlite3_open_v2), several connections, no
    enable_load_extension: each one has the functions and tables."""
    script = (
        "import sqlite3\n"
        "a = sqlite3.connect(':memory:')\n"
        "b = sqlite3.connect(':memory:')\n"
        "print(a.execute('SELECT trigger_install()').fetchone()[0],"
        " b.execute('SELECT trigger_version()').fetchone()[0],"
        " a.execute('SELECT count(*) FROM triggers').fetchone()[0])\n")
    r = run([PY, "-c", script], preload_env(ext))
    assert r.returncode == 0, r.stderr
    assert r.stdout == "6 0.1.0 0\n", r.stdout


def test_preload_with_load_extension_too(ext):
    """A program that also loads the extension the ordinary way: the second
    registration replaces the first, nothing fails."""
    r = run(["sqlite3", ":memory:", "SELECT trigger_version()", f".load {ext}",
             "SELECT trigger_install()",
             f"SELECT trigger_iso({T0}, 'Europe/Berlin')"], preload_env(ext))
    assert r.returncode == 0, r.stderr
    assert r.stdout == "0.1.0\n6\n2026-01-01T01:00:00+01:00\n", r.stdout


def test_failed_open_then_a_good_one(ext):
    with tempfile.TemporaryDirectory() as tmp:
        script = (
            "import sqlite3, sys\n"
            "for path, uri in ((sys.argv[1], False), ('file:' + sys.argv[2] + '?mode=ro', True)):\n"
            "    try:\n"
            "        sqlite3.connect(path, uri=uri)\n"
            "        print('opened')\n"
            "    except sqlite3.OperationalError as e:\n"
            "        print(e)\n"
            "print(sqlite3.connect(':memory:').execute('SELECT trigger_version()').fetchone()[0])\n")
        r = subprocess.run([PY, "-c", script, os.path.join(tmp, "nodir", "x.db"),
                            os.path.join(tmp, "none.db")],
                           capture_output=True, text=True, env=preload_env(ext), timeout=60)
        assert r.returncode == 0, r.stderr
        assert r.stdout == ("unable to open database file\nunable to open database file\n"
                            "0.1.0\n"), r.stdout
        assert "triggers-preload: " not in r.stderr, r.stderr
        assert not os.path.exists(os.path.join(tmp, "none.db"))
