/**
 * The gateway's rate limit per principal: a token bucket per key (`principalOf(auth)`, or a
 * caller's own key for unauthenticated requests), `capacity` tokens at most, refilled at
 * `refillPerSecond`. {@link RateLimiter} keeps the buckets in memory (synchronous, bounded:
 * `memory-buckets.ts`); {@link SharedRateLimiter} keeps them in a {@link BucketStore} several nodes
 * share.
 */
import type { BucketStore } from './bucket-store.js';
import { MemoryBuckets } from './memory-buckets.js';
import { checkBucketLimits, type BucketLimits, type BucketResult } from './token-bucket.js';

/** Options of {@link RateLimiter}. */
export interface RateLimitOptions extends BucketLimits {
  /** Most keys held at once (default 10 000); past it the least recently used is forgotten. */
  readonly maxKeys?: number;
}

/** Token buckets by key in memory. */
export class RateLimiter {
  private readonly limits: BucketLimits;
  private readonly buckets: MemoryBuckets;

  /** Throws `INVALID_ARGUMENT` for a capacity below 1, a refill rate not above 0, or a bad `maxKeys`. */
  constructor(options: RateLimitOptions) {
    this.limits = checkBucketLimits(options, 'rate limit');
    this.buckets = new MemoryBuckets(options.maxKeys);
  }

  /** How many keys are held now (bounded by `maxKeys`). */
  get size(): number {
    return this.buckets.size;
  }

  /** Takes a token from `key`'s bucket at `now` (epoch ms, default `Date.now()`). Never throws. */
  take(key: string, now: number = Date.now()): BucketResult {
    return this.buckets.take(key, this.limits, now);
  }
}

/** Options of {@link SharedRateLimiter}. */
export interface SharedRateLimitOptions extends BucketLimits {
  /** Where the buckets live (yours to close). */
  readonly store: BucketStore;
}

/** Token buckets by key in a {@link BucketStore} (shared across nodes when the store is). */
export class SharedRateLimiter {
  private readonly limits: BucketLimits;
  private readonly store: BucketStore;

  /** Throws `INVALID_ARGUMENT` for a capacity below 1 or a refill rate not above 0. */
  constructor(options: SharedRateLimitOptions) {
    this.limits = checkBucketLimits(options, 'rate limit');
    this.store = options.store;
  }

  /** Takes a token from `key`'s bucket at `now` (default `Date.now()`); rejects as the store does. */
  take(key: string, now: number = Date.now()): Promise<BucketResult> {
    return this.store.take(key, this.limits.capacity, this.limits.refillPerSecond, now);
  }
}
