"""bench/schema_variants.py -- which schema would let the busy tick reach
0.8x of the plain tables (issue #22)? Information for a schema decision,
not part of `make bench`.

    python3 bench/schema_variants.py OURS_DB PLAIN_DB WORKDIR [REPS [K,K..]]

OURS_DB and PLAIN_DB are the bench's 100k data sets (`build/bench/mkdb ours
100000 OURS_DB 0`, `mkdb plain 100000 PLAIN_DB 0`). Each variant is a copy
of OURS_DB changed by plain SQL (the extension is not loaded), ticked with
the busy tick's diagnostic set-based SQL (bench/busy_tick.c) and timed as
that program times it: fresh copy, fresh connection, BEGIN IMMEDIATE;
INSERT .. SELECT; UPDATE; COMMIT; passive checkpoint. Each line: the
plain tables' time / the variant's (fires/s ratio), median [min-max].
Measured results: bench/README.md, "Busy tick against 0.8x".
"""
import os
import shutil
import sqlite3
import statistics
import sys
import time

C0, IV = 1700000000000, 3600000


def now_due(k):
    """The instant at which exactly k triggers are due (bench/dbgen.c)."""
    return C0 + IV + k - 1

OURS, PLAIN, D = sys.argv[1:4] if len(sys.argv) > 3 else (None, None, None)

PLAIN_SQL = [
 "INSERT INTO runs(run_id, trigger_id, agent_id, scheduled_for, attempt, status, owner, claimed_at, finished_at, latency_ms, payload)"
 " SELECT trigger_id || '@' || next_due || '#1', trigger_id, '', next_due, 1, 'success', '', ?1, ?1, 0,"
 " json_object('text', instructions, 'source', 'trigger', 'triggerId', trigger_id, 'triggerRunId', trigger_id || '@' || next_due || '#1',"
 " 'wakeMode', 'next_autonomy_cycle', 'displayName', substr(instructions, 1, 30), 'scope', '', 'scheduledFor', next_due)"
 " FROM triggers WHERE next_due <= ?1",
 "UPDATE triggers SET next_due = next_due + interval_ms WHERE next_due <= ?1"]

RUN_INS = ("INSERT INTO triggers_rundata(run_id, trigger_id, agent_id, scheduled_for, attempt, status, owner, claimed_at, lease_until, latency_ms, payload, deferrals)"
 " SELECT s.trigger_id || '@' || s.next_due_at || '#1', s.trigger_id, s.agent_id, s.next_due_at, 1, 'running', '', ?1, ?1 + 60000, NULL,"
 " json_object('text', d.instructions, 'source', 'trigger', 'triggerId', s.trigger_id, 'triggerRunId', s.trigger_id || '@' || s.next_due_at || '#1',"
 " 'wakeMode', d.wake_mode, 'displayName', d.display_name, 'scope', d.scope, 'scheduledFor', s.next_due_at), 0")
TWO = [RUN_INS + " FROM triggers_state AS s JOIN triggers_data AS d ON d.id = s.id WHERE s.next_due_at <= ?1",
 "UPDATE triggers_state SET next_due_at = next_due_at + (SELECT interval_ms FROM triggers_data AS d WHERE d.id = triggers_state.id),"
 " fire_at = fire_at + (SELECT interval_ms FROM triggers_data AS d WHERE d.id = triggers_state.id),"
 " claims = claims + 1, running = running + 1, updated_at = ?1 WHERE next_due_at <= ?1"]
ONE = [RUN_INS.replace("d.", "s.") + " FROM tm AS s WHERE s.next_due_at <= ?1",
 "UPDATE tm SET next_due_at = next_due_at + interval_ms, fire_at = fire_at + interval_ms,"
 " claims = claims + 1, running = running + 1, s_updated_at = ?1 WHERE next_due_at <= ?1"]

def run_ddl_without_runid_unique(db):
    sql = db.execute("SELECT sql FROM sqlite_schema WHERE name='triggers_rundata'").fetchone()[0]
    idx = [r[0] for r in db.execute("SELECT sql FROM sqlite_schema WHERE tbl_name='triggers_rundata' AND type='index' AND sql IS NOT NULL")]
    new = sql.replace("run_id TEXT NOT NULL UNIQUE", "run_id TEXT NOT NULL").replace("CREATE TABLE triggers_rundata", "CREATE TABLE rd2")
    db.executescript(new + "; INSERT INTO rd2 SELECT * FROM triggers_rundata; DROP TABLE triggers_rundata; ALTER TABLE rd2 RENAME TO triggers_rundata;")
    for s in idx: db.execute(s)

def merge_triggers(db):
    sql = db.execute("SELECT sql FROM sqlite_schema WHERE name='triggers_data'").fetchone()[0]
    cols = [r[1] for r in db.execute("PRAGMA table_info(triggers_data)")]
    new = sql.replace("CREATE TABLE triggers_data(", "CREATE TABLE tm(")
    new = new[:new.rindex(")")] + ", next_due_at INTEGER, fire_at INTEGER, claims INTEGER NOT NULL DEFAULT 0, running INTEGER NOT NULL DEFAULT 0, s_updated_at INTEGER)"
    db.execute(new)
    db.execute(f"INSERT INTO tm SELECT {', '.join('d.' + c for c in cols)}, s.next_due_at, s.fire_at, s.claims, s.running, s.updated_at"
               " FROM triggers_data d JOIN triggers_state s ON s.id = d.id ORDER BY d.id")
    db.executescript("""
      CREATE INDEX tm_due ON tm(next_due_at, trigger_id) WHERE next_due_at IS NOT NULL;
      CREATE INDEX tm_status ON tm(status);
      CREATE INDEX tm_created ON tm(agent_id, scope, created_at);
      DROP TABLE triggers_state; DROP TABLE triggers_data;""")

VARIANTS = {
  "V0 as is": (lambda db: None, TWO),
  "V1 no agent/sched run idx": (lambda db: db.executescript("DROP INDEX triggers_rundata_agent; DROP INDEX triggers_rundata_sched;"), TWO),
  "V2 V1 + no run_id unique": (lambda db: (db.executescript("DROP INDEX triggers_rundata_agent; DROP INDEX triggers_rundata_sched;"), run_ddl_without_runid_unique(db)), TWO),
  "V3 one trigger table": (lambda db: merge_triggers(db), ONE),
  "V4 V2 + one trigger table": (lambda db: (db.executescript("DROP INDEX triggers_rundata_agent; DROP INDEX triggers_rundata_sched;"), run_ddl_without_runid_unique(db), merge_triggers(db)), ONE),
}

def prepare(name, mk):
    path = f"{D}/{name.split()[0]}.db"
    for s in ("", "-wal", "-shm"):
        if os.path.exists(path + s): os.remove(path + s)
    shutil.copy(OURS, path)
    db = sqlite3.connect(path, isolation_level=None)
    mk(db)
    db.execute("VACUUM")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    return path

def tick(tmpl, sql, k):
    work = tmpl + ".work"
    for s in ("", "-wal", "-shm"):
        if os.path.exists(work + s): os.remove(work + s)
    shutil.copy(tmpl, work)
    db = sqlite3.connect(work, isolation_level=None)
    db.execute("PRAGMA synchronous=NORMAL")
    now = now_due(k)
    t0 = time.perf_counter()
    db.execute("BEGIN IMMEDIATE")
    for s in sql: db.execute(s, (now,))
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(PASSIVE)")
    t = time.perf_counter() - t0
    db.close()
    return t

def main():
    if not D:
        sys.exit(__doc__)
    os.makedirs(D, exist_ok=True)
    reps = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    tmpls = {n: prepare(n, mk) for n, (mk, _) in VARIANTS.items()}
    plain = f"{D}/plain.db"; shutil.copy(PLAIN, plain)
    for k in [int(x) for x in (sys.argv[5].split(",") if len(sys.argv) > 5 else ["1000","10000","100000"])]:
        ratios = {n: [] for n in VARIANTS}
        for r in range(reps):
            tp = tick(plain, PLAIN_SQL, k)
            for n, (_, sql) in VARIANTS.items():
                ratios[n].append(tp / tick(tmpls[n], sql, k))
        for n in VARIANTS:
            v = ratios[n]
            print(f"K={k:6d} {n:28s} {statistics.median(v):.2f}x [{min(v):.2f}-{max(v):.2f}]", flush=True)

main()
