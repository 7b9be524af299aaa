/**
 * The Redis connections of `mcpwire/server/redis` and how their failures read. Every connection
 * made here fails fast while Redis is away (no offline queue, one attempt per command, a bounded
 * command time) and reconnects on its own (backing off to 1 s), so a store that is down gives a
 * clear error naming it at once, never a hang, and serves again when Redis is back.
 */
import { Redis, type RedisOptions } from 'ioredis';
import { McpError } from '../../protocol/errors.js';
import { redactUrl } from '../../util/redact.js';

/** How the connections behave (milliseconds). */
export interface ConnectionLimits {
  /** How long a connection attempt may take. */
  readonly connectTimeoutMs: number;
  /** How long one command may wait for its answer. */
  readonly commandTimeoutMs: number;
}

/** The options of every connection made here (the caller adds what names it). */
export function connectionOptions(limits: ConnectionLimits, name: string): RedisOptions {
  return {
    connectionName: name,
    lazyConnect: false,
    connectTimeout: limits.connectTimeoutMs,
    commandTimeout: limits.commandTimeoutMs,
    // While disconnected a command fails at once instead of waiting for the connection.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // A command in flight when the connection dropped is failed, not sent twice.
    autoResendUnfulfilledCommands: false,
    // The change bus re-subscribes itself, then tells its subscribers to resync.
    autoResubscribe: false,
    retryStrategy: (times) => Math.min(50 * 2 ** Math.min(times, 5), 1_000),
  };
}

/** A connection to `url` (not yet ready: see {@link whenReady}). */
export function connect(url: string, limits: ConnectionLimits, name: string): Redis {
  return new Redis(url, connectionOptions(limits, name));
}

/**
 * Resolves once `redis` is ready; rejects (naming `where`) when it is not within `timeoutMs`, or
 * when it ends. Leaves no listener or timer behind.
 */
export function whenReady(redis: Redis, where: string, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    let lastError = '';
    const onError = (error: Error): void => void (lastError = error.message);
    const finish = (error?: Error): void => {
      clearTimeout(timer);
      redis.off('ready', onReady);
      redis.off('error', onError);
      redis.off('end', onEnd);
      if (error) reject(error);
      else resolve();
    };
    const onReady = (): void => finish();
    const onEnd = (): void => finish(storeError(where, 'connect', new Error(lastError || 'the connection ended')));
    const timer = setTimeout(
      () =>
        finish(
          storeError(
            where,
            'connect',
            new Error(`not ready within ${timeoutMs} ms${lastError ? `: ${lastError}` : ''}`),
          ),
        ),
      timeoutMs,
    );
    redis.on('ready', onReady);
    redis.on('error', onError);
    redis.on('end', onEnd);
  });
}

/** The display form of where a connection goes: its URL without credentials, or host:port. */
export function describeRedis(redis: Redis, url?: string): string {
  if (url !== undefined) return redactUrl(url);
  const options = redis.options;
  return options.path
    ? `redis+unix://${options.path}`
    : `redis://${options.host ?? '127.0.0.1'}:${options.port ?? 6379}`;
}

/** The error a store operation fails with: names the store, the operation and the cause. */
export function storeError(where: string, operation: string, cause: unknown): McpError {
  const reason = cause instanceof Error ? cause.message : String(cause);
  return new McpError('TRANSPORT', `the Redis state store at ${where} failed (${operation}): ${reason}`, { cause });
}

/** Runs `work`, turning its failure into a {@link storeError}. */
export async function guarded<T>(where: string, operation: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof McpError) throw error;
    throw storeError(where, operation, error);
  }
}

/**
 * Ends a connection: QUIT (pending answers arrive first) bounded by `graceMs`, then a hard
 * disconnect that also stops reconnecting. Never rejects; leaves no timer.
 */
export async function release(redis: Redis, graceMs = 1_000): Promise<void> {
  if (redis.status === 'end') return;
  if (redis.status === 'ready') {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      redis.quit().catch(() => undefined),
      new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs))),
    ]);
    clearTimeout(timer);
  }
  redis.disconnect(false);
}
