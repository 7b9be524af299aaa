/**
 * A state store that is down, on a real PostgreSQL and a real Redis stopped mid-test: a legacy
 * session's POST, GET and DELETE are answered 503 with `Retry-After` and a JSON-RPC error saying
 * the state store is unavailable — naming no internals — on the node:http handler and on the
 * fetch handler; the cause goes to the server's logger; once the store is back the session serves.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createFetchHandler, McpServer } from '../src/server/index.js';
import { postgresState } from '../src/server/postgres/index.js';
import { redisState } from '../src/server/redis/index.js';
import type { ServerState } from '../src/server/state/server-state.js';
import { FETCH_URL, jsonPost, legacyInitialize } from './support/fetch-requests.js';
import { startKitHttp } from './support/kit-http.js';
import { exchange, type Exchange } from './support/kit-wire.js';
import { LEGACY_REVISION, rpc } from './support/legacy-wire.js';
import { skipWithoutPostgres, startPostgres, type PostgresCluster } from './support/postgres-cluster.js';
import { skipWithoutRedis, startRedis, type RedisServer } from './support/redis-server.js';
import { until } from './support/wait.js';

const SECRET = 'the secret of the store-down tests';
const MESSAGE = 'Service Unavailable: the state store is unavailable; try again';

/** What a store outage must look like on the wire: 503, Retry-After, the one message, no internals. */
function expectUnavailable(status: number, retryAfter: string | null | undefined, text: string): void {
  expect(status, text).toBe(503);
  expect(retryAfter).toBe('1');
  expect(JSON.parse(text)).toMatchObject({ jsonrpc: '2.0', id: null, error: { message: MESSAGE } });
  expect(text).not.toMatch(/postgres|redis|ECONNREFUSED|connect|stack/i);
}

/** The kit with `state`, its logger's lines kept. */
function kitServer(state: Partial<ServerState>): { server: McpServer; logged: string[] } {
  const logged: string[] = [];
  const server = new McpServer({
    name: 'store-down',
    version: '1',
    logger: (line) => void logged.push(JSON.stringify(line)),
    state,
  });
  server.registerTool({ name: 'ping', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });
  return { server, logged };
}

/** A legacy session over raw HTTP at `url`: its id. */
async function openSession(url: string): Promise<string> {
  const made = await exchange(url, {
    body: legacyInitialize(),
  });
  expect(made.status, made.text).toBe(200);
  return made.headers['mcp-session-id'] as string;
}

/** The store-down checks of one store: `down`/`up` stop and start it. */
function describeOutage(
  name: string,
  skip: boolean,
  setup: () => Promise<{
    state: () => Promise<Partial<ServerState> & { close(): Promise<void> }>;
    down(): Promise<void>;
    up(): Promise<void>;
    stop(): Promise<void>;
  }>,
): void {
  describe.skipIf(skip)(`a ${name} store that is down`, () => {
    let store: Awaited<ReturnType<typeof setup>>;
    beforeAll(async () => {
      store = await setup();
    });
    afterAll(() => store?.stop());

    it('is 503 with Retry-After for a legacy session on the node:http handler, and serves again once back', async () => {
      const state = await store.state();
      onTestFinished(() => state.close());
      const { server, logged } = kitServer(state);
      const kit = await startKitHttp(server);
      const session = await openSession(kit.url);
      const headers = { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY_REVISION };
      await store.down();
      let downed = true;
      onTestFinished(async () => {
        if (downed) await store.up();
      });
      const post: Exchange = await exchange(kit.url, { body: rpc('tools/list'), headers });
      expectUnavailable(post.status, post.headers['retry-after'], post.text);
      const get = await exchange(kit.url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream' } });
      expectUnavailable(get.status, get.headers['retry-after'], get.text);
      const made = await exchange(kit.url, {
        body: legacyInitialize(),
      });
      expectUnavailable(made.status, made.headers['retry-after'], made.text);
      expect(logged.some((line) => line.includes('the state store is unavailable'))).toBe(true);
      await store.up();
      downed = false;
      // The store's client reconnects by itself: the session serves again within the bound.
      await until(
        async () => {
          const made = await exchange(kit.url, { body: legacyInitialize() });
          if (made.status !== 200) return false;
          const listed = await exchange(kit.url, {
            body: rpc('tools/list'),
            headers: {
              'mcp-session-id': made.headers['mcp-session-id'] as string,
              'mcp-protocol-version': LEGACY_REVISION,
            },
          });
          return listed.status === 200;
        },
        { what: 'a session to serve again once the store is back', timeoutMs: 20_000 },
      );
    });

    it('is 503 with Retry-After on the fetch handler: POST and DELETE of a session', async () => {
      const state = await store.state();
      onTestFinished(() => state.close());
      const { server } = kitServer(state);
      onTestFinished(() => server.close());
      const handler = createFetchHandler(server, { path: '/mcp' });
      onTestFinished(() => handler.close({ graceMs: 1000 }));
      const made = await handler(jsonPost(legacyInitialize()));
      expect(made.status).toBe(200);
      const headers = {
        'mcp-session-id': made.headers.get('mcp-session-id')!,
        'mcp-protocol-version': LEGACY_REVISION,
      };
      await store.down();
      onTestFinished(() => store.up());
      const call = await handler(jsonPost(rpc('tools/call', { name: 'ping', arguments: {} }), headers));
      expectUnavailable(call.status, call.headers.get('retry-after'), await call.text());
      const deleted = await handler(new Request(FETCH_URL, { method: 'DELETE', headers }));
      expectUnavailable(deleted.status, deleted.headers.get('retry-after'), await deleted.text());
    });
  });
}

describeOutage('PostgreSQL', skipWithoutPostgres(), async () => {
  const cluster: PostgresCluster = await startPostgres();
  return {
    state: () =>
      Promise.resolve(
        postgresState({
          connectionString: cluster.url,
          tablePrefix: `down_${randomUUID().slice(0, 8)}_`,
          maxConnections: 2,
          connectTimeoutMs: 2_000,
          queryTimeoutMs: 2_000,
          logger: () => undefined,
          stateSecret: SECRET,
        }),
      ),
    down: () => cluster.down(),
    up: () => cluster.up(),
    stop: () => cluster.stop(),
  };
});

describeOutage('Redis', skipWithoutRedis(), async () => {
  const redis: RedisServer = await startRedis();
  return {
    state: () =>
      redisState({ url: redis.url, keyPrefix: `down:${randomUUID()}:`, commandTimeoutMs: 2_000, stateSecret: SECRET }),
    down: () => redis.down(),
    up: () => redis.up(),
    stop: () => redis.stop(),
  };
});
