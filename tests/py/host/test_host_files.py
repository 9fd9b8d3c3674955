"""tests/py/host/test_host_files.py -- trigger-host given files that are not
SQLite databases: `serve DIR` serves the databases of the directory and
logs each other *.db file once, with its path and why (a text file, an
empty file, one shorter than SQLite's header, a header that is not
SQLite's, a damaged header, a damaged schema), writing nothing into any
of them; the database beside them is served and its triggers fire. An
empty file is a database only with --create (which makes it one); run
and tick refuse such a file (exit 3), and serve exits 3 when nothing is
left to serve; serve over a directory whose *.db entries are not all
regular files (a directory, a dangling symbolic link: skipped)."""
import hashlib
import json
import os
import signal
import sqlite3
import subprocess
import time

from util import one
from util.host import Tmp, add_interval, host_bin, now_ms, run_host, runs, wait_for


def plain_db(path):
    """A small SQLite database (no extension): a table and a row."""
    c = sqlite3.connect(path)
    c.execute("CREATE TABLE t(x)")
    c.execute("INSERT INTO t VALUES (1)")
    c.commit()
    c.close()
    with open(path, "rb") as f:
        return bytearray(f.read())


def bad_files(d):
    """The files that are not databases, by name: {name: why (a word of
    the log line)}."""
    def write(name, data):
        with open(os.path.join(d, name), "wb") as f:
            f.write(data)
    write("text.db", b"hello, I am not a database\n" * 10)
    write("empty.db", b"")
    write("short.db", b"SQLite format 3\x00" + b"\x00" * 20)
    image = plain_db(os.path.join(d, "plain.sqlite"))
    write("magic.db", b"SQLite format 4\x00" + bytes(image[16:]))
    page_size = bytearray(image)
    page_size[16:18] = b"\x00\x03"  # not a power of two
    write("header.db", bytes(page_size))
    schema = bytearray(image)
    schema[100:len(schema) // 2] = b"\xa5" * (len(schema) // 2 - 100)
    write("schema.db", bytes(schema))
    return {"text.db": "does not start with SQLite's header",
            "empty.db": "an empty file (0 bytes)",
            "short.db": "shorter than SQLite's 100-byte header",
            "magic.db": "does not start with SQLite's header",
            "header.db": "a damaged one",
            "schema.db": "a damaged one"}


def digests(d, names):
    out = {}
    for n in names:
        with open(os.path.join(d, n), "rb") as f:
            out[n] = hashlib.sha256(f.read()).hexdigest()
    return out


def test_serve_dir_serves_the_databases_beside_files_that_are_not(ext):
    with Tmp() as t:
        bad = bad_files(t.path)
        before = digests(t.path, bad)
        path, db = t.db(ext, "good.db")
        add_interval(db, "tick", now_ms() + 200, 1000)
        proc = subprocess.Popen([host_bin(ext), "serve", t.path, "--extension", ext],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert wait_for(lambda: one(db, "SELECT count(*) FROM trigger_runs") >= 2, 10)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, err
        printed = [json.loads(x)["trigger_id"] for x in out.splitlines()]
        assert printed and set(printed) == {"tick"}, out
        assert {r["status"] for r in runs(db)} == {"success"}
        for name, why in bad.items():
            lines = [x for x in err.splitlines() if os.path.join(t.path, name) in x]
            assert len(lines) == 1 and why in lines[0] and "not served" in lines[0], \
                (name, err)
        assert "serve 1 databases" not in err and "good.db" in err
        # nothing written into them, nothing beside them
        assert digests(t.path, bad) == before
        for name in bad:
            for suffix in ("-wal", "-shm", "-journal"):
                assert not os.path.exists(os.path.join(t.path, name + suffix)), name + suffix


def test_an_empty_file_is_a_database_only_with_create(ext):
    with Tmp() as t:
        empty = t.file("empty.db")
        open(empty, "wb").close()
        for mode in ("run", "tick"):
            rc, out, err = run_host(ext, mode, empty)
            assert rc == 3 and "empty file (0 bytes)" in err and "--create" in err, \
                (mode, rc, err)
            assert os.path.getsize(empty) == 0
        rc, out, err = run_host(ext, "tick", empty, "--create")
        assert rc == 0, err
        c = sqlite3.connect(empty)
        assert c.execute("SELECT count(*) FROM sqlite_schema WHERE name = 'triggers'"
                         ).fetchone()[0] == 1
        c.close()


def test_run_and_tick_refuse_what_is_not_a_database(ext):
    with Tmp() as t:
        bad = bad_files(t.path)
        before = digests(t.path, bad)
        for name, why in bad.items():
            for mode in ("run", "tick"):
                rc, out, err = run_host(ext, mode, t.file(name))
                assert rc == 3 and why in err and t.file(name) in err, (name, mode, rc, err)
        assert digests(t.path, bad) == before


def test_serve_exits_3_when_nothing_is_left_to_serve(ext):
    with Tmp() as t:
        bad = bad_files(t.path)
        os.remove(t.file("plain.sqlite"))
        rc, out, err = run_host(ext, "serve", t.path)
        assert rc == 3 and "no database to serve" in err, (rc, err)
        assert err.count("not served") == len(bad), err
        # with --create the empty file becomes a database and is served
        proc = subprocess.Popen([host_bin(ext), "serve", t.path, "--create",
                                 "--extension", ext],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        time.sleep(1)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, err
        assert "serve 1 databases" not in err and t.file("empty.db") in err.split(
            "started")[1], err
        assert os.path.getsize(t.file("empty.db")) > 0


def test_serve_directory_skips_what_is_not_a_file(ext):
    with Tmp() as t:
        d = t.file("dir")
        os.mkdir(d)
        os.mkdir(os.path.join(d, "sub.db"))
        os.symlink(os.path.join(d, "nowhere"), os.path.join(d, "dangling.db"))
        t.db(ext, "dir/real.db")
        proc = subprocess.Popen([host_bin(ext), "serve", d, "--extension", ext, "-v"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            proc.wait(timeout=1.5)
        except subprocess.TimeoutExpired:
            proc.terminate()
        _, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, (proc.returncode, err)
        assert f"started: serve {d}/real.db;" in err, err
        assert "sub.db" not in err and "dangling.db" not in err, err
