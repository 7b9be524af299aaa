/**
 * Lua scripts run atomically in Redis, through ioredis's `defineCommand` (EVALSHA, falling back to
 * EVAL once after a restart flushed the script cache). A read-modify-write that two nodes could
 * race (a task's status, a lease, a session's last sighting, an event stream's trimming) is one
 * script, so no node ever acts on a value another has changed meanwhile.
 */
import type { Redis } from 'ioredis';

/** A script bound to a connection: `run(keys, args)` resolves with its reply. */
export interface RedisScript {
  run(keys: readonly string[], args: ReadonlyArray<string | number>): Promise<unknown>;
}

/** Defines `lua` on `redis` as the command `mcpwire_<name>` taking `keys` keys. */
export function defineScript(redis: Redis, name: string, keys: number, lua: string): RedisScript {
  const command = `mcpwire_${name}`;
  redis.defineCommand(command, { numberOfKeys: keys, lua });
  const call = (redis as unknown as Record<string, (...args: Array<string | number>) => Promise<unknown>>)[command]!;
  return { run: (k, a) => call.call(redis, ...k, ...a) };
}

/** A flat `[field, value, …]` reply (HGETALL in Lua) as an object. */
export function pairs(reply: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!Array.isArray(reply)) return out;
  for (let i = 0; i + 1 < reply.length; i += 2) out[String(reply[i])] = String(reply[i + 1]);
  return out;
}
