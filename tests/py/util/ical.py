"""tests/py/util/ical.py -- two readers of an iCalendar text for the tests
of trigger_ical and /calendar.ics: python3-icalendar's parser with
python-dateutil's rrule expansion (zones by zoneinfo, wall-clock rules as
RFC 5545 reads them), and libical's parser and expansion (a tiny C program,
tests/ical/occurrences.c, built here against Debian's libical once per
run). Each returns {uid: sorted UTC seconds} of the occurrences in
[from_s, to_s); and the occurrences trigger_preview gives for a trigger in
the same range, to the second."""
import datetime
import os
import subprocess
import tempfile
import zoneinfo

from util import ROOT

UTC = datetime.timezone.utc
_BIN = []


def libical_bin():
    """The path of tests/ical/occurrences.c built against libical (None when
    libical's headers are missing: tests/deps.sh installs libical-dev)."""
    if not _BIN:
        src = os.path.join(ROOT, "tests", "ical", "occurrences.c")
        out = os.path.join(tempfile.mkdtemp(prefix="ical-"), "occurrences")
        flags = subprocess.run(["pkg-config", "--cflags", "--libs", "libical"],
                               capture_output=True, text=True)
        ok = flags.returncode == 0 and subprocess.run(
            ["cc", "-std=c11", "-Wall", "-Werror", "-o", out, src] + flags.stdout.split(),
            capture_output=True).returncode == 0
        _BIN.append(out if ok else None)
    return _BIN[0]


def libical_occurrences(text, from_s, to_s):
    """libical's occurrences. Its range drops an event of no length that
    starts exactly at the range's start, so it is asked from one second
    before, and that second left out here."""
    out = subprocess.run([libical_bin(), str(from_s - 1), str(to_s)], input=text,
                         capture_output=True, text=True, check=True).stdout
    occ = {}
    for line in out.splitlines():
        uid, s = line.rsplit(" ", 1)
        if from_s <= int(s) < to_s:
            occ.setdefault(uid, set()).add(int(s))
    return {uid: sorted(v) for uid, v in occ.items()}


def _aware(dt, tzid):
    """A DATE-TIME read by icalendar as a datetime in zoneinfo's zone of its
    TZID (pytz's fixed offsets would step wrongly across a change)."""
    if tzid:
        return dt.replace(tzinfo=None).replace(tzinfo=zoneinfo.ZoneInfo(str(tzid)))
    return dt if dt.tzinfo else dt.replace(tzinfo=UTC)


def _dates(ev, name):
    prop = ev.get(name)
    if prop is None:
        return []
    props = prop if isinstance(prop, list) else [prop]
    return [_aware(d.dt, p.params.get("TZID")) for p in props for d in p.dts]


def icalendar_occurrences(text, from_s, to_s):
    """python3-icalendar's parse, dateutil's expansion: DTSTART (always an
    occurrence), RRULE, RDATE, less EXDATE."""
    import icalendar
    from dateutil.rrule import rrulestr
    cal = icalendar.Calendar.from_ical(text)
    lo = datetime.datetime.fromtimestamp(from_s, UTC)
    hi = datetime.datetime.fromtimestamp(to_s, UTC)
    occ = {}
    for ev in cal.walk("VEVENT"):
        start = _aware(ev["DTSTART"].dt, ev["DTSTART"].params.get("TZID"))
        got = {start} | set(_dates(ev, "RDATE"))
        if ev.get("RRULE") is not None:
            rule = rrulestr(ev["RRULE"].to_ical().decode(), dtstart=start)
            got |= set(rule.between(lo - datetime.timedelta(seconds=1), hi, inc=True))
        # by instant: Python's == between zones is False for a time in a
        # gap or a repeated hour (PEP 495)
        secs = {int(d.timestamp()) for d in got}
        secs -= {int(d.timestamp()) for d in _dates(ev, "EXDATE")}
        occ[str(ev["UID"])] = sorted(s for s in secs if from_s <= s < to_s)
    return {uid: v for uid, v in occ.items() if v}


def preview(db, trigger_id, from_ms, to_ms):
    """trigger_preview's occurrences of the trigger in [from, to), to the
    second."""
    rows = db.execute("SELECT due_at FROM trigger_preview(?, ?) WHERE due_at < ?",
                      (trigger_id, from_ms - 1, to_ms)).fetchall()
    return [r[0] // 1000 for r in rows]
