// One client's run in a fresh process: `node bench/worker.mjs <client> [--quick]`.
// Prints one JSON line of measurements. CPU is this process's own (the server is another process).
import { fileURLToPath } from 'node:url';
import { CLIENTS } from './clients.mjs';

const name = process.argv[2];
const quick = process.argv.includes('--quick');
const adapter = CLIENTS[name];
if (!adapter) throw new Error(`unknown client ${name}`);
const serverArgs = [fileURLToPath(new URL('./server.mjs', import.meta.url)), '--tools', '100'];
const N_SEQ = quick ? 300 : 10000;
const N_PAR = quick ? 2000 : 10000;
const N_BLOB = quick ? 10 : 50;
const N_LIST = quick ? 40 : 200;
const BLOB = 1024 * 1024;

const cpuMicros = () => {
  const u = process.cpuUsage();
  return u.user + u.system;
};
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

const out = {};
let t = performance.now();
const mod = await adapter.load();
out.importMs = performance.now() - t;

t = performance.now();
const client = await adapter.connect(mod, process.execPath, serverArgs);
const tools = await client.list();
out.coldMs = performance.now() - t;
if (tools.length !== 100) throw new Error(`${name}: expected 100 tools, got ${tools.length}`);

try {
  for (let i = 0; i < 200; i++) await client.call('echo', { text: 'warm' }); // JIT warm-up

  const lat = [];
  let cpu = cpuMicros();
  t = performance.now();
  for (let i = 0; i < N_SEQ; i++) {
    const s = performance.now();
    const r = await client.call('echo', { text: `hello ${i}` });
    lat.push((performance.now() - s) * 1000);
    if (i === 0 && r.content[0].text !== 'hello 0') throw new Error(`${name}: bad echo`);
  }
  out.seqCallsPerSec = N_SEQ / ((performance.now() - t) / 1000);
  out.seqCpuUsPerCall = (cpuMicros() - cpu) / N_SEQ;
  out.seqP50Us = median(lat);
  out.seqP99Us = pct(lat, 0.99);

  cpu = cpuMicros();
  t = performance.now();
  let started = 0;
  const lane = async () => {
    while (started < N_PAR) {
      started++;
      await client.call('echo', { text: 'par' });
    }
  };
  await Promise.all(Array.from({ length: 64 }, lane));
  out.parCallsPerSec = N_PAR / ((performance.now() - t) / 1000);
  out.parCpuUsPerCall = (cpuMicros() - cpu) / N_PAR;

  t = performance.now();
  for (let i = 0; i < N_BLOB; i++) {
    const r = await client.call('blob', { bytes: BLOB });
    if (r.content[0].text.length !== BLOB) throw new Error(`${name}: short blob`);
  }
  out.blobMiBPerSec = N_BLOB / ((performance.now() - t) / 1000);

  const lists = [];
  for (let i = 0; i < N_LIST; i++) {
    const s = performance.now();
    await client.list();
    lists.push(performance.now() - s);
  }
  out.list100Ms = median(lists);
  out.peakRssMiB = process.resourceUsage().maxRSS / 1024;
} finally {
  await client.close();
}
process.stdout.write(`${JSON.stringify(out)}\n`);
