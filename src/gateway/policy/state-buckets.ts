/**
 * The gateway's rate limiter for its state: when the kit's state it was given is the PostgreSQL
 * one (`postgresState`) or the Redis one (`redisState`), the buckets live beside it, on the same
 * pool or connection (`PgBucketStore` in the table `<tablePrefix>gateway_bucket` of the state's
 * schema, `RedisBucketStore` under `<keyPrefix>gateway:`), so that every gateway node on that
 * store spends from the same buckets; otherwise they stay in this process's memory.
 *
 * The states are recognised by their shape (`pool` and `tableNaming`; `client` and `keyPrefix`),
 * never by class: the gateway loads neither optional driver.
 */
import type { ServerStateOptions } from '../../server/state/server-state.js';
import type { PgPool } from '../../server/postgres/pg-driver.js';
import { PgBucketStore } from './pg-bucket-store.js';
import { RateLimiter, SharedRateLimiter } from './rate-limit.js';
import { RedisBucketStore, type ScriptingRedis } from './redis-bucket-store.js';
import type { BucketStore } from './bucket-store.js';
import type { BucketLimits } from './token-bucket.js';

/** What the gateway reads of a `PostgresState`. */
interface PgShaped {
  readonly pool: PgPool;
  readonly tableNaming: { readonly schema: string | undefined; readonly prefix: string };
}

/** What the gateway reads of a `RedisState`. */
interface RedisShaped {
  readonly client: ScriptingRedis;
  readonly keyPrefix: string;
  readonly where?: string;
}

function isPg(state: object): state is PgShaped {
  const { pool, tableNaming } = state as Partial<PgShaped>;
  return typeof pool?.query === 'function' && typeof tableNaming?.prefix === 'string';
}

function isRedis(state: object): state is RedisShaped {
  const { client, keyPrefix } = state as Partial<RedisShaped>;
  return typeof client?.defineCommand === 'function' && typeof keyPrefix === 'string';
}

/** The shared bucket store on `state`'s own connection, or undefined when it is neither PostgreSQL nor Redis. */
export function stateBucketStore(state: ServerStateOptions | undefined): BucketStore | undefined {
  if (state === undefined || state === null || typeof state !== 'object') return undefined;
  if (isPg(state)) {
    const { schema, prefix } = state.tableNaming;
    return new PgBucketStore(state.pool, {
      table: `${prefix}gateway_bucket`,
      ...(schema !== undefined ? { schema } : {}),
    });
  }
  if (isRedis(state))
    return new RedisBucketStore(state.client, {
      keyPrefix: `${state.keyPrefix}gateway:`,
      ...(state.where !== undefined ? { where: state.where } : {}),
    });
  return undefined;
}

/**
 * The limiter for `limits`: shared through {@link stateBucketStore} when `state` has a store,
 * else in memory. Throws `INVALID_ARGUMENT` for bad limits.
 */
export function rateLimiterFor(
  limits: BucketLimits,
  state: ServerStateOptions | undefined,
): RateLimiter | SharedRateLimiter {
  const store = stateBucketStore(state);
  return store ? new SharedRateLimiter({ ...limits, store }) : new RateLimiter(limits);
}
