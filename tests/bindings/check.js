'use strict';
// check.js -- create/tick/finish through better-sqlite3 and the
// sqlite-triggers Node package (bindings/node, installed from its packed
// tarball); prints what tests/bindings/run.sh compares.
const Database = require('better-sqlite3');
const triggers = require('sqlite-triggers');

const db = new Database(':memory:');
const version = triggers.load(db);
db.prepare(`INSERT INTO triggers(trigger_id, agent_id, instructions,
                                 trigger_type, interval_ms, created_at)
            VALUES ('check', 'a1', 'Check the build', 'interval', 60000,
                    1767225600000)`).run();
const runs = JSON.parse(
    db.prepare('SELECT trigger_run_due(?) AS r').get(1767225660000n).r);
const runId = runs[0].run_id;
const trigger = JSON.parse(
    db.prepare("SELECT trigger_run_finish(?, 'success', NULL, ?) AS t")
        .get(runId, 1767225661000n).t);
const status = db.prepare('SELECT status FROM trigger_runs WHERE run_id = ?')
                   .get(runId).status;
console.log(`version=${version}\nrun_id=${runId}\n` +
            `run_count=${trigger.run_count}\nstatus=${status}`);
