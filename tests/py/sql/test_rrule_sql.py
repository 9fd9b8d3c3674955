"""tests/py/sql/test_rrule_sql.py -- rrule schedules in the SQL functions
(docs/calendar.md): trigger_next_due and trigger_preview of bare rule text
(DTSTART = `after`'s wall clock) and of a JSON spec (DTSTART = start_at),
checked against python-dateutil expanding the same rule in the same zone
over 300 random rules (seeded); trigger_describe in words (bare rules, JSON
specs, a trigger's id); trigger_dedupe_key of the canonical rule; every bad
rule an error naming the function and the part."""
import json
import random
from util import T0, add, connect, dedupe_key, error, one, trig
from util.rrule_oracle import oracle

ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe",
         "America/Sao_Paulo", "Asia/Kolkata", "Pacific/Chatham"]
DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


def preview(db, spec, after, tz=None, n=10):
    if tz is None:
        return [r[0] for r in db.execute(
            "SELECT due_at FROM trigger_preview(?, ?) WHERE n <= ?", (spec, after, n))]
    return [r[0] for r in db.execute(
        "SELECT due_at FROM trigger_preview(?, ?, ?) WHERE n <= ?", (spec, after, tz, n))]


def random_rule(rng):
    """A rule dateutil and this expander both read (and read alike)."""
    freq = rng.choice(["YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY"])
    parts = [f"FREQ={freq}"]
    if rng.random() < 0.4:
        parts.append(f"INTERVAL={rng.choice([2, 3, 4])}")
    if freq in ("MONTHLY", "YEARLY") and rng.random() < 0.4:
        days = rng.sample(DAYS, rng.randint(1, 2))
        parts.append("BYDAY=" + ",".join(f"{rng.choice([1, 2, -1])}{d}" for d in days))
    elif rng.random() < 0.4:
        parts.append("BYDAY=" + ",".join(rng.sample(DAYS, rng.randint(1, 5))))
        if freq in ("MONTHLY", "YEARLY") and rng.random() < 0.4:
            parts.append(f"BYSETPOS={rng.choice([1, -1, 2])}")
    elif freq in ("MONTHLY", "YEARLY") and rng.random() < 0.5:
        parts.append("BYMONTHDAY=" + ",".join(str(rng.choice([1, 15, 28, 29, 30, 31, -1, -2]))
                                              for _ in range(rng.randint(1, 2))))
    if freq == "YEARLY" and rng.random() < 0.5:
        parts.append(f"BYMONTH={rng.randint(1, 12)}")
    if freq != "HOURLY" and rng.random() < 0.7:
        parts.append("BYHOUR=" + ",".join(str(h) for h in rng.sample(
            [0, 1, 2, 3, 9, 17, 23], rng.randint(1, 2))))
        parts.append(f"BYMINUTE={rng.choice([0, 30])}")
    if rng.random() < 0.2:
        parts.append(f"COUNT={rng.randint(1, 8)}")
    rng.shuffle(parts)
    return ";".join(parts)


def test_preview_follows_dateutil(ext):
    """300 random rules x zones x instants: the first 10 rows of
    trigger_preview (bare rule: DTSTART = after) and trigger_next_due (JSON
    spec with start_at) are dateutil's occurrences."""
    db = connect(ext, install=False)
    rng = random.Random(36)
    checked = 0
    for _ in range(300):
        rule, tz = random_rule(rng), rng.choice(ZONES)
        after = T0 + rng.randint(0, 3 * 365) * 86400000 + rng.randint(0, 86399) * 1000
        want = oracle(rule, after, tz, after, 10)
        if not want:  # none after DTSTART: never occurs, or only at DTSTART
            try:
                got = one(db, "SELECT trigger_next_due(?, ?, ?)", rule, after, tz)
            except Exception as e:  # noqa: BLE001 - the message is checked
                got = str(e)
            assert got is None or "never occurs" in got, (rule, tz, after, got)
            continue
        assert preview(db, rule, after, tz) == want, (rule, tz, after)
        start = after - rng.randint(0, 400) * 86400000
        spec = json.dumps({"rrule": rule, "timezone": tz, "start_at": start})
        first = oracle(rule, start, tz, after, 1)
        got = one(db, "SELECT trigger_next_due(?, ?)", spec, after)
        assert got == (first[0] if first else None), (rule, tz, start, after)
        checked += 1
    assert checked > 250, checked


def test_next_due_and_preview(ext):
    db = connect(ext, install=False)
    rule = "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;BYHOUR=9;BYMINUTE=0;BYSECOND=0"
    # a bare rule: DTSTART is after (Thursday 2026-01-01), its weeks count
    # from there (the week of Monday 2025-12-29, whose Tuesday is before
    # DTSTART: the first is two weeks later)
    got = [one(db, "SELECT trigger_iso(?, 'Europe/Berlin')", t)
           for t in preview(db, rule, "2026-01-01T10:00:00Z", "Europe/Berlin", 3)]
    assert got == ["2026-01-13T09:00:00+01:00", "2026-01-27T09:00:00+01:00",
                   "2026-02-10T09:00:00+01:00"], got
    # a JSON spec: the trigger_type is implied by the rrule key
    spec = json.dumps({"rrule": "FREQ=DAILY;BYHOUR=7;BYMINUTE=0;BYSECOND=0",
                       "timezone": "Asia/Tokyo", "end_at": "2026-01-03T07:00:00"})
    assert [one(db, "SELECT trigger_iso(?, 'Asia/Tokyo')", t) for t in preview(db, spec, T0)] == \
        ["2026-01-02T07:00:00+09:00", "2026-01-03T07:00:00+09:00"]  # T0 is 09:00 there
    # COUNT counts from DTSTART (here `after`, itself not strictly after);
    # the end of the set: NULL
    assert one(db, "SELECT trigger_next_due('FREQ=DAILY;COUNT=2', ?)", T0) == T0 + 86400000
    assert one(db, "SELECT trigger_next_due('FREQ=DAILY;COUNT=1', ?)", T0) is None
    assert one(db, "SELECT trigger_next_due('FREQ=DAILY;UNTIL=20260102', ?)", T0 + 86400000) is None


def test_preview_of_a_trigger(ext):
    """A trigger's id: its rule with its start_at, zone and end_at."""
    db = connect(ext)
    add(db, "review", trigger_type="rrule", timezone="Europe/Berlin",
        rrule="FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=17;BYMINUTE=0;BYSECOND=0")
    got = [one(db, "SELECT trigger_iso(?, 'Europe/Berlin')", t) for t in preview(db, "review", T0, n=3)]
    assert got == ["2026-01-30T17:00:00+01:00", "2026-02-27T17:00:00+01:00",
                   "2026-03-31T17:00:00+02:00"], got
    assert trig(db, "review")["next_due_at"] == preview(db, "review", T0, n=1)[0]


DESCRIBE = [
    ("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;BYHOUR=9;BYMINUTE=0", "Europe/Berlin",
     "Every 2 weeks on Tuesday at 09:00 (Europe/Berlin)"),
    ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=17;BYMINUTE=0", None,
     "Monthly on the last weekday at 17:00"),
    ("FREQ=MONTHLY;BYDAY=2FR,4FR;BYHOUR=10;BYMINUTE=0", None,
     "Monthly on the 2nd and 4th Friday at 10:00"),
    ("FREQ=MONTHLY;BYDAY=1MO;BYHOUR=9;BYMINUTE=0", None, "Monthly on the 1st Monday at 09:00"),
    ("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3;BYHOUR=8;BYMINUTE=0", "America/New_York",
     "Yearly on March 3 at 08:00 (America/New_York)"),
    ("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0;BYSECOND=30", None,
     "Weekly on weekdays at 09:00:30"),
    ("FREQ=DAILY;BYHOUR=9,17;BYMINUTE=0,30", None, "Daily at 09:00, 09:30, 17:00 and 17:30"),
    ("FREQ=HOURLY;INTERVAL=5;BYMINUTE=15", None, "Every 5 hours at minute 15"),
    ("FREQ=MINUTELY;INTERVAL=20;BYHOUR=1,2,3", None,
     "Every 20 minutes during hours 01, 02, and 03"),
    ("FREQ=MONTHLY;BYMONTHDAY=-1;BYHOUR=18;BYMINUTE=0;COUNT=10", None,
     "Monthly on the last day of the month at 18:00, 10 times"),
    ("FREQ=MONTHLY;BYMONTHDAY=1,15,-2;BYHOUR=8;BYMINUTE=0;UNTIL=20261231T170000Z", None,
     "Monthly on the 1st, 15th, and 2nd to last days of the month at 08:00,"
     " until 2026-12-31 17:00 UTC"),
    ("FREQ=YEARLY;BYDAY=-1SU;BYMONTH=3;BYHOUR=1;BYMINUTE=0", None,
     "Yearly on the last Sunday in March at 01:00"),
    ("FREQ=YEARLY;BYWEEKNO=1,-1;BYDAY=MO;BYHOUR=8;BYMINUTE=0", None,
     "Yearly on Monday in the 1st and last weeks of the year at 08:00"),
    ("FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13;BYHOUR=12;BYMINUTE=0", None,
     "Monthly on Friday, if it is the 13th day of the month at 12:00"),
    ("RSCALE=GREGORIAN;FREQ=MONTHLY;BYMONTHDAY=31;SKIP=BACKWARD;BYHOUR=9;BYMINUTE=0", None,
     "Monthly on the 31st day of the month at 09:00, or the last day of the month"
     " when the day does not exist"),
    ("RRULE:FREQ=MONTHLY;BYDAY=-1FR;BYHOUR=16;BYMINUTE=0\nRRULE:FREQ=WEEKLY;BYDAY=MO;"
     "BYHOUR=9;BYMINUTE=0\nRDATE:20260704T090000\nEXDATE;VALUE=DATE:20261225", None,
     "Monthly on the last Friday at 16:00; and weekly on Monday at 09:00, and on"
     " 2026-07-04 09:00, except on 2026-12-25"),
    # a bare rule: what DTSTART would supply is left unsaid
    ("FREQ=DAILY", None, "Daily"),
    ("FREQ=DAILY;BYHOUR=9", None, "Daily during hour 09"),
    ("FREQ=WEEKLY", None, "Weekly"),
]


def test_describe(ext):
    db = connect(ext)
    for rule, tz, words in DESCRIBE:
        got = one(db, "SELECT trigger_describe(?, ?)", rule, tz)
        assert got == words, (rule, got)
    # DTSTART known (start_at, or a trigger's creation): its day and time
    spec = {"rrule": "FREQ=WEEKLY;INTERVAL=2", "start_at": "2026-03-03T09:15:00",
            "timezone": "Europe/Berlin"}
    assert one(db, "SELECT trigger_describe(?)", json.dumps(spec)) == \
        "Every 2 weeks on Tuesday at 09:15, from 2026-03-03 09:15 (Europe/Berlin)"
    add(db, "m", trigger_type="rrule", rrule="FREQ=MONTHLY", created_at="2026-01-15T08:30:00Z")
    assert one(db, "SELECT trigger_describe('m')") == "Monthly on the 15th at 08:30"
    add(db, "y", trigger_type="rrule", rrule="FREQ=YEARLY", created_at="2026-01-15T08:30:00Z",
        timezone="Asia/Tokyo")
    assert one(db, "SELECT trigger_describe('y')") == "Yearly on January 15 at 17:30 (Asia/Tokyo)"


def test_dedupe_key(ext):
    """Rule text keys as a trigger without start_at does; a JSON spec's
    start_at is DTSTART; spellings of one rule are one key."""
    db = connect(ext)
    k = one(db, "SELECT trigger_dedupe_key('Do it', 'rrule', 'byday=tu,mo;freq=weekly', '',"
                " 'europe/berlin')")
    assert k == dedupe_key("Do it", "rrule", "FREQ=WEEKLY;BYDAY=MO,TU", "", "Europe/Berlin")
    add(db, "t", instructions="Do it", trigger_type="rrule", rrule="FREQ=WEEKLY;BYDAY=MO,TU",
        timezone="Europe/Berlin")
    assert trig(db, "t")["dedupe_key"] == k
    spec = json.dumps({"rrule": "FREQ=WEEKLY;BYDAY=MO,TU", "timezone": "Europe/Berlin",
                       "start_at": "2026-02-02T10:00:00"})
    assert one(db, "SELECT trigger_dedupe_key('Do it', 'rrule', ?, '')", spec) == dedupe_key(
        "Do it", "rrule", "FREQ=WEEKLY;BYDAY=MO,TU\nDTSTART:20260202T100000", "", "Europe/Berlin")


BAD = [
    ("SELECT trigger_next_due('FREQ=DAILY;BYHOUR=25', 0)",
     "trigger_next_due: rrule: BYHOUR=25 is out of range 0..23"),
    ("SELECT trigger_next_due('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', 0)",
     "trigger_next_due: rrule never occurs"),
    ("SELECT trigger_next_due('DTSTART:20260101T000000\nRRULE:FREQ=DAILY', 0)",
     "trigger_next_due: rrule: line 1: DTSTART is not allowed"),
    ("SELECT trigger_next_due('{\"rrule\":\"FREQ=DAILY;FOO=1\"}', 0)",
     "trigger_next_due: argument 1 (spec): triggers.rrule: rrule: unknown part 'FOO'"),
    ("SELECT trigger_next_due('{\"rrule\":\"FREQ=DAILY\",\"cron_expression\":\"* * * * *\"}', 0)",
     "trigger_next_due: argument 1 (spec): triggers.rrule: only allowed for trigger_type 'rrule'"),
    ("SELECT * FROM trigger_preview('FREQ=SOMETIMES', 0)", "rrule: FREQ"),
    ("SELECT trigger_describe('FREQ=WEEKLY;BYDAY=2TU')",
     "trigger_describe: rrule: BYDAY=2TU: an ordinal is only allowed"),
    ("SELECT trigger_dedupe_key('x', 'rrule', 'FREQ=DAILY;INTERVAL=0', '')",
     "trigger_dedupe_key: argument 3 (schedule): rrule: INTERVAL"),
    ("SELECT trigger_dedupe_key('x', 'rrule', '0 9 * * *', '')",
     "trigger_dedupe_key: argument 3 (schedule): not an rrule schedule (it is cron)"),
    ("SELECT trigger_dedupe_key('x', 'weekly', '0 9 * * *', '')",
     "is not one of 'interval', 'once', 'cron', 'rrule'"),
]


def test_bad_rules(ext):
    db = connect(ext)
    for sql, msg in BAD:
        got = error(db, sql)
        assert msg in got, (sql, got)
