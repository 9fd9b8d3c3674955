"""tests/py/host/test_host_usage.py -- $TRIGGER_USAGE_FILE
(docs/reactive.md#usage-from-a-command; host/dispatch/usage_file.c): each
--exec run gets a private empty file (mode 0600) named by the variable; a
JSON object the command writes there is the run's usage (failed runs
too), read after the command exits and the file removed; a file left
empty reports no usage; malformed JSON, a negative cost, more than 4096
bytes or invalid UTF-8 are dropped with a warning while the run still
finishes with its outcome; a budget counts what was reported; each file
is closed once read (no descriptor lost per run)."""
import json
import os
import time

from util import one
from util.host import Tmp, add_interval, now_ms, runs, start, stop, tick, wait_for


def test_a_command_reports_usage_through_the_file(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        past = now_ms() - 500
        for name in ("good", "fail", "empty", "bad", "neg", "big", "utf", "mode"):
            add_interval(db, name, past, interval_ms=3600000)
        seen = t.file("seen")
        cmd = ('f="$TRIGGER_USAGE_FILE"; echo "$f" >> ' + seen + '; case "$TRIGGER_ID" in '
               """good) printf '{"cost":0.42,"tokens":1800}' > "$f";; """
               """fail) printf '{"cost":1}' > "$f"; exit 3;; """
               "empty) ;; "
               """bad) printf '{"cost":' > "$f";; """
               """neg) printf '{"cost":-1}' > "$f";; """
               """big) head -c 5000 /dev/zero | tr '\\0' ' ' > "$f"; printf '{}' >> "$f";; """
               """utf) printf '{"a":"\\377"}' > "$f";; """
               """mode) stat -c %a "$f";; esac""")
        rc, _, err = tick(ext, path, "--exec", cmd)
        by = {r["trigger_id"]: r for r in runs(db)}
        assert json.loads(by["good"]["usage"]) == {"cost": 0.42, "tokens": 1800}, by["good"]
        assert by["good"]["status"] == "success"
        assert (by["fail"]["status"], json.loads(by["fail"]["usage"])) == ("failed", {"cost": 1})
        for name in ("empty", "bad", "neg", "big", "utf"):
            assert by[name]["status"] == "success" and by[name]["usage"] is None, by[name]
        assert by["mode"]["result"] == "600", by["mode"]
        for name, why in (("bad", "not a JSON object"), ("neg", "not a JSON object"),
                          ("big", "more than 4096 bytes"), ("utf", "not valid UTF-8")):
            assert f"usage file dropped: {why}" in err and by[name]["run_id"] in err, (name, err)
        files = open(seen).read().split()
        assert len(files) == 8 and len(set(files)) == 8, files
        assert not any(os.path.exists(f) for f in files), files  # removed
        # what a budget counts: fail's cost 1 spends a budget of 1, good's
        # 0.42 does not, empty reported none
        db.execute("UPDATE triggers SET budget_window_ms = 86400000, budget_cost = 1"
                   " WHERE trigger_id IN ('good', 'fail', 'empty')")
        one(db, "SELECT trigger_run_due(?)", now_ms() + 3600000)
        st = dict(db.execute("SELECT trigger_id, status FROM triggers"))
        assert (st["fail"], st["good"], st["empty"]) == ("paused", "scheduled", "scheduled"), st


def test_usage_files_leave_no_descriptor_open(ext):
    """A long-running host reads a usage file per run: each is closed once
    read, so 60 runs leave the host with the descriptors it had after the
    first (a descriptor lost per run would end, weeks later, in EMFILE)."""
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "first", now_ms() - 500, interval_ms=3600000)
        cmd = """printf '{"cost":0.01}' > "$TRIGGER_USAGE_FILE\""""
        proc = start(ext, "run", path, "--exec", cmd, "--jobs", "4")
        try:
            done = "SELECT count(*) FROM trigger_runs WHERE status = 'success'"
            assert wait_for(lambda: one(db, done) == 1, 10)
            time.sleep(0.3)
            fds = len(os.listdir(f"/proc/{proc.pid}/fd"))
            db.execute("BEGIN")
            for i in range(60):
                add_interval(db, f"t{i:02}", now_ms() - 500, interval_ms=3600000)
            db.execute("COMMIT")
            assert wait_for(lambda: one(db, done) == 61, 30), one(db, done)
            time.sleep(0.3)
            after = len(os.listdir(f"/proc/{proc.pid}/fd"))
        finally:
            rc, _, err = stop(proc)
        assert rc == 0, err
        assert after <= fds + 5, (fds, after)  # a lost one per run: +60
        assert one(db, "SELECT count(*) FROM trigger_runs WHERE usage IS NOT NULL") == 61
