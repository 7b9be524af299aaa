/**
 * Token buckets by key in this process's memory, with bounded memory: the map is kept in order of
 * last use; each take forgets a few of the least recently used buckets that have refilled to full
 * (forgetting a full bucket changes nothing, an unseen bucket is full), and past `maxKeys` the
 * least recently used bucket is forgotten even when not full (that key starts full again: keep
 * `maxKeys` well above the number of principals active within one refill time).
 */
import { McpError } from '../../protocol/errors.js';
import { isFull, takeToken, type BucketLimits, type BucketResult, type BucketState } from './token-bucket.js';

/** Default most keys held at once. */
export const DEFAULT_MAX_BUCKET_KEYS = 10_000;

/** How many of the oldest buckets one take looks at for forgetting (amortised: O(1) per take). */
const SWEEP_PER_TAKE = 4;

interface Entry extends BucketState {
  limits: BucketLimits;
}

export class MemoryBuckets {
  private readonly buckets = new Map<string, Entry>();
  private readonly maxKeys: number;

  /** `maxKeys`: most buckets held at once (an integer ≥ 1; default {@link DEFAULT_MAX_BUCKET_KEYS}). */
  constructor(maxKeys: number = DEFAULT_MAX_BUCKET_KEYS) {
    if (!Number.isInteger(maxKeys) || maxKeys < 1)
      throw new McpError('INVALID_ARGUMENT', 'rate limit option "maxKeys" must be an integer of at least 1');
    this.maxKeys = maxKeys;
  }

  /** How many buckets are held now. */
  get size(): number {
    return this.buckets.size;
  }

  /** Takes a token from `key`'s bucket at `now` (epoch ms). Synchronous; never throws. */
  take(key: string, limits: BucketLimits, now: number): BucketResult {
    const known = this.buckets.get(key);
    // Re-inserted: the map's order is the order of last use, the least recent first.
    if (known) this.buckets.delete(key);
    const { state, result } = takeToken(known, limits, now);
    this.buckets.set(key, { tokens: state.tokens, at: state.at, limits });
    this.forget(now);
    return result;
  }

  /** Forgets every bucket. */
  clear(): void {
    this.buckets.clear();
  }

  private forget(now: number): void {
    let looked = 0;
    for (const [key, entry] of this.buckets) {
      if (looked++ >= SWEEP_PER_TAKE || !isFull(entry, entry.limits, now)) break;
      this.buckets.delete(key);
    }
    while (this.buckets.size > this.maxKeys) {
      const oldest = this.buckets.keys().next();
      if (oldest.done === true) break;
      this.buckets.delete(oldest.value);
    }
  }
}
