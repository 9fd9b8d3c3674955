"""tests/py/sql/test_ical.py -- trigger_ical (ext/sql/fn_ical.c,
time/ical_event.c): the feed read back by two iCalendar readers
(python3-icalendar with dateutil, and libical: util/ical.py) gives, for
every trigger, the occurrences trigger_preview gives over the range:
interval (whole seconds as an RRULE in UTC, milliseconds as RDATEs), once,
cron as an RRULE where exact and its times meet no DST change in the range
(at a gap or a repeated hour cron, RFC 5545 and libical 3.0 each differ)
and as RDATEs where not, in zones with and without
DST, a 30-minute change and the southern hemisphere, across both changes
of the year. Then: stable UIDs and bytes, lines of at most 75 octets with
escaped text, agents/scope narrowing, finished runs as events, and each
refused option."""
import datetime
import json

from util import T0, add, connect, error, one, tick, finish
from util.ical import icalendar_occurrences, libical_bin, libical_occurrences, preview

ZONES = ["Europe/Berlin", "America/New_York", "Australia/Sydney",
         "Australia/Lord_Howe", "Asia/Kolkata", "UTC"]
CRONS = [
    "0 9 * * 1-5",       # exact: weekly
    "30 2 * * *",        # a time in the spring gap: cron runs at the gap's end
    "*/30 * * * *",      # an interval job: the repeated hour runs twice
    "0 1-3 * * *",
    "15 1,2 * * 0",
    "0 0 L * *",         # exact: BYMONTHDAY=-1
    "0 10 * * MON#2",    # exact: BYDAY=2MO
    "0 30 1 * * *",      # seconds
    "0 0 13 * FRI",      # not exact: day-of-month OR day-of-week
    "0 12 15W * *",      # not exact: nearest weekday
    "0 17 * * 5L,SUN",   # not exact: plain and ordinal weekdays
]
# The two changes of the year, for each hemisphere.
RANGES = [("2026-03-01T00:00:00Z", "2026-04-15T00:00:00Z"),
          ("2026-09-25T00:00:00Z", "2026-11-10T00:00:00Z")]


def ms(iso):
    return int(datetime.datetime.fromisoformat(iso.replace("Z", "+00:00")).timestamp() * 1000)


def feed(db, **opts):
    return one(db, "SELECT trigger_ical(?)", json.dumps(opts))


def compare(db, text, from_ms, to_ms, ids):
    """Both readers' occurrences of each trigger are trigger_preview's."""
    assert libical_bin(), "libical's headers are missing (tests/deps.sh: libical-dev)"
    lo, hi = from_ms // 1000, to_ms // 1000
    by_icalendar = icalendar_occurrences(text, lo, hi)
    by_libical = libical_occurrences(text, lo, hi)
    for tid in ids:
        want = preview(db, tid, from_ms, to_ms)
        uid = tid + "@sqlite-triggers"
        assert by_icalendar.get(uid, []) == want, (tid, "icalendar", sorted(
            set(by_icalendar.get(uid, [])) ^ set(want))[:5])
        assert by_libical.get(uid, []) == want, (tid, "libical", sorted(
            set(by_libical.get(uid, [])) ^ set(want))[:5])


def add_schedules(db):
    ids = []
    for z in ZONES:
        for k, expr in enumerate(CRONS):
            tid = f"c{k}-{z}"
            add(db, tid, trigger_type="cron", cron_expression=expr, timezone=z)
            ids.append(tid)
        # a once trigger at a local time, and one in the second pass of a
        # repeated hour (its DTSTART cannot be local time: UTC)
        add(db, f"o-{z}", trigger_type="once", scheduled_at="2026-03-20T10:00:00", timezone=z)
        add(db, f"o2-{z}", trigger_type="once", scheduled_at="2026-10-25T01:30:00Z", timezone=z)
        ids += [f"o-{z}", f"o2-{z}"]
    for k, iv in enumerate([5400000, 86400000, 90061000, 7 * 86400000]):
        add(db, f"i{k}", trigger_type="interval", interval_ms=iv, created_at=T0 + 123)
        ids.append(f"i{k}")
    # start_at and end_at: an RRULE's UNTIL
    add(db, "c-end", trigger_type="cron", cron_expression="0 8 * * *",
        timezone="Europe/Berlin", start_at="2026-03-10T00:00:00Z", end_at="2026-10-28T08:00:00+01:00")
    add(db, "i-end", trigger_type="interval", interval_ms=3600000,
        start_at="2026-03-10T00:00:00.250Z", end_at="2026-10-28T08:00:00Z")
    return ids + ["c-end", "i-end"]


def test_occurrences_equal_preview(ext):
    db = connect(ext)
    ids = add_schedules(db)
    for lo, hi in RANGES:
        text = feed(db, **{"from": lo, "to": hi})
        compare(db, text, ms(lo), ms(hi), ids)
    # the forms: an exact cron is an RRULE with its zone; one whose time
    # meets a DST change in the range (a gap, a repeated hour: there cron,
    # RFC 5545 and libical differ) and one no RRULE says are RDATEs
    text = feed(db, **{"from": RANGES[0][0], "to": RANGES[0][1]})
    events = {e.split("\r\nUID:")[1].split("@")[0]: e.replace("\r\n ", "")
              for e in text.split("BEGIN:VEVENT")[1:]}
    weekdays = events["c0-Europe/Berlin"]
    assert "DTSTART;TZID=Europe/Berlin:20260302T090000\r\n" in weekdays
    assert "RRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0;" \
        "UNTIL=20260414T235959Z\r\n" in weekdays  # the range ends
    gap = events["c1-Europe/Berlin"]
    assert "RRULE:" not in gap and "20260329T010000Z" in gap  # 03:00, the gap's end
    assert "RRULE:FREQ=DAILY;BYHOUR=2;BYMINUTE=30" in events["c1-Asia/Kolkata"]
    assert "RRULE:" not in events["c8-Europe/Berlin"]
    assert "RDATE:" in events["c8-Europe/Berlin"]
    assert "RRULE:FREQ=MINUTELY;INTERVAL=90;UNTIL=20260414T223000Z\r\n" in events["i0"]
    # libical keeps INTERVAL in 16 bits: 90061 seconds are RDATEs
    assert "RRULE:" not in events["i2"] and "RDATE:" in events["i2"]
    assert "RRULE:FREQ=DAILY;INTERVAL=7;UNTIL=20260409T000000Z\r\n" in events["i3"]
    assert "BEGIN:VTIMEZONE\r\nTZID:Australia/Lord_Howe\r\n" in text
    assert "TZID:UTC" not in text  # UTC is written as such
    # the repeated hour's second pass: a DTSTART in UTC
    autumn = feed(db, **{"from": RANGES[1][0], "to": RANGES[1][1]})
    assert "DTSTART:20261025T013000Z" in autumn.split("UID:o2-Europe/Berlin@")[1]


RRULES = [
    ("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "R"),
    ("FREQ=MONTHLY;BYDAY=2FR,4FR;BYHOUR=10;BYMINUTE=0;BYSECOND=0", "R"),
    ("FREQ=YEARLY;BYMONTH=3,10;BYMONTHDAY=3,30;BYHOUR=8", "R"),
    ("FREQ=DAILY;INTERVAL=3;BYHOUR=12;BYMINUTE=15", "R"),
    ("FREQ=DAILY;COUNT=20;BYHOUR=7", "R"),  # ends in the range: its own DTSTART
    ("FREQ=DAILY;COUNT=200;BYHOUR=7", "D"),  # COUNT past the range: no UNTIL
    # readers differ: libical and dateutil on BYSETPOS, a BYMONTHDAY with BYDAY
    ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=17;BYMINUTE=0;BYSECOND=0", "D"),
    ("FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13;BYHOUR=9", "D"),
    ("RRULE:FREQ=WEEKLY;BYDAY=MO;BYHOUR=9\nRDATE:20260318T120000Z", "D"),
    # a gap or a repeated time: RDATEs where a change meets it (Berlin)
    ("FREQ=DAILY;BYHOUR=2;BYMINUTE=30", "Z"),
    ("FREQ=WEEKLY;BYDAY=SU;BYHOUR=1,2,3", "Z"),
]


def test_rrule_triggers_equal_preview(ext):
    """rrule triggers (column rrule): the rule as is where every reader
    expands it alike, DTSTART at the range's first occurrence (with COUNT
    its own), else RDATEs; both readers give trigger_preview's."""
    db = connect(ext)
    forms = {}
    for z in ZONES:
        for k, (rule, form) in enumerate(RRULES):
            tid = f"r{k}-{z}"
            add(db, tid, trigger_type="rrule", rrule=rule, timezone=z,
                start_at="2026-03-02T07:00:00" if "COUNT" in rule else "2026-01-05T09:00:00")
            forms[tid] = form
    for lo, hi in RANGES:
        text = feed(db, **{"from": lo, "to": hi})
        compare(db, text, ms(lo), ms(hi), list(forms))
        events = {e.split("\r\nUID:")[1].split("@")[0]: e.replace("\r\n ", "")
                  for e in text.split("BEGIN:VEVENT")[1:]}
        for tid, form in forms.items():
            ev = events.get(tid)
            if ev is None:
                # ended (COUNT), or no Friday the 13th in the autumn range
                assert tid.startswith(("r4-", "r5-", "r7-")) and lo.startswith("2026-09"), tid
            elif form == "R" or (form == "Z" and tid.endswith("UTC")):
                assert "RRULE:" in ev, (tid, ev)
            elif form == "D" or tid.endswith("Europe/Berlin"):
                assert "RRULE:" not in ev, (tid, ev)
    text = feed(db, **{"from": RANGES[0][0], "to": RANGES[0][1]})
    biweekly = text.split("UID:r0-Europe/Berlin@")[1].split("END:VEVENT")[0].replace("\r\n ", "")
    assert "DTSTART;TZID=Europe/Berlin:20260303T090000\r\n" in biweekly
    assert "RRULE:FREQ=WEEKLY;INTERVAL=2;UNTIL=20260414T235959Z;BYSECOND=0;BYMINUTE=0;" \
        "BYHOUR=9;BYDAY=TU\r\n" in biweekly
    counted = text.split("UID:r4-Europe/Berlin@")[1].split("END:VEVENT")[0]
    assert "DTSTART;TZID=Europe/Berlin:20260302T070000\r\nRRULE:FREQ=DAILY;COUNT=20;" \
        "BYHOUR=7\r\n" in counted


def test_calendar_days_as_exdates(ext):
    """A trigger that leaves out a calendar's days (column calendar, table
    trigger_calendar_days): its rule with an EXDATE per day left out, read
    back as trigger_preview's occurrences. Runs once trigger_calendar_days
    exists (its own branch); until then it says SKIP."""
    db = connect(ext)
    if not one(db, "SELECT count(*) FROM pragma_module_list WHERE name = 'trigger_calendar_days'"):
        print("SKIP test_ical.test_calendar_days_as_exdates: no trigger_calendar_days yet")
        return
    for day in ("2026-03-05", "2026-03-17", "2026-04-03"):
        db.execute("INSERT INTO trigger_calendar_days(calendar, day, name) VALUES ('hq', ?, 'off')",
                   (day,))
    add(db, "wk", trigger_type="cron", cron_expression="0 9 * * 1-5", timezone="Europe/Berlin",
        calendar="hq")
    add(db, "rr", trigger_type="rrule", rrule="FREQ=WEEKLY;BYDAY=TU,TH,FR;BYHOUR=10",
        timezone="America/New_York", calendar="hq", start_at="2026-01-06T10:00:00")
    lo, hi = RANGES[0]
    text = feed(db, **{"from": lo, "to": hi})
    compare(db, text, ms(lo), ms(hi), ["wk", "rr"])
    wk = text.split("UID:wk@")[1].split("END:VEVENT")[0]
    assert "RRULE:" in wk and "EXDATE:20260305T080000Z\r\n" in wk


def test_dense_and_subsecond(ext):
    """Dense crons: RDATEs across a DST change, an RRULE away from one; an
    interval with milliseconds is RDATEs (a range of an hour: RDATEs are
    capped at 20,000 per event)."""
    db = connect(ext)
    ids = []
    for z in ("Europe/Berlin", "America/New_York", "Australia/Lord_Howe"):
        add(db, f"d-{z}", trigger_type="cron", cron_expression="*/5 * * * *", timezone=z)
        add(db, f"d2-{z}", trigger_type="cron", cron_expression="0 */2 1,2 * * *", timezone=z)
        ids += [f"d-{z}", f"d2-{z}"]
    lo, hi = "2026-10-10T00:00:00Z", "2026-11-08T00:00:00Z"
    text = feed(db, **{"from": lo, "to": hi})
    compare(db, text, ms(lo), ms(hi), ids)
    unfolded = text.replace("\r\n ", "")
    assert "UID:d-Australia/Lord_Howe@sqlite-triggers\r\nDTSTAMP:20260101T000000Z\r\n" \
        "DTSTART;TZID=Australia/Lord_Howe:20261010T110000\r\nRRULE:" in unfolded
    add(db, "ms", trigger_type="interval", interval_ms=2500, created_at=T0 + 7)
    lo, hi = "2026-03-29T00:30:00Z", "2026-03-29T01:30:00Z"
    text = feed(db, **{"from": lo, "to": hi})
    compare(db, text, ms(lo), ms(hi), ["ms"])
    # past the cap: the first 20,000 of the range, and the DESCRIPTION says so
    text = feed(db, **{"from": "2026-03-01T00:00:00Z", "to": "2026-03-02T00:00:00Z"})
    ev = text.split("UID:ms@")[1].split("END:VEVENT")[0].replace("\r\n ", "")
    values = [v for line in ev.split("\r\n") if line.startswith("RDATE:")
              for v in line[6:].split(",")]
    assert len(values) == 20000 - 1  # and DTSTART
    assert "the first 20000 occurrences of the range are listed" in ev


def test_uids_stable_lines_escaped(ext):
    db = connect(ext)
    add(db, "stand,up;1", trigger_type="cron", cron_expression="0 9 * * 1-5",
        timezone="Europe/Berlin", display_name="Standup, daily; check \\ now\nand é" * 3,
        agent_id="ops", scope="room")
    opts = {"from": "2026-03-01T00:00:00Z", "to": "2026-03-15T00:00:00Z"}
    a, b = feed(db, **opts), feed(db, **opts)
    assert a == b  # the same rows and range: the same bytes (DTSTAMP = updated_at)
    assert a.startswith("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//sqlite-triggers//")
    assert a.endswith("END:VCALENDAR\r\n")
    assert "UID:stand\\,up\\;1@sqlite-triggers\r\n" in a
    for line in a.split("\r\n"):
        assert len(line.encode()) <= 75, line
    unfolded = a.replace("\r\n ", "")
    assert "SUMMARY:Standup\\, daily\\; check \\\\ now\\nand é" in unfolded
    import icalendar
    ev = icalendar.Calendar.from_ical(a).walk("VEVENT")[0]
    assert str(ev["SUMMARY"]) == "Standup, daily; check \\ now\nand é" * 3
    assert "agent: ops\nscope: room" in str(ev["DESCRIPTION"])
    # another call later: the UID is the same
    db.execute("UPDATE triggers SET display_name = 'renamed' WHERE trigger_id = 'stand,up;1'")
    assert "UID:stand\\,up\\;1@sqlite-triggers\r\n" in feed(db, **opts)


def test_narrowed_and_inactive(ext):
    db = connect(ext)
    for tid, agent, scope in (("a1", "ann", "r1"), ("a2", "ann", "r2"), ("b1", "bob", "r1"),
                              ("n1", "", "")):
        add(db, tid, agent_id=agent, scope=scope, trigger_type="cron",
            cron_expression="0 9 * * *")
    add(db, "paused", trigger_type="cron", cron_expression="0 9 * * *")
    db.execute("SELECT trigger_pause('paused', ?)", (T0,))
    add(db, "past", trigger_type="once", scheduled_at=T0 + 1000)
    opts = {"from": "2026-03-01T00:00:00Z", "to": "2026-03-02T00:00:00Z"}

    def uids(**more):
        text = feed(db, **opts, **more)
        return sorted(l[4:].split("@")[0] for l in text.split("\r\n") if l.startswith("UID:"))
    assert uids() == ["a1", "a2", "b1", "n1"]  # not paused, nothing in the range
    assert uids(agents=["ann"]) == ["a1", "a2"]
    assert uids(agents=["ann", ""]) == ["a1", "a2", "n1"]
    assert uids(scope="r1") == ["a1", "b1"]
    assert uids(agents=["bob"], scope="r2") == []
    # the default range: now .. now + 60 days
    text = one(db, "SELECT trigger_ical()")
    assert text.count("BEGIN:VEVENT") == 4


def test_runs(ext):
    db = connect(ext)
    add(db, "job", trigger_type="interval", interval_ms=3600000, display_name="Nightly job")
    tick(db, T0 + 3600000)
    run = one(db, "SELECT run_id FROM trigger_runs WHERE trigger_id = 'job'")
    finish(db, run, "success", "12 rows, all fine", now=T0 + 3600000 + 90000)
    tick(db, T0 + 7200000)
    run2 = one(db, "SELECT run_id FROM trigger_runs WHERE status = 'running'")
    finish(db, run2, "failed", "exit 3: disk full", now=T0 + 7200000 + 5000)
    opts = {"from": T0, "to": T0 + 86400000}
    assert "BEGIN:VEVENT" in feed(db, **opts) and run not in feed(db, **opts)
    text = feed(db, runs=True, **opts)
    import icalendar
    evs = {str(e["UID"]): e for e in icalendar.Calendar.from_ical(text).walk("VEVENT")}
    ok, bad = evs[run + "@sqlite-triggers"], evs[run2 + "@sqlite-triggers"]
    assert str(ok["SUMMARY"]) == "Nightly job: success"
    assert str(ok["DESCRIPTION"]) == "status: success\ntrigger: job\nresult: 12 rows, all fine"
    assert int(ok["DTSTART"].dt.timestamp()) == (T0 + 3600000) // 1000
    assert int(ok["DTEND"].dt.timestamp()) == (T0 + 3600000 + 90000) // 1000
    assert str(ok["RELATED-TO"]) == "job@sqlite-triggers"
    assert str(bad["DESCRIPTION"]) == "status: failed\ntrigger: job\nerror: exit 3: disk full"
    # a range without them, and the narrowing
    assert run not in feed(db, runs=True, **{"from": T0 + 86400000, "to": T0 + 2 * 86400000})
    assert run not in feed(db, runs=True, agents=["x"], **opts)


def test_refusals(ext):
    db = connect(ext)
    known = ("(known: agents, an array of agent ids; scope, text; from and to, "
             "instants; runs, true or false)")
    for opts, msg in [
        ("[1]", "argument 1 (options) must be a JSON object"),
        ("not json", "argument 1 (options) must be a JSON object"),
        ('{"agents":"a"}', "argument 1 (options): agents: unknown key or wrong type " + known),
        ('{"runs":1}', "argument 1 (options): runs: unknown key or wrong type " + known),
        ('{"color":"red"}', "argument 1 (options): color: unknown key or wrong type " + known),
        ('{"from":"soon"}', None),
        ('{"from":1000,"to":1000}', "argument 1 (options): to must be after from"),
        ('{"from":1000,"to":900}', "argument 1 (options): to must be after from"),
        ('{"from":0,"to":31708800001}',
         "argument 1 (options): the range from .. to is longer than 366 days"),
        ('{"from":253402300800000}', None),
    ]:
        got = error(db, "SELECT trigger_ical(?)", opts)
        assert got.startswith("trigger_ical: "), got
        if msg:
            assert got == "trigger_ical: " + msg, got
        else:
            assert "options.from" in got, got
    bare = connect(ext, install=False)
    assert error(bare, "SELECT trigger_ical()") == (
        "trigger_ical: sqlite-triggers is not installed in this database "
        "(run sql/install.sql)")
