#!/usr/bin/env node
// `npm run bench [-- --rounds N] [-- --quick]` (or `node bench/run.mjs …` after `npm run build`):
// the same stdio server driven by the raw floor, mcpwire and both official SDK clients. Each
// (client, scenario) sample runs in its own fresh worker process; clients are interleaved per
// scenario in an order that rotates every round. Prints medians, ratios to the floor and the
// targets, and writes bench/results/latest.json. Every worker is killed on exit, even on error.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { CLIENT_NAMES } from './clients.mjs';
import { METRICS, ratios, render, summarize, targets } from './report.mjs';
import { runMain, runWorkerProcess } from './support/process-groups.mjs';

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const transportAt = argv.indexOf('--transport');
/** stdio (default), http-json or http-sse: the same server logic behind each. */
const transport = transportAt === -1 ? 'stdio' : argv[transportAt + 1];
if (!['stdio', 'http-json', 'http-sse'].includes(transport)) {
  console.error('usage: node bench/run.mjs [--rounds N] [--quick] [--transport stdio|http-json|http-sse]');
  process.exit(2);
}
const roundsAt = argv.indexOf('--rounds');
const rounds = roundsAt === -1 ? (quick ? 1 : 3) : Number(argv[roundsAt + 1]);
if (!Number.isInteger(rounds) || rounds < 1) {
  console.error('usage: node bench/run.mjs [--rounds N] [--quick]');
  process.exit(2);
}
/** import and cold are one sample per fresh process: at least 5 in all, spread over the rounds. */
const perRound = { import: Math.ceil(5 / rounds), cold: Math.ceil(5 / rounds) };
// Over HTTP, import cost is the stdio run's figure (same modules), so it is not measured again.
const scenariosAt = argv.indexOf('--scenarios');
/** `--scenarios seq,par` runs only those (e.g. an A/B of two builds, see clients.mjs). */
const SCENARIOS =
  scenariosAt !== -1
    ? argv[scenariosAt + 1].split(',')
    : transport === 'stdio'
      ? ['import', 'cold', 'seq', 'par', 'blob', 'list', 'rss']
      : ['cold', 'seq', 'par', 'blob', 'list', 'rss'];
const WORKER = fileURLToPath(new URL('./worker.mjs', import.meta.url));
const WORKER_TIMEOUT_MS = 120_000;

// ---- child bookkeeping: every worker leads its own process group, killed as a group ----------

/** Runs one worker; resolves to its result object or `{ error }`. Never rejects. */
function runWorker(client, scenario) {
  // detached: its own process group, so a timeout kills the worker and whatever it spawned.
  const args = [WORKER, client, scenario, ...(quick ? ['--quick'] : []), '--transport', transport];
  return runWorkerProcess(args, { timeoutMs: WORKER_TIMEOUT_MS, withExit: true });
}

/** Whether dist/ has a usable McpClient; the reason when not. */
async function mcpwireBuilt() {
  const entry = new URL('../dist/index.js', import.meta.url);
  if (!existsSync(entry)) return 'dist/index.js missing (run `npm run build`)';
  try {
    const mod = await import(entry.href);
    return typeof mod.McpClient?.connect === 'function' ? undefined : 'dist/index.js exports no McpClient.connect';
  } catch (error) {
    return `dist/index.js does not load: ${String(error?.message ?? error).split('\n')[0]}`;
  }
}

function machine() {
  const version = (pkg) => {
    try {
      return JSON.parse(readFileSync(new URL(`../node_modules/${pkg}/package.json`, import.meta.url), 'utf8')).version;
    } catch {
      return '?';
    }
  };
  const own = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).version;
  return {
    date: new Date().toISOString(),
    cpu: os.cpus()[0]?.model ?? 'unknown cpu',
    cores: os.cpus().length,
    memGiB: (os.totalmem() / 2 ** 30).toFixed(1),
    platform: `${process.platform} ${os.release()} ${process.arch}`,
    node: process.version,
    versions: `mcpwire ${own}, @modelcontextprotocol/sdk ${version('@modelcontextprotocol/sdk')}, @modelcontextprotocol/client ${version('@modelcontextprotocol/client')}`,
  };
}

async function main() {
  const started = performance.now();
  const notBuilt = await mcpwireBuilt();
  const clients = CLIENT_NAMES.filter((c) => !(c === 'mcpwire' && notBuilt));
  const samples = Object.fromEntries(CLIENT_NAMES.map((c) => [c, {}]));
  const unavailable = Object.fromEntries(CLIENT_NAMES.map((c) => [c, {}]));
  const errors = [];
  if (notBuilt) {
    for (const s of SCENARIOS) unavailable.mcpwire[s] = 'not built';
    errors.push(`mcpwire: not built — ${notBuilt}`);
  }

  for (let round = 0; round < rounds; round++) {
    for (const scenario of SCENARIOS) {
      process.stderr.write(`round ${round + 1}/${rounds} ${scenario.padEnd(7)}`);
      for (let rep = 0; rep < (perRound[scenario] ?? 1); rep++) {
        // Rotate per round and per repetition, so no client always runs first (cold caches) or last.
        const shift = round + rep;
        const order = clients.map((_, i) => clients[(i + shift) % clients.length]);
        for (const client of order) {
          const result = await runWorker(client, scenario);
          if (result.error) {
            unavailable[client][scenario] = 'error';
            errors.push(`${client} ${scenario} (round ${round + 1}): ${result.error}`);
            process.stderr.write('E');
            continue;
          }
          for (const [key, value] of Object.entries(result)) (samples[client][key] ??= []).push(value);
          process.stderr.write('.');
        }
      }
      process.stderr.write('\n');
    }
  }

  const table = summarize(samples, unavailable);
  const ratio = ratios(table);
  const checks = targets(table, ratio, transport);
  const info = machine();
  const report = render({ machine: info, options: { rounds, quick, transport }, table, ratio, checks, errors });
  console.log(report);
  const seconds = (performance.now() - started) / 1000;
  console.log(`\n(${seconds.toFixed(0)} s)`);

  const dir = fileURLToPath(new URL('./results/', import.meta.url));
  mkdirSync(dir, { recursive: true });
  const json = {
    machine: info,
    options: { rounds, quick, perRound, transport },
    seconds,
    metrics: METRICS,
    table,
    ratio,
    targets: checks,
    errors,
    samples,
  };
  writeFileSync(
    `${dir}latest${transport === 'stdio' ? '' : `-${transport}`}.json`,
    `${JSON.stringify(json, null, 2)}\n`,
  );
  return errors.length > (notBuilt ? 1 : 0) ? 1 : 0;
}

await runMain(main);
