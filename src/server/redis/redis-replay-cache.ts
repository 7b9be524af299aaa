/**
 * The DPoP {@link ReplayCache} on Redis: a proof's key is recorded with `SET <prefix>dpop:<hash>
 * 1 NX PX <ms left>`, atomic across every node sharing the Redis: of two nodes shown one proof,
 * exactly one records it, and the other is told it is a replay. The key expires when the proof
 * would be too old anyway, so the cache holds only proofs still usable. A Redis that cannot record
 * the key makes `seen` reject (the request is refused, never let through unrecorded).
 */
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { ReplayCache } from '../http/auth/replay-cache.js';
import { guarded } from './redis-connection.js';

export class RedisReplayCache implements ReplayCache {
  /** `prefix` starts every key; `where` names the store in errors. */
  constructor(
    private readonly redis: Redis,
    private readonly prefix: string,
    private readonly where: string,
  ) {}

  seen(key: string, expiresAt: number): Promise<boolean> {
    return guarded(this.where, 'replayCache.seen', async () => {
      // A fixed-size key whatever the proof's jti: the hash of the key given.
      const name = `${this.prefix}dpop:${createHash('sha256').update(key).digest('base64url')}`;
      const ttl = Math.max(1, Math.ceil(expiresAt - Date.now()));
      return (await this.redis.set(name, '1', 'PX', ttl, 'NX')) === null;
    });
  }
}
