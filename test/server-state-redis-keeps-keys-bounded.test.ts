/**
 * Nothing the Redis state seams keep grows without bound, measured in a real `redis-server`:
 * an SSE stream keeps at most its count and bytes of events (`XLEN`), a session at most its
 * streams, and every key carries a TTL (`PTTL`) and is gone once it lapses — tasks at their TTL,
 * sessions unseen for their idle time (being seen pushes it back), streams unwritten for theirs,
 * DPoP proofs when they would be too old — until nothing under the prefix is left.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { redisState, type RedisState, type RedisStateOptions } from '../src/server/redis/index.js';
import { newStreamId } from '../src/server/state/event-log.js';
import { testRedis } from './support/redis-state.js';
import { skipWithoutRedis, startRedis, type RedisServer } from './support/redis-server.js';
import { until } from './support/wait.js';
import { sessionRecord } from './support/session-records.js';
import { taskRecord } from './support/task-records.js';

describe.skipIf(skipWithoutRedis())('Redis state keeps its keys bounded', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(() => server?.stop());

  async function open(options: Omit<RedisStateOptions, 'url'> = {}): Promise<{ state: RedisState; prefix: string }> {
    const prefix = `bounded:${randomUUID()}:`;
    const state = await redisState({ url: server.url, keyPrefix: prefix, ...options });
    onTestFinished(() => state.close());
    return { state, prefix };
  }

  async function keysUnder(prefix: string): Promise<string[]> {
    return (await testRedis(server.port).keys(`${prefix}*`)).sort();
  }

  it('keeps at most the count and the bytes of events per stream, the newest always', async () => {
    const { state, prefix } = await open({ maxEventsPerStream: 8, maxEventBytesPerStream: 2_000 });
    const redis = testRedis(server.port);
    const { events } = state;
    const counted = newStreamId('node-a');
    await events.open(counted, 's1', 'node-a', Date.now());
    for (let seq = 1; seq <= 100; seq++) await events.append(counted, { seq, data: `{"n":${seq}}` }, Date.now());
    expect(await redis.xlen(`${prefix}events:${counted}`)).toBe(8);
    const after = await events.after(`${counted}.92`, 's1', Date.now());
    expect(after?.events.map((e) => e.data)).toEqual([
      '{"n":93}',
      '{"n":94}',
      '{"n":95}',
      '{"n":96}',
      '{"n":97}',
      '{"n":98}',
      '{"n":99}',
      '{"n":100}',
    ]);

    const weighed = newStreamId('node-a');
    await events.open(weighed, 's1', 'node-a', Date.now());
    for (let seq = 1; seq <= 10; seq++) await events.append(weighed, { seq, data: 'x'.repeat(500) }, Date.now());
    expect(await redis.xlen(`${prefix}events:${weighed}`)).toBe(3); // 3 × (500 + 64) ≤ 2000 < 4 × 564
    await events.append(weighed, { seq: 11, data: 'y'.repeat(5_000) }, Date.now());
    expect(await redis.xlen(`${prefix}events:${weighed}`)).toBe(1);
    expect(Number(await redis.hget(`${prefix}stream:${weighed}`, 'bytes'))).toBe(5_064);
  });

  it('keeps at most its streams per session, ended ones dropped first, and drops them all with the session', async () => {
    const { state, prefix } = await open({ maxStreamsPerSession: 4 });
    const redis = testRedis(server.port);
    const { events } = state;
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) {
      ids.push(newStreamId('node-a'));
      await events.open(ids[i]!, 's1', 'node-a', Date.now());
      await events.append(ids[i]!, { seq: 1, data: '{}' }, Date.now());
    }
    await events.end(ids[2]!, Date.now());
    const fifth = newStreamId('node-a');
    await events.open(fifth, 's1', 'node-a', Date.now());
    expect(await redis.zrange(`${prefix}session-streams:s1`, 0, -1)).toEqual([ids[0], ids[1], ids[3], fifth]);
    expect(await redis.exists(`${prefix}stream:${ids[2]}`, `${prefix}events:${ids[2]}`)).toBe(0);
    const sixth = newStreamId('node-a');
    await events.open(sixth, 's1', 'node-a', Date.now());
    expect(await redis.zrange(`${prefix}session-streams:s1`, 0, -1)).toEqual([ids[1], ids[3], fifth, sixth]);
    await events.dropSession('s1');
    expect(await keysUnder(prefix)).toEqual([]);
  });

  it('gives every key a TTL and loses each once it lapses: tasks, sessions, streams, DPoP proofs', async () => {
    const { state, prefix } = await open({ sessionIdleMs: 5_000, eventTtlMs: 5_000 });
    const redis = testRedis(server.port);
    const { tasks, sessions, events } = state;
    const task = await tasks.create(taskRecord({ ttlMs: 5_000 }), Date.now());
    const session = sessionRecord();
    await sessions.create(session, Date.now());
    const stream = newStreamId('node-a');
    await events.open(stream, session.sessionId, 'node-a', Date.now());
    await events.append(stream, { seq: 1, data: '{}' }, Date.now());
    expect(await state.replayCache.seen('jkt.jti', Date.now() + 5_000)).toBe(false);
    expect(await state.replayCache.seen('jkt.jti', Date.now() + 5_000)).toBe(true);

    const keys = await keysUnder(prefix);
    // The task, the running tasks, the session, the stream's facts, its events, the session's streams, one proof.
    expect(keys).toHaveLength(7);
    for (const key of keys) {
      const ttl = await redis.pttl(key);
      expect(ttl, key).toBeGreaterThan(0);
      expect(ttl, key).toBeLessThanOrEqual(5_000);
    }
    await until(async () => (await keysUnder(prefix)).length === 0, { what: 'every key to lapse', timeoutMs: 20_000 });
    expect(await tasks.get(task.taskId, undefined, Date.now())).toBeUndefined();
    expect(await sessions.get(session.sessionId, undefined, Date.now())).toBeUndefined();
    expect(await events.after(`${stream}.0`, session.sessionId, Date.now())).toBeUndefined();
    expect(await state.replayCache.seen('jkt.jti', Date.now() + 5_000)).toBe(false);
  });

  it('holds at most maxTasks unfinished tasks across the nodes: one more is refused, an ended or lapsed one makes room', async () => {
    const keyPrefix = `bounded:${randomUUID()}:`;
    const [a, b] = await Promise.all([0, 1].map(() => redisState({ url: server.url, keyPrefix, maxTasks: 3 })));
    onTestFinished(() => Promise.all([a!.close(), b!.close()]).then(() => undefined));
    const task = (leaseMs = 60_000) => taskRecord({ leaseMs });
    const now = Date.now();
    const first = await a!.tasks.create(task(), now);
    const lapsing = await b!.tasks.create(task(1_000), now);
    await a!.tasks.create(task(), now);
    await expect(b!.tasks.create(task(), now)).rejects.toMatchObject({
      code: 'INVALID_STATE',
      message: 'too many tasks in progress (maxTasks 3)',
    });
    await b!.tasks.settle(first.taskId, { status: 'completed', result: {} }, now + 1);
    await b!.tasks.create(task(), now + 2);
    await expect(a!.tasks.create(task(), now + 3)).rejects.toMatchObject({ code: 'INVALID_STATE' });
    // The lapsing task's node stopped renewing: past its lease it no longer counts.
    await a!.tasks.create(task(), now + 1_000);
    expect((await a!.tasks.get(lapsing.taskId, undefined, now + 1_001))?.status).toBe('failed');
    expect(await testRedis(server.port).zcard(`${keyPrefix}tasks:running`)).toBe(3);
  });

  it('keeps a session that is seen, and forgets an ended one at once', async () => {
    const { state, prefix } = await open({ sessionIdleMs: 60_000 });
    const redis = testRedis(server.port);
    const { sessions } = state;
    const made = (id: string) => sessionRecord({ sessionId: id });
    await sessions.create(made('seen'), Date.now());
    await sessions.create(made('ended'), Date.now());
    await redis.pexpire(`${prefix}session:seen`, 1_000);
    await sessions.touch('seen', Date.now());
    expect(await redis.pttl(`${prefix}session:seen`)).toBeGreaterThan(1_000);
    expect(await sessions.end('ended', Date.now())).toBe(true);
    expect(await keysUnder(prefix)).toEqual([`${prefix}session:seen`]);
  });
});
