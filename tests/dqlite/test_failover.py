"""tests/dqlite/test_failover.py -- the extension on a 3-node dqlite
cluster, every statement sent through the `dqlite` shell with an explicit
`now`, the leader killed with SIGKILL:

  - test_failover: interval, once and cron triggers; ticks and finishes
    through the leader; SIGKILL; ticks and finishes through the survivors.
    The new leader has every trigger and every finished run, row for row
    what a local file given the same statements holds; no run was handed
    out twice; the schedules continue where they were; the run claimed on
    the old leader and never finished is reclaimed after its lease
    (attempt 2);
  - test_kill_points: the leader killed before a tick, inside the tick's
    transaction, during its commit (followers paused, so the commit waits
    for its quorum) and after its commit. Each time the new leader holds
    exactly the state before the tick or exactly the state after it, and
    the same tick sent again leaves exactly the state after it;
  - test_signal_and_chain_across_a_leader_kill: an event trigger signalled
    on the leader runs on the new leader after a SIGKILL, and its finish
    there signals the chained trigger (docs/reactive.md).
"""
import json
import os
import time

from cluster import wait_until
from replica import Replica

T0 = 1767225600000  # 2026-01-01T00:00:00Z
MIN = 60000


def tick_sql(now, owner, lease_ms=60000):
    opts = json.dumps({"owner": owner, "lease_ms": lease_ms})
    return f"SELECT trigger_run_due({now}, '{opts}')"


def finish_sql(run_id, status, now, error=None):
    err = "NULL" if error is None else f"'{error}'"
    return f"SELECT trigger_run_finish('{run_id}', '{status}', {err}, {now})"


class Pair:
    """One database on the cluster and its replica, fed the same
    statements."""

    def __init__(self, ctx, name):
        self.c = ctx.cluster
        self.name = name
        self.rep = Replica(ctx.ext, os.path.join(ctx.tmp, name + ".db"))
        self.handed = []  # every run id a tick answer handed out

    def both(self, sql):
        """Apply on the cluster and on the replica; the cluster's answer,
        which must be the replica's."""
        got = self.c.sql(self.name, sql)
        want = self.rep.apply(sql)
        want = "" if want is None else str(want)
        assert got == want, f"{sql}:\n cluster {got[:300]}\n replica {want[:300]}"
        return got

    def tick(self, now, owner, lease_ms=60000):
        runs = json.loads(self.both(tick_sql(now, owner, lease_ms)))
        self.handed += [r["run_id"] for r in runs]
        return runs

    def state(self):
        return json.loads(self.c.sql(self.name, self.rep.state_sql()))

    def assert_same(self):
        got, want = self.state(), self.rep.dump()
        assert got == want, f"cluster state differs from the replica:\n{got}\n{want}"

    def assert_handed_once(self):
        dup = {r for r in self.handed if self.handed.count(r) > 1}
        assert not dup, f"run ids handed out twice: {sorted(dup)}"

    def rows(self, sql):
        return json.loads(self.c.sql(self.name, sql))


def install(p):
    p.both("SELECT trigger_install()")
    cols = "trigger_id, instructions, trigger_type, created_at"
    p.both(f"INSERT INTO triggers({cols}, interval_ms) "
           f"VALUES ('every-min', 'check the queue', 'interval', {T0}, {MIN})")
    p.both(f"INSERT INTO triggers({cols}, scheduled_at) "
           f"VALUES ('once', 'send the report', 'once', {T0}, {T0 + 150000})")
    p.both(f"INSERT INTO triggers({cols}, cron_expression, timezone, max_attempts, "
           "backoff_ms) VALUES ('cron', 'rotate keys', 'cron', "
           f"{T0 + 1000}, '*/2 * * * *', 'Europe/Berlin', 2, 1000)")


def test_failover(ctx):
    c = ctx.cluster
    p = Pair(ctx, "failover")
    install(p)
    old = c.leader()
    # through the leader: T0+1m (every-min), T0+2m (every-min, cron)
    runs = p.tick(T0 + MIN, "node-a", lease_ms=30000)
    assert [r["run_id"] for r in runs] == [f"every-min@{T0 + MIN}#1"], runs
    p.both(finish_sql(runs[0]["run_id"], "success", T0 + MIN + 1000))
    runs = p.tick(T0 + 2 * MIN, "node-a", lease_ms=30000)
    ids = sorted(r["run_id"] for r in runs)
    assert ids == [f"cron@{T0 + 2 * MIN}#1", f"every-min@{T0 + 2 * MIN}#1"], ids
    p.both(finish_sql(f"every-min@{T0 + 2 * MIN}#1", "failed", T0 + 2 * MIN + 500,
                      "upstream 503"))
    # cron@T0+2m stays running on node-a: its host dies with the leader
    p.assert_same()
    c.kill(old)
    new = c.leader()
    assert new != old
    # the survivors hold everything the old leader committed
    p.assert_same()
    # through the survivors: T0+3m reclaims the lease (ended T0+2.5m) as
    # attempt 2, runs every-min and the once trigger
    runs = p.tick(T0 + 3 * MIN, "node-b")
    ids = sorted(r["run_id"] for r in runs)
    assert ids == [f"cron@{T0 + 2 * MIN}#2", f"every-min@{T0 + 3 * MIN}#1",
                   f"once@{T0 + 150000}#1"], ids
    for r in runs:
        p.both(finish_sql(r["run_id"], "success", T0 + 3 * MIN + 2000))
    runs = p.tick(T0 + 4 * MIN, "node-b")
    ids = sorted(r["run_id"] for r in runs)
    assert ids == [f"cron@{T0 + 4 * MIN}#1", f"every-min@{T0 + 4 * MIN}#1"], ids
    for r in runs:
        p.both(finish_sql(r["run_id"], "success", T0 + 4 * MIN + 100))
    # on the new leader: row for row the replica's state
    p.assert_same()
    p.assert_handed_once()
    got = p.rows("SELECT json_group_array(json_array(run_id, status, error, owner)) "
                 "FROM (SELECT * FROM trigger_runs ORDER BY run_id)")
    want = sorted([
        [f"cron@{T0 + 2 * MIN}#1", "failed", "lease expired", "node-a"],
        [f"cron@{T0 + 2 * MIN}#2", "success", None, "node-b"],
        [f"cron@{T0 + 4 * MIN}#1", "success", None, "node-b"],
        [f"every-min@{T0 + 2 * MIN}#1", "failed", "upstream 503", "node-a"],
        [f"every-min@{T0 + 3 * MIN}#1", "success", None, "node-b"],
        [f"every-min@{T0 + 4 * MIN}#1", "success", None, "node-b"],
        [f"every-min@{T0 + MIN}#1", "success", None, "node-a"],
        [f"once@{T0 + 150000}#1", "success", None, "node-b"],
    ])
    assert got == want, got
    dup = p.rows("SELECT json_group_array(k) FROM (SELECT trigger_id || scheduled_for "
                 "|| '#' || attempt AS k FROM trigger_runs GROUP BY trigger_id, "
                 "scheduled_for, attempt HAVING count(*) > 1)")
    assert dup == [], dup
    # the schedules continue where they were
    got = p.rows("SELECT json_group_array(json_array(trigger_id, status, next_due_at, "
                 "run_count)) FROM (SELECT * FROM triggers ORDER BY trigger_id)")
    assert got == [["cron", "scheduled", T0 + 6 * MIN, 3],
                   ["every-min", "scheduled", T0 + 5 * MIN, 4],
                   ["once", "completed", None, 1]], got
    p.rep.close()


def log_segments(c, addr):
    """The node's Raft log segment files and their modification times: a
    node writes them only to append entries."""
    out = {}
    for root, _, files in os.walk(c.data_dir(addr)):
        for f in files:
            if f.startswith("open-"):
                out[f] = os.stat(os.path.join(root, f)).st_mtime_ns
    return out


def pause_followers(c, tries=5):
    """SIGSTOP every node but the leader, and make sure that node still
    leads (an election may just have moved it): (leader, followers)."""
    for _ in range(tries):
        leader = c.leader()
        followers = [a for a in c.procs if a != leader]
        for a in followers:
            c.pause(a)
        rc, out, _ = c.shell(".leader", servers=[leader], timeout=5)
        if rc == 0 and out == leader:
            return leader, followers
        for a in followers:
            c.resume(a)
        time.sleep(1)
    raise TimeoutError("no stable leader to isolate")


def send_killing_leader(c, db, sql, point):
    """Send sql with the leader SIGKILLed at point: "before" it (sent to the
    new leader: its answer), "inside" it (once the leader has run it for
    0.2 s of CPU: sql must still be running then; it must fail), during
    its "commit" (the followers paused, so the commit waits for its
    quorum, killed once the leader appends it to its log), or "after" it
    (its answer)."""
    leader = c.leader()
    if point == "before":
        c.kill(leader)
        return c.sql(db, sql)  # finds the new leader
    if point == "inside":
        cpu = c.cpu_ticks(leader)
        sh = c.spawn_sql(db, sql)
        hz = os.sysconf("SC_CLK_TCK")
        wait_until(lambda: c.cpu_ticks(leader) - cpu >= hz // 5, 30,
                   "the leader to run the statement")
        c.kill(leader)
        sh.communicate(timeout=60)
        assert sh.returncode != 0, "the killed statement reported success"
        return None
    if point == "commit":
        leader, followers = pause_followers(c)
        log = log_segments(c, leader)
        sh = c.spawn_sql(db, sql, servers=[leader])
        wait_until(lambda: log_segments(c, leader) != log, 30,
                   "the leader to append the commit to its log")
        c.kill(leader)
        for a in followers:
            c.resume(a)
        sh.communicate(timeout=60)
        return None
    got = c.sql(db, sql)
    c.kill(leader)
    return got


# A tick followed, in the same statement and so the same transaction, by a
# few seconds of counting: killed while it counts, the tick's writes are
# made but not committed.
SLOW = (" UNION ALL SELECT count(*) FROM (WITH RECURSIVE n(x) AS (SELECT 1 "
        "UNION ALL SELECT x + 1 FROM n WHERE x < 30000000) SELECT x FROM n)")


def test_kill_points(ctx):
    c = ctx.cluster
    p = Pair(ctx, "killpoints")
    p.both("SELECT trigger_install()")
    for i in range(20):
        p.both("INSERT INTO triggers(trigger_id, instructions, trigger_type, "
               f"interval_ms, created_at) VALUES ('t{i:02}', 'job {i}', 'interval', "
               f"{MIN}, {T0})")
    outcomes = []
    for k, point in enumerate(["before the tick", "inside the tick's transaction",
                               "during the tick's commit", "after the commit"]):
        if k:
            for a in c.addrs:
                if a not in c.procs:
                    c.restart(a)
        now = T0 + (k + 1) * MIN
        sql = tick_sql(now, f"owner-{k}")
        before = p.rep.dump()
        answer, after = p.rep.would(sql)
        if point == "before the tick":
            got = send_killing_leader(c, p.name, sql, "before")
            assert got == answer, got
        elif point == "inside the tick's transaction":
            send_killing_leader(c, p.name, sql + SLOW, "inside")
        elif point == "during the tick's commit":
            send_killing_leader(c, p.name, sql, "commit")
        else:
            got = send_killing_leader(c, p.name, sql, "after")
            assert got == answer, got
        state = p.state()
        assert state in (before, after), f"{point}: a partial tick:\n{state}"
        applied = state == after
        outcomes.append(f"{point}: {'applied' if applied else 'not applied'}")
        if point in ("before the tick", "after the commit"):
            assert applied, f"{point}: the committed tick is missing"
        if point == "inside the tick's transaction":
            assert not applied, f"{point}: an uncommitted tick was applied"
        # the same tick again: nothing twice, exactly the state after it
        again = c.sql(p.name, sql)
        assert again == ("[]" if applied else answer), again
        assert p.state() == after, f"{point}: the tick sent again"
        p.rep.apply(sql)
    print("  kill points: " + "; ".join(outcomes))
    p.rep.close()


def test_signal_and_chain_across_a_leader_kill(ctx):
    # docs/reactive.md: a signal committed on the leader makes its event
    # trigger due on the new leader after a SIGKILL, and that run's finish
    # there signals run:deploy:success, the chain, in its own transaction.
    c = ctx.cluster
    p = Pair(ctx, "reactive")
    p.both("SELECT trigger_install()")
    cols = "trigger_id, instructions, trigger_type, created_at, event_key"
    p.both(f"INSERT INTO triggers({cols}) VALUES ('deploy', 'deploy it', 'event', {T0},"
           " 'pr:merged')")
    p.both(f"INSERT INTO triggers({cols}) VALUES ('notify', 'tell the team', 'event', {T0},"
           " 'run:deploy:success')")
    assert p.both(f"SELECT trigger_signal('pr:merged', '{{\"pr\":41}}', {T0 + 1000})") == "1"
    p.assert_same()
    old = c.leader()
    c.kill(old)
    assert c.leader() != old
    p.assert_same()
    [r] = p.tick(T0 + 2000, "node-b")
    assert r["trigger_id"] == "deploy" and r["payload"]["event"]["payload"] == {"pr": 41}, r
    p.both(finish_sql(r["run_id"], "success", T0 + 3000))
    [r2] = p.tick(T0 + 4000, "node-b")
    assert r2["trigger_id"] == "notify", r2
    assert r2["payload"]["event"]["key"] == "run:deploy:success", r2
    p.both(finish_sql(r2["run_id"], "success", T0 + 5000))
    p.assert_same()
    p.assert_handed_once()
    p.rep.close()
