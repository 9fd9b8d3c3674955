"""tests/py/sql/test_when.py -- trigger_parse_when and
trigger_find_when (ext/sql/fn_when.c) on phrase forms beside those of
tests/unit/test_when.c: words glued to numbers ("at8", "mar3", "1h30m"), days and
months out of range or missing from the month, "next" with a unit or a
weekday, joiners inside words (':', '.', '\'', '-'), a leading '+', the
short and slash forms of a date, and the punctuation around a phrase
found inside a text. Each row: kind, due time, cron, matched text,
reason (and the rest of the text around a found phrase), at 2026-01-01T00:00:00Z in UTC."""
import json

from util import T0, connect, one

PARSE = [
    ('9am', ('once', '2026-01-01T09:00:00Z', None, '9am', None)),
    ('3rd', (None, None, None, None, "incomplete phrase: something is missing after 'rd'")),
    ('1h30m', ('once', '2026-01-01T01:30:00Z', None, '1h30m', None)),
    ('at8', (None, None, None, None, "put a blank between 'at' and '8'")),
    ('mar3', (None, None, None, None, "put a blank between 'mar' and '3'")),
    ('2mar', (None, None, None, None, "put a blank between '2' and 'mar'")),
    ('every 1h30m', (None, None, None, None, "cannot read '30' (word 4): the whole phrase must be a time this parser understands")),
    ('in 2h30m', ('once', '2026-01-01T02:30:00Z', None, 'in 2h30m', None)),
    ('in 1h 30', (None, None, None, None, "incomplete phrase: something is missing after '30'")),
    ('in 1h30', ('once', '2026-01-01T01:30:00Z', None, 'in 1h30', None)),  # minutes glued after hours
    ('on 13/5', ('once', '2026-05-13T00:00:00Z', None, 'on 13/5', None)),  # day first: no month 13
    ('on the 32nd', (None, None, None, None, 'day 32 is out of range 1-31')),
    ('on the 0th', (None, None, None, None, 'day 0 is out of range 1-31')),
    ('on the first', (None, None, None, None, "cannot read 'first' (word 3): the whole phrase must be a time this parser understands")),
    ('every month on the 31st', ('cron', '2026-01-31T00:00:00Z', '0 0 31 * *', 'every month on the 31st', None)),
    ('on 2/30', (None, None, None, None, 'february has no day 30')),
    ('on feb 30', (None, None, None, None, 'february has no day 30')),
    ('on 13/45', (None, None, None, None, 'month 13 is out of range 1-12')),
    ('next week', ('once', '2026-01-08T00:00:00Z', None, 'next week', None)),
    ('next month', ('once', '2026-02-01T00:00:00Z', None, 'next month', None)),
    ('next year', ('once', '2027-01-01T00:00:00Z', None, 'next year', None)),
    ('on feb 29', (None, None, None, None, 'february 29 does not exist in 2026 (not a leap year)')),
    ('on dec 31', ('once', '2026-12-31T00:00:00Z', None, 'on dec 31', None)),
    ('on jan 1', ('once', '2026-01-01T00:00:00Z', None, 'on jan 1', None)),
    ('9:30', ('once', '2026-01-01T09:30:00Z', None, '9:30', None)),
    ('reminder:tomorrow', (None, None, None, None, "cannot read 'reminder' (word 1): the whole phrase must be a time this parser understands")),
    ('at 9.30', ('once', '2026-01-01T09:30:00Z', None, 'at 9.30', None)),  # H.MM after 'at' is a clock time (docs/when.md)
    ('a.m', (None, None, None, None, "cannot read 'am' (word 1): the whole phrase must be a time this parser understands")),
    ('e.g. tomorrow', (None, None, None, None, "cannot read 'eg' (word 1): the whole phrase must be a time this parser understands")),
    ("tomorrow's", (None, None, None, None, "cannot read 'tomorrows' (word 1): the whole phrase must be a time this parser understands")),
    ('9am-5pm', (None, None, None, None, "cannot read 'pm' (word 5): the whole phrase must be a time this parser understands")),
    ('mon', ('once', '2026-01-05T00:00:00Z', None, 'mon', None)),
    ('monday', ('once', '2026-01-05T00:00:00Z', None, 'monday', None)),
    ('12/25', ('once', '2026-12-25T00:00:00Z', None, '12/25', None)),
    ('1/2', (None, None, None, None, "1/2 may be january 2 or 1 february: write the month's name")),
    ('+2h', ('once', '2026-01-01T02:00:00Z', None, '+2h', None)),
    ('x+2h', (None, None, None, None, "cannot read 'x' (word 1): the whole phrase must be a time this parser understands")),
    ('in +2h', (None, None, None, None, "cannot read '+' (word 2): the whole phrase must be a time this parser understands")),
    ('12.5', (None, None, None, None, "incomplete phrase: something is missing after '12.5'")),
    ('in 2.5 hours', ('once', '2026-01-01T02:30:00Z', None, 'in 2.5 hours', None)),
    ('tomorrow.', ('once', '2026-01-02T00:00:00Z', None, 'tomorrow', None)),
    ('on the 5', ('once', '2026-01-05T00:00:00Z', None, 'on the 5', None)),
    ('the 5th', ('once', '2026-01-05T00:00:00Z', None, 'the 5th', None)),
    ('on the 5th of march', ('once', '2026-03-05T00:00:00Z', None, 'on the 5th of march', None)),
    ('every 29th', (None, None, None, None, "incomplete phrase: something is missing after 'th'")),
    ('every feb 30', (None, None, None, None, "cannot read 'feb' (word 2): the whole phrase must be a time this parser understands")),
    ('on march the 3rd', (None, None, None, None, "cannot read 'the' (word 3): the whole phrase must be a time this parser understands")),
    ('on the 31st of april', (None, None, None, None, 'april has no day 31')),
    ('next mon', ('once', '2026-01-05T00:00:00Z', None, 'next mon', None)),
    ('next 3rd', (None, None, None, None, "cannot read '3' (word 2): the whole phrase must be a time this parser understands")),
]
FIND = [
    ('remind me, tomorrow at 9am; thanks', ('once', '2026-01-02T09:00:00Z', None, 'tomorrow at 9am', None, '')),
    ('ping: in 2h!', ('once', '2026-01-01T02:00:00Z', None, 'in 2h', None, 'ping!')),
    ('x+2h later', (None, None, None, None, "'later' is vague: say when ('in 2 hours', 'at 5pm')", None)),
    ('check it +2h', ('once', '2026-01-01T02:00:00Z', None, '+2h', None, 'check it')),
    ('do it tomorrow. ok', ('once', '2026-01-02T00:00:00Z', None, 'tomorrow', None, 'do it.')),
    ('do it tomorrow? ok', ('once', '2026-01-02T00:00:00Z', None, 'tomorrow', None, 'do it?')),
    ('call mom tomorrow , please', ('once', '2026-01-02T00:00:00Z', None, 'tomorrow', None, 'call mom')),
    ('a.m. tomorrow', ('once', '2026-01-02T00:00:00Z', None, 'tomorrow', None, 'a.m.')),
    ('at 9am-5pm daily', (None, None, None, None, "cannot read '9am-5pm' next to the time: say the whole time plainly", None)),
    ('on 12/25 buy', ('once', '2026-12-25T00:00:00Z', None, 'on 12/25', None, 'buy')),
    ('email x:tomorrow', ('once', '2026-01-02T00:00:00Z', None, 'tomorrow', None, 'email x')),
]


def check(db, fn, cases):
    for phrase, want in cases:
        r = json.loads(one(db, f"SELECT {fn}(?, ?, 'UTC')", phrase, T0))
        got = (r["kind"], r["due_at_iso"], r["cron"], r["matched"], r["reason"])
        if "find" in fn:
            got += (r["rest"],)
        assert got == want, (phrase, got)


def test_parse_when_forms(ext):
    check(connect(ext, install=False), "trigger_parse_when", PARSE)


def test_find_when_forms(ext):
    check(connect(ext, install=False), "trigger_find_when", FIND)
