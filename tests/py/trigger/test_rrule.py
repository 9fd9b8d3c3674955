"""tests/py/trigger/test_rrule.py -- `rrule` triggers (docs/calendar.md):
a row's rule compiled with DTSTART from start_at (or the creation time's
wall clock) in its zone; its first occurrence strictly after creation;
the tick advancing it per fire, against python-dateutil expanding the
same rule in the same zone; the end of the set completing the trigger;
every bad rule refused naming the part, nothing written; an UPDATE of
the rule rescheduling; the dedupe key of the canonical rule."""
import datetime
import sqlite3
from util import T0, add, connect, dedupe_key, finish, one, refused, tick, trig
from util.rrule_oracle import oracle

UTC = datetime.timezone.utc


def ms_of(dt):
    return int(dt.timestamp() * 1000)


def fire_all(db, trigger_id, n):
    """The next n occurrences the tick claims (each finished at once)."""
    got = []
    for _ in range(n):
        due = trig(db, trigger_id)["next_due_at"]
        if due is None:
            break
        got.append(due)
        for r in tick(db, due):
            finish(db, r["run_id"], "success", None, due)
    return got


DAY = 86400000
# (rule, zone, created this many days after 2026-01-01, fires): each run
# crosses a DST change of its zone in 2026
CASES = [
    ("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;BYHOUR=9;BYMINUTE=0;BYSECOND=0", "Europe/Berlin", 0, 30),
    ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1;BYHOUR=17;BYMINUTE=0;BYSECOND=0",
     "America/New_York", 0, 14),
    ("FREQ=MONTHLY;BYDAY=2FR,4FR;BYHOUR=10;BYMINUTE=0;BYSECOND=0", "Asia/Tokyo", 0, 20),
    ("FREQ=DAILY;BYHOUR=2;BYMINUTE=30;BYSECOND=0", "Europe/Berlin", 80, 20),  # gap
    ("FREQ=DAILY;BYHOUR=1;BYMINUTE=30;BYSECOND=0", "America/New_York", 300, 10),  # repeat
    ("FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3;BYHOUR=8;BYMINUTE=0;BYSECOND=0", "UTC", 0, 5),
    ("FREQ=HOURLY;INTERVAL=5", "Australia/Lord_Howe", 90, 40),  # a 30-minute change
    ("FREQ=MINUTELY;INTERVAL=20;BYHOUR=1,2,3", "Europe/London", 86, 40),
]


def test_tick_follows_dateutil(ext):
    """Each case: next_due_at after creation and the fires in a row are
    the occurrences dateutil gives, across a DST change of the zone."""
    for rule, tz, days, n in CASES:
        db = connect(ext)
        created = T0 + days * DAY + 12345  # 00:00:12.345: DTSTART drops the ms
        add(db, "r", trigger_type="rrule", rrule=rule, timezone=tz, created_at=created)
        want = oracle(rule, created, tz, created, n)
        assert len(want) == n
        assert fire_all(db, "r", n) == want, (rule, tz)


def test_start_at_is_dtstart(ext):
    """start_at carries DTSTART: INTERVAL=2 counts weeks from it, and
    the default time of day is its wall-clock time; DTSTART is itself the
    first occurrence when it matches the rule."""
    db = connect(ext)
    start = "2026-03-03T09:15:00"  # a Tuesday, local in Europe/Berlin
    add(db, "r", trigger_type="rrule", rrule="FREQ=WEEKLY;INTERVAL=2;BYDAY=TU",
        timezone="Europe/Berlin", start_at=start)
    t = trig(db, "r")
    start_ms = t["start_at"]
    assert one(db, "SELECT trigger_iso(?, 'Europe/Berlin')", start_ms) == \
        "2026-03-03T09:15:00+01:00"
    want = [start_ms] + oracle("FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", start_ms,
                               "Europe/Berlin", start_ms, 5)
    assert fire_all(db, "r", 6) == want


def test_first_is_strictly_after_creation(ext):
    """Created exactly at an occurrence, the trigger first runs at the next
    one (as a cron does)."""
    db = connect(ext)
    created = ms_of(datetime.datetime(2026, 1, 5, 9, 0, tzinfo=UTC))  # Monday 09:00
    add(db, "r", trigger_type="rrule", rrule="FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
        created_at=created)
    assert trig(db, "r")["next_due_at"] == created + 86400000


def test_end_of_set_completes(ext):
    """COUNT and UNTIL end the set: after the last run the trigger is
    completed with nothing due."""
    for rule in ("FREQ=DAILY;COUNT=3;BYHOUR=9;BYMINUTE=0;BYSECOND=0",
                 "FREQ=DAILY;UNTIL=20260103T090000Z;BYHOUR=9;BYMINUTE=0;BYSECOND=0"):
        db = connect(ext)
        add(db, "r", trigger_type="rrule", rrule=rule)  # created T0 00:00
        got = fire_all(db, "r", 10)
        assert len(got) == 3, (rule, got)
        t = trig(db, "r")
        assert (t["status"], t["next_due_at"], t["run_count"]) == ("completed", None, 3), t


def test_rdate_exdate(ext):
    """RDATE adds an instant, EXDATE removes one (a VALUE=DATE EXDATE the
    whole local day)."""
    db = connect(ext)
    rule = ("RRULE:FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0\n"
            "RDATE:20260102T120000\nEXDATE;VALUE=DATE:20260103")
    add(db, "r", trigger_type="rrule", rrule=rule, timezone="Europe/Paris")
    got = [one(db, "SELECT trigger_iso(?, 'Europe/Paris')", t) for t in fire_all(db, "r", 4)]
    assert got == ["2026-01-01T09:00:00+01:00", "2026-01-02T09:00:00+01:00",
                   "2026-01-02T12:00:00+01:00", "2026-01-04T09:00:00+01:00"], got


INSERT = ("INSERT INTO triggers(instructions, trigger_type, rrule, cron_expression,"
          " timezone, created_at) VALUES ('x', ?, ?, ?, ?, ?)")
BAD = [
    (("rrule", "FREQ=WEEKLY;BYMONTHDAY=32", None, "UTC", T0),
     "triggers.rrule: rrule: BYMONTHDAY=32 is out of range -31..31"),
    (("rrule", "FREQ=FORTNIGHTLY", None, "UTC", T0), "triggers.rrule: rrule: FREQ"),
    (("rrule", "BYDAY=MO", None, "UTC", T0), "triggers.rrule: rrule: FREQ"),
    (("rrule", "FREQ=DAILY;COUNT=2;UNTIL=20270101", None, "UTC", T0),
     "triggers.rrule: rrule: COUNT and UNTIL"),
    (("rrule", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30", None, "UTC", T0),
     "triggers.rrule: rrule never occurs"),
    (("rrule", "FREQ=DAILY;UNTIL=20250101", None, "UTC", T0),
     "triggers.rrule: rrule never occurs"),
    (("rrule", "DTSTART:20260101T000000\nRRULE:FREQ=DAILY", None, "UTC", T0),
     "triggers.rrule: rrule: line 1: DTSTART is not allowed"),
    (("rrule", "RRULE:FREQ=DAILY\nRDATE;TZID=Asia/Tokyo:20260101T090000", None,
      "Europe/Berlin", T0), "triggers.rrule: rrule: TZID=Asia/Tokyo differs"),
    (("rrule", None, None, "UTC", T0), "triggers.rrule: required for trigger_type 'rrule'"),
    (("cron", "FREQ=DAILY", "0 9 * * *", "UTC", T0),
     "triggers.rrule: only allowed for trigger_type 'rrule' (this trigger is 'cron')"),
    (("rrule", "FREQ=DAILY", "0 9 * * *", "UTC", T0),
     "triggers.cron_expression: only allowed for trigger_type 'cron'"),
    (("weekly", "FREQ=DAILY", None, "UTC", T0),
     "triggers.trigger_type: 'weekly' is not one of 'interval', 'once', 'cron', 'event', 'rrule'"),
]


def test_bad_rules_refused(ext):
    """Every bad rule: an error naming the column and the part, nothing
    written."""
    db = connect(ext)
    add(db, "keep", trigger_type="rrule", rrule="FREQ=DAILY")
    for args, msg in BAD:
        refused(db, INSERT, args, msg)


def test_update_reschedules(ext):
    """An UPDATE of the rule reschedules from now; a bad one is refused
    and changes nothing."""
    db = connect(ext)
    add(db, "r", trigger_type="rrule", rrule="FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0")
    assert trig(db, "r")["next_due_at"] == T0 + 9 * 3600000
    db.execute("UPDATE triggers SET rrule = 'FREQ=DAILY;BYHOUR=18;BYMINUTE=0;BYSECOND=0'"
               " WHERE trigger_id = 'r'")
    due = trig(db, "r")["next_due_at"]
    assert one(db, "SELECT strftime('%H:%M', ? / 1000, 'unixepoch')", due) == "18:00"
    refused(db, "UPDATE triggers SET rrule = 'FREQ=DAILY;BYHOUR=24' WHERE trigger_id = 'r'",
            (), "triggers.rrule: rrule: BYHOUR=24 is out of range 0..23")
    # a cron trigger turned into an rrule one
    add(db, "c", trigger_type="cron", cron_expression="0 9 * * *")
    db.execute("UPDATE triggers SET trigger_type = 'rrule', cron_expression = NULL,"
               " rrule = 'FREQ=WEEKLY;BYDAY=FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0'"
               " WHERE trigger_id = 'c'")
    assert trig(db, "c")["trigger_type"] == "rrule"


def test_dedupe_key(ext):
    """The key is the rule's canonical text and zone (plus DTSTART when
    start_at is given): two spellings of one rule are one key, so the
    second active one is a UNIQUE error."""
    db = connect(ext)
    add(db, "a", trigger_type="rrule", rrule="byday=tu,mo;freq=weekly;interval=1",
        timezone="Europe/Berlin")
    key = trig(db, "a")["dedupe_key"]
    assert key == dedupe_key("do a", "rrule", "FREQ=WEEKLY;BYDAY=MO,TU", "",
                             "Europe/Berlin"), key
    try:
        add(db, "b", instructions="do a", trigger_type="rrule",
            rrule="FREQ=WEEKLY;BYDAY=MO,TU", timezone="Europe/Berlin")
    except sqlite3.IntegrityError as e:
        assert "triggers.dedupe_key" in str(e)
    else:
        raise AssertionError("duplicate accepted")
    # another zone, or a start_at: another schedule
    add(db, "c", instructions="do a", trigger_type="rrule",
        rrule="FREQ=WEEKLY;BYDAY=MO,TU", timezone="Asia/Tokyo")
    add(db, "d", instructions="do a", trigger_type="rrule", rrule="FREQ=WEEKLY;BYDAY=MO,TU",
        timezone="Europe/Berlin", start_at="2026-02-02T10:00:00")
    assert trig(db, "d")["dedupe_key"] == dedupe_key(
        "do a", "rrule", "FREQ=WEEKLY;BYDAY=MO,TU\nDTSTART:20260202T100000", "",
        "Europe/Berlin")
