"""bench/run_indexes.py -- what each index of triggers_rundata costs the
tick (claiming K runs) and the finish (trigger_run_finish_many of those K
runs, 256 per transaction). Information for the run table's indexes
(issue 35), not part of `make bench`.

    python3 bench/run_indexes.py OURS_DB WORKDIR [REPS [K]]

OURS_DB is the bench's 100k data set (`build/bench/mkdb ours 100000
OURS_DB 0`); TRIGGERS_EXT the extension to load. An index's cost is
measured as the price of a second copy of it (CREATE INDEX .._copy ON the
same columns, same WHERE): the same entries written at the same moments,
so it works for the indexes a lookup cannot do without too; `run_id` is
the dropped UNIQUE index put back. Two data sets: every trigger of agent
'' (dbgen's), and the same spread over 1,000 agents. Each repetition
copies the template, adds the variant's index, opens a fresh connection
(cold cache) and times the tick to the end of its COMMIT plus a passive
checkpoint, then the finishes the same way; variants interleaved. Each
line: the variant's time / the base's, median [min-max], for the tick and
for the finish, and the pages the copy adds to the WAL (the log frames the
checkpoint reports: deterministic, where the times are not on a shared
machine). Results: bench/README.md, "The run table's indexes".
"""
import json
import os
import shutil
import sqlite3
import statistics
import sys
import time

C0, IV = 1700000000000, 3600000
EXT = os.environ.get("TRIGGERS_EXT", "build/triggers")


def now_due(k):
    """The instant at which exactly k triggers are due (bench/dbgen.c)."""
    return C0 + IV + k - 1


def index_sql(db):
    return {r[0]: r[1] for r in db.execute(
        "SELECT name, sql FROM sqlite_schema WHERE type = 'index'"
        " AND tbl_name = 'triggers_rundata' AND sql IS NOT NULL")}


def variants(template):
    db = sqlite3.connect(template)
    idx = index_sql(db)
    db.close()
    out = [("base", None), ("run_id (dropped)",
                            "CREATE UNIQUE INDEX triggers_rundata_runid"
                            " ON triggers_rundata(run_id)")]
    for name, sql in sorted(idx.items()):
        out.append((name, sql.replace(name, name + "_copy", 1)))
    # the UNIQUE key of the table's own definition (an autoindex)
    out.append(("key (trigger_id, incarnation, scheduled_for, attempt)",
                "CREATE INDEX triggers_rundata_key_copy ON triggers_rundata"
                "(trigger_id, incarnation, scheduled_for, attempt)"))
    return out


def connect(path):
    db = sqlite3.connect(path, isolation_level=None)
    db.enable_load_extension(True)
    db.load_extension(EXT)
    return db


def one_rep(template, work, sql, k):
    path = os.path.join(work, "v.db")
    for ext in ("", "-wal", "-shm"):
        if os.path.exists(path + ext):
            os.remove(path + ext)
    shutil.copy(template, path)
    if sql:
        db = sqlite3.connect(path)
        db.execute(sql)
        db.commit()
        db.close()
    db = connect(path)
    db.execute("PRAGMA journal_mode=WAL")
    now = now_due(k)
    t0 = time.perf_counter()
    runs = json.loads(db.execute("SELECT trigger_run_due(?)", (now,)).fetchone()[0])
    tick_pages = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1]
    tick = time.perf_counter() - t0
    assert len(runs) == k, len(runs)
    ids = [r["run_id"] for r in runs]
    t0 = time.perf_counter()
    for i in range(0, len(ids), 256):
        items = [{"run_id": r, "status": "success"} for r in ids[i:i + 256]]
        db.execute("SELECT trigger_run_finish_many(?, ?)", (json.dumps(items), now + 1))
    fin_pages = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()[1]
    fin = time.perf_counter() - t0
    db.close()
    return tick, fin, tick_pages, fin_pages


def spread_agents(src, dst):
    shutil.copy(src, dst)
    db = sqlite3.connect(dst)
    db.executescript("UPDATE triggers_data SET agent_id = 'agent' || (id % 1000);"
                     "UPDATE triggers_state SET agent_id = 'agent' || (id % 1000);"
                     "VACUUM;")
    db.close()


def main():
    src, work = sys.argv[1:3]
    reps = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    k = int(sys.argv[4]) if len(sys.argv) > 4 else 10000
    os.makedirs(work, exist_ok=True)
    agents = os.path.join(work, "agents.db")
    spread_agents(src, agents)
    for label, template in (("agent ''", src), ("1,000 agents", agents)):
        vs = variants(template)
        res = {name: ([], []) for name, _ in vs}
        pages = {}
        for _ in range(reps):
            for name, sql in vs:
                t, f, tp, fp = one_rep(template, work, sql, k)
                res[name][0].append(t)
                res[name][1].append(f)
                pages[name] = (tp, fp)
        bt, bf = res["base"]
        print(f"## {label}, {k} due of the 100k data set, {reps} repetitions")
        print(f"base: tick {statistics.median(bt) * 1000:.0f} ms,"
              f" finish {statistics.median(bf) * 1000:.0f} ms;"
              f" WAL pages tick {pages['base'][0]}, finish {pages['base'][1]}")
        for name, _ in vs[1:]:
            t, f = res[name]
            rt = [a / b for a, b in zip(t, bt)]
            rf = [a / b for a, b in zip(f, bf)]
            print(f"{name}: tick {statistics.median(rt):.2f}x"
                  f" [{min(rt):.2f}-{max(rt):.2f}], finish"
                  f" {statistics.median(rf):.2f}x [{min(rf):.2f}-{max(rf):.2f}];"
                  f" WAL pages +{pages[name][0] - pages['base'][0]} tick,"
                  f" +{pages[name][1] - pages['base'][1]} finish")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
