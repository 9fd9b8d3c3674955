"""tests/py/test_host_odd_inputs.py -- trigger-host given odd inputs
(test_host_opts_edges.py and test_host_http.py have the usual ones):
--http ports with trailing text, past a long or signed, and bracketed
names (refused, exit 2); IPv6 literals that are or are not loopback;
--env names empty or starting with a digit or a character below '0'; an
--exec command full of characters a log line must escape (tab, CR, quote,
backslash, DEL, other controls) in text and JSON logs; and /metrics
counting a failed run; print mode under --http with stdout closed."""
import json
import socket
import subprocess

from util.host import Tmp, add_once, briefly, host_bin, now_ms, runs, wait_for
from util.http import get, parse_metrics, read, start_http, stop_http


def host(ext, *args, timeout=20):
    p = subprocess.run([host_bin(ext), *args, "--extension", ext], capture_output=True,
                       text=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def test_http_ports_and_bracketed_names_refused(ext):
    with Tmp() as t:
        path, _ = t.db(ext)
        for addr, words in (
                ("localhost:80x", "port '80x' is not a number 0..65535"),
                ("localhost:99999999999999999999",
                 "port '99999999999999999999' is not a number"),
                ("localhost:-1", "port '-1' is not a number"),
                ("localhost:+80", "port '+80' is not a number"),
                ("localhost: 80", "port ' 80' is not a number"),
                ("localhost:", "port '' is not a number"),
                ("[::1]:65536", "port '65536' is not a number"),
                ("[localhost]:80", "cannot resolve 'localhost'"),
                ("[]:80", "[ADDR]:PORT"),
                ("[::1", "[ADDR]:PORT"),
                ("99999999999999999999", "port '99999999999999999999' is not a number")):
            rc, out, err = host(ext, "run", path, "--http", addr)
            assert rc == 2 and f"--http {addr}: " in err and words in err, (addr, rc, err)
            assert out == "", out


def ipv6_loopback():
    if not socket.has_ipv6:
        return False
    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
        return True
    except OSError:
        return False


def serve_briefly(ext, path, addr):
    return briefly(ext, "run", path, "--http", addr, "-v")


def test_ipv6_literals_loopback_or_not(ext):
    if not ipv6_loopback():
        print("SKIP: no IPv6 loopback here")
        return
    with Tmp() as t:
        path, _ = t.db(ext)
        # every interface: served, with the warning
        rc, err = serve_briefly(ext, path, "[::]:0")
        assert rc == 0 and "serving http://[::]:" in err, (rc, err)
        assert "is not a loopback address" in err, err
        # an IPv4 loopback written as a mapped IPv6 address: loopback, so no
        # warning, whether or not this machine lets a socket bind it
        rc, err = serve_briefly(ext, path, "[::ffff:127.0.0.1]:0")
        assert rc in (0, 3) and "is not a loopback address" not in err, (rc, err)
        if rc == 3:  # with -v, libmicrohttpd's own words too, on one line
            assert "cannot listen there" in err and "http: Failed to bind" in err, err


def test_env_names_empty_or_leading_digit_or_lower(ext):
    with Tmp() as t:
        path, _ = t.db(ext)
        for bad in ("", "0", "9A", "1_", "$X", " A"):
            rc, _, err = host(ext, "tick", path, "--exec", "true", "--clean-env",
                              "--env", bad)
            assert rc == 2 and f"--env {bad}: not a variable name" in err, (bad, rc, err)
        rc, _, err = host(ext, "tick", path, "--exec", "true", "--clean-env", "--env", "A9")
        assert rc == 0, err


ODD = 'echo "a\tb\rc\\d\x7fe\x01f\x1bg\u00e9"'


def start_line(err):
    return [x for x in err.splitlines() if " started: " in x or '"event":"start"' in x]


def test_odd_exec_command_escaped_in_log_lines(ext):
    with Tmp() as t:
        path, _ = t.db(ext)
        for fmt in ("text", "json"):
            rc, _, err = host(ext, "tick", path, "--exec", ODD, "--log", fmt, "-v")
            assert rc == 0, err
            line = start_line(err)
            assert len(line) == 1, err
            if fmt == "text":  # controls escaped, quote and backslash as they are
                assert 'echo "a\\tb\\rc\\d\\x7fe\\x01f\\x1bg\u00e9"' in line[0], line
            else:
                assert "\\u007f" in line[0] and "\\u0001" in line[0], line
                assert json.loads(line[0])["dispatch"] == ODD, line


def test_metrics_count_a_failed_run(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_once(db, "f", now_ms() - 1000, agent_id='ag"\\x')
        proc, port, err_path = start_http(ext, t, "run", path, "--exec", "exit 7")
        try:
            def failed():
                r = db.execute("SELECT status FROM trigger_runs").fetchall()
                return r and r[0][0] == "failed"
            assert wait_for(failed, 10), read(err_path)
            samples = {}

            def counted():
                nonlocal samples
                status, _, body = get(port, "/metrics")
                assert status == 200
                samples = parse_metrics(body)[0]
                key = ("trigger_failures_total",
                       frozenset({"db": path, "agent": 'ag"\\x'}.items()))
                return samples.get(key) == 1
            assert wait_for(counted, 10), samples
        finally:
            stop_http(proc)


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
