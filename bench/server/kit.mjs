#!/usr/bin/env node
// `node bench/server/kit.mjs [--rounds N] [--seconds S] [--era modern|legacy] [--rows a,b] [--base DIR]`
// (after `npm run build`): the server kit everywhere, in one interleaved run. The same `echo`
// tool, stateless, 64 calls in flight from one fixed client in this process (undici keep-alive
// for HTTP, NDJSON for stdio), so the CPU counted (`/proc/<pid>/stat` of the server, every thread)
// is the server's alone:
// - stdio: the hand-written floor (bench/server.mjs), the kit before (`--base`, default main's
//   build in bench/results/base-main/dist, built by bench/support/build-base.mjs when missing)
//   and after (this dist/);
// - node:http: the floor, createHttpHandler before and after (bench/server/http-servers.mjs);
// - a fetch handler served by Node (@hono/node-server), Deno (Deno.serve) and Bun (Bun.serve):
//   the floor, the kit's createFetchHandler, the SDK 2.4 createMcpHandler
//   (bench/server/fetch-servers.mjs).
// Every sample is a fresh server process, warmed up, then loaded for `--seconds`; rows run in an
// order that rotates every round. Prints the medians, the ratios and the targets; every sample
// goes to bench/results/kit-latest.json (git-ignored).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { httpPeer } from './http-client.mjs';
import { handshake, measureFor, median, startListening, startStdio } from './sampling.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const argv = process.argv.slice(2);
const option = (name, fallback) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : fallback);
const ROUNDS = Number(option('--rounds', 3));
const SECONDS = Number(option('--seconds', 1.5));
const ERA = option('--era', 'modern');
const BASE = path.resolve(
  option('--base', process.env.MCPWIRE_BASE_DIST ?? path.join(root, 'bench/results/base-main/dist')),
);

const DENO = path.join(root, 'node_modules/.bin/deno');
const BUN = path.join(root, 'node_modules/.bin/bun');
const NODE = process.execPath;
const STDIO_FLOOR = path.join(root, 'bench/server.mjs');
const ECHO_SERVERS = path.join(here, 'echo-servers.mjs');
const HTTP_SERVERS = path.join(here, 'http-servers.mjs');
const FETCH_SERVERS = path.join(here, 'fetch-servers.mjs');

// group: what is compared within (its floor and its reference share it); ref: the row the ratios
// divide by (the SDK where it runs, else the build before).
const ROWS = [
  { id: 'stdio/raw', group: 'stdio', server: 'floor', stdio: [NODE, STDIO_FLOOR] },
  { id: 'stdio/before', group: 'stdio', server: 'mcpwire before', stdio: [NODE, ECHO_SERVERS, 'mcpwire-base'] },
  { id: 'stdio/mcpwire', group: 'stdio', server: 'mcpwire', stdio: [NODE, ECHO_SERVERS, 'mcpwire'] },
  { id: 'node-http/raw', group: 'node:http', server: 'floor', http: [NODE, HTTP_SERVERS, 'raw'] },
  {
    id: 'node-http/before',
    group: 'node:http',
    server: 'createHttpHandler before',
    http: [NODE, HTTP_SERVERS, 'mcpwire-base'],
  },
  { id: 'node-http/mcpwire', group: 'node:http', server: 'createHttpHandler', http: [NODE, HTTP_SERVERS, 'mcpwire'] },
  ...[
    ['node', 'Node (@hono/node-server)', [NODE, FETCH_SERVERS]],
    ['deno', 'Deno (Deno.serve)', [DENO, 'run', '-A', FETCH_SERVERS]],
    ['bun', 'Bun (Bun.serve)', [BUN, FETCH_SERVERS]],
  ].flatMap(([runtime, group, command]) => [
    { id: `${runtime}-fetch/raw`, group, server: 'floor', http: [...command, 'raw'] },
    { id: `${runtime}-fetch/mcpwire`, group, server: 'createFetchHandler', http: [...command, 'mcpwire'] },
    { id: `${runtime}-fetch/sdk-v2`, group, server: 'SDK 2.4 createMcpHandler', http: [...command, 'sdk-v2'] },
  ]),
];
const REFS = { stdio: 'stdio/before', 'node:http': 'node-http/before' };
const refOf = (row) => REFS[row.group] ?? `${row.id.split('/')[0]}/sdk-v2`;
const floorOf = (row) => `${row.id.split('/')[0]}/raw`;

const wanted = option('--rows', undefined)?.split(',');
const rows = wanted ? ROWS.filter((row) => wanted.some((w) => row.id.startsWith(w))) : ROWS;
const env = { ...process.env, MCPWIRE_BASE_DIST: BASE };

if (rows.some((row) => row.id.endsWith('/before')) && !existsSync(path.join(BASE, 'server/index.js'))) {
  console.error(`no build at ${BASE}: building main's (bench/support/build-base.mjs main)`);
  const built = spawnSync(NODE, [path.join(root, 'bench/support/build-base.mjs'), 'main'], { stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
}

/** One sample of `row`: a fresh server, warmed up, loaded for SECONDS. */
async function sample(row) {
  if (row.stdio) {
    const [command, ...args] = row.stdio;
    const peer = startStdio(args, command, env);
    try {
      await handshake(peer, row.id);
      return await measureFor(peer, peer.child.pid, { seconds: SECONDS });
    } finally {
      peer.child.kill('SIGKILL');
    }
  }
  const [command, ...args] = row.http;
  const started = await startListening(args, command, env);
  if (started.missing) {
    started.child.kill('SIGKILL');
    return { missing: started.missing };
  }
  const peer = httpPeer(`http://127.0.0.1:${started.port}/mcp`, { era: ERA });
  try {
    return await measureFor(peer, started.child.pid, { seconds: SECONDS });
  } finally {
    await peer.close();
    started.child.kill('SIGKILL');
  }
}

const t0 = performance.now();
const samples = Object.fromEntries(rows.map((row) => [row.id, []]));
for (let round = 0; round < ROUNDS; round++) {
  const order = rows.map((_, i) => rows[(i + round * 5) % rows.length]);
  for (const row of order) {
    try {
      samples[row.id].push(await sample(row));
    } catch (error) {
      samples[row.id].push({ failed: String(error.message ?? error).slice(0, 300) });
    }
  }
  console.error(`round ${round + 1}/${ROUNDS} done (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
}

const figures = new Map();
for (const row of rows) {
  const ok = samples[row.id].filter((s) => s.rps !== undefined);
  const why = samples[row.id].find((s) => s.missing || s.failed);
  figures.set(
    row.id,
    ok.length === 0
      ? { why: why?.missing ?? why?.failed ?? 'no sample' }
      : { rps: median(ok.map((s) => s.rps)), cpu: median(ok.map((s) => s.cpuUsPerCall)) },
  );
}
const ratio = (a, b, digits = 2) => (a !== undefined && b !== undefined ? (a / b).toFixed(digits) : '—');
const era = ERA === 'modern' ? '2026-07-28' : '2025-06-18';
console.log(
  `\n*The server kit, echo tools/call (${era} over HTTP, stateless; legacy session over stdio), 64 in flight, ` +
    `${SECONDS} s per sample, median of ${ROUNDS} interleaved rounds*\n`,
);
console.log('| transport / runtime | server | requests/s | × ref | CPU µs/call | × ref | CPU × floor | ref |');
console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: | --- |');
for (const row of rows) {
  const f = figures.get(row.id);
  const ref = figures.get(refOf(row));
  const floor = figures.get(floorOf(row));
  const refName = rows.find((r) => r.id === refOf(row))?.server ?? '—';
  if (f.why) {
    console.log(`| ${row.group} | ${row.server} | ${f.why} | | | | | |`);
    continue;
  }
  console.log(
    `| ${row.group} | ${row.server} | ${f.rps.toFixed(0)} | ${ratio(f.rps, ref?.rps)} | ${f.cpu.toFixed(1)} | ` +
      `${ratio(f.cpu, ref?.cpu)} | ${ratio(f.cpu, floor?.cpu)} | ${refName} |`,
  );
}

// ---- targets (issue 26) ----
const verdict = (ok) => (ok === undefined ? 'n/a' : ok ? 'pass' : 'FAIL');
const cpu = (id) => figures.get(id)?.cpu;
const rps = (id) => figures.get(id)?.rps;
const lines = [];
const httpOverStdio = (http, stdio, label, target) => {
  if (cpu(http) === undefined || cpu(stdio) === undefined) return;
  const x = cpu(http) / cpu(stdio);
  lines.push(
    `- ${label} HTTP CPU per call ÷ stdio's: ${x.toFixed(2)}×${target ? ` (target ≤ 2.00: ${verdict(x <= 2)})` : ''}`,
  );
};
httpOverStdio('node-http/mcpwire', 'stdio/mcpwire', 'mcpwire', true);
httpOverStdio('node-http/before', 'stdio/before', 'mcpwire before', false);
httpOverStdio('node-http/raw', 'stdio/raw', 'the floors', false);
if (cpu('node-http/mcpwire') !== undefined && cpu('node-http/before') !== undefined) {
  const x = cpu('node-http/mcpwire') / cpu('node-http/before');
  lines.push(`- createHttpHandler CPU per call after ÷ before: ${x.toFixed(2)}× (target ≤ 1.00: ${verdict(x <= 1)})`);
}
for (const runtime of ['node', 'deno', 'bun']) {
  const kit = `${runtime}-fetch/mcpwire`;
  const sdk = `${runtime}-fetch/sdk-v2`;
  if (rps(kit) === undefined || rps(sdk) === undefined) continue;
  const r = rps(kit) / rps(sdk);
  const c = cpu(kit) / cpu(sdk);
  lines.push(
    `- ${runtime}: createFetchHandler ${r.toFixed(2)}× the SDK's requests/s (target ≥ 1.50: ${verdict(r >= 1.5)}), ` +
      `${c.toFixed(2)}× its CPU per call (target ≤ 1.00: ${verdict(c <= 1)})`,
  );
}
if (lines.length) console.log(`\n${lines.join('\n')}`);
console.error(`total ${((performance.now() - t0) / 1000).toFixed(0)} s`);

mkdirSync(path.join(root, 'bench/results'), { recursive: true });
writeFileSync(
  path.join(root, 'bench/results/kit-latest.json'),
  JSON.stringify({ era: ERA, rounds: ROUNDS, seconds: SECONDS, base: BASE, samples }, null, 1),
);
