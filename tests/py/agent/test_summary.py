"""tests/py/agent/test_summary.py -- trigger_state_summary / trigger_state_payload
(ext/agent/fn_summary.c, docs/summary.md): segments and payload keys, caps (default,
lowered, clamped), truncation order, stale items, the conflict marker,
determinism, redaction, the fallback, the confidence rule, and a stress
case (100k runs, 5k admin items) whose cost is shown bounded two ways:
every statement the function runs (captured with the trace callback, so
no copy of its SQL lives here) has an index plan, and its VM step count
is the same with 1k and with 100k runs."""
import json
import re
import sqlite3

from util import MIN, T0, add, connect, finish, one, tick, vm_steps

FALLBACK = "Admin context temporarily unavailable; continue with latest autonomous objective."
NOW = T0 + 10 * MIN


def summary(db, agent="a1", now=NOW, **opts):
    return one(db, "SELECT trigger_state_summary(?, ?, ?)", agent, now, json.dumps(opts))


def payload(db, agent="a1", now=NOW, **opts):
    return json.loads(one(db, "SELECT trigger_state_payload(?, ?, ?)", agent, now, json.dumps(opts)))


def item(ts, text, resolved=False):
    return {"ts": ts, "text": text, "resolved": resolved}


def segments(text):
    """The text's segments by their first word (Admin, Loop, Pending, As)."""
    return {s.split(None, 1)[0].rstrip(":"): s for s in text.split("\n\n")}


def blen(s):
    return len(s.encode("utf-8"))


def scenario(db):
    """a1: 'build' succeeds every minute, 'market' fails at minute 3
    (retry pending), 'old' is paused; another agent's runs must not show."""
    add(db, "build", agent_id="a1", display_name="Check the build")
    add(db, "market", agent_id="a1", instructions="Summarize overnight market moves",
        max_attempts=3, backoff_ms=10 * MIN)
    add(db, "other", agent_id="a2", instructions="someone else's job")
    for k in range(1, 4):
        for r in tick(db, T0 + k * MIN):
            failed = r["trigger_id"] == "market" and k == 3
            finish(db, r["run_id"], "failed" if failed else "success",
                   "HTTP 503 from upstream" if failed else None, T0 + k * MIN + 500)


def test_segments_and_payload(ext):
    db = connect(ext)
    scenario(db)
    text = summary(db, admin=[item(T0 + MIN, "Review PR 42")])
    seg = segments(text)
    assert list(seg) == ["Admin", "Loop", "Pending", "As"], text
    assert seg["Admin"] == "Admin:\n- [open 2026-01-01T00:01:00Z] Review PR 42"
    loop = seg["Loop"].split("\n")
    assert loop[1] == ("- last failure 2026-01-01T00:03:00.500Z Summarize overnight market moves"
                       " (market); cooldown: retry at 2026-01-01T00:13:00.500Z;"
                       " error: HTTP 503 from upstream"), loop
    assert loop[2] == "- ok 2026-01-01T00:03:00.500Z Check the build (build)"
    assert len(loop) == 5 and "someone else" not in text
    pend = seg["Pending"].split("\n")
    assert pend[1] == "- 2026-01-01T00:04:00Z Check the build (build) (overdue)", pend
    assert seg["As"] == ("As of 2026-01-01T00:10:00Z; newest admin item 2026-01-01T00:01:00Z;"
                         " newest run 2026-01-01T00:03:00.500Z.")
    p = payload(db, admin=[item(T0 + MIN, "Review PR 42")])
    assert list(p) == ["mode", "adminSummary", "loopSummary", "pendingItems", "hints",
                       "confidence"]
    assert p["hints"] == [] and "Hints" not in seg
    assert p["mode"] == "autonomous" and p["confidence"] == "high"
    assert p["adminSummary"] == seg["Admin"] and p["loopSummary"] == seg["Loop"]
    assert [x["triggerId"] for x in p["pendingItems"]] == ["build", "market"]
    assert p["pendingItems"][0] == {"triggerId": "build", "displayName": "Check the build",
                                    "nextDueAt": T0 + 4 * MIN,
                                    "nextDueIso": "2026-01-01T00:04:00Z"}


def test_empty_agent_and_defaults(ext):
    db = connect(ext)
    text = one(db, "SELECT trigger_state_summary('nobody', ?)", NOW)
    assert text == ("Admin: no current directives.\n\nLoop: no finished runs yet.\n\n"
                    "Pending: nothing scheduled.\n\nAs of 2026-01-01T00:10:00Z; no finished runs.")
    # now and options are optional; the wall clock is read without now
    assert one(db, "SELECT trigger_state_summary('nobody')").startswith("Admin:")
    assert one(db, "SELECT trigger_state_summary('nobody', NULL, NULL)").startswith("Admin:")
    assert json.loads(one(db, "SELECT trigger_state_payload('nobody')"))["confidence"] == "high"


def test_cooldown_variants(ext):
    db = connect(ext)
    add(db, "p", agent_id="a1", pause_after_failures=1)
    [r] = tick(db, T0 + MIN)
    finish(db, r["run_id"], "failed", "boom", T0 + MIN + 1)
    assert "(p); cooldown: trigger paused; error: boom" in summary(db)
    db.execute("SELECT trigger_resume('p', ?)", (T0 + 2 * MIN,))
    assert "cooldown: next run 2026-01-01T00:03:00Z" in summary(db)
    db.execute("DELETE FROM triggers WHERE trigger_id = 'p'")
    assert "- last failure 2026-01-01T00:01:00.001Z p (deleted trigger); cooldown: none;" in summary(db)


def test_success_note_and_streak(ext):
    db = connect(ext)
    add(db, "t", agent_id="a1")
    for k in range(1, 4):
        [r] = tick(db, T0 + k * MIN)
        finish(db, r["run_id"], "failed", f"err {k}", T0 + k * MIN + 1)
    [r] = tick(db, T0 + 4 * MIN)
    finish(db, r["run_id"], "success", "posted 3 items", T0 + 4 * MIN + 1)
    text = summary(db)
    assert "; 3 consecutive failures" not in text  # the streak ended with the success
    assert "- ok 2026-01-01T00:04:00.001Z do t (t): posted 3 items" in text
    assert "error: err 3" in text


def test_caps_default_lowered_and_clamped(ext):
    db = connect(ext)
    scenario(db)
    admin = [item(T0 + i, f"directive number {i} " + "x" * 150) for i in range(200)]
    text = summary(db, admin=admin)
    seg = segments(text)
    assert blen(text) <= 1500 and blen(seg["Admin"]) <= 900
    assert blen(seg["Loop"]) <= 400 and blen(seg["As"]) <= 200
    # options larger than the hard limits are clamped: same bytes
    assert summary(db, admin=admin, max_total=10**9, max_admin=5000, max_loop=5000,
                   max_footer=5000) == text
    for caps in [dict(max_total=700), dict(max_admin=300), dict(max_loop=120),
                 dict(max_footer=40), dict(max_total=300, max_admin=100, max_loop=100),
                 dict(max_total=0), dict(max_admin=0, max_loop=0, max_footer=0)]:
        t = summary(db, admin=admin, **caps)
        s = segments(t) if t else {}
        assert blen(t) <= caps.get("max_total", 1500), (caps, t)
        assert blen(s.get("Admin", "")) <= caps.get("max_admin", 900), (caps, t)
        assert blen(s.get("Loop", "")) <= caps.get("max_loop", 400), (caps, t)
        assert blen(s.get("As", "")) <= caps.get("max_footer", 200), (caps, t)
        p = payload(db, admin=admin, **caps)
        assert p["adminSummary"] == s.get("Admin", "") and p["loopSummary"] == s.get("Loop", "")
        assert p["confidence"] == "medium", (caps, p)


def test_truncation_order(ext):
    db = connect(ext)
    admin = [
        item(T0 + 1 * MIN, "oldest open"),
        item(T0 + 5 * MIN, "newest resolved", True),
        item(T0 + 3 * MIN, "middle open"),
        item(T0 + 2 * MIN, "old resolved", True),
        item(T0 + 4 * MIN, "newest open"),
    ]
    lines = segments(summary(db, admin=admin))["Admin"].split("\n")[1:]
    assert [l.split("] ", 1)[1] for l in lines] == [
        "newest open", "middle open", "oldest open", "newest resolved", "old resolved"]
    # a lower cap drops from the end of that order: oldest resolved first
    full = segments(summary(db, admin=admin))["Admin"]
    for keep in (4, 3, 2, 1):
        cap = len("\n".join(full.split("\n")[:1 + keep])) + 40
        seg = segments(summary(db, admin=admin, max_admin=cap))["Admin"]
        got = seg.split("\n")
        assert got[1:1 + keep] == full.split("\n")[1:1 + keep], (keep, seg)
        more = 5 - keep
        assert got[-1] == f"(+{more} more admin item{'s' if more > 1 else ''} omitted)", seg
    # the newest open item is cut to fit rather than dropped
    long = [item(T0 + 9 * MIN, "deploy the new release " * 20), item(T0, "older")]
    seg = segments(summary(db, admin=long, max_admin=120))["Admin"]
    assert blen(seg) <= 120 and seg.split("\n")[1].endswith("...")
    # (cut to leave room for an omission note; the older item fits there,
    # so it is shown: later items are shown while they fit)
    assert seg.endswith("] older"), seg
    seg = segments(summary(db, admin=long + [item(T0 - 1, "oldest")], max_admin=120))["Admin"]
    assert blen(seg) <= 120 and seg.endswith("(+2 more admin items omitted)"), seg
    # ties on ts: the later array element counts as newer
    tie = [item(T0, "first given"), item(T0, "second given")]
    assert segments(summary(db, admin=tie))["Admin"].split("\n")[1].endswith("second given")


def test_an_item_that_does_not_fit_ends_the_segment(ext):
    """The omitted items are the tail of the order: after the first item
    that does not fit, a shorter one further down is not shown in its
    place (the summary never skips over a more important item)."""
    db = connect(ext)
    admin = [item(T0 + 3, "short first"), item(T0 + 2, "long " + "x" * 150),
             item(T0 + 1, "short third")]
    full = segments(summary(db, admin=admin))["Admin"]
    first, second, third = full.split("\n")[1:]
    # room for the first and the third with the note, not for the second
    cap = blen("\n".join(["Admin:", first, third])) + 40
    assert cap < blen("\n".join(["Admin:", first, second]))
    seg = segments(summary(db, admin=admin, max_admin=cap))["Admin"]
    assert seg.split("\n")[1:] == [first, "(+2 more admin items omitted)"], seg


def test_latest_failure_always_kept(ext):
    db = connect(ext)
    add(db, "f", agent_id="a1", display_name="Flaky")
    add(db, "s", agent_id="a1", display_name="Steady")
    for r in tick(db, T0 + MIN):
        failed = r["trigger_id"] == "f"
        finish(db, r["run_id"], "failed" if failed else "success",
               "timeout " * 8 if failed else None, T0 + MIN + 1)
    db.execute("SELECT trigger_pause('f', ?)", (T0 + MIN + 2,))
    for k in range(2, 6):  # successes newer than the failure
        for x in tick(db, T0 + k * MIN):
            finish(db, x["run_id"], "success", None, T0 + k * MIN + 1)
    full = segments(summary(db))["Loop"].split("\n")
    assert full[1].startswith("- last failure 2026-01-01T00:01:00.001Z Flaky (f)")
    assert len(full) == 5
    for cap in (400, 250, 120, 60):
        loop = segments(summary(db, max_loop=cap))["Loop"]
        assert blen(loop) <= cap
        assert loop.split("\n")[1].startswith("- last failure 2026-01-01T00:01:00.001Z"), loop
    assert "- ok" not in segments(summary(db, max_loop=120))["Loop"]


def test_stale_items(ext):
    db = connect(ext)
    admin = [item(NOW - 3 * MIN, "old news"), item(NOW - MIN, "fresh"),
             item("2026-01-01T00:05:00Z", "iso ts")]
    text = summary(db, admin=admin, stale_ms=2 * MIN)
    assert "old news" not in text and "fresh" in text and "iso ts" not in text
    assert "; 2 stale admin items ignored." in text
    assert payload(db, admin=admin, stale_ms=2 * MIN)["confidence"] == "medium"
    # all stale: nothing current, and confidence low
    text = summary(db, admin=admin, stale_ms=0)
    assert segments(text)["Admin"] == "Admin: no current directives."
    assert payload(db, admin=admin, stale_ms=0)["confidence"] == "low"
    # without stale_ms nothing is dropped
    assert "old news" in summary(db, admin=admin)


def test_numeric_options_accept_integral_reals(ext):
    # 1500.0 is 1500, as for every other numeric argument; 1.5 is not.
    db = connect(ext)
    scenario(db)
    admin = [item(NOW - 3 * MIN, "old news " + "x" * 300), item(NOW - MIN, "fresh " + "y" * 300)]
    for ints in [dict(max_total=700), dict(max_admin=120, max_loop=100, max_footer=60),
                 dict(stale_ms=2 * MIN), dict(max_total=10**9, stale_ms=0)]:
        reals = {k: float(v) for k, v in ints.items()}
        assert json.dumps(reals) != json.dumps(ints)
        want = summary(db, admin=admin, **ints)
        assert want != FALLBACK
        assert summary(db, admin=admin, **reals) == want, reals
        assert payload(db, admin=admin, **reals) == payload(db, admin=admin, **ints)
    for bad in ("{\"max_total\":1.5}", "{\"stale_ms\":1e300}", "{\"max_loop\":-1.0}"):
        assert one(db, "SELECT trigger_state_summary('a1', ?, ?)", NOW, bad) == FALLBACK, bad


def test_conflict_marker(ext):
    db = connect(ext)
    admin = [
        item(T0 + 1 * MIN, "Deploy: hold until QA signs off"),
        item(T0 + 3 * MIN, "deploy: go ahead"),
        item(T0 + 2 * MIN, "deploy : wait for Friday", True),
        item(T0 + 2 * MIN, "budget: 10 USD per day"),
        item(T0 + 4 * MIN, "budget: 10 USD per day"),  # same text: a duplicate, no conflict
        item(T0 + 5 * MIN, "see https://example.com: not a topic"),
        item(T0 + 6 * MIN, "at 10:30 do the thing"),
    ]
    seg = segments(summary(db, admin=admin))["Admin"]
    lines = seg.split("\n")[1:]
    assert lines == [
        "- [open 2026-01-01T00:06:00Z] at 10:30 do the thing",
        "- [open 2026-01-01T00:05:00Z] see https://example.com: not a topic",
        "- [open 2026-01-01T00:04:00Z] budget: 10 USD per day",
        "- [open 2026-01-01T00:03:00Z] deploy: go ahead [conflict: overrides 2 earlier]",
    ], lines
    assert payload(db, admin=admin)["confidence"] == "low"
    dup = [item(T0, "budget: 10 USD"), item(T0 + 1, "budget: 10 USD")]
    assert payload(db, admin=dup)["confidence"] == "high"
    assert "conflict" not in summary(db, admin=dup)
    # last write wins even when the newest is resolved
    res = [item(T0, "deploy: hold"), item(T0 + 1, "deploy: done", True)]
    assert segments(summary(db, admin=res))["Admin"].split("\n")[1:] == [
        "- [resolved 2026-01-01T00:00:00.001Z] deploy: done [conflict: overrides 1 earlier]"]


def test_same_inputs_same_bytes(ext):
    admin = [item(T0 + (i * 7919) % 5000, f"item {i}", i % 3 == 0) for i in range(300)]
    outs = []
    for _ in range(2):
        db = connect(ext)
        scenario(db)
        a = summary(db, admin=admin)
        assert summary(db, admin=admin) == a
        outs.append((a, one(db, "SELECT trigger_state_payload('a1', ?, ?)", NOW,
                            json.dumps({"admin": admin}))))
    assert outs[0] == outs[1]


def test_redaction_in_output(ext):
    db = connect(ext)
    secret = "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx1234"
    add(db, "ghp_abcdefghijklmnopqrstuvwxyz0123456789", agent_id="a1",
        display_name=f"call api with {secret}")
    add(db, "t2", agent_id="a1", instructions="login with password=hunter2 please")
    for r in tick(db, T0 + MIN):
        st = "failed" if r["trigger_id"] == "t2" else "success"
        finish(db, r["run_id"], st,
               "401: Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2ln", T0 + MIN + 1)
    admin = [item(T0, "new key is AKIAIOSFODNN7EXAMPLE, token=abc123"),
             item(T0 + 1, "-----BEGIN RSA PRIVATE KEY-----\nMIIE\n-----END RSA PRIVATE KEY----- installed")]
    text = summary(db, admin=admin)
    p = one(db, "SELECT trigger_state_payload('a1', ?, ?)", NOW, json.dumps({"admin": admin}))
    for out in (text, p):
        for leak in (secret, "hunter2", "eyJhbGci", "AKIAIOSFODNN7EXAMPLE", "abc123", "MIIE",
                     "ghp_abc"):
            assert leak not in out, (leak, out)
    assert "[REDACTED] installed" in text and "token=[REDACTED]" in text
    assert "password=[REDACTED] please" in text and "Bearer [REDACTED]" in text
    assert "call api with [REDACTED] ([REDACTED])" in text


# Admin texts holding secrets of every redaction family (docs/summary.md,
# "Redaction"): what must not be shown, and what around it must be.
SECRET_ITEMS = [
    ("the password: swordfish", ["swordfish"], "the password: [REDACTED]"),
    ("site https://bob:p@ssw0rd@example.com/x", ["p@ss", "ssw0rd"],
     "https://bob:[REDACTED]@example.com/x"),
    ("cache redis://:R3disPass@cache:6379", ["R3disPass"], "redis://:[REDACTED]@cache"),
    ('config {\\"password\\": \\"tr0ub4dor\\"}', ["tr0ub4dor"],
     'config {\\"password\\": \\"[REDACTED]\\"}'),
    ("gpg -----BEGIN PGP PRIVATE KEY BLOCK-----\nlQOYBGXkeymaterial\n"
     "-----END PGP PRIVATE KEY BLOCK----- done", ["lQOYBGX", "keymaterial", "BEGIN PGP"],
     "gpg [REDACTED] done"),
    ("aws AKIAIOSFODNN7EXAMPLE wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
     ["AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI"], "aws [REDACTED] [REDACTED]"),
    ("Authorization: Basic dXNlcjpwYXNz", ["dXNlcjpwYXNz"], "Basic [REDACTED]"),
    ("db Server=x;Uid=u;Pwd=s3cretPwd;", ["s3cretPwd"], "Pwd=[REDACTED];"),
    ("env DB_PASS=hunter2 and export GITHUB_TOKEN=abc123tok", ["hunter2", "abc123tok"],
     "DB_PASS=[REDACTED]"),
    ("azure AccountKey=Zm9vYmFyYmF6+/==;EndpointSuffix=x", ["Zm9vYmFy"],
     "AccountKey=[REDACTED];EndpointSuffix=x"),
    ("mail SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyzABCDEFGHIJ-_0123",
     ["SG.abc", "ABCDEFGHIJ"], "mail [REDACTED]"),
    ("twilio SK0123456789abcdef0123456789abcdef "
     "AC0123456789abcdef0123456789abcdef:fedcba9876543210fedcba9876543210",
     ["SK0123", "fedcba98"], "twilio [REDACTED] AC"),
    ("bot MTk4NjIyNDgzNDcxOTI1MjQ4.Cl2FMQ.ZnCjm1XVW7vRze4b7Cq4se7kKWs",
     ["MTk4NjIy", "ZnCjm1"], "bot [REDACTED]"),
    ("slack xoxb-123456789012-abcdefghij xapp-1-A012345-678-abcdef0123 "
     "https://hooks.slack.com/services/T000/B000/XXXXXXXXXXXX",
     ["xoxb-", "xapp-", "XXXXXXXX"], "hooks.slack.com/services/[REDACTED]"),
    ("key OPENAI_KEY_sk-abcdefghijklmnopqrstuvwxyz", ["sk-", "abcdefghijklmnop"],
     "OPENAI_KEY_[REDACTED]"),
    ("full-width \uff53\uff4b\uff0dabcdefghijklmnopqrstuvwxyz0123",
     ["abcdefghijklmnop", "\uff53\uff4b"], "full-width [REDACTED]"),
    ("zero-width sk-abc\u200bdefghijklmnop\u2060qrstuvwxyz",
     ["defghijklmnop", "qrstuvwxyz"], "zero-width [REDACTED]"),
]


def test_redaction_of_every_secret_family(ext):
    """Several secrets per call (four admin items, all shown: nothing is
    omitted, so an unredacted secret could not hide behind a cap)."""
    db = connect(ext)
    for k in range(0, len(SECRET_ITEMS), 4):
        group = SECRET_ITEMS[k:k + 4]
        admin = [item(T0 + j, text) for j, (text, _, _) in enumerate(group)]
        text = summary(db, admin=admin)
        p = one(db, "SELECT trigger_state_payload('a1', ?, ?)", NOW, json.dumps({"admin": admin}))
        assert "omitted" not in text and text != FALLBACK, text
        for out in (text, json.loads(p)["adminSummary"]):
            for src, leaks, shown in group:
                assert shown in out, (shown, out)
                for leak in leaks:
                    assert leak not in out, (leak, out)
        assert "keep calm" in summary(db, admin=[item(T0, "Secret: keep calm, password reset link sent")])


def test_fallback_on_any_failure(ext):
    db = connect(ext)
    scenario(db)
    bad_options = [
        "not json", "[1,2]", '"text"', "{\"unknown\":1}", "{\"stale_ms\":-1}",
        "{\"stale_ms\":\"1h\"}", "{\"max_total\":1.5}", "{\"max_admin\":-5}",
        "{\"admin\":{}}", "{\"admin\":[1]}", "{\"admin\":[\"text\"]}",
        "{\"admin\":[{\"text\":\"no ts\"}]}", "{\"admin\":[{\"ts\":1}]}",
        "{\"admin\":[{\"ts\":1,\"text\":5}]}", "{\"admin\":[{\"ts\":\"yesterday\",\"text\":\"x\"}]}",
        "{\"admin\":[{\"ts\":true,\"text\":\"x\"}]}",
        "{\"admin\":[{\"ts\":1,\"text\":\"x\",\"resolved\":\"yes\"}]}",
    ]
    for opts in bad_options:
        assert one(db, "SELECT trigger_state_summary('a1', ?, ?)", NOW, opts) == FALLBACK, opts
        p = json.loads(one(db, "SELECT trigger_state_payload('a1', ?, ?)", NOW, opts))
        assert p == {"mode": "autonomous", "adminSummary": FALLBACK, "loopSummary": "",
                     "pendingItems": [], "hints": [], "confidence": "low"}, opts
    for agent, now, opts in [(None, NOW, "{}"), ("a1", "not a time", "{}"), ("a1", NOW, b"{}"),
                             ("a1", NOW, 42), ("a1", b"\x00", None)]:
        got = one(db, "SELECT trigger_state_summary(?, ?, ?)", agent, now, opts)
        assert got == FALLBACK, (agent, now, opts)
    # not installed: the fallback, not an error
    bare = connect(ext, install=False)
    assert one(bare, "SELECT trigger_state_summary('a1', ?)", NOW) == FALLBACK
    # the argument count is SQLite's own error
    for sql in ("SELECT trigger_state_summary()", "SELECT trigger_state_payload('a', 1, '{}', 4)"):
        try:
            db.execute(sql)
            assert False, sql
        except sqlite3.OperationalError as e:
            assert "wrong number of arguments" in str(e), e
    # an INSERT .. SELECT works and leaves no transaction open
    db.execute("CREATE TABLE log(x)")
    db.execute("INSERT INTO log SELECT trigger_state_summary('a1', ?)", (NOW,))
    assert one(db, "SELECT x FROM log").startswith("Admin:") and not db.in_transaction


def test_confidence_rule(ext):
    db = connect(ext)
    scenario(db)
    assert payload(db)["confidence"] == "high"
    assert payload(db, admin=[item(T0, "a")])["confidence"] == "high"
    assert payload(db, max_loop=100)["confidence"] == "medium"  # a success line left out
    assert payload(db, admin=[item(T0, "a"), item(T0 + 1, "b")], max_admin=60)["confidence"] == "medium"
    assert payload(db, admin=[item(T0, "x: 1"), item(T0 + 1, "x: 2")])["confidence"] == "low"


def test_function_flags(ext):
    db = connect(ext)
    flags = dict(db.execute("SELECT name, flags FROM pragma_function_list"
                            " WHERE name LIKE 'trigger_state_%'"))
    DETERMINISTIC, DIRECTONLY, INNOCUOUS = 0x800, 0x80000, 0x200000
    for name in ("trigger_state_summary", "trigger_state_payload"):
        assert flags[name] & DIRECTONLY and not flags[name] & (INNOCUOUS | DETERMINISTIC), name


# ---- stress and cost -----------------------------------------------------

def fill_runs(db, n):
    """n old runs over 3 agents (a1 gets most), then the same recent ones."""
    db.execute("BEGIN")
    db.execute("""
        WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i + 1 < ?1)
        INSERT INTO triggers_rundata(run_id, trigger_id, agent_id, scheduled_for, attempt,
                                     status, claimed_at, finished_at, latency_ms, error)
        SELECT 'old' || (i % 50) || '@' || (?2 + i) || '#1', 'old' || (i % 50), CASE WHEN i % 10 < 8 THEN 'a1'
               ELSE 'a' || (i % 10) END, ?2 + i, 1,
               CASE i % 4 WHEN 0 THEN 'failed' WHEN 1 THEN 'skipped' ELSE 'success' END,
               ?2 + i, ?2 + i + 5, 5, CASE WHEN i % 4 = 0 THEN 'old error ' || i END
        FROM k""", (n, T0 - 10**9))
    db.execute("COMMIT")
    scenario(db)


def statements_run(db, sql, *args):
    """Every statement the call runs (nested ones come as '-- SQL')."""
    got = []
    db.set_trace_callback(got.append)
    one(db, sql, *args)
    db.set_trace_callback(None)
    return [s[3:] for s in got if s.startswith("-- ")]



def test_stress_within_caps_and_bounded(ext):
    db = connect(ext)
    fill_runs(db, 100000)
    assert one(db, "SELECT count(*) FROM triggers_rundata") > 100000
    admin = [item(NOW - 5000 * 1000 + i * 1000,
                  f"directive {i}: " + ("resolved " if i % 2 else "open ") + "z" * (i % 300)
                  + (" password=pw%d" % i), bool(i % 2)) for i in range(5000)]
    opts = json.dumps({"admin": admin, "stale_ms": 4000 * 1000})
    text = one(db, "SELECT trigger_state_summary('a1', ?, ?)", NOW, opts)
    seg = segments(text)
    assert blen(text) <= 1500 and blen(seg["Admin"]) <= 900
    assert blen(seg["Loop"]) <= 400 and blen(seg["As"]) <= 200
    assert "password=pw" not in text and "1000 stale admin items ignored" in text
    assert "more admin items omitted" in text
    assert seg["Loop"].split("\n")[1].startswith("- last failure 2026-01-01T00:03:00.500Z")
    p = json.loads(one(db, "SELECT trigger_state_payload('a1', ?, ?)", NOW, opts))
    assert p["confidence"] == "medium" and p["adminSummary"] == seg["Admin"]

    # every statement it runs reads through an index (json_tree walks the
    # options, the caller's own input, once)
    stmts = statements_run(db, "SELECT trigger_state_summary('a1', ?, ?)", NOW, opts)
    # and the budget's (summary_budget.c): its two config keys, the triggers
    # a budget paused (only when one of the agent's triggers is paused)
    core = [x for x in stmts if "triggers_config" not in x and "'budget: '" not in x]
    assert len(core) == 6 and len(stmts) <= 9, stmts
    used = set()
    for sql in stmts:
        nparams = max([int(x) for x in re.findall(r"\?(\d+)", sql)] or [0])
        plan = [r[3] for r in db.execute("EXPLAIN QUERY PLAN " + sql, [None] * nparams)]
        for step in plan:
            assert not step.startswith("SCAN") or step == "SCAN CONSTANT ROW" or \
                step.startswith("SCAN json_tree VIRTUAL TABLE"), (sql, plan)
            assert "TEMP B-TREE" not in step, (sql, plan)
            used.update(re.findall(r"USING (?:COVERING )?INDEX (\w+)", step))
        if "triggers_" in sql and sql in core:  # the budget's: a key, a count
            assert "LIMIT" in sql, sql
    assert {"triggers_rundata_outcome", "triggers_state_agent",
            "triggers_state_due", "sqlite_autoindex_triggers_data_1",
            "triggers_rundata_lease", "triggers_rundata_retry",
            "triggers_data_status", "triggers_events_rejected"} <= used, used


def test_cost_does_not_grow_with_runs(ext):
    steps = {}
    texts = {}
    for n in (1000, 100000):
        db = connect(ext)
        fill_runs(db, n)
        opts = json.dumps({"admin": [item(T0, "deploy: go")]})
        texts[n] = one(db, "SELECT trigger_state_summary('a1', ?, ?)", NOW, opts)
        steps[n] = vm_steps(db, "SELECT trigger_state_summary('a1', ?, ?)", NOW, opts)
    assert texts[1000] == texts[100000]
    assert steps[1000] == steps[100000], steps
    assert steps[1000] < 5000, steps


# ---- the cut rule and the cap boundaries (issue #17 item 6) ----------------

def test_cut_item_does_not_hide_later_items(ext):
    """An item longer than SUM_ITEM_MAX is cut to it and the items after it
    are still shown while they fit (docs/summary.md#caps-and-truncation)."""
    db = connect(ext)
    admin = [item(T0 + 4, "short one"), item(T0 + 3, "long " + "y" * 341),
             item(T0 + 2, "short two"), item(T0 + 1, "short three")]
    assert blen(admin[1]["text"]) == 346
    seg = segments(summary(db, admin=admin))["Admin"]
    lines = seg.split("\n")[1:]
    assert [l.split("] ", 1)[1][:9] for l in lines] == [
        "short one", "long yyyy", "short two", "short thr"], seg
    assert blen(lines[1].split("] ", 1)[1]) == 280 and lines[1].endswith("...")
    assert "omitted" not in seg
    # ten 300-byte items: each cut to 280 and as many shown as fit in 900
    ten = [item(T0 + i, f"{i} " + "z" * 298) for i in range(10)]
    seg = segments(summary(db, admin=ten))["Admin"]
    lines = seg.split("\n")
    assert len(lines) == 1 + 2 + 1 and lines[-1] == "(+8 more admin items omitted)", seg
    assert all(blen(l.split("] ", 1)[1]) == 280 for l in lines[1:3])
    assert blen(seg) <= 900 and blen(seg) + 315 + 40 > 900  # a third would not fit


def cap_cases(db, admin):
    """(cap option, segment key, the full segment) for every cap."""
    full = summary(db, admin=admin)
    seg = segments(full)
    return full, [("max_admin", "Admin", seg["Admin"]), ("max_loop", "Loop", seg["Loop"]),
                  ("max_footer", "As", seg["As"])]


def test_each_cap_boundary_both_sides(ext):
    """A segment exactly as long as its cap is shown whole; one byte less
    and it loses its last item (so `len + n > cap` is the test, not >=)."""
    db = connect(ext)
    scenario(db)
    admin = [item(T0 + 2, "first directive"), item(T0 + 1, "second directive")]
    full, cases = cap_cases(db, admin)
    for key, name, whole in cases:
        n = blen(whole)
        assert segments(summary(db, admin=admin, **{key: n}))[name] == whole, key
        shorter = segments(summary(db, admin=admin, **{key: n - 1})).get(name, "")
        assert shorter != whole and blen(shorter) <= n - 1, (key, shorter)
    # the admin segment that exactly fills its cap with every item shown
    two = segments(full)["Admin"]
    got = segments(summary(db, admin=admin, max_admin=blen(two) - 1))["Admin"]
    assert got.split("\n")[1:] == [two.split("\n")[1], "(+1 more admin item omitted)"], got
    # the total: exactly its length shows everything, one byte less drops
    # the last pending item
    n = blen(full)
    assert summary(db, admin=admin, max_total=n) == full
    less = summary(db, admin=admin, max_total=n - 1)
    assert blen(less) < n and segments(less)["Pending"] == \
        "\n".join(segments(full)["Pending"].split("\n")[:-1]), less


# ---- execution hints (issue #17 item 5) -------------------------------------

def hints(db, **opts):
    """(the Hints: line or None, the payload's hints) for agent a1."""
    line = segments(summary(db, **opts)).get("Hints")
    return line, payload(db, **opts)["hints"]


def test_hint_continue_while_a_run_is_in_progress(ext):
    db = connect(ext)
    add(db, "t", agent_id="a1")
    add(db, "u", agent_id="a2")
    assert hints(db) == (None, [])
    runs = tick(db, T0 + MIN)
    ra = [r for r in runs if r["trigger_id"] == "t"][0]
    assert hints(db) == ("Hints: continue", ["continue"])
    assert hints(db, agent="a2") == ("Hints: continue", ["continue"])
    finish(db, ra["run_id"], "success", None, T0 + MIN + 1)
    assert hints(db) == (None, [])  # finished: nothing in progress
    assert summary(db).startswith("Admin:")


def test_hint_resume_for_a_paused_trigger_or_a_deferred_run(ext):
    db = connect(ext)
    add(db, "t", agent_id="a1")
    db.execute("SELECT trigger_pause('t', ?)", (T0,))
    assert hints(db) == ("Hints: resume", ["resume"])
    assert hints(db, agent="a2") == (None, [])  # another agent's pause
    db.execute("SELECT trigger_resume('t', ?)", (T0,))
    assert hints(db) == (None, [])
    [r] = tick(db, T0 + MIN)
    finish(db, r["run_id"], "deferred", None, T0 + MIN + 1)
    assert hints(db) == ("Hints: resume", ["resume"])  # re-offered by the next tick
    [r] = tick(db, T0 + MIN + 2)
    finish(db, r["run_id"], "success", None, T0 + MIN + 3)
    assert hints(db) == (None, [])


def test_hint_pause_after_repeated_failures(ext):
    db = connect(ext)
    add(db, "t", agent_id="a1")
    [r] = tick(db, T0 + MIN)
    finish(db, r["run_id"], "failed", "boom", T0 + MIN + 1)
    assert hints(db) == (None, [])  # one failure is not a streak
    [r] = tick(db, T0 + 2 * MIN)
    finish(db, r["run_id"], "failed", "boom", T0 + 2 * MIN + 1)
    text = summary(db)
    assert "; 2 consecutive failures" in text and text.startswith("Hints: pause\n\nAdmin:")
    assert hints(db) == ("Hints: pause", ["pause"])
    # paused after them: the hint is resume, not pause
    db.execute("SELECT trigger_pause('t', ?)", (T0 + 2 * MIN + 2,))
    assert hints(db) == ("Hints: resume", ["resume"])
    db.execute("SELECT trigger_resume('t', ?)", (T0 + 3 * MIN,))
    [r] = tick(db, T0 + 5 * MIN)
    finish(db, r["run_id"], "success", None, T0 + 5 * MIN + 1)
    assert hints(db) == (None, [])  # the streak ended


def test_hint_await_admin_confirmation_for_an_open_question(ext):
    db = connect(ext)
    q = [item(T0, "deploy: may I ship the release?  ")]
    assert hints(db, admin=q) == ("Hints: await_admin_confirmation", ["await_admin_confirmation"])
    assert hints(db, admin=[item(T0, "ship it\uff1f")])[1] == ["await_admin_confirmation"]
    for absent in ([item(T0, "may I ship?", True)],              # resolved
                   [item(T0, "ship it. why? because QA passed")],  # not a question
                   [item(T0, "deploy: may I ship?"), item(T0 + 1, "deploy: ship it")]):  # superseded
        assert hints(db, admin=absent) == (None, []), absent
    assert hints(db, admin=[item(NOW - 3 * MIN, "ok?")], stale_ms=MIN) == (None, [])  # stale


def test_hints_order_budget_and_space(ext):
    db = connect(ext)
    add(db, "f", agent_id="a1")
    add(db, "p", agent_id="a1")
    add(db, "r", agent_id="a1", created_at=T0 + MIN)
    db.execute("SELECT trigger_pause('p', ?)", (T0,))
    for k in (1, 2):
        for r in tick(db, T0 + k * MIN):
            if r["trigger_id"] == "f":
                finish(db, r["run_id"], "failed", "boom", T0 + k * MIN + 1)
    # 'r' was claimed at minute 2 and is still running
    admin = [item(T0, "ok to delete the old branch?")]
    want = ["continue", "resume", "pause", "await_admin_confirmation"]
    line = "Hints: " + ", ".join(want)
    full = summary(db, admin=admin)
    assert full.startswith(line + "\n\nAdmin:"), full
    assert payload(db, admin=admin)["hints"] == want
    # from max_total, before the other segments: the text stays in the cap
    for total in (len(line) + 8, len(line) + 7, 40, 20, 6):
        t = summary(db, admin=admin, max_total=total)
        p = payload(db, admin=admin, max_total=total)
        assert blen(t) <= total, (total, t)
        room = total - 6
        # dropped from the end of the vocabulary until the line fits
        shown = [h for k, h in enumerate(want) if len("Hints: " + ", ".join(want[:k + 1])) + 2 <= room]
        assert p["hints"] == shown, (total, p)
        assert (segments(t) if t else {}).get("Hints") == ("Hints: " + ", ".join(shown) if shown else None), t
        assert p["confidence"] == "medium"


def test_blank_admin_item_has_no_trailing_space(ext):
    # an item whose text is only blanks (trimmed to nothing) is listed with
    # its bracket alone: no space before the end of the line
    db = connect(ext)
    for text in ("   ", "", "\t\n"):
        admin = segments(summary(db, admin=[item(NOW - MIN, text)]))["Admin"]
        assert admin.split("\n")[1] == "- [open 2026-01-01T00:09:00Z]", (text, admin)
    admin = segments(summary(db, admin=[item(NOW - MIN, "  go  ")]))["Admin"]
    assert admin.split("\n")[1] == "- [open 2026-01-01T00:09:00Z] go", admin


def test_cleaned_texts_kept_per_connection_show_as_cleaned_anew(ext):
    """The connection keeps the texts a summary redacted and cut
    (agent/clean_text.c): a second call, a call with other caps, a changed
    name and another connection all show what cleaning anew shows,
    secrets redacted and the cut still counted in the confidence."""
    long_name = "nightly " * 20 + "password=hunter2"
    db = connect(ext)
    scenario(db)
    add(db, "long", agent_id="a1", display_name=long_name)
    first = payload(db)
    assert first["confidence"] == "medium", first  # the long name was cut
    for _ in range(2):
        assert payload(db) == first
        assert summary(db) == summary(db)
    small = summary(db, max_loop=120, max_total=300)
    db.execute("UPDATE triggers SET display_name = 'Check it password=s3cret' WHERE trigger_id = 'build'")
    changed = summary(db)
    assert "Check it password=[REDACTED]" in changed and "s3cret" not in changed, changed
    assert "hunter2" not in changed
    fresh = connect(ext)
    scenario(fresh)
    add(fresh, "long", agent_id="a1", display_name=long_name)
    assert payload(fresh) == first
    assert summary(fresh, max_loop=120, max_total=300) == small
    fresh.execute("UPDATE triggers SET display_name = 'Check it password=s3cret' WHERE trigger_id = 'build'")
    assert summary(fresh) == changed
