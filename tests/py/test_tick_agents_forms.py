"""tests/py/test_tick_agents_forms.py -- options.agents elements that are
no agent id when a tick offers expired leases again (test_tick_options.py
gives strings only): an object whose key or value spells the id, an id
inside a nested array (once re-offered, while the due rows never matched
it), a number beside the id, strings with escapes before the id. Only a
string element of the array names an agent, for due rows and expired
leases alike."""
from util import T0, add, connect, tick


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
