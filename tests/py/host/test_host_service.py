"""tests/py/host/test_host_service.py -- trigger-host as a Linux service
(docs/host.md#running-it-as-a-service): the sd_notify datagrams it sends
itself to a real AF_UNIX datagram socket (READY=1 once serving, WATCHDOG=1
every half WATCHDOG_USEC, STOPPING=1 on SIGTERM; a path and an abstract
"@" name; nothing of it reaching a command), journald priorities on its
lines when stderr is the journal (JOURNAL_STREAM), a normal start logged at
info, not as a warning, and /metrics passing `promtool check metrics`
(Debian's prometheus; SKIP without it) with every family documented."""
import os
import re
import shutil
import socket
import subprocess
import time

from util.host import Tmp, add_interval, add_once, host_bin, now_ms, wait_for
from util.http import get, start_http, stop_http

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))


def notify_socket(t, abstract=False):
    """A bound datagram socket; (socket, NOTIFY_SOCKET value)."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    if abstract:
        name = f"trigger-host-test-{os.getpid()}-{time.monotonic_ns()}"
        s.bind("\0" + name)
        value = "@" + name
    else:
        value = t.file("notify.sock")
        s.bind(value)
    s.settimeout(0.1)
    return s, value


def received(s, seconds, until=None):
    """The messages that arrive within seconds (or until one equals until)."""
    out, end = [], time.time() + seconds
    while time.time() < end:
        try:
            out.append(s.recv(4096).decode())
        except socket.timeout:
            continue
        if until and out[-1] == until:
            break
    return out


def host_under_notify(ext, t, value, *extra, env_extra=None):
    path, db = t.db(ext)
    add_interval(db, "tick", now_ms() + 300, 3600000)
    env = dict(os.environ, NOTIFY_SOCKET=value, **(env_extra or {}))
    log = t.file("env.txt")
    proc = subprocess.Popen([host_bin(ext), "run", path, "--extension", ext, *extra,
                             "--exec", f"env > {log}"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                            env=env)
    return proc, log


def check_notify(ext, abstract):
    with Tmp() as t:
        s, value = notify_socket(t, abstract)
        proc, log = host_under_notify(ext, t, value, env_extra={"WATCHDOG_USEC": "400000"})
        try:
            first = received(s, 5, until="READY=1")
            assert first[-1:] == ["READY=1"], first
            # WATCHDOG=1 every 200 ms (half of WATCHDOG_USEC)
            pings = received(s, 1.1)
            assert 3 <= pings.count("WATCHDOG=1") <= 7, pings
            assert wait_for(lambda: os.path.exists(log) and os.path.getsize(log) > 0, 5)
        finally:
            proc.terminate()
            _, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, err
        rest = received(s, 1)
        assert "STOPPING=1" in rest, rest
        assert rest.count("READY=1") == 0 and first.count("READY=1") == 1
        # the command got none of the service manager's variables
        env = open(log).read()
        for name in ("NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID"):
            assert name + "=" not in env, env
        s.close()


def test_notify_path_socket(ext):
    check_notify(ext, abstract=False)


def test_notify_abstract_socket(ext):
    check_notify(ext, abstract=True)


def test_notify_watchdog_of_another_pid_and_none(ext):
    """WATCHDOG_PID naming another process: READY=1 but no WATCHDOG=1;
    without NOTIFY_SOCKET nothing changes; a bad NOTIFY_SOCKET is a warning,
    the host runs on."""
    with Tmp() as t:
        s, value = notify_socket(t)
        proc, _ = host_under_notify(ext, t, value,
                                    env_extra={"WATCHDOG_USEC": "200000", "WATCHDOG_PID": "1"})
        try:
            msgs = received(s, 1.5)
        finally:
            proc.terminate()
            proc.communicate(timeout=10)
        assert "READY=1" in msgs and "WATCHDOG=1" not in msgs, msgs
        s.close()
    with Tmp() as t:
        proc, _ = host_under_notify(ext, t, "relative/not-a-socket")
        time.sleep(1)
        proc.terminate()
        _, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, err
        assert "NOTIFY_SOCKET=relative/not-a-socket: not a socket path or @name" in err, err


def test_journal_priorities(ext):
    """stderr the journal (JOURNAL_STREAM = its dev:ino): "<N>message"
    lines; another stream named, or a value that is not "dev:ino" in
    decimal: the usual lines."""
    with Tmp() as t:
        path, db = t.db(ext)
        add_once(db, "bad", now_ms() + 200)
        errf = t.file("err.txt")
        with open(errf, "w") as f:
            st = os.fstat(f.fileno())
            for stream, journal in ((f"{st.st_dev}:{st.st_ino}", True),
                                    (f"{st.st_dev}:{st.st_ino + 1}", False),
                                    # not dev:ino as systemd writes it
                                    (f" {st.st_dev}:{st.st_ino}", False),
                                    (f"{st.st_dev}:{st.st_ino}x", False)):
                f.seek(0)
                f.truncate()
                db.execute("DELETE FROM triggers")
                add_once(db, "bad", now_ms() + 200)
                proc = subprocess.Popen([host_bin(ext), "run", path, "--extension", ext,
                                         "--exec", "echo boom >&2; exit 1", "--http", "127.0.0.1:0"],
                                        stdout=subprocess.DEVNULL, stderr=f,
                                        env=dict(os.environ, JOURNAL_STREAM=stream))
                assert wait_for(lambda: re.search(r"run bad@.* failed: boom", open(errf).read()),
                                10), open(errf).read()
                proc.terminate()
                assert proc.wait(timeout=10) == 0
                lines = open(errf).read().splitlines()
                if journal:
                    assert all(re.match(r"<[2-7]>", ln) for ln in lines), lines
                    assert any(ln.startswith("<6>trigger-host ") and " started: run " in ln
                               for ln in lines), lines
                    assert any(ln.startswith("<6>http: serving http://") for ln in lines), lines
                    assert any(ln.startswith("<3>") and "boom" in ln for ln in lines), lines
                    assert any(ln.startswith("<6>trigger-host stopped") for ln in lines), lines
                else:
                    assert all(ln.startswith("trigger-host: ") for ln in lines), lines


def test_normal_start_not_a_warning(ext):
    """A start with --http logs nothing at warn (--log json says levels)."""
    with Tmp() as t:
        path, db = t.db(ext)
        proc, port, err = start_http(ext, t, "run", path, "--log", "json")
        assert get(port, "/health")[0] == 200
        stop_http(proc)
        levels = [re.search(r'"level":"(\w+)"', ln).group(1)
                  for ln in open(err).read().splitlines()]
        assert levels and set(levels) == {"info"}, open(err).read()


# ---- /metrics and promtool --------------------------------------------------

def documented_metrics():
    text = open(os.path.join(ROOT, "docs", "host.md")).read()
    return set(re.findall(r"`(trigger_(?:db|host)_[a-z_]+)`", text))


def test_metrics_pass_promtool(ext):
    promtool = shutil.which("promtool")
    if not promtool:
        print("SKIP test_metrics_pass_promtool: no promtool (Debian: prometheus; tests/deps.sh)")
        return
    with Tmp() as t:
        path, db = t.db(ext)
        add_once(db, "ok", now_ms() + 200, agent_id="a1")
        add_once(db, "bad", now_ms() + 200, agent_id="a2")
        add_interval(db, "later", now_ms() + 3600000, 3600000)
        proc, port, err = start_http(ext, t, "run", path, "--exec",
                                     '[ "$TRIGGER_ID" = bad ] && exit 1; '
                                     "printf '{\"cost\":0.5}' > \"$TRIGGER_USAGE_FILE\"; exit 0")
        try:
            assert wait_for(lambda: db.execute(
                "SELECT count(*) FROM trigger_runs WHERE finished_at IS NOT NULL").fetchone()[0] == 2,
                10)
            body = None

            def counted():
                nonlocal body
                body = get(port, "/metrics")[2]
                return 'trigger_host_runs_total{db="%s",agent="a2",status="failed"} 1' % path in body
            assert wait_for(counted, 5), body
        finally:
            stop_http(proc)
        p = subprocess.run([promtool, "check", "metrics"], input=body, capture_output=True,
                           text=True, timeout=30)
        assert p.returncode == 0 and not p.stdout.strip() and not p.stderr.strip(), \
            (p.returncode, p.stdout, p.stderr, body)
        families = set(re.findall(r"^# TYPE (\S+) ", body, re.M))
        assert {"trigger_host_build_info", "trigger_db_up", "trigger_db_active",
                "trigger_host_runs_total", "trigger_host_claim_latency_seconds"} <= families
        assert all(f.startswith(("trigger_db_", "trigger_host_")) for f in families), families
        assert 'trigger_host_build_info{version="%s"} 1' % open(
            os.path.join(ROOT, "VERSION")).read().strip() in body
        # per trigger: executed runs and the cost its command reported
        assert 'trigger_host_trigger_cost_total{db="%s",agent="a1",trigger="ok"} 0.5' % path \
            in body, body
        assert 'trigger_host_trigger_runs_total{db="%s",agent="a2",trigger="bad"} 1' % path \
            in body, body
        assert 'trigger_db_budget_held{db="%s"} 0' % path in body, body
        # windowed gauges are gone: a counter and rate() serve
        assert "failures_24h" not in body and "recent_creations" not in body
        undocumented = families - documented_metrics()
        assert not undocumented, undocumented


# ---- the man page and the unit ----------------------------------------------

def test_man_page_lints_clean(ext):
    mandoc = shutil.which("mandoc")
    if not mandoc:
        print("SKIP test_man_page_lints_clean: no mandoc (tests/deps.sh)")
        return
    p = subprocess.run([mandoc, "-T", "lint", os.path.join(ROOT, "docs", "trigger-host.1")],
                       capture_output=True, text=True, timeout=30)
    assert p.returncode == 0 and not (p.stdout + p.stderr).strip(), p.stdout + p.stderr


def test_unit_verifies(ext):
    """The unit, its ExecStart this build's host: systemd-analyze verify
    says nothing (man trigger-host found beside the source's page)."""
    analyze = shutil.which("systemd-analyze")
    if not analyze:
        print("SKIP test_unit_verifies: no systemd-analyze")
        return
    unit = open(os.path.join(ROOT, "host", "service", "trigger-host.service.in")).read()
    assert "Type=notify" in unit and "WatchdogSec=" in unit and "@BINDIR@" in unit
    # man(1), which verify runs for Documentation=, without the sanitizer
    # runtime the ASan layer preloads into every process
    env = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
    with Tmp() as t:
        env["MANPATH"] = t.file("man")
        os.makedirs(t.file("man/man1"))
        shutil.copy(os.path.join(ROOT, "docs", "trigger-host.1"), t.file("man/man1"))
        path = t.file("trigger-host.service")
        with open(path, "w") as f:
            f.write(unit.replace("@BINDIR@", os.path.dirname(os.path.abspath(host_bin(ext)))))
        p = subprocess.run([analyze, "verify", path], capture_output=True, text=True, timeout=60,
                           env=env)
        assert p.returncode == 0 and not (p.stdout + p.stderr).strip(), p.stdout + p.stderr
        # a unit that runs a missing binary is what verify refuses (the check bites)
        with open(path, "w") as f:
            f.write(unit.replace("@BINDIR@", t.file("nowhere")))
        p = subprocess.run([analyze, "verify", path], capture_output=True, text=True, timeout=60,
                           env=env)
        assert p.returncode != 0, p.stdout + p.stderr
