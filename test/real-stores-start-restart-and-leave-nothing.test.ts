/**
 * The real stores the scale-out tests stand on (`test/support/redis-server.ts`,
 * `test/support/postgres-cluster.ts`): a redis-server answers PING on its loopback port, comes
 * back on the same port after `restart()` (a new process, empty), refuses connections between
 * `down()` and `up()`, and `stop()` leaves no process and no directory; a PostgreSQL cluster's
 * `terminateBackends()` cuts a client's connection, `restart()` keeps the data on the same port,
 * `down()`/`up()` make an outage, and `stop()` leaves no postmaster and no directory.
 * Skipped without the binaries, except in CI, where they fail.
 */
import { existsSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { skipWithoutPostgres, startPostgres } from './support/postgres-cluster.js';
import { dies, isAlive } from './support/processes.js';
import { redisCommand, skipWithoutRedis, startRedis } from './support/redis-server.js';
import { within } from './support/wait.js';

describe.skipIf(skipWithoutRedis())('a redis-server of the test', () => {
  it('answers PING, restarts on the same port as a new empty server, and stops leaving no process', async () => {
    const redis = await startRedis();
    onTestFinished(() => redis.stop());
    expect(redis.url).toBe(`redis://127.0.0.1:${redis.port}`);
    expect(await redisCommand(redis.port, ['SET', 'k', 'v'])).toBe('+OK');
    const first = redis.pid;

    await redis.restart();
    expect(redis.pid).not.toBe(first);
    expect(isAlive(first)).toBe(false);
    expect(await redisCommand(redis.port, ['PING'])).toBe('+PONG');
    expect(await redisCommand(redis.port, ['EXISTS', 'k'])).toBe(':0');

    await redis.down();
    await expect(redisCommand(redis.port, ['PING'])).rejects.toThrow(/ECONNREFUSED/);
    await redis.up();
    expect(await redisCommand(redis.port, ['PING'])).toBe('+PONG');

    const second = redis.pid;
    await redis.stop();
    expect(isAlive(second)).toBe(false);
    await expect(redisCommand(redis.port, ['PING'])).rejects.toThrow(/ECONNREFUSED/);
  });
});

/** The little of `pg`'s client used here (the package has no bundled types and `@types/pg` is not installed). */
interface PgClient {
  connect(): Promise<void>;
  query(sql: string): Promise<{ rows: unknown[] }>;
  end(): Promise<void>;
  on(event: 'error', listener: (error: Error) => void): void;
}

/** A specifier TypeScript does not resolve, so the untyped package type-checks as the interface above. */
const PG_MODULE = ['pg'].join('');

async function pgClient(url: string): Promise<PgClient> {
  const pg = (await import(PG_MODULE)) as {
    default: { Client: new (o: { connectionString: string }) => PgClient };
  };
  const client = new pg.default.Client({ connectionString: url });
  await client.connect();
  return client;
}

describe.skipIf(skipWithoutPostgres())('a PostgreSQL cluster of the test', () => {
  it('cuts client connections, restarts keeping the data, and stops leaving nothing', async () => {
    const cluster = await startPostgres();
    onTestFinished(() => cluster.stop());
    const client = await pgClient(cluster.url);
    // pg reports the cut more than once (the server's message, then the closed socket): keep listening.
    const cut = new Promise<Error>((resolve) => client.on('error', resolve));
    await client.query('CREATE TABLE kept (n int); INSERT INTO kept VALUES (42)');

    expect(await cluster.terminateBackends()).toBe(1);
    expect((await within(cut, { what: "the client's connection error", timeoutMs: 10_000 })).message).toMatch(
      /terminat/i,
    );
    await client.end().catch(() => undefined);

    const before = cluster.pid;
    await cluster.restart();
    expect(cluster.pid).not.toBe(before);
    const again = await pgClient(cluster.url);
    try {
      expect((await again.query('SELECT n FROM kept')).rows).toEqual([{ n: 42 }]);
    } finally {
      await again.end();
    }

    await cluster.down();
    await expect(pgClient(cluster.url)).rejects.toThrow(/ECONNREFUSED/);
    await cluster.up();
    const third = await pgClient(cluster.url);
    await third.end();

    const postmaster = cluster.pid;
    expect(existsSync(cluster.dir)).toBe(true);
    await cluster.stop();
    expect(await dies(postmaster, 0)).toBe(true);
    expect(existsSync(cluster.dir)).toBe(false);
  });
});
