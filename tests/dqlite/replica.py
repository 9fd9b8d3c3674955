"""tests/dqlite/replica.py -- the reference the cluster is compared with: a
local SQLite file (the extension loaded the ordinary way) to which a test
applies exactly the statements the cluster applied, each in its own
transaction as the `dqlite` shell sends them (BEGIN; statement; COMMIT).

Given `now`, every function is deterministic, so after the same statements
the cluster's tables and the replica's are identical row for row; a tick
cut short by a node's death leaves the cluster equal to the replica
before it (`dump()`) or after it (`would(sql)`), never anything else.

`state_sql()` is the one query that reads every shadow table as JSON; it
is run on the replica here and on the cluster's leader through the shell.
"""
import json
import os
import sqlite3

TABLES = ("triggers_data", "triggers_state", "triggers_rundata", "triggers_config")


class Replica:
    def __init__(self, ext, path):
        if os.path.exists(path):
            os.remove(path)
        self.db = sqlite3.connect(path, timeout=10, isolation_level=None)
        self.db.enable_load_extension(True)
        self.db.load_extension(ext)
        self.db.enable_load_extension(False)

    def close(self):
        self.db.close()

    def _run(self, sql):
        rows = self.db.execute(sql).fetchall()
        return rows[0][0] if rows and rows[0] else None

    def apply(self, sql):
        """Apply one statement as the shell does; its first value."""
        self.db.execute("BEGIN")
        try:
            out = self._run(sql)
        except Exception:
            self.db.execute("ROLLBACK")
            raise
        self.db.execute("COMMIT")
        return out

    def state_sql(self):
        parts = []
        for t in TABLES:
            cols = [r[1] for r in self.db.execute(f"PRAGMA table_info({t})")]
            row = ", ".join(f'"{c}"' for c in cols)
            parts.append(f"(SELECT json_group_array(json_array({row})) FROM "
                         f"(SELECT * FROM {t} ORDER BY 1))")
        return "SELECT json_array(" + ", ".join(f"json({p})" for p in parts) + ")"

    def dump(self):
        """Every shadow row now, as a Python object."""
        return json.loads(self._run(self.state_sql()))

    def would(self, sql):
        """(first value, dump) after sql, without keeping it."""
        self.db.execute("BEGIN")
        try:
            out = self._run(sql)
            state = json.loads(self._run(self.state_sql()))
        finally:
            self.db.execute("ROLLBACK")
        return out, state
