#!/usr/bin/python3
"""make_corpus.py -- writes the RRULE conformance corpus (*.jsonl here).

    /usr/bin/python3 tests/corpus/rrule/make_corpus.py [--no-libical]

Needs Debian's python3-dateutil (2.8.2) and the system zoneinfo; with
libical-dev installed it also compiles libical_oracle.c and records where
libical 3.0.16 disagrees (never part of the expectations). Re-running it
rewrites the same bytes: fixed seeds, sorted output, no clock.

Each line is one case (README.md has the fields): a recurrence set as the
extension takes it (a RECUR value, or RRULE/RDATE/EXDATE lines), a DTSTART
as a floating wall-clock time, an IANA zone, an instant `after`, and the
first `n` occurrences strictly after it as instants with the zone's offset.

How expectations are made (docs/calendar.md states the same semantics):
  - each RRULE is expanded by python-dateutil's rrule in floating time from
    DTSTART (dateutil's own defaults and readings), with UNTIL applied here:
    a DATE value is that date at 00:00 (as dateutil and libical read it), a
    local date-time compares with wall times, a UTC one with instants;
  - rules with RFC 7529 SKIP=BACKWARD/FORWARD, which dateutil lacks, are
    expanded by skip_expand() below, a small period-by-period expander of
    the same reading; it is checked against dateutil on every such rule
    with SKIP=OMIT before its answers are used;
  - each wall time becomes an instant by RFC 5545's rule for local times
    (zoneinfo with fold=0: a time in a gap moves forward by the gap's
    length, a repeated time takes its first pass); equal instants are one;
  - RDATE adds instants (a DATE value at DTSTART's time of day), EXDATE
    removes instants (a DATE value: every occurrence on that local date).
"""
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
from datetime import date, datetime, time, timedelta, timezone
from zoneinfo import ZoneInfo

from dateutil import rrule as du

HERE = os.path.dirname(os.path.abspath(__file__))
ZONES = ["UTC", "America/New_York", "Europe/Berlin", "Australia/Lord_Howe",
         "Asia/Kolkata", "America/Sao_Paulo", "Pacific/Chatham"]
DST_ZONES = ["America/New_York", "Europe/Berlin", "Australia/Lord_Howe",
             "America/Sao_Paulo", "Pacific/Chatham"]
FREQS = ["YEARLY", "MONTHLY", "WEEKLY", "DAILY", "HOURLY", "MINUTELY",
         "SECONDLY"]
DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
UTC = timezone.utc
MAX_INSTANT = datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC)


def zone(name):
    return UTC if name == "UTC" else ZoneInfo(name)


def wall_str(w):
    return w.strftime("%Y%m%dT%H%M%S").rjust(15, "0")


def parse_stamp(v):
    """YYYYMMDD, YYYYMMDDTHHMMSS[Z] -> (kind, value)."""
    v = v.upper()
    if len(v) == 8:
        return "date", date(int(v[:4]), int(v[4:6]), int(v[6:8]))
    w = datetime(int(v[:4]), int(v[4:6]), int(v[6:8]), int(v[9:11]),
                 int(v[11:13]), int(v[13:15]))
    return ("utc", w.replace(tzinfo=UTC)) if v.endswith("Z") else ("local", w)


def to_instant(w, zi):
    """RFC 5545's rule for a local time: zoneinfo with fold=0."""
    try:
        return w.replace(tzinfo=zi, fold=0).astimezone(UTC)
    except OverflowError:
        return None


def iso(t, zi):
    return t.astimezone(zi).isoformat()


# ---- One rule in floating time --------------------------------------------

def split_rule(value):
    parts = {}
    for p in value.split(";"):
        if p.strip():
            k, v = p.split("=", 1)
            parts[k.strip().upper()] = v.strip().upper()
    return parts


def dateutil_walls(parts, dtstart):
    """dateutil's walls for a rule without UNTIL (it is applied later)."""
    text = ";".join("%s=%s" % (k, v) for k, v in parts.items()
                    if k not in ("UNTIL", "RSCALE", "SKIP"))
    return iter(du.rrulestr(text, dtstart=dtstart))


def month_len(y, m):
    return (date(y + (m == 12), m % 12 + 1, 1) - date(y, m, 1)).days


def skip_expand(parts, dtstart):
    """Walls of a rule read as dateutil reads it, plus RFC 7529 SKIP (the
    reading of docs/calendar.md): a BYMONTHDAY value past a month's end is
    its last day (BACKWARD) or the next month's first day (FORWARD), then
    judged by BYDAY as the day it is; a FORWARD day is its month's, and the
    same wall in the next month is dropped. Supports the parts the SKIP
    cases use: FREQ YEARLY, MONTHLY, DAILY, HOURLY; INTERVAL, COUNT,
    BYMONTH, BYMONTHDAY, plain BYDAY, BYHOUR, BYMINUTE, BYSECOND,
    BYSETPOS."""
    freq = FREQS.index(parts["FREQ"])
    interval = int(parts.get("INTERVAL", 1))
    count = int(parts["COUNT"]) if "COUNT" in parts else None
    skip = parts.get("SKIP", "OMIT")
    ints = lambda k: [int(v) for v in parts[k].split(",")] if k in parts else None
    bymonth, bymonthday = ints("BYMONTH"), ints("BYMONTHDAY")
    byday = [DAYS.index(d) for d in parts["BYDAY"].split(",")] \
        if "BYDAY" in parts else None
    assert byday is None or all(len(d) == 2 for d in parts["BYDAY"].split(","))
    if bymonthday is None and byday is None:
        if freq == 0:
            bymonth = bymonth or [dtstart.month]
            bymonthday = [dtstart.day]
        elif freq == 1:
            bymonthday = [dtstart.day]
    hours = ints("BYHOUR") or ([dtstart.hour] if freq < 4 else None)
    minutes = ints("BYMINUTE") or [dtstart.minute]
    seconds = ints("BYSECOND") or [dtstart.second]
    setpos = ints("BYSETPOS")

    def month_days(y, m):
        """{day: origin} selected in month m (days may be in month m+1)."""
        if bymonth and m not in bymonth:
            return []
        n = month_len(y, m)
        if bymonthday is None:
            out = [date(y, m, d) for d in range(1, n + 1)]
        else:
            out = set()
            for v in bymonthday:
                if 0 < v <= n:
                    out.add(date(y, m, v))
                elif v < 0 and -v <= n:
                    out.add(date(y, m, n + 1 + v))
                elif v > n and skip == "BACKWARD":
                    out.add(date(y, m, n))
                elif v > n and skip == "FORWARD" and m < 12:
                    out.add(date(y, m + 1, 1))
            out = sorted(out)
        if byday is not None:
            out = [d for d in out if d.weekday() in byday]
        return out

    def times_of(h):
        return [time(h, mi, s) for mi in sorted(minutes) for s in sorted(seconds)]

    def period(k):
        """Sorted walls of period k of a YEARLY or MONTHLY rule."""
        if freq == 0:
            y = dtstart.year + k * interval
            if y > 9999:
                return None
            days = sorted(set(d for m in range(1, 13) for d in month_days(y, m)))
        else:
            mi = dtstart.year * 12 + dtstart.month - 1 + k * interval
            if mi // 12 > 9999:
                return None
            days = month_days(mi // 12, mi % 12 + 1)
        return [datetime.combine(d, t) for d in days
                for h in sorted(hours) for t in times_of(h)]

    def day_ok(d):
        prev_y, prev_m = (d.year, d.month - 1) if d.month > 1 else (d.year - 1, 12)
        return d in month_days(d.year, d.month) or \
            (d.day == 1 and d in month_days(prev_y, prev_m))

    def pick(walls):
        if not setpos:
            return walls
        n, out = len(walls), set()
        for p in setpos:
            i = p - 1 if p > 0 else n + p
            if 0 <= i < n:
                out.add(walls[i])
        return sorted(out)

    emitted, last = 0, None
    if freq <= 1:
        k = 0
        while True:
            walls = period(k)
            if walls is None:
                return
            for w in pick(walls):
                if w < dtstart or (last is not None and w <= last):
                    continue
                if count is not None and emitted >= count:
                    return
                emitted += 1
                last = w
                yield w
            k += 1
            if k > 20000:
                return
    elif freq == 3:
        d = dtstart.date()
        assert freq != 2
        while d.year <= 9999:
            if day_ok(d):
                ts = pick([datetime.combine(d, t) for h in sorted(hours)
                           for t in times_of(h)])
                for w in ts:
                    if w < dtstart:
                        continue
                    if count is not None and emitted >= count:
                        return
                    emitted += 1
                    yield w
            try:
                d += timedelta(days=interval)
            except OverflowError:
                return
    else:  # HOURLY
        assert freq == 4
        h = dtstart.replace(minute=0, second=0)
        limit = 0
        while h.year <= 9999 and limit < 2000000:
            limit += 1
            if day_ok(h.date()) and (hours is None or h.hour in hours):
                for w in pick(sorted(h.replace(minute=mi, second=s)
                                     for mi in minutes for s in seconds)):
                    if w < dtstart:
                        continue
                    if count is not None and emitted >= count:
                        return
                    emitted += 1
                    yield w
            try:
                h += timedelta(hours=interval)
            except OverflowError:
                return


# ---- A set in a zone -------------------------------------------------------

def parse_set(text):
    """[(prop, params, value)] of a rule text (bare RECUR -> RRULE)."""
    out = []
    text = text.replace("\r\n", "\n").replace("\n ", "").replace("\n\t", "")
    for line in text.split("\n"):
        line = line.strip()
        if not line:
            continue
        head = line.split(":", 1)[0]
        if "=" in head.split(";")[0] or ":" not in line:
            out.append(("RRULE", {}, line))
            continue
        head, value = line.split(":", 1)
        name, *params = head.split(";")
        out.append((name.upper(), dict(p.upper().split("=", 1) for p in params),
                    value))
    return out


def rule_walls(parts, dtstart):
    if parts.get("SKIP", "OMIT") != "OMIT":
        return skip_expand(parts, dtstart)
    return dateutil_walls(parts, dtstart)


def rule_instants(parts, dtstart, zi, after, want):
    """The first `want` instants > after of one rule (sorted, distinct),
    and whether the rule ended. Walls map out of order only inside a
    gap's length, so the walk goes 3 hours of wall time past the want-th."""
    until = parse_stamp(parts["UNTIL"]) if "UNTIL" in parts else None
    found = set()
    horizon = None
    for w in rule_walls(parts, dtstart):
        if until and until[0] == "date" and w > datetime.combine(until[1], time()):
            return sorted(found)[:want], True
        if until and until[0] == "local" and w > until[1]:
            return sorted(found)[:want], True
        if until and until[0] == "utc" and w > until[1].replace(tzinfo=None) + timedelta(hours=27):
            return sorted(found)[:want], True
        if horizon is not None and w > horizon:
            return sorted(found)[:want], False
        t = to_instant(w, zi)
        if t is None or t > MAX_INSTANT:
            return sorted(found)[:want], True
        if until and until[0] == "utc" and t > until[1]:
            continue
        if t > after:
            found.add(t)
            if len(found) >= want and horizon is None:
                nth = sorted(found)[want - 1]
                horizon = nth.astimezone(zi).replace(tzinfo=None) + timedelta(hours=3)
    return sorted(found)[:want], True


def expand_set(text, dtstart, tzname, after, n):
    """(instants, exhausted) of the set: the first n after `after`."""
    zi = zone(tzname)
    lines = parse_set(text)
    exdates = [(p, v) for name, p, v in lines if name == "EXDATE"
               for v in v.split(",")]
    ex_instants, ex_days = set(), set()
    for p, v in exdates:
        kind, val = parse_stamp(v)
        if kind == "date":
            ex_days.add(val)
        else:
            ex_instants.add(val if kind == "utc" else to_instant(val, zi))
    want = n + 1 + len(exdates)
    cands, ended = set(), True
    for name, p, v in lines:
        if name == "RRULE":
            got, fin = rule_instants(split_rule(v), dtstart, zi, after, want)
            cands.update(got)
            ended = ended and fin
        elif name == "RDATE":
            for s in v.split(","):
                kind, val = parse_stamp(s)
                if kind == "date":
                    val = to_instant(datetime.combine(val, dtstart.time()), zi)
                elif kind == "local":
                    val = to_instant(val, zi)
                if val > after:
                    cands.add(val)
    out = sorted(t for t in cands if t not in ex_instants
                 and t.astimezone(zi).date() not in ex_days)
    return out[:n], len(out) <= n and ended


# ---- Cases -----------------------------------------------------------------

class Corpus:
    def __init__(self):
        self.files = {}
        self.ids = set()

    def add(self, fname, cid, rule, dtstart, tz, n=10, after=None,
            source="", note="", never=False):
        assert cid not in self.ids, cid
        self.ids.add(cid)
        zi = zone(tz)
        if after is None:
            after = to_instant(dtstart, zi) - timedelta(seconds=1)
        case = {"id": cid, "rrule": rule, "dtstart": wall_str(dtstart),
                "tz": tz, "after": iso(after, zi), "n": n}
        try:
            if never:  # known to have no occurrence; dateutil would not stop
                got, exhausted = [], True
            else:
                got, exhausted = expand_set(rule, dtstart, tz, after, n)
        except ValueError as e:  # dateutil: the rule can never occur
            got, exhausted = [], True
            note = (note + "; " if note else "") + "dateutil: " + str(e)
        case["next"] = [iso(t, zi) for t in got]
        case["exhausted"] = exhausted
        if not got and exhausted:
            # no occurrence after `after`: is there one at all?
            try:
                earliest = datetime(1, 1, 2, tzinfo=UTC)
                none = never or after < to_instant(dtstart, zi) or \
                    not expand_set(rule, dtstart, tz, earliest, 1)[0]
            except ValueError:
                none = True
            if none:
                case["never"] = True
        case["source"] = source
        if note:
            case["note"] = note
        self.files.setdefault(fname, []).append(case)
        return case

    def write(self):
        for fname, cases in sorted(self.files.items()):
            with open(os.path.join(HERE, fname), "w") as f:
                for c in cases:
                    f.write(json.dumps(c, sort_keys=False) + "\n")


RFC = "RFC 5545 3.8.5.3"


def rfc_examples(c):
    ny = "America/New_York"
    d = lambda s: datetime.strptime(s, "%Y%m%dT%H%M%S")
    ex = [
        ("daily-count10", "19970902T090000", "FREQ=DAILY;COUNT=10", 12, ""),
        ("daily-until", "19970902T090000", "FREQ=DAILY;UNTIL=19971224T000000Z", 120, ""),
        ("every-other-day", "19970902T090000", "FREQ=DAILY;INTERVAL=2", 20, ""),
        ("every-10-days-5", "19970902T090000", "FREQ=DAILY;INTERVAL=10;COUNT=5", 6, ""),
        ("january-3y-yearly", "19980101T090000",
         "FREQ=YEARLY;UNTIL=20000131T140000Z;BYMONTH=1;BYDAY=SU,MO,TU,WE,TH,FR,SA", 100, ""),
        ("january-3y-daily", "19980101T090000",
         "FREQ=DAILY;UNTIL=20000131T140000Z;BYMONTH=1", 100, ""),
        ("weekly-count10", "19970902T090000", "FREQ=WEEKLY;COUNT=10", 12, ""),
        ("weekly-until", "19970902T090000", "FREQ=WEEKLY;UNTIL=19971224T000000Z", 20, ""),
        ("every-other-week", "19970902T090000", "FREQ=WEEKLY;INTERVAL=2;WKST=SU", 13, ""),
        ("tu-th-5-weeks-until", "19970902T090000",
         "FREQ=WEEKLY;UNTIL=19971007T000000Z;WKST=SU;BYDAY=TU,TH", 12, ""),
        ("tu-th-5-weeks-count", "19970902T090000",
         "FREQ=WEEKLY;COUNT=10;WKST=SU;BYDAY=TU,TH", 12, ""),
        ("mo-we-fr-2w-until", "19970901T090000",
         "FREQ=WEEKLY;INTERVAL=2;UNTIL=19971224T000000Z;WKST=SU;BYDAY=MO,WE,FR", 30, ""),
        ("tu-th-2w-count8", "19970902T090000",
         "FREQ=WEEKLY;INTERVAL=2;COUNT=8;WKST=SU;BYDAY=TU,TH", 10, ""),
        ("first-friday-count10", "19970905T090000", "FREQ=MONTHLY;COUNT=10;BYDAY=1FR", 12, ""),
        ("first-friday-until", "19970905T090000",
         "FREQ=MONTHLY;UNTIL=19971224T000000Z;BYDAY=1FR", 6, ""),
        ("first-last-sunday-2m", "19970907T090000",
         "FREQ=MONTHLY;INTERVAL=2;COUNT=10;BYDAY=1SU,-1SU", 12, ""),
        ("second-to-last-monday", "19970922T090000", "FREQ=MONTHLY;COUNT=6;BYDAY=-2MO", 8, ""),
        ("third-to-last-day", "19970928T090000", "FREQ=MONTHLY;BYMONTHDAY=-3", 6, ""),
        ("2nd-and-15th", "19970902T090000", "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=2,15", 12, ""),
        ("first-and-last-day", "19970930T090000", "FREQ=MONTHLY;COUNT=10;BYMONTHDAY=1,-1", 12, ""),
        ("18-months-10th-15th", "19970910T090000",
         "FREQ=MONTHLY;INTERVAL=18;COUNT=10;BYMONTHDAY=10,11,12,13,14,15", 12, ""),
        ("tuesday-every-other-month", "19970902T090000", "FREQ=MONTHLY;INTERVAL=2;BYDAY=TU", 18, ""),
        ("june-july", "19970610T090000", "FREQ=YEARLY;COUNT=10;BYMONTH=6,7", 12, ""),
        ("jan-feb-mar-2y", "19970310T090000", "FREQ=YEARLY;INTERVAL=2;COUNT=10;BYMONTH=1,2,3", 12, ""),
        ("yearday-1-100-200-3y", "19970101T090000",
         "FREQ=YEARLY;INTERVAL=3;COUNT=10;BYYEARDAY=1,100,200", 12, ""),
        ("20th-monday", "19970519T090000", "FREQ=YEARLY;BYDAY=20MO", 3, ""),
        ("weekno-20-monday", "19970512T090000", "FREQ=YEARLY;BYWEEKNO=20;BYDAY=MO", 3, ""),
        ("thursdays-in-march", "19970313T090000", "FREQ=YEARLY;BYMONTH=3;BYDAY=TH", 11, ""),
        ("thursdays-jun-jul-aug", "19970605T090000", "FREQ=YEARLY;BYDAY=TH;BYMONTH=6,7,8", 39, ""),
        ("friday-13th", "19970902T090000",
         "EXDATE;TZID=America/New_York:19970902T090000\nRRULE:FREQ=MONTHLY;BYDAY=FR;BYMONTHDAY=13", 5, ""),
        ("saturday-after-first-sunday", "19970913T090000",
         "FREQ=MONTHLY;BYDAY=SA;BYMONTHDAY=7,8,9,10,11,12,13", 10, ""),
        ("election-day", "19961105T090000",
         "FREQ=YEARLY;INTERVAL=4;BYMONTH=11;BYDAY=TU;BYMONTHDAY=2,3,4,5,6,7,8", 3, ""),
        ("third-tu-we-th", "19970904T090000", "FREQ=MONTHLY;COUNT=3;BYDAY=TU,WE,TH;BYSETPOS=3", 4, ""),
        ("second-to-last-weekday", "19970929T090000",
         "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2", 7, ""),
        ("every-3-hours-until", "19970902T090000", "FREQ=HOURLY;INTERVAL=3;UNTIL=19970902T170000Z", 5,
         "the RFC lists 09:00, 12:00, 15:00 EDT, but 15:00 EDT is 19:00Z, after UNTIL (a known erratum); "
         "dateutil and this corpus stop at 12:00"),
        ("every-15-minutes-6", "19970902T090000", "FREQ=MINUTELY;INTERVAL=15;COUNT=6", 8, ""),
        ("every-90-minutes-4", "19970902T090000", "FREQ=MINUTELY;INTERVAL=90;COUNT=4", 6, ""),
        ("every-20-minutes-daily", "19970902T090000",
         "FREQ=DAILY;BYHOUR=9,10,11,12,13,14,15,16;BYMINUTE=0,20,40", 30, ""),
        ("every-20-minutes-minutely", "19970902T090000",
         "FREQ=MINUTELY;INTERVAL=20;BYHOUR=9,10,11,12,13,14,15,16", 30, ""),
        ("wkst-mo", "19970805T090000", "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO", 5, ""),
        ("wkst-su", "19970805T090000", "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU", 5, ""),
        ("february-30-ignored", "20070115T090000", "FREQ=MONTHLY;BYMONTHDAY=15,30;COUNT=5", 6, ""),
    ]
    for i, (name, ds, rule, n, note) in enumerate(ex, 1):
        c.add("rfc5545.jsonl", "rfc5545-%02d-%s" % (i, name), rule, d(ds), ny, n=n,
              source=RFC + " example", note=note)


# ---- The BYxxx table of RFC 5545 3.3.10 ------------------------------------

TABLE_CELLS = {
    # part: {freq: values}, "N/A" cells left out (the extension refuses them)
    "BYMONTH": "3,7,11",
    "BYWEEKNO": "1,20,-1",
    "BYYEARDAY": "1,100,-1",
    "BYMONTHDAY": "1,15,-1",
    "BYDAY": "MO,FR",
    "BYDAY-ordinal": "1MO,-1FR",
    "BYHOUR": "0,12,23",
    "BYMINUTE": "0,30",
    "BYSECOND": "0,30",
    "BYSETPOS": "1,-1",
}
NA = {  # RFC 5545's N/A cells, and ordinals where the RFC forbids them
    "BYWEEKNO": {"MONTHLY", "WEEKLY", "DAILY", "HOURLY", "MINUTELY", "SECONDLY"},
    "BYYEARDAY": {"MONTHLY", "WEEKLY", "DAILY"},
    "BYMONTHDAY": {"WEEKLY"},
    "BYDAY-ordinal": {"WEEKLY", "DAILY", "HOURLY", "MINUTELY", "SECONDLY"},
}
# Sub-daily rules get dense companions so dateutil stays quick.
SPAN = {"YEARLY": 6, "MONTHLY": 10, "WEEKLY": 10, "DAILY": 12, "HOURLY": 12,
        "MINUTELY": 12, "SECONDLY": 12}


def table_cells(c):
    starts = [datetime(2024, 1, 15, 9, 30, 15), datetime(2023, 6, 30, 23, 45, 30)]
    for freq in FREQS:
        for part, values in TABLE_CELLS.items():
            if freq in NA.get(part, ()):
                continue
            name = part.split("-")[0]
            for si, st in enumerate(starts):
                for tz in ("UTC", "Europe/Berlin"):
                    extra = ""
                    if part == "BYSETPOS":
                        extra = ";BYHOUR=8,12,18" if freq in ("YEARLY", "MONTHLY", "WEEKLY", "DAILY") \
                            else ";BYSECOND=0,20,40"
                        if freq == "YEARLY":
                            extra += ";BYMONTH=%d" % st.month
                    if freq in ("MINUTELY", "SECONDLY") and name in ("BYYEARDAY", "BYWEEKNO"):
                        extra += ";BYHOUR=%d,%d" % (st.hour, (st.hour + 1) % 24)
                    if freq == "SECONDLY" and name in ("BYMONTH", "BYMONTHDAY", "BYDAY"):
                        extra += ";BYMINUTE=%d,%d" % (st.minute, (st.minute + 1) % 60)
                    rule = "FREQ=%s;%s=%s%s" % (freq, name, values, extra)
                    for interval in (1, 2):
                        r = rule + (";INTERVAL=%d" % interval if interval > 1 else "")
                        cid = "table-%s-%s-%d-%s-i%d" % (freq.lower(), part.lower(), si,
                                                          "utc" if tz == "UTC" else "berlin", interval)
                        c.add("table.jsonl", cid, r, st, tz, n=SPAN[freq],
                              source="RFC 5545 3.3.10 table: %s with FREQ=%s" % (name, freq))


# ---- DST changes -----------------------------------------------------------

def transitions(tzname, year):
    """[(instant, offset before, offset after)] in a year, to the second."""
    zi = ZoneInfo(tzname)
    out = []
    t = datetime(year, 1, 1, tzinfo=UTC)
    end = datetime(year + 1, 1, 1, tzinfo=UTC)
    step = timedelta(hours=6)
    while t < end:
        a, b = t.astimezone(zi).utcoffset(), (t + step).astimezone(zi).utcoffset()
        if a != b:
            lo, hi = t, t + step
            while hi - lo > timedelta(seconds=1):
                mid = lo + (hi - lo) / 2
                mid = mid.replace(microsecond=0)
                if mid.astimezone(zi).utcoffset() == a:
                    lo = mid
                else:
                    hi = mid
            out.append((hi, a, b))
        t += step
    return out


DST_YEARS = {"America/Sao_Paulo": [2018, 2019], "America/New_York": [2025],
             "Europe/Berlin": [2025], "Australia/Lord_Howe": [2025],
             "Pacific/Chatham": [2025]}
DST_RULES = [
    ("daily", "FREQ=DAILY", 6, -3),
    ("daily-count", "FREQ=DAILY;COUNT=5", 6, -2),
    ("hourly", "FREQ=HOURLY", 8, 0),
    ("hourly-2", "FREQ=HOURLY;INTERVAL=2", 6, 0),
    ("every-15-min", "FREQ=MINUTELY;INTERVAL=15", 12, 0),
    ("every-20-min", "FREQ=MINUTELY;INTERVAL=20", 10, 0),
    ("every-7-min", "FREQ=MINUTELY;INTERVAL=7", 14, 0),
    ("every-30-min-count", "FREQ=MINUTELY;INTERVAL=30;COUNT=8", 10, 0),
    ("every-600-s", "FREQ=SECONDLY;INTERVAL=600", 10, 0),
    ("every-1800-s", "FREQ=SECONDLY;INTERVAL=1800", 8, 0),
    ("weekly", "FREQ=WEEKLY", 4, -14),
    ("monthly-day", "FREQ=MONTHLY", 3, -62),
    ("daily-byhour", "FREQ=DAILY;BYHOUR=0,1,2,3,4;BYMINUTE=0,30", 20, -1),
    ("yearly", "FREQ=YEARLY", 3, 0),
]


def dst_cases(c):
    for tz in DST_ZONES:
        zi = ZoneInfo(tz)
        for year in DST_YEARS[tz]:
            for ti, (at, before, after) in enumerate(transitions(tz, year)):
                jump = after - before
                wall_at = (at + before).replace(tzinfo=None)  # wall where it happens
                kind = "gap" if jump > timedelta(0) else "overlap"
                length = abs(jump)
                inside = wall_at + length / 2 if kind == "gap" else wall_at - length / 2
                inside = inside.replace(microsecond=0)
                for name, rule, n, shift_days in DST_RULES:
                    if name == "yearly" and kind == "overlap":
                        continue
                    if name.startswith(("hourly", "every")):
                        starts = [("before", inside - timedelta(hours=3)),
                                  ("inside", inside)]
                    else:
                        starts = [("inside", inside + timedelta(days=shift_days)),
                                  ("edge", wall_at + timedelta(days=shift_days))]
                    for sname, st in starts:
                        cid = "dst-%s-%d-%d-%s-%s-%s" % (tz.split("/")[1].lower(), year, ti,
                                                         kind, name, sname)
                        src = "DST %s of %s (%s%s at %s)" % (kind, tz, "+" if jump > timedelta(0) else "-",
                                                            length, wall_str(wall_at))
                        c.add("dst.jsonl", cid, rule, st, tz, n=n, source=src)
                        # the same set asked from instants around the change
                        for an, delta in (("at-1s", -1), ("at", 0), ("at+1s", 1),
                                          ("at+half", int(length.total_seconds() // 2))):
                            if name not in ("hourly", "every-15-min", "every-7-min", "every-600-s"):
                                continue
                            c.add("dst.jsonl", cid + "-after-" + an, rule, st, tz, n=6,
                                  after=at + timedelta(seconds=delta), source=src)
                # sets: EXDATE of a wall in the change, RDATE in it
                st = inside - timedelta(days=2)
                c.add("dst.jsonl", "dst-%s-%d-%d-%s-exdate" % (tz.split("/")[1].lower(), year, ti, kind),
                      "RRULE:FREQ=DAILY\nEXDATE:%s" % wall_str(inside), st, tz, n=4,
                      source="DST %s of %s: EXDATE of the wall time in it" % (kind, tz))
                c.add("dst.jsonl", "dst-%s-%d-%d-%s-rdate" % (tz.split("/")[1].lower(), year, ti, kind),
                      "RRULE:FREQ=DAILY;BYHOUR=12;BYMINUTE=0;BYSECOND=0\nRDATE:%s" % wall_str(inside),
                      st, tz, n=5, source="DST %s of %s: RDATE of the wall time in it" % (kind, tz))


# ---- Edges: year boundaries, leap years, weeks, BYSETPOS -------------------

def edge_cases(c):
    for wkst in DAYS:
        for wk in ("1", "-1", "52", "53", "1,53", "2,-2"):
            for y in (1998, 2004, 2009, 2015, 2020, 2026):
                for byday in ("", ";BYDAY=MO", ";BYDAY=SU,TH"):
                    rule = "FREQ=YEARLY;BYWEEKNO=%s;WKST=%s%s" % (wk, wkst, byday)
                    c.add("edges.jsonl", "weekno-%s-%s-%d%s" % (wk, wkst.lower(), y, byday.replace(";BYDAY=", "-").replace(",", "").lower()),
                          rule, datetime(y, 1, 1, 10), "UTC", n=10,
                          source="BYWEEKNO at year boundaries (dateutil's reading)")
    for y in (2023, 2024, 2100, 2000):
        for rule, name in (("FREQ=YEARLY", "feb29"), ("FREQ=YEARLY;BYYEARDAY=366", "yd366"),
                           ("FREQ=YEARLY;BYYEARDAY=-366", "yd-366"),
                           ("FREQ=YEARLY;BYYEARDAY=60", "yd60"),
                           ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29", "feb29-explicit"),
                           ("FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1", "feb-last"),
                           ("FREQ=MONTHLY;BYMONTHDAY=29,30,31", "md29-31"),
                           ("FREQ=MONTHLY;BYMONTHDAY=-29,-30,-31", "md-29-31"),
                           ("FREQ=YEARLY;BYMONTH=2;BYDAY=-1MO", "feb-last-monday"),
                           ("FREQ=YEARLY;BYDAY=53MO", "53rd-monday"),
                           ("FREQ=YEARLY;BYDAY=-53FR", "minus-53rd-friday")):
            st = datetime(y, 2, 29 if y in (2024, 2000) else 28, 8)
            c.add("edges.jsonl", "leap-%s-%d" % (name, y), rule, st, "Europe/Berlin", n=8,
                  source="leap years")
    for wkst in DAYS:
        for byday in ("MO,SU", "TU,TH", "SA", "MO,TU,WE,TH,FR"):
            for st in (datetime(2024, 12, 28, 7), datetime(2025, 12, 31, 7), datetime(2020, 12, 29, 7)):
                rule = "FREQ=WEEKLY;INTERVAL=2;WKST=%s;BYDAY=%s" % (wkst, byday)
                c.add("edges.jsonl", "weekly-yearend-%s-%s-%s" % (wkst.lower(), byday.replace(",", "").lower(), st.year),
                      rule, st, "America/New_York", n=8, source="WEEKLY across a year boundary")
                c.add("edges.jsonl", "weekly-setpos-%s-%s-%s" % (wkst.lower(), byday.replace(",", "").lower(), st.year),
                      rule + ";BYSETPOS=1,-1", st, "America/New_York", n=8,
                      source="WEEKLY BYSETPOS: the first week runs from DTSTART (dateutil)")
    setpos = [
        ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "last-weekday"),
        ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1,-1", "first-last-weekday"),
        ("FREQ=MONTHLY;BYDAY=SA,SU;BYSETPOS=2", "second-weekend-day"),
        ("FREQ=MONTHLY;BYMONTHDAY=1,15;BYHOUR=9,17;BYSETPOS=2,-2", "monthday-hours"),
        ("FREQ=YEARLY;BYMONTH=1,6;BYDAY=MO;BYSETPOS=1,3,-1", "yearly-mondays"),
        ("FREQ=YEARLY;BYDAY=FR;BYSETPOS=-1", "last-friday-of-year"),
        ("FREQ=YEARLY;BYDAY=FR;BYHOUR=9,18;BYSETPOS=366,-366,100", "yearly-big-positions"),
        ("FREQ=DAILY;BYHOUR=9,12,15;BYMINUTE=0,30;BYSETPOS=2,-1", "daily-times"),
        ("FREQ=HOURLY;BYMINUTE=0,15,30,45;BYSETPOS=1,3", "hourly-minutes"),
        ("FREQ=HOURLY;INTERVAL=5;BYMINUTE=0,15,30,45;BYSECOND=0,30;BYSETPOS=2,-2", "hourly-5-picks"),
        ("FREQ=MINUTELY;INTERVAL=7;BYSECOND=0,10,20;BYSETPOS=-1", "minutely-7-picks"),
        ("FREQ=MINUTELY;BYSECOND=5,10;BYSETPOS=2", "minutely-picks"),
        ("FREQ=SECONDLY;INTERVAL=10;BYMINUTE=0,30;BYSETPOS=1", "secondly-pos1"),
        ("FREQ=SECONDLY;INTERVAL=10;BYMINUTE=0,30;BYSETPOS=2", "secondly-pos2-never"),
        ("FREQ=WEEKLY;BYDAY=MO,WE,FR;BYHOUR=8,20;BYSETPOS=3,-1", "weekly-picks"),
        ("FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=3;COUNT=5", "third-weekday-count"),
        ("FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=10,20,-1;BYSETPOS=-2", "quarterly-picks"),
    ]
    for rule, name in setpos:
        for st in (datetime(2024, 1, 17, 10, 0, 5), datetime(2023, 12, 31, 22, 59, 55)):
            for tz in ("UTC", "Australia/Lord_Howe"):
                never = name.endswith("-never")
                c.add("edges.jsonl", "setpos-%s-%d-%s" % (name, st.year, "utc" if tz == "UTC" else "lordhowe"),
                      rule, st, tz, n=10, source="BYSETPOS", never=never,
                      note="a SECONDLY period has one element: BYSETPOS=2 picks none "
                           "(dateutil searches without end)" if never else "")
    # far from DTSTART: the search jumps, counts stay right
    jumps = [
        ("FREQ=YEARLY;BYMONTH=2;BYDAY=-1MO", datetime(1950, 1, 1, 9), 800),
        ("FREQ=MONTHLY;BYDAY=2FR,4FR", datetime(1990, 1, 1, 9), 400),
        ("FREQ=WEEKLY;INTERVAL=3;BYDAY=TU", datetime(1990, 1, 2, 9), 400),
        ("FREQ=DAILY;INTERVAL=17", datetime(1990, 1, 2, 9), 400),
        ("FREQ=DAILY;INTERVAL=1000", datetime(1800, 1, 2, 9), 4000),
        ("FREQ=MONTHLY;COUNT=600;BYMONTHDAY=-1", datetime(1990, 1, 31, 9), 240),
        ("FREQ=WEEKLY;COUNT=3000;BYDAY=MO,TH", datetime(1990, 1, 1, 9), 400),
        ("FREQ=DAILY;COUNT=20000;BYDAY=MO,TU,WE,TH,FR", datetime(1990, 1, 1, 9), 400),
        ("FREQ=HOURLY;INTERVAL=7", datetime(2024, 1, 1, 0), 1),
        ("FREQ=HOURLY;COUNT=2000;BYHOUR=9,17", datetime(2024, 1, 1, 0), 2),
        ("FREQ=MINUTELY;INTERVAL=45;BYHOUR=9", datetime(2024, 1, 1, 0), 1),
        ("FREQ=SECONDLY;INTERVAL=7;BYMINUTE=0;BYSECOND=0,1,2,3,4,5,6", datetime(2024, 1, 1, 0), 0.05),
        ("FREQ=SECONDLY;BYMONTH=12;BYHOUR=23;BYMINUTE=59", datetime(2024, 1, 1, 0), 0.9),
    ]
    for i, (rule, st, years) in enumerate(jumps):
        for tz in ("UTC", "America/New_York"):
            zi = zone(tz)
            after = to_instant(st, zi) + timedelta(days=365.25 * years * 0.5)
            c.add("edges.jsonl", "jump-%02d-%s" % (i, "utc" if tz == "UTC" else "ny"), rule, st, tz,
                  n=6, after=after.replace(microsecond=0), source="a query far after DTSTART")


# ---- COUNT and UNTIL --------------------------------------------------------

def end_cases(c):
    st = datetime(2025, 3, 1, 9, 30)
    for tz in ("UTC", "America/New_York", "Australia/Lord_Howe"):
        zi = zone(tz)
        tzs = "utc" if tz == "UTC" else tz.split("/")[1].lower()
        for count in (1, 2, 7):
            for freq in ("DAILY", "WEEKLY", "MONTHLY", "HOURLY"):
                c.add("ends.jsonl", "count-%d-%s-%s" % (count, freq.lower(), tzs),
                      "FREQ=%s;COUNT=%d" % (freq, count), st, tz, n=count + 2, source="COUNT")
        for kind, until in (("date-on", "20250310"), ("date-off", "20250310"),
                            ("local-on", "20250310T093000"), ("local-before", "20250310T092959"),
                            ("utc-on", None), ("utc-before", None), ("utc-far", "20250310T235959Z")):
            if kind.startswith("utc") and until is None:
                inst = to_instant(datetime(2025, 3, 10, 9, 30), zi)
                if kind == "utc-before":
                    inst -= timedelta(seconds=1)
                until = inst.strftime("%Y%m%dT%H%M%SZ")
            for freq in ("DAILY", "HOURLY"):
                rule = "FREQ=%s;UNTIL=%s" % (freq, until)
                if freq == "HOURLY":
                    rule += ";BYHOUR=9,21"
                c.add("ends.jsonl", "until-%s-%s-%s" % (kind, freq.lower(), tzs), rule, st, tz, n=25,
                      source="UNTIL (%s)" % kind)
        # the end asked from the middle and from after it
        for after_days in (3, 8, 40):
            after = to_instant(st, zi) + timedelta(days=after_days, seconds=5)
            c.add("ends.jsonl", "count-10-from-day-%d-%s" % (after_days, tzs), "FREQ=DAILY;COUNT=10",
                  st, tz, n=10, after=after, source="COUNT, asked mid-way")
            c.add("ends.jsonl", "until-from-day-%d-%s" % (after_days, tzs),
                  "FREQ=DAILY;UNTIL=20250310T093000", st, tz, n=10, after=after,
                  source="UNTIL, asked mid-way")
    # DTSTART that does not match the rule is not an occurrence
    for rule in ("FREQ=MONTHLY;BYDAY=1MO;COUNT=3", "FREQ=WEEKLY;BYDAY=FR;COUNT=2",
                 "FREQ=YEARLY;BYMONTH=6;COUNT=2", "FREQ=DAILY;BYHOUR=8;COUNT=2"):
        c.add("ends.jsonl", "dtstart-not-matching-" + rule.split(";")[0][5:].lower() + "-" +
              rule.split(";")[1].split("=")[1].lower(), rule, datetime(2025, 3, 5, 9, 30), "Europe/Berlin",
              n=4, source="a DTSTART that does not match is not an occurrence (dateutil)")


# ---- RFC 7529 SKIP ---------------------------------------------------------

SKIP_RULES = [
    "FREQ=MONTHLY", "FREQ=MONTHLY;INTERVAL=2", "FREQ=MONTHLY;COUNT=14",
    "FREQ=MONTHLY;BYMONTHDAY=30,31", "FREQ=MONTHLY;BYMONTHDAY=1,31",
    "FREQ=MONTHLY;BYMONTHDAY=29,30,31;BYSETPOS=1", "FREQ=MONTHLY;BYMONTHDAY=31;BYDAY=MO,TU,WE,TH,FR",
    "FREQ=MONTHLY;BYMONTHDAY=31;BYHOUR=8,20", "FREQ=MONTHLY;BYMONTHDAY=31;BYHOUR=8,20;BYSETPOS=-1",
    "FREQ=YEARLY", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29,30", "FREQ=YEARLY;BYMONTH=4,6,9,11;BYMONTHDAY=31",
    "FREQ=YEARLY;COUNT=6", "FREQ=DAILY;BYMONTHDAY=31", "FREQ=DAILY;BYMONTHDAY=30,31;BYMONTH=2,3",
    "FREQ=HOURLY;INTERVAL=6;BYMONTHDAY=31",
]


def skip_cases(c):
    for rule in SKIP_RULES:
        for skip in ("BACKWARD", "FORWARD", "OMIT"):
            for st in (datetime(2024, 1, 31, 9, 15), datetime(2023, 1, 31, 9, 15),
                       datetime(2024, 2, 29, 9, 15)):
                if "BYMONTHDAY" not in rule and rule != "FREQ=YEARLY" and st.day < 31:
                    continue
                if rule.startswith("FREQ=YEARLY") and "BYMONTH" not in rule and st.month != 2:
                    continue
                full = "RSCALE=GREGORIAN;%s;SKIP=%s" % (rule, skip)
                parts = split_rule(full)
                omit = dict(parts, SKIP="OMIT")
                ref = [w for _, w in zip(range(40), skip_expand(omit, st))]
                duw = [w for _, w in zip(range(40), dateutil_walls(omit, st))]
                assert ref == duw, ("skip_expand differs from dateutil", full, st)
                for tz in ("UTC", "America/New_York"):
                    cid = "skip-%s-%s-%s-%s" % (skip.lower(), rule.lower().replace("freq=", "").replace(";", "-")
                                                .replace("=", "").replace(",", "."), wall_str(st)[:8],
                                                "utc" if tz == "UTC" else "ny")
                    c.add("skip.jsonl", cid, full, st, tz, n=14,
                          source="RFC 7529 SKIP (expected by make_corpus.py's skip_expand)")


# ---- RDATE / EXDATE sets ---------------------------------------------------

def set_cases(c):
    st = datetime(2025, 1, 6, 9)
    sets = [
        ("two-rules", "RRULE:FREQ=WEEKLY;BYDAY=MO\nRRULE:FREQ=WEEKLY;BYDAY=TH;BYHOUR=14"),
        ("rules-overlap", "RRULE:FREQ=DAILY;COUNT=5\nRRULE:FREQ=DAILY;INTERVAL=2;COUNT=5"),
        ("rdate-only", "RDATE:20250110T120000,20250101T080000,20250301T000000"),
        ("rdate-date", "RRULE:FREQ=MONTHLY;BYDAY=1MO\nRDATE;VALUE=DATE:20250115,20250215"),
        ("rdate-utc", "RRULE:FREQ=WEEKLY\nRDATE:20250108T120000Z"),
        ("rdate-dup", "RRULE:FREQ=DAILY;COUNT=4\nRDATE:20250107T090000"),
        ("exdate-local", "RRULE:FREQ=DAILY;COUNT=6\nEXDATE:20250107T090000,20250109T090000"),
        ("exdate-utc", "RRULE:FREQ=DAILY;COUNT=6\nEXDATE:20250107T080000Z"),
        ("exdate-date", "RRULE:FREQ=HOURLY;INTERVAL=6\nEXDATE;VALUE=DATE:20250107,20250109"),
        ("exdate-miss", "RRULE:FREQ=DAILY;COUNT=3\nEXDATE:20250107T100000"),
        ("exdate-rdate", "RRULE:FREQ=DAILY;COUNT=3\nRDATE:20250201T090000\nEXDATE:20250201T090000"),
        ("count-then-exdate", "RRULE:FREQ=WEEKLY;COUNT=4\nEXDATE:20250113T090000"),
        ("folded", "RRULE:FREQ=WEEKLY;BYDAY=MO,\n WE\nEXDATE:20250108T090000"),
        ("lower-case", "rrule:freq=weekly;byday=mo,fr;count=5"),
        ("exdate-all", "RRULE:FREQ=DAILY;COUNT=2\nEXDATE:20250106T090000,20250107T090000"),
    ]
    for name, text in sets:
        for tz in ("UTC", "Europe/Berlin", "Asia/Kolkata"):
            c.add("sets.jsonl", "set-%s-%s" % (name, "utc" if tz == "UTC" else tz.split("/")[1].lower()),
                  text, st, tz, n=12, source="RRULE, RDATE and EXDATE lines")


# ---- Random rules ----------------------------------------------------------

def random_rule(rng, freq):
    parts = ["FREQ=" + freq]
    fi = FREQS.index(freq)
    sample = lambda lo, hi, k: sorted(rng.sample(range(lo, hi + 1), k))
    signed = lambda hi, k: [v if rng.random() < 0.7 else -v for v in sample(1, hi, k)]
    if rng.random() < 0.4:
        parts.append("INTERVAL=%d" % rng.choice([2, 3, 4, 5, 7] if fi < 4 else [2, 3, 5, 7, 12, 25, 90]))
    has = []
    if rng.random() < 0.35:
        k = rng.randint(2, 8) if fi >= 4 else rng.randint(1, 4)
        parts.append("BYMONTH=" + ",".join(map(str, sample(1, 12, k))))
        has.append("BYMONTH")
    if fi == 0 and rng.random() < 0.2:
        parts.append("BYWEEKNO=" + ",".join(map(str, signed(53, rng.randint(1, 3)))))
        has.append("BYWEEKNO")
    if fi in (0, 4, 5, 6) and rng.random() < 0.15 and "BYWEEKNO" not in has:
        k = rng.randint(1, 4) if fi == 0 else rng.randint(20, 60)
        parts.append("BYYEARDAY=" + ",".join(map(str, signed(366, k))))
        has.append("BYYEARDAY")
    if fi != 2 and rng.random() < 0.3:
        k = rng.randint(1, 4) if fi < 4 else rng.randint(8, 20)
        vals = signed(31, k) if fi < 3 else signed(28, k)
        parts.append("BYMONTHDAY=" + ",".join(map(str, vals)))
        has.append("BYMONTHDAY")
    if rng.random() < 0.45:
        ordinal = fi in (0, 1) and "BYWEEKNO" not in has and rng.random() < 0.5
        if ordinal:
            days = rng.sample(range(7), rng.randint(1, 2))
            hi = 5 if fi == 1 or "BYMONTH" in has else 53
            items = ["%d%s" % (n * rng.choice([1, -1]) if True else n, DAYS[d])
                     for d in days for n in [rng.randint(1, hi)]]
        else:
            k = rng.randint(1, 4) if fi < 4 else rng.randint(3, 7)
            items = [DAYS[d] for d in sorted(rng.sample(range(7), k))]
        parts.append("BYDAY=" + ",".join(items))
        has.append("BYDAY")
    if rng.random() < (0.4 if fi < 4 else 0.3):
        k = rng.randint(1, 3) if fi < 4 else rng.randint(8, 20)
        parts.append("BYHOUR=" + ",".join(map(str, sample(0, 23, k))))
        has.append("BYHOUR")
    if rng.random() < 0.3:
        k = rng.randint(1, 3) if fi < 5 else rng.randint(20, 50)
        parts.append("BYMINUTE=" + ",".join(map(str, sample(0, 59, k))))
        has.append("BYMINUTE")
    if rng.random() < 0.2:
        k = rng.randint(1, 3) if fi < 6 else rng.randint(20, 50)
        parts.append("BYSECOND=" + ",".join(map(str, sample(0, 59, k))))
        has.append("BYSECOND")
    if has and rng.random() < 0.2:
        # positions within the smallest period (dateutil searches to 9999
        # for a rule that never occurs)
        size = lambda k, d: len(next((p for p in parts if p.startswith(k + "=")), "=" + d).split("=")[1].split(","))
        per = {"YEARLY": 3, "MONTHLY": 3, "WEEKLY": 1, "DAILY": 1}.get(freq, 1)
        if fi >= 2:
            per *= size("BYSECOND", "0") if fi < 6 else 1
            per *= size("BYMINUTE", "0") if fi < 5 else 1
            per *= size("BYHOUR", "0") if fi < 4 else 1
        k = rng.randint(1, min(3, per))
        parts.append("BYSETPOS=" + ",".join(map(str, signed(per, k))))
    if rng.random() < 0.3:
        parts.append("WKST=" + rng.choice(DAYS))
    r = rng.random()
    if r < 0.25:
        parts.append("COUNT=%d" % rng.randint(1, 30))
    elif r < 0.4:
        parts.append("UNTIL=%s" % rng.choice(["20300101", "20280615T120000", "20310101T000000Z"]))
    rng.shuffle(parts)
    return ";".join(parts)


def random_cases(c, count):
    rng = random.Random(5545)
    made = 0
    while made < count:
        freq = rng.choice(FREQS)
        rule = random_rule(rng, freq)
        tz = rng.choice(ZONES)
        st = datetime(rng.randint(1995, 2035), rng.randint(1, 12), rng.randint(1, 28),
                      rng.randint(0, 23), rng.randint(0, 59), rng.randint(0, 59))
        after = None
        if rng.random() < 0.3:
            span = {"YEARLY": 3000, "MONTHLY": 600, "WEEKLY": 200, "DAILY": 60,
                    "HOURLY": 5, "MINUTELY": 0.2, "SECONDLY": 0.01}[freq]
            after = to_instant(st, zone(tz)) + timedelta(days=rng.random() * span)
            after = after.replace(microsecond=0)
        case = c.add("random.jsonl", "random-%04d" % made, rule, st, tz, n=8, after=after,
                     source="random rule (seed 5545)")
        made += 1
        del case


# ---- libical ---------------------------------------------------------------

def libical_pass(c):
    """Records libical 3.0.16's floating expansion where it differs from the
    expected one (first n wall times from DTSTART, single RRULE cases)."""
    if not shutil.which("gcc") or not os.path.exists("/usr/include/libical/ical.h"):
        print("libical-dev not installed: no libical field", file=sys.stderr)
        return 0, 0
    tmp = tempfile.mkdtemp()
    try:
        exe = os.path.join(tmp, "libical_oracle")
        subprocess.check_call(["gcc", "-O1", "-o", exe, os.path.join(HERE, "libical_oracle.c"), "-lical"])
        compared = differ = 0
        for fname, cases in sorted(c.files.items()):
            for case in cases:
                lines = parse_set(case["rrule"])
                if len(lines) != 1 or lines[0][0] != "RRULE":
                    continue
                value = lines[0][2]
                parts = split_rule(value)
                dtstart = datetime.strptime(case["dtstart"], "%Y%m%dT%H%M%S")
                n = case["n"]
                try:
                    walls = [] if case.get("never") else \
                        rule_instants(parts, dtstart, UTC, datetime.min.replace(tzinfo=UTC), n)[0]
                    ours = [wall_str(w.replace(tzinfo=None)) for w in walls]
                except ValueError:
                    ours = []
                try:
                    res = subprocess.run([exe, case["dtstart"], value, str(n)], capture_output=True,
                                         text=True, timeout=60)
                    out = res.stdout.split("\n")
                    theirs = [l for l in out if l and l != "END"]
                    if res.returncode in (-24, -9):  # SIGXCPU, then SIGKILL: its CPU limit
                        theirs = ["timeout: no answer in 2 s of CPU time"]
                    elif res.returncode != 0:
                        theirs = ["crash: exit status %d" % res.returncode]
                    elif theirs and theirs[0].startswith("ERROR"):
                        theirs = [theirs[0].lower()]
                except subprocess.TimeoutExpired:
                    theirs = ["timeout: no answer in 60 s"]
                compared += 1
                if compared % 500 == 0:
                    print("libical: %d rules" % compared, file=sys.stderr, flush=True)
                if theirs != ours:
                    differ += 1
                    case["libical"] = theirs
                    case["floating"] = ours
        return compared, differ
    finally:
        shutil.rmtree(tmp)


def main():
    c = Corpus()
    rfc_examples(c)
    table_cells(c)
    dst_cases(c)
    edge_cases(c)
    end_cases(c)
    skip_cases(c)
    set_cases(c)
    random_cases(c, 2500)
    compared = differ = 0
    if "--no-libical" not in sys.argv:
        compared, differ = libical_pass(c)
    c.write()
    total = sum(len(v) for v in c.files.values())
    print("%d cases in %d files; libical compared on %d rules, differs on %d" %
          (total, len(c.files), compared, differ))


if __name__ == "__main__":
    main()
