/**
 * The seam that refuses a DPoP proof used twice (RFC 9449 §11.1): every accepted proof's key is
 * recorded until the proof would be too old anyway, and a second sighting is a replay. One
 * process uses {@link MemoryReplayCache}; nodes behind one load balancer share a store that
 * implements {@link ReplayCache} (PostgreSQL, Redis), so a proof replayed to another node is
 * refused too.
 */
import { McpError } from '../../../protocol/errors.js';

/**
 * Remembers keys until they expire. Implementations shared by several processes must make
 * `seen` atomic per key (an `INSERT … ON CONFLICT DO NOTHING`, a Redis `SET NX PX`): of two
 * concurrent calls with one key, exactly one resolves `false`.
 */
export interface ReplayCache {
  /**
   * Records `key` until `expiresAt` (ms since the epoch) and resolves `false`; resolves `true`
   * when the key was already recorded and has not expired (a replay). Rejects when the key
   * cannot be recorded (the store is down or full): the request is then refused, never let
   * through unrecorded.
   */
  seen(key: string, expiresAt: number): Promise<boolean>;
}

/** Options of {@link MemoryReplayCache}. */
export interface MemoryReplayCacheOptions {
  /** Most keys held at once (default 100 000); past it, with none expired, `seen` rejects. */
  maxEntries?: number;
}

/**
 * An in-process {@link ReplayCache}: a map in insertion order, swept of expired keys as it goes
 * (no timer). Memory is bounded by `maxEntries`; when it is full of keys that have not expired,
 * `seen` rejects `INVALID_STATE` rather than forget a key a replay could then reuse.
 */
export class MemoryReplayCache implements ReplayCache {
  private readonly entries = new Map<string, number>();
  private readonly maxEntries: number;

  /** Throws `INVALID_ARGUMENT` for a `maxEntries` that is not a positive integer. */
  constructor(options: MemoryReplayCacheOptions = {}) {
    const max = options.maxEntries ?? 100_000;
    if (!Number.isInteger(max) || max < 1)
      throw new McpError('INVALID_ARGUMENT', 'MemoryReplayCache option "maxEntries" must be a positive integer');
    this.maxEntries = max;
  }

  /** Keys held now (expired ones not yet swept included). */
  get size(): number {
    return this.entries.size;
  }

  seen(key: string, expiresAt: number): Promise<boolean> {
    const now = Date.now();
    this.sweepHead(now);
    const known = this.entries.get(key);
    if (known !== undefined && known > now) return Promise.resolve(true);
    if (known === undefined && this.entries.size >= this.maxEntries) {
      this.sweepAll(now);
      if (this.entries.size >= this.maxEntries)
        return Promise.reject(
          new McpError('INVALID_STATE', `the DPoP replay cache is full (${this.maxEntries} proofs not yet expired)`),
        );
    }
    this.entries.delete(key);
    this.entries.set(key, expiresAt);
    return Promise.resolve(false);
  }

  /** Drops expired keys from the oldest on, up to the first live one: amortised O(1) per call. */
  private sweepHead(now: number): void {
    for (const [key, expiresAt] of this.entries) {
      if (expiresAt > now) return;
      this.entries.delete(key);
    }
  }

  /** Drops every expired key (expiries are nearly, not strictly, in insertion order). */
  private sweepAll(now: number): void {
    for (const [key, expiresAt] of this.entries) if (expiresAt <= now) this.entries.delete(key);
  }
}
