"""tests/py/host/test_host_http.py -- `trigger-host --http ADDR`, in real
time: the three routes of a real `trigger-host run` (the status page with
its escaping, /metrics in Prometheus text format checked line by line and
against what the host did, /health against trigger_health), bad requests
answered without harm (other methods, unknown paths, long URLs, garbage,
half-sent requests, the connection limit; slow clients have
test_host_http_slow.py), 1,000 requests while the host
ticks three 1-second triggers without a missed or doubled run, serve with
several databases, usage errors, a page whose cost does not grow with the
run history, and the page rendered by headless Chromium (a screenshot kept
as build/host-status-page.png; skipped with a SKIP line without Debian's
chromium). Odd addresses: --http ports with trailing text, past a long or
signed, and bracketed names (refused, exit 2); IPv6 literals that are or
are not loopback; /metrics counting a failed run."""
import http.client
import json
import os
import re
import shutil
import socket
import subprocess
import threading
import time

from util import one
from util.host import (Tmp, add_interval, add_once, briefly, host_bin, manual, now_ms, run_host,
                       runs, wait_for)
from util.http import (chromium, get, metric, parse_metrics, png_size, read, start_http,
                       stop_http)

# trigger_host_claim_latency_seconds' bucket bounds, as docs/host.md lists
CLAIM_LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300]


# ---- Prometheus text format 0.0.4 ------------------------------------------


# ---- the routes ------------------------------------------------------------

def routes_db(ext, t):
    path, db = t.db(ext)
    db.execute("INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type,"
               " cron_expression, timezone) VALUES ('market-am', 'agent-1',"
               " 'Summarize overnight market moves', 'cron', '0 7 * * MON-FRI', 'Europe/Berlin')")
    add_interval(db, "xss", now_ms() + 3600000, 3600000, agent_id="agent-2",
                 instructions='<script>alert("x")</script> & more')
    due = now_ms() + 300
    add_once(db, "ok-once", due, agent_id="agent-1")
    add_once(db, "bad-once", due, agent_id="agent-2")
    return path, db


# The command: bad-once fails; ok-once prints how many sockets it inherited.
ROUTES_EXEC = ('if [ "$TRIGGER_ID" = bad-once ]; then echo "disk full" >&2; exit 1; fi;'
               ' ls -l /proc/$$/fd | grep -c socket || true')


def test_routes(ext):
    with Tmp() as t:
        path, db = routes_db(ext, t)
        proc, port, err = start_http(ext, t, "run", path, "--exec", ROUTES_EXEC)
        try:
            assert wait_for(lambda: one(db, "SELECT count(*) FROM trigger_runs WHERE status"
                                            " IN ('success', 'failed')") == 2, 10), read(err)
            by = {r["trigger_id"]: r for r in runs(db)}
            assert by["ok-once"]["status"] == "success" and by["bad-once"]["status"] == "failed"
            # the command saw no socket of the server (close-on-exec)
            assert by["ok-once"]["result"] == "0", by["ok-once"]

            # /health: trigger_health's object, as the database says
            st, hdr, body = get(port, "/health")
            assert st == 200 and hdr["content-type"] == "application/json", (st, hdr)
            health = json.loads(body)
            mine = json.loads(one(db, "SELECT trigger_health()"))
            assert health.keys() == mine.keys(), health
            for k in ("active", "paused", "running", "failures_24h", "stalled", "next_due_at"):
                assert health[k] == mine[k], (k, health, mine)
            assert health["active"] == 2 and health["failures_24h"] == 1
            assert get(port, "/health?verbose=1")[0] == 200  # a query string is ignored

            # /metrics: the format, the database's counts, the host's counters
            st, hdr, body = get(port, "/metrics")
            assert st == 200 and hdr["content-type"].startswith("text/plain; version=0.0.4"), hdr
            m, types = parse_metrics(body)
            assert metric(m, "trigger_db_up", db=path) == 1
            assert metric(m, "trigger_db_active", db=path) == 2
            assert not any(k[0] == "trigger_failures_24h" for k in m)  # windowed: not exported
            assert metric(m, "trigger_db_running", db=path) == 0
            assert metric(m, "trigger_db_next_due_timestamp_seconds", db=path) == mine["next_due_at"] / 1000
            for agent, status in (("agent-1", "success"), ("agent-2", "failed")):
                assert metric(m, "trigger_host_fires_total", db=path, agent=agent) == 1
                assert metric(m, "trigger_host_runs_total", db=path, agent=agent, status=status) == 1
                assert metric(m, "trigger_host_runs_in_flight", db=path, agent=agent) == 0
                assert metric(m, "trigger_host_claim_latency_seconds_count", db=path, agent=agent) == 1
                assert metric(m, "trigger_host_claim_latency_seconds_bucket", db=path, agent=agent,
                              le="+Inf") == 1
                # the documented bounds (docs/host.md)
                les = [k for k in m if k[0] == "trigger_host_claim_latency_seconds_bucket"
                       and ("agent", agent) in k[1]]
                bounds = sorted(float(dict(k[1])["le"]) for k in les)
                assert bounds == CLAIM_LATENCY_BUCKETS + [float("inf")], bounds
            assert metric(m, "trigger_host_failures_total", db=path, agent="agent-2") == 1
            assert metric(m, "trigger_host_failures_total", db=path, agent="agent-1") == 0
            assert metric(m, "trigger_host_runs_total", db=path, agent="agent-1", status="failed") == 0
            assert types["trigger_host_claim_latency_seconds"] == "histogram"
            assert types["trigger_host_fires_total"] == "counter" and types["trigger_db_overdue"] == "gauge"
            assert metric(m, "trigger_host_start_time_seconds") <= time.time()

            # /: the page, every text escaped
            st, hdr, page = get(port, "/")
            assert st == 200 and hdr["content-type"] == "text/html; charset=utf-8"
            assert "script-src" not in hdr["content-security-policy"]
            assert hdr["content-security-policy"].startswith("default-src 'none'")
            assert hdr["cache-control"] == "no-store" and hdr["x-content-type-options"] == "nosniff"
            assert '<meta http-equiv="refresh"' in page
            for text in ("market-am", "Summarize overnight market moves",
                         "At 07:00, Monday through Friday (Europe/Berlin)", "Every hour",
                         "Next 24 hours", "<svg", "Recent runs", "disk full", "ok-once"):
                assert text in page, text
            assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; more" in page
            assert "<script" not in page.lower()
            fail_rows = re.findall(r'<tr class="fail">.*?</tr>', page, re.S)
            assert any("bad-once" in r and "disk full" in r for r in fail_rows), fail_rows
            assert 'class="fail"' not in "".join(r for r in re.findall(r"<tr.*?</tr>", page, re.S)
                                                 if "ok-once" in r)

            # the server never writes: with another connection holding the
            # write lock, every route is answered at once
            db.execute("BEGIN IMMEDIATE")
            try:
                for p in ("/", "/metrics", "/health"):
                    t0 = time.time()
                    assert get(port, p)[0] == 200 and time.time() - t0 < 1, p
            finally:
                db.execute("ROLLBACK")

            # HEAD: the headers of GET, no body
            st, hdr, body = get(port, "/", method="HEAD")
            assert st == 200 and body == "" and int(hdr["content-length"]) > 1000
        finally:
            stop_http(proc)


# ---- bad requests ------------------------------------------------------------

def raw(port, data, wait=5):
    """Send bytes, return what came back before the server closed or wait
    passed."""
    s = socket.create_connection(("127.0.0.1", port), timeout=wait)
    try:
        s.sendall(data)
        got = b""
        while True:
            try:
                chunk = s.recv(65536)
            except (socket.timeout, ConnectionResetError):
                break
            if not chunk:
                break
            got += chunk
            head, sep, rest = got.partition(b"\r\n\r\n")
            n = re.search(rb"Content-Length: (\d+)", head)
            if sep and len(rest) >= (int(n.group(1)) if n else 0):
                break
        return got
    finally:
        s.close()


def test_bad_requests_answered_without_harm(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "tick", now_ms() + 200, 1000)
        proc, port, err = start_http(ext, t, "run", path)
        try:
            for method in ("POST", "PUT", "DELETE", "PATCH", "OPTIONS"):
                st, hdr, body = get(port, "/", method=method, body="x=1")
                assert st == 405 and hdr["allow"] == "GET, HEAD", (method, st, hdr)
                assert "read-only" in body
            for p in ("/nope", "/metrics/", "/../etc/passwd", "/health.json", "//", "/index.html"):
                assert get(port, p)[0] == 404, p
            st, _, _ = get(port, "/?" + "a" * 5000)
            assert st == 414
            # far longer than the connection's memory: refused by the library
            got = raw(port, b"GET /?" + b"a" * 100000 + b" HTTP/1.1\r\nHost: x\r\n\r\n")
            assert got == b"" or re.match(rb"HTTP/1\.[01] (414|400|431)", got), got[:80]
            # not HTTP at all: a 400, or nothing until the idle timeout
            got = raw(port, b"\x00\xffGARBAGE \x01\r\n\r\n", wait=1)
            assert got == b"" or got.startswith(b"HTTP/1.1 400"), got[:80]
            # a GET with a body is answered (the body ignored)
            assert get(port, "/health", body="ignored")[0] == 200
            # a half-sent request does not hold up the others
            half = socket.create_connection(("127.0.0.1", port))
            half.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n")
            t0 = time.time()
            assert get(port, "/health")[0] == 200 and time.time() - t0 < 2
            half.close()
            # the connection limit: while 64 idle connections are held (from
            # 64 addresses: one address may hold 16), the next one waits
            # (listen backlog); it is answered once they close
            idle = [socket.create_connection(("127.0.0.1", port),
                                             source_address=(f"127.0.0.{i}", 0))
                    for i in range(2, 66)]
            time.sleep(0.3)
            answered = []
            waiter = threading.Thread(
                target=lambda: answered.append((get(port, "/health")[0], time.time())))
            waiter.start()
            time.sleep(1.0)
            closed_at = time.time()
            for s in idle:
                s.close()
            waiter.join(8)
            assert answered and answered[0][0] == 200, answered
            assert answered[0][1] >= closed_at, (answered, closed_at)
            assert proc.poll() is None
        finally:
            stop_http(proc)
        # and the loop went on ticking meanwhile
        assert one(db, "SELECT count(*) FROM trigger_runs WHERE status = 'success'") >= 2


# ---- load while ticking ------------------------------------------------------

def test_load_while_ticking_no_missed_or_doubled_run(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        first = now_ms() + 500
        for i in range(3):
            add_interval(db, f"every-second-{i}", first, 1000, agent_id=f"agent-{i}")
        proc, port, err = start_http(ext, t, "run", path, "-v")
        routes = ["/", "/metrics", "/health"]
        statuses, lock = [], threading.Lock()

        def client(k):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            got = []
            for j in range(125):
                p = routes[(j + k) % 3]
                try:
                    c.request("GET", p)
                    r = c.getresponse()
                    r.read()
                    got.append(r.status)
                except (ConnectionError, http.client.HTTPException, OSError):
                    c.close()
                    c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
                    got.append("error")
            c.close()
            with lock:
                statuses.extend(got)
        t0 = time.time()
        threads = [threading.Thread(target=client, args=(k,)) for k in range(8)]
        for th in threads:
            th.start()
        for th in threads:
            th.join(60)
        took = time.time() - t0
        # at least 4 s of ticking in all
        time.sleep(max(0, first / 1000 + 4.2 - time.time()))
        st, _, body = get(port, "/metrics")
        stop_http(proc)
        assert len(statuses) == 1000 and set(statuses) == {200}, \
            {s: statuses.count(s) for s in set(statuses)}
        m, _ = parse_metrics(body)
        lat = [(dict(k[1]).get("agent"), v) for k, v in m.items()
               if k[0] == "trigger_host_claim_latency_seconds_sum"]
        print(f"  1000 requests in {took:.2f} s ({1000 / took:.0f}/s) while ticking;"
              f" claim latency sums {lat}")
        rows = runs(db)
        lines = [json.loads(x) for x in read(t.file("host.out")).splitlines()]
        assert sorted(x["run_id"] for x in lines) == sorted(r["run_id"] for r in rows)
        assert len({x["run_id"] for x in lines}) == len(lines)  # none printed twice
        for i in range(3):
            mine = [r for r in rows if r["trigger_id"] == f"every-second-{i}"]
            assert all(r["status"] == "success" and r["attempt"] == 1 for r in mine), mine
            sched = [r["scheduled_for"] for r in mine]
            assert sched[0] == first and len(sched) >= 4, sched
            # every occurrence once: no gap (missed or coalesced), no repeat
            assert sched == list(range(first, first + 1000 * len(sched), 1000)), sched


# ---- serve, several databases --------------------------------------------------

def test_serve_several_databases(ext):
    with Tmp() as t:
        a, dba = t.db(ext, "a.db")
        b, dbb = t.db(ext, 'we"ird\\name.db')
        add_interval(dba, "in-a", now_ms() + 3600000, 3600000)
        add_interval(dbb, "in-b", now_ms() + 7200000, 3600000)
        dbb.execute("UPDATE triggers SET enabled = 0 WHERE trigger_id = 'in-b'")
        proc, port, err = start_http(ext, t, "serve", a, b)
        try:
            st, _, body = get(port, "/health")
            health = json.loads(body)
            assert st == 200 and set(health) == {a, b}, health
            assert health[a]["active"] == 1 and health[b]["paused"] == 1
            st, _, body = get(port, "/metrics")
            m, _ = parse_metrics(body)
            assert metric(m, "trigger_db_active", db=a) == 1 and metric(m, "trigger_db_active", db=b) == 0
            assert metric(m, "trigger_db_paused", db=b) == 1 and metric(m, "trigger_db_up", db=b) == 1
            assert 'db="' + b.replace("\\", "\\\\").replace('"', '\\"') + '"' in body
            st, _, page = get(port, "/")
            assert "in-a" in page and "in-b" in page and "2 databases" in page
            assert "we&quot;ird\\name.db" in page
        finally:
            stop_http(proc)


# ---- usage ------------------------------------------------------------------------

def test_usage_errors_and_addresses(ext):
    with Tmp() as t:
        path, db = t.db(ext)

        def run(*args):
            p = subprocess.run([host_bin(ext), *args, "--extension", ext],
                               capture_output=True, text=True, timeout=10)
            return p.returncode, p.stderr
        for args, words in (
                (["tick", path, "--http", "0"], "--http is for run and serve"),
                (["run", path, "--http", "99999"], "port '99999' is not a number 0..65535"),
                (["run", path, "--http", ":8080"], "no host before ':'"),
                (["run", path, "--http", "::1:8080"], "[ADDR]:PORT"),
                (["run", path, "--http", "[::1]8080"], "[ADDR]:PORT"),
                (["run", path, "--http", "no-such-host.invalid:80"], "cannot resolve"),
                (["run", path, "--http", "web"], "expected PORT, HOST:PORT or [IPV6]:PORT"),
                (["run", path, "--via", "cat", "--http", "0"], "cannot be used with --via")):
            rc, err = run(*args)
            assert rc == 2 and words in err, (args, rc, err)
        # a port in use: exit 3, nothing claimed
        s = socket.socket()
        s.bind(("127.0.0.1", 0))
        s.listen(1)
        add_once(db, "x", now_ms() - 1000)
        rc, err = run("run", path, "--http", f"127.0.0.1:{s.getsockname()[1]}")
        s.close()
        assert rc == 3 and "cannot listen" in err, (rc, err)
        assert one(db, "SELECT count(*) FROM trigger_runs") == 0
        p = subprocess.run([host_bin(ext), "--help"], capture_output=True, text=True, timeout=5)
        assert "--http ADDR" in p.stdout and "/metrics" in p.stdout
        assert "--http addr" in manual() and "/metrics" in manual()
        # every interface only when written out, with a warning
        proc, port, err = start_http(ext, t, "run", path, addr="0.0.0.0:0", name="any")
        try:
            assert "is not a loopback address" in read(err)
            assert get(port, "/health")[0] == 200
        finally:
            stop_http(proc)
        proc, port, err = start_http(ext, t, "run", path, addr="127.0.0.1:0", name="lo")
        stop_http(proc)
        assert "loopback" not in read(err)
        if socket.has_ipv6:
            try:
                socket.socket(socket.AF_INET6).bind(("::1", 0))
            except OSError:
                return  # no IPv6 loopback here
            proc, port, err = start_http(ext, t, "run", path, addr="[::1]:0", name="v6")
            try:
                assert "serving http://[::1]:" in read(err)
                assert get(port, "/health", host="::1")[0] == 200
            finally:
                stop_http(proc)


# ---- cost ---------------------------------------------------------------------

def fill_old_runs(db, n):
    """n finished runs 40 days old, straight into the shadow table."""
    t0 = now_ms() - 40 * 86400000
    db.execute("BEGIN")
    db.execute("""
        WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < ?1)
        INSERT INTO triggers_rundata(run_id, trigger_id, agent_id, scheduled_for, attempt,
                                     status, claimed_at, finished_at, latency_ms, error)
        SELECT 'old@' || (?2 + i) || '#1', 'old', 'a1', ?2 + i, 1,
               CASE i % 4 WHEN 0 THEN 'failed' ELSE 'success' END,
               ?2 + i, ?2 + i + 5, 5, NULL FROM k""", (n, t0))
    db.execute("COMMIT")


def best_time(port, path, n=5):
    best = 1e9
    for _ in range(n):
        t0 = time.perf_counter()
        assert get(port, path)[0] == 200
        best = min(best, time.perf_counter() - t0)
    return best


def test_page_cost_does_not_grow_with_run_history(ext):
    """The page reads the runs by an index range on scheduled_for (a
    one-sided range through the virtual table would be planned as a scan:
    200,000 old runs would then cost about 30 ms per query, 4 queries per
    page) and /metrics only trigger_health's indexed counts."""
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "hourly", now_ms() + 3600000, 3600000)
        proc, port, err = start_http(ext, t, "run", path)
        try:
            small = {p: best_time(port, p) for p in ("/", "/metrics")}
            fill_old_runs(db, 200000)
            big = {p: best_time(port, p) for p in ("/", "/metrics")}
        finally:
            stop_http(proc)
        print(f"  page / metrics: {small['/'] * 1e3:.1f} / {small['/metrics'] * 1e3:.1f} ms,"
              f" with 200,000 old runs {big['/'] * 1e3:.1f} / {big['/metrics'] * 1e3:.1f} ms")
        for p in small:
            assert big[p] < small[p] * 3 + 0.02, (p, small, big)


# ---- Chromium --------------------------------------------------------------------

# The scenario of the screenshot (also the picture in docs/host.md).
CHROMIUM_EXEC = ('case "$TRIGGER_ID" in flaky-sync) echo "CRM API returned 503" >&2; exit 1;;'
                 ' *) echo "done: $TRIGGER_ID";; esac')


def chromium_db(ext, t):
    path, db = t.db(ext, "agents.db")
    for tid, agent, text, cron, tz in (
            ("market-am", "agent-1", "Summarize overnight market moves", "0 7 * * MON-FRI",
             "Europe/Berlin"),
            ("nightly-backup", "agent-2", "Back up the notes database", "30 2 * * *", "UTC"),
            ("weekly-report", "agent-1", "Write the weekly report", "0 16 * * FRI",
             "America/New_York")):
        db.execute("INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type,"
                   " cron_expression, timezone) VALUES (?, ?, ?, 'cron', ?, ?)",
                   (tid, agent, text, cron, tz))
    db.execute("UPDATE triggers SET enabled = 0 WHERE trigger_id = 'weekly-report'")
    due = now_ms() + 200
    add_interval(db, "heartbeat", due, 2000, agent_id="agent-1",
                 instructions="Post a heartbeat to the ops channel")
    add_interval(db, "flaky-sync", due, 3000, agent_id="agent-2",
                 instructions="Sync the CRM contacts")
    add_interval(db, "escape-check", due + 3 * 3600000, 4 * 3600000, agent_id="agent-3",
                 instructions='<script>alert("x")</script> & more')
    return path, db


def test_page_in_chromium(ext):
    if not shutil.which("chromium"):
        print("SKIP test_host_http.test_page_in_chromium: chromium is not installed"
              " (Debian package chromium, optional in tests/deps.sh)")
        return
    with Tmp() as t:
        path, db = chromium_db(ext, t)
        proc, port, err = start_http(ext, t, "run", path, "--exec", CHROMIUM_EXEC)
        try:
            assert wait_for(lambda: one(db, "SELECT count(*) FROM trigger_runs WHERE status"
                                            " = 'failed'") >= 1 and
                            one(db, "SELECT count(*) FROM trigger_runs") >= 3, 10), read(err)
            url = f"http://127.0.0.1:{port}/"
            shot = os.path.join(os.path.dirname(ext), "host-status-page.png")
            if os.path.exists(shot):
                os.remove(shot)
            p = chromium("--screenshot=" + shot, "--window-size=1200,1000", url)
            assert os.path.exists(shot), p.stderr[-2000:]
            dom = chromium("--dump-dom", url).stdout
        finally:
            stop_http(proc)
        assert png_size(shot) == (1200, 1000)
        assert os.path.getsize(shot) > 20000  # a rendered page, not a blank one
        for text in ("trigger-host status", "agents.db", "market-am", "heartbeat", "flaky-sync",
                     "CRM API returned 503", "weekly-report", "paused", "Every 2 seconds",
                     "At 07:00, Monday through Friday (Europe/Berlin)", "Next 24 hours"):
            assert text in dom, text
        # the instructions are text in the rendered page, never an element
        assert '&lt;script&gt;alert("x")&lt;/script&gt; &amp; more' in dom
        assert "<script" not in dom.lower()


def test_page_limits_and_empty_database(ext):
    # more triggers than the page lists (PAGE_TRIGGERS 100), more due in
    # the next 24 hours than the timeline draws (PAGE_TIMELINE_ROWS 12),
    # more runs than it shows (PAGE_RUNS 50) with failed, expired and
    # successful ones; names long, missing or holding control bytes. And a
    # database with nothing in it.
    with Tmp() as t:
        path, db = t.db(ext)
        now = now_ms()
        for k in range(110):
            add_interval(db, f"t{k:03d}", now + 60000 + k * 1000, 3600000,
                         display_name=("n" * 40 if k % 3 == 0 else None),
                         instructions=f"job {k}\x01\x7f")
        past = now - 3600000
        for k in range(60):
            add_once(db, f"o{k:02d}", past + k, agent_id="a1")
        got = json.loads(one(db, "SELECT trigger_run_due(?, '{\"limit\":60}')", past + 100))
        for k, r in enumerate(got):
            status = ("failed", "success", "skipped")[k % 3]
            detail = "boom\x01" if status == "failed" else f"out {k}"
            one(db, "SELECT trigger_run_finish(?, ?, ?, ?)", r["run_id"], status, detail, past + 200)
        empty, _ = t.db(ext, "empty.db")
        proc, port, err = start_http(ext, t, "serve", path, empty)
        try:
            st, _, page = get(port, "/")
            assert st == 200, page[:200]
            assert page.count("<a href=\"/trigger/") >= 100 and "rel=\"next\">Next page</a>" in page
            assert "the first 12 are drawn" in page
            assert page.count("<tr class=\"fail\">") >= 1
            assert "No triggers." in page and "No runs in the last 7 days." in page
            assert "\x01" not in page and "\x7f" not in page
        finally:
            stop_http(proc)


def test_libmicrohttpd_loaded_only_for_http(ext):
    # host/http/mhd.c: the library (and the GnuTLS it links) is dlopen'ed when
    # --http starts the server; a host without --http never maps it.
    def mapped(proc):
        with open(f"/proc/{proc.pid}/maps") as f:
            return "libmicrohttpd" in f.read()
    with Tmp() as t:
        path, _ = t.db(ext)
        err_path = t.file("plain.err")
        proc = subprocess.Popen([host_bin(ext), "run", path, "--extension", ext],
                                stdout=subprocess.DEVNULL, stderr=open(err_path, "w"))
        try:
            assert wait_for(lambda: "started: run" in read(err_path), 10), read(err_path)
            assert not mapped(proc)
        finally:
            stop_http(proc)
        proc, port, _ = start_http(ext, t, "run", path)
        try:
            assert get(port, "/health")[0] == 200 and mapped(proc)
        finally:
            stop_http(proc)


def test_too_old_libmicrohttpd_is_named_not_a_crash(ext):
    # host/http/mhd.c: a libmicrohttpd that lacks a function --http calls (an
    # older one) refuses --http with the function's name, exit status 3;
    # the host never calls into a function it did not find. The stand-in
    # library, found first through LD_LIBRARY_PATH, has none of them.
    with Tmp() as t:
        path, _ = t.db(ext)
        libdir = t.file("old-mhd")
        os.mkdir(libdir)
        src = t.file("old_mhd.c")
        with open(src, "w") as f:
            f.write("int old_mhd_version = 1;\n")
        subprocess.run(["cc", "-shared", "-fPIC", "-o",
                        os.path.join(libdir, "libmicrohttpd.so.12"), src], check=True)
        env = dict(os.environ, LD_LIBRARY_PATH=libdir)
        p = subprocess.run([host_bin(ext), "run", path, "--extension", ext,
                            "--http", "127.0.0.1:0"],
                           capture_output=True, text=True, timeout=20, env=env)
        assert p.returncode == 3, (p.returncode, p.stderr)
        assert "libmicrohttpd has no MHD_start_daemon (too old a version?)" in p.stderr, p.stderr


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
            rc, out, err = run_host(ext, "run", path, "--http", addr)
            assert rc == 2 and f"--http {addr}: " in err and words in err, (addr, rc, err)
            assert out == "", out


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
                key = ("trigger_host_failures_total",
                       frozenset({"db": path, "agent": 'ag"\\x'}.items()))
                return samples.get(key) == 1
            assert wait_for(counted, 10), samples
        finally:
            stop_http(proc)


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
