"""tests/dqlite/test_big_tick.py -- ticks that write more than SQLite's
page cache holds, on the cluster. dqlite 1.11's VFS cannot read back a
page spilled into its WAL before the commit, so without the preload
library turning cache_spill off on dqlite's connections (ext/preload.c)
the second of these ticks fails with "disk I/O error". Each tick claims
every one of TRIGGERS due triggers; the cluster ends with exactly the
replica's runs.
"""
import json
import os

from replica import Replica

T0 = 1767225600000
MIN = 60000
TRIGGERS = 8000
TICKS = 3

SUMMARY = ("SELECT json_array(count(*), count(DISTINCT run_id), sum(scheduled_for), "
           "sum(length(payload)), sum(status = 'running')) FROM trigger_runs")


def test_ticks_larger_than_the_page_cache(ctx):
    c = ctx.cluster
    db = "bigtick"
    rep = Replica(ctx.ext, os.path.join(ctx.tmp, db + ".db"))
    setup = [
        "SELECT trigger_install()",
        "INSERT INTO triggers(trigger_id, instructions, trigger_type, interval_ms, "
        "overlap_policy, created_at) SELECT printf('t%05d', x), 'job number ' || x, "
        f"'interval', {MIN}, 'allow', {T0} FROM (WITH RECURSIVE n(x) AS (SELECT 1 "
        f"UNION ALL SELECT x + 1 FROM n WHERE x < {TRIGGERS}) SELECT x FROM n)",
    ]
    for s in setup:
        c.sql(db, s)
        rep.apply(s)
    for k in range(1, TICKS + 1):
        s = (f"SELECT json_array_length(trigger_run_due({T0 + k * MIN}, "
             "'{\"owner\":\"big\",\"lease_ms\":3600000}'))")
        got = c.sql(db, s)
        assert got == str(TRIGGERS), f"tick {k}: {got}"
        assert rep.apply(s) == TRIGGERS
    got = json.loads(c.sql(db, SUMMARY))
    want = json.loads(rep._run(SUMMARY))
    assert got == want == [TRIGGERS * TICKS, TRIGGERS * TICKS, got[2], got[3],
                           TRIGGERS * TICKS], (got, want)
    rep.close()
