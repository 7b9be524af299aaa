/**
 * The server half of `npm run conformance`: the official suite's server scenarios against
 * mcpwire's conformance server (test/conformance/conformance-kit.mjs, built on the kit from dist/),
 * through each mount: `createHttpHandler` on node:http (test/conformance/server.mjs), and
 * `createFetchHandler` (test/conformance/fetch-app.mjs) served by node (`@hono/node-server`), deno
 * (`Deno.serve`) and bun (`Bun.serve`).
 *
 * Per suite version and mount the server is started once (port 0, its URL read from its listening
 * line), the suite's `server` command runs every
 * server scenario in one invocation (`--suite all`, one result directory per scenario), and the
 * server's process group is stopped (SIGTERM, then SIGKILL after a bound). On the `next` suite a
 * second invocation at `--spec-version 2026-07-28` reruns the scenarios that list 2026-07-28
 * beside older revisions at that wire (`server:tools-list@2026-07-28`), as the client side does;
 * the scenarios that list only 2026-07-28 (or are extensions) already ran at that wire and are
 * not counted twice. Each scenario is one test, named `server:<scenario>[@revision]`. */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT, runtimeCommand } from './runtimes.mjs';

const MODERN = '2026-07-28';
/** The mounts the conformance server is served through (see {@link serverLaunch}). */
export const MOUNTS = ['node-http', 'node-fetch', 'deno', 'bun'];
const DATED = /^\d{4}-\d{2}-\d{2}$/;

/**
 * How the conformance server is started, per mount: `node-http` runs `serverFile --port 0`
 * (`createHttpHandler` on node:http); `node-fetch`, `deno` and `bun` serve
 * test/conformance/fetch-app.mjs (`createFetchHandler`) with test/runtimes/serve.mjs under that
 * runtime (`@hono/node-server`, `Deno.serve`, `Bun.serve`). Returns { command, args, env, cleanup }.
 */
export function serverLaunch(mount, serverFile) {
  if (mount === 'node-http')
    return { command: process.execPath, args: [serverFile, '--port', '0'], env: {}, cleanup() {} };
  const runtime = { 'node-fetch': 'node', deno: 'deno', bun: 'bun' }[mount];
  if (!runtime) throw new Error(`unknown mount ${mount} (${MOUNTS.join(', ')})`);
  const denoDir = runtime === 'deno' ? mkdtempSync(path.join(os.tmpdir(), 'mcpwire-conformance-deno-')) : undefined;
  const cleanup = () => denoDir && rmSync(denoDir, { recursive: true, force: true });
  try {
    const serve = path.join(ROOT, 'test/runtimes/serve.mjs');
    const app = path.join(ROOT, 'test/conformance/fetch-app.mjs');
    return { ...runtimeCommand(runtime, serve, [app], { denoDir }), cleanup };
  } catch (error) {
    cleanup();
    throw error;
  }
}

/** The URL a server's output line announces: `{"msg":"listening","url":…}` or `listening on URL`. */
function listeningUrl(line) {
  const plain = /^listening on (http:\/\/\S+)$/.exec(line.trim());
  if (plain) return plain[1];
  try {
    const parsed = JSON.parse(line);
    return parsed?.msg === 'listening' && typeof parsed.url === 'string' ? parsed.url : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Starts the conformance server (`launch` from {@link serverLaunch}) in its own process group;
 * resolves { child, url } once it printed its listening line on stdout or stderr, or rejects
 * (bounded), its group killed.
 */
export function startServer(launch, limitMs = 20_000) {
  return new Promise((resolve, reject) => {
    const child = spawn(launch.command, launch.args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...launch.env },
      detached: true,
    });
    let out = '';
    const fail = (why) => {
      clearTimeout(timer);
      killGroup(child, 'SIGKILL');
      reject(
        new Error(
          `conformance server (${launch.args.join(' ')}): ${why}${out.trim() ? `; output: ${out.trim().slice(-400)}` : ''}`,
        ),
      );
    };
    const timer = setTimeout(() => fail(`printed no listening line within ${limitMs} ms`), limitMs);
    child.once('error', (error) => fail(`did not start: ${error.message}`));
    child.once('exit', (code, signal) => fail(`exited (${signal ?? code}) before listening`));
    let found = false;
    const scan = (chunk) => {
      out = (out + chunk).slice(-20_000);
      if (found) return;
      const url = out.split('\n').map(listeningUrl).find(Boolean);
      if (url === undefined) return;
      found = true;
      clearTimeout(timer);
      child.removeAllListeners('exit');
      child.removeAllListeners('error');
      resolve({ child, url });
    };
    // Both streams stay drained to the end, so the server never blocks on a full pipe.
    child.stdout.setEncoding('utf8').on('data', scan);
    child.stderr.setEncoding('utf8').on('data', scan);
  });
}

function killGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is gone already
  }
}

/** Stops the server's process group: SIGTERM, then SIGKILL after `graceMs`; resolves once it exited. */
export function stopServer(child, graceMs = 5_000) {
  if (child.exitCode !== null || child.signalCode !== null) {
    killGroup(child, 'SIGKILL'); // what the server may have left in its group
    return Promise.resolve();
  }
  return new Promise((resolve) => {
    const hard = setTimeout(() => killGroup(child, 'SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(hard);
      killGroup(child, 'SIGKILL');
      resolve();
    });
    killGroup(child, 'SIGTERM');
  });
}

/**
 * Runs the suite's CLI once (`node <suite>/dist/index.js ...args`) in its own process group, so
 * a run that overstays `limitMs` is killed with everything it started. Resolves
 * { code, log (the last 20,000 characters of its output), killed, spawnError }; never rejects.
 * Used for the suite's `server` command here and its `client` command by conformance.mjs.
 */
export function runSuiteCli(node, suite, args, limitMs) {
  return new Promise((resolve) => {
    const child = spawn(node, [path.join(suite.dir, 'dist/index.js'), ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let log = '';
    const keepTail = (chunk) => (log = (log + chunk).slice(-20_000));
    child.stdout.on('data', keepTail);
    child.stderr.on('data', keepTail);
    let killed = false;
    const killer = setTimeout(() => {
      killed = true;
      killGroup(child, 'SIGKILL');
    }, limitMs);
    let done = false;
    const finish = (code, spawnError) => {
      if (done) return;
      done = true;
      clearTimeout(killer);
      resolve({ code, log, killed, spawnError });
    };
    child.once('error', (error) => finish(-1, error));
    child.once('close', (code) => finish(code ?? -1));
  });
}

/** The checks.json of each scenario the suite wrote under `out` (`server-<name>-<ISO time>/`). */
function checksByScenario(out, names) {
  const entries = existsSync(out) ? readdirSync(out) : [];
  const found = new Map();
  for (const name of names) {
    const pattern = new RegExp(`^server-${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}-\\d{4}-\\d{2}-\\d{2}T`);
    const dir = entries.find((entry) => pattern.test(entry));
    if (!dir) continue;
    const file = path.join(out, dir, 'checks.json');
    try {
      found.set(name, { checks: JSON.parse(readFileSync(file, 'utf8')), dir: path.join(out, dir) });
    } catch {
      found.set(name, { checks: undefined, dir: path.join(out, dir) });
    }
  }
  return found;
}

/**
 * The verdict on one scenario's checks: `ok` with at least one SUCCESS and no FAILURE or WARNING;
 * `skipped` when the suite skipped the whole scenario (its only checks are SKIPPED, one of them
 * carrying the scenario's own name: the suite's marker for a scenario it does not run yet);
 * otherwise the reason.
 */
export function judge(name, checks) {
  if (!Array.isArray(checks))
    return { ok: false, reason: 'no checks.json (the runner crashed or was killed before writing it)' };
  const count = (status) => checks.filter((c) => c.status === status).length;
  const bad = checks.find((c) => c.status === 'FAILURE' || c.status === 'WARNING');
  if (bad)
    return {
      ok: false,
      reason:
        `${bad.status} ${bad.id} (${bad.name ?? ''}): ${bad.errorMessage ?? bad.details?.message ?? bad.description ?? ''}`
          .replace(/\s+/g, ' ')
          .slice(0, 400),
    };
  if (count('SUCCESS') > 0) return { ok: true, checks: checks.length, successes: count('SUCCESS') };
  const whole = checks.find((c) => c.status === 'SKIPPED' && c.id === name);
  if (whole && checks.every((c) => c.status === 'SKIPPED' || c.status === 'INFO'))
    return {
      ok: false,
      skipped: `${whole.description ?? ''} ${whole.errorMessage ?? ''}`.replace(/\s+/g, ' ').trim().slice(0, 300),
    };
  const skipped = checks.find((c) => c.status === 'SKIPPED');
  const info = checks.filter((c) => c.status === 'INFO').at(-1);
  const hint = skipped
    ? ` (SKIPPED ${skipped.id}: ${skipped.errorMessage ?? skipped.details?.note ?? ''})`
    : info
      ? ` (last INFO ${info.id}: ${info.details?.message ?? info.description ?? ''})`
      : '';
  return { ok: false, reason: `no successful check${hint}`.slice(0, 400) };
}

/**
 * The server runs of one suite: `{ id, name, specVersion? }` per counted scenario, given the
 * scenarios `list --server` printed with their revisions.
 */
export function serverRunsOf(suite, scenarios) {
  const runs = [];
  for (const { name, revisions } of scenarios) {
    runs.push({ name, id: `server:${name}` });
    const dated = revisions.filter((r) => DATED.test(r));
    if (suite.key === 'next' && dated.includes(MODERN) && dated.length > 1)
      runs.push({ name, id: `server:${name}@${MODERN}`, specVersion: MODERN });
  }
  return runs;
}

/**
 * Runs the chosen server runs of one suite against a fresh conformance server and reports each
 * through `report(run, verdict, outDir)`. Resolves when the server is stopped again; rejects only
 * when the server cannot be started (the caller counts that as a failure).
 */
export async function runServerScenarios({ node, suite, runs, launch, timeoutMs, keep, report }) {
  if (runs.length === 0) return;
  const { child, url } = await startServer(launch).catch((error) => {
    launch.cleanup();
    throw error;
  });
  try {
    // The two wires run side by side against the one server: the scenarios are independent
    // (stateless, or a session each) and mostly wait (task sleeps, polls), so this saves time.
    const waves = [runs.filter((run) => !run.specVersion), runs.filter((run) => run.specVersion === MODERN)].filter(
      (wave) => wave.length > 0,
    );
    const results = await Promise.all(waves.map((wave) => runWave(node, suite, wave, url, timeoutMs)));
    for (const { wave, result, out, limitMs } of results) {
      const found = checksByScenario(
        out,
        wave.map((run) => run.name),
      );
      for (const run of wave) {
        const entry = found.get(run.name);
        let verdict = judge(run.name, entry?.checks);
        if (!entry)
          verdict = {
            ok: false,
            reason: result.killed
              ? `runner killed after ${limitMs} ms before this scenario`
              : `no result (runner exited ${result.code}: ${(result.spawnError?.message ?? result.log).trim().split('\n').slice(-2).join(' ').slice(0, 300)})`,
          };
        report(run, verdict, entry?.dir ?? out);
      }
      if (!keep) rmSync(out, { recursive: true, force: true });
    }
  } finally {
    await stopServer(child);
    launch.cleanup();
  }
}

/** One suite invocation for the runs of one wire: every scenario, or the one chosen. Never rejects. */
async function runWave(node, suite, wave, url, timeoutMs) {
  const out = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-conformance-server-'));
  const args = ['--url', url, '-o', out];
  // A run of one scenario names it; otherwise the whole suite runs (one process is cheaper than many).
  if (wave.length === 1) args.push('--scenario', wave[0].name);
  else args.push('--suite', 'all');
  if (wave[0].specVersion) args.push('--spec-version', wave[0].specVersion);
  // 0.1.16's `server` command has no --timeout (its scenarios bound themselves).
  if (suite.key !== '0.1.16') args.push('--timeout', String(timeoutMs));
  const limitMs = timeoutMs + 15_000 + wave.length * 3_000;
  const result = await runSuiteCli(node, suite, ['server', ...args], limitMs);
  return { wave, result, out, limitMs };
}
