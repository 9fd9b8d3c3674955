"""tests/py/sql/test_calendar.py -- holidays
(docs/calendar.md#holidays-and-business-days): trigger_calendar_days and trigger_calendar_import with the
real public holidays of the United States and Germany that Debian's
python3-holidays writes as iCalendar files (single all-day events, and
yearly RRULEs expanded over options.years); cron and rrule triggers with
calendar_policy skip, previous_business_day and next_business_day
checked against the same policy applied in Python to the raw occurrences
(python-dateutil) across zones; config business_days; a change of a
calendar's days rescheduling its triggers in the same transaction (and
rolled back with it); and every bad input an error naming the part,
nothing written."""
import datetime
import json
import time
from zoneinfo import ZoneInfo

import holidays

from util import T0, add, connect, create, dump, error, one, refused, trig
from util.rrule_oracle import oracle

YEARS = [2026, 2027, 2028]
DAY = 86400000


def ics_of(days, rrule_fixed=()):
    """An iCalendar text of all-day events (CRLF, a folded SUMMARY), plus
    one yearly recurring event per (month, day, name) of rrule_fixed."""
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//python3-holidays//tests//EN",
             "BEGIN:VTIMEZONE", "TZID:Europe/Berlin", "END:VTIMEZONE"]
    for i, (d, name) in enumerate(sorted(days.items())):
        summary = "SUMMARY:" + name.replace(",", "\\,").replace(";", "\\;")
        folded = summary[:30] + "\r\n " + summary[30:] if len(summary) > 30 else summary
        lines += ["BEGIN:VEVENT", f"UID:{i}@tests", f"DTSTART;VALUE=DATE:{d:%Y%m%d}",
                  f"DTEND;VALUE=DATE:{d + datetime.timedelta(days=1):%Y%m%d}", folded,
                  "BEGIN:VALARM", "TRIGGER:-PT15M", "ACTION:DISPLAY", "END:VALARM",
                  "END:VEVENT"]
    for m, d, name in rrule_fixed:
        lines += ["BEGIN:VEVENT", f"DTSTART;VALUE=DATE:2001{m:02d}{d:02d}",
                  "RRULE:FREQ=YEARLY", f"SUMMARY:{name}", "END:VEVENT"]
    # a timed event is no holiday
    lines += ["BEGIN:VEVENT", "DTSTART:20260704T180000Z", "SUMMARY:Fireworks", "END:VEVENT",
              "END:VCALENDAR"]
    return "\r\n".join(lines) + "\r\n"


def country(code):
    return dict(getattr(holidays, code)(years=YEARS))


def import_country(db, cal, code):
    days = country(code)
    n = one(db, "SELECT trigger_calendar_import(?, ?, ?)", cal, ics_of(days),
            json.dumps({"from": "2026-01-01", "years": 3}))
    return days, n


def test_import_real_holidays(ext):
    db = connect(ext)
    for cal, code in (("us", "US"), ("de", "DE")):
        days, n = import_country(db, cal, code)
        assert n == len(days), (cal, n, len(days))
        got = {r[0]: r[1] for r in db.execute(
            "SELECT day, name FROM trigger_calendar_days WHERE calendar = ?", (cal,))}
        assert got == {d.isoformat(): name for d, name in days.items()}, cal
        # again: nothing new
        assert one(db, "SELECT trigger_calendar_import(?, ?)", cal, ics_of(days)) == 0
    # yearly rules: expanded over options.years from options.from's year
    n = one(db, "SELECT trigger_calendar_import('fixed', ?, ?)",
            ics_of({}, [(1, 1, "New Year"), (12, 25, "Christmas")]),
            json.dumps({"from": "2026-06-30", "years": 4}))
    assert n == 8
    assert [r[0] for r in db.execute(
        "SELECT day FROM trigger_calendar_days WHERE calendar = 'fixed' ORDER BY day")] == \
        [f"{y}-{md}" for y in range(2026, 2030) for md in ("01-01", "12-25")]


def apply_policy(raw, tz, hol, policy, business=range(5)):
    """The calendar's policy applied to raw occurrences (ms), in Python."""
    z = ZoneInfo(tz)
    out = set()

    def is_business(d):
        return d.weekday() in business and d not in hol
    for t in raw:
        local = datetime.datetime.fromtimestamp(t / 1000, z)
        d = local.date()
        if d not in hol:
            out.add(t)
            continue
        if policy == "skip":
            continue
        step = -1 if policy == "previous_business_day" else 1
        k = 1
        while not is_business(d + datetime.timedelta(days=step * k)):
            k += 1
        naive = local.replace(tzinfo=None) + datetime.timedelta(days=step * k)
        out.add(int(naive.replace(tzinfo=z, fold=0).timestamp() * 1000))
    return sorted(out)


def test_policies_follow_python(ext):
    """Daily, weekday and monthly schedules in three zones, each policy:
    trigger_preview (300 rows from 2026-01-01) is Python's reading of the
    same holidays over the raw occurrences."""
    db = connect(ext)
    hol = {}
    for cal, code in (("us", "US"), ("de", "DE")):
        days, _ = import_country(db, cal, code)
        hol[cal] = set(days)
    schedules = [
        ("rrule", "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0"),
        ("rrule", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=17;BYMINUTE=30;BYSECOND=0"),
        ("rrule", "FREQ=MONTHLY;BYMONTHDAY=1,15,-1;BYHOUR=2;BYMINUTE=30;BYSECOND=0"),
        ("cron", "0 9 * * *"),
    ]
    checked = 0
    for tz, cal in (("America/New_York", "us"), ("Europe/Berlin", "de"), ("UTC", "us")):
        for kind, sched in schedules:
            rule = sched if kind == "rrule" else "FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0"
            start = int(datetime.datetime(2026, 1, 1, tzinfo=ZoneInfo(tz)).timestamp() * 1000)
            raw = oracle(rule, start, tz, start - 1, 400)
            for policy in ("skip", "previous_business_day", "next_business_day"):
                spec = {"trigger_type": kind, "timezone": tz, "calendar": cal,
                        "calendar_policy": policy, "start_at": start}
                spec["rrule" if kind == "rrule" else "cron_expression"] = sched
                got = [r[0] for r in db.execute(
                    "SELECT due_at FROM trigger_preview(?, ?) WHERE n <= 300",
                    (json.dumps(spec), start - 1))]
                want = [t for t in apply_policy(raw, tz, hol[cal], policy) if t >= start][:300]
                assert got == want, (tz, cal, sched, policy,
                                     [(a, b) for a, b in zip(got, want) if a != b][:3])
                checked += 1
    assert checked == 36


def test_business_days_config(ext):
    """business_days decides where a holiday's occurrence moves."""
    db = connect(ext)
    db.execute("INSERT INTO trigger_calendar_days VALUES ('x', '2026-01-05', 'a Monday')")
    spec = json.dumps({"cron_expression": "0 9 * * 1", "calendar": "x",
                       "calendar_policy": "previous_business_day"})
    assert one(db, "SELECT trigger_iso(trigger_next_due(?, ?))", spec, T0) == \
        "2026-01-02T09:00:00Z"  # Friday
    one(db, "SELECT trigger_config('business_days', 'mo, tu,we,th,fr,SA')")
    assert one(db, "SELECT trigger_iso(trigger_next_due(?, ?))", spec, T0) == \
        "2026-01-03T09:00:00Z"  # Saturday
    assert "business_days must be weekdays MO..SU" in error(
        db, "SELECT trigger_config('business_days', 'MO,MO')")


def test_changing_days_reschedules(ext):
    """A day added, updated or deleted reschedules the calendar's triggers
    in the same statement; a rollback undoes both."""
    db = connect(ext)
    db.execute("INSERT INTO trigger_calendar_days VALUES ('ops', '2030-01-01', 'far away')")
    now = int(time.time() * 1000)  # a change of the days reschedules at the wall clock
    today = datetime.datetime.fromtimestamp(now / 1000, datetime.timezone.utc).date()
    add(db, "t", trigger_type="rrule", rrule="FREQ=DAILY;BYHOUR=12;BYMINUTE=0;BYSECOND=0",
        calendar="ops", created_at=now)
    add(db, "other", trigger_type="cron", cron_expression="0 12 * * *", created_at=now)
    first = trig(db, "t")["next_due_at"]
    day = datetime.datetime.fromtimestamp(first / 1000, datetime.timezone.utc).date()
    assert day in (today, today + datetime.timedelta(days=1))
    other = trig(db, "other")
    db.execute("INSERT INTO trigger_calendar_days VALUES ('ops', ?, 'maintenance')",
               (day.isoformat(),))
    assert trig(db, "t")["next_due_at"] == first + DAY
    assert trig(db, "other") == other  # another calendar's trigger: untouched
    db.execute("UPDATE trigger_calendar_days SET calendar = 'elsewhere' WHERE day = ?",
               (day.isoformat(),))
    assert trig(db, "t")["next_due_at"] == first
    db.execute("UPDATE trigger_calendar_days SET calendar = 'ops' WHERE day = ?",
               (day.isoformat(),))
    assert trig(db, "t")["next_due_at"] == first + DAY
    db.execute("BEGIN")
    db.execute("DELETE FROM trigger_calendar_days WHERE calendar = 'ops' AND day = ?",
               (day.isoformat(),))
    assert trig(db, "t")["next_due_at"] == first
    db.execute("ROLLBACK")
    assert trig(db, "t")["next_due_at"] == first + DAY
    # an import reschedules too, at options.now
    db.execute("DELETE FROM trigger_calendar_days WHERE calendar = 'ops' AND day = ?",
               (day.isoformat(),))
    assert trig(db, "t")["next_due_at"] == first
    ics = ics_of({day: "imported"})
    assert one(db, "SELECT trigger_calendar_import('ops', ?, ?)", ics,
               json.dumps({"now": now})) == 1
    assert trig(db, "t")["next_due_at"] == first + DAY


def test_words_key_and_create(ext):
    """trigger_describe says the calendar, the dedupe key holds it, and the
    create action takes <calendar> and <calendarPolicy>."""
    db = connect(ext)
    import_country(db, "us", "US")
    r = create(db, "<response><instructions>Payroll</instructions><triggerType>rrule"
                   "</triggerType><rrule>FREQ=MONTHLY;BYMONTHDAY=15;BYHOUR=10;BYMINUTE=0"
                   "</rrule><calendar>us</calendar><calendarPolicy>previous-business-day"
                   "</calendarPolicy><timezone>America/New_York</timezone></response>",
               fn="trigger_create_xml")
    assert r["created"], r
    t = trig(db, r["triggerId"])
    assert (t["calendar"], t["calendar_policy"]) == ("us", "previous_business_day")
    assert one(db, "SELECT trigger_describe(?)", r["triggerId"]) == (
        "Monthly on the 15th day of the month at 10:00, the business day before on"
        " 'us' holidays (America/New_York)")
    plain = one(db, "SELECT trigger_dedupe_key('Payroll', 'rrule', ?, '', ?)",
                "FREQ=MONTHLY;BYMONTHDAY=15;BYHOUR=10;BYMINUTE=0", "America/New_York")
    assert t["dedupe_key"] != plain
    assert t["dedupe_key"] == one(
        db, "SELECT trigger_dedupe_key('Payroll', 'rrule', ?, '')", json.dumps(
            {"rrule": "FREQ=MONTHLY;BYMONTHDAY=15;BYHOUR=10;BYMINUTE=0", "calendar": "us",
             "calendar_policy": "previous_business_day", "timezone": "America/New_York"}))
    bad = create(db, {"instructions": "x", "trigger_type": "cron",
                      "cron_expression": "0 9 * * *", "calendar": "mars"})
    assert bad["error"] == "INVALID_SCHEDULE" and "no calendar 'mars'" in bad["reason"], bad


def days_dump(db):
    return dump(db) + repr(db.execute("SELECT * FROM triggers_calendar ORDER BY id").fetchall())


def test_bad_inputs_write_nothing(ext):
    db = connect(ext)
    db.execute("INSERT INTO trigger_calendar_days VALUES ('us', '2026-07-03', 'observed')")
    add(db, "keep", trigger_type="cron", cron_expression="0 9 * * *", calendar="us")
    ins = ("INSERT INTO triggers(instructions, trigger_type, cron_expression, rrule,"
           " interval_ms, calendar, calendar_policy) VALUES ('x', ?, ?, ?, ?, ?, ?)")
    cases = [
        (ins, ("cron", "0 9 * * *", None, None, "mars", None),
         "triggers.calendar: no calendar 'mars' (trigger_calendar_days holds no day of it)"),
        (ins, ("cron", "0 9 * * *", None, None, "us", "sometimes"),
         "triggers.calendar_policy: 'sometimes' is not one of 'skip', "
         "'previous_business_day', 'next_business_day'"),
        (ins, ("cron", "0 9 * * *", None, None, None, "skip"),
         "triggers.calendar_policy: only allowed with a calendar"),
        (ins, ("interval", None, None, 60000, "us", None),
         "triggers.calendar: only allowed for trigger_type 'cron' or 'rrule'"),
        (ins, ("rrule", None, "FREQ=DAILY", None, " ", None),
         "triggers.calendar: must be a name of 1 to 63 bytes"),
        ("UPDATE triggers SET calendar = 'mars' WHERE trigger_id = 'keep'", (),
         "triggers.calendar: no calendar 'mars'"),
        ("INSERT INTO trigger_calendar_days VALUES ('us', '2026-02-30', '')", (),
         "trigger_calendar_days.day: '2026-02-30' is not a date (YYYY-MM-DD)"),
        ("INSERT INTO trigger_calendar_days VALUES ('us', '3 July', '')", (),
         "trigger_calendar_days.day: '3 July' is not a date"),
        ("INSERT INTO trigger_calendar_days VALUES ('', '2026-07-03', '')", (),
         "trigger_calendar_days.calendar: must be a name of 1 to 63 bytes"),
        ("INSERT INTO trigger_calendar_days VALUES (NULL, '2026-07-03', '')", (),
         "NOT NULL constraint failed: trigger_calendar_days.calendar"),
        ("INSERT INTO trigger_calendar_days VALUES ('us', 20260704, '')", (),
         "trigger_calendar_days.day: must be text"),
        ("INSERT INTO trigger_calendar_days VALUES ('us', '2026-07-03', 'again')", (),
         "UNIQUE constraint failed: calendar 'us' already holds 2026-07-03"),
    ]
    not_ics = [
        ("hello", "argument 2 (ics): not iCalendar: the text does not begin with BEGIN:VCALENDAR"),
        ("", "not iCalendar: the text does not begin with BEGIN:VCALENDAR"),
        ("BEGIN:VCARD\r\nFN:Anna\r\nEND:VCARD\r\n", "does not begin with BEGIN:VCALENDAR"),
        ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20260101\r\nEND:VEVENT\r\n",
         "not iCalendar: no END:VCALENDAR"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;VALUE=DATE:20261301\nEND:VEVENT\nEND:VCALENDAR",
         "not iCalendar: line 3: DTSTART '20261301' is not a date (YYYYMMDD)"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nSUMMARY:x\nEND:VEVENT\nEND:VCALENDAR",
         "not iCalendar: line 4: a VEVENT without DTSTART"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;VALUE=DATE:20260101\nRRULE:FREQ=YEARLY;"
         "BYMONTH=13\nEND:VEVENT\nEND:VCALENDAR",
         "not iCalendar: the VEVENT of line 3: rrule: BYMONTH=13 is out of range 1..12"),
        ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;VALUE=DATE:20260101\nEND:VEVENT\njunk\n"
         "END:VCALENDAR", "not iCalendar: line 5: 'junk' is not a content line"),
    ]
    for ics, msg in not_ics:
        cases.append(("SELECT trigger_calendar_import('us', ?)", (ics,),
                      "trigger_calendar_import: " + msg if msg.startswith("argument") else msg))
    cases += [
        ("SELECT trigger_calendar_import('us', ?, '{\"years\":0}')", (ics_of({}),),
         "argument 3 (options): years: unknown key or bad value"),
        ("SELECT trigger_calendar_import('us', ?, '{\"colour\":1}')", (ics_of({}),),
         "argument 3 (options): colour: unknown key or bad value"),
        ("SELECT trigger_calendar_import('', ?)", (ics_of({}),),
         "argument 1 (calendar): must be a name of 1 to 63 bytes"),
    ]
    for sql, args, msg in cases:
        refused(db, sql, args, msg, snapshot=days_dump)
    # a good event before a bad one: nothing of it is kept either
    half = ("BEGIN:VCALENDAR\nBEGIN:VEVENT\nDTSTART;VALUE=DATE:20261225\nSUMMARY:ok\nEND:VEVENT\n"
            "BEGIN:VEVENT\nDTSTART;VALUE=DATE:2026\nEND:VEVENT\nEND:VCALENDAR")
    refused(db, "SELECT trigger_calendar_import('us', ?)", (half,), "line 7: DTSTART",
            snapshot=days_dump)
