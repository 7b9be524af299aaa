#!/usr/bin/env node
// `node bench/server/run.mjs [--rounds N] [--calls N]` (after `npm run build`): the same `echo`
// tool on mcpwire's server kit, the official SDK v1 McpServer and the v2 server, over stdio,
// driven by one fixed raw NDJSON client (legacy 2025-06-18 handshake, which all three speak)
// with 64 calls in flight. Servers are interleaved, in an order that rotates every round.
// Reports the median requests/s and server CPU per call (from /proc/<pid>/stat: Linux only),
// and the ratios to SDK v1; then the todo server's add_task and list_tasks throughput on a
// fresh SQLite file (the same client, 64 in flight).
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const SERVERS = ['mcpwire', 'sdk-v1', 'sdk-v2'];
const SCRIPT = fileURLToPath(new URL('./echo-servers.mjs', import.meta.url));
const argv = process.argv.slice(2);
const arg = (name, fallback) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
const ROUNDS = arg('--rounds', 3);
const CALLS = arg('--calls', 5000);
const IN_FLIGHT = 64;
const TICKS = 100; // USER_HZ on Linux

function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS; // utime + stime
}

/** A child speaking NDJSON: `request(method, params)` resolves with the answer. */
function start(which, args = [SCRIPT, which]) {
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
  const waiting = new Map();
  let buffer = '';
  let next = 1;
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffer += chunk;
    let nl;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      if (!line.trim()) continue;
      const message = JSON.parse(line);
      const resolve = waiting.get(message.id);
      if (resolve) {
        waiting.delete(message.id);
        resolve(message);
      }
    }
  });
  return {
    child,
    request(method, params) {
      const id = next++;
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      return new Promise((resolve) => waiting.set(id, resolve));
    },
    notify(method) {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method })}\n`);
    },
  };
}

async function drive(peer, calls, call = { name: 'echo', arguments: { text: 'hello' } }) {
  let sent = 0;
  const lane = async () => {
    while (sent < calls) {
      sent++;
      const answer = await peer.request('tools/call', call);
      if (!answer.result) throw new Error(`echo failed: ${JSON.stringify(answer)}`);
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
}

async function sample(which) {
  const peer = start(which);
  try {
    const init = await peer.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
    if (!init.result) throw new Error(`${which}: initialize failed`);
    peer.notify('notifications/initialized');
    await drive(peer, 500); // warm-up
    const cpu0 = cpuMs(peer.child.pid);
    const t0 = performance.now();
    await drive(peer, CALLS);
    const seconds = (performance.now() - t0) / 1000;
    const cpu = cpuMs(peer.child.pid) - cpu0;
    return { rps: CALLS / seconds, cpuUsPerCall: (cpu * 1000) / CALLS };
  } finally {
    peer.child.kill('SIGKILL');
  }
}

const results = Object.fromEntries(SERVERS.map((s) => [s, []]));
for (let round = 0; round < ROUNDS; round++) {
  const order = SERVERS.map((_, i) => SERVERS[(i + round) % SERVERS.length]);
  for (const which of order) results[which].push(await sample(which));
}
const median = (values) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
const rows = SERVERS.map((which) => ({ which, rps: median(results[which].map((r) => r.rps)), cpu: median(results[which].map((r) => r.cpuUsPerCall)) }));
const base = rows.find((r) => r.which === 'sdk-v1');
console.log(`stdio, ${CALLS} echo calls, ${IN_FLIGHT} in flight, median of ${ROUNDS} interleaved rounds`);
console.log('| server | requests/s | × SDK v1 | server CPU µs/call | × SDK v1 |');
console.log('| --- | ---: | ---: | ---: | ---: |');
for (const row of rows) console.log(`| ${row.which} | ${row.rps.toFixed(0)} | ${(row.rps / base.rps).toFixed(2)} | ${row.cpu.toFixed(1)} | ${(row.cpu / base.cpu).toFixed(2)} |`);

// ---- the todo server on SQLite ----
const TODO = fileURLToPath(new URL('../../examples/todo-server/server.mjs', import.meta.url));
const USER = '0f8fad5b-d9cb-469f-a165-70867728950e';
const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-bench-todo-'));
const todo = start('todo', [TODO, '--db', path.join(dir, 'tasks.db')]);
try {
  await todo.request('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } });
  todo.notify('notifications/initialized');
  const timed = async (calls, call) => {
    const t0 = performance.now();
    await drive(todo, calls, call);
    return calls / ((performance.now() - t0) / 1000);
  };
  const adds = await timed(2000, { name: 'add_task', arguments: { user_id: USER, title: 'benchmark task' } });
  // A second user with 20 tasks: list_tasks returns 20 rows per call.
  const OTHER = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
  await drive(todo, 20, { name: 'add_task', arguments: { user_id: OTHER, title: 'listed task' } });
  const lists = await timed(2000, { name: 'list_tasks', arguments: { user_id: OTHER } });
  console.log(`\ntodo server on SQLite (WAL, one transaction per call), stdio, ${IN_FLIGHT} in flight`);
  console.log('| tool | calls/s |');
  console.log('| --- | ---: |');
  console.log(`| add_task | ${adds.toFixed(0)} |`);
  console.log(`| list_tasks (20 rows) | ${lists.toFixed(0)} |`);
} finally {
  todo.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}
