#!/usr/bin/env node
// One client, one scenario, one fresh process:
//   node bench/worker.mjs <client> <scenario> [--quick] [--transport stdio|http-json|http-sse]
// Prints one line `BENCH_RESULT {json}` on stdout. CPU figures are this process's own
// process.cpuUsage() (all its threads), so the server — another process — is excluded.
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { CLIENTS } from './clients.mjs';

const [name, scenario] = process.argv.slice(2);
const quick = process.argv.includes('--quick');
const transportAt = process.argv.indexOf('--transport');
const transport = transportAt === -1 ? 'stdio' : process.argv[transportAt + 1];
const adapter = CLIENTS[name];

/**
 * Workload sizes; --quick shrinks them for a smoke run. Each measured loop follows an untimed
 * warm-up in the same mode, long enough for V8 to have optimized every client's hot path: on
 * node 20, CPU per call keeps falling for the first ~4,000 sequential calls and ~12,000 calls at
 * 64 in flight (2–4× the steady figure at the start), so a short warm-up measures tiering, not
 * the client. --quick keeps the warm-ups and shrinks only the measured loops.
 */
const SIZES = quick
  ? {
      seqWarmup: 5000,
      seq: 500,
      parWarmup: 12000,
      par: 2000,
      inFlight: 64,
      blobWarmup: 2,
      blob: 10,
      blobBytes: 1 << 20,
      listWarmup: 10,
      list: 40,
    }
  : {
      seqWarmup: 5000,
      seq: 2000,
      parWarmup: 12000,
      par: 10000,
      inFlight: 64,
      blobWarmup: 3,
      blob: 50,
      blobBytes: 1 << 20,
      listWarmup: 20,
      list: 200,
    };

const SERVER = [fileURLToPath(new URL('./server.mjs', import.meta.url)), '--tools', '100'];
const HTTP_SERVER = fileURLToPath(new URL('./http-server.mjs', import.meta.url));

/**
 * Starts the HTTP server (JSON or SSE answers) and resolves with its URL. Its stdin is our pipe:
 * when this worker dies, the server sees EOF and exits.
 */
function startHttpServer(sse) {
  const child = spawn(process.execPath, [HTTP_SERVER, '--tools', '100', ...(sse ? ['--sse'] : [])], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (c) => {
      out += c;
      const line = out.split('\n').find((l) => l.startsWith('{"port":'));
      if (line) resolve({ url: `http://127.0.0.1:${JSON.parse(line).port}/mcp`, stop: () => child.kill('SIGTERM') });
    });
    child.once('exit', (code) => reject(new Error(`http server exited with ${code}`)));
  });
}
const cpuMicros = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const sorted = (xs) => Float64Array.from(xs).sort();
const quantile = (s, q) => s[Math.min(s.length - 1, Math.floor(s.length * q))];

/** The request/response loop one at a time: latency quantiles, rate and CPU per call. */
async function sequential(client) {
  for (let i = 0; i < SIZES.seqWarmup; i++) await client.call('echo', { text: 'warm' });
  const lat = new Float64Array(SIZES.seq);
  const cpu = cpuMicros();
  const start = performance.now();
  for (let i = 0; i < SIZES.seq; i++) {
    const s = performance.now();
    const r = await client.call('echo', { text: `hello ${i}` });
    lat[i] = (performance.now() - s) * 1000;
    if (r.content[0].text !== `hello ${i}`) throw new Error(`${name}: echo returned ${JSON.stringify(r)}`);
  }
  const wall = performance.now() - start;
  const cpuUs = cpuMicros() - cpu;
  const s = sorted(lat);
  return {
    seqP50Us: quantile(s, 0.5),
    seqP99Us: quantile(s, 0.99),
    seqCallsPerSec: SIZES.seq / (wall / 1000),
    seqCpuUsPerCall: cpuUs / SIZES.seq,
  };
}

/** SIZES.par calls with SIZES.inFlight outstanding at every moment until the tail. */
async function inFlight(client) {
  const burst = async (total) => {
    let started = 0;
    const lane = async () => {
      while (started < total) {
        started++;
        const r = await client.call('echo', { text: 'par' });
        if (r.content[0].text !== 'par') throw new Error(`${name}: echo returned ${JSON.stringify(r)}`);
      }
    };
    await Promise.all(Array.from({ length: SIZES.inFlight }, lane));
  };
  await burst(SIZES.parWarmup);
  const cpu = cpuMicros();
  const start = performance.now();
  await burst(SIZES.par);
  const wall = performance.now() - start;
  return { parCallsPerSec: SIZES.par / (wall / 1000), parCpuUsPerCall: (cpuMicros() - cpu) / SIZES.par };
}

/** Large results: one text block of 1 MiB per call. */
async function blobs(client) {
  const check = (r) => {
    if (r.content[0].text.length !== SIZES.blobBytes)
      throw new Error(`${name}: blob of ${r.content[0].text.length} bytes`);
  };
  for (let i = 0; i < SIZES.blobWarmup; i++) check(await client.call('blob', { bytes: SIZES.blobBytes }));
  const start = performance.now();
  for (let i = 0; i < SIZES.blob; i++) check(await client.call('blob', { bytes: SIZES.blobBytes }));
  const seconds = (performance.now() - start) / 1000;
  return { blobMiBPerSec: (SIZES.blob * SIZES.blobBytes) / (1 << 20) / seconds };
}

/** tools/list of 100 tools, each list on the wire. */
async function lists(client) {
  for (let i = 0; i < SIZES.listWarmup; i++) await client.list();
  const times = [];
  for (let i = 0; i < SIZES.list; i++) {
    const s = performance.now();
    const tools = await client.list();
    times.push(performance.now() - s);
    if (tools.length !== 100) throw new Error(`${name}: listed ${tools.length} tools`);
  }
  return { list100Ms: quantile(sorted(times), 0.5) };
}

const SCENARIOS = {
  seq: sequential,
  par: inFlight,
  blob: blobs,
  list: lists,
  // Peak RSS after the three heavy workloads in one process.
  async rss(client) {
    await sequential(client);
    await inFlight(client);
    await blobs(client);
    return { peakRssMiB: process.resourceUsage().maxRSS / 1024 };
  },
};

async function main() {
  if (!adapter) throw new Error(`unknown client "${name}" (one of ${Object.keys(CLIENTS).join(', ')})`);
  const importStart = performance.now();
  const importCpuStart = cpuMicros();
  const mod = await adapter.load();
  const importMs = performance.now() - importStart;
  // CPU time too: on a shared machine the wall clock of one import moves ±50 % with the load.
  const importCpuMs = (cpuMicros() - importCpuStart) / 1000;
  if (scenario === 'import') return { importMs, importCpuMs };

  // Over HTTP the server runs before the clock starts: cold = connect + first list, no spawn.
  const server = transport === 'stdio' ? undefined : await startHttpServer(transport === 'http-sse');
  const coldStart = performance.now();
  const client = server
    ? await adapter.connectHttp(mod, server.url)
    : await adapter.connect(mod, process.execPath, SERVER);
  try {
    const tools = await client.list();
    const coldMs = performance.now() - coldStart;
    if (tools.length !== 100) throw new Error(`${name}: listed ${tools.length} tools`);
    if (scenario === 'cold') return { coldMs };
    const run = SCENARIOS[scenario];
    if (!run)
      throw new Error(`unknown scenario "${scenario}" (one of import, cold, ${Object.keys(SCENARIOS).join(', ')})`);
    return await run(client);
  } finally {
    // Bounded: a client whose close hangs must not keep the worker (and its server) alive.
    await Promise.race([client.close(), new Promise((r) => setTimeout(r, 5000).unref())]);
    server?.stop();
  }
}

try {
  const result = await main();
  process.stdout.write(`BENCH_RESULT ${JSON.stringify(result)}\n`);
  process.exitCode = 0;
} catch (error) {
  process.stderr.write(`${error?.stack ?? error}\n`);
  process.stdout.write(`BENCH_ERROR ${String(error?.message ?? error).split('\n')[0]}\n`);
  process.exitCode = 1;
}
// Whatever a client left behind (a stray handle) must not keep this worker alive; the server's
// stdin closes with us and it exits on EOF.
setTimeout(() => process.exit(), 200).unref();
