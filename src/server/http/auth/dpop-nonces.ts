/**
 * Server-provided DPoP nonces (RFC 9449 §8): stateless, so any node that holds the same secret
 * accepts a nonce another node issued. Time is cut into windows of `lifetimeSec`; the nonce of a
 * window is the window's number and an HMAC of it. The current and the previous window's nonces
 * are accepted, so a nonce lives between one and two lifetimes and then rotates.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { McpError } from '../../../protocol/errors.js';

/** Options of the nonces. */
export interface DpopNonceOptions {
  /**
   * The HMAC key (at least 32 bytes, or a string of at least 32 characters). Every node behind
   * one load balancer needs the same one, or a nonce from one node is refused by the next.
   * Default: random per handler (one process).
   */
  secret?: string | Uint8Array;
  /** How long a window lasts, in seconds (default 300): a nonce is accepted for one to two windows. */
  lifetimeSec?: number;
}

const NONCE = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/;

/** Issues and checks nonces. */
export class DpopNonces {
  private readonly key: Buffer;
  private readonly lifetimeMs: number;

  /** Throws `INVALID_ARGUMENT` for a short secret or a lifetime that is not a positive number. */
  constructor(options: DpopNonceOptions = {}) {
    const secret = options.secret;
    if (secret !== undefined && (typeof secret === 'string' ? secret.length : secret.byteLength) < 32)
      throw new McpError('INVALID_ARGUMENT', 'the DPoP nonce "secret" must be at least 32 bytes');
    this.key = secret === undefined ? randomBytes(32) : Buffer.from(secret);
    const lifetimeSec = options.lifetimeSec ?? 300;
    if (!(typeof lifetimeSec === 'number' && Number.isFinite(lifetimeSec) && lifetimeSec > 0))
      throw new McpError('INVALID_ARGUMENT', 'the DPoP nonce "lifetimeSec" must be a positive number');
    this.lifetimeMs = lifetimeSec * 1000;
  }

  /** The nonce to hand out at `now` (ms since the epoch). */
  current(now = Date.now()): string {
    return this.nonceOf(this.windowOf(now));
  }

  /** `fresh`: the nonce of the current window; `stale`: of the previous one (still accepted); else `invalid`. */
  check(nonce: unknown, now = Date.now()): 'fresh' | 'stale' | 'invalid' {
    if (typeof nonce !== 'string') return 'invalid';
    const match = NONCE.exec(nonce);
    if (!match) return 'invalid';
    const window = parseInt(match[1]!, 36);
    const current = this.windowOf(now);
    if (window !== current && window !== current - 1) return 'invalid';
    const expected = Buffer.from(this.macOf(window));
    const given = Buffer.from(match[2]!);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'invalid';
    return window === current ? 'fresh' : 'stale';
  }

  private windowOf(now: number): number {
    return Math.floor(now / this.lifetimeMs);
  }

  private nonceOf(window: number): string {
    return `${window.toString(36)}.${this.macOf(window)}`;
  }

  private macOf(window: number): string {
    return createHmac('sha256', this.key).update(`mcpwire dpop nonce ${window}`).digest('base64url');
  }
}
