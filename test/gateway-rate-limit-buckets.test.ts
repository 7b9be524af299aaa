/**
 * The gateway's rate limit is a token bucket per key, reckoned on the caller's clock (injected
 * here: no sleeps): a burst of `capacity`, then one token per `1 / refillPerSecond` seconds, a
 * `retryAfterMs` that says when the next one is there, no credit from a clock going back. Memory
 * stays bounded (idle full buckets forgotten, a cap on keys). The shared variant runs the same
 * arithmetic in a Redis Lua script against a real `redis-server`, and in one PostgreSQL statement
 * against a real cluster: the same answers as memory, atomic across connections, storage that
 * forgets buckets once full, and a clear error when the store is away.
 */
import { randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { McpError } from '../src/protocol/errors.js';
import { MemoryBucketStore, type BucketStore } from '../src/gateway/policy/bucket-store.js';
import { RateLimiter, SharedRateLimiter } from '../src/gateway/policy/rate-limit.js';
import { PgBucketStore } from '../src/gateway/policy/pg-bucket-store.js';
import { RedisBucketStore } from '../src/gateway/policy/redis-bucket-store.js';
import type { PgPool } from '../src/server/postgres/pg-driver.js';
import type { BucketResult } from '../src/gateway/policy/token-bucket.js';
import { freePort } from './support/ports.js';
import { skipWithoutPostgres, startPostgres, type PostgresCluster } from './support/postgres-cluster.js';
import { testRedis } from './support/redis-state.js';
import { skipWithoutRedis, startRedis, type RedisServer } from './support/redis-server.js';
import { until } from './support/wait.js';

// `pg` has no type declarations here: the test's pools, typed as the store uses them.
const require = createRequire(import.meta.url);
const pg = require('pg') as { Pool: new (options: object) => PgPool };

/** A scripted sequence of takes: [key, now]. Mixed keys, bursts, waits, and a clock going back. */
const SCRIPT: Array<[string, number]> = [
  ['a', 0],
  ['a', 0],
  ['a', 0],
  ['a', 0],
  ['b', 0],
  ['a', 250],
  ['a', 1_000],
  ['a', 1_000],
  ['a', 1_999],
  ['a', 2_500],
  ['a', 1_000], // back in time: no refill
  ['b', 60_000],
  ['a', 60_000],
  ['a', 60_000],
  ['a', 60_000],
  ['a', 60_000],
];

/**
 * Forty takes of alice's 5-token bucket, alternating between two nodes at once: exactly five
 * win, with 4…0 left; bob's bucket is his own.
 */
async function expectFiveWinnersOfForty(nodeA: SharedRateLimiter, nodeB: SharedRateLimiter): Promise<void> {
  const takes = Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? nodeA : nodeB).take('alice', 1_000));
  const results = await Promise.all(takes);
  expect(results.filter((r) => r.ok)).toHaveLength(5);
  expect(
    results
      .filter((r) => r.ok)
      .map((r) => (r.ok ? r.remaining : -1))
      .sort(),
  ).toEqual([0, 1, 2, 3, 4]);
  expect(await nodeB.take('bob', 1_000)).toEqual({ ok: true, remaining: 4 });
}

describe('the in-memory rate limiter', () => {
  it('gives a burst of capacity, then refuses with the time until the next token', () => {
    const limiter = new RateLimiter({ capacity: 3, refillPerSecond: 1 });
    expect([0, 0, 0].map((now) => limiter.take('alice', now))).toEqual([
      { ok: true, remaining: 2 },
      { ok: true, remaining: 1 },
      { ok: true, remaining: 0 },
    ]);
    expect(limiter.take('alice', 0)).toEqual({ ok: false, retryAfterMs: 1_000 });
    expect(limiter.take('alice', 400)).toEqual({ ok: false, retryAfterMs: 600 });
    expect(limiter.take('alice', 1_000)).toEqual({ ok: true, remaining: 0 });
    // Refill stops at capacity however long the key was idle.
    expect(limiter.take('alice', 3_600_000)).toEqual({ ok: true, remaining: 2 });
  });

  it('keeps each key its own bucket', () => {
    const limiter = new RateLimiter({ capacity: 1, refillPerSecond: 1 });
    expect(limiter.take('alice', 0).ok).toBe(true);
    expect(limiter.take('alice', 0).ok).toBe(false);
    expect(limiter.take('bob', 0)).toEqual({ ok: true, remaining: 0 });
  });

  it('refills fractions continuously and rounds the wait up', () => {
    const limiter = new RateLimiter({ capacity: 2, refillPerSecond: 0.5 });
    limiter.take('k', 0);
    limiter.take('k', 0);
    expect(limiter.take('k', 0)).toEqual({ ok: false, retryAfterMs: 2_000 });
    expect(limiter.take('k', 1_999)).toEqual({ ok: false, retryAfterMs: 1 });
    expect(limiter.take('k', 2_000)).toEqual({ ok: true, remaining: 0 });
    const fast = new RateLimiter({ capacity: 1, refillPerSecond: 3 });
    fast.take('k', 0);
    expect(fast.take('k', 0)).toEqual({ ok: false, retryAfterMs: 334 }); // 333.3… rounded up
  });

  it('gives no credit for a clock that goes back', () => {
    const limiter = new RateLimiter({ capacity: 1, refillPerSecond: 1 });
    expect(limiter.take('k', 10_000).ok).toBe(true);
    expect(limiter.take('k', 0)).toEqual({ ok: false, retryAfterMs: 1_000 });
    // Reckoned from the later time: a second after 10 000, not after 0.
    expect(limiter.take('k', 10_999).ok).toBe(false);
    expect(limiter.take('k', 11_000).ok).toBe(true);
  });

  it('forgets idle buckets once they are full again, and only those', () => {
    const limiter = new RateLimiter({ capacity: 2, refillPerSecond: 1 });
    for (let i = 0; i < 100; i++) limiter.take(`idle-${i}`, 0);
    expect(limiter.size).toBe(100);
    // At 500 ms none is full again (1.5 of 2): the oldest is looked at and kept.
    limiter.take('busy', 500);
    expect(limiter.size).toBe(101);
    // By 10 s every idle bucket is full: each take forgets up to four of the oldest.
    for (let i = 0; i < 25; i++) limiter.take('busy', 10_000 + i);
    expect(limiter.size).toBe(1);
    // A forgotten key starts full, as it would have been.
    expect(limiter.take('idle-0', 10_100)).toEqual({ ok: true, remaining: 1 });
  });

  it('holds at most maxKeys buckets, forgetting the least recently used', () => {
    const limiter = new RateLimiter({ capacity: 5, refillPerSecond: 0.001, maxKeys: 3 });
    for (const key of ['a', 'b', 'c']) limiter.take(key, 0);
    limiter.take('a', 1); // a is now the most recent: b is the least
    limiter.take('d', 2);
    expect(limiter.size).toBe(3);
    expect(limiter.take('a', 3)).toEqual({ ok: true, remaining: 2 }); // kept: its third take
    expect(limiter.take('c', 4)).toEqual({ ok: true, remaining: 3 }); // kept
    expect(limiter.take('b', 5)).toEqual({ ok: true, remaining: 4 }); // forgotten: starts full
    for (let i = 0; i < 1_000; i++) limiter.take(`flood-${i}`, 10 + i);
    expect(limiter.size).toBe(3);
  });

  it('refuses bad limits with INVALID_ARGUMENT', () => {
    const bad = [
      { capacity: 0, refillPerSecond: 1 },
      { capacity: 0.5, refillPerSecond: 1 },
      { capacity: Number.NaN, refillPerSecond: 1 },
      { capacity: Number.POSITIVE_INFINITY, refillPerSecond: 1 },
      { capacity: 1, refillPerSecond: 0 },
      { capacity: 1, refillPerSecond: -1 },
      { capacity: 1, refillPerSecond: 1, maxKeys: 0 },
      { capacity: 1, refillPerSecond: 1, maxKeys: 1.5 },
    ];
    for (const options of bad) {
      const error = (() => {
        try {
          new RateLimiter(options);
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(error, JSON.stringify(options)).toBeInstanceOf(McpError);
      expect((error as McpError).code).toBe('INVALID_ARGUMENT');
    }
    expect(() => new RateLimiter({ capacity: '3' as unknown as number, refillPerSecond: 1 })).toThrow(/capacity/);
    expect(() => new SharedRateLimiter({ capacity: 1, refillPerSecond: 0, store: new MemoryBucketStore() })).toThrow(
      /refillPerSecond/,
    );
  });
});

/** The results of {@link SCRIPT} through `limiter`. */
async function runScript(limiter: SharedRateLimiter, prefix = ''): Promise<BucketResult[]> {
  const results: BucketResult[] = [];
  for (const [key, now] of SCRIPT) results.push(await limiter.take(`${prefix}${key}`, now));
  return results;
}

function memoryScript(): BucketResult[] {
  const limiter = new RateLimiter({ capacity: 3, refillPerSecond: 2 });
  return SCRIPT.map(([key, now]) => limiter.take(key, now));
}

describe('the shared rate limiter over a bucket store', () => {
  it('answers as the in-memory limiter does over the memory store, which is not shared', async () => {
    const store = new MemoryBucketStore({ maxKeys: 10 });
    expect(store.shared).toBe(false);
    const results = await runScript(new SharedRateLimiter({ capacity: 3, refillPerSecond: 2, store }));
    expect(results).toEqual(memoryScript());
    expect(results.filter((r) => r.ok).length).toBeGreaterThan(0);
    expect(results.filter((r) => !r.ok).length).toBeGreaterThan(0);
    expect(store.size).toBe(2);
    await store.close();
    expect(store.size).toBe(0);
  });
});

describe.skipIf(skipWithoutRedis())('the Redis bucket store', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(() => server?.stop());

  function store(redis: Redis, prefix: string): BucketStore {
    const made = new RedisBucketStore(redis, { keyPrefix: prefix, where: server.url });
    onTestFinished(() => made.close());
    return made;
  }

  it('answers every take as the in-memory arithmetic does', async () => {
    const prefix = `same:${randomUUID()}:`;
    const shared = store(testRedis(server.port), prefix);
    expect(shared.shared).toBe(true);
    const results = await runScript(new SharedRateLimiter({ capacity: 3, refillPerSecond: 2, store: shared }));
    expect(results).toEqual(memoryScript());
  });

  it('gives the last tokens to exactly as many takes as there are, across two connections at once', async () => {
    const prefix = `race:${randomUUID()}:`;
    const nodeA = new SharedRateLimiter({
      capacity: 5,
      refillPerSecond: 0.001,
      store: store(testRedis(server.port), prefix),
    });
    const nodeB = new SharedRateLimiter({
      capacity: 5,
      refillPerSecond: 0.001,
      store: store(testRedis(server.port), prefix),
    });
    await expectFiveWinnersOfForty(nodeA, nodeB);
  });

  it('keeps one fixed-size key per bucket, expiring once the bucket would be full', async () => {
    const prefix = `ttl:${randomUUID()}:`;
    const redis = testRedis(server.port);
    const slow = store(redis, prefix) as RedisBucketStore;
    await slow.take('x'.repeat(10_000), 10, 0.01, Date.now());
    const keys = await redis.keys(`${prefix}*`);
    expect(keys).toEqual([slow.keyOf('x'.repeat(10_000))]);
    expect(keys[0]!.length).toBeLessThan(prefix.length + 60);
    const ttl = await redis.pttl(keys[0]!);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(100_000); // one token short of full at one per 100 s
    // A fast refill: full again within a few milliseconds, then the key is gone.
    await slow.take('fast', 1, 1_000, Date.now());
    await until(async () => (await redis.exists(slow.keyOf('fast'))) === 0, { what: 'the full bucket to expire' });
    expect(await redis.exists(slow.keyOf('x'.repeat(10_000)))).toBe(1); // not yet full: kept
  });

  it('rejects with TRANSPORT naming the store when Redis cannot be reached', async () => {
    const offline = new Redis({ host: '127.0.0.1', port: server.port, lazyConnect: true, enableOfflineQueue: false });
    offline.on('error', () => undefined);
    onTestFinished(() => void offline.disconnect());
    const limiter = new SharedRateLimiter({ capacity: 1, refillPerSecond: 1, store: store(offline, 'off:') });
    const error = await limiter.take('alice', 0).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe('TRANSPORT');
    expect((error as McpError).message).toContain(`the Redis bucket store at ${server.url} failed (take)`);
  });
});

describe.skipIf(skipWithoutPostgres())('the PostgreSQL bucket store', () => {
  let cluster: PostgresCluster;
  let pool: PgPool;
  beforeAll(async () => {
    cluster = await startPostgres();
    pool = new pg.Pool({ connectionString: cluster.url, max: 8 });
  });
  afterAll(async () => {
    await pool?.end();
    await cluster?.stop();
  });

  async function rows(table: string): Promise<number> {
    const result = await pool.query<{ n: string }>({ text: `SELECT count(*) AS n FROM "${table}"` });
    return Number(result.rows[0]!.n);
  }

  it('answers every take as the in-memory arithmetic does, making its table on first use', async () => {
    const shared = new PgBucketStore(pool, { table: 'same_bucket', where: 'test-pg' });
    expect(shared.shared).toBe(true);
    const results = await runScript(new SharedRateLimiter({ capacity: 3, refillPerSecond: 2, store: shared }));
    expect(results).toEqual(memoryScript());
    const fast = new RateLimiter({ capacity: 1, refillPerSecond: 3 });
    expect([await shared.take('f', 1, 3, 0), await shared.take('f', 1, 3, 0)]).toEqual([
      fast.take('f', 0),
      fast.take('f', 0),
    ]);
  });

  it('gives the last tokens to exactly as many takes as there are, over many connections at once', async () => {
    // Two nodes, each its own store (and table migration) on the same database.
    const nodeA = new SharedRateLimiter({ capacity: 5, refillPerSecond: 0.001, store: new PgBucketStore(pool) });
    const other = new pg.Pool({ connectionString: cluster.url, max: 8 });
    onTestFinished(() => other.end());
    const nodeB = new SharedRateLimiter({ capacity: 5, refillPerSecond: 0.001, store: new PgBucketStore(other) });
    await expectFiveWinnersOfForty(nodeA, nodeB);
  });

  it('forgets buckets that are full again as later takes pass, keeping the ones in use', async () => {
    const store = new PgBucketStore(pool, { table: 'swept_bucket' });
    for (let i = 0; i < 20; i++) await store.take(`idle-${i}`, 2, 1, 0);
    await store.take('busy', 2, 1, 500); // at 500 ms nobody is full again
    expect(await rows('swept_bucket')).toBe(21);
    for (let i = 0; i < 5; i++) await store.take('busy', 2, 1, 10_000 + i); // four forgotten per take
    expect(await rows('swept_bucket')).toBe(1);
    expect(await store.take('idle-0', 2, 1, 10_100)).toEqual({ ok: true, remaining: 1 }); // starts full
  });

  it('refuses a table name that is no identifier, and rejects with TRANSPORT when the database is away', async () => {
    expect(() => new PgBucketStore(pool, { table: 'x; DROP TABLE y' })).toThrow(/lower-case SQL identifier/);
    const away = new pg.Pool({ connectionString: `postgres://test@127.0.0.1:${await freePort()}/todo`, max: 1 });
    onTestFinished(() => away.end());
    const error = await new PgBucketStore(away, { where: 'the away db' }).take('k', 1, 1, 0).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe('TRANSPORT');
    expect((error as McpError).message).toContain('the PostgreSQL bucket store at the away db failed (migrate)');
  });
});
