'use strict';
// tests/mcp/client.js -- `trigger-host mcp` as an MCP client sees it: the
// official TypeScript SDK's Client over its StdioClientTransport, which
// starts the server as a desktop assistant would (docs/mcp.md#tests).
//   NODE_PATH=build/mcp-sdk/node_modules node tests/mcp/client.js HOST EXT
// HOST is build/trigger-host, EXT the extension without its suffix. Prints
// "PASS name" or "FAIL name" per test, then "mcp: N passed, M failed".
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const { StdioClientTransport, getDefaultEnvironment } = require('@modelcontextprotocol/sdk/client/stdio.js');

const [HOST, EXT] = process.argv.slice(2);
const DIR = fs.mkdtempSync(path.join(os.tmpdir(), 'trg-mcp-'));
const TOOLS = ['create_trigger', 'find_time', 'list_triggers', 'trigger_history',
  'pause_trigger', 'resume_trigger', 'cancel_trigger', 'describe_schedule'];

// SQL on the database through the sqlite3 shell, as the operator would
// (under ASAN=1 with the sanitizers' runtimes preloaded: PRELOAD, set by
// tests/run_all.sh; node itself runs without them).
const SQLITE_ENV = { ...process.env, LD_PRELOAD: process.env.PRELOAD || '' };
function sql(db, ...statements) {
  return execFileSync('sqlite3', ['-batch', db, `.load ${EXT}`, ...statements],
    { encoding: 'utf8', env: SQLITE_ENV }).trim();
}

// A new database with the extension installed; agents may create.
let dbs = 0;
function newDb() {
  const db = path.join(DIR, `app${++dbs}.db`);
  sql(db, 'SELECT trigger_install()',
    "SELECT trigger_config('creator_roles', 'owner,admin,agent')");
  return db;
}

// The environment the SDK gives a server, and the sanitizers' options.
const SERVER_ENV = { ...getDefaultEnvironment() };
for (const k of ['ASAN_OPTIONS', 'UBSAN_OPTIONS'])
  if (process.env[k]) SERVER_ENV[k] = process.env[k];

const sessions = [];
// A server started by the SDK for db with these flags, and its client.
async function connect(db, flags = []) {
  const transport = new StdioClientTransport({
    command: HOST, args: ['mcp', db, '--extension', EXT, ...flags], stderr: 'pipe', env: SERVER_ENV,
  });
  const s = { transport, errors: [], stderr: '' };
  transport.stderr.on('data', (d) => { s.stderr += d; });
  s.client = new Client({ name: 'sqlite-triggers-test', version: '1.0.0' });
  s.client.onerror = (e) => s.errors.push(String((e && e.message) || e));
  await s.client.connect(transport);
  s.proc = transport._process; // the SDK's child, to see how it exits
  s.exited = new Promise((resolve) => s.proc.on('exit', (code, signal) => resolve({ code, signal })));
  sessions.push(s);
  return s;
}

// A tool's result: its structured content, checked against its text.
async function call(s, name, args) {
  const r = await s.client.callTool({ name, arguments: args });
  assert.equal(r.content.length, 1);
  assert.equal(r.content[0].type, 'text');
  assert.deepEqual(JSON.parse(r.content[0].text), r.structuredContent);
  return { ...r.structuredContent, isError: r.isError };
}

async function until(what, pred, ms = 3000) {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const tests = [];
const test = (name, fn) => tests.push({ name, fn });

test('tools are listed with their input schemas', async () => {
  const s = await connect(newDb(), ['--agent', 'a1']);
  assert.equal(s.client.getServerVersion().name, 'trigger-host');
  assert.ok(s.client.getServerCapabilities().tools);
  const { tools } = await s.client.listTools();
  assert.deepEqual(tools.map((t) => t.name), TOOLS);
  for (const t of tools) {
    assert.equal(t.inputSchema.type, 'object', t.name);
    assert.ok(t.description.length > 40, t.name);
  }
  const props = (n) => Object.keys(tools.find((t) => t.name === n).inputSchema.properties);
  for (const k of ['instructions', 'when', 'when_text', 'source_text', 'interval_ms', 'cron_expression'])
    assert.ok(props('create_trigger').includes(k), k);
  assert.deepEqual(tools.find((t) => t.name === 'find_time').inputSchema.required, ['text']);
  assert.equal(tools.find((t) => t.name === 'list_triggers').annotations.readOnlyHint, true);
  await s.client.ping();
});

test('create: the identity is the command line\'s, a duplicate is one trigger', async () => {
  const db = newDb();
  const s = await connect(db, ['--agent', 'a1', '--scope', 'home', '--user', 'u1']);
  const ask = { instructions: 'Water the plants', when: 'every day at 9am',
    agent_id: 'intruder', Scope: 'office', userId: 'u2', role: 'owner', colour: 'red' };
  const r = await call(s, 'create_trigger', ask);
  assert.equal(r.isError, false);
  assert.equal(r.success, true);
  assert.equal(r.created, true);
  assert.match(r.triggerId, /^trg-/);
  assert.deepEqual(r.ignored, ['agent_id', 'Scope', 'userId', 'role', 'colour']);
  assert.equal(sql(db, "SELECT agent_id || '|' || scope || '|' || created_by || '|' ||"
    + ` json_extract(metadata, '$.user_id') FROM triggers WHERE trigger_id = '${r.triggerId}'`),
  'a1|home|agent|u1');
  const again = await call(s, 'create_trigger', { instructions: 'water the  plants', when: 'every day at 9am' });
  assert.equal(again.success, true);
  assert.equal(again.created, false);
  assert.equal(again.existingTriggerId, r.triggerId);
  assert.equal(sql(db, 'SELECT count(*) FROM triggers'), '1');
});

test('refused creates are error results with the action\'s code', async () => {
  const db = newDb();
  const agent = await connect(db, ['--agent', 'a1']);
  let r = await call(agent, 'create_trigger', { instructions: 'x', when: 'sometime soon' });
  assert.equal(r.isError, true);
  assert.equal(r.success, false);
  assert.equal(r.error, 'INVALID_SCHEDULE');
  assert.match(r.reason, /vague|sometime/);
  r = await call(agent, 'create_trigger', { instructions: 'x', interval_ms: 1000, trigger_type: 'interval' });
  assert.equal(r.error, 'INVALID_SCHEDULE');
  sql(db, "SELECT trigger_config('creator_roles', 'owner,admin')");
  r = await call(agent, 'create_trigger', { instructions: 'x', when: 'in 2 hours' });
  assert.equal(r.error, 'PERMISSION_DENIED');
  const off = await connect(db, ['--agent', 'a1', '--role', 'owner', '--no-autonomy']);
  r = await call(off, 'create_trigger', { instructions: 'x', when: 'in 2 hours' });
  assert.equal(r.error, 'AUTONOMY_UNAVAILABLE');
  r = await call(off, 'pause_trigger', {});
  assert.equal(r.error, 'INVALID_REQUEST');
  assert.match(r.reason, /trigger_id is required/);
  assert.equal(sql(db, 'SELECT count(*) FROM triggers'), '0');
  assert.equal(sql(db, "SELECT count(*) FROM trigger_events WHERE kind = 'rejected'"), '4');
  await assert.rejects(agent.client.callTool({ name: 'no_such_tool', arguments: {} }),
    (e) => e.code === -32602 && /Unknown tool/.test(e.message));
});

test('find_time reads a message and creates nothing', async () => {
  const db = newDb();
  const s = await connect(db, ['--agent', 'a1']);
  const r = await call(s, 'find_time', { text: 'remind me tomorrow at 9am to call Anna',
    now: '2026-03-04T10:00:00Z', tz: 'America/New_York' });
  assert.equal(r.isError, false);
  assert.equal(r.kind, 'once');
  assert.equal(r.due_at_iso, '2026-03-05T09:00:00-05:00');
  assert.equal(r.phrase, 'tomorrow at 9am');
  assert.equal(r.rest, 'call Anna');
  const ms = await call(s, 'find_time', { text: 'at 10 tonight', now: 1772618400000 });
  assert.equal(ms.due_at_iso, '2026-03-04T22:00:00Z');
  const bad = await call(s, 'find_time', { text: 'tomorrow at 9am', tz: 'Mars/Base' });
  assert.equal(bad.isError, true);
  assert.equal(bad.error, 'INVALID_REQUEST');
  assert.match(bad.reason, /unknown time zone/);
  assert.equal(sql(db, 'SELECT count(*) FROM triggers'), '0');
});

test('list, pause, resume, cancel, describe', async () => {
  const db = newDb();
  const s = await connect(db, ['--agent', 'a1']);
  const a = await call(s, 'create_trigger', { instructions: 'Stand-up notes', cron_expression: '0 9 * * MON-FRI',
    trigger_type: 'cron', timezone: 'Europe/Berlin' });
  const b = await call(s, 'create_trigger', { instructions: 'Stretch', when: 'every 2 hours' });
  let l = await call(s, 'list_triggers', {});
  assert.equal(l.total, 2);
  const row = l.triggers.find((t) => t.trigger_id === a.triggerId);
  assert.equal(row.schedule, 'At 09:00, Monday through Friday (Europe/Berlin)');
  assert.equal(row.status, 'scheduled');
  assert.match(row.next_due_iso, /T09:00:00\+0[12]:00$/);
  let r = await call(s, 'pause_trigger', { trigger_id: a.triggerId });
  assert.equal(r.status, 'paused');
  l = await call(s, 'list_triggers', { status: 'paused' });
  assert.deepEqual(l.triggers.map((t) => t.trigger_id), [a.triggerId]);
  l = await call(s, 'list_triggers', { limit: 1 });
  assert.equal(l.triggers.length, 1);
  assert.equal(l.total, 2);
  r = await call(s, 'resume_trigger', { triggerId: a.triggerId });
  assert.equal(r.status, 'scheduled');
  r = await call(s, 'cancel_trigger', { trigger_id: b.triggerId });
  assert.equal(r.status, 'cancelled');
  r = await call(s, 'resume_trigger', { trigger_id: b.triggerId });
  assert.equal(r.isError, true);
  assert.equal(r.error, 'INVALID_REQUEST');
  assert.match(r.reason, /cancelled/);
  r = await call(s, 'list_triggers', { limit: 0 });
  assert.equal(r.error, 'INVALID_REQUEST');
  const d = await call(s, 'describe_schedule', { spec: '0 9 * * MON-FRI', tz: 'Europe/Berlin' });
  assert.equal(d.description, 'At 09:00, Monday through Friday (Europe/Berlin)');
  assert.equal(d.next.length, 3);
  const own = await call(s, 'describe_schedule', { spec: a.triggerId });
  assert.equal(own.description, 'At 09:00, Monday through Friday (Europe/Berlin)');
  const iv = await call(s, 'describe_schedule', { spec: '{"interval_ms":5400000}' });
  assert.equal(iv.description, 'Every 90 minutes');
});

test('a trigger fires through trigger-host run --exec; history shows the run', async () => {
  const db = newDb();
  const s = await connect(db, ['--agent', 'a1']);
  const c = await call(s, 'create_trigger', { instructions: 'Say hello', trigger_type: 'once',
    scheduled_at: Date.now() + 1000 });
  assert.equal(c.created, true, JSON.stringify(c));
  await new Promise((r) => setTimeout(r, 1300));
  execFileSync(HOST, ['tick', db, '--extension', EXT, '--exec',
    'cat > /dev/null; echo "woke for $TRIGGER_ID"']);
  const h = await call(s, 'trigger_history', { trigger_id: c.triggerId });
  assert.equal(h.trigger_id, c.triggerId);
  assert.equal(h.runs.length, 1);
  assert.equal(h.runs[0].status, 'success');
  assert.equal(h.runs[0].result, `woke for ${c.triggerId}`);
  assert.equal(h.runs[0].attempt, 1);
  const l = await call(s, 'list_triggers', { status: 'completed' });
  assert.equal(l.total, 1);
});

test('another agent\'s or scope\'s trigger is not found', async () => {
  const db = newDb();
  const a1 = await connect(db, ['--agent', 'a1']);
  const a2 = await connect(db, ['--agent', 'a2']);
  const other = await connect(db, ['--agent', 'a1', '--scope', 'work']);
  const t = await call(a1, 'create_trigger', { instructions: 'Private', when: 'every day at 8am' });
  for (const s of [a2, other]) {
    for (const tool of ['pause_trigger', 'resume_trigger', 'cancel_trigger', 'trigger_history']) {
      const r = await call(s, tool, { trigger_id: t.triggerId, agent_id: 'a1' });
      assert.equal(r.isError, true, tool);
      assert.equal(r.error, 'TRIGGER_NOT_FOUND', tool);
      assert.deepEqual(r.ignored, ['agent_id']);
    }
    const d = await call(s, 'describe_schedule', { spec: t.triggerId });
    assert.equal(d.error, 'TRIGGER_NOT_FOUND');
    const l = await call(s, 'list_triggers', { agentId: 'a1', scope: '' });
    assert.equal(l.total, 0);
    assert.deepEqual(l.ignored, ['agentId', 'scope']);
  }
  assert.equal(sql(db, 'SELECT status FROM triggers'), 'scheduled');
});

test('two clients at once on one database', async () => {
  const db = newDb();
  const [a, b, a2] = await Promise.all([connect(db, ['--agent', 'a1']),
    connect(db, ['--agent', 'a2']), connect(db, ['--agent', 'a1'])]);
  const many = (s, who) => Array.from({ length: 10 }, (_, i) =>
    call(s, 'create_trigger', { instructions: `${who} task ${i}`, when: `every ${i + 2} hours` }));
  const same = { instructions: 'One intent', when: 'every day at 7am' };
  const results = await Promise.all([...many(a, 'a'), ...many(b, 'b'),
    call(a, 'create_trigger', same), call(a2, 'create_trigger', same),
    call(a, 'list_triggers', {}), call(b, 'list_triggers', {})]);
  for (const r of results.slice(0, 20)) assert.equal(r.created, true, JSON.stringify(r));
  const [x, y] = results.slice(20, 22);
  assert.equal(x.success && y.success, true);
  assert.equal([x.created, y.created].filter(Boolean).length, 1, JSON.stringify([x, y]));
  assert.equal(x.triggerId || x.existingTriggerId, y.triggerId || y.existingTriggerId);
  assert.equal((await call(a, 'list_triggers', {})).total, 11);
  assert.equal((await call(a2, 'list_triggers', {})).total, 11);
  assert.equal((await call(b, 'list_triggers', {})).total, 10);
});

test('a malformed line gets a parse error, and the session goes on', async () => {
  const s = await connect(newDb(), ['--agent', 'a1']);
  s.proc.stdin.write('{"jsonrpc":"2.0","id":77,"method":\n');
  await until('the parse error', () => s.errors.some((e) => e.includes('-32700')));
  s.proc.stdin.write('{"jsonrpc":"2.0","id":"x","method":"tools/list","params":[1]}\n');
  s.proc.stdin.write('[{"jsonrpc":"2.0","id":5,"method":"ping"}]\n');
  await until('the two invalid requests', () => s.errors.filter((e) => e.includes('-32600')).length === 2);
  await s.client.ping();
  const { tools } = await s.client.listTools();
  assert.equal(tools.length, TOOLS.length);
  assert.match(s.stderr, /parse error/);
});

test('a 1 MB argument is refused, the server goes on', async () => {
  const db = newDb();
  const s = await connect(db, ['--agent', 'a1']);
  await assert.rejects(
    s.client.callTool({ name: 'create_trigger', arguments: { instructions: 'x'.repeat(1 << 20), when: 'in 1 hour' } }),
    (e) => e.code === -32600 && /at most 1048576 bytes/.test(e.message));
  const big = await call(s, 'create_trigger', { instructions: 'y'.repeat(200000), when: 'in 1 hour' });
  assert.equal(big.isError, true);
  assert.equal(big.error, 'INVALID_REQUEST');
  const ok = await call(s, 'create_trigger', { instructions: 'small', when: 'in 1 hour' });
  assert.equal(ok.created, true);
  assert.equal(sql(db, 'SELECT count(*) FROM triggers'), '1');
});

test('closing the client ends the server with status 0', async () => {
  const s = await connect(newDb(), ['--agent', 'a1']);
  await s.client.listTools();
  await s.client.close();
  assert.deepEqual(await s.exited, { code: 0, signal: null });
});

(async () => {
  let passed = 0;
  let failed = 0;
  for (const t of tests) {
    try {
      await t.fn();
      passed++;
      console.log(`PASS ${t.name}`);
    } catch (e) {
      failed++;
      console.log(`FAIL ${t.name}\n${(e && e.stack) || e}`);
    }
  }
  for (const s of sessions) await s.client.close().catch(() => {});
  fs.rmSync(DIR, { recursive: true, force: true });
  console.log(`mcp: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
})();
