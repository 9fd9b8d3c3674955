"""tests/py/host/test_host_pages.py -- the status server's pages of one
trigger and one run (host/http/detail.c) and the list's filters
(host/http/page.c): what each shows against what the database says, the
runs of a trigger paged from a stable cursor, the words of /metrics for
latency, dark mode, and hostile ids and query strings: escaped in the
page, percent-encoded in links, refused with 400 when they are not text,
404 for an id that names nothing."""
import contextlib
import json
import os
import re
import shutil
import urllib.parse

from util import one
from util.host import Tmp, add_interval, now_ms, wait_for
from util.http import chromium, get, png_size, read, start_http, stop_http

HOSTILE = 'x/<b>"y\'#z?&a=1 %'


def q(text):
    return urllib.parse.quote(text, safe="")


def seed(ext, t):
    path, db = t.db(ext)
    now = now_ms()
    add_interval(db, "hourly", now + 3600000, 3600000, agent_id="a1", scope="s1",
                 instructions="Hourly <b>check</b>")
    add_interval(db, HOSTILE, now + 7200000, 3600000, agent_id="a<2>", scope="s2",
                 instructions="<script>alert(1)</script>")
    add_interval(db, "flaky", now - 40 * 60000, 60000, agent_id="a1", scope="s2",
                 max_attempts=2, backoff_ms=1000)
    db.execute("UPDATE triggers SET enabled = 0 WHERE trigger_id = ?", (HOSTILE,))
    # 30 finished runs of hourly, a second apart, each taking 250 ms
    for k in range(30):
        at = now - (30 - k) * 1000
        r = json.loads(one(db, "SELECT trigger_fire('hourly', ?)", at))
        one(db, "SELECT trigger_run_finish(?, 'success', ?, ?)", r["run_id"], f"out {k}",
            at + 250)
    return path, db


@contextlib.contextmanager
def seeded_host(ext, before=None, exec_cmd="true"):
    """A host with --http on seed()'s database (before(db) first): (db, port, err)."""
    with Tmp() as t:
        path, db = seed(ext, t)
        if before:
            before(db)
        proc, port, err = start_http(ext, t, "run", path, "--exec", exec_cmd)
        try:
            yield db, port, err
        finally:
            stop_http(proc)


def test_trigger_page_and_its_runs_paged(ext):
    with seeded_host(ext) as (db, port, err):
        status, headers, body = get(port, "/trigger/hourly")
        assert status == 200, body
        assert "Every hour" in body and "<h3>Definition</h3>" in body, body
        assert "Hourly &lt;b&gt;check&lt;/b&gt;" in body and "<b>check</b>" not in body
        nxt = re.findall(r"<li>(\d{4}-\d\d-\d\dT[^<]+)</li>", body)
        assert len(nxt) == 5, nxt
        assert "claim latency" in body and "run time" in body and "250 ms" in body
        first = re.findall(r"<td>(out \d+)</td>", body)
        assert first == [f"out {k}" for k in range(29, 4, -1)], first
        older = re.search(r'href="(/trigger/hourly\?before=[^"]+)"', body)
        assert older, body
        _, _, page2 = get(port, older.group(1).replace("&amp;", "&"))
        second = re.findall(r"<td>(out \d+)</td>", page2)
        assert second == [f"out {k}" for k in range(4, -1, -1)], second
        assert "Older runs" not in page2
        # a run added meanwhile does not move the older page
        one(db, "SELECT trigger_run_finish(json_extract(trigger_fire('hourly'),"
                " '$.run_id'), 'success', 'new')")
        _, _, again = get(port, older.group(1).replace("&amp;", "&"))
        assert re.findall(r"<td>(out \d+)</td>", again) == second
        # the events, newest first
        one(db, "SELECT trigger_pause('hourly')")
        _, _, body = get(port, "/trigger/hourly")
        evs = body.split("<h3>Events</h3>")[1].split("<h3>")[0]
        kinds = re.findall(r"<td>(created|paused|resumed)</td>", evs)
        assert kinds == ["paused", "created"], kinds
        assert get(port, "/trigger/nope")[0] == 404


def test_run_page(ext):
    def fail_once(db):  # flaky fails once, then its retry runs
        claimed = json.loads(one(db, "SELECT trigger_run_due(?, '{\"limit\":1}')", now_ms()))
        assert claimed[0]["trigger_id"] == "flaky", claimed
        one(db, "SELECT trigger_run_finish(?, 'failed', 'boom <x>')", claimed[0]["run_id"])
    with seeded_host(ext, fail_once, "echo retried") as (db, port, err):
        first = one(db, "SELECT run_id FROM trigger_runs WHERE error = 'boom <x>'")
        assert wait_for(lambda: one(db, "SELECT count(*) FROM trigger_runs WHERE"
                                        " trigger_id = 'flaky' AND attempt = 2 AND"
                                        " status = 'success'") == 1, 10), read(err)
        status, _, body = get(port, "/run/" + q(first))
        assert status == 200, body
        assert "<h3>Error</h3>\n<pre>boom &lt;x&gt;</pre>" in body, body
        assert "<h3>Payload</h3>" in body and "&quot;triggerId&quot;:&quot;flaky&quot;" in body
        attempts = body.split("<h3>Attempts</h3>")[1]
        assert re.findall(r"<td>([12])</td><td><span", attempts) == ["1", "2"], attempts
        assert "retried" in attempts
        assert '<a href="/trigger/flaky">flaky</a>' in body
        for label in ("claim latency", "run time", "scheduled for", "claimed at",
                      "finished at", "owner"):
            assert f">{label}</th>" in body, label
        assert get(port, "/run/" + q("flaky@1#1"))[0] == 404


def test_list_filters_and_dark_mode(ext):
    with seeded_host(ext) as (db, port, err):
        def listed(query):
            status, _, body = get(port, "/" + query)
            assert status == 200, (query, body)
            triggers = body.split("<h3>Triggers</h3>")[1].split("<h3>")[0]
            return re.findall(r'<a href="/trigger/([^"]+)">', triggers), body
        ids, body = listed("")
        assert sorted(ids) == sorted(["hourly", "flaky", q(HOSTILE)]), ids
        assert "@media (prefers-color-scheme:dark)" in body
        assert '<form class="filter" method="get" action="/">' in body
        assert listed("?agent=a1")[0] == ["flaky", "hourly"]
        assert listed("?scope=s2")[0] == ["flaky", q(HOSTILE)]
        assert listed("?agent=a1&scope=s2")[0] == ["flaky"]
        ids, body = listed("?status=paused")
        assert ids == [q(HOSTILE)], ids
        assert "<option selected>paused</option>" in body
        ids, body = listed("?agent=" + q("a<2>"))
        assert ids == [q(HOSTILE)] and 'value="a&lt;2&gt;"' in body, ids
        assert listed("?agent=nobody")[1].count("No triggers match the filters") == 1
        assert sorted(listed("?agent=&scope=&status=")[0]) == sorted(
            ["hourly", "flaky", q(HOSTILE)])


def test_hostile_ids_and_query_strings(ext):
    with seeded_host(ext) as (db, port, err):
        status, headers, body = get(port, "/trigger/" + q(HOSTILE))
        assert status == 200, body
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
        assert "<script" not in body.lower() and "<b>" not in body.split("</h1>")[0]
        assert "x/&lt;b&gt;&quot;y&#39;#z?&amp;a=1 %" in body, body
        assert "form-action 'self'" in headers["content-security-policy"]
        for url, want in (("/trigger/%ff%fe", 400), ("/run/%c3", 400),
                          ("/trigger/", 400), ("/run/", 400),
                          ("/trigger/hourly?db=1", 400), ("/trigger/hourly?db=-1", 400),
                          ("/trigger/hourly?db=x", 400),
                          ("/trigger/hourly?before=1e3", 400),
                          ("/trigger/hourly?before=99999999999999999999", 400),
                          ("/trigger/hourly?before_run=%ff", 400),
                          ("/?status=" + q("paused' OR 1=1"), 400),
                          ("/?agent=%ff", 400), ("/?agent=" + "a" * 1025, 400),
                          ("/trigger/" + "a" * 1025, 400),
                          ("/trigger/" + q("' OR 1=1 --"), 404),
                          ("/run/" + q("<img src=x>"), 404),
                          ("/trigger/hourly?before=0", 200),
                          ("/trigger/hourly?unknown=%ff", 200)):
            status, _, body = get(port, url)
            assert status == want, (url, status, body[:300])
            assert "<img" not in body and "<script" not in body.lower(), url
        # nothing was changed by any of it
        assert one(db, "SELECT count(*) FROM trigger_events WHERE kind <> 'created'") == 1


# ---- Chromium: the pictures in docs/host.md -----------------------------------------

SHOTS_EXEC = ('case "$TRIGGER_ATTEMPT" in 1) echo "HTTP 502 from the CRM" >&2; exit 1;;'
              ' *) echo "synced 42 contacts";; esac')


def test_pages_in_chromium(ext):
    if not shutil.which("chromium"):
        print("SKIP test_host_pages.test_pages_in_chromium: chromium is not installed"
              " (Debian package chromium, optional in tests/deps.sh)")
        return
    with Tmp() as t:
        path, db = t.db(ext, "agents.db")
        db.execute("INSERT INTO triggers(trigger_id, agent_id, scope, instructions, trigger_type,"
                   " cron_expression, timezone) VALUES ('standup', 'agent-1', 'team', 'Post the"
                   " standup summary', 'cron', '0 9 * * MON-FRI', 'Europe/Berlin')")
        add_interval(db, "crm-sync", now_ms() + 300, 4000, agent_id="agent-2", scope="sales",
                     instructions="Sync the CRM contacts", max_attempts=2, backoff_ms=500)
        add_interval(db, "backup", now_ms() + 3600000, 86400000, agent_id="agent-2",
                     instructions="Back up the notes database")
        proc, port, err = start_http(ext, t, "run", path, "--exec", SHOTS_EXEC,
                                     "--http-token-file", token_file(t))
        try:
            assert wait_for(lambda: one(db, "SELECT count(*) FROM trigger_runs WHERE status"
                                            " = 'success'") >= 2, 20), read(err)
            failed = one(db, "SELECT run_id FROM trigger_runs WHERE status = 'failed'"
                             " ORDER BY scheduled_for DESC")
            out = os.path.dirname(ext)
            base = f"http://127.0.0.1:{port}"
            for name, url in (("host-list-page.png", base + "/?agent=agent-2"),
                              ("host-trigger-page.png", base + "/trigger/crm-sync"),
                              ("host-run-page.png", base + "/run/" + q(failed))):
                shot = os.path.join(out, name)
                if os.path.exists(shot):
                    os.remove(shot)
                p = chromium("--screenshot=" + shot, "--window-size=1200,900", url)
                assert os.path.exists(shot), p.stderr[-2000:]
                assert png_size(shot) == (1200, 900) and os.path.getsize(shot) > 20000, name
            dom = chromium("--dump-dom", base + "/trigger/crm-sync").stdout
        finally:
            stop_http(proc)
        for text in ("Trigger crm-sync", "Every 4 seconds", "HTTP 502 from the CRM",
                     "synced 42 contacts", "claim latency", "run time", "Log in"):
            assert text in dom, text
        assert "<script" not in dom.lower()


def token_file(t):
    path = t.file("token")
    with open(path, "w") as f:
        f.write("screenshot-token-0123456789\n")
    os.chmod(path, 0o600)
    return path


def test_detail_pages_of_each_served_database(ext):
    """serve over two databases: ?db=N picks the database (0 first) of a
    trigger's page; a number past the last is refused."""
    with Tmp() as t:
        first, db0 = t.db(ext, "first.db")
        second, db1 = t.db(ext, "second.db")
        add_interval(db0, "in-first", now_ms() + 3600000, 3600000)
        add_interval(db1, "in-second", now_ms() + 3600000, 3600000)
        proc, port, _ = start_http(ext, t, "serve", first, second)
        try:
            for url, want in (("/trigger/in-first", 200), ("/trigger/in-first?db=0", 200),
                              ("/trigger/in-second?db=1", 200), ("/trigger/in-second", 404),
                              ("/trigger/in-first?db=1", 404), ("/trigger/in-second?db=2", 400)):
                status, _, body = get(port, url)
                assert status == want, (url, status, body[:300])
                if want == 200:
                    assert url.split("/")[2].split("?")[0] in body, url
        finally:
            stop_http(proc)
