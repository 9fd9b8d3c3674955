"""tests/dqlite/test_host.py -- trigger-host driving the dqlite cluster
(`--via 'dqlite -s ADDRS "$TRIGGER_DB"'`), in real time: interval
triggers every second, `--exec` commands that take 1.5 s, the leader
killed with SIGKILL while commands run. The host keeps going through the
survivors: the commands running at the kill are reported to the new
leader, new runs are claimed and executed after it, no attempt is
executed twice, every run recorded `success` was executed, and nothing is
claimed twice for one (trigger_id, scheduled_for, attempt).
"""
import json
import os
import signal
import subprocess
import time

from cluster import wait_until

RUN_S = 1.5  # how long each command takes


def read_log(path):
    """[(event, run_id)] from the commands' log."""
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [tuple(line.split()) for line in f if line.strip()]


def test_host_via_shell_survives_failover(ctx):
    c = ctx.cluster
    db = "host"
    log = os.path.join(ctx.tmp, "commands.log")
    c.sql(db, "SELECT trigger_install()")
    now = int(time.time() * 1000)
    for t in ("alpha", "beta"):
        c.sql(db, "INSERT INTO triggers(trigger_id, instructions, trigger_type, "
              f"interval_ms, created_at) VALUES ('{t}', 'work {t}', 'interval', "
              f"1000, {now})")
    cmd = (f'echo "start $TRIGGER_RUN_ID" >> {log}; sleep {RUN_S}; '
           f'echo "end $TRIGGER_RUN_ID" >> {log}')
    via = " ".join(c.shell_args("X")[:-1]) + ' "$TRIGGER_DB"'
    err_path = os.path.join(ctx.tmp, "host.stderr")
    with open(err_path, "wb") as err:
        host = subprocess.Popen(
            [ctx.host, "run", db, "--via", via, "--exec", cmd, "--owner", "h1",
             "--lease-ms", "30000", "--poll-ms", "500", "--verbose"],
            stdout=subprocess.DEVNULL, stderr=err, stdin=subprocess.DEVNULL,
            env=c.shell_env)
    c.others.append(host)
    # warm: two runs executed and reported through the first leader
    wait_until(lambda: sum(e == "end" for e, _ in read_log(log)) >= 2, 60,
               "two commands to end")
    # kill the leader while a command runs
    def running():
        ev = read_log(log)
        ended = {r for e, r in ev if e == "end"}
        return [r for e, r in ev if e == "start" and r not in ended]
    wait_until(lambda: running(), 30, "a command to be running")
    in_flight = running()
    t_kill = int(time.time() * 1000)
    c.kill(c.leader())
    # after the failover: two more commands started and ended
    seen = len(read_log(log))

    def after():
        ev = read_log(log)[seen:]
        started = [r for e, r in ev if e == "start" and r not in in_flight]
        ended = {r for e, r in ev if e == "end"}
        return len([r for r in started if r in ended]) >= 2
    wait_until(after, 60, "two runs claimed after the failover to end")
    host.send_signal(signal.SIGTERM)
    assert host.wait(timeout=60) == 0, "trigger-host exit status"
    with open(err_path, errors="replace") as f:
        host_log = f.read()
    ev = read_log(log)
    starts = [r for e, r in ev if e == "start"]
    assert len(starts) == len(set(starts)), f"an attempt executed twice: {starts}"
    ended = {r for e, r in ev if e == "end"}
    rows = json.loads(c.sql(db, "SELECT json_group_array(json_array(run_id, status, "
                            "claimed_at, finished_at)) FROM trigger_runs"))
    by_id = {r[0]: r for r in rows}
    for r in in_flight:
        # its report went to the new leader after the kill
        assert by_id[r][1] == "success" and by_id[r][3] >= t_kill, (r, by_id[r], host_log[-3000:])
    claimed_after = [r for r in rows if r[2] and r[2] > t_kill and r[1] == "success"]
    assert len(claimed_after) >= 2, (rows, host_log[-3000:])
    for run_id, status, _, _ in rows:
        if status == "success":
            assert run_id in ended, f"{run_id} recorded success, never executed"
    for run_id in ended:
        # reported, or its report was cut by the failover (then the run
        # stays running until its lease ends)
        status = by_id[run_id][1]
        assert status == "success" or (
            status == "running" and f"report {run_id} success refused" in host_log), (
            run_id, status)
    print(f"  host: {len(starts)} commands, {len(in_flight)} running at the kill, "
          f"{len(claimed_after)} claimed after it, "
          f"{host_log.count('refused')} report(s) cut, "
          f"{host_log.count('via:')} statement(s) failed")
    dup = c.sql(db, "SELECT count(*) FROM (SELECT 1 FROM trigger_runs GROUP BY "
                "trigger_id, scheduled_for, attempt HAVING count(*) > 1)")
    assert dup == "0", dup
