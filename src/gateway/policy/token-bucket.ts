/**
 * Token-bucket arithmetic, pure, shared by every bucket store (the in-memory one runs it; the
 * Redis script and the PostgreSQL statement are the same steps in their own language).
 * A bucket holds up to `capacity` tokens and gains `refillPerSecond` a second, continuously; a
 * request takes one. A bucket never seen is full. A clock that goes back refills nothing (the
 * bucket keeps its later time), so a node with a slow clock cannot mint tokens.
 */
import { McpError } from '../../protocol/errors.js';

/** A bucket's size and refill rate. */
export interface BucketLimits {
  /** Most tokens the bucket holds: the burst a key may make at once (a number ≥ 1). */
  readonly capacity: number;
  /** Tokens gained per second (a number > 0). */
  readonly refillPerSecond: number;
}

/** What taking a token concluded: taken (and how many whole tokens are left), or refused (and when one is there). */
export type BucketResult =
  { readonly ok: true; readonly remaining: number } | { readonly ok: false; readonly retryAfterMs: number };

/** A bucket's state: its tokens (fractional) as of `at` (epoch ms). */
export interface BucketState {
  tokens: number;
  at: number;
}

/** The bucket's tokens at `now` (refilled, capped at capacity), and the time it is reckoned at. */
export function refilled(state: BucketState | undefined, limits: BucketLimits, now: number): BucketState {
  if (!state) return { tokens: limits.capacity, at: now };
  if (now <= state.at) return { tokens: state.tokens, at: state.at };
  const gained = ((now - state.at) * limits.refillPerSecond) / 1000;
  return { tokens: Math.min(limits.capacity, state.tokens + gained), at: now };
}

/** Takes one token from `state` at `now`: the state after, and the result. Does not change `state`. */
export function takeToken(
  state: BucketState | undefined,
  limits: BucketLimits,
  now: number,
): { state: BucketState; result: BucketResult } {
  const current = refilled(state, limits, now);
  if (current.tokens >= 1) {
    const after = { tokens: current.tokens - 1, at: current.at };
    return { state: after, result: { ok: true, remaining: Math.floor(after.tokens) } };
  }
  const retryAfterMs = Math.max(1, Math.ceil(((1 - current.tokens) * 1000) / limits.refillPerSecond));
  return { state: current, result: { ok: false, retryAfterMs } };
}

/** Whether the bucket is full at `now` (so forgetting it changes nothing: an unseen bucket is full). */
export function isFull(state: BucketState, limits: BucketLimits, now: number): boolean {
  return refilled(state, limits, now).tokens >= limits.capacity;
}

/** Throws `INVALID_ARGUMENT` naming `where` unless `limits` are a capacity ≥ 1 and a refill rate > 0 (finite). */
export function checkBucketLimits(limits: unknown, where: string): BucketLimits {
  if (typeof limits !== 'object' || limits === null)
    throw new McpError('INVALID_ARGUMENT', `${where} must be an object { capacity, refillPerSecond }`);
  const { capacity, refillPerSecond } = limits as Record<string, unknown>;
  if (typeof capacity !== 'number' || !Number.isFinite(capacity) || capacity < 1)
    throw new McpError('INVALID_ARGUMENT', `${where}: "capacity" must be a finite number of at least 1`);
  if (typeof refillPerSecond !== 'number' || !Number.isFinite(refillPerSecond) || refillPerSecond <= 0)
    throw new McpError('INVALID_ARGUMENT', `${where}: "refillPerSecond" must be a finite number above 0`);
  return { capacity, refillPerSecond };
}
