"""check.py -- create/tick/finish through Python's sqlite3 and the
sqlite_triggers package (bindings/python, pip-installed into a fresh
venv); prints what tests/bindings/run.sh compares. Run it with the venv's
python, outside the repository's bindings/python, so the installed
package is the one imported."""
import json
import sqlite3
import sys

import sqlite_triggers

db = sqlite3.connect(":memory:", isolation_level=None)
version = sqlite_triggers.load(db)
# the installed package's own copy, not the build tree's
assert sqlite_triggers.loadable_path().startswith(sys.prefix), \
    sqlite_triggers.loadable_path()
db.execute("""INSERT INTO triggers(trigger_id, agent_id, instructions,
                                   trigger_type, interval_ms, created_at)
              VALUES ('check', 'a1', 'Check the build', 'interval', 60000,
                      1767225600000)""")
runs = json.loads(
    db.execute("SELECT trigger_run_due(?)", (1767225660000,)).fetchone()[0])
run_id = runs[0]["run_id"]
trigger = json.loads(db.execute(
    "SELECT trigger_run_finish(?, 'success', NULL, ?)",
    (run_id, 1767225661000)).fetchone()[0])
status = db.execute("SELECT status FROM trigger_runs WHERE run_id = ?",
                    (run_id,)).fetchone()[0]
print(f"version={version}\nrun_id={run_id}\n"
      f"run_count={trigger['run_count']}\nstatus={status}")
