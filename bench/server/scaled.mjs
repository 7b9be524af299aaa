#!/usr/bin/env node
// node bench/server/scaled.mjs [--rounds N] [--calls N] [--nodes 1,2,3] [--stores memory,postgres,redis]
//   [--scenarios stateless,legacy,tasks] [--cpu-prof DIR] [--quick]
// (after `npm run build`; `npm run bench:scaled` builds first): the server kit scaled out. 1, 2
// and 3 kit nodes (kit-node.mjs) behind the round-robin proxy (its own process,
// ../support/proxy-process.mjs), on memory, PostgreSQL or Redis state (a throwaway cluster and
// redis-server, ../support/stores.mjs; a store whose binaries are missing is skipped with a line
// saying so), loaded by one fixed raw client (http-client.mjs, 64 requests in flight):
// - `stateless` (the headline): 2026-07-28 `tools/call` of `echo`, which needs no shared state;
// - `legacy`: 16 legacy sessions (initialize on any node, then every request on the next node),
//   calls alternating `echo` and `progress` (3 progress events on an SSE answer);
// - `tasks`: 2026-07-28 `job` calls run as tasks (tasks extension), each polled with `tasks/get`
//   until it ended.
// Memory state is per process, so the legacy and task mixes run on it with one node only.
// Every sample starts fresh nodes and a fresh proxy; configurations are interleaved, in an order
// rotating every round. CPU is read from /proc/<pid>/stat (utime + stime; Linux): the nodes' own
// CPU across the measured loop, divided by its calls (tasks: by tasks), and the store's processes
// beside it. Prints medians and ratios to memory as markdown; writes every sample to
// bench/results/scaled-latest.json.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { httpPeer } from './http-client.mjs';
import { postgresMissing, redisMissing, startPostgres, startRedis } from '../support/stores.mjs';

const argv = process.argv.slice(2);
const QUICK = argv.includes('--quick');
const value = (name) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const ROUNDS = Number(value('--rounds') ?? (QUICK ? 1 : 3));
const CALLS = Number(value('--calls') ?? (QUICK ? 1_500 : 3_000));
/** Warm-up calls per node (each node's JIT sees as many before the measured loop, whatever the node count). */
const WARM_UP = QUICK ? 500 : 1_500;
const NODE_COUNTS = (value('--nodes') ?? '1,2,3').split(',').map(Number);
const STORES = (value('--stores') ?? 'memory,postgres,redis').split(',');
const ONLY = value('--scenarios')?.split(',');
/** `--cpu-prof DIR`: every node writes a V8 CPU profile there (`<store>-<nodes>-node<i>-….cpuprofile`) as it exits. */
const PROFILE_DIR = value('--cpu-prof');
const IN_FLIGHT = 64;
const SESSIONS = 16;
const TICKS = 100; // USER_HZ on Linux
const NODE = fileURLToPath(new URL('./kit-node.mjs', import.meta.url));
const PROXY = fileURLToPath(new URL('../support/proxy-process.mjs', import.meta.url));
const RESULTS = fileURLToPath(new URL('../results/', import.meta.url));
const TASKS_CAPABILITY = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

/** Child processes still running, SIGKILLed if the bench exits without stopping them. */
const running = new Set();
process.once('exit', () => running.forEach((child) => child.kill('SIGKILL')));

/** CPU ms (user + system) of the processes `pids` so far; a process gone counts 0. */
function cpuMs(pids) {
  let ticks = 0;
  for (const pid of pids) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return (ticks * 1000) / TICKS;
}

/** Starts `node script ...args` and resolves with `{ child, port }` once it prints {"port":N} (30 s bound). */
function startListening(script, args, env = {}, nodeArgs = []) {
  const child = spawn(process.execPath, [...nodeArgs, script, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${script} did not listen within 30 s: ${output}`)), 30_000);
    child.once('exit', (code) => reject(new Error(`${script} exited (${code}) before listening: ${output}`)));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output = (output + chunk).slice(-2_000)));
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      const line = chunk.split('\n').find((l) => l.startsWith('{"port":'));
      if (!line) return;
      clearTimeout(timer);
      resolve({ child, port: JSON.parse(line).port });
    });
  });
}

/** SIGTERM, SIGKILL after 5 s; resolves once the process is gone. */
async function stopChild(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await gone;
  clearTimeout(timer);
}

/** Runs `lane` on IN_FLIGHT lanes until `count` units were taken; resolves with the requests sent. */
async function lanes(count, lane) {
  let taken = 0;
  let requests = 0;
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async (_, i) => {
      while (taken < count) {
        taken++;
        const sent = await lane(i, taken);
        requests += sent;
      }
    }),
  );
  return requests;
}

const ok = (answer, what) => {
  if (!answer.result) throw new Error(`${what} failed: ${JSON.stringify(answer).slice(0, 300)}`);
  return answer.result;
};

/**
 * The scenarios: each `prepare(url)` gives `{ run(count) → requests, close() }`; `units(calls)` is
 * how many units (calls, tasks) a sample of `calls` runs, what CPU is divided by.
 */
const SCENARIOS = {
  stateless: {
    units: (calls) => calls,
    async prepare(url) {
      const peer = httpPeer(url, { era: 'modern' });
      const call = { name: 'echo', arguments: { text: 'hello' } };
      return {
        run: (count) => lanes(count, async () => (ok(await peer.request('tools/call', call), 'echo'), 1)),
        close: () => peer.close(),
      };
    },
  },
  legacy: {
    units: (calls) => calls,
    async prepare(url) {
      const peers = Array.from({ length: SESSIONS }, () => httpPeer(url, { connections: IN_FLIGHT / SESSIONS }));
      await Promise.all(peers.map((peer) => peer.initialize()));
      const calls = [
        { name: 'echo', arguments: { text: 'hello' } },
        { name: 'progress', arguments: { steps: 3 } },
      ];
      return {
        run: (count) =>
          lanes(count, async (lane, n) => {
            const call = calls[n % 2];
            ok(await peers[lane % SESSIONS].request('tools/call', call), call.name);
            return 1;
          }),
        close: () => Promise.all(peers.map((peer) => peer.close())),
      };
    },
  },
  tasks: {
    units: (calls) => Math.max(1, Math.round(calls / 4)),
    async prepare(url) {
      const peer = httpPeer(url, { era: 'modern', capabilities: TASKS_CAPABILITY });
      const call = { name: 'job', arguments: { text: 'hello' } };
      return {
        run: (count) =>
          lanes(count, async () => {
            const created = ok(await peer.request('tools/call', call), 'job');
            if (created.resultType !== 'task') throw new Error(`job ran without a task: ${JSON.stringify(created)}`);
            let requests = 1;
            for (let status = created.status; status === 'working'; requests++) {
              if (requests > 1_000) throw new Error(`task ${created.taskId} never ended`);
              status = ok(await peer.request('tasks/get', { taskId: created.taskId }), 'tasks/get').status;
            }
            return requests;
          }),
        close: () => peer.close(),
      };
    },
  },
};

/** One sample: fresh nodes and proxy for `store` × `nodes`, every scenario that applies, measured. */
async function sample(store, nodes, stores) {
  const prefix = `b${randomBytes(4).toString('hex')}_`;
  const env = (i) => ({
    MCP_NODE_ID: `node-${i}`,
    MCP_STATE_SECRET: 'the secret every bench node shares',
    STATE_PREFIX: store === 'redis' ? `${prefix}:` : prefix,
    ...(store === 'postgres' ? { DATABASE_URL: stores.postgres.url } : {}),
    ...(store === 'redis' ? { REDIS_URL: stores.redis.url } : {}),
  });
  const started = await Promise.allSettled(
    Array.from({ length: nodes }, (_, i) =>
      startListening(
        NODE,
        ['--state', store],
        env(i),
        PROFILE_DIR
          ? [
              '--cpu-prof',
              '--cpu-prof-dir',
              PROFILE_DIR,
              '--cpu-prof-name',
              `${store}-${nodes}-node${i}-${Date.now()}.cpuprofile`,
            ]
          : [],
      ),
    ),
  );
  const kit = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const proxy = await Promise.all(started.map((s) => (s.status === 'rejected' ? Promise.reject(s.reason) : null)))
    .then(() =>
      startListening(
        PROXY,
        kit.map((n) => `http://127.0.0.1:${n.port}`),
      ),
    )
    .catch(async (error) => {
      await Promise.all(kit.map((n) => stopChild(n.child)));
      throw error;
    });
  const url = `http://127.0.0.1:${proxy.port}/mcp`;
  const nodePids = kit.map((n) => n.child.pid);
  const results = [];
  try {
    for (const [scenario, { units, prepare }] of Object.entries(SCENARIOS)) {
      if (ONLY && !ONLY.includes(scenario)) continue;
      if (store === 'memory' && nodes > 1 && scenario !== 'stateless') continue;
      const peer = await prepare(url);
      try {
        await peer.run(units(WARM_UP * nodes));
        const storePids = stores[store]?.pids() ?? [];
        const [node0, store0, t0] = [cpuMs(nodePids), cpuMs(storePids), performance.now()];
        const count = units(CALLS);
        const requests = await peer.run(count);
        const seconds = (performance.now() - t0) / 1000;
        const [nodeCpu, storeCpu] = [cpuMs(nodePids) - node0, cpuMs(storePids) - store0];
        results.push({
          store,
          nodes,
          scenario,
          units: count,
          requests,
          seconds,
          nodeCpuMs: nodeCpu,
          storeCpuMs: storeCpu,
        });
      } finally {
        await peer.close();
      }
    }
  } finally {
    await stopChild(proxy.child);
    await Promise.all(kit.map((n) => stopChild(n.child)));
  }
  return results;
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : sorted[Math.floor(sorted.length / 2)];
};
const fixed = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '—');

/** The markdown table of one scenario, with ratios to memory at the same node count. */
function table(samples, scenario, title, unit) {
  const rows = [];
  for (const nodes of NODE_COUNTS)
    for (const store of STORES) {
      const mine = samples.filter((s) => s.scenario === scenario && s.store === store && s.nodes === nodes);
      if (mine.length === 0) continue;
      rows.push({
        store,
        nodes,
        rps: median(mine.map((s) => s.requests / s.seconds)),
        cpu: median(mine.map((s) => (s.nodeCpuMs * 1000) / s.units)),
        storeCpu: median(mine.map((s) => (s.storeCpuMs * 1000) / s.units)),
        perUnit: median(mine.map((s) => s.requests / s.units)),
      });
    }
  if (rows.length === 0) return [];
  const lines = [
    `\n*${title}, median of ${ROUNDS} interleaved round(s)*\n`,
    `| nodes | state | requests/s | × memory | node CPU µs/${unit} | × memory | store CPU µs/${unit} |`,
    '| ---: | --- | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const row of rows) {
    const base = rows.find((r) => r.store === 'memory' && r.nodes === row.nodes);
    const ratio = (a, b) => (base ? fixed(a / b, 2) : '—');
    lines.push(
      `| ${row.nodes} | ${row.store} | ${fixed(row.rps)} | ${ratio(row.rps, base?.rps)} | ${fixed(row.cpu, 1)} | ${ratio(row.cpu, base?.cpu)} | ${row.store === 'memory' ? '—' : fixed(row.storeCpu, 1)} |`,
    );
  }
  if (scenario === 'tasks') lines.push(`\n(${fixed(rows[0].perUnit, 2)} requests per task: the call and its polls)`);
  return { lines, rows };
}

/** The stores started, stopped at the end or on a signal (a postmaster is no child of ours). */
const stores = {};

async function main() {
  const skipped = [];
  const starters = { postgres: [postgresMissing, startPostgres], redis: [redisMissing, startRedis] };
  for (const store of STORES.filter((s) => s !== 'memory')) {
    const [missing, start] = starters[store] ?? [() => `unknown store ${store}`];
    const why = missing();
    if (why) skipped.push(`${store}: skipped (${why})`);
    else stores[store] = await start();
  }
  const active = STORES.filter((s) => s === 'memory' || stores[s]);
  const configs = NODE_COUNTS.flatMap((nodes) => active.map((store) => ({ store, nodes })));
  const samples = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < configs.length; k++) {
        const { store, nodes } = configs[(k + round) % configs.length];
        const t0 = performance.now();
        for (const result of await sample(store, nodes, stores)) samples.push({ round, ...result });
        process.stderr.write(
          `round ${round + 1}/${ROUNDS}: ${store} × ${nodes} (${fixed((performance.now() - t0) / 1000, 1)} s)\n`,
        );
      }
    }
  } finally {
    await Promise.all(Object.values(stores).map((s) => s.stop()));
  }
  mkdirSync(RESULTS, { recursive: true });
  writeFileSync(`${RESULTS}scaled-latest.json`, JSON.stringify({ argv, calls: CALLS, samples }, null, 2));

  console.log(
    `# The kit scaled out: 1–${Math.max(...NODE_COUNTS)} nodes behind a round-robin proxy, ${IN_FLIGHT} in flight`,
  );
  for (const line of skipped) console.log(`\n${line}`);
  const headline = table(samples, 'stateless', `2026-07-28 stateless tools/call (echo), ${CALLS} calls`, 'call');
  console.log(headline.lines?.join('\n') ?? '');
  const legacy = table(
    samples,
    'legacy',
    `Legacy sessions (${SESSIONS}), echo and progress calls, ${CALLS} calls`,
    'call',
  );
  console.log(legacy.lines?.join('\n') ?? '');
  const tasks = table(
    samples,
    'tasks',
    `2026-07-28 tasks, ${SCENARIOS.tasks.units(CALLS)} tasks created and polled`,
    'task',
  );
  console.log(tasks.lines?.join('\n') ?? '');
  console.log('\nTarget: a shared store adds at most 30 % node CPU per stateless call over memory (same node count).');
  for (const row of headline.rows ?? []) {
    if (row.store === 'memory') continue;
    const base = headline.rows.find((r) => r.store === 'memory' && r.nodes === row.nodes);
    if (!base) continue;
    const ratio = row.cpu / base.cpu;
    console.log(`- ${row.store}, ${row.nodes} node(s): ${fixed(ratio, 2)}× → ${ratio <= 1.3 ? 'pass' : 'FAIL'}`);
  }
  console.log(`\nRaw samples: bench/results/scaled-latest.json`);
}

for (const signal of ['SIGINT', 'SIGTERM'])
  process.once(
    signal,
    () => void Promise.allSettled(Object.values(stores).map((s) => s.stop())).then(() => process.exit(130)),
  );
await main();
