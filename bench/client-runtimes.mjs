#!/usr/bin/env node
// mcpwire's client under Node, Deno and Bun: the same sequential call loop
// (bench/client-runtimes-loop.mjs) over stdio (bench/server.mjs, run by node, spawned by the
// client) and over HTTP (bench/http-server.mjs, legacy Streamable HTTP, JSON answers, one node
// process for the whole run), every sample a fresh process, runtimes interleaved round by round
// (the order rotates). Prints the median calls/s per runtime and transport and its ratio to Node's.
//   npm run build && node bench/client-runtimes.mjs [--rounds 3] [--warmup 2000] [--calls 2000] [--fetch] [--json]
// The binaries are the devDependencies `deno` and `bun` (scripts/runtimes.mjs finds them).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runtimeCommand } from '../scripts/runtimes.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RUNTIMES = ['node', 'deno', 'bun'];
// `http-fetch` (with --fetch): HTTP through the runtime's global fetch (`connect({ url, fetch })`),
// beside `http`, the runtime's default engine (undici's pool on Node and Deno, fetch on Bun).
const TRANSPORTS = process.argv.includes('--fetch') ? ['stdio', 'http', 'http-fetch'] : ['stdio', 'http'];
const RUN_TIMEOUT_MS = 120_000;

function option(name, fallback) {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? fallback : Number(process.argv[at + 1]);
}
const rounds = option('rounds', 3);
const warmup = option('warmup', 2000);
const calls = option('calls', 2000);

/** Runs `command` as a process group of its own; resolves with its BENCH result (the group killed past the bound). */
function run(command, args, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...env },
      detached: true,
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (err = (err + chunk).slice(-4_000)));
    const killGroup = () => {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // Gone already.
      }
    };
    const timer = setTimeout(() => {
      killGroup();
      reject(new Error(`${command} ${args.join(' ')} ran past ${RUN_TIMEOUT_MS} ms: ${err}`));
    }, RUN_TIMEOUT_MS);
    child.once('error', reject);
    child.once('exit', (code) => {
      clearTimeout(timer);
      killGroup(); // whatever the run left behind
      const line = out.split('\n').find((l) => l.startsWith('BENCH '));
      if (!line) reject(new Error(`${command} exited ${code} without a BENCH line: ${err}${out}`));
      // The calls were measured; a failing close is reported beside the figure.
      else resolve({ ...JSON.parse(line.slice('BENCH '.length)), exitCode: code, stderr: err });
    });
  });
}

/** The HTTP server, one node process for the run: resolves with its URL and its stop. */
function startHttpServer() {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(HERE, 'http-server.mjs')], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      out += chunk;
      const line = out.split('\n').find((l) => l.startsWith('{"port":'));
      if (line)
        resolve({
          url: `http://127.0.0.1:${JSON.parse(line).port}/mcp`,
          stop: () => new Promise((done) => child.once('exit', done).kill('SIGTERM')),
        });
    });
    child.once('exit', (code) => reject(new Error(`bench/http-server.mjs exited ${code} before listening`)));
  });
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

const denoDir = mkdtempSync(path.join(tmpdir(), 'mcpwire-bench-deno-'));
const http = await startHttpServer();
const targets = {
  stdio: { command: process.execPath, args: [path.join(HERE, 'server.mjs')] },
  http: { url: http.url },
  'http-fetch': { url: http.url },
};
const samples = new Map(); // `${runtime}/${transport}` → calls/s[]
const notes = new Set();
try {
  for (let round = 0; round < rounds; round++) {
    const order = RUNTIMES.map((_, i) => RUNTIMES[(i + round) % RUNTIMES.length]);
    for (const transport of TRANSPORTS)
      for (const runtime of order) {
        const script = path.join(HERE, 'client-runtimes-loop.mjs');
        const line = runtimeCommand(
          runtime,
          script,
          [
            JSON.stringify(targets[transport]),
            String(warmup),
            String(calls),
            transport === 'http-fetch' ? 'fetch' : 'default',
          ],
          {
            denoDir,
            allow: ['run'],
          },
        );
        const key = `${runtime}/${transport}`;
        const result = await run(line.command, line.args, line.env).catch((error) => {
          const why = /^\w*Error: .*$/m.exec(error.message)?.[0] ?? error.message.slice(0, 300);
          notes.add(`${key}: failed (${why})`);
          return undefined;
        });
        if (!result) {
          process.stderr.write(`round ${round + 1}/${rounds} ${key}: failed\n`);
          continue;
        }
        samples.set(key, [...(samples.get(key) ?? []), result.callsPerSec]);
        if (result.exitCode !== 0) {
          const why = /^\w*Error: .*$/m.exec(result.stderr)?.[0] ?? result.stderr.slice(-200);
          notes.add(`${key}: exited ${result.exitCode} after measuring (${why})`);
        }
        process.stderr.write(`round ${round + 1}/${rounds} ${key}: ${result.callsPerSec.toFixed(0)} calls/s\n`);
      }
  }
} finally {
  await http.stop();
  rmSync(denoDir, { recursive: true, force: true });
}

const rows = [];
for (const transport of TRANSPORTS) {
  const of = (runtime) => {
    const values = samples.get(`${runtime}/${transport}`);
    return values ? median(values) : undefined;
  };
  // Ratios to Node's default path for that transport (HTTP: undici's pool).
  const floor = transport === 'http-fetch' ? median(samples.get('node/http') ?? [NaN]) : of('node');
  for (const runtime of RUNTIMES) {
    const callsPerSec = of(runtime);
    const ratio = callsPerSec !== undefined && floor !== undefined ? callsPerSec / floor : undefined;
    rows.push({ transport, runtime, callsPerSec, ratio, samples: samples.get(`${runtime}/${transport}`)?.length ?? 0 });
  }
}
if (process.argv.includes('--json')) console.log(JSON.stringify({ rounds, warmup, calls, rows, notes: [...notes] }));
else {
  console.log(
    `mcpwire client, sequential echo calls (median of ${rounds} interleaved rounds, ${warmup} warm-up + ${calls} timed calls per sample)\n`,
  );
  console.log('| transport | runtime | calls/s | × Node |');
  console.log('| --- | --- | ---: | ---: |');
  const cell = (value, digits) => (value === undefined ? 'failed' : value.toFixed(digits));
  for (const row of rows)
    console.log(`| ${row.transport} | ${row.runtime} | ${cell(row.callsPerSec, 0)} | ${cell(row.ratio, 2)} |`);
  for (const note of notes) console.log(`\n- ${note}`);
}
