#!/usr/bin/env node
// `node bench/in-process.mjs [--dist DIR] [--otel none|api|sdk] [--runs N]`: mcpwire's client and a
// kit server in one process on a linked pair (no pipes, no scheduler between them), CPU per
// `tools/call` for both sides together, sequential and 64 in flight, each run in a fresh process.
// With two `--dist` directories (e.g. a worktree of an older commit built with `npm run build`)
// the builds alternate run by run: an A/B of the engine's own cost. `--otel` sets OpenTelemetry
// up first (bench/otel-setup.mjs): `api` instruments over the API's no-op providers, `sdk` over
// the real SDK.
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';

const argv = process.argv.slice(2);
const values = (name) => argv.flatMap((a, i) => (a === name ? [argv[i + 1]] : []));
const child = argv.includes('--child');

if (child) {
  const [dist] = values('--dist');
  const [otel = 'none'] = values('--otel');
  const base = pathToFileURL(`${dist.replace(/\/$/, '')}/`).href;
  if (otel !== 'none') {
    process.env.BENCH_OTEL = otel === 'api' ? 'api' : '';
    const { setUpOtel } = await import('./otel-setup.mjs');
    await setUpOtel(base);
  }
  const { McpServer } = await import(new URL('server/index.js', base).href);
  const { McpClient, createLinkedPair } = await import(new URL('index.js', base).href);
  const server = new McpServer({ name: 'echo', version: '1', logger: () => undefined });
  server.registerTool({
    name: 'echo',
    inputSchema: { type: 'object' },
    handler: ({ text }) => ({ content: [{ type: 'text', text }] }),
  });
  const [a, b] = createLinkedPair();
  server.connect(b);
  const client = await McpClient.connect(a, { era: 'legacy' });
  const seq = async (n) => {
    for (let i = 0; i < n; i++) await client.callTool('echo', { text: 'hi' });
  };
  const par = async (n) => {
    for (let i = 0; i < n; i += 64)
      await Promise.all(Array.from({ length: 64 }, () => client.callTool('echo', { text: 'hi' })));
  };
  const cpu = async (run, n) => {
    const start = process.cpuUsage();
    await run(n);
    const used = process.cpuUsage(start);
    return (used.user + used.system) / n;
  };
  await seq(5000); // warm-up: V8 tiers the hot path first
  await par(20000);
  const result = { seq: await cpu(seq, 20000), par: await cpu(par, 40000) };
  await client.close();
  await server.close();
  process.stdout.write(`${JSON.stringify(result)}\n`);
} else {
  const dists = values('--dist');
  if (dists.length === 0) dists.push(fileURLToPath(new URL('../dist/', import.meta.url)));
  const [otel = 'none'] = values('--otel');
  const [runs = '5'] = values('--runs');
  const samples = Object.fromEntries(dists.map((d) => [d, { seq: [], par: [] }]));
  for (let run = 0; run < Number(runs); run++) {
    for (const dist of dists) {
      const out = spawnSync(
        process.execPath,
        [fileURLToPath(import.meta.url), '--child', '--dist', dist, '--otel', otel],
        {
          encoding: 'utf8',
          timeout: 120_000,
        },
      );
      if (out.status !== 0) throw new Error(`${dist}: ${out.stderr}`);
      const { seq, par } = JSON.parse(out.stdout.trim().split('\n').pop());
      samples[dist].seq.push(seq);
      samples[dist].par.push(par);
    }
  }
  const median = (xs) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
  console.log(`| build | otel | sequential µs/call | 64 in flight µs/call |  (median of ${runs} runs)`);
  console.log('| --- | --- | ---: | ---: |');
  for (const dist of dists)
    console.log(
      `| ${dist} | ${otel} | ${median(samples[dist].seq).toFixed(2)} | ${median(samples[dist].par).toFixed(2)} |`,
    );
}
