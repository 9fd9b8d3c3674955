"""tests/py/agent/test_time_claim.py -- the time-claim check of the create
action (docs/create-action.md#the-time-claim-check): with the person's
message (source_text, <sourceText>, or the context's message) the create
reads the time it names with trigger_find_when's reader and refuses a
schedule that means another time, INVALID_SCHEDULE quoting both, the
rejected event keeping both. The classic model mistakes (a UTC/local
mix-up, an hour off across a DST change, tomorrow vs today, a weekday off
by one, an interval of another length) are refused; agreement (within
60 s, the day of a message that names no clock time, a message that names
no time or only a vague one) passes. Every success says "scheduleText"."""
import json

from util import connect, create, dump, events, one

NY = "America/New_York"
NOW = "2026-03-04T17:00:00Z"  # Wednesday 12:00 in New York
BEFORE_DST = "2026-03-07T17:00:00Z"  # Saturday; clocks go forward on Sunday
MSG = "remind me tomorrow at 9am to call Anna"


def ctx(now=NOW, **kw):
    return dict({"agent_id": "a1", "role": "owner", "now": now}, **kw)


def once(at, source=MSG, tz=NY, **kw):
    req = {"instructions": "call Anna", "trigger_type": "once", "scheduled_at": at,
           "timezone": tz, **kw}
    if source is not None:
        req["source_text"] = source
    return req


def cron(expr, source, tz=NY):
    return {"instructions": "standup", "trigger_type": "cron", "cron_expression": expr,
            "timezone": tz, "source_text": source}


def refused(r, reason):
    assert (r["success"], r["created"], r.get("error")) == (False, False, "INVALID_SCHEDULE"), r
    assert r["reason"] == reason + ": give the schedule the message means, or ask the person", r


def test_utc_local_mix_up(ext):
    db = connect(ext)
    before = dump(db)
    r = create(db, once("2026-03-05T09:00:00Z"), ctx())
    refused(r, "the message says 'tomorrow at 9am' (2026-03-05T09:00:00-05:00), the request "
               "says 2026-03-05T09:00:00Z (2026-03-05T04:00:00-05:00 in America/New_York)")
    assert dump(db) == before
    # the event keeps both times
    d = json.loads(events(db, "WHERE kind = 'rejected'")[0]["detail"])
    assert (d["message_phrase"], d["message_says"], d["request_says"]) == (
        "tomorrow at 9am", "2026-03-05T09:00:00-05:00",
        "2026-03-05T09:00:00Z (2026-03-05T04:00:00-05:00 in America/New_York)"), d
    # the corrected create
    r = create(db, once("2026-03-05T14:00:00Z"), ctx())
    assert r["created"], r
    assert r["scheduleText"] == ("Once on 2026-03-05 at 09:00 (America/New_York); "
                                 "first: Thursday 2026-03-05 at 09:00 (America/New_York)"), r
    # a local time with its offset is the same instant
    r = create(db, once("2026-03-05T09:00:00-05:00", instructions="x"), ctx())
    assert r["created"], r


def test_an_hour_off_across_dst(ext):
    db = connect(ext)
    # 9am on Sunday 2026-03-08 is EDT (-04:00): 13:00Z, not EST's 14:00Z
    r = create(db, once("2026-03-08T14:00:00Z"), ctx(BEFORE_DST))
    refused(r, "the message says 'tomorrow at 9am' (2026-03-08T09:00:00-04:00), the request "
               "says 2026-03-08T14:00:00Z (2026-03-08T10:00:00-04:00 in America/New_York)")
    assert create(db, once("2026-03-08T13:00:00Z"), ctx(BEFORE_DST))["created"]


def test_tomorrow_vs_today(ext):
    db = connect(ext)
    r = create(db, once("2026-03-04T20:00:00Z", source="call Anna tomorrow at 3pm"), ctx())
    refused(r, "the message says 'tomorrow at 3pm' (2026-03-05T15:00:00-05:00), the request "
               "says 2026-03-04T20:00:00Z (2026-03-04T15:00:00-05:00 in America/New_York)")
    # and the other way round, in UTC
    r = create(db, once("2026-03-05T18:00:00Z", source="today at 6pm: water the plants",
                        tz="UTC"), ctx())
    refused(r, "the message says 'today at 6pm' (2026-03-04T18:00:00Z), the request says "
               "2026-03-05T18:00:00Z")


def test_weekday_off_by_one(ext):
    db = connect(ext)
    r = create(db, cron("0 9 * * 2", "every monday at 9am standup"), ctx())
    refused(r, "the message says 'every monday at 9am' (At 09:00, only on Monday "
               "(America/New_York); first: Monday 2026-03-09 at 09:00 (America/New_York)), "
               "the request says At 09:00, only on Tuesday (America/New_York); first: "
               "Tuesday 2026-03-10 at 09:00 (America/New_York)")
    r = create(db, cron("0 9 * * 1", "every monday at 9am standup"), ctx())
    assert r["created"], r
    assert r["scheduleText"] == ("At 09:00, only on Monday (America/New_York); "
                                 "first: Monday 2026-03-09 at 09:00 (America/New_York)")
    # a one-time reading by the model of a recurring message: refused
    r = create(db, once("2026-03-09T13:00:00Z", source="every monday at 9am standup"), ctx())
    assert r.get("error") == "INVALID_SCHEDULE", r
    # read in the trigger's zone: in UTC the message means 09:00 UTC
    r = create(db, cron("0 9 * * 1", "every monday at 9am standup", tz="UTC"), ctx())
    assert r["created"], r
    r = create(db, cron("0 14 * * 1", "every monday at 9am sync", tz="UTC"), ctx())
    assert r.get("error") == "INVALID_SCHEDULE", r


def test_interval_of_another_length(ext):
    db = connect(ext)
    iv = {"instructions": "check the oven", "trigger_type": "interval",
          "source_text": "check the oven every 2 hours"}
    r = create(db, dict(iv, interval_ms=3600000), ctx())
    assert r.get("error") == "INVALID_SCHEDULE" and "'every 2 hours'" in r["reason"], r
    assert create(db, dict(iv, interval_ms=7200000), ctx())["created"]


def test_within_a_minute_agrees(ext):
    db = connect(ext)
    assert create(db, once("2026-03-05T14:00:59Z"), ctx())["created"]
    r = create(db, once("2026-03-05T14:01:01Z", instructions="y"), ctx())
    assert r.get("error") == "INVALID_SCHEDULE", r


def test_a_day_without_a_clock_time(ext):
    db = connect(ext)
    src = "remind me tomorrow to buy milk"
    # any time of that day: the person named none
    assert create(db, once("2026-03-05T20:00:00Z", source=src), ctx())["created"]
    r = create(db, once("2026-03-06T20:00:00Z", source=src, instructions="z"), ctx())
    refused(r, "the message says 'tomorrow' (Thursday 2026-03-05 (America/New_York)), the "
               "request says 2026-03-06T20:00:00Z (2026-03-06T15:00:00-05:00 in "
               "America/New_York)")


def test_no_time_or_a_vague_one_is_not_checked(ext):
    db = connect(ext)
    for i, src in enumerate(("call Anna", "at some point next week, call Anna",
                             "we met yesterday at 4pm, call Anna")):
        r = create(db, once("2026-03-06T20:00:00Z", source=src, instructions=f"c{i}"), ctx())
        assert r["created"], (src, r)


def test_the_message_from_the_context_or_xml(ext):
    db = connect(ext)
    r = create(db, once("2026-03-05T09:00:00Z", source=None), ctx(message=MSG))
    assert r.get("error") == "INVALID_SCHEDULE" and "'tomorrow at 9am'" in r["reason"], r
    # the request's source_text is the message when both are given
    r = create(db, once("2026-03-05T09:00:00Z", source="call Anna"), ctx(message=MSG))
    assert r["created"], r
    xml = ("<response><instructions>call Anna</instructions><triggerType>once</triggerType>"
           "<scheduledAtIso>2026-03-05T09:00:00Z</scheduledAtIso><timezone>America/New_York"
           "</timezone><sourceText>remind me tomorrow at 9am to call Anna</sourceText>"
           "</response>")
    r = create(db, xml.replace("call Anna<", "call Ben<"), ctx(), fn="trigger_create_xml")
    assert r.get("error") == "INVALID_SCHEDULE" and "'tomorrow at 9am'" in r["reason"], r
    r = create(db, xml.replace("09:00:00Z", "14:00:00Z").replace("call Anna<", "call Ben<"),
               ctx(), fn="trigger_create_xml")
    assert r["created"], r


def test_a_when_phrase_is_checked_too(ext):
    db = connect(ext)
    r = create(db, {"instructions": "call Anna", "when": "today at 9pm", "timezone": NY,
                    "source_text": "call Anna tomorrow at 9pm"}, ctx())
    assert r.get("error") == "INVALID_SCHEDULE", r
    assert r["reason"].startswith("the message says 'tomorrow at 9pm'"), r
    # when_text reads the message itself: nothing to compare
    r = create(db, {"when_text": MSG, "timezone": NY}, ctx(message=MSG))
    assert r["created"] and r["scheduleText"].startswith("Once on 2026-03-05 at 09:00"), r


def test_source_text_must_be_text_once(ext):
    db = connect(ext)
    r = create(db, once("2026-03-05T14:00:00Z", source=5), ctx())
    assert (r.get("error"), r["reason"]) == ("INVALID_REQUEST", "field 'source_text' must be text")
    r = create(db, dict(once("2026-03-05T14:00:00Z"), sourceText=MSG), ctx())
    assert (r.get("error"), r["reason"]) == ("INVALID_REQUEST", "field 'sourceText' is given twice")
    r = create(db, once("2026-03-05T14:00:00Z", source=None), ctx(message=5))
    assert r.get("error") == "INVALID_REQUEST" and "context.message" in r["reason"], r
    assert one(db, "SELECT count(*) FROM triggers") == 0


def test_schedule_text_of_each_type(ext):
    db = connect(ext)
    r = create(db, {"instructions": "poll", "trigger_type": "interval", "interval_ms": 900000},
               ctx())
    assert r["scheduleText"] == "Every 15 minutes; first: Wednesday 2026-03-04 at 17:15 (UTC)"
    r = create(db, {"instructions": "poll", "trigger_type": "interval", "interval_ms": 900000},
               ctx())  # a duplicate says it too
    assert not r["created"] and r["scheduleText"].startswith("Every 15 minutes"), r
    r = create(db, {"instructions": "poll", "trigger_type": "interval", "interval_ms": 900000},
               ctx(dry_run=True, scope="s"))
    assert r["dryRun"] and r["scheduleText"].startswith("Every 15 minutes"), r
    r = create(db, {"instructions": "x", "trigger_type": "interval", "interval_ms": 1},
               ctx())
    assert "scheduleText" not in r, r
