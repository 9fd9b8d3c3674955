"""tests/py/util/rrule_oracle.py -- python-dateutil as the oracle of rrule
schedules (docs/calendar.md): a rule expanded in floating (wall-clock)
time from DTSTART, each time mapped to an instant by RFC 5545's rule for
local times, as ext/time/rrule*.c does."""
import datetime
from zoneinfo import ZoneInfo

from dateutil import rrule as du


def wall(ms, tz):
    """Instant ms as naive wall-clock time in tz, whole seconds (a
    trigger's DTSTART)."""
    d = datetime.datetime.fromtimestamp(ms // 1000, ZoneInfo(tz))
    return d.replace(tzinfo=None)


def instant(naive, tz):
    """RFC 5545's reading of a local time: a time in a gap moves forward by
    the gap's length, a repeated time takes its first pass. That is
    zoneinfo's fold=0 (the offset before the change). ms."""
    return int(naive.replace(tzinfo=ZoneInfo(tz), fold=0).timestamp() * 1000)


def oracle(rule, dtstart_ms, tz, after_ms, n):
    """The first n distinct occurrences strictly after after_ms (ms) of
    rule with DTSTART at dtstart_ms's wall clock in tz, by dateutil."""
    out, seen = [], set()
    for naive in du.rrulestr(rule, dtstart=wall(dtstart_ms, tz)):
        t = instant(naive, tz)
        if t <= after_ms or t in seen:
            continue
        seen.add(t)
        out.append(t)
        if len(out) == n:
            break
    return out
