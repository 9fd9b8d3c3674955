"""tests/py/host/test_host_calendar.py -- GET /calendar.ics of
`trigger-host --http` (host/http/calendar.c): the trigger_ical feed as
text/calendar; charset=utf-8 with the server's headers, read back by
python3-icalendar and libical as trigger_preview's occurrences; ?agent=
and ?scope= narrowing it; hostile query strings quoted into the options
(never read as other options), refused with 400 when they are not text
or too long; the same access as the page (a GET needs no token, other
methods are refused); several databases as one calendar."""
import urllib.parse

from util.host import Tmp, add_interval, now_ms
from util.http import get, start_http, stop_http
from util.ical import icalendar_occurrences, libical_occurrences, preview

DAY = 86400000


def add_cron(db, tid, expr, tz, **cols):
    cols = dict(cols, trigger_id=tid, instructions="do " + tid, trigger_type="cron",
                cron_expression=expr, timezone=tz)
    db.execute(f"INSERT INTO triggers({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
               list(cols.values()))


def uids(text):
    return sorted(l[4:].split("@")[0] for l in text.split("\r\n") if l.startswith("UID:"))


def seed(db):
    add_cron(db, "standup", "0 9 * * 1-5", "Europe/Berlin", agent_id="a1", scope="s1")
    add_cron(db, "report", "30 17 * * FRI", "America/New_York", agent_id="a2", scope="s1")
    add_interval(db, "poll", now_ms() + 3600000, 3600000, agent_id="a1", scope="s2")


def test_feed_as_preview(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        seed(db)
        proc, port, err = start_http(ext, t, "run", path, "--exec", "true")
        try:
            before = now_ms()
            st, headers, body = get(port, "/calendar.ics")
            after = now_ms()
            assert st == 200, body
            assert headers["content-type"] == "text/calendar; charset=utf-8"
            assert headers["cache-control"] == "no-store"
            assert body.startswith("BEGIN:VCALENDAR\r\n") and body.endswith("END:VCALENDAR\r\n")
            assert uids(body) == ["poll", "report", "standup"]
            # the feed's range is now .. now + 60 days: compare inside it
            lo, hi = (after + DAY) // 1000 * 1000, (before + 59 * DAY) // 1000 * 1000
            by_icalendar = icalendar_occurrences(body, lo // 1000 + 1, hi // 1000)
            by_libical = libical_occurrences(body, lo // 1000 + 1, hi // 1000)
            for tid in ("poll", "report", "standup"):
                want = [s for s in preview(db, tid, lo, hi) if s > lo // 1000]
                got = by_icalendar[tid + "@sqlite-triggers"]
                assert want and got == want, (tid, got[:3], want[:3], len(got), len(want))
                assert by_libical[tid + "@sqlite-triggers"] == want, tid
            st, headers, body = get(port, "/calendar.ics", method="HEAD")
            assert st == 200 and body == "" and headers["content-type"].startswith("text/calendar")
        finally:
            stop_http(proc)


def test_narrowed_and_hostile_queries(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        seed(db)
        hostile = 'a1"],"scope":"s2'  # would narrow to s2 if pasted into JSON
        add_cron(db, "odd", "0 8 * * *", "UTC", agent_id=hostile, scope="<b>&")
        proc, port, err = start_http(ext, t, "run", path, "--exec", "true")
        try:
            def feed(query):
                st, _, body = get(port, "/calendar.ics?" + query)
                assert st == 200, (query, body)
                return uids(body)
            assert feed("agent=a1") == ["poll", "standup"]
            assert feed("scope=s1") == ["report", "standup"]
            assert feed("agent=a1&scope=s1") == ["standup"]
            assert feed("agent=nobody") == []
            assert feed("agent=") == ["odd", "poll", "report", "standup"]  # empty: any
            assert feed("agent=" + urllib.parse.quote(hostile, safe="")) == ["odd"]
            assert feed("scope=" + urllib.parse.quote("<b>&", safe="")) == ["odd"]
            assert feed("agent=%0d%0aEND:VCALENDAR") == []
            for query in ("agent=%FF", "scope=%C3", "agent=" + "x" * 1025):
                st, headers, body = get(port, "/calendar.ics?" + query)
                assert st == 400 and "bad ?agent or ?scope" in body, (query, st, body)
                assert headers["content-type"] == "text/plain; charset=utf-8"
            st, _, _ = get(port, "/calendar.ics", method="POST", body="x")
            assert st == 405  # read-only, as the page
            st, _, _ = get(port, "/calendar.ics?" + "agent=" + "x" * 5000)
            assert st == 414
        finally:
            stop_http(proc)


def test_several_databases_one_calendar(ext):
    with Tmp() as t:
        a, dba = t.db(ext, "a.db")
        b, dbb = t.db(ext, "b.db")
        add_cron(dba, "in-a", "0 9 * * *", "Europe/Berlin")
        add_cron(dbb, "in-b", "0 10 * * *", "Europe/Berlin")
        add_cron(dbb, "in-b2", "0 10 * * *", "Asia/Tokyo")
        proc, port, err = start_http(ext, t, "serve", a, b)
        try:
            st, _, body = get(port, "/calendar.ics")
            assert st == 200, body
            assert uids(body) == ["in-a", "in-b", "in-b2"]
            assert body.count("BEGIN:VCALENDAR") == 1 and body.count("END:VCALENDAR") == 1
            assert body.count("TZID:Europe/Berlin\r\n") == 1  # each zone once
            assert body.count("TZID:Asia/Tokyo\r\n") == 1
            import icalendar
            assert len(icalendar.Calendar.from_ical(body).walk("VEVENT")) == 3
        finally:
            stop_http(proc)
