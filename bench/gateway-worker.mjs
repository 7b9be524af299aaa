#!/usr/bin/env node
// One sample of bench/gateway.mjs, in a fresh process:
//   node bench/gateway-worker.mjs ROW seq|par [--quick]
// ROW is one of ROWS below. mcpwire's McpClient (from dist/, legacy era) calls the no-op `echo`
// direct, or `bench__echo` through a gateway in front of the same upstream (bench/server.mjs over
// stdio, bench/http-server.mjs over HTTP: hand-written, so the upstream is never what is
// measured). Warm-up calls, then the measured loop: per-call latency, calls/s, this process's CPU
// and, for a gateway row, the gateway process's CPU (utime + stime from /proc/PID/stat, all its
// threads) across the loop and its peak RSS (VmHWM) after it. Prints `BENCH_RESULT {json}`, or
// `BENCH_ERROR message` and exits 1. Everything it starts leads a process group of its own and
// is killed with it on the way out; the driver kills this worker's group on a timeout.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const STDIO_UPSTREAM = path.join(ROOT, 'bench/server.mjs');
const HTTP_UPSTREAM = path.join(ROOT, 'bench/http-server.mjs');
const CLI = path.join(ROOT, 'dist/cli.js');
/** `MCPORTER_BIN`: mcporter's CLI entry (bench/gateway.mjs finds it; see there). */
const MCPORTER = process.env.MCPORTER_BIN;
const node = process.execPath;

export const ROWS = ['direct-stdio', 'gateway-stdio', 'direct-http', 'gateway-http', 'mcporter-stdio', 'mcporter-http'];
const [row, scenario] = process.argv.slice(2);
const quick = process.argv.includes('--quick');
/**
 * Sizes: [warm-up, measured]. mcporter's rows are 10-30× slower per call, so they run shorter
 * loops (a whole run stays near 2 minutes); their medians rest on fewer calls.
 */
const SIZES = row?.startsWith('mcporter')
  ? { seq: quick ? [50, 100] : [100, 250], par: quick ? [200, 300] : [300, 800] }
  : { seq: quick ? [1000, 300] : [3000, 1500], par: quick ? [2000, 1000] : [5000, 3000] };
const IN_FLIGHT = 64;

const owned = new Set();
function killOwned() {
  for (const child of owned) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
/** Process groups found rather than spawned here (mcporter's daemon). */
const ownedGroups = new Set();
process.on('exit', () => {
  killOwned();
  for (const pgid of ownedGroups) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
});

/** Starts a process in a group of its own; resolves once `ready(outputSoFar)` matches (stdout or stderr). */
function start(command, args, { cwd, env, ready, what }) {
  const child = spawn(command, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  owned.add(child);
  let out = '';
  let err = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} not ready in 20 s: ${err.slice(-300)}`)), 20_000);
    const check = (text) => {
      const match = ready(text);
      if (match) {
        clearTimeout(timer);
        resolve({ child, match });
      }
    };
    // mcporter announces its address on stderr, mcpwire's gateway on stdout.
    child.stderr.setEncoding('utf8').on('data', (c) => check((err = (err + c).slice(-2000))));
    child.stdout.setEncoding('utf8').on('data', (c) => check((out += c)));
    child.once('exit', (code, signal) => reject(new Error(`${what} exited (${code ?? signal}): ${err.slice(-300)}`)));
  });
}

/** A temp dir as the gateway's HOME and cwd, so only the --config file is read. */
function scratch() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'mcpwire-bench-gw-'));
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function writeConfig(dir, server) {
  const file = path.join(dir, 'gateway.json');
  // mcporter serve bridges only the servers its daemon keeps alive.
  const entry = row.startsWith('mcporter') ? { ...server, lifecycle: 'keep-alive' } : server;
  writeFileSync(file, JSON.stringify({ mcpServers: { bench: entry } }, null, 2));
  return file;
}

async function httpUpstream() {
  const { match } = await start(node, [HTTP_UPSTREAM], {
    ready: (out) => /\{"port":(\d+)\}\n/.exec(out),
    what: 'the HTTP upstream',
  });
  return `http://127.0.0.1:${match[1]}/mcp`;
}

/** The pid of the child of `ppid` (any process: undefined) whose command line contains `needle`. */
function childPid(ppid, needle) {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (ppid !== undefined && Number(fields[1]) !== ppid) continue;
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').replaceAll('\0', ' ').includes(needle)) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  throw new Error(`no child of ${ppid} running ${needle}`);
}

/**
 * The processes between the client and the upstream: the gateway; for mcporter, `serve` and the
 * daemon it starts (a process group of its own, killed on exit). Their CPU and VmHWM are summed.
 */
function frontPids(frontPid, config) {
  if (!row.startsWith('mcporter')) return [frontPid];
  const daemon = childPid(undefined, `${config} daemon`);
  ownedGroups.add(daemon);
  return [frontPid, daemon];
}

const TICK_US = 1e6 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim() || 100);
/** utime + stime of a process (all its threads), in µs. */
function cpuUs(pids) {
  return pids.reduce((sum, pid) => sum + cpuUsOf(pid), 0);
}
function cpuUsOf(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}
/** VmHWM (peak resident set) of a process, in MiB. */
function peakRssMiB(pids) {
  return pids.reduce((sum, pid) => sum + peakRssMiBOf(pid), 0);
}
function peakRssMiBOf(pid) {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return kb === undefined ? 0 : Number(kb) / 1024;
}

/** Connects the client for `row`; `{ client, tool, frontPids? }`. */
async function connect(McpClient) {
  const options = { name: 'bench-gateway', era: 'legacy' };
  const stdioUpstream = { command: node, args: [STDIO_UPSTREAM] };
  if (row === 'direct-stdio') return { client: await McpClient.connect(stdioUpstream, options), tool: 'echo' };
  if (row === 'direct-http') {
    const url = await httpUpstream();
    return { client: await McpClient.connect({ url, transport: 'http' }, options), tool: 'echo' };
  }
  const dir = scratch();
  if (row === 'gateway-stdio' || row === 'mcporter-stdio') {
    const config = writeConfig(dir, stdioUpstream);
    const args =
      row === 'gateway-stdio'
        ? [CLI, 'gateway', '--stdio', '--config', config]
        : [MCPORTER, '--config', config, 'serve', '--stdio'];
    const client = await McpClient.connect({ command: node, args, cwd: dir, env: { HOME: dir } }, options);
    const tool = await toolName(client);
    const front = childPid(process.pid, row === 'gateway-stdio' ? 'gateway' : 'serve');
    return { client, tool, frontPids: frontPids(front, config) };
  }
  if (row === 'gateway-http' || row === 'mcporter-http') {
    const config = writeConfig(dir, { url: await httpUpstream() });
    const args =
      row === 'gateway-http'
        ? [CLI, 'gateway', '--http', '127.0.0.1:0', '--config', config]
        : [MCPORTER, '--config', config, 'serve', '--http', '0'];
    const { child, match } = await start(node, args, {
      cwd: dir,
      env: { PATH: process.env.PATH, HOME: dir },
      ready: (out) => /(?:listening on|HTTP bridge) (http:\/\/\S+\/mcp)\b/.exec(out),
      what: row,
    });
    const client = await McpClient.connect({ url: match[1], transport: 'http' }, options);
    const tool = await toolName(client);
    return { client, tool, frontPids: frontPids(child.pid, config) };
  }
  throw new Error(`unknown row ${row}; one of ${ROWS.join(', ')}`);
}

/** The upstream's echo as the front end names it (`bench__echo` for mcpwire's gateway). */
async function toolName(client) {
  const names = (await client.listTools({ refresh: true })).map((t) => t.name);
  const name = names.find((n) => /^bench(__|\.|_)echo$/.test(n)) ?? names.find((n) => n.endsWith('echo'));
  if (!name) throw new Error(`no echo tool listed (got ${names.join(', ')})`);
  return name;
}

async function seqLoop(call, n) {
  const lat = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await call();
    lat[i] = performance.now() - t;
  }
  return lat;
}

async function parLoop(call, n) {
  const lat = new Float64Array(n);
  let next = 0;
  const lane = async () => {
    while (next < n) {
      const i = next++;
      const t = performance.now();
      await call();
      lat[i] = performance.now() - t;
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, lane));
  return lat;
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function main() {
  if (!SIZES[scenario]) throw new Error('usage: node bench/gateway-worker.mjs ROW seq|par [--quick]');
  if (row.startsWith('mcporter') && !(MCPORTER && existsSync(MCPORTER))) throw new Error('mcporter not installed');
  const { McpClient } = await import(new URL('../dist/index.js', import.meta.url).href);
  const { client, tool, frontPids: pids } = await connect(McpClient);
  const call = () => client.callTool(tool, { text: 'hello' });
  const loop = scenario === 'seq' ? seqLoop : parLoop;
  const [warmup, n] = SIZES[scenario];
  await loop(call, warmup);
  const gw0 = pids ? cpuUs(pids) : 0;
  const own0 = process.cpuUsage();
  const t0 = performance.now();
  const lat = await loop(call, n);
  const wallMs = performance.now() - t0;
  const own = process.cpuUsage(own0);
  const gwCpu = pids ? cpuUs(pids) - gw0 : null;
  const sorted = Array.from(lat).sort((a, b) => a - b);
  const result = {
    calls: n,
    p50Us: percentile(sorted, 50) * 1000,
    p99Us: percentile(sorted, 99) * 1000,
    callsPerSec: n / (wallMs / 1000),
    clientCpuUs: (own.user + own.system) / n,
    gatewayCpuUs: gwCpu === null ? null : gwCpu / n,
    gatewayRssMiB: pids ? peakRssMiB(pids) : null,
  };
  console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
  await Promise.race([client.close(), new Promise((resolve) => setTimeout(resolve, 3000).unref())]);
}

try {
  await main();
  process.exit(0);
} catch (error) {
  console.log(`BENCH_ERROR ${String(error?.message ?? error).split('\n')[0]}`);
  process.exit(1);
}
