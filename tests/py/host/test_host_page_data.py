"""tests/py/host/test_host_page_data.py -- the status page, /health and
/metrics of `trigger-host --http` on data the other page tests do not
have: a trigger overdue (of an agent this host does not serve, so it
stays overdue: red in the timeline, "ago" on the cards), names with every
character HTML escapes and a long one cut inside a character, an empty
name, triggers bounded by max_runs, so many dense triggers that the
page's trigger_preview budget is spent, expired runs and a success
without a result; the shadow tables renamed under a running host (every
section says what it could not read, /health answers 503 with the error,
/metrics says the database is down, and all comes back when they are
renamed back); more databases than a page holds; more agents than
/metrics keeps a row for, and a database path that Prometheus labels
must escape."""
import json
import os
import re
import shutil
import sqlite3

from util.host import Tmp, add_interval, add_once, now_ms, wait_for
from util.http import get, parse_metrics, read, start_http, stop_http
from util import one

HOUR = 3600000


def page_of(ext, t, *dbs):
    """The page of `serve DBS` for an agent no trigger has (nothing is
    claimed: what is overdue stays so)."""
    proc, port, _ = start_http(ext, t, "serve", *dbs, "--agents", "mine")
    try:
        st, _, page = get(port, "/")
    finally:
        stop_http(proc)
    assert st == 200, page[:300]
    return page


def test_page_of_odd_triggers_and_runs(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        now = now_ms()
        common = dict(agent_id="other", interval_ms=86400000)
        add_interval(db, "late", now - 125000, display_name="it's <b>\t\n\x01</b>", **common)
        add_interval(db, "long", now + HOUR, display_name="x" + "é" * 20, **common)
        add_interval(db, "unnamed", now + 2 * HOUR, display_name="", **common)
        # first in the timeline: read fire by fire up to max_runs
        add_interval(db, "three", now + 60000, agent_id="other", interval_ms=60000,
                     max_runs=3)
        add_interval(db, "many", now + 60001, agent_id="other", interval_ms=1000,
                     max_runs=150)
        for k in range(6):  # 24 preview calls each: the page's 120 run out
            add_interval(db, f"dense{k}", now + 120000 + k, agent_id="other",
                         interval_ms=1000)
        past = now - HOUR
        add_once(db, "missed", past, window_ms=1000, agent_id="other")
        add_once(db, "quiet", past + 1, agent_id="other")
        got = json.loads(one(db, "SELECT trigger_run_due(?, '{\"agents\":[\"other\"],"
                                 "\"limit\":1}')", past + 10000))
        assert [r["trigger_id"] for r in got] == ["quiet"], got
        one(db, "SELECT trigger_run_finish(?, 'success', NULL, ?)", got[0]["run_id"],
            past + 11000)
        page = page_of(ext, t, path)
        assert "it&#39;s &lt;b&gt;\t\n\ufffd&lt;/b&gt;" in page, page
        assert ">x" + "é" * 14 + "\u2026</text>" in page  # 30 bytes: not mid-character
        assert re.search(r'<title>unnamed</title><text x="4" y="\d+">unnamed</text>', page)
        assert 'class="od"><title>overdue</title>' in page, page
        assert "<b>2 min ago</b>next due" in page, page
        assert "not computed: the page's trigger_preview budget is spent" in page, page
        timeline = page.split("<svg")[1].split("</svg>")[0]
        row = lambda tid: timeline.split(f"<title>{tid}</title>")[1].split("</g>")[0]
        assert row("three").count('class="f"/>') == 1, row("three")  # 3 fires, one bar
        assert "not computed" not in row("many") + row("dense0"), row("many")
        assert "not computed" in row("dense5"), row("dense5")
        runs = page.split("<h3>Recent runs</h3>")[1]
        assert '<tr class="warn"><td class="t">' in runs and ">missed<" in runs, runs
        quiet = runs.split(">quiet<")[1].split("</tr>")[0]
        assert quiet.endswith("</td><td></td>"), quiet  # success, no result


def test_page_health_metrics_with_tables_gone(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "a", now_ms() + HOUR, agent_id="other")
        good, gdb = t.db(ext, "good.db")
        add_interval(gdb, "b", now_ms() + HOUR, agent_id="other")
        proc, port, err = start_http(ext, t, "serve", path, good, "--agents", "mine", "-v")
        try:
            plain = sqlite3.connect(path, isolation_level=None)
            for table in ("triggers_data", "triggers_rundata"):
                plain.execute(f"ALTER TABLE {table} RENAME TO {table}_gone")
            st, _, page = get(port, "/")
            assert st == 200, page[:300]
            for what in ("trigger_health", "upcoming triggers", "triggers", "runs"):
                assert f'<p class="err">{what}: ' in page, (what, page)
            assert "No triggers." not in page.split("good.db")[0]
            st, _, body = get(port, "/health")
            assert st == 503, body
            health = json.loads(body)
            assert "error" in health[path] and "error" not in health[good], health
            st, _, text = get(port, "/metrics")
            assert st == 200, text
            samples, _ = parse_metrics(text)
            assert samples[("trigger_db_up", frozenset({("db", path)}))] == 0, text
            assert samples[("trigger_db_up", frozenset({("db", good)}))] == 1, text
            for table in ("triggers_data", "triggers_rundata"):
                plain.execute(f"ALTER TABLE {table}_gone RENAME TO {table}")
            st, _, page = get(port, "/")
            assert st == 200 and '<p class="err">' not in page, page
            assert get(port, "/health")[0] == 200
        finally:
            stop_http(proc)
        assert f"/health: {path}: " in read(err), read(err)


def test_page_of_more_databases_than_it_holds(ext):
    """Each database's section is ~100 kB (100 triggers with long ids and
    instructions): the page stops after 1 MiB and lists the rest by name,
    at most 100 of them."""
    with Tmp() as t:
        path, db = t.db(ext, "a000.db")
        for k in range(100):
            add_interval(db, f"{'t' * 150}{k:03d}", now_ms() + HOUR + k, agent_id="other",
                         interval_ms=86400000, instructions=f"do {k} " + "x" * 500)
        db.close()
        for n in (115, 20):  # the rest named, or the first 100 of them and "..."
            d = t.file(f"dir{n}")
            os.mkdir(d)
            for k in range(n):
                shutil.copy(path, f"{d}/a{k:03d}.db")
            page = page_of(ext, t, d)
            shown = page.count("<section>")
            assert 5 < shown < 20, shown
            assert f"{n - shown} more database(s) not shown (page size limit):" in page
            listed = page.split("(page size limit):</p><ul>")[1].split("</ul>")[0]
            assert f"<li>{d}/a{shown:03d}.db</li>" in listed
            more = n - shown > 100
            assert listed.count("<li>") == (101 if more else n - shown), listed
            assert listed.endswith("<li>&hellip;</li>") == more, listed


def test_metrics_of_many_agents_and_an_odd_path(ext):
    """STATS_MAX_ROWS (1000) rows of (database, agent), then one more: the
    rest of the agents counted as "(other)"; a path with a double quote, a
    backslash and a newline is escaped in every label."""
    with Tmp() as t:
        path, db = t.db(ext, 'we"ird\\na\nme.db')
        past = now_ms() - 1000
        db.executemany("INSERT INTO triggers(trigger_id, agent_id, instructions, trigger_type,"
                       " scheduled_at) VALUES (?, ?, 'do', 'once', ?)",
                       [(f"t{k:04d}", f"agent{k:04d}", past) for k in range(1005)])
        proc, port, err = start_http(ext, t, "run", path)
        try:
            done = "SELECT count(*) FROM trigger_runs WHERE status = 'success'"
            assert wait_for(lambda: one(db, done) == 1005, 30), one(db, done)
            # the page's figures are read on their own thread: on a loaded
            # machine they may lag the database by a refresh, so ask again
            # until the last fires are counted
            page = {}

            def counted():
                st, _, page["text"] = get(port, "/metrics")
                assert st == 200
                page["fires"] = {dict(k[1])["agent"]: v
                                 for k, v in parse_metrics(page["text"])[0].items()
                                 if k[0] == "trigger_host_fires_total"}
                return sum(page["fires"].values()) == 1005
            wait_for(counted, 30)
        finally:
            stop_http(proc)
        text, fires = page["text"], page["fires"]
        label = path.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
        assert len(fires) == 1001 and fires["(other)"] == 5, (len(fires), fires.get("(other)"))
        assert f'trigger_db_up{{db="{label}"}} 1' in text, text[:500]
