"""tests/py/host/test_host_via_json.py -- trigger-host --via reading claims
written in every way JSON allows (test_host_via_answers.py has answers a
real far side does not give): \\u escapes in upper and lower case, a
scheduled_for past a long long (left 0), a negative attempt, scalars of
every kind among the members, and an object member whose key is not a
string or no ':' (the rest of that element unread, the run still
started), and an element that is not an object (ignored)."""

from util.host import Tmp, standin, statements, via_host


def claimed_env(ext, t, claim):
    via, env = standin(t, CLAIM=claim)
    out = t.file("env.txt")
    p = via_host(ext, env, "tick", "far", "--via", via, "--exec",
                 f'env | grep ^TRIGGER_ | sort > {out}; cat > {out}.in')
    assert p.returncode == 0, (p.returncode, p.stderr)
    with open(out, encoding="utf-8") as f:
        got = f.read().splitlines()
    with open(out + ".in", encoding="utf-8") as f:
        return got, f.read(), p.stderr


def test_claim_with_escapes_and_scalars(ext):
    with Tmp() as t:
        claim = ('[{"extra": [true, false, null, -1.5E+3, 0.25e-1, {"x": "y"}, []],'
                 ' "run_id": "r\\u00C9\\u00e9\\uD83D\\uDE00", "trigger_id": "t\\u004a\\u004B",'
                 ' "agent_id": "a\\t\\"b\\"", "wake_mode": "now",'
                 ' "scheduled_for": 99999999999999999999, "attempt": -3,'
                 ' "payload": {"k": "\\u00FF"}}]')
        got, payload, err = claimed_env(ext, t, claim)
        got = [g for g in got if not g.startswith("TRIGGER_USAGE_FILE=/")]  # its usage file
        assert got == ["TRIGGER_AGENT_ID=a\t\"b\"", "TRIGGER_ATTEMPT=-3", "TRIGGER_DB=far",
                       "TRIGGER_ID=tJK", "TRIGGER_RUN_ID=r\u00c9\u00e9\U0001f600",
                       "TRIGGER_SCHEDULED_FOR=0", "TRIGGER_WAKE_MODE=now"], got
        assert payload == '{"k": "\\u00FF"}\n', payload
        finish = [s for s in statements(t) if "trigger_run_finish" in s]
        assert finish == ["SELECT trigger_run_finish('r\u00c9\u00e9\U0001f600', 'success', NULL)"], \
            finish


def test_claim_members_read_as_far_as_they_go(ext):
    """Numbers that are not integers and a lone '-' leave their variable
    0; a key that is not a string or a member without ':' leaves that
    member and the rest of the element unread (a string with a bad escape
    is skipped whole); the run still starts with what came before. An
    element that is not an object is ignored, warned."""
    cases = (
        ('{"run_id": "r1", "payload": {}, "scheduled_for": "12", "attempt": 1.5}', "r1 0 0"),
        ('{"run_id": "r2", "payload": {}, "attempt": -}', "r2 0 0"),
        ('{"run_id": "r3", "payload": {}, 5: 1, "attempt": 2}', "r3 0 0"),
        ('{"run_id": "r4", "payload": {}, "a" 1, "attempt": 2}', "r4 0 0"),
        ('{"run_id": "r5", "payload": {}, "x": "\\u00zz", "attempt": 2}', "r5 0 2"),
        ('{"run_id": "r6", "payload": {}, "attempt": 1}, 7', "r6 0 1"))
    for elem, want in cases:
        with Tmp() as t:
            via, env = standin(t, CLAIM=f"[{elem}]")
            out = t.file("o")
            p = via_host(ext, env, "tick", "far", "--via", via, "--exec",
                         f"echo $TRIGGER_RUN_ID $TRIGGER_SCHEDULED_FOR $TRIGGER_ATTEMPT >> {out}")
            assert p.returncode == 0, (elem, p.returncode, p.stderr)
            with open(out) as f:
                assert f.read().splitlines() == [want], elem
            ignored = "far: claimed element without run_id or payload ignored"
            assert (ignored in p.stderr) == elem.endswith("7"), (elem, p.stderr)


def test_run_id_with_a_bad_escape_is_no_run_id(ext):
    """A \\u escape with a digit out of hex (below '0', past 'F' or 'f'):
    the run_id does not decode, so the element is ignored, warned."""
    for bad in ("a\\u00+1", "a\\u00G1", "a\\u00g1"):
        with Tmp() as t:
            via, env = standin(t, CLAIM=f'[{{"run_id": "{bad}", "payload": {{}}}}]')
            p = via_host(ext, env, "tick", "far", "--via", via, "--exec", "true")
            assert p.returncode == 0, (bad, p.returncode, p.stderr)
            assert "far: claimed element without run_id or payload ignored" in p.stderr, \
                (bad, p.stderr)
            assert not [s for s in statements(t) if "trigger_run_finish" in s], bad
