"""tests/py/tick/test_tick_options.py -- the options object of
trigger_run_due and trigger_next_wakeup (ext/tick/tick_opts.c): every key
with a value of the wrong type or range (the message names the key and
what it wants), an unknown key, integer-valued text, repeated keys (the
last one wins); options.agents choosing which expired leases and retries
a tick offers again (an id first, last or only in the array, an id that
is a prefix of another, elements that are no id: an object, a nested
array)."""
import json

from util import MIN, T0, add, connect, error, finish, one, retry_at, runs, tick


def test_bad_options(ext):
    db = connect(ext)
    cases = [
        ('{"limit":-1}', 'options.limit: bad value -1 (want an integer >= 0)'),
        ('{"limit":"x"}', 'options.limit: bad value "x" (want an integer >= 0)'),
        ('{"lease_ms":0}', 'options.lease_ms: bad value 0 (want an integer 1..315537897599999)'),
        ('{"owner":5}', 'options.owner: bad value 5 (want text)'),
        ('{"wake_mode":"later"}',
         'options.wake_mode: bad value "later" (want "inject_now" or "next_autonomy_cycle")'),
        ('{"wake_mode":5}',
         'options.wake_mode: bad value 5 (want "inject_now" or "next_autonomy_cycle")'),
        ('{"ack":1}', 'options.ack: bad value 1 (want true or false)'),
        ('{"agents":"a"}', 'options.agents: bad value "a" (want an array of agent ids)'),
        ('{"bogus":1}', "options: unknown key 'bogus' (known: limit, owner, lease_ms, "
                        "agents, wake_mode, ack, sql)"),
        ('[1]', "argument 2 (options) must be a JSON object"),
    ]
    for opts, why in cases:
        for fn in ("trigger_run_due", "trigger_next_wakeup"):
            assert error(db, f"SELECT {fn}(?, ?)", T0, opts) == f"{fn}: {why}", (fn, opts)
    for fn in ("trigger_run_due", "trigger_next_wakeup"):
        assert error(db, f"SELECT {fn}(?, 5)", T0) == f"{fn}: argument 2 (options) must be text"


def test_text_numbers_and_repeated_keys(ext):
    db = connect(ext)
    for i in range(3):
        add(db, f"t{i}", agent_id="a", start_at=T0)
    assert len(tick(db, T0, limit="1")) == 1
    assert len(tick(db, T0, limit=1.0)) == 1
    got = json.loads(one(db, "SELECT trigger_run_due(?, ?)", T0,
                         '{"owner":"h1","owner":"h2","limit":0,"limit":5}'))
    assert len(got) == 1
    assert one(db, "SELECT group_concat(DISTINCT owner) FROM trigger_runs "
                   "WHERE trigger_id = 't2'") == "h2"
    # the last agents array wins
    add(db, "b", agent_id="b", start_at=T0 + MIN)
    assert one(db, "SELECT trigger_next_wakeup(?, ?)", T0,
               '{"agents":["a"],"agents":["b"]}') == MIN


def test_agents_choose_expired_leases(ext):
    db = connect(ext)
    add(db, "a", agent_id="a", interval_ms=3600000, max_attempts=3, start_at=T0)
    add(db, "ab", agent_id="ab", interval_ms=3600000, max_attempts=3, start_at=T0)
    assert len(tick(db, T0, lease_ms=1000)) == 2
    later = T0 + 2000
    # "b" and "x" hold no agent with an expired lease; "a" is no prefix match
    for agents in (["x"], ["b"]):
        assert tick(db, later, agents=agents, lease_ms=1000) == [], agents
    for agents, want in ((["x", "a"], ["a"]), (["ab", "x"], ["ab"])):
        got = tick(db, later, agents=agents, lease_ms=1000)
        assert sorted(r["trigger_id"] for r in got) == want, (agents, got)
        later += 2000
    got = tick(db, later, agents=["ab"], lease_ms=1000)
    assert [r["trigger_id"] for r in got] == ["ab"], got


def test_agents_elements_that_are_no_id(ext):
    db = connect(ext)
    add(db, "a", agent_id="a", interval_ms=3600000, max_attempts=3, start_at=T0)
    assert tick(db, T0, agents=[["a"]], lease_ms=1000) == []
    assert len(tick(db, T0, lease_ms=1000)) == 1
    later = T0 + 2000
    for agents in ([{"a": 1}], [{"x": "a"}], [{"a": "a"}], [["a"]],
                   [2, {"b": ["a", 1]}], ['x"a"', '"a"'], ["a\\"]):
        assert tick(db, later, agents=agents, lease_ms=1000) == [], agents
    got = tick(db, later, agents=[1, {"a": 0}, ['a'], 'q\\"', "]", "{[", "a"], lease_ms=1000)
    assert [r["trigger_id"] for r in got] == ["a"], got


def test_repeated_option_key_last_wins(ext):
    # json_each hands a repeated key over twice: the last value wins (and
    # the first copy is freed: tests/fuzz/corpus/options/regress-*).
    db = connect(ext)
    add(db, "now", trigger_type="once", scheduled_at=T0, wake_mode="inject_now")
    add(db, "cycle", trigger_type="once", scheduled_at=T0)
    got = one(db, "SELECT trigger_run_due(?, ?)", T0 + 1,
              '{"wake_mode":"inject_now","agents":["x"],"owner":"a",'
              '"wake_mode":"next_autonomy_cycle","agents":[""],"owner":"b"}')
    [r] = json.loads(got)
    assert r["trigger_id"] == "cycle"
    assert one(db, "SELECT owner FROM trigger_runs WHERE trigger_id = 'cycle'") == "b"


def test_agents_filter_over_leases_and_retries(ext):
    db = connect(ext)
    for agent in ("a", "b"):
        add(db, agent, agent_id=agent, interval_ms=3600000, max_attempts=3, backoff_ms=1000)
    due = T0 + 3600000
    assert len(tick(db, due, lease_ms=10000)) == 2
    # both leases have passed; a tick for agent a reclaims a's run only
    got = tick(db, due + 10000, agents=["a"])
    assert [(r["trigger_id"], r["attempt"]) for r in got] == [("a", 2)], got
    st = {(r["trigger_id"], r["attempt"]): r["status"] for r in runs(db)}
    assert st == {("a", 1): "failed", ("a", 2): "running", ("b", 1): "running"}, st
    got = tick(db, due + 10001, agents=["b"])
    assert [(r["trigger_id"], r["attempt"]) for r in got] == [("b", 2)], got
    # both fail; a tick for b re-offers b's retry only
    for r in runs(db):
        if r["status"] == "running":
            finish(db, r["run_id"], "failed", "boom", due + 20000)
    got = tick(db, due + 40000, agents=["b"])
    assert [(r["trigger_id"], r["attempt"]) for r in got] == [("b", 3)], got
    a_retry = [r for r in runs(db, "a") if r["attempt"] == 2][0]
    assert a_retry["status"] == "failed" and retry_at(db, "a", 2) == due + 20000 + 2000, a_retry
    assert [(r["trigger_id"], r["attempt"]) for r in tick(db, due + 40000)] == [("a", 3)]
