/**
 * Scale-out of `mcpwire gateway`: two real gateway processes (the built CLI, `--http
 * 127.0.0.1:0 --config F`) over one kit upstream, sharing `gateway.state` on a real PostgreSQL
 * cluster, then on a real `redis-server` (one of each for the file), behind the round-robin
 * proxy (no stickiness). A 2025-06-18 session (`Mcp-Session-Id`) whose requests alternate between
 * the nodes lists and calls tools through both; a rate-limit bucket drained through one node
 * refuses on the other; a node SIGKILLed while a slow upstream call runs through it gives the
 * client an error (bounded wait, never a hang) and the next call, through the other node, works.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpServer } from '../src/server/index.js';
import type { TextContent } from '../src/protocol/types.js';
import { CLI, requireBuiltCli } from './support/cli.js';
import { connectClient } from './support/client.js';
import { listenKitAt, type KitHttp } from './support/kit-http.js';
import { launchNodes, type NodeSet } from './support/nodes.js';
import { skipWithoutPostgres, startPostgres } from './support/postgres-cluster.js';
import { skipWithoutRedis, startRedis } from './support/redis-server.js';
import { startRoundRobinProxy } from './support/round-robin-proxy.js';
import { within } from './support/wait.js';

const SECRET = 'the secret both gateway nodes share';
const LEGACY = { protocolVersion: '2025-06-18' } as const;
const text = (result: { content: unknown[] }) => (result.content[0] as TextContent).text;

/** A store of the file's own, and how a gateway config names it. */
interface Store {
  name: 'postgres' | 'redis';
  skip: boolean;
  start(): Promise<{ url: string; stop(): Promise<void> }>;
  /** A fresh table or key prefix, so that each pair of nodes has buckets of its own. */
  prefix(): string;
}

const STORES: Store[] = [
  {
    name: 'postgres',
    skip: skipWithoutPostgres(),
    start: startPostgres,
    prefix: () => `gw_${randomBytes(3).toString('hex')}_`,
  },
  {
    name: 'redis',
    skip: skipWithoutRedis(),
    start: startRedis,
    prefix: () => `gw:${randomBytes(3).toString('hex')}:`,
  },
];

/** The upstream: `echo`, and `slow`, which runs until its request is aborted (its gateway node died). */
interface Upstream extends KitHttp {
  server: McpServer;
  /** Resolves when the next `slow` call has started. */
  slowStarted(): Promise<void>;
}

async function startUpstream(): Promise<Upstream> {
  const server = new McpServer({ name: 'kit', version: '1.0.0', logger: () => undefined });
  const waiting = new Set<() => void>();
  server.registerTool({
    name: 'echo',
    inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] } as const,
    handler: ({ text }) => ({ content: [{ type: 'text', text }] }),
  });
  server.registerTool({
    name: 'slow',
    inputSchema: { type: 'object' },
    handler: async (_args, context) => {
      for (const resolve of waiting) resolve();
      waiting.clear();
      await new Promise((resolve) => context.signal.addEventListener('abort', resolve, { once: true }));
      return { content: [{ type: 'text', text: 'too late' }] };
    },
  });
  const http = await listenKitAt(server, () => ({}));
  return {
    ...http,
    server,
    slowStarted: () => new Promise<void>((resolve) => waiting.add(resolve)),
  };
}

const portOf = (line: string, stream: 'stdout' | 'stderr') =>
  stream === 'stdout'
    ? Number(/^listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp$/.exec(line)?.[1] ?? NaN) || undefined
    : undefined;

/** The nodes' rate limit: one bucket for every unauthenticated call, spent across the file's tests. */
const CAPACITY = 20;

/** A store and the gateway nodes on it. */
interface Scene {
  nodes: NodeSet;
  stop(): Promise<void>;
}

let dir: string;
let upstream: Upstream;
const scenes = new Map<Store['name'], Promise<Scene>>();

/** Starts `store`, then three gateway nodes on it (one config file), all over the upstream. */
async function startScene(store: Store): Promise<Scene> {
  const started = await store.start();
  try {
    const file = path.join(dir, `${store.name}.json`);
    const state = { [store.name]: started.url, stateSecret: '${MCP_STATE_SECRET}', prefix: store.prefix() };
    const gateway = { state, rateLimit: { capacity: CAPACITY, refillPerSecond: 0.001 } };
    writeFileSync(file, JSON.stringify({ mcpServers: { kit: { url: upstream.url } }, gateway }, null, 2));
    const nodes = await launchNodes(3, {
      script: CLI,
      args: ['gateway', '--http', '127.0.0.1:0', '--config', file],
      env: { HOME: dir, MCP_STATE_SECRET: SECRET },
      portFrom: portOf,
    });
    return {
      nodes,
      stop: async () => {
        await nodes.stop();
        await started.stop();
      },
    };
  } catch (error) {
    await started.stop();
    throw error;
  }
}

// Both stores and their nodes start at once (one PostgreSQL cluster, one redis-server for the file).
beforeAll(async () => {
  requireBuiltCli();
  dir = mkdtempSync(path.join(tmpdir(), 'mcpwire-gateway-nodes-'));
  upstream = await startUpstream();
  for (const store of STORES) if (!store.skip) scenes.set(store.name, startScene(store));
  await Promise.allSettled(scenes.values());
}, 120_000);
afterAll(async () => {
  await Promise.all([...scenes.values()].map((scene) => scene.then((s) => s.stop()).catch(() => undefined)));
  await upstream?.close();
  await upstream?.server.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe.each(STORES)('gateway nodes on $name state', (store) => {
  let nodes: NodeSet;
  beforeAll(async () => {
    if (!store.skip) ({ nodes } = await scenes.get(store.name)!);
  });

  it.skipIf(store.skip)('serve one legacy session from either node: lists and calls through both', async () => {
    const proxy = await startRoundRobinProxy(nodes.urls().slice(0, 2));
    const client = await connectClient({ url: `${proxy.url}/mcp` }, LEGACY);
    expect(client.protocolVersion).toBe('2025-06-18');
    for (let round = 0; round < 3; round++) {
      const names = (await client.listTools({ refresh: true })).map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(['kit__echo', 'kit__slow']));
      expect(text(await client.callTool('kit__echo', { text: `round ${round}` }))).toBe(`round ${round}`);
    }
    const sessions = new Set(proxy.log.map((record) => record.headers['mcp-session-id']).filter(Boolean));
    expect(sessions.size).toBe(1);
    const served = (backend: number) =>
      proxy.log.filter((r) => r.backend === backend && r.headers['mcp-session-id'] && r.status === 200).length;
    expect(served(0)).toBeGreaterThan(1);
    expect(served(1)).toBeGreaterThan(1);
  });

  it.skipIf(store.skip)(
    'a node killed mid-call: an error, never a hang; the next call goes through the other',
    async () => {
      const proxy = await startRoundRobinProxy(
        nodes.nodes.slice(0, 2).map((node, i) => ({ url: node.url, kill: () => nodes.sigkill(i) })),
      );
      const client = await connectClient({ url: `${proxy.url}/mcp` }, LEGACY);
      expect(text(await client.callTool('kit__echo', { text: 'warm' }))).toBe('warm');
      const started = upstream.slowStarted();
      const call = client.callTool('kit__slow', {}).then(
        () => 'answered',
        (error: unknown) => error,
      );
      await within(started, { what: 'the slow call to reach the upstream', timeoutMs: 10_000 });
      // The node the slow call went through: the one POST still in flight.
      const inFlight = proxy.log.filter((record) => record.method === 'POST' && record.end === undefined);
      expect(inFlight).toHaveLength(1);
      const victim = inFlight[0]!.backend;
      await proxy.kill(victim);
      const outcome = await within(call, { what: 'the killed call to fail', timeoutMs: 10_000 });
      expect(outcome).toMatchObject({ code: 'TRANSPORT' });
      expect(text(await client.callTool('kit__echo', { text: 'after' }))).toBe('after');
      expect(proxy.log.at(-1)?.backend).toBe(1 - victim);
    },
  );

  // Last: it spends what is left of the bucket the nodes share (the one of unauthenticated callers).
  it.skipIf(store.skip)('share the rate limit: a bucket drained through one node refuses on the other', async () => {
    const alive = nodes.nodes.filter((node) => node.child.exitCode === null && node.child.signalCode === null);
    expect(alive).toHaveLength(2);
    const [one, two] = await Promise.all(alive.map((node) => connectClient({ url: `${node.url}/mcp` }, LEGACY)));
    expect((await two!.callTool('kit__echo', { text: 'before' })).isError).toBeFalsy();
    let granted = 0;
    for (; granted <= CAPACITY; granted++) if ((await one!.callTool('kit__echo', { text: 'spend' })).isError) break;
    expect(granted).toBeLessThan(CAPACITY);
    const refused = await two!.callTool('kit__echo', { text: 'after the drain' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/RATE_LIMITED/);
  });
});
