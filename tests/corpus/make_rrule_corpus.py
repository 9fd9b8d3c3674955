#!/usr/bin/python3
"""tests/corpus/make_rrule_corpus.py -- writes tests/corpus/when_rrule.jsonl:
messages whose time is a calendar rule (kind "rrule", docs/when.md
#calendar-rules) and messages that must not become one.

Each phrase below is labelled by hand with the RFC 5545 rule it means; the
expected occurrences are computed from that label by python-dateutil (the
oracle, not the parser): the first occurrence is the label's first one
strictly after `now` without its INTERVAL (the next matching day, as a
person means "every other tuesday" said on a wednesday), and the next 5
are the label expanded from there, wall-clock times mapped to instants by
RFC 5545's rule (zoneinfo, fold=0). Each phrase is said in several zones
and at several instants (some just before a DST change), inside messages
of a few shapes. Negatives are labelled "rrule": false: read at
confidence >= 0.5, they must not be a rule (a cron line or a one-time
time may be right for them, or nothing).

    /usr/bin/python3 tests/corpus/make_rrule_corpus.py   # rewrites the file
"""
import datetime as dt
import json
import os
from zoneinfo import ZoneInfo

from dateutil import rrule as du

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "when_rrule.jsonl")
N_NEXT = 5
CALENDAR = "us-holidays"  # config default_calendar in the test

# (zone, now): plain days and the eves of DST changes
WHERE = [
    ("America/New_York", "2025-03-05T10:00:00-05:00"),
    ("America/New_York", "2025-10-30T18:00:00-04:00"),
    ("Europe/Berlin", "2025-03-27T12:00:00+01:00"),
    ("Europe/London", "2025-12-30T16:00:00+00:00"),
    ("Asia/Kolkata", "2025-09-15T08:15:00+05:30"),
    ("Australia/Sydney", "2025-10-01T17:40:00+10:00"),
    ("Pacific/Auckland", "2025-02-08T11:20:00+13:00"),
    ("America/Los_Angeles", "2025-10-10T13:25:00-07:00"),
    ("Asia/Tokyo", "2025-04-02T12:00:00+09:00"),
    ("UTC", "2025-11-23T21:05:00+00:00"),
]

# message shapes: {p} the phrase, {t} the task
SHAPES = [
    ("{p}", ""),
    ("remind me {p} to {t}", "{t}"),
    ("{p} {t}", "{t}"),
    ("Please remind me {p} to {t}", "{t}"),
    ("can you remind me {p} to {t}?", "{t}"),
]

TASKS = ["pay the cleaner", "water the plants", "review the budget", "call mom",
         "send the invoices", "book the room", "file the report", "back up the laptop"]

WD = "MO,TU,WE,TH,FR"
# phrase -> the rule it means, labelled by hand
POSITIVE = [
    ("every other Tuesday at 9am", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;BYHOUR=9;BYMINUTE=0;BYSECOND=0"),
    ("every other tuesday at 9", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU;BYHOUR=9;BYMINUTE=0;BYSECOND=0"),
    ("every other Friday at 3:30pm", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=15;BYMINUTE=30;BYSECOND=0"),
    ("every alternate Monday at 8am", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=8;BYMINUTE=0;BYSECOND=0"),
    ("every second Wednesday at 6pm", "FREQ=WEEKLY;INTERVAL=2;BYDAY=WE;BYHOUR=18;BYMINUTE=0;BYSECOND=0"),
    ("every 2 weeks on Monday at 10am", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=10;BYMINUTE=0;BYSECOND=0"),
    ("every two weeks on thursday at 11:15am", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TH;BYHOUR=11;BYMINUTE=15;BYSECOND=0"),
    ("every 3 weeks on tuesday and thursday at 7pm", "FREQ=WEEKLY;INTERVAL=3;BYDAY=TU,TH;BYHOUR=19;BYMINUTE=0;BYSECOND=0"),
    ("every other week on Saturday at 10am", "FREQ=WEEKLY;INTERVAL=2;BYDAY=SA;BYHOUR=10;BYMINUTE=0;BYSECOND=0"),
    ("biweekly on Fridays at 4pm", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=16;BYMINUTE=0;BYSECOND=0"),
    ("fortnightly on monday at 9:30am", "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO;BYHOUR=9;BYMINUTE=30;BYSECOND=0"),
    ("every fortnight on sunday at 8pm", "FREQ=WEEKLY;INTERVAL=2;BYDAY=SU;BYHOUR=20;BYMINUTE=0;BYSECOND=0"),
    ("every 4 weeks on wednesday at 18:00", "FREQ=WEEKLY;INTERVAL=4;BYDAY=WE;BYHOUR=18;BYMINUTE=0;BYSECOND=0"),
    ("every other day at 8am", "FREQ=DAILY;INTERVAL=2;BYHOUR=8;BYMINUTE=0;BYSECOND=0"),
    ("every 3 days at 7am", "FREQ=DAILY;INTERVAL=3;BYHOUR=7;BYMINUTE=0;BYSECOND=0"),
    ("every five days at 6:45pm", "FREQ=DAILY;INTERVAL=5;BYHOUR=18;BYMINUTE=45;BYSECOND=0"),
    ("the first Monday of every month at 9am", "FREQ=MONTHLY;BYDAY=1MO;BYHOUR=9;BYMINUTE=0;BYSECOND=0"),
    ("the 2nd and 4th Friday of every month at 10am", "FREQ=MONTHLY;BYDAY=2FR,4FR;BYHOUR=10;BYMINUTE=0;BYSECOND=0"),
    ("the last Friday of each month at 4pm", "FREQ=MONTHLY;BYDAY=-1FR;BYHOUR=16;BYMINUTE=0;BYSECOND=0"),
    ("every third Thursday of the month at 7pm", "FREQ=MONTHLY;BYDAY=3TH;BYHOUR=19;BYMINUTE=0;BYSECOND=0"),
    ("on the second Tuesday of every month at 9:30am", "FREQ=MONTHLY;BYDAY=2TU;BYHOUR=9;BYMINUTE=30;BYSECOND=0"),
    ("the first and third wednesday of every month at 6pm", "FREQ=MONTHLY;BYDAY=1WE,3WE;BYHOUR=18;BYMINUTE=0;BYSECOND=0"),
    ("the last weekday of every month at 5pm", f"FREQ=MONTHLY;BYDAY={WD};BYSETPOS=-1;BYHOUR=17;BYMINUTE=0;BYSECOND=0"),
    ("the first business day of every month at 9am", f"FREQ=MONTHLY;BYDAY={WD};BYSETPOS=1;BYHOUR=9;BYMINUTE=0;BYSECOND=0"),
    ("on the last working day of each month at 4:30pm", f"FREQ=MONTHLY;BYDAY={WD};BYSETPOS=-1;BYHOUR=16;BYMINUTE=30;BYSECOND=0"),
    ("on the last day of every month at 18:00", "FREQ=MONTHLY;BYMONTHDAY=-1;BYHOUR=18;BYMINUTE=0;BYSECOND=0"),
    ("every 2 months on the 15th at 9am", "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=15;BYHOUR=9;BYMINUTE=0;BYSECOND=0"),
    ("every 3 months on the 1st at 10am", "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1;BYHOUR=10;BYMINUTE=0;BYSECOND=0"),
    ("every year on March 3 at 8am", "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3;BYHOUR=8;BYMINUTE=0;BYSECOND=0"),
    ("every year on december 24 at 7pm", "FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=24;BYHOUR=19;BYMINUTE=0;BYSECOND=0"),
    ("every weekday at 9 except holidays", f"FREQ=WEEKLY;BYDAY={WD};BYHOUR=9;BYMINUTE=0;BYSECOND=0"),
    ("every monday at 8am except public holidays", "FREQ=WEEKLY;BYDAY=MO;BYHOUR=8;BYMINUTE=0;BYSECOND=0"),
    ("every weekday at 7:30am, excluding holidays", f"FREQ=WEEKLY;BYDAY={WD};BYHOUR=7;BYMINUTE=30;BYSECOND=0"),
    ("at 9am every other friday", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0"),
]
HOLIDAY_WORDS = ("except", "excluding")

# must not be a rule at confidence >= 0.5 (a cron line or a one-time time
# may be right, or nothing)
NEGATIVE = [
    "every monday at 9am", "every day at 7", "every weekday at 8:30am",
    "tomorrow at 9", "next friday at 3pm", "in 2 weeks", "every 2 hours",
    "the first monday of the month", "the last day of the month",
    "we meet every other tuesday at 9am", "I used to go there every other week",
    "every 2 weeks", "every other week", "every 3 weeks at 10am",
    "every second", "the 2nd and 4th floor are closed", "last friday we shipped",
    "every other time I try it fails", "on the first", "first thing monday",
    "twice a month", "every few weeks", "every now and then",
    "my 2nd and 4th tries failed", "the biweekly newsletter is out",
    "every once in a while", "the first monday was great",
    "the meeting was every other thursday", "every 1st of the month at 9am",
    "on the 15th of every month at noon", "every year", "every month",
    "every hour except holidays", "every other", "the third one",
    "once every blue moon", "we had the last friday of the month off",
    "every 2 days ago", "the second tuesday", "monthly on the 1st at 9am",
]


def iso(ms, tz):
    return dt.datetime.fromtimestamp(ms / 1000, ZoneInfo(tz)).isoformat()


def expand(rule, start_wall, tz, after_ms, count):
    zone = ZoneInfo(tz)
    out = []
    for wall in du.rrulestr(rule, dtstart=start_wall):
        ms = int(wall.replace(tzinfo=zone).timestamp() * 1000)
        if ms > after_ms and ms not in out:
            out.append(ms)
        if len(out) == count:
            break
    return out


def without_interval(rule):
    return ";".join(p for p in rule.split(";") if not p.startswith("INTERVAL="))


def expected(rule, tz, now):
    zone = ZoneInfo(tz)
    now_dt = dt.datetime.fromisoformat(now)
    now_ms = int(now_dt.timestamp() * 1000)
    wall_now = now_dt.astimezone(zone).replace(tzinfo=None, microsecond=0)
    first = expand(without_interval(rule), wall_now, tz, now_ms, 1)[0]
    start = dt.datetime.fromtimestamp(first / 1000, zone).replace(tzinfo=None)
    runs = expand(rule, start, tz, now_ms, N_NEXT)
    assert runs[0] == first, (rule, tz, now)
    return [iso(t, tz) for t in runs]


def main():
    rows = []
    for i, (phrase, rule) in enumerate(POSITIVE):
        for j in range(4):  # four zones and instants, shapes in turn
            tz, now = WHERE[(i * 3 + j * 7) % len(WHERE)]
            shape, rest = SHAPES[(i + j) % len(SHAPES)]
            task = TASKS[(i + 2 * j) % len(TASKS)]
            text = shape.format(p=phrase, t=task)
            row = {"id": f"rrule-{i + 1:02d}-{j + 1}", "text": text, "now": now, "tz": tz,
                   "expect": {"rrule": rule, "next": expected(rule, tz, now)},
                   "rest": rest.format(t=task)}
            if any(w in phrase for w in HOLIDAY_WORDS):
                row["expect"]["calendar"] = CALENDAR
            rows.append(row)
    for i, text in enumerate(NEGATIVE):
        tz, now = WHERE[i % len(WHERE)]
        rows.append({"id": f"not-rrule-{i + 1:02d}", "text": text, "now": now, "tz": tz,
                     "expect": {"rrule": False}})
    with open(OUT, "w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"{OUT}: {len(rows)} messages")


if __name__ == "__main__":
    main()
