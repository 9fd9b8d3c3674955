"""tests/py/host/test_host.py -- the host program build/trigger-host, in real
time (seconds, each test bounded): the run loop fires interval triggers and
picks up triggers inserted later by another connection, --exec records
success (stdout tail as the result), failure (stderr tail) and timeouts, tick mode's exit status, serve
over a directory and --agents, two hosts on one database never running the
same occurrence, SIGTERM (waits, or kills after --grace), lease reclaim
after SIGKILL, and leases: a tick claims only what its slots start, a
long command's lease is renewed, a run whose lease ran out before it could
start is released (deferred). Reports in batches: 3000 printed runs
reported in a dozen transactions, a SIGKILL mid-batch losing only
reports (their runs reclaimed after the lease), a refused report leaving
the rest of its batch; --synchronous."""
import json
import os
import re
import signal
import subprocess
import time

from util import one
from util.host import (Tmp, add_interval, add_once, executions, host_bin, manual, now_ms, runs,
                       start, stop, tick, wait_for)


def test_help_documents_modes_and_flags(ext):
    """--help is short (the modes, the common flags, where the rest is);
    the man page documents every flag."""
    p = subprocess.run([host_bin(ext), "--help"], capture_output=True, text=True, timeout=5)
    assert p.returncode == 0
    for word in ("run DB", "serve DB", "tick DB", "--exec", "--timeout", "--jobs", "--agents",
                 "--extension", "man trigger-host"):
        assert word in p.stdout, word
    assert len(p.stdout.splitlines()) <= 40, p.stdout
    man = manual()
    for word in ("run db", "serve db", "tick db", "--exec cmd", "--timeout sec", "--jobs n",
                 "--prefetch n", "--owner name", "--clean-env", "--env name", "--lease-ms ms",
                 "--wake-mode mode", "--limit n", "--agents a,b", "--extension path",
                 "--poll-ms ms", "--grace sec", "--verbose", "data_version", "EXIT STATUS"):
        assert word in man, word
    p = subprocess.run([host_bin(ext), "walk", "x.db"], capture_output=True, text=True, timeout=5)
    assert p.returncode == 2 and "unknown mode" in p.stderr


def test_run_fires_interval_trigger(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        first = now_ms() + 300
        add_interval(db, "every-second", first)
        proc = start(ext, "run", path)
        time.sleep(3.6)  # occurrences at +0.3, +1.3, +2.3, +3.3 s
        rc, out, err = stop(proc)
        assert rc == 0, err
        lines = [json.loads(x) for x in out.splitlines()]
        assert len(lines) >= 3, (out, err)
        assert all(x["trigger_id"] == "every-second" for x in lines)
        assert [x["scheduled_for"] for x in lines] == [first + 1000 * i for i in range(len(lines))]
        assert lines[0]["payload"]["text"] == "do every-second"
        done = runs(db)
        assert len(done) == len(lines)
        assert all(r["status"] == "success" for r in done), done
        # claimed at its due time, not on a polling grid
        assert all(0 <= r["claimed_at"] - r["scheduled_for"] < 300 for r in done), done


def test_run_picks_up_trigger_inserted_later(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        proc = start(ext, "run", path)  # nothing scheduled: would sleep 60 s
        time.sleep(0.5)
        due = now_ms() + 600
        add_once(db, "later", due)
        assert wait_for(lambda: runs(db), 3), "the inserted trigger never fired"
        # already overdue when inserted: fires within the data_version poll bound
        past = now_ms() - 5000
        add_interval(db, "overdue", past, interval_ms=60000)
        inserted = now_ms()
        assert wait_for(lambda: runs(db, "trigger_id = 'overdue'"), 3)
        rc, out, err = stop(proc)
        assert rc == 0, err
        later = runs(db, "trigger_id = 'later'")[0]
        assert later["status"] == "success"
        assert 0 <= later["claimed_at"] - due < 1000, later
        overdue = runs(db, "trigger_id = 'overdue'")[0]
        assert overdue["claimed_at"] - inserted < 1000, overdue


def test_exec_success_and_failure_recorded(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        past = now_ms() - 500
        add_interval(db, "ok", past, interval_ms=60000, instructions="write the report")
        add_interval(db, "bad", past, interval_ms=60000)
        out = t.file("out")
        cmd = (f'read payload; if [ "$TRIGGER_ID" = bad ]; then echo "noise" >&2; '
               f'echo "boom: $TRIGGER_ID attempt $TRIGGER_ATTEMPT" >&2; exit 3; fi; '
               f'printf "%s\\n" "$payload" >> {out}')
        rc, _, err = tick(ext, path, "--exec", cmd)
        assert rc == 1, (rc, err)  # one run failed
        ok = runs(db, "trigger_id = 'ok'")[0]
        bad = runs(db, "trigger_id = 'bad'")[0]
        assert ok["status"] == "success" and ok["error"] is None, ok
        assert bad["status"] == "failed", bad
        assert bad["error"] == "noise\nboom: bad attempt 1", bad
        payload = json.loads(open(out).read())
        assert payload["text"] == "write the report" and payload["triggerRunId"] == ok["run_id"]
        trig = dict(db.execute("SELECT trigger_id, last_error FROM triggers"))
        assert trig["bad"] == "noise\nboom: bad attempt 1"


def test_run_mode_retries_a_failed_run_when_its_backoff_ends(ext):
    """A failed run with attempts left is retried at its retry time, which
    the host's own report set: the host asks for its next wakeup after
    each of its writes, not only after another connection's (the trigger's
    next occurrence is an hour away)."""
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "flaky", now_ms() - 500, interval_ms=3600000, max_attempts=2,
                     backoff_ms=1000)
        mark = t.file("failed-once")
        cmd = f'[ -e {mark} ] && exit 0; touch {mark}; exit 1'
        proc = start(ext, "run", path, "--exec", cmd)
        try:
            assert wait_for(lambda: [r["status"] for r in runs(db)] == ["failed", "success"],
                            15), runs(db)
        finally:
            rc, _, err = stop(proc)
        assert rc == 0, err
        first, second = runs(db)
        assert (first["attempt"], second["attempt"]) == (1, 2), (first, second)
        assert second["claimed_at"] - first["finished_at"] < 5000, (first, second)


def test_exec_stderr_tail_and_exit_status(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        past = now_ms() - 500
        add_interval(db, "long", past, interval_ms=60000)
        add_interval(db, "quiet", past, interval_ms=60000)
        cmd = ('if [ "$TRIGGER_ID" = long ]; then i=0; while [ $i -lt 100 ]; do '
               'echo "line $i of a long error"; i=$((i+1)); done >&2; exit 1; fi; exit 7')
        rc, _, err = tick(ext, path, "--exec", cmd)
        assert rc == 1, err
        long_err = runs(db, "trigger_id = 'long'")[0]["error"]
        assert long_err.startswith("...") and long_err.endswith("line 99 of a long error")
        assert len(long_err.encode()) <= 503, len(long_err)
        assert runs(db, "trigger_id = 'quiet'")[0]["error"] == "exit status 7"


def test_exec_stdout_tail_is_the_result(ext):
    # A successful command's stdout becomes its run's result: the last 4096
    # bytes, from a whole UTF-8 character, trailing newlines trimmed,
    # invalid bytes repaired; it no longer reaches the host's own stdout.
    # A failed command's stdout is not kept (its stderr is the error).
    with Tmp() as t:
        path, db = t.db(ext)
        past = now_ms() - 500
        for name in ("short", "long", "quiet", "binary", "bad"):
            add_interval(db, name, past, interval_ms=60000)
        cmd = ('case "$TRIGGER_ID" in '
               'short) echo "summary: all green";; '
               "long) i=0; while [ $i -lt 5000 ]; do printf '\\303\\251'; i=$((i+1)); done; "
               "printf '\\nend!\\n';; "
               "binary) printf '\\377ok';; "
               'bad) echo "partial output"; echo "boom" >&2; exit 2;; '
               'esac')
        rc, out, err = tick(ext, path, "--exec", cmd)
        assert rc == 1 and out == "", (rc, out, err)
        got = {r["trigger_id"]: (r["status"], r["error"], r["result"]) for r in runs(db)}
        assert got["short"] == ("success", None, "summary: all green"), got
        assert got["quiet"] == ("success", None, None), got
        assert got["binary"] == ("success", None, "\ufffdok"), got
        assert got["bad"] == ("failed", "boom", None), got
        status, error, result = got["long"]
        # 10005 bytes written: the tail starts mid-character, which is skipped
        assert (status, error) == ("success", None)
        assert result == "\u00e9" * 2045 + "\nend!", (len(result), result[:8], result[-8:])
        assert len(result.encode()) == 4095
        assert dict(db.execute("SELECT trigger_id, last_error FROM triggers"))["short"] is None


def test_exec_timeout_kills_process_group(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "slow", now_ms() - 500, interval_ms=60000)
        marker = t.file("survived")
        # a background grandchild holds stderr open: the group kill ends it too
        cmd = f"(sleep 2; touch {marker}) & sleep 5"
        t0 = time.time()
        rc, _, err = tick(ext, path, "--exec", cmd, "--timeout", "0.5")
        took = time.time() - t0
        assert rc == 1, err
        assert took < 2, took
        r = runs(db)[0]
        assert r["status"] == "failed" and r["error"] == "timeout after 0.5 s", r
        time.sleep(2.2)
        assert not os.path.exists(marker), "the grandchild outlived the timeout"


def child_env(ext, path, out, *flags, env=None):
    """Run one due trigger under --exec `env`: the child's environment."""
    rc, _, err = tick_env(ext, path, env, "--exec", f"env > {out}", *flags)
    assert rc == 0, err
    pairs = dict(line.split("=", 1) for line in open(out).read().splitlines() if "=" in line)
    # what /bin/sh itself adds
    return {k: v for k, v in pairs.items() if k not in ("PWD", "OLDPWD", "SHLVL", "_")}


def tick_env(ext, path, env, *args):
    p = subprocess.run([host_bin(ext), "tick", path, "--extension", ext, *args],
                       capture_output=True, text=True, timeout=10, env=env)
    return p.returncode, p.stdout, p.stderr


def test_exec_clean_env(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        host_env = dict(os.environ, SECRET_TOKEN="sk-do-not-leak", FOO="passed through",
                        HOME="/home/host-user", PATH="/opt/evil:/usr/bin:/bin", LANG="de_DE.UTF-8")
        add_interval(db, "e1", now_ms() - 500, interval_ms=60000, agent_id="ag")
        got = child_env(ext, path, t.file("env1"), env=host_env)
        assert got["SECRET_TOKEN"] == "sk-do-not-leak"  # default: inherited
        add_interval(db, "e2", now_ms() - 500, interval_ms=60000, agent_id="ag")
        got = child_env(ext, path, t.file("env2"), "--clean-env", "--env", "FOO",
                        "--env", "NOT_SET_ANYWHERE", env=host_env)
        trigger = {k: v for k, v in got.items() if k.startswith("TRIGGER_")}
        assert sorted(trigger) == ["TRIGGER_AGENT_ID", "TRIGGER_ATTEMPT", "TRIGGER_DB", "TRIGGER_ID",
                                   "TRIGGER_RUN_ID", "TRIGGER_SCHEDULED_FOR", "TRIGGER_USAGE_FILE",
                                   "TRIGGER_WAKE_MODE"], got
        assert trigger["TRIGGER_ID"] == "e2" and trigger["TRIGGER_AGENT_ID"] == "ag"
        rest = {k: v for k, v in got.items() if not k.startswith("TRIGGER_")}
        assert rest == {"PATH": "/usr/bin:/bin", "HOME": "/home/host-user", "LANG": "C.UTF-8",
                        "FOO": "passed through"}, rest
        # --env may also keep the host's PATH (or HOME, LANG)
        add_interval(db, "e3", now_ms() - 500, interval_ms=60000)
        got = child_env(ext, path, t.file("env3"), "--clean-env", "--env", "PATH", env=host_env)
        assert got["PATH"] == "/opt/evil:/usr/bin:/bin" and "SECRET_TOKEN" not in got, got
        # no HOME in the host: "/"
        add_interval(db, "e4", now_ms() - 500, interval_ms=60000)
        bare = {k: v for k, v in host_env.items() if k != "HOME"}
        got = child_env(ext, path, t.file("env4"), "--clean-env", env=bare)
        assert got["HOME"] == "/", got
        # usage errors
        for flags, why in [(["--exec", "true", "--env", "FOO"], "--env needs --clean-env"),
                           (["--clean-env"], "--clean-env needs --exec"),
                           (["--exec", "true", "--clean-env", "--env", "FOO=bar"], "--env FOO=bar: not a variable name"),
                           (["--exec", "true", "--clean-env", "--env", ""], "not a variable name")]:
            rc, _, err = tick_env(ext, path, host_env, *flags)
            assert rc == 2 and why in err, (flags, err)


def test_tick_exit_status(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        rc, out, err = tick(ext, path)
        assert (rc, out) == (0, ""), err  # nothing due
        add_interval(db, "a", now_ms() - 500, interval_ms=60000)
        add_interval(db, "b", now_ms() - 500, interval_ms=60000, agent_id="other")
        rc, out, err = tick(ext, path, "--agents", "other", "--owner", "cron-job")
        assert rc == 0, err
        line = json.loads(out)
        assert line["trigger_id"] == "b" and line["agent_id"] == "other"
        assert runs(db, "trigger_id = 'b'")[0]["owner"] == "cron-job"
        assert runs(db, "trigger_id = 'a'") == []
        rc, out, err = tick(ext, path, "--exec", "exit 0")
        assert rc == 0 and out == "", err
        assert runs(db, "trigger_id = 'a'")[0]["status"] == "success"
        rc, _, err = tick(ext, path, "--extension", t.file("missing"))
        assert rc == 3 and "cannot load extension" in err, err
        rc, _, err = tick(ext, path, "--jobs", "0")
        assert rc == 2, err


def test_tick_exec_does_not_spin_while_commands_run(ext):
    # Regression: after a report, tick mode with --exec polled with a zero
    # timeout until the next command ended (a wakeup "refresh" that tick
    # mode never clears): 0.3 s of host CPU per second of command. Now it
    # sleeps in poll(). Measured against the same tick with commands that
    # end at once, so the host's own start (slow under the sanitizers) is
    # not counted; the commands get a clean environment (no preloaded
    # sanitizer runtime in them).
    def host_cpu(cmd):
        with Tmp() as t:
            path, db = t.db(ext)
            add_due(db, 3)
            p = subprocess.Popen([host_bin(ext), "tick", path, "--extension", ext,
                                  "--exec", cmd, "--clean-env", "--jobs", "1"],
                                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            _, status, usage = os.wait4(p.pid, 0)
            assert os.waitstatus_to_exitcode(status) == 0, p.stderr.read()
            done = one(db, "SELECT count(*) FROM trigger_runs WHERE status = 'success'")
            assert done == 3, done
            return usage.ru_utime + usage.ru_stime  # the host (and its sleeps)
    base = host_cpu("true")
    cpu = host_cpu("sleep 0.5")  # 1.5 s of commands: a spin costs ~0.45 s
    assert cpu - base < 0.1, (cpu, base)


def test_tick_jobs_bound_concurrency(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        for i in range(6):
            add_interval(db, f"j{i}", now_ms() - 500, interval_ms=60000)
        log = t.file("log")
        cmd = f"echo start >> {log}; sleep 0.3; echo end >> {log}"
        t0 = time.time()
        rc, _, err = tick(ext, path, "--exec", cmd, "--jobs", "2")
        took = time.time() - t0
        assert rc == 0, err
        assert 0.85 < took < 3, took  # 6 runs, 2 at a time, 0.3 s each
        depth = peak = 0
        for line in open(log).read().split():
            depth += 1 if line == "start" else -1
            peak = max(peak, depth)
        assert peak <= 2, peak
        assert all(r["status"] == "success" for r in runs(db))


def test_tick_exec_many_short_commands(ext):
    # Commands start on the host's spawner thread (host/dispatch/spawner.c); a short
    # one often ends before the loop has its pid. Every run is still
    # reported once, with its own command's outcome.
    with Tmp() as t:
        path, db = t.db(ext)
        add_due(db, 300)
        cmd = 'read p; case "$TRIGGER_ID" in *3) exit 3;; esac; echo "$TRIGGER_ID"'
        rc, _, err = tick(ext, path, "--exec", cmd, "--jobs", "8", timeout=60)
        assert rc == 1, err  # the failed ones
        got = runs(db)
        assert len(got) == 300, len(got)
        for r in got:
            if r["trigger_id"].endswith("3"):
                assert (r["status"], r["error"]) == ("failed", "exit status 3"), r
            else:
                assert (r["status"], r["result"]) == ("success", r["trigger_id"]), r


def test_busy_host_keeps_its_wal_bounded(ext):
    # The checkpointer thread's passive checkpoints never end with an empty
    # WAL while the loop commits every ms, so the WAL never started over
    # (156 MB after 5,000 commands). Past 4,000 frames the loop's own
    # connection checkpoints between two transactions (host/db/ckpt.h).
    with Tmp() as t:
        path, db = t.db(ext)
        add_due(db, 1200)  # about 9 WAL frames each
        rc, _, err = tick(ext, path, "--exec", "true", "--jobs", "4", "-v", timeout=60)
        assert rc == 0, err[-2000:]
        # 1,200 commands write ~10,800 frames: the WAL must start over.
        # Whether the loop had to step in depends on the machine's speed
        # (a slow loop, as under ASan, leaves the thread time to catch
        # up), so its checkpoints are bounded when they happen, and every
        # checkpoint seen, by either, found at most 4,000 frames plus what
        # the last transactions added (a batch of reports: < 1,000).
        sizes = [int(n) for n in re.findall(r"checkpoint on the loop \(WAL of (\d+) frames\)", err)]
        assert max(sizes, default=0) < 5000, sizes
        seen = [int(n) for n in re.findall(r"checkpoint: \d+ of (\d+) WAL frames", err)]
        assert seen + sizes, err[-2000:]
        assert max(seen + sizes) < 5000, (seen, sizes)
        assert one(db, "SELECT count(*) FROM trigger_runs WHERE status = 'success'") == 1200


def test_two_hosts_never_run_an_occurrence_twice(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        first = now_ms() + 300
        for i in range(4):
            add_interval(db, f"t{i}", first)
        log = t.file("log")
        cmd = f'echo "$TRIGGER_ID $TRIGGER_SCHEDULED_FOR" >> {log}'
        hosts = [start(ext, "run", path, "--exec", cmd, "--owner", f"host-{k}") for k in range(2)]
        time.sleep(3.5)
        for h in hosts:
            rc, _, err = stop(h)
            assert rc == 0, err
        lines = open(log).read().splitlines()
        assert len(lines) >= 8, lines
        assert len(lines) == len(set(lines)), "an occurrence ran twice"
        done = runs(db, "status = 'success'")
        assert len(done) == len(lines)
        keys = [(r["trigger_id"], r["scheduled_for"]) for r in runs(db)]
        assert len(keys) == len(set(keys))
        assert sorted(f"{r['trigger_id']} {r['scheduled_for']}" for r in done) == sorted(lines)
        assert one(db, "SELECT count(*) FROM trigger_runs WHERE status = 'running'") == 0


def test_serve_directory_and_agents(ext):
    with Tmp() as t:
        due = now_ms() + 200
        dbs = {}
        for name in ("alice", "bob"):
            path, db = t.db(ext, name + ".db")
            add_interval(db, name, due, interval_ms=60000, agent_id=name)
            dbs[name] = db
        proc = start(ext, "serve", t.path)
        assert wait_for(lambda: all(runs(d) for d in dbs.values()), 3)
        rc, out, err = stop(proc)
        assert rc == 0, err
        assert sorted(json.loads(x)["trigger_id"] for x in out.splitlines()) == ["alice", "bob"]
        # one database, chosen agents; the other agent's overdue run is left
        path, db = t.db(ext, "shared.sqlite")
        for agent in ("a", "b", "c"):
            add_interval(db, agent, now_ms() - 500, interval_ms=60000, agent_id=agent)
        proc = start(ext, "serve", path, "--agents", "a,b")
        time.sleep(1.5)
        rc, out, err = stop(proc)
        assert rc == 0, err
        assert sorted(r["agent_id"] for r in runs(db)) == ["a", "b"]
        # c stays overdue; the host is not woken for it (the wakeup is asked
        # with the claim options), so it never ticks in a loop either
        assert err.count("not ours") == 0, err


def test_filtered_host_fires_on_time_beside_others_overdue(ext):
    # Another agent's trigger is overdue and nobody serves it; the host
    # serving agent "a" still sleeps until a's own trigger and fires it on
    # time, instead of being woken for c's and backing off.
    with Tmp() as t:
        path, db = t.db(ext, "shared.sqlite")
        add_once(db, "c-late", now_ms() - 3600000, agent_id="c")
        due = now_ms() + 1500
        add_once(db, "a-job", due, agent_id="a")
        proc = start(ext, "serve", path, "--agents", "a")
        assert wait_for(lambda: runs(db, "trigger_id = 'a-job'"), 4)
        rc, out, err = stop(proc)
        assert rc == 0, err
        [r] = runs(db, "trigger_id = 'a-job'")
        assert 0 <= r["claimed_at"] - due < 300, r
        assert not runs(db, "trigger_id = 'c-late'")
        assert err.count("claimed") == 1 and "not ours" not in err, err


def test_sigterm_waits_for_running_command(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "job", now_ms() - 500, interval_ms=60000)
        proc = start(ext, "run", path, "--exec", "sleep 0.8; echo finished >&2")
        assert wait_for(lambda: runs(db), 2)
        t0 = time.time()
        rc, _, err = stop(proc)
        assert rc == 0, err
        assert time.time() - t0 < 2
        r = runs(db)[0]
        assert r["status"] == "success", r


def test_sigterm_kills_after_grace(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "stuck", now_ms() - 500, interval_ms=60000)
        proc = start(ext, "run", path, "--exec", "sleep 30", "--grace", "0.5")
        assert wait_for(lambda: runs(db), 2)
        t0 = time.time()
        rc, _, err = stop(proc)
        assert rc == 0, err
        assert time.time() - t0 < 2
        r = runs(db)[0]
        assert r["status"] == "failed" and r["error"].startswith("killed: host stopped"), r


def test_sigkill_leaves_run_for_next_host(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        add_interval(db, "orphan", now_ms() - 500, interval_ms=60000, max_attempts=2)
        pidfile = t.file("pid")
        proc = start(ext, "run", path, "--exec", f"echo $$ > {pidfile}; exec sleep 30",
                     "--lease-ms", "1000")
        assert wait_for(lambda: os.path.exists(pidfile) and open(pidfile).read().strip(), 2)
        proc.kill()
        proc.wait(timeout=5)
        os.killpg(int(open(pidfile).read()), signal.SIGKILL)  # its orphaned command
        proc.communicate(timeout=5)  # the command held the host's stdout
        assert runs(db)[0]["status"] == "running"
        time.sleep(1.1)  # the lease passes
        rc, out, err = tick(ext, path)
        assert rc == 0, err
        first, second = runs(db)[0], runs(db)[1]
        assert first["status"] == "failed" and first["error"] == "lease expired", first
        assert second["attempt"] == 2 and second["status"] == "success", second
        assert json.loads(out)["attempt"] == 2


def test_tick_never_starts_a_run_after_its_lease(ext):
    # 12 once triggers due, 2 jobs, 0.3 s commands, a 1 s lease. A tick that
    # claimed all 12 at once would start the last ones after their lease
    # passed, while a second host reclaims them as attempt 2: ran twice.
    # The tick claims only what its free slots can start, so every
    # occurrence runs exactly once, whichever host runs it.
    with Tmp() as t:
        path, db = t.db(ext)
        due = now_ms() - 500
        ids = [f"o{i:02d}" for i in range(12)]
        for i in ids:
            add_once(db, i, due, max_attempts=2)
        log = t.file("log")
        cmd = f'echo "$TRIGGER_ID" >> {log}; sleep 0.3'
        common = ("--exec", cmd, "--jobs", "2", "--lease-ms", "1000")
        first = start(ext, "tick", path, *common, "--owner", "host-1")
        time.sleep(0.5)
        second = start(ext, "run", path, *common, "--owner", "host-2")
        _, err1 = first.communicate(timeout=20)
        assert first.returncode == 0, err1
        done = lambda: one(db, "SELECT count(*) FROM triggers WHERE status = 'completed'") == 12
        assert wait_for(done, 10), runs(db)
        rc, _, err2 = stop(second)
        assert rc == 0, err2
        ran = executions(log)
        assert sorted(ran) == ids, sorted(ran)  # each exactly once
        assert all(r["status"] == "success" and r["attempt"] == 1 for r in runs(db)), runs(db)
        assert {r["owner"] for r in runs(db)} <= {"host-1", "host-2"}
        # at most 2 runs per claim (claimed_at is the claim's instant)
        per_claim = db.execute("SELECT max(n) FROM (SELECT count(*) AS n FROM trigger_runs"
                               " GROUP BY owner, claimed_at)").fetchone()[0]
        assert per_claim <= 2, per_claim


def test_heartbeat_keeps_a_long_command_leased(ext):
    # A 2.5 s command under a 0.8 s lease: the host renews the lease while
    # the command runs, so a second host never reclaims it.
    with Tmp() as t:
        path, db = t.db(ext)
        add_once(db, "long", now_ms() - 200, max_attempts=2)
        log = t.file("log")
        cmd = f'echo "$TRIGGER_ID $TRIGGER_ATTEMPT" >> {log}; sleep 2.5'
        common = ("--exec", cmd, "--lease-ms", "800")
        first = start(ext, "run", path, *common, "--owner", "host-1")
        assert wait_for(lambda: runs(db), 3)
        second = start(ext, "run", path, *common, "--owner", "host-2")
        leases, end = set(), time.time() + 10
        while one(db, "SELECT status FROM trigger_runs") == "running" and time.time() < end:
            leases.add(one(db, "SELECT lease_until FROM trigger_runs"))
            time.sleep(0.05)
        for h in (first, second):
            rc, _, err = stop(h)
            assert rc == 0, err
        assert executions(log) == ["long", "1"]
        [r] = runs(db)
        assert (r["status"], r["attempt"], r["owner"]) == ("success", 1, "host-1"), r
        assert r["finished_at"] - r["claimed_at"] >= 2500, r
        assert len(leases) >= 3, leases  # renewed at about half the lease
        assert max(leases) - r["claimed_at"] > 2000, (leases, r)


def test_print_mode_defers_runs_whose_lease_ran_out(ext):
    # Print mode's lease path (--print-lease; also what a pipe without room
    # for the batch gets) claims a batch; a reader that stalls past the
    # lease blocks the writes. Once it reads again, the runs not yet printed have less
    # than a quarter of their lease left: released 'deferred', never printed
    # late, and the next tick offers them again (same run_id, attempt 1).
    with Tmp() as t:
        path, db = t.db(ext)
        due = now_ms() - 500
        for i in range(120):
            add_once(db, f"p{i:03d}", due, instructions=f"job {i} " + "x" * 2000)
        with open(t.file("err"), "w") as err:
            proc = subprocess.Popen([host_bin(ext), "tick", path, "--extension", ext,
                                     "--lease-ms", "1000", "--print-lease"],
                                    stdout=subprocess.PIPE, stderr=err, text=True)
            time.sleep(1.5)  # the pipe is full long before: the host waits
            out, _ = proc.communicate(timeout=10)
        assert proc.returncode == 0, open(t.file("err")).read()
        printed = [json.loads(x)["run_id"] for x in out.splitlines()]
        assert 0 < len(printed) < 120, len(printed)
        status = dict(db.execute("SELECT run_id, status FROM trigger_runs"))
        assert all(status[r] == "success" for r in printed)
        deferred = sorted(r for r, s in status.items() if s == "deferred")
        assert len(deferred) == 120 - len(printed), status
        assert "lease is nearly over" in open(t.file("err")).read()
        rc, out, err = tick(ext, path)
        assert rc == 0, err
        assert sorted(json.loads(x)["run_id"] for x in out.splitlines()) == deferred


# ---- reports in batches (host/db/reports.c) ----------------------------------

BATCH_MAX = 256  # REPORTS_BATCH_MAX


def add_due(db, n, prefix="d", **cols):
    """n interval triggers due now (hourly), in one transaction."""
    due = now_ms() - 500
    db.execute("BEGIN")
    for i in range(n):
        add_interval(db, f"{prefix}{i:05d}", due, interval_ms=3600000, **cols)
    db.execute("COMMIT")


def batches(err):
    """(written, refused) of each report transaction in a -v log."""
    return [(int(a), int(b)) for a, b in
            re.findall(r"(\d+) report\(s\) in one transaction, (\d+) refused", err)]


def test_print_tick_reports_in_batches(ext):
    # 3000 due runs, print mode's lease path: every run printed once and
    # reported 'success' exactly once, none left running, in a dozen
    # transactions (one per 256 reports), not 3000.
    with Tmp() as t:
        path, db = t.db(ext)
        add_due(db, 3000)
        p = subprocess.run([host_bin(ext), "tick", path, "--extension", ext, "-v",
                            "--print-lease"],
                           capture_output=True, text=True, timeout=60)
        assert p.returncode == 0, p.stderr[-2000:]
        printed = [json.loads(x)["run_id"] for x in p.stdout.splitlines()]
        assert len(printed) == 3000 == len(set(printed))
        status = dict(db.execute("SELECT run_id, status FROM trigger_runs"))
        assert sorted(status) == sorted(printed)
        assert set(status.values()) == {"success"}, set(status.values())
        assert one(db, "SELECT sum(run_count) FROM triggers") == 3000
        b = batches(p.stderr)
        assert sum(w for w, _ in b) == 3000 and all(r == 0 for _, r in b), b
        assert len(b) <= 3000 // BATCH_MAX + 2, len(b)
        assert max(w for w, _ in b) == BATCH_MAX, b
        assert "3000 report(s) written in %d transaction(s)" % len(b) in p.stderr
        # the WAL passed 1000 pages: checkpointed by the host's own thread
        # (host/db/ckpt.c), not inside a commit; the database is whole
        done = [int(x) for x in re.findall(r"checkpoint: (\d+) of \d+ WAL frames", p.stderr)]
        assert done and max(done) > 0, p.stderr[-2000:]
        assert one(db, "PRAGMA integrity_check") == "ok"


def test_sigkill_mid_batch_loses_no_run(ext):
    # SIGKILL while reports wait for their window (--report-ms 1000): the
    # reports written before are kept, the pending ones are lost, at most a
    # batch; their runs stay 'running' and the first tick after the lease
    # reclaims them ('failed: lease expired'). No run is lost, none is
    # finished twice, and a run printed but not reported is never 'success'.
    for attempt in range(3):
        with Tmp() as t:
            path, db = t.db(ext)
            add_due(db, 3000)
            proc = subprocess.Popen([host_bin(ext), "tick", path, "--extension", ext,
                                     "--lease-ms", "3000", "--report-ms", "1000",
                                     "--print-lease"],
                                    stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                    text=True)
            printed = [json.loads(proc.stdout.readline())["run_id"] for _ in range(1500)]
            proc.kill()
            rest = proc.stdout.read()  # what was in the pipe
            proc.wait(timeout=5)
            printed += [json.loads(x)["run_id"] for x in rest.splitlines() if x.endswith("}")]
            status = dict(db.execute("SELECT run_id, status FROM trigger_runs"))
            assert len(status) == 3000, len(status)  # the whole claim is there
            done = {r for r, s in status.items() if s == "success"}
            assert set(status.values()) <= {"success", "running"}, set(status.values())
            assert done <= set(printed), done - set(printed)
            lost = len(set(printed) - done)
            assert lost <= BATCH_MAX, lost
            time.sleep(3.2)  # the lease passes
            assert json.loads(one(db, "SELECT trigger_run_due()")) == []  # reclaims only
            after = {r: (s, e) for r, s, e in
                     db.execute("SELECT run_id, status, error FROM trigger_runs")}
            assert len(after) == 3000
            assert {r for r, (s, _) in after.items() if s == "success"} == done
            failed = {r for r, (s, e) in after.items() if (s, e) == ("failed", "lease expired")}
            assert len(failed) == 3000 - len(done), set(after.values())
            assert one(db, "SELECT sum(run_count) FROM triggers") == 3000
            if lost:
                return  # the kill landed inside a batch's window
    raise AssertionError("the kill never landed while reports were pending")


def test_refused_report_in_batch_keeps_the_others(ext):
    # run mode, --report-ms 1000: 10 runs printed, their reports wait.
    # Meanwhile another connection finishes 3 of them ('skipped'). The batch
    # is one transaction: those 3 reports are refused (already finished) and
    # undo only themselves; the other 7 commit.
    with Tmp() as t:
        path, db = t.db(ext)
        add_due(db, 10)
        proc = start(ext, "run", path, "--report-ms", "1000", "--print-lease")
        lines = [json.loads(proc.stdout.readline()) for _ in range(10)]
        mine = [r["run_id"] for r in lines[:3]]
        for r in mine:
            one(db, "SELECT trigger_run_finish(?, 'skipped', 'done elsewhere')", r)
        assert wait_for(lambda: one(db, "SELECT count(*) FROM trigger_runs"
                                        " WHERE status = 'success'") == 7, 3)
        rc, _, err = stop(proc)
        assert rc == 0, err
        assert batches(err) == [(7, 3)], batches(err)
        assert err.count("already finished") == 3, err
        got = dict(db.execute("SELECT run_id, status FROM trigger_runs"))
        assert got == {r["run_id"]: "skipped" if r["run_id"] in mine else "success"
                       for r in lines}, got


def test_synchronous_option(ext):
    with Tmp() as t:
        path, db = t.db(ext)
        for flags, want in (((), "normal"), (("--synchronous", "full"), "full"),
                            (("--synchronous", "normal"), "normal")):
            rc, _, err = tick(ext, path, "-v", *flags)
            assert rc == 0 and f"synchronous {want}" in err, (flags, err)
        rc, _, err = tick(ext, path, "--synchronous", "fast")
        assert rc == 2 and "--synchronous: expected full or normal, not fast" in err, err
        rc, _, err = tick(ext, path, "--report-ms", "5000")
        assert rc == 2 and "--report-ms 5000: expected 0..1000" in err, err


if __name__ == "__main__":
    import sys
    ext = sys.argv[1] if len(sys.argv) > 1 else "build/triggers"
    for name, fn in sorted(globals().items()):
        if name.startswith("test_") and callable(fn):
            t0 = time.time()
            fn(ext)
            print(f"ok {name} ({time.time() - t0:.1f}s)")
