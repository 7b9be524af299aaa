#!/usr/bin/env node
// `node bench/gateway.mjs [--rounds N] [--quick [--mcporter]]` (after `npm run build`): issue 29's
// "Measured": the no-op `echo` through mcpwire's gateway against the same call direct, over
// stdio and over HTTP, sequential and 64 in flight. Each (row, scenario) sample runs in its own
// fresh process (bench/gateway-worker.mjs); rows are interleaved in an order that rotates every
// round. Prints medians and the through/direct ratios, writes every sample to
// bench/results/gateway.json. Every worker leads its own process group and is killed with it on
// exit, error, signal or a 60 s timeout. No assertions: a report, not a test.
//
// mcporter rows: `mcporter serve` when mcporter is resolvable from this repo (a devDependency)
// or `MCPORTER_DIR` names a directory holding node_modules/mcporter; otherwise 'not installed'.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runMain, runWorkerProcess } from './support/process-groups.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const roundsAt = argv.indexOf('--rounds');
const rounds = roundsAt === -1 ? (quick ? 1 : 3) : Number(argv[roundsAt + 1]);
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error('usage: node bench/gateway.mjs [--rounds N] [--quick [--mcporter]]');
  process.exit(2);
}
const WORKER = fileURLToPath(new URL('./gateway-worker.mjs', import.meta.url));
const WORKER_TIMEOUT_MS = 60_000;
const SCENARIOS = ['seq', 'par'];
/** [row, direct row it is compared with, what it is]. */
const ROWS = [
  ['direct-stdio', 'direct-stdio', 'client → bench/server.mjs (stdio)'],
  ['gateway-stdio', 'direct-stdio', 'client → `mcpwire gateway --stdio` → bench/server.mjs'],
  ['mcporter-stdio', 'direct-stdio', 'client → `mcporter serve --stdio` → bench/server.mjs'],
  ['direct-http', 'direct-http', 'client → bench/http-server.mjs (HTTP)'],
  ['gateway-http', 'direct-http', 'client → `mcpwire gateway --http` → bench/http-server.mjs'],
  ['mcporter-http', 'direct-http', 'client → `mcporter serve --http` → bench/http-server.mjs'],
];

/** mcporter's CLI entry, or undefined. */
function mcporterBin() {
  for (const base of [process.env.MCPORTER_DIR, ROOT].filter(Boolean)) {
    const pkgFile = path.join(base, 'node_modules/mcporter/package.json');
    if (!existsSync(pkgFile)) continue;
    const pkg = JSON.parse(readFileSync(pkgFile, 'utf8'));
    const bin = typeof pkg.bin === 'string' ? pkg.bin : (pkg.bin?.mcporter ?? Object.values(pkg.bin ?? {})[0]);
    if (bin) return { bin: path.join(base, 'node_modules/mcporter', bin), version: pkg.version };
  }
  return undefined;
}

// ---- child bookkeeping ----------------------------------------------------------------------

/** Runs one worker; resolves to its result or `{ error }`. Never rejects. */
function runWorker(row, scenario, env) {
  // The worker's own children (gateway, upstreams) lead their own groups and die with its exit
  // handler; `killGroup` kills whatever is left in the worker's group.
  const args = [WORKER, row, scenario, ...(quick ? ['--quick'] : [])];
  return runWorkerProcess(args, { env, timeoutMs: WORKER_TIMEOUT_MS, killGroup: true });
}

const median = (xs) => {
  const s = xs.filter((x) => typeof x === 'number').sort((a, b) => a - b);
  if (s.length === 0) return null;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (x, digits = 0) => (x === null || x === undefined ? '—' : x.toFixed(digits));

function render(table, unavailable, info) {
  const lines = [];
  lines.push(`${info.date} · ${info.cpu} · ${info.cores} cores · node ${info.node} · load ${info.load}`);
  lines.push(`rounds ${rounds}${quick ? ' (quick)' : ''} · ${info.mcporter}`);
  for (const scenario of SCENARIOS) {
    lines.push('');
    lines.push(`### ${scenario === 'seq' ? 'sequential' : '64 in flight'}`);
    lines.push('');
    lines.push(
      '| row | p50 µs | × direct p50 | p99 µs | calls/s | gateway CPU µs/call | client CPU µs/call | gateway peak RSS MiB |',
    );
    lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    for (const [row, direct] of ROWS) {
      const cell = table[row]?.[scenario];
      if (!cell) {
        const why = unavailable[row]?.[scenario] ?? 'no sample';
        lines.push(`| ${row} | ${why} | | | | | | |`);
        continue;
      }
      const base = table[direct]?.[scenario]?.p50Us;
      const ratio = base ? `${(cell.p50Us / base).toFixed(2)}×` : '—';
      lines.push(
        `| ${row} | ${fmt(cell.p50Us)} | ${ratio} | ${fmt(cell.p99Us)} | ${fmt(cell.callsPerSec)} | ${fmt(cell.gatewayCpuUs, 1)} | ${fmt(cell.clientCpuUs, 1)} | ${fmt(cell.gatewayRssMiB, 1)} |`,
      );
    }
  }
  lines.push('');
  lines.push('Goal (issue 29): through the gateway ≤ 2.2× the direct p50. Gateway CPU is utime+stime of the');
  lines.push('gateway process (all threads) across the measured loop, at /proc clock-tick resolution.');
  return lines.join('\n');
}

async function main() {
  const started = performance.now();
  if (!existsSync(path.join(ROOT, 'dist/cli.js'))) {
    console.error('dist/cli.js missing: run `npm run build` first');
    return 1;
  }
  const mcporter = mcporterBin();
  const env = { ...process.env, ...(mcporter ? { MCPORTER_BIN: mcporter.bin } : {}) };
  // --quick is a smoke run of mcpwire's rows: mcporter's (seconds per sample) only with --mcporter.
  const skipMcporter = quick && !argv.includes('--mcporter');
  const rows = ROWS.map(([row]) => row).filter((row) => (mcporter && !skipMcporter) || !row.startsWith('mcporter'));
  const unavailable = {};
  if (mcporter && skipMcporter)
    for (const row of ['mcporter-stdio', 'mcporter-http'])
      unavailable[row] = { seq: 'skipped (--quick)', par: 'skipped (--quick)' };
  if (!mcporter)
    for (const row of ['mcporter-stdio', 'mcporter-http'])
      unavailable[row] = { seq: 'not installed', par: 'not installed' };
  const samples = {};
  const errors = [];
  for (let round = 0; round < rounds; round++) {
    for (const scenario of SCENARIOS) {
      process.stderr.write(`round ${round + 1}/${rounds} ${scenario} `);
      const order = rows.map((_, i) => rows[(i + round) % rows.length]);
      for (const row of order) {
        const result = await runWorker(row, scenario, env);
        if (result.error) {
          (unavailable[row] ??= {})[scenario] = 'error';
          errors.push(`${row} ${scenario} (round ${round + 1}): ${result.error}`);
          process.stderr.write('E');
          continue;
        }
        const into = ((samples[row] ??= {})[scenario] ??= {});
        for (const [key, value] of Object.entries(result)) (into[key] ??= []).push(value);
        process.stderr.write('.');
      }
      process.stderr.write('\n');
    }
  }
  const table = {};
  for (const [row, byScenario] of Object.entries(samples))
    for (const [scenario, metrics] of Object.entries(byScenario))
      (table[row] ??= {})[scenario] = Object.fromEntries(Object.entries(metrics).map(([k, v]) => [k, median(v)]));
  const info = {
    date: new Date().toISOString(),
    cpu: os.cpus()[0]?.model ?? 'unknown cpu',
    cores: os.cpus().length,
    node: process.version,
    load: os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' '),
    mcporter: mcporter ? `mcporter ${mcporter.version}` : 'mcporter not installed',
  };
  console.log(render(table, unavailable, info));
  if (errors.length) console.log(`\nerrors:\n${errors.map((e) => `- ${e}`).join('\n')}`);
  const seconds = (performance.now() - started) / 1000;
  console.log(`\n(${seconds.toFixed(0)} s)`);
  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    `${dir}gateway.json`,
    `${JSON.stringify({ machine: info, options: { rounds, quick }, seconds, table, errors, samples }, null, 2)}\n`,
  );
  return errors.length ? 1 : 0;
}

await runMain(main);
