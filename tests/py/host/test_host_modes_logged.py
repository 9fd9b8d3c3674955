"""tests/py/host/test_host_modes_logged.py -- what trigger-host logs per
mode and when its --via command dies: the JSON start line names run and
serve as its mode, and print mode in it; a --via command killed by a
signal is reported as such (exit 3); print mode with stdout closed
releases the run (exit 3), under --http too; each line's time is now, in
UTC, in the text and the JSON forms."""
import datetime
import json
import re
import subprocess
import time

from util.host import Tmp, add_once, briefly, host_bin, now_ms, run_host, runs


def json_start(ext, *args):
    rc, err = briefly(ext, *args, "--log", "json", "-v")
    assert rc == 0, (rc, err)
    start = [json.loads(x) for x in err.splitlines() if '"event":"start"' in x]
    assert len(start) == 1, err
    return start[0]


def test_json_start_line_names_run_and_serve(ext):
    with Tmp() as t:
        path, _ = t.db(ext)
        assert json_start(ext, "run", path)["mode"] == "run"
        s = json_start(ext, "serve", path)
        assert s["mode"] == "serve" and s["databases"] == [path], s


def test_via_command_killed_by_a_signal(ext):
    p = subprocess.run([host_bin(ext), "tick", "far", "--via", "kill -9 $$; :"],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 3, (p.returncode, p.stderr)
    assert "via: SELECT trigger_install(): killed by signal 9" in p.stderr, p.stderr


def test_print_mode_with_stdout_closed(ext):
    """Nothing can be printed: the run is released (deferred), exit 3."""
    with Tmp() as t:
        path, db = t.db(ext)
        add_once(db, "x", now_ms() - 1000)
        p = subprocess.run(f"{host_bin(ext)} tick {path} --extension {ext} >&-", shell=True,
                           capture_output=True, text=True, timeout=30)
        assert p.returncode == 3, (p.returncode, p.stderr)
        assert "stdout: Bad file descriptor; releasing runs and stopping" in p.stderr, p.stderr
        assert [(r["status"], r["finished_at"]) for r in runs(db)] == [("deferred", None)]


def test_json_start_line_in_print_mode(ext):
    with Tmp() as t:
        path, _ = t.db(ext)
        rc, _, err = run_host(ext, "tick", path, "--log", "json", "-v")
        assert rc == 0, err
        start = [json.loads(x) for x in err.splitlines() if '"event":"start"' in x]
        assert len(start) == 1 and start[0]["dispatch"] == "print", err


def test_print_mode_with_http_and_stdout_closed(ext):
    """The run released (deferred) is counted by /metrics' bookkeeping
    too; the host stops, exit 3."""
    with Tmp() as t:
        path, db = t.db(ext)
        add_once(db, "x", now_ms() - 1000)
        p = subprocess.run(f"{host_bin(ext)} run {path} --extension {ext} "
                           "--http 127.0.0.1:0 >&-", shell=True, capture_output=True,
                           text=True, timeout=30)
        assert p.returncode == 3, (p.returncode, p.stderr)
        assert "stdout: Bad file descriptor; releasing runs and stopping" in p.stderr, p.stderr
        assert [r["status"] for r in runs(db)] == ["deferred"]


def test_each_line_is_stamped_with_the_time_it_was_written(ext):
    """The text prefix "trigger-host: <ISO 8601 UTC>" and the JSON "ts" are
    the time the line was written, to the millisecond, in UTC."""
    with Tmp() as t:
        path, _ = t.db(ext)
        before = time.time()
        rc, err = briefly(ext, "run", path, "-v")
        after = time.time()
        assert rc == 0, (rc, err)
        stamps = re.findall(r"^trigger-host: (\S+) ", err, re.M)
        before_json = time.time()
        start = json_start(ext, "run", path)
        after_json = time.time()
    assert stamps, err

    def seconds(iso):
        assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z", iso), iso
        return datetime.datetime.strptime(iso, "%Y-%m-%dT%H:%M:%S.%fZ").replace(
            tzinfo=datetime.timezone.utc).timestamp()
    for iso in stamps:
        assert before - 1 <= seconds(iso) <= after + 1, (iso, before, after)
    assert before_json - 1 <= seconds(start["ts"]) <= after_json + 1, start
