/**
 * The Redis state seams (`mcpwire/server/redis`) keep the contract every implementation must keep
 * (`test/support/state-contract.ts`), against a real `redis-server` started here: two nodes, each
 * its own `redisState()` (own connections) on one Redis, a fresh key prefix per test. The bus
 * interruption kills node b's pub/sub connection (`CLIENT KILL`): it reconnects and resyncs.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe } from 'vitest';
import { redisState } from '../src/server/redis/index.js';
import { describeStateContract, type StateSet } from './support/state-contract.js';
import { killRedisClients } from './support/redis-state.js';
import { skipWithoutRedis, startRedis, type RedisServer } from './support/redis-server.js';

describe.skipIf(skipWithoutRedis())('Redis state seams', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  const nodeOf = new WeakMap<StateSet, string>();

  describeStateContract({
    name: 'Redis',
    async open(limits) {
      const keyPrefix = `contract:${randomUUID()}:`;
      const made = await Promise.all(
        ['a', 'b'].map(async (node) => {
          const nodeId = `${node}-${randomUUID().slice(0, 8)}`;
          const state = await redisState({
            url: redis.url,
            nodeId,
            keyPrefix,
            sessionIdleMs: limits.sessionIdleMs,
            maxEventsPerStream: limits.maxEventsPerStream,
            eventTtlMs: limits.eventTtlMs,
          });
          const { bus, tasks, sessions, events } = state;
          const set: StateSet = { bus, tasks, sessions, events };
          nodeOf.set(set, nodeId);
          return { state, set };
        }),
      );
      return {
        a: made[0]!.set,
        b: made[1]!.set,
        close: async () => {
          await Promise.all(made.map(({ state }) => state.close()));
        },
      };
    },
    async interruptBus(b) {
      await killRedisClients(redis.port, `mcpwire:${nodeOf.get(b)}:pubsub`);
    },
  });
});
