/**
 * Server-provided DPoP nonces (RFC 9449 §8): stateless, so any node that holds the same secret
 * accepts a nonce another node issued. Time is cut into windows of `lifetimeSec`; the nonce of a
 * window is the window's number and an HMAC-SHA256 of it (Web Crypto, so every runtime computes
 * the same nonce for the same secret). The current and the previous window's nonces are accepted,
 * so a nonce lives between one and two lifetimes and then rotates.
 */
import { McpError } from '../../../protocol/errors.js';
import { base64urlFromBytes, bytesFromBase64url } from '../../../util/base64url.js';

/** Options of the nonces. */
export interface DpopNonceOptions {
  /**
   * The HMAC key (at least 32 bytes, or a string of at least 32 characters, taken as UTF-8).
   * Every node behind one load balancer needs the same one, or a nonce from one node is refused
   * by the next. Default: random per handler (one process).
   */
  secret?: string | Uint8Array;
  /** How long a window lasts, in seconds (default 300): a nonce is accepted for one to two windows. */
  lifetimeSec?: number;
}

type HmacKey = Awaited<ReturnType<typeof globalThis.crypto.subtle.importKey>>;

const NONCE = /^([0-9a-z]{1,12})\.([A-Za-z0-9_-]{43})$/;

/** Issues and checks nonces. */
export class DpopNonces {
  private readonly secret: Uint8Array<ArrayBuffer>;
  private readonly lifetimeMs: number;
  private key: Promise<HmacKey> | undefined;
  /** The nonce last handed out and its window: one HMAC per window, not per refusal. */
  private issued: { window: number; nonce: Promise<string> } | undefined;

  /** Throws `INVALID_ARGUMENT` for a short secret or a lifetime that is not a positive number. */
  constructor(options: DpopNonceOptions = {}) {
    const secret = options.secret;
    if (secret !== undefined && (typeof secret === 'string' ? secret.length : secret.byteLength) < 32)
      throw new McpError('INVALID_ARGUMENT', 'the DPoP nonce "secret" must be at least 32 bytes');
    this.secret =
      secret === undefined
        ? globalThis.crypto.getRandomValues(new Uint8Array(32))
        : typeof secret === 'string'
          ? new TextEncoder().encode(secret)
          : Uint8Array.from(secret);
    const lifetimeSec = options.lifetimeSec ?? 300;
    if (!(typeof lifetimeSec === 'number' && Number.isFinite(lifetimeSec) && lifetimeSec > 0))
      throw new McpError('INVALID_ARGUMENT', 'the DPoP nonce "lifetimeSec" must be a positive number');
    this.lifetimeMs = lifetimeSec * 1000;
  }

  /** The nonce to hand out at `now` (ms since the epoch). Never rejects. */
  current(now = Date.now()): Promise<string> {
    const window = this.windowOf(now);
    if (this.issued?.window !== window) this.issued = { window, nonce: this.nonceOf(window) };
    return this.issued.nonce;
  }

  /**
   * `fresh`: the nonce of the current window; `stale`: of the previous one (still accepted); else
   * `invalid`. The MAC is compared by `crypto.subtle.verify` (constant time). Never rejects.
   */
  async check(nonce: unknown, now = Date.now()): Promise<'fresh' | 'stale' | 'invalid'> {
    if (typeof nonce !== 'string') return 'invalid';
    const match = NONCE.exec(nonce);
    if (!match) return 'invalid';
    const window = parseInt(match[1]!, 36);
    const current = this.windowOf(now);
    if (window !== current && window !== current - 1) return 'invalid';
    const given = bytesFromBase64url(match[2]!);
    // Only the canonical spelling of a MAC is the nonce issued (43 characters carry 2 spare bits).
    if (!given || base64urlFromBytes(given) !== match[2]) return 'invalid';
    const valid = await globalThis.crypto.subtle.verify('HMAC', await this.keyOnce(), given, macInput(window));
    if (!valid) return 'invalid';
    return window === current ? 'fresh' : 'stale';
  }

  private windowOf(now: number): number {
    return Math.floor(now / this.lifetimeMs);
  }

  private async nonceOf(window: number): Promise<string> {
    const mac = await globalThis.crypto.subtle.sign('HMAC', await this.keyOnce(), macInput(window));
    return `${window.toString(36)}.${base64urlFromBytes(new Uint8Array(mac))}`;
  }

  private keyOnce(): Promise<HmacKey> {
    this.key ??= globalThis.crypto.subtle.importKey('raw', this.secret, { name: 'HMAC', hash: 'SHA-256' }, false, [
      'sign',
      'verify',
    ]);
    return this.key;
  }
}

/** What a window's MAC is computed over. */
function macInput(window: number): Uint8Array<ArrayBuffer> {
  return new TextEncoder().encode(`mcpwire dpop nonce ${window}`);
}
