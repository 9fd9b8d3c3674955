"""tests/py/test_host_status_edges.py -- `trigger-host status` beyond the
usual database (test_host_daemon.py has that): more triggers than its
first allocation, one due within the minute, one overdue, one in a zone
(its times with their offset), more failed runs in 24 hours than the
table lists, an error longer than the table shows (cut at 100 characters, not
bytes); and what it cannot read: a directory, an extension that is
not there, a shadow table gone (renamed by hand), stdout full. Each
failure exits 3 naming the file and what was being read."""
import json
import os
import re
import sqlite3
import subprocess

from util.host import Tmp, add_interval, add_once, host_bin, now_ms
from util import one


def status(ext, path, *args, stdout=subprocess.PIPE):
    return subprocess.run([host_bin(ext), "status", path, "--extension", ext, *args],
                          stdout=stdout, stderr=subprocess.PIPE, text=True, timeout=30)


def test_status_of_many_triggers_and_failures(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        now = now_ms()
        for k in range(17):  # past the first 16 rows
            add_interval(db, f"later{k:02d}", now + 3600000 + k * 60000, interval_ms=86400000)
        add_interval(db, "soon", now + 30000, interval_ms=86400000)
        add_interval(db, "berlin", now + 7200000, interval_ms=86400000, timezone="Europe/Berlin")
        add_interval(db, "late", now - 125000, interval_ms=86400000)
        past = now - 3600000
        for k in range(22):  # more than the 20 the table lists
            add_once(db, f"f{k:02d}", past + k)
        claimed = json.loads(one(db, "SELECT trigger_run_due(?, '{\"limit\":22}')", past + 100))
        assert len(claimed) == 22
        long_error = "é" * 150
        for k, r in enumerate(claimed):
            error = long_error if k == 21 else (None if k == 20 else f"err {k}")
            one(db, "SELECT trigger_run_finish(?, 'failed', ?, ?)", r["run_id"], error,
                past + 200 + k)
        p = status(ext, path)
        assert p.returncode == 0, p.stderr
        lines = p.stdout.splitlines()
        row = {re.split(r"\s{2,}", x)[4]: re.split(r"\s{2,}", x) for x in lines[1:21]
               if len(re.split(r"\s{2,}", x)) >= 6}
        assert row["late"][1].startswith("overdue 2min "), row["late"]
        assert re.fullmatch(r"(29|30)s", row["soon"][1]), row["soon"]
        assert re.search(r"\+0[12]:00$", row["berlin"][0]), row["berlin"]
        assert row["soon"][0].endswith("+00:00"), row["soon"]
        assert "\n42 triggers: 20 scheduled, 22 completed.\n" in p.stdout, p.stdout
        assert "Failed runs in the last 24 h: 22 (the latest listed)" in p.stdout, p.stdout
        fails = lines[lines.index("Failed runs in the last 24 h: 22 (the latest listed)") + 2:]
        assert len(fails) == 20, fails
        cut = [x for x in fails if "  f21  " in x]
        assert cut and cut[0].endswith("  " + "é" * 100 + "..."), cut
        bare = [x for x in fails if "  f20  " in x]
        assert bare and re.split(r"\s{2,}", bare[0])[1:] == ["f20", "1", "failed"], bare


def test_status_failures_name_what_was_read(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "a", now_ms() + 60000)
        os.mkdir(t.file("dir.db"))
        p = status(ext, t.file("dir.db"))
        assert p.returncode == 3 and f"{t.file('dir.db')}: open: " in p.stderr, p.stderr
        p = subprocess.run([host_bin(ext), "status", path, "--extension", t.file("none")],
                           capture_output=True, text=True, timeout=30)
        assert p.returncode == 3, p.stderr
        assert f"cannot load extension {t.file('none')}: " in p.stderr, p.stderr
        empty, _ = t.db(ext, "empty.db")  # no trigger: the triggers read without runs
        for db_path, table, what in ((empty, "triggers_rundata", "reading the failed runs"),
                                     (path, "triggers_rundata", "reading the triggers"),
                                     (path, "triggers_data", "reading the triggers")):
            plain = sqlite3.connect(db_path, isolation_level=None)
            plain.execute(f"ALTER TABLE {table} RENAME TO gone")
            p = status(ext, db_path)
            assert p.returncode == 3, (table, p.stderr)
            assert f"{db_path}: {what}: " in p.stderr, (table, p.stderr)
            plain.execute(f"ALTER TABLE gone RENAME TO {table}")
            plain.close()
            assert status(ext, db_path).returncode == 0


def test_status_to_a_full_stdout(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "a", now_ms() + 60000)
        for args in ((), ("--json",)):
            with open("/dev/full", "w") as full:
                p = status(ext, path, *args, stdout=full)
            assert p.returncode == 3, (args, p.returncode, p.stderr)
            assert f"stdout: {os.strerror(28)}" in p.stderr, p.stderr  # ENOSPC
