/**
 * 2026-07-28 multi-round-trip input (MRTR) without server memory: a handler that asks for input
 * the request does not carry ends the round with an `input_required` result; the client asks
 * again with `inputResponses` and the echoed `requestState`, and the handler runs again from the
 * start, finding its answers this time. `requestState` carries the answers of earlier rounds,
 * signed (HMAC-SHA256) so a client cannot forge or alter them: any server process that shares
 * the secret can continue the exchange.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { McpError } from '../protocol/errors.js';

/** Thrown inside a handler by an input request the current round cannot answer; never leaves the kit. */
export class InputRequiredSignal extends McpError {
  constructor() {
    super('INVALID_STATE', 'input required (handled by the kit)');
  }
}

/** What a request state holds. */
export interface InputState {
  /** The method and name the state belongs to (a state of another tool is refused). */
  target: string;
  /** Every answer so far, by input key. */
  responses: Record<string, unknown>;
}

/** Signs and checks request states with one secret (random per process unless given). */
export class InputStateSigner {
  private readonly secret: Buffer;

  constructor(secret?: string) {
    this.secret = secret === undefined ? randomBytes(32) : Buffer.from(secret, 'utf8');
  }

  sign(state: InputState): string {
    const body = Buffer.from(JSON.stringify(state), 'utf8').toString('base64url');
    return `${body}.${this.mac(body)}`;
  }

  /** The state, or undefined when it was not made by this secret (tampered, forged, truncated). */
  verify(token: unknown, target: string): InputState | undefined {
    if (typeof token !== 'string') return undefined;
    const dot = token.lastIndexOf('.');
    if (dot <= 0) return undefined;
    const body = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'utf8');
    const expected = Buffer.from(this.mac(body), 'utf8');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
    try {
      const state = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as InputState;
      return state.target === target && typeof state.responses === 'object' && state.responses !== null
        ? state
        : undefined;
    } catch {
      return undefined;
    }
  }

  private mac(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }
}
