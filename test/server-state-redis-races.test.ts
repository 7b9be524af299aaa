/**
 * Two nodes racing on one real `redis-server` (each its own `redisState()`, so its own
 * connections): every read-modify-write is atomic. A settle on one node and a cancel on the other
 * leave each task in exactly the state whichever won says; answers given on both nodes at once are
 * all kept; of many concurrent sightings of one DPoP proof across the nodes exactly one records it.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { redisState, type RedisState } from '../src/server/redis/index.js';
import { skipWithoutRedis, startRedis, type RedisServer } from './support/redis-server.js';
import { taskRecord } from './support/task-records.js';

describe.skipIf(skipWithoutRedis())('two nodes racing on one Redis', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(() => server?.stop());

  async function twoNodes(): Promise<[RedisState, RedisState]> {
    const keyPrefix = `races:${randomUUID()}:`;
    const nodes = await Promise.all([0, 1].map(() => redisState({ url: server.url, keyPrefix })));
    onTestFinished(() => Promise.all(nodes.map((n) => n.close())).then(() => undefined));
    return nodes as [RedisState, RedisState];
  }

  const newTask = () => taskRecord({ leaseMs: 60_000 });

  it('settle on one node and cancel on the other: each task ends as the winner says, never both', async () => {
    const [a, b] = await twoNodes();
    const tasks = await Promise.all(Array.from({ length: 40 }, () => a.tasks.create(newTask(), Date.now())));
    const outcomes = await Promise.all(
      tasks.map(async ({ taskId }) => {
        const [settled, cancelled] = await Promise.all([
          a.tasks.settle(taskId, { status: 'completed', result: { content: [] } }, Date.now()),
          b.tasks.cancel(taskId, Date.now()),
        ]);
        const stored = await b.tasks.get(taskId, undefined, Date.now());
        return { settled, cancelledStatus: cancelled?.status, stored };
      }),
    );
    for (const { settled, cancelledStatus, stored } of outcomes) {
      expect(stored!.status).toBe(settled ? 'completed' : 'cancelled');
      expect(cancelledStatus).toBe(stored!.status);
      expect(stored!.cancelRequested).toBe(true);
      if (settled) expect(stored!.result).toEqual({ content: [] });
      else expect(stored!.result).toBeUndefined();
    }
  });

  it('keeps every answer given on both nodes at once, and is working again after the last', async () => {
    const [a, b] = await twoNodes();
    const { taskId } = await a.tasks.create(newTask(), Date.now());
    const keys = Array.from({ length: 20 }, (_, i) => `k${i}`);
    for (const key of keys) await a.tasks.ask(taskId, key, { method: 'roots/list', params: {} }, Date.now());
    await Promise.all(
      keys.map((key, i) => (i % 2 === 0 ? a : b).tasks.respond(taskId, { [key]: { n: i } }, Date.now())),
    );
    const stored = await a.tasks.get(taskId, undefined, Date.now());
    expect(stored!.status).toBe('working');
    expect(stored!.inputRequests).toEqual({});
    expect(Object.keys(stored!.inputResponses).sort()).toEqual([...keys].sort());
  });

  it('records a DPoP proof shown to both nodes many times at once exactly once', async () => {
    const [a, b] = await twoNodes();
    const expiresAt = Date.now() + 60_000;
    const seen = await Promise.all(
      Array.from({ length: 30 }, (_, i) => (i % 2 === 0 ? a : b).replayCache.seen('jkt.one-proof', expiresAt)),
    );
    expect(seen.filter((replayed) => !replayed)).toHaveLength(1);
  });
});
