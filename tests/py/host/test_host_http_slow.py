"""tests/py/host/test_host_http_slow.py -- the status server (--http) under
slow clients, in real time: connections that send one header line now
and then (a "slow loris") never hold /health from others. Those of one
client address are bounded (--http-conns-per-ip, default 16: more are
closed at once), and every connection must get its whole request in, and
its answer out, within --http-timeout seconds of its start or of its
previous request: 64 slow connections from 64 addresses (every slot of
the server) are closed at the timeout and /health answers then; a
keep-alive client asking again and again is never cut. The slow clients
bind other loopback addresses (127.0.0.2 and up: Linux routes 127/8 to
lo) so that the test's own /health comes from another address."""
import contextlib
import http.client
import subprocess
import socket
import threading
import time

from util.host import Tmp, add_interval, host_bin, manual, now_ms
from util.http import get, read, start_http, stop_http


class SlowClients:
    """Connections that each send a request line, then one header line
    every `every` seconds and never the blank line that ends the headers;
    notes when the server closes each one."""

    def __init__(self, port, sources, every):
        self.socks, self.opened, self.closed = [], [], {}
        for src in sources:
            s = socket.create_connection(("127.0.0.1", port), timeout=5,
                                         source_address=(src, 0))
            self.socks.append(s)
            self.opened.append(time.time())
            try:
                s.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
            except OSError:
                self.closed[len(self.socks) - 1] = time.time()
        self.every = every
        self.stopping = False
        self.thread = threading.Thread(target=self.run, daemon=True)
        self.thread.start()

    def gone(self, i, s):
        """True when the server closed s (EOF or reset)."""
        s.setblocking(False)
        try:
            return s.recv(4096) == b""
        except BlockingIOError:
            return False
        except OSError:
            return True
        finally:
            s.setblocking(True)

    def run(self):
        while not self.stopping:
            for i, s in enumerate(self.socks):
                if i in self.closed:
                    continue
                try:
                    if self.gone(i, s):
                        self.closed[i] = time.time()
                        continue
                    s.sendall(b"X-Slow: still here\r\n")
                except OSError:
                    self.closed[i] = time.time()
            time.sleep(self.every)

    def close(self):
        self.stopping = True
        self.thread.join(5)
        for s in self.socks:
            s.close()


def timed_health(port):
    t0 = time.time()
    st = get(port, "/health")[0]
    return st, time.time() - t0


def host_db(ext, t):
    path, db = t.db(ext)
    add_interval(db, "tick", now_ms() + 200, 1000)
    return path


@contextlib.contextmanager
def slow_host(ext, sources, every, *args):
    """A host with --http and slow clients from sources; yields (port,
    slow clients, stderr path) and checks the host is still up after."""
    with Tmp() as t:
        proc, port, err = start_http(ext, t, "run", host_db(ext, t), *args)
        slow = SlowClients(port, sources, every)
        try:
            yield port, slow, err
            assert proc.poll() is None
        finally:
            slow.close()
            stop_http(proc)


def test_slow_clients_of_one_address_leave_health_to_others(ext):
    # 70 slow connections from 127.0.0.2: before, 64 of them held every
    # slot of the server and /health never answered; now 16 are kept, the
    # others closed at once, and /health from 127.0.0.1 answers at once
    with slow_host(ext, ["127.0.0.2"] * 70, 1.0) as (port, slow, err):
        time.sleep(1.5)
        for _ in range(3):
            st, took = timed_health(port)
            assert st == 200 and took < 1.0, (st, took)
        held = [i for i in range(70) if i not in slow.closed]
        assert len(held) == 16, (len(held), read(err)[-2000:])


def test_slow_clients_are_closed_at_the_timeout(ext):
    # 64 slow connections from 64 addresses hold every slot; each sends a
    # header line every 0.5 s (never idle), so only the request deadline
    # (--http-timeout 2) closes them: /health, waiting in the listen
    # backlog, is answered once they are
    sources = [f"127.0.0.{i}" for i in range(2, 66)]
    with slow_host(ext, sources, 0.5, "--http-timeout", "2") as (port, slow, err):
        time.sleep(0.3)
        st, took = timed_health(port)
        assert st == 200 and took < 4.5, (st, took)
        deadline = time.time() + 5
        while time.time() < deadline and len(slow.closed) < 64:
            time.sleep(0.1)
        assert len(slow.closed) == 64, (len(slow.closed), read(err)[-2000:])
        lasted = [slow.closed[i] - slow.opened[i] for i in range(64)]
        assert 1.5 < min(lasted) and max(lasted) < 4.5, (min(lasted), max(lasted))


def test_keep_alive_requests_each_get_their_own_time(ext):
    # one connection asking /health every 0.5 s for 4 s under a 2 s
    # deadline: every request is answered on the same connection (the
    # deadline counts from the previous request); idle after that, the
    # connection is closed at the deadline
    with Tmp() as t:
        proc, port, err = start_http(ext, t, "run", host_db(ext, t), "--http-timeout", "2")
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.connect()
            sock = c.sock
            for _ in range(8):
                c.request("GET", "/health")
                r = c.getresponse()
                r.read()
                assert r.status == 200
                assert c.sock is sock  # not reconnected
                time.sleep(0.5)
            t0 = time.time()
            sock.settimeout(5)
            assert sock.recv(1) == b""  # closed by the server
            assert time.time() - t0 < 2.5
            c.close()
        finally:
            stop_http(proc)


def test_http_limits_flags(ext):
    with Tmp() as t:
        path, _ = t.db(ext)
        for args, words in ((["--http-timeout", "2"], "need --http"),
                            (["--http", "0", "--http-timeout", "0"], "--http-timeout 0: expected 1..3600"),
                            (["--http", "0", "--http-conns", "2000"], "--http-conns 2000: expected 1..1024"),
                            (["--http", "0", "--http-conns-per-ip", "x"], "expected 1..1024")):
            p = subprocess.run([host_bin(ext), "run", path, "--extension", ext, *args],
                               capture_output=True, text=True, timeout=10)
            assert p.returncode == 2 and words in p.stderr, (args, p.returncode, p.stderr)
        man = manual()
        for flag in ("--http-conns n", "--http-conns-per-ip n", "--http-timeout sec"):
            assert flag in man, flag
