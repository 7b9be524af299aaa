/**
 * The PostgreSQL and Redis stores behind `createFetchHandler` under Deno and Bun: the kit
 * (test/runtimes/kit-app.mjs) on `mcpwire/server/postgres` (driver `pg`) or `mcpwire/server/redis`
 * (driver `ioredis`), one Deno process and one Bun process on the same store. A legacy session the
 * official SDK v1 client opens on the Deno node is served by the Bun node, mcpwire's client calls
 * on 2026-07-28 there, DELETE on one ends the session on both, and both exit 0 on SIGTERM.
 */
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { connectClient } from './support/client.js';
import { postOnSession } from './support/runtime-kit-checks.js';
import { skipWithoutPostgres, startPostgres } from './support/postgres-cluster.js';
import { skipWithoutRedis, startRedis } from './support/redis-server.js';
import { startRuntime, type RuntimeServer } from './support/runtimes.js';

/** A legacy `tools/call` of `add` on `sessionId` at `url`: the HTTP status and, when answered, the sum. */
async function addOnSession(url: string, sessionId: string): Promise<{ status: number; sum?: number }> {
  const call = { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'add', arguments: { a: 20, b: 22 } } };
  const answer = await postOnSession(url, sessionId, call);
  const text = await answer.text();
  if (answer.status !== 200) return { status: answer.status };
  // JSON, or SSE whose last `data:` line is the answer.
  const json = answer.headers.get('content-type')?.startsWith('text/event-stream')
    ? text
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .at(-1)!
        .slice(5)
    : text;
  const { result } = JSON.parse(json) as { result: { structuredContent: { sum: number } } };
  return { status: 200, sum: result.structuredContent.sum };
}

/** Deno and Bun nodes of the kit on one store (`env` names it); both stopped, with a clean exit, after the block. */
function nodesOn(env: () => NodeJS.ProcessEnv): { deno: () => RuntimeServer; bun: () => RuntimeServer } {
  let deno: RuntimeServer | undefined;
  let bun: RuntimeServer | undefined;
  beforeAll(async () => {
    [deno, bun] = await Promise.all([
      startRuntime('deno', 'kit-app.mjs', { env: env() }),
      startRuntime('bun', 'kit-app.mjs', { env: env() }),
    ]);
  });
  afterAll(async () => {
    await Promise.all([deno?.stop(), bun?.stop()]);
  });
  return { deno: () => deno!, bun: () => bun! };
}

function sharesState(nodes: { deno: () => RuntimeServer; bun: () => RuntimeServer }): void {
  it('serves a legacy session opened on the Deno node from the Bun node, until DELETE ends it', async () => {
    const transport = new TransportV1(new URL(nodes.deno().url));
    const client = new ClientV1({ name: 'sdk-v1', version: '1.0.0' });
    await client.connect(transport);
    onTestFinished(() => client.close());
    expect((await client.callTool({ name: 'add', arguments: { a: 1, b: 2 } })).structuredContent).toEqual({ sum: 3 });
    const sessionId = transport.sessionId!;
    expect(await addOnSession(nodes.bun().url, sessionId)).toEqual({ status: 200, sum: 42 });
    await transport.terminateSession();
    expect(await addOnSession(nodes.bun().url, sessionId)).toEqual({ status: 404 });
  });

  it("serves mcpwire's client on 2026-07-28 from both nodes", async () => {
    for (const node of [nodes.deno(), nodes.bun()]) {
      const client = await connectClient({ url: node.url }, { era: 'modern', listen: false });
      expect((await client.callTool('add', { a: 2, b: 3 })).structuredContent).toEqual({ sum: 5 });
    }
  });

  it('exits 0 on SIGTERM on both nodes (the store closed, nothing left open)', async () => {
    const [deno, bun] = [nodes.deno(), nodes.bun()];
    expect(await deno.stop(), deno.output()).toEqual({ code: 0, signal: null });
    expect(await bun.stop(), bun.output()).toEqual({ code: 0, signal: null });
  });
}

/** A store of its own for one block, started before and stopped after it. */
interface Store {
  url: string;
  stop(): Promise<void>;
}

const STORES = [
  {
    name: 'PostgreSQL',
    skip: skipWithoutPostgres(),
    start: startPostgres,
    env: (url: string) => ({ STORE: 'postgres', DATABASE_URL: url, STATE_PREFIX: 'rt_' }),
  },
  {
    name: 'Redis',
    skip: skipWithoutRedis(),
    start: startRedis,
    env: (url: string) => ({ STORE: 'redis', REDIS_URL: url, STATE_PREFIX: 'rt:' }),
  },
];

for (const { name, skip, start, env } of STORES)
  describe.skipIf(skip)(`on ${name}`, () => {
    let store: Store | undefined;
    beforeAll(async () => {
      store = await start();
    });
    afterAll(async () => {
      await store?.stop();
    });
    sharesState(nodesOn(() => env(store!.url)));
  });
