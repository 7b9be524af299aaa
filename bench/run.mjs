#!/usr/bin/env node
// `npm run bench [-- --rounds N] [-- --quick]`: the same stdio server driven by the raw floor,
// mcpwire and both official SDK clients, each in its own fresh worker process, interleaved
// round by round (rotating the order), reporting medians and ratios to the floor.
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';

const quick = process.argv.includes('--quick');
const roundsArg = process.argv.indexOf('--rounds');
const rounds = roundsArg === -1 ? (quick ? 1 : 3) : Number(process.argv[roundsArg + 1]);
const worker = fileURLToPath(new URL('./worker.mjs', import.meta.url));
const names = ['raw', 'mcpwire', 'sdk-v1', 'sdk-v2'];
const built = existsSync(fileURLToPath(new URL('../dist/index.js', import.meta.url)));

function runWorker(name) {
  return new Promise((resolve) => {
    execFile(process.execPath, [worker, name, ...(quick ? ['--quick'] : [])], { timeout: 180_000, maxBuffer: 1 << 20 }, (error, stdout, stderr) => {
      if (error) return resolve({ error: (stderr || error.message).trim().split('\n').slice(-3).join(' ') });
      resolve(JSON.parse(stdout.trim().split('\n').pop()));
    });
  });
}

const samples = Object.fromEntries(names.map((n) => [n, []]));
for (let round = 0; round < rounds; round++) {
  const order = names.map((_, i) => names[(i + round) % names.length]);
  for (const name of order) {
    if (name === 'mcpwire' && !built) continue;
    const result = await runWorker(name);
    if (result.error) console.error(`${name}: ${result.error}`);
    else samples[name].push(result);
    process.stderr.write('.');
  }
}
process.stderr.write('\n');

const median = (xs) => (xs.length ? [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] : undefined);
const metrics = [
  ['importMs', 'import the client module (ms)', 'lower'],
  ['coldMs', 'cold: spawn + initialize + tools/list (ms)', 'lower'],
  ['seqP50Us', 'sequential echo p50 (µs)', 'lower'],
  ['seqP99Us', 'sequential echo p99 (µs)', 'lower'],
  ['seqCallsPerSec', 'sequential echo (calls/s)', 'higher'],
  ['seqCpuUsPerCall', 'sequential: client CPU per call (µs)', 'lower'],
  ['parCallsPerSec', '64 in flight (calls/s)', 'higher'],
  ['parCpuUsPerCall', '64 in flight: client CPU per call (µs)', 'lower'],
  ['blobMiBPerSec', '1 MiB results (MiB/s)', 'higher'],
  ['list100Ms', 'tools/list of 100 tools (ms)', 'lower'],
  ['peakRssMiB', 'peak RSS (MiB)', 'lower'],
];
const table = {};
for (const [key] of metrics) table[key] = Object.fromEntries(names.map((n) => [n, median(samples[n].map((s) => s[key]))]));

const fmt = (v) => (v === undefined ? 'n/a' : v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2));
const lines = [];
lines.push(`mcpwire benchmark — ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${os.cpus()[0]?.model ?? 'cpu'} ×${os.cpus().length}, ${rounds} round(s)${quick ? ', quick' : ''}`);
lines.push('', `| metric | ${names.join(' | ')} |`, `| --- | ${names.map(() => '---:').join(' | ')} |`);
for (const [key, label] of metrics) lines.push(`| ${label} | ${names.map((n) => fmt(table[key][n])).join(' | ')} |`);
lines.push('', 'Ratio to the raw floor (for "lower" metrics: client ÷ raw, 1.00 = as cheap as the floor; for "higher": client ÷ raw, 1.00 = as fast):', '');
lines.push(`| metric | better | ${names.slice(1).join(' | ')} |`, `| --- | --- | ${names.slice(1).map(() => '---:').join(' | ')} |`);
for (const [key, label, better] of metrics) {
  if (key === 'importMs') continue;
  lines.push(`| ${label} | ${better} | ${names.slice(1).map((n) => (table[key][n] && table[key].raw ? (table[key][n] / table[key].raw).toFixed(2) : 'n/a')).join(' | ')} |`);
}
if (!built) lines.push('', 'mcpwire: not built (run `npm run build`)');
console.log(lines.join('\n'));

const dir = fileURLToPath(new URL('./results/', import.meta.url));
mkdirSync(dir, { recursive: true });
writeFileSync(`${dir}latest.json`, JSON.stringify({ date: new Date().toISOString(), node: process.version, rounds, quick, table, samples }, null, 2));
