"""tests/py/host/test_host_via_answers.py -- what trigger-host --via makes of
answers a real far side does not give: a stand-in command (a shell script
answering each statement from the environment the host passes it) returns
a claim that is not a JSON array (tick: exit 3; run: warned once and
tried again), claimed elements without run_id or payload (ignored, warned; a
run without trigger_id, agent_id or wake_mode gets those variables
empty), a wakeup that is not a number (warned once, looked at again), no
answer at all to a report, answers ending in CR LF, no version (the
start line says so); and a command that answers more than VIA_OUT_MAX
bytes, or fails with its message after blank lines, or fails on a
statement longer than the 60 characters the message shows."""
import signal
import subprocess
import time

from util.host import Tmp, host_bin, standin, statements, via_host


def test_claim_that_is_not_an_array_ends_a_tick(ext):
    with Tmp() as t:
        via, env = standin(t, CLAIM='{"runs": []}')
        p = via_host(ext, env, "tick", "far", "--via", via)
        assert p.returncode == 3, (p.returncode, p.stderr)
        assert ('far: trigger_run_due: the answer is not a JSON array of runs: {"runs": []}'
                in p.stderr), p.stderr


def test_claim_that_is_not_an_array_is_tried_again_in_run_mode(ext):
    with Tmp() as t:
        via, env = standin(t, CLAIM="not json", WAKE="0")
        proc = subprocess.Popen([host_bin(ext), "run", "far", "--via", via],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=env)
        time.sleep(1.5)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, (proc.returncode, err)  # warned, not fatal
        bad = "far: trigger_run_due: the answer is not a JSON array of runs: not json"
        # tried again after 1 s, logged once (then once a minute: backoff.h)
        assert err.count(bad) == 1, err
        assert sum("trigger_run_due" in s for s in statements(t)) >= 2


def test_claimed_elements_without_run_id_or_payload_are_ignored(ext):
    with Tmp() as t:
        claim = ('[{"trigger_id": "no-run-id", "payload": {}},'
                 ' {"run_id": "r0", "payload": "not an object"},'
                 ' {"run_id": "r1", "payload": {"instructions": "bare"}}]')
        via, env = standin(t, CLAIM=claim)
        out = t.file("env.txt")
        p = via_host(ext, env, "tick", "far", "--via", via, "--exec",
                     f'env | grep ^TRIGGER_ | sort > {out}; cat > {out}.in')
        assert p.returncode == 0, (p.returncode, p.stderr)
        assert p.stderr.count("far: claimed element without run_id or payload ignored") == 2, \
            p.stderr
        with open(out) as f:
            got = f.read().splitlines()
        # the run's usage file (docs/reactive.md#usage-from-a-command)
        usage = [g for g in got if g.startswith("TRIGGER_USAGE_FILE=")]
        assert len(usage) == 1 and "/trigger-usage-" in usage[0], got
        got.remove(usage[0])
        assert got == ["TRIGGER_AGENT_ID=", "TRIGGER_ATTEMPT=0", "TRIGGER_DB=far",
                       "TRIGGER_ID=", "TRIGGER_RUN_ID=r1", "TRIGGER_SCHEDULED_FOR=0",
                       "TRIGGER_WAKE_MODE="], got
        with open(out + ".in") as f:
            assert f.read() == '{"instructions": "bare"}\n'
        # its report went through the stand-in, which answered nothing
        assert [s for s in statements(t) if "trigger_run_finish" in s] == [
            "SELECT trigger_run_finish('r1', 'success', NULL)"], statements(t)


def test_wakeup_that_is_not_a_number_is_asked_again(ext):
    with Tmp() as t:
        via, env = standin(t, WAKE="soon")
        proc = subprocess.Popen([host_bin(ext), "run", "far", "--via", via, "-v"],
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=env)
        time.sleep(1.5)
        proc.send_signal(signal.SIGTERM)
        _, err = proc.communicate(timeout=10)
        assert proc.returncode == 0, (proc.returncode, err)
        assert err.count("far: trigger_next_wakeup: not a number: soon") == 1, err
        assert sum("trigger_next_wakeup" in s for s in statements(t)) >= 2
        assert "; extension (via) 0.0.0; " in err, err  # the far side's version
        via, env = standin(t, VERSION_FAILS="1")
        p = via_host(ext, env, "tick", "far", "--via", via, "-v")
        assert p.returncode == 0, p.stderr
        assert "; extension (via) (version unknown); " in p.stderr, p.stderr


def test_answer_larger_than_the_bound(ext):
    """64 MiB of answer: refused (the install's), exit 3; read to the end,
    so the command is not left blocked on a full pipe."""
    with Tmp() as t:
        t0 = time.time()
        p = subprocess.run([host_bin(ext), "tick", "far", "--via",
                            "head -c 67108865 /dev/zero; :"],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 3, (p.returncode, p.stderr)
        assert "via: answer larger than 67108864 bytes" in p.stderr, p.stderr
        assert time.time() - t0 < 30


def test_failure_message_is_the_first_line_said(ext):
    """Blank lines and leading spaces before the command's message are
    skipped; a statement longer than 60 characters is shown cut, with
    "..."."""
    with Tmp() as t:
        p = subprocess.run([host_bin(ext), "tick", "far", "--via",
                            r"printf '\n \r\n  no leader\nmore\n' >&2; exit 4; :"],
                           capture_output=True, text=True, timeout=30)
        assert p.returncode == 3, (p.returncode, p.stderr)
        assert "via: SELECT trigger_install(): exit status 4: no leader\n" in p.stderr, p.stderr
        via, env = standin(t, CLAIM_FAILS="Error: no leader")
        p = via_host(ext, env, "tick", "far", "--via", via, "--owner", "o")
        assert p.returncode == 3, (p.returncode, p.stderr)
        claim = "SELECT trigger_run_due(NULL, '{\"owner\":\"o\",\"lease_ms\":60000}')"
        assert f"via: {claim[:60]}...: exit status 1: Error: no leader" in p.stderr, p.stderr
