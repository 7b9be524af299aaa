/**
 * Issue 20, case 8: 200 concurrent clients over the round-robin proxy for 20 seconds of load, on
 * three kit node processes (`bench/server/kit-node.mjs`) sharing PostgreSQL state, then Redis
 * state (a cluster and a redis-server of the test's own). The mix (`support/scaled-load.ts`):
 * stateless 2026 calls with progress streams (mcpwire), legacy sessions whose every request may
 * land on another node and whose GET stream hears the resource updates of its own touches
 * (mcpwire and the official SDK v1 client), and 2026 tasks created on one node and polled on the
 * others. No round fails, every client receives each event it is owed exactly once (progress
 * 1, 2, 3 on every call; one update per touch; every task completed with its result), and no
 * node's resident memory grows by more than a generous bound after the warm-up.
 */
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNodes } from './support/nodes.js';
import { skipWithoutPostgres, startPostgres, type PostgresCluster } from './support/postgres-cluster.js';
import { skipWithoutRedis, startRedis, type RedisServer } from './support/redis-server.js';
import { startRoundRobinProxy } from './support/round-robin-proxy.js';
import { openLoadClient, runLoad, type LoadClient, type LoadKind } from './support/scaled-load.js';
import { within } from './support/wait.js';

const NODE = fileURLToPath(new URL('../bench/server/kit-node.mjs', import.meta.url));
const MIX: ReadonlyArray<[LoadKind, number]> = [
  ['modern', 100],
  ['legacy', 50],
  ['sdk-v1', 20],
  ['tasks', 30],
];
const LOAD_MS = 20_000;
/** A client's pause between rounds, on average: 200 clients at about 2 rounds/s in all at most. */
const PACE_MS = 1_000;
/** Growth of a node's RSS after the warm-up (every client a round in) that still passes. */
const RSS_GROWTH_BOUND = 160 * 1024 * 1024;
const MiB = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;

/** Connects every client of the mix to `url`; closes those it made and rejects if one fails. */
async function connectAll(url: string): Promise<LoadClient[]> {
  const kinds = MIX.flatMap(([kind, count]) => Array.from({ length: count }, () => kind));
  const settled = await Promise.allSettled(kinds.map((kind, index) => openLoadClient(kind, index, url)));
  const clients = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    await Promise.all(clients.map((c) => c.close()));
    throw failed.reason;
  }
  return clients;
}

async function twoHundredClients(store: 'postgres' | 'redis', env: NodeJS.ProcessEnv): Promise<void> {
  const nodes = await startNodes(3, {
    script: NODE,
    args: ['--state', store],
    env: (i) => ({ ...env, MCP_NODE_ID: `node-${i}`, MCP_STATE_SECRET: 'the secret all three nodes share' }),
  });
  const proxy = await startRoundRobinProxy(nodes.urls(), { logLimit: 100 });
  const clients = await within(connectAll(`${proxy.url}/mcp`), { timeoutMs: 120_000, what: '200 clients to connect' });
  try {
    const rss = (): number[] => nodes.nodes.map((node) => node.rssBytes() ?? Number.NaN);
    let baseline: number[] | undefined;
    const peak = nodes.nodes.map(() => 0);
    const sample = (): void => rss().forEach((bytes, i) => (peak[i] = Math.max(peak[i]!, bytes)));
    let warm = 0;
    const errors = await runLoad(clients, {
      durationMs: LOAD_MS,
      paceMs: PACE_MS,
      // Warm once every client finished a round (every path ran); then sampled every 50 rounds.
      onRound: (client, total) => {
        if (client.rounds === 1 && ++warm === clients.length) baseline = rss();
        else if (baseline && total % 50 === 0) sample();
      },
    });
    sample();
    await within(Promise.all(clients.map((c) => c.settle())), { timeoutMs: 60_000, what: 'every client to settle' });

    expect(errors).toEqual([]);
    expect(clients.flatMap((c) => c.problems)).toEqual([]);
    for (const client of clients)
      expect(client.events.received, `${client.kind}-${client.index}`).toBe(client.events.expected);
    expect(clients.every((c) => c.rounds >= 1)).toBe(true);
    expect(proxy.backends.every((b) => b.served > 200)).toBe(true);
    expect(baseline, 'the warm-up to end (every client a round in)').toBeDefined();
    const growth = peak.map((bytes, i) => bytes - baseline![i]!);
    const rounds = clients.reduce((sum, c) => sum + c.rounds, 0);
    console.log(
      `${store}: ${rounds} rounds, ${proxy.backends.map((b) => b.served).join('/')} requests per node, RSS ${baseline!.map(MiB).join('/')} after warm-up, peak ${peak.map(MiB).join('/')}`,
    );
    for (const bytes of growth) expect(bytes).toBeLessThan(RSS_GROWTH_BOUND);
  } finally {
    await Promise.all(clients.map((c) => c.close()));
  }
}

describe.skipIf(skipWithoutPostgres())('200 clients over three nodes on PostgreSQL state', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 120_000);
  afterAll(() => cluster?.stop());

  it('lose no event, fail no call, and keep every node’s memory bounded', async () => {
    await twoHundredClients('postgres', {
      DATABASE_URL: cluster.url,
      STATE_PREFIX: `c8_${randomBytes(4).toString('hex')}_`,
    });
  }, 300_000);
});

describe.skipIf(skipWithoutRedis())('200 clients over three nodes on Redis state', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  }, 60_000);
  afterAll(() => redis?.stop());

  it('lose no event, fail no call, and keep every node’s memory bounded', async () => {
    await twoHundredClients('redis', { REDIS_URL: redis.url, STATE_PREFIX: `c8:${randomBytes(4).toString('hex')}:` });
  }, 300_000);
});
