"""tests/py/host/test_host_list_paged.py -- the status page's trigger list
at scale (host/http/page.c, docs/host.md): pages of at most 100 triggers
in a stable order (next due time and id, then those with nothing due by
id) linked by a keyset cursor, every trigger listed once however the
times tie; a request reads at most 10,000 rows, so a filter that matches
few triggers answers with a page that says so and links on; malformed
cursors are refused; health counts past 10,000 show as "10000+"; a
trigger's events are paged like its runs."""
import html
import re
import urllib.parse

from util import one
from util.host import Tmp, add_interval, now_ms
from util.http import get, metric, parse_metrics, start_http, stop_http

PAGE = 100
WALK = 10000
CAP = 10000


def _ids(body):
    section = body.split("<h3>Triggers</h3>")[1].split("<h3>")[0]
    return [urllib.parse.unquote(i) for i in re.findall(r'<a href="/trigger/([^"?]+)', section)]


def _next(body):
    m = re.search(r'<a href="(/\?[^"]+)" rel="next">', body)
    return html.unescape(m.group(1)) if m else None


def _walk(port, url):
    """Every page from url on: the ids of each page, in order."""
    pages = []
    while url:
        status, _, body = get(port, url)
        assert status == 200, (url, body[:300])
        pages.append(_ids(body))
        url = _next(body)
        assert len(pages) < 50, url
    return pages


def test_list_pages_in_a_stable_order(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        base = now_ms() + 3600000
        want_due = []
        for i in range(230):  # 40 share each of the first due times: ties
            due = base + (i // 40) * 60000 if i < 200 else base + i * 60000
            add_interval(db, f"t{229 - i:03}", due, 86400000)
            want_due.append((due, f"t{229 - i:03}"))
        for i in range(30):
            add_interval(db, f"p{i:02}", base, 86400000)
        db.execute("UPDATE triggers SET enabled = 0 WHERE trigger_id LIKE 'p%'")
        want = [i for _, i in sorted(want_due)] + [f"p{i:02}" for i in range(30)]
        proc, port, _ = start_http(ext, t, "run", path, "--exec", "true")
        try:
            pages = _walk(port, "/")
            assert [len(p) for p in pages] == [PAGE, PAGE, 60], [len(p) for p in pages]
            # a full page says nothing of matches: only a filter's short one does
            assert "triggers read match" not in get(port, "/")[2]
            assert sum(pages, []) == want
            status, _, body = get(port, _next(get(port, "/")[2]))
            assert '<a href="/?">First page</a>' in body
            # a filter is kept from page to page; the paused ones by id
            pages = _walk(port, "/?status=paused")
            assert pages == [[f"p{i:02}" for i in range(30)]], pages
            # a cursor taken in the idle part goes on from there
            assert _walk(port, "/?idle=1&after_id=p27") == [["p28", "p29"]]
            for bad in ("/?after=x&after_id=t1", "/?after=5", "/?after_id=t1",
                        "/?idle=2&after_id=t1", "/?idle=1&after=5&after_id=t1",
                        "/?after=5&after_id=%ff", "/?after=5&after_id=t1&db=1",
                        "/?after=99999999999999999999&after_id=t1"):
                status, _, body = get(port, bad)
                assert status == 400 and "cursor" in body, (bad, status, body[:200])
        finally:
            stop_http(proc)


def test_idle_triggers_page_by_agent_and_by_status(ext):
    """More than a page of triggers with nothing due, listed by agent or by
    status: the pages go on by id (an idle cursor), each trigger once."""
    with Tmp() as t:
        path, db = t.db(ext)
        base = now_ms() + 3600000
        db.execute("BEGIN")
        for i in range(130):
            add_interval(db, f"i{i:03}", base, 86400000, agent_id="ops")
        db.execute("COMMIT")
        db.execute("UPDATE triggers SET enabled = 0")
        want = [f"i{i:03}" for i in range(130)]
        proc, port, _ = start_http(ext, t, "run", path, "--exec", "true")
        try:
            for url in ("/?agent=ops", "/?status=paused"):
                pages = _walk(port, url)
                assert [len(p) for p in pages] == [PAGE, 30], (url, [len(p) for p in pages])
                assert sum(pages, []) == want, url
                assert "idle=1" in _next(get(port, url)[2]), url
        finally:
            stop_http(proc)


def test_a_rare_filter_reads_a_bounded_number_of_rows(ext):
    # 10,050 triggers of scope s1 come first; the 3 of scope rare last
    # (no index leads with scope). The first page reads 10,000 rows,
    # matches none, and says so with a link; following it finds the 3,
    # then the triggers with nothing due (none match). An agent filter
    # reads the agent's own index. The health counts stop past 10,000.
    with Tmp() as t:
        path, db = t.db(ext)
        base = now_ms() + 3600000
        db.execute("BEGIN")
        for i in range(10050):
            add_interval(db, f"a{i:05}", base + i, 86400000, agent_id="a1", scope="s1")
        for i in range(3):
            add_interval(db, f"r{i}", base + 20000 + i, 86400000, agent_id="rare",
                         scope="rare")
        db.execute("COMMIT")
        proc, port, _ = start_http(ext, t, "run", path, "--exec", "true")
        try:
            status, _, body = get(port, "/?scope=rare")
            assert status == 200
            assert _ids(body) == [] and f"0 of the {WALK} triggers read match" in body, body
            assert "No triggers match" not in body
            assert _walk(port, "/?scope=rare") == [[], ["r0", "r1", "r2"], []]
            assert _walk(port, "/?agent=rare") == [["r0", "r1", "r2"]]
            assert '<li class="warn"><b>' not in body.split("</ul>")[0]
            assert f"<li><b>{CAP}+</b>active</li>" in body, body.split("</ul>")[0]
            status, _, text = get(port, "/health")
            assert '"active":10001,"active_capped":true' in text, text
            samples, _ = parse_metrics(get(port, "/metrics")[2])
            assert metric(samples, "trigger_db_active", db=path) == CAP + 1
        finally:
            stop_http(proc)


def test_a_triggers_events_are_paged(ext):
    # 45 events of one trigger, pairs of them at the same instant: the
    # trigger's page shows 20 at a time, newest first, each once, with a
    # link to the older ones (a cursor of the instant and the event's row).
    with Tmp() as t:
        path, db = t.db(ext)
        base = now_ms() + 3600000
        add_interval(db, "x", base, 86400000)
        for k in range(22):
            at = base - 3600000 + k * 1000
            one(db, "SELECT trigger_pause('x', ?)", at)
            one(db, "SELECT trigger_resume('x', ?)", at)
        want = [r[0] for r in db.execute(
            "SELECT kind FROM trigger_events WHERE trigger_id = 'x'"
            " ORDER BY at DESC, rowid DESC")]
        assert len(want) == 45, want
        proc, port, _ = start_http(ext, t, "run", path, "--exec", "true")
        try:
            url, pages = "/trigger/x", []
            while url:
                status, _, body = get(port, url)
                assert status == 200, body[:300]
                events = body.split("<h3>Events")[1]
                pages.append(re.findall(r'<tr><td class="t">[^<]*</td><td>(\w+)</td>', events))
                m = re.search(r'<a href="(/trigger/x\?events_before=[^"]+)">Older events', body)
                url = html.unescape(m.group(1)) if m else None
                assert len(pages) < 10, url
            assert [len(p) for p in pages] == [20, 20, 5], pages
            assert sum(pages, []) == want
            for bad in ("/trigger/x?events_before=x", "/trigger/x?events_before_id=1e3"):
                assert get(port, bad)[0] == 400, bad
        finally:
            stop_http(proc)
