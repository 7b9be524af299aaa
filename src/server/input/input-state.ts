/**
 * 2026-07-28 multi-round-trip input (MRTR) without server memory: a handler that asks for input
 * the request does not carry ends the round with an `input_required` result; the client asks
 * again with `inputResponses` and the echoed `requestState`, and the handler runs again from the
 * start, finding its answers this time. `requestState` carries the answers of earlier rounds,
 * signed (HMAC-SHA256) so a client cannot forge or alter them: any server process that shares
 * the secret (`state.stateSecret`) can continue the exchange. A state is bound to the request's
 * principal (the bearer token's client and subject, when there is one) and expires (`ttlMs` after
 * it was minted, default 10 minutes): another principal's, or an old one, is refused like a forgery.
 */
import { base64urlFromBytes, base64urlFromText, textFromBase64url } from '../../util/base64url.js';

/** What a request state holds. */
export interface InputState {
  /** The method and name the state belongs to (a state of another tool is refused). */
  target: string;
  /** Every answer so far, by input key. */
  responses: Record<string, unknown>;
}

/** What is signed: the state, the principal it is bound to (null: none), and when it expires (epoch ms). */
interface SignedState extends InputState {
  principal: string | null;
  exp: number;
}

/** The default lifetime of a request state. */
export const DEFAULT_INPUT_STATE_TTL_MS = 10 * 60_000;

/** Signs and checks request states with one secret (random per process unless given), through Web Crypto. */
export class InputStateSigner {
  private given: Uint8Array | undefined;
  private key: ReturnType<typeof crypto.subtle.importKey> | undefined;

  /**
   * `secret` shared by every node behind one load balancer (random per process when undefined,
   * drawn on first use: a Worker may not draw random numbers while its module loads).
   */
  constructor(
    secret?: string,
    private readonly ttlMs = DEFAULT_INPUT_STATE_TTL_MS,
  ) {
    this.given = secret === undefined ? undefined : new TextEncoder().encode(secret);
  }

  private get secret(): Uint8Array {
    return (this.given ??= crypto.getRandomValues(new Uint8Array(32)));
  }

  /** The signed token of `state`, bound to `principal` and valid until `now + ttlMs`. */
  async sign(state: InputState, principal: string | undefined, now: number): Promise<string> {
    const signed: SignedState = { ...state, principal: principal ?? null, exp: now + this.ttlMs };
    const body = base64urlFromText(JSON.stringify(signed));
    return `${body}.${await this.mac(body)}`;
  }

  /**
   * The state, or undefined when it was not made by this secret (tampered, forged, truncated),
   * for another target or principal, or has expired by `now`.
   */
  async verify(
    token: unknown,
    target: string,
    principal: string | undefined,
    now: number,
  ): Promise<InputState | undefined> {
    if (typeof token !== 'string') return undefined;
    const dot = token.lastIndexOf('.');
    if (dot <= 0) return undefined;
    const body = token.slice(0, dot);
    if (!sameText(token.slice(dot + 1), await this.mac(body))) return undefined;
    try {
      const state = JSON.parse(textFromBase64url(body) ?? '') as SignedState;
      const valid =
        state.target === target &&
        state.principal === (principal ?? null) &&
        typeof state.exp === 'number' &&
        now < state.exp &&
        typeof state.responses === 'object' &&
        state.responses !== null;
      return valid ? { target: state.target, responses: state.responses } : undefined;
    } catch {
      return undefined;
    }
  }

  /** HMAC-SHA256 of `body`'s UTF-8 bytes, base64url: the token's tail. */
  private async mac(body: string): Promise<string> {
    this.key ??= crypto.subtle.importKey(
      'raw',
      // Web Crypto refuses an empty HMAC key; HMAC pads a short key with zeros to the block (64
      // bytes for SHA-256), so 64 zero bytes sign exactly as the empty secret does.
      this.secret.length === 0 ? new Uint8Array(64) : this.secret,
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    const mac = await crypto.subtle.sign('HMAC', await this.key, new TextEncoder().encode(body));
    return base64urlFromBytes(new Uint8Array(mac));
  }
}

/** `a === b` in time that depends on the lengths only (a MAC compared must not leak its prefix). */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
