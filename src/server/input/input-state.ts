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
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

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

/** Signs and checks request states with one secret (random per process unless given). */
export class InputStateSigner {
  private readonly secret: Buffer;

  /** `secret` shared by every node behind one load balancer (random per process when undefined). */
  constructor(
    secret?: string,
    private readonly ttlMs = DEFAULT_INPUT_STATE_TTL_MS,
  ) {
    this.secret = secret === undefined ? randomBytes(32) : Buffer.from(secret, 'utf8');
  }

  /** The signed token of `state`, bound to `principal` and valid until `now + ttlMs`. */
  sign(state: InputState, principal: string | undefined, now: number): string {
    const signed: SignedState = { ...state, principal: principal ?? null, exp: now + this.ttlMs };
    const body = Buffer.from(JSON.stringify(signed), 'utf8').toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /**
   * The state, or undefined when it was not made by this secret (tampered, forged, truncated),
   * for another target or principal, or has expired by `now`.
   */
  verify(token: unknown, target: string, principal: string | undefined, now: number): InputState | undefined {
    if (typeof token !== 'string') return undefined;
    const dot = token.lastIndexOf('.');
    if (dot <= 0) return undefined;
    const body = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'utf8');
    const expected = Buffer.from(this.mac(body), 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const state = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as SignedState;
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

  private mac(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }
}
