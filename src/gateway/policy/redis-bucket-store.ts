/**
 * A {@link BucketStore} on Redis, shared by every gateway node on that Redis: one Lua script per
 * take (`TAKE_TOKEN`, the arithmetic of `token-bucket.ts`), so a read-refill-take-write is atomic
 * and of two nodes taking a key's last token exactly one gets it. A bucket is a hash
 * `<prefix>bucket:<sha256(key)>` (`tokens`, `at`) whose TTL is the time until it would be full
 * again: then it expires, and an absent bucket is full, so Redis holds only buckets in use.
 * Refill follows the callers' clock (`now`); the TTL follows Redis's, so a skew between them moves
 * a bucket's expiry by that skew, no more.
 *
 * It takes an ioredis client but never imports ioredis (only `src/server/redis` may load that
 * optional peer): {@link ScriptingRedis} is the one method it uses, which an ioredis `Redis` has.
 */
import { createHash } from 'node:crypto';
import { McpError } from '../../protocol/errors.js';
import type { BucketStore } from './bucket-store.js';
import type { BucketResult } from './token-bucket.js';

/**
 * KEYS[1] the bucket; ARGV capacity, refillPerSecond, now (epoch ms). Returns {1, remaining} or
 * {0, retryAfterMs} (integers: Redis truncates Lua numbers in replies).
 */
export const TAKE_TOKEN = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local now = tonumber(ARGV[3])
local saved = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = capacity
local at = now
if saved[1] and saved[2] then
  tokens = tonumber(saved[1])
  at = tonumber(saved[2])
  if now > at then
    tokens = math.min(capacity, tokens + (now - at) * rate / 1000)
    at = now
  end
end
local ok = 0
if tokens >= 1 then
  tokens = tokens - 1
  ok = 1
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', string.format('%.17g', at))
redis.call('PEXPIRE', KEYS[1], math.max(1, math.ceil((capacity - tokens) * 1000 / rate)))
if ok == 1 then
  return {1, math.floor(tokens)}
end
return {0, math.max(1, math.ceil((1 - tokens) * 1000 / rate))}
`;

/** Options of {@link RedisBucketStore}. */
export interface RedisBucketStoreOptions {
  /** What every key starts with (default `mcpwire:gateway:`). */
  keyPrefix?: string;
  /** Names the store in errors (default `redis`). */
  where?: string;
}

/** What the store needs of an ioredis `Redis`: `defineCommand` (EVALSHA, EVAL once after a script flush). */
export interface ScriptingRedis {
  defineCommand(name: string, definition: { numberOfKeys: number; lua: string }): void;
}

const COMMAND = 'mcpwire_gateway_take_token';

export class RedisBucketStore implements BucketStore {
  readonly shared = true;
  private readonly run: (...args: Array<string | number>) => Promise<unknown>;
  private readonly prefix: string;
  private readonly where: string;

  /** `redis`: a connection of the caller's (defines the `mcpwire_gateway_take_token` command on it; yours to close). */
  constructor(redis: ScriptingRedis, options: RedisBucketStoreOptions = {}) {
    redis.defineCommand(COMMAND, { numberOfKeys: 1, lua: TAKE_TOKEN });
    const command = (redis as unknown as Record<string, (...args: Array<string | number>) => Promise<unknown>>)[
      COMMAND
    ];
    if (typeof command !== 'function')
      throw new McpError(
        'INVALID_ARGUMENT',
        'RedisBucketStore needs an ioredis client (defineCommand made no command)',
      );
    this.run = (...args) => command.call(redis, ...args);
    this.prefix = options.keyPrefix ?? 'mcpwire:gateway:';
    this.where = options.where ?? 'redis';
  }

  /** The Redis key of `key`'s bucket (fixed size whatever the key). */
  keyOf(key: string): string {
    return `${this.prefix}bucket:${createHash('sha256').update(key).digest('base64url')}`;
  }

  /** Rejects with `TRANSPORT` naming the store when Redis does not answer (never answers `ok` unrecorded). */
  async take(key: string, capacity: number, refillPerSecond: number, now: number): Promise<BucketResult> {
    let reply: unknown;
    try {
      reply = await this.run(this.keyOf(key), capacity, refillPerSecond, now);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new McpError('TRANSPORT', `the Redis bucket store at ${this.where} failed (take): ${reason}`, {
        cause: error,
      });
    }
    const [ok, value] = Array.isArray(reply) ? (reply as unknown[]).map(Number) : [];
    if (ok === 1 && Number.isFinite(value)) return { ok: true, remaining: value! };
    if (ok === 0 && Number.isFinite(value)) return { ok: false, retryAfterMs: value! };
    throw new McpError('TRANSPORT', `the Redis bucket store at ${this.where} answered ${JSON.stringify(reply)}`);
  }

  /** Nothing to release: the connection is the caller's. */
  close(): Promise<void> {
    return Promise.resolve();
  }
}
