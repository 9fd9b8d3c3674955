// when_peer.mjs -- the chrono-node side of the time-phrase comparison
// (bench/when_peer.sh): every one-time message of the corpus
// (tests/corpus/when_messages.jsonl: expected "once" or no schedule) parsed
// by chrono-node in the message's zone at the message's `now`.
//
//   node bench/when_peer.mjs CORPUS CHRONO_DIR > answers.jsonl
//
// chrono reads local time through the process's zone, so TZ is set per
// message (Node applies a change of process.env.TZ at once). forwardDate
// is on, as a scheduler would use it. chrono has no confidence: its first
// result (what chrono.parseDate returns) counts as a confident answer, no
// result as "not a schedule". Prints {"version"} and then one JSON line per
// message: {"id", "due_ms" (or null), "text" (what chrono matched)}.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createRequire } from 'node:module';

const [corpusFile, chronoDir] = process.argv.slice(2);
const require = createRequire(join(resolve(chronoDir), 'package.json'));
const chrono = require('chrono-node');
const pkg = JSON.parse(readFileSync(join(chronoDir, 'node_modules', 'chrono-node', 'package.json'), 'utf8'));
console.log(JSON.stringify({ version: pkg.version }));

for (const line of readFileSync(corpusFile, 'utf8').split('\n')) {
  if (!line.trim()) continue;
  const msg = JSON.parse(line);
  const e = msg.expect;
  if (!(e.schedule === false || e.kind === 'once')) continue;
  process.env.TZ = msg.tz;
  const results = chrono.parse(msg.text, new Date(msg.now), { forwardDate: true });
  const first = results[0];
  console.log(JSON.stringify({
    id: msg.id,
    due_ms: first ? first.start.date().getTime() : null,
    text: first ? first.text : null,
  }));
}
