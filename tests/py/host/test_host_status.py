"""tests/py/host/test_host_status.py -- `trigger-host status` (host/cli/status.c):
the table, --json, and that it writes nothing; more triggers than its
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
from datetime import datetime
from zoneinfo import ZoneInfo

from util import finish, one, tick
from util.host import Tmp, add_interval, add_once, host_bin, host_process as host, now_ms


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
        # the counts are read first
        for db_path, table, what in ((empty, "triggers_rundata", "counting the failed runs"),
                                     (path, "triggers_rundata", "counting the failed runs"),
                                     (path, "triggers_data", "counting the triggers")):
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


def test_status_table(ext):
    with Tmp() as t:
        path, db, failed = status_db(ext, t)
        p = host(ext, "status", path)
        assert p.returncode == 0, p.stderr
        lines = p.stdout.split("\n")
        head = lines[0]
        assert re.split(r"\s{2,}", head) == ["NEXT", "LEFT", "LAST", "STATUS", "TRIGGER",
                                             "SCHEDULE"], head
        starts = [head.index(c) for c in ("NEXT", "LEFT", "LAST", "STATUS", "TRIGGER",
                                          "SCHEDULE")]
        trig = db.execute("SELECT trigger_id, next_due_at, last_run_at, timezone,"
                          " trigger_describe(trigger_id), status FROM triggers").fetchall()
        # by next due; nothing due: by state (paused, completed, ...), then
        # creation order
        order = ["paused", "completed", "cancelled", "expired", "scheduled"]
        trig = [x[:5] for x in sorted(trig, key=lambda x: (x[1] is None, x[1] or 0,
                                                            order.index(x[5]), x[0]))]
        want_status = {"build-check": "failed", "standup": "scheduled", "report": "scheduled",
                       "paused-one": "paused", "done": "completed", "long-job": "running"}
        rows = lines[1:1 + len(trig)]
        for line, (tid, nxt, last, tz, desc) in zip(rows, trig):
            cells = [line[a:b].rstrip() for a, b in zip(starts, starts[1:] + [None])]
            assert cells[0] == iso_in(nxt, tz), (line, nxt, tz)
            assert cells[2] == iso_in(last, tz), (line, last)
            assert cells[3:] == [want_status[tid], tid, desc], line
            left = cells[1]
            if nxt is None:
                assert left == "-", line
            else:
                assert re.fullmatch(r"\d+ms|\d+s|\d+min \d+s|\d+h \d+min|\d+d \d+h", left), line
        assert [r[0] for r in trig][-2:] == ["paused-one", "done"]  # nothing due: last
        report = next(x for x in rows if "  report  " in x)
        assert re.search(r"  (1h 59min|2h 0min)  ", report), report
        assert "  At 07:00, Monday through Friday (Europe/Berlin)" in p.stdout
        assert "  Every 15 minutes" in p.stdout
        rest = lines[1 + len(trig):]
        assert rest[:2] == ["", "6 triggers: 4 scheduled, 1 paused, 1 completed."], rest
        assert rest[2:4] == ["", "Failed runs in the last 24 h: 1"], rest
        assert re.split(r"\s{2,}", rest[4]) == ["WHEN", "TRIGGER", "ATTEMPT", "ERROR"], rest
        fin = one(db, "SELECT finished_at FROM trigger_runs WHERE run_id = ?", failed["run_id"])
        assert re.split(r"\s{2,}", rest[5]) == [iso_in(fin, "UTC"), "build-check", "1",
                                                "exit status 3\\nmore"], rest
        assert rest[6:] == [""], rest


def test_status_json(ext):
    with Tmp() as t:
        path, db, failed = status_db(ext, t)
        p = host(ext, "status", "--json", path)
        assert p.returncode == 0, p.stderr
        s = json.loads(p.stdout)
        assert s["database"] == path and abs(s["now"] - now_ms()) < 5000
        ids = [x["trigger_id"] for x in s["triggers"]]
        assert ids[-2:] == ["paused-one", "done"] and len(ids) == 6, ids
        assert (s["shown"], s["more"]) == (6, False), s
        assert s["counts"] == {"scheduled": 4, "paused": 1, "completed": 1, "cancelled": 0,
                               "expired": 0}, s["counts"]
        x = {x["trigger_id"]: x for x in s["triggers"]}
        b = x["build-check"]
        row = db.execute("SELECT next_due_at, last_run_at FROM triggers"
                         " WHERE trigger_id = 'build-check'").fetchone()
        assert (b["status"], b["trigger_status"], b["next_due_at"], b["last_run_at"],
                b["last_status"], b["schedule"], b["timezone"], b["agent_id"]) == \
            ("failed", "scheduled", row[0], row[1], "failed", "Every 15 minutes", "UTC", "")
        assert b["left_ms"] == row[0] - s["now"] and b["next"] == iso_in(row[0], "UTC")
        assert (x["paused-one"]["status"], x["paused-one"]["next_due_at"],
                x["paused-one"]["left_ms"]) == ("paused", None, None)
        assert x["long-job"]["status"] == "running" and x["done"]["status"] == "completed"
        assert s["failures_24h"] == 1
        [f] = s["failures"]
        assert (f["run_id"], f["trigger_id"], f["attempt"], f["error"]) == \
            (failed["run_id"], "build-check", 1, "exit status 3\nmore"), f
        p = host(ext, "run", path, "--json")
        assert p.returncode == 2 and "--json is an option of status" in p.stderr


def test_status_writes_nothing(ext):
    with Tmp() as t:
        path, db, _ = status_db(ext, t)
        db.execute("SELECT trigger_install()")

        def files():
            out = {}
            for suffix in ("", "-wal"):
                with open(path + suffix, "rb") as f:
                    out[suffix] = f.read()
            return out
        before = files()
        version_before = one(db, "PRAGMA data_version")
        for args in (["status", path], ["status", "--json", path]):
            assert host(ext, *args).returncode == 0
        assert one(db, "PRAGMA data_version") == version_before
        assert files() == before
        # a database without the schema: an error, and it stays as it was
        plain = t.file("plain.db")
        sqlite3.connect(plain).execute("CREATE TABLE notes(x)").connection.commit()
        with open(plain, "rb") as f:
            plain_bytes = f.read()
        p = host(ext, "status", plain)
        assert p.returncode == 3, p
        assert f"{plain}: sqlite-triggers is not installed in this database" in p.stderr
        with open(plain, "rb") as f:
            assert f.read() == plain_bytes


def iso_in(ms, tz):
    if ms is None:
        return "-"
    dt = datetime.fromtimestamp(ms // 1000, ZoneInfo(tz))
    return dt.isoformat(sep=" ")


def status_db(ext, t):
    """Interval, cron, once, paused, completed and running triggers, and a
    failure: (path, db, the failed run)."""
    path, db = t.db(ext)
    now = now_ms()
    add_interval(db, "build-check", now - 1000, interval_ms=15 * 60000)
    [r] = tick(db, now)
    finish(db, r["run_id"], "failed", "exit status 3\nmore")
    db.execute("INSERT INTO triggers(trigger_id, instructions, trigger_type, cron_expression,"
               " timezone) VALUES ('standup', 'Post the stand-up', 'cron', '0 7 * * MON-FRI',"
               " 'Europe/Berlin')")
    add_once(db, "report", now + 2 * 3600000, timezone="America/New_York")
    add_interval(db, "paused-one", now + 60000, interval_ms=3600000)
    db.execute("UPDATE triggers SET enabled = 0 WHERE trigger_id = 'paused-one'")
    add_once(db, "done", now - 1000)
    add_interval(db, "long-job", now - 1000, interval_ms=30 * 60000)
    got = {x["trigger_id"]: x for x in tick(db, now + 10)}
    finish(db, got["done"]["run_id"], "success", "ok")
    return path, db, r


def test_status_pages_and_filters(ext):
    """The next 50 by default ("50 shown; ..."), --limit N, --all (every
    one, a page of 50 at a time under one head), --agent, --scope and
    --status keeping what matches (due ones by next due, then those with
    nothing due), --json the same; usage errors."""
    with Tmp() as t:
        path, db = t.db(ext)
        now = now_ms()
        for k in range(120):
            add_interval(db, f"t{k:03d}", now + 60000 + k * 1000, interval_ms=86400000,
                         agent_id="a1" if k % 2 else "a2", scope="s" if k % 3 == 0 else "")
        for k in range(3):
            add_interval(db, f"p{k}", now + 1000, interval_ms=86400000, agent_id="a1")
            one(db, "SELECT trigger_pause(?)", f"p{k}")

        def rows(*args):
            p = status(ext, path, *args)
            assert p.returncode == 0, p.stderr
            out = p.stdout.split("\n\n")[0].splitlines()
            return [re.split(r"\s{2,}", x)[4] for x in out[1:]], p.stdout

        ids, out = rows()
        assert ids == [f"t{k:03d}" for k in range(50)], ids
        assert "123 triggers: 120 scheduled, 3 paused." in out, out
        assert "50 shown; --limit N or --all for more." in out, out
        ids, out = rows("--limit", "7")
        assert ids == [f"t{k:03d}" for k in range(7)] and "7 shown;" in out, out
        ids, out = rows("--all")
        assert ids == [f"t{k:03d}" for k in range(120)] + ["p0", "p1", "p2"], ids
        assert out.count("NEXT") == 1 and "shown;" not in out, out
        ids, _ = rows("--all", "--agent", "a1")
        assert ids == [f"t{k:03d}" for k in range(1, 120, 2)] + ["p0", "p1", "p2"], ids
        ids, _ = rows("--agent", "a2", "--scope", "s", "--limit", "3")
        assert ids == ["t000", "t006", "t012"], ids
        ids, out = rows("--status", "paused")
        assert ids == ["p0", "p1", "p2"] and "shown;" not in out, ids
        ids, _ = rows("--status", "scheduled", "--limit", "2")
        assert ids == ["t000", "t001"], ids
        ids, _ = rows("--agent", "nobody")
        assert ids == [], ids
        p = status(ext, path, "--json", "--limit", "5", "--agent", "a1")
        s = json.loads(p.stdout)
        assert [x["trigger_id"] for x in s["triggers"]] == ["t001", "t003", "t005", "t007",
                                                           "t009"], s
        assert (s["shown"], s["more"], s["counts"]["paused"]) == (5, True, 3), s
        s = json.loads(status(ext, path, "--json", "--all").stdout)
        assert (len(s["triggers"]), s["more"]) == (123, False)
        for args, words in ((["--all", "--limit", "3"], "--all or --limit N, not both"),
                            (["--status", "sleeping"], "--status: expected scheduled"),):
            p = status(ext, path, *args)
            assert p.returncode == 2 and words in p.stderr, (args, p.stderr)
        p = host(ext, "tick", path, "--agent", "a1")
        assert p.returncode == 2 and "options of mcp and status" in p.stderr, p.stderr
