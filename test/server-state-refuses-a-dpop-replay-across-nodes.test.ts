/**
 * Two kit nodes protected by `jwtBearer` with DPoP-bound tokens (RFC 9449), each with its own
 * state on one shared store (a real `redis-server`, a real PostgreSQL cluster) and the replay
 * cache it offers: a proof accepted by one node is refused by the other (`has been used before`),
 * exactly one of two nodes shown one proof at once accepts it, and while the store is down a
 * proof is refused (500), never let through unrecorded. Keys come from a JWKS on a `node:http`
 * listener here; proofs are signed with `jose`.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { jwtBearer, McpServer, type HttpAuthOptions, type ReplayCache } from '../src/server/index.js';
import { postgresState } from '../src/server/postgres/index.js';
import { redisState } from '../src/server/redis/index.js';
import { clientKey, DPOP_ISSUER, startKeyServer, type KeyServer } from './support/dpop-keys.js';
import { listenKitAt, type KitHttp } from './support/kit-http.js';
import { registerWhoamiTool } from './support/kit-tools.js';
import { modernRequest } from './support/kit-wire.js';
import { skipWithoutPostgres, startPostgres } from './support/postgres-cluster.js';
import { skipWithoutRedis, startRedis } from './support/redis-server.js';
import { until } from './support/wait.js';

/** A running store: a node's replay cache on it (under a prefix of the test's own), and an outage. */
interface RunningStore {
  replayCache(prefix: string): Promise<ReplayCache>;
  down(): Promise<void>;
  up(): Promise<void>;
  stop(): Promise<void>;
}

const STORES: Array<{ name: string; skip: boolean; start(): Promise<RunningStore> }> = [
  {
    name: 'Redis',
    skip: skipWithoutRedis(),
    async start() {
      const redis = await startRedis();
      return {
        async replayCache(prefix) {
          const state = await redisState({ url: redis.url, keyPrefix: `${prefix}:` });
          onTestFinished(() => state.close());
          return state.replayCache;
        },
        down: () => redis.down(),
        up: () => redis.up(),
        stop: () => redis.stop(),
      };
    },
  },
  {
    name: 'PostgreSQL',
    skip: skipWithoutPostgres(),
    async start() {
      const cluster = await startPostgres();
      return {
        replayCache(prefix) {
          const state = postgresState({ connectionString: cluster.url, tablePrefix: prefix, logger: () => undefined });
          onTestFinished(() => state.close());
          return Promise.resolve(state.replayCache);
        },
        down: () => cluster.down(),
        up: () => cluster.up(),
        stop: () => cluster.stop(),
      };
    },
  },
];

const ISSUER = DPOP_ISSUER;

/** A modern `tools/call whoami` with a DPoP token and proof; resolves with the status and body. */
async function call(url: string, token: string, proof: string): Promise<{ status: number; body: string }> {
  const response = await modernRequest(
    url,
    'tools/call',
    { name: 'whoami', arguments: {} },
    { id: 1, headers: { authorization: `DPoP ${token}`, dpop: proof } },
  );
  return { status: response.status, body: response.text };
}

for (const { name, skip, ...fixture } of STORES)
  describe.skipIf(skip)(`DPoP replay refused across nodes sharing one ${name}`, () => {
    let store: RunningStore;
    beforeAll(async () => {
      store = await fixture.start();
    }, 120_000);
    afterAll(() => store?.stop());

    /** A protected node serving `resource` (the URL proofs name: the first node's, as behind one load balancer). */
    async function node(keys: KeyServer, prefix: string, resource?: string): Promise<KitHttp> {
      const replayCache = await store.replayCache(prefix);
      const server = new McpServer({ name: 'dpop-node', version: '1', logger: () => undefined });
      registerWhoamiTool(server);
      onTestFinished(() => server.close());
      const kit = await listenKitAt(server, (url) => ({
        auth: {
          resource: resource ?? url,
          authorizationServers: [ISSUER],
          verifyToken: jwtBearer({ issuer: ISSUER, jwksUrl: keys.jwksUrl }),
          dpop: { replayCache },
        } satisfies HttpAuthOptions,
      }));
      onTestFinished(() => kit.close());
      return kit;
    }

    it('refuses on one node a proof the other accepted, and lets exactly one of two nodes take a proof shown to both', async () => {
      const keys = await startKeyServer();
      const prefix = `dpop_${randomBytes(4).toString('hex')}_`;
      const first = await node(keys, prefix);
      const second = await node(keys, prefix, first.url);
      const key = await clientKey();
      const token = await keys.token(first.url, key.jkt);
      const proof = await key.proof({ htu: first.url, token });
      const accepted = await call(second.url, token, proof);
      expect(accepted.status, accepted.body).toBe(200);
      const replayed = await call(first.url, token, proof);
      expect(replayed.status).toBe(401);
      expect(replayed.body).toContain('has been used before');

      const both = await key.proof({ htu: first.url, token });
      const answers = await Promise.all([call(first.url, token, both), call(second.url, token, both)]);
      expect(answers.map((a) => a.status).sort()).toEqual([200, 401]);
    });

    it('refuses a proof (500) while the store is down, and accepts fresh ones once it is back', async () => {
      const keys = await startKeyServer();
      const kit = await node(keys, `dpop_${randomBytes(4).toString('hex')}_`);
      const key = await clientKey();
      const token = await keys.token(kit.url, key.jkt);
      await store.down();
      try {
        const refused = await call(kit.url, token, await key.proof({ htu: kit.url, token }));
        expect(refused.status).toBe(500);
        expect(refused.body).toContain('the access token could not be checked');
      } finally {
        await store.up();
      }
      await until(async () => (await call(kit.url, token, await key.proof({ htu: kit.url, token }))).status === 200, {
        what: 'a fresh proof accepted once the store is back',
        timeoutMs: 20_000,
      });
    });
  });
