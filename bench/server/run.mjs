#!/usr/bin/env node
// `node bench/server/run.mjs [--rounds N] [--calls N] [--only stdio|http]` (after `npm run
// build`): the same `echo` tool on mcpwire's server kit, the official SDK v1 McpServer and the v2
// server, with 64 calls in flight from one fixed client per transport:
// - stdio: a raw NDJSON client (legacy 2025-06-18 handshake, which all three speak);
// - HTTP (each server stateless on plain node:http, http-servers.mjs): a raw undici client
//   (http-client.mjs) posting 2025-06-18 requests; then 2026-07-28 requests to the two servers
//   that speak it (mcpwire, SDK v2).
// Servers are interleaved, in an order that rotates every round. Reports the median requests/s
// and server CPU per call (from /proc/<pid>/stat: Linux only), and the ratios to SDK v1; then the
// todo server's add_task and list_tasks throughput on a fresh SQLite file over stdio and HTTP.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { httpPeer } from './http-client.mjs';
import { drive, handshake, IN_FLIGHT, measure, median, startListening, startStdio } from './sampling.mjs';

// `BENCH_SERVERS=sdk-v1,mcpwire-base,mcpwire,mcpwire-otel` adds a baseline build and instrument() on
// (see bench/otel-setup.mjs); the first is the ratios' base when sdk-v1 is absent.
const SERVERS = process.env.BENCH_SERVERS?.split(',') ?? ['mcpwire', 'sdk-v1', 'sdk-v2'];
const SCRIPT = fileURLToPath(new URL('./echo-servers.mjs', import.meta.url));
const HTTP_SCRIPT = fileURLToPath(new URL('./http-servers.mjs', import.meta.url));
const argv = process.argv.slice(2);
const arg = (name, fallback) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
const ROUNDS = arg('--rounds', 3);
const ONLY = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : undefined;
const CALLS = arg('--calls', 5000);
const start = (which, args = [SCRIPT, which]) => startStdio(args);

async function sampleStdio(which) {
  const peer = start(which);
  try {
    await handshake(peer, which);
    return await measure(peer, peer.child.pid, CALLS);
  } finally {
    peer.child.kill('SIGKILL');
  }
}

async function sampleHttp(which, era) {
  const { child, port } = await startListening([HTTP_SCRIPT, which]);
  const peer = httpPeer(`http://127.0.0.1:${port}/mcp`, { era });
  try {
    return await measure(peer, child.pid, CALLS);
  } finally {
    await peer.close();
    child.kill('SIGKILL');
  }
}

/** Interleaved rounds (order rotating per round) of `sample` over `servers`; prints the table. */
async function compare(title, servers, sample, wantedBase = 'sdk-v1') {
  const baseName = servers.includes(wantedBase) ? wantedBase : servers[0];
  const results = Object.fromEntries(servers.map((s) => [s, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = servers.map((_, i) => servers[(i + round) % servers.length]);
    for (const which of order) results[which].push(await sample(which));
  }
  const rows = servers.map((which) => ({
    which,
    rps: median(results[which].map((r) => r.rps)),
    cpu: median(results[which].map((r) => r.cpuUsPerCall)),
  }));
  const base = rows.find((r) => r.which === baseName);
  console.log(`\n${title}, ${CALLS} echo calls, ${IN_FLIGHT} in flight, median of ${ROUNDS} interleaved rounds`);
  console.log(`| server | requests/s | × ${baseName} | server CPU µs/call | × ${baseName} |`);
  console.log('| --- | ---: | ---: | ---: | ---: |');
  for (const row of rows)
    console.log(
      `| ${row.which} | ${row.rps.toFixed(0)} | ${(row.rps / base.rps).toFixed(2)} | ${row.cpu.toFixed(1)} | ${(row.cpu / base.cpu).toFixed(2)} |`,
    );
}

if (ONLY !== 'http') await compare('stdio', SERVERS, sampleStdio);
if (ONLY !== 'stdio') {
  await compare('Streamable HTTP, 2025-06-18, stateless', SERVERS, (which) => sampleHttp(which, 'legacy'));
  await compare(
    'Streamable HTTP, 2026-07-28 (SDK v1 does not speak it)',
    SERVERS.filter((which) => which !== 'sdk-v1'),
    (which) => sampleHttp(which, 'modern'),
    'sdk-v2',
  );
}

// ---- the todo server on SQLite ----
const TODO = fileURLToPath(new URL('../../examples/todo-server/server.mjs', import.meta.url));
const USER = '0f8fad5b-d9cb-469f-a165-70867728950e';
const OTHER = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

/** add_task and list_tasks (20 rows) calls/s against a connected todo `peer`. */
async function todoRates(peer) {
  const timed = async (calls, call) => {
    const t0 = performance.now();
    await drive(peer, calls, call);
    return calls / ((performance.now() - t0) / 1000);
  };
  const adds = await timed(2000, { name: 'add_task', arguments: { user_id: USER, title: 'benchmark task' } });
  // A second user with 20 tasks: list_tasks returns 20 rows per call.
  await drive(peer, 20, { name: 'add_task', arguments: { user_id: OTHER, title: 'listed task' } });
  const lists = await timed(2000, { name: 'list_tasks', arguments: { user_id: OTHER } });
  return { adds, lists };
}

/** The todo server with `--http 127.0.0.1:0`: its URL from the `listening` line on stderr. */
function startTodoHttp(db) {
  const child = spawn(process.execPath, [TODO, '--db', db, '--http', '127.0.0.1:0'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let text = '';
    child.once('exit', (code) => reject(new Error(`the todo server exited (${code}) before listening`)));
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      text += chunk;
      const line = text.split('\n').find((l) => l.includes('"listening"'));
      if (line) resolve({ child, url: JSON.parse(line).url });
    });
  });
}

const dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-bench-todo-'));
const rates = [];
try {
  if (ONLY !== 'http') {
    const todo = start('todo', [TODO, '--db', path.join(dir, 'stdio.db')]);
    try {
      await todo.request('initialize', {
        protocolVersion: '2025-06-18',
        capabilities: {},
        clientInfo: { name: 'bench', version: '1' },
      });
      todo.notify('notifications/initialized');
      rates.push(['stdio', await todoRates(todo)]);
    } finally {
      todo.child.kill('SIGKILL');
    }
  }
  if (ONLY !== 'stdio') {
    const { child, url } = await startTodoHttp(path.join(dir, 'http.db'));
    const peer = httpPeer(url);
    try {
      await peer.initialize(); // a legacy session, as a 2025 client would
      rates.push(['Streamable HTTP (2025-06-18 session)', await todoRates(peer)]);
    } finally {
      await peer.close();
      child.kill('SIGKILL');
    }
  }
  console.log(`\ntodo server on SQLite (WAL, one transaction per call), ${IN_FLIGHT} in flight`);
  console.log('| transport | add_task calls/s | list_tasks (20 rows) calls/s |');
  console.log('| --- | ---: | ---: |');
  for (const [transport, { adds, lists }] of rates)
    console.log(`| ${transport} | ${adds.toFixed(0)} | ${lists.toFixed(0)} |`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
