/**
 * The seam for rate-limit buckets shared by several gateway nodes (`gateway.state`): one atomic
 * take per call, so two nodes taking the last token of one key at once give it to exactly one.
 * The kit's state seams (sessions, events, tasks, the change bus) have no counter to build this on,
 * so buckets are a seam of their own: {@link MemoryBucketStore} here, `RedisBucketStore` (one Lua
 * script, `redis-bucket-store.ts`) and `PgBucketStore` (one upsert statement, `pg-bucket-store.ts`).
 */
import { MemoryBuckets, DEFAULT_MAX_BUCKET_KEYS } from './memory-buckets.js';
import type { BucketResult } from './token-bucket.js';

/** Where buckets live. */
export interface BucketStore {
  /** True when other processes see the same buckets. */
  readonly shared: boolean;
  /**
   * Takes one token from `key`'s bucket (`capacity`, `refillPerSecond`) at `now` (epoch ms; every
   * node's clock should agree, a clock behind refills nothing). Atomic per key. Rejects when the
   * store cannot be reached (never answers `ok` unrecorded).
   */
  take(key: string, capacity: number, refillPerSecond: number, now: number): Promise<BucketResult>;
  /** Releases what the store holds open. Idempotent. */
  close(): Promise<void>;
}

/** A {@link BucketStore} in this process's memory (not shared), bounded as {@link MemoryBuckets} is. */
export class MemoryBucketStore implements BucketStore {
  readonly shared = false;
  private readonly buckets: MemoryBuckets;

  constructor(options: { maxKeys?: number } = {}) {
    this.buckets = new MemoryBuckets(options.maxKeys ?? DEFAULT_MAX_BUCKET_KEYS);
  }

  /** How many buckets are held now. */
  get size(): number {
    return this.buckets.size;
  }

  take(key: string, capacity: number, refillPerSecond: number, now: number): Promise<BucketResult> {
    return Promise.resolve(this.buckets.take(key, { capacity, refillPerSecond }, now));
  }

  close(): Promise<void> {
    this.buckets.clear();
    return Promise.resolve();
  }
}
