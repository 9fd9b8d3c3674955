// cron_croner.mjs -- the croner side of the cron next-due benchmark: the
// same expressions, zones and start instants as bench/cron_next.c (from
// bench/cron_mix.txt), computed with croner's nextRun().
//
//   node bench/cron_croner.mjs MIX_FILE CRONER_DIR REPS
//
// Jobs are built once per (expression, zone), paused (nothing scheduled),
// before timing, as the C side parses once. After one untimed warm-up
// pass (JIT), each repetition runs whole passes over the mix for at
// least 0.5 s. Prints "VERSION v", one "RATE <next-computations per
// second>" per repetition, then "RES <i> <ms|null>" for every computation
// in mix order (expression-major, then zone, then instant) so the C side
// can check both agree.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const [mixFile, cronerDir, repsArg] = process.argv.slice(2);
const pkgDir = join(cronerDir, 'node_modules', 'croner');
const pkg = JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8'));
const { Cron } = await import(pathToFileURL(join(pkgDir, pkg.module || pkg.main)).href);

const exprs = [], zones = [], starts = [];
for (const line of readFileSync(mixFile, 'utf8').split('\n')) {
  const kind = line.slice(0, 2), rest = line.slice(2).trim();
  if (kind === 'E ') exprs.push(rest);
  else if (kind === 'Z ') zones.push(rest);
  else if (kind === 'T ') starts.push(Number(rest));
}
const jobs = [];
for (const e of exprs) for (const z of zones) jobs.push(new Cron(e, { timezone: z, paused: true }));

function pass(out) {
  let n = 0;
  for (const job of jobs) {
    for (const t of starts) {
      const d = job.nextRun(new Date(t));
      if (out) out.push(d ? d.getTime() : null);
      n++;
    }
  }
  return n;
}

const results = [];
pass(results); // warm-up, and the results to compare
console.log(`VERSION ${pkg.version}`);
const reps = Number(repsArg) || 5;
for (let r = 0; r < reps; r++) {
  let n = 0;
  const t0 = process.hrtime.bigint();
  let secs = 0;
  do {
    n += pass(null);
    secs = Number(process.hrtime.bigint() - t0) / 1e9;
  } while (secs < 0.5);
  console.log(`RATE ${n / secs}`);
}
results.forEach((v, i) => console.log(`RES ${i} ${v === null ? 'null' : v}`));
