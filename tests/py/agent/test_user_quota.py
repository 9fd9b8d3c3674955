"""tests/py/agent/test_user_quota.py -- per-user quotas of trigger_create: with
context.user_id, max_active_per_user active triggers of the user in the
agent (any scope) and max_creations_per_window creations by the user
within creation_window_ms; each at its exact limit (limit - 1 existing:
created; limit: refused, the reason naming the per-user limit). The user
is kept in the trigger's metadata.user_id."""
import json

from util import T0, MIN, connect, dump, one

HOUR = 60 * MIN


def create(db, ins, user=None, scope="", now=T0, agent="a1", **req):
    ctx = {"agent_id": agent, "scope": scope, "role": "owner", "now": now}
    if user is not None:
        ctx["user_id"] = user
    body = {"instructions": ins}
    if "when" not in req:
        body.update(trigger_type="interval", interval_ms=15 * MIN)
    body.update(req)
    return json.loads(one(db, "SELECT trigger_create(?, ?)", json.dumps(body), json.dumps(ctx)))


def test_max_active_per_user_at_its_limit(ext):
    db = connect(ext)
    assert one(db, "SELECT trigger_config('max_active_per_user')") == 20  # the default
    one(db, "SELECT trigger_config('max_active_per_user', 3)")
    # the user's triggers in two scopes: both count
    assert create(db, "one", "u1", scope="s1")["created"]
    assert create(db, "two", "u1", scope="s2")["created"]
    r = create(db, "three", "u1", scope="s1")  # limit - 1 active: created
    assert r["created"], r
    before = dump(db)
    r = create(db, "four", "u1", scope="s3")  # limit active: refused
    assert r["success"] is False and r["error"] == "TRIGGER_QUOTA_EXCEEDED", r
    assert r["reason"] == ("3 active triggers of user 'u1' in this agent "
                           "(max_active_per_user 3)"), r
    assert dump(db) == before
    # another user, no user, another agent: not this user's count
    assert create(db, "four", "u2", scope="s3")["created"]
    assert create(db, "five", scope="s3")["created"]
    assert create(db, "four", "u1", scope="s3", agent="a2")["created"]
    # a duplicate is still answered (no new trigger: no quota)
    dup = create(db, "one", "u1", scope="s1")
    assert dup["success"] and dup["created"] is False, dup
    # a cancelled trigger is not active: room for one more
    tid = one(db, "SELECT trigger_id FROM triggers WHERE instructions = 'two'")
    one(db, "SELECT trigger_cancel(?, ?)", tid, T0)
    assert create(db, "seven", "u1", scope="s3")["created"]
    assert create(db, "eight", "u1")["error"] == "TRIGGER_QUOTA_EXCEEDED"


def test_creation_window_per_user_at_its_limit(ext):
    db = connect(ext)
    one(db, "SELECT trigger_config('max_creations_per_window', 3)")
    one(db, "SELECT trigger_config('creation_window_ms', ?)", HOUR)
    # each in its own scope: the (agent, scope) window never fills
    assert create(db, "a", "u1", scope="s1", now=T0)["created"]
    assert create(db, "b", "u1", scope="s2", now=T0 + 1)["created"]
    cur = create(db, "c", "u1", scope="s3", now=T0 + 2)  # limit - 1 in the window
    assert cur["created"], cur
    one(db, "SELECT trigger_cancel(?, ?)", cur["triggerId"], T0 + 3)  # still created
    r = create(db, "d", "u1", scope="s4", now=T0 + 3)  # limit in the window
    assert r["error"] == "TRIGGER_QUOTA_EXCEEDED", r
    assert r["reason"] == (f"3 triggers created by user 'u1' in the last {HOUR} ms "
                           "(max_creations_per_window 3, per user)"), r
    assert create(db, "d2", "u2", scope="s4", now=T0 + 3)["created"]
    # the window is (now - creation_window_ms, now]: the first creation
    # leaves it when the hour is over
    r = create(db, "d", "u1", scope="s4", now=T0 + HOUR - 1)
    assert r["error"] == "TRIGGER_QUOTA_EXCEEDED", r
    assert create(db, "d", "u1", scope="s4", now=T0 + HOUR)["created"]


def test_user_kept_in_metadata(ext):
    db = connect(ext)
    r = create(db, "x", "u1", metadata={"user_id": "someone else", "k": 1})
    meta = json.loads(one(db, "SELECT metadata FROM triggers WHERE trigger_id = ?",
                          r["triggerId"]))
    assert meta == {"user_id": "u1", "k": 1}, meta
    r = create(db, "y", "u1", when="in 20 minutes")
    meta = json.loads(one(db, "SELECT metadata FROM triggers WHERE trigger_id = ?",
                          r["triggerId"]))
    assert meta["user_id"] == "u1" and meta["when"]["phrase"] == "in 20 minutes", meta
    # without a user the metadata is the request's
    r = create(db, "z", metadata={"k": 2})
    assert one(db, "SELECT metadata FROM triggers WHERE trigger_id = ?",
               r["triggerId"]) == '{"k":2}'
    # a stored metadata that is not JSON (written behind the extension's
    # back) is no user's and fails nothing
    db.execute("UPDATE triggers_data SET metadata = '{bad' WHERE instructions = 'z'")
    assert create(db, "w", "u1")["created"]


def test_a_request_never_counts_as_a_user(ext):
    # issue 32: without a context user_id, a request's own metadata.user_id
    # was stored and counted as that user's, so an agent could use up
    # another user's quota. The user is the context's: a request's
    # metadata.user_id is dropped (listed in "ignored"), however spelled.
    db = connect(ext)
    one(db, "SELECT trigger_config('max_active_per_user', 2)")
    one(db, "SELECT trigger_config('max_creations_per_window', 50)")
    spoofs = [{"user_id": "victim"}, {"user\\u005fid": "victim", "k": 1}]
    for i in range(4):
        meta = spoofs[i % 2]
        # metadata as JSON text, so an escaped key reaches the action as sent
        text = json.dumps(meta).replace("\\\\", "\\")
        r = create(db, f"spoof {i}", metadata=text)
        assert r["created"] and r["ignored"] == ["metadata.user_id"], r
        stored = one(db, "SELECT metadata FROM triggers WHERE trigger_id = ?", r["triggerId"])
        assert "victim" not in stored and "user" not in json.loads(stored), stored
    # another user of the same agent, too: only the context counts
    r = create(db, "spoof as u2", "u2", metadata={"user_id": "victim"})
    assert r["created"] and r["ignored"] == ["metadata.user_id"], r
    # the victim's own quota is untouched: two, then the limit
    assert create(db, "mine 1", "victim")["created"]
    assert create(db, "mine 2", "victim")["created"]
    r = create(db, "mine 3", "victim")
    assert r["error"] == "TRIGGER_QUOTA_EXCEEDED", r
    # the stored metadata agrees with the count, for any reader
    users = [json.loads(m).get("user_id") for (m,) in
             db.execute("SELECT metadata FROM triggers WHERE metadata IS NOT NULL")]
    assert sorted(u for u in users if u) == ["u2", "victim", "victim"], users


def test_metadata_keys_given_twice_are_refused(ext):
    # readers disagree on which of two equal keys counts (SQLite's
    # json_extract reads the first, Python the last): such metadata is
    # refused, escapes decoded, and nothing is written but the event
    db = connect(ext)
    before = dump(db)
    for text, key in (('{"user_id":"me","user_id":"victim"}', "user_id"),
                      ('{"a":1,"b":2,"a":3}', "a"),
                      ('{"user_id":"x","user\\u005fid":"y"}', "user_id")):
        for user in (None, "u1"):
            r = create(db, "dup", user, metadata=text)
            assert (r["error"], r["reason"]) == (
                "INVALID_REQUEST", f"metadata: key '{key}' is given twice (readers "
                "disagree on which one counts)"), r
    assert dump(db) == before
    # the same key in two nested objects is no duplicate
    assert create(db, "nested", metadata={"a": {"k": 1}, "b": {"k": 2}})["created"]
