"""tests/py/host/test_host_exec_io.py -- an --exec command's pipes beyond what
test_host.py checks: a payload larger than a pipe holds (300 kB) fed to a
command that reads it late (the host's writes wait for POLLOUT, none is
lost) and to one that never reads it and exits (EPIPE: stdin is closed,
the run is still its exit status); results and errors trimmed of trailing
CR, space and tab; a stderr tail that starts inside a character; a
command killed by a signal it sent itself, saying nothing."""
from util.host import Tmp, add_interval, now_ms, runs, tick

BIG = 300000


def test_payload_larger_than_a_pipe(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        past = now_ms() - 500
        for name in ("late", "deaf"):
            add_interval(db, name, past, interval_ms=60000, instructions=name * (BIG // 4))
        got = t.file("late.txt")
        cmd = (f'case "$TRIGGER_ID" in late) sleep 0.5; cat > {got}; echo read;; '
               'deaf) echo ignored;; esac')
        rc, _, err = tick(ext, path, "--exec", cmd)
        assert rc == 0, err
        by = {r["trigger_id"]: r for r in runs(db)}
        assert (by["late"]["status"], by["late"]["result"]) == ("success", "read"), by["late"]
        with open(got) as f:
            assert f.read() == by["late"]["payload"] + "\n"
        assert len(by["late"]["payload"]) > BIG
        assert (by["deaf"]["status"], by["deaf"]["result"]) == ("success", "ignored"), by["deaf"]


def test_tails_trimmed_cut_and_signals(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        past = now_ms() - 500
        for name in ("spaces", "cut", "signal"):
            add_interval(db, name, past, interval_ms=60000)
        cmd = ('case "$TRIGGER_ID" in '
               "spaces) printf 'done \\t\\r\\n \\t\\r\\n';; "
               "cut) { i=0; while [ $i -lt 300 ]; do printf '\\303\\251'; "
               "i=$((i+1)); done; printf 'y'; } >&2; exit 1;; "
               "signal) kill -KILL $$;; esac")
        rc, _, err = tick(ext, path, "--exec", cmd)
        assert rc == 1, err
        by = {r["trigger_id"]: (r["status"], r["error"], r["result"]) for r in runs(db)}
        assert by["spaces"] == ("success", None, "done"), by
        # 601 bytes of stderr, the last 500 kept: from the first whole character
        assert by["cut"] == ("failed", "..." + "\u00e9" * 249 + "y", None), by
        assert by["signal"] == ("failed", "killed by signal 9", None), by


def test_output_written_a_byte_at_a_time_is_kept_whole(ext):
    """A command that writes its result and its error a byte at a time,
    with pauses between (each read of the pipe returns one byte): every
    byte is kept, and a pipe is closed only at its end."""
    with Tmp() as t:
        path, db = t.db(ext)
        past = now_ms() - 500
        add_interval(db, "slow-ok", past, interval_ms=60000)
        add_interval(db, "slow-bad", past, interval_ms=60000)
        cmd = ('case "$TRIGGER_ID" in '
               "slow-ok) for c in d o n e; do printf $c; sleep 0.05; done;; "
               "slow-bad) for c in b o o m; do printf $c >&2; sleep 0.05; done; exit 1;; "
               "esac")
        rc, _, err = tick(ext, path, "--exec", cmd)
        assert rc == 1, err
        by = {r["trigger_id"]: (r["status"], r["error"], r["result"]) for r in runs(db)}
        assert by["slow-ok"] == ("success", None, "done"), by
        assert by["slow-bad"] == ("failed", "boom", None), by
