/**
 * Helpers for tests of `mcpwire/server/redis` against a real `redis-server`
 * (`redis-server.ts`): a plain ioredis connection of the test's own, and killing a node's named
 * connections (`CLIENT KILL`) to make it lose them.
 */
import { Redis } from 'ioredis';
import { onTestFinished } from 'vitest';

/** A connection of the test's own to the Redis on `port`, closed when the test finishes. */
export function testRedis(port: number): Redis {
  const redis = new Redis({ host: '127.0.0.1', port, lazyConnect: false, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  onTestFinished(() => void redis.disconnect());
  return redis;
}

/** Kills every client connection named `name` (`CLIENT SETNAME`); resolves with how many. */
export async function killRedisClients(port: number, name: string): Promise<number> {
  const redis = new Redis({ host: '127.0.0.1', port, maxRetriesPerRequest: 1 });
  redis.on('error', () => undefined);
  try {
    const list = (await redis.client('LIST')) as string;
    const ids = list
      .split('\n')
      .filter((line) => line.includes(` name=${name} `))
      .map((line) => /\bid=(\d+)/.exec(line)![1]!);
    for (const id of ids) await redis.client('KILL', 'ID', id);
    if (ids.length === 0) throw new Error(`no Redis client named ${name} to kill`);
    return ids.length;
  } finally {
    redis.disconnect();
  }
}
