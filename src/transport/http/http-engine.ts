/**
 * The one seam between the HTTP transports and whatever sends their requests. An engine takes a
 * request and resolves at its status line and headers with a {@link LiteBody} of `Uint8Array`
 * chunks; the request's signal and the transport's lifetime end it. Two engines exist:
 * `dispatch.ts` + `undici-engine.ts` (undici's dispatcher handler API, the fast path on Node)
 * and `fetch-engine.ts` (any WHATWG `fetch`: browsers, Workers, Deno, Bun). `default-engine.ts`
 * picks one. This file and every engine but undici's own are runtime-neutral (no `node:*`).
 */
import type { AbortFanout } from './abort-fanout.js';
import type { LiteBody } from './lite-body.js';
import type { AbortLike } from '../../protocol/send-signal.js';

/** What an exchange resolves with. Header names are lower-case; a repeated header may be a list. */
export interface LiteResponse {
  statusCode: number;
  headers: Record<string, string | string[] | undefined>;
  body: LiteBody;
}

/** Options of one exchange. */
export interface ExchangeOptions {
  method: string;
  /** Lower-case names; a list for a repeated header (the proxy forwards them as they came). */
  headers: Record<string, string | string[]>;
  body?: string | Uint8Array | null;
  /** What ends the exchange: an AbortSignal, or a request's `SendSignal`. */
  signal?: AbortLike | undefined;
  /**
   * What else ends the exchange: its owner's lifetime (a transport's close), followed beside
   * `signal` rather than linked with it through a new AbortController, and through a fanout
   * rather than a listener on the lifetime's signal (see abort-fanout.ts for the cost of both).
   */
  lifetime?: AbortFanout | undefined;
  /** Longest wait for the status line, in ms; 0 disables (the connection's timeouts govern requests). */
  headersTimeout: number;
  /** Longest silence between body chunks, in ms; 0 disables. */
  bodyTimeout: number;
}

/**
 * Sends requests for one transport. `exchange` resolves at the status line and headers (1xx
 * skipped); rejects with the network error, or the reason of `signal` or `lifetime` when either
 * aborts before a response started; aborting either later fails the body with that reason. It
 * leaves no listener on either once the exchange is over. `close` lets what is in flight finish,
 * then frees connections the engine owns; `destroy` frees them now. Neither ever rejects, and
 * neither touches connections the engine was given (a caller's dispatcher).
 */
export interface HttpEngine {
  exchange(url: URL, options: ExchangeOptions): Promise<LiteResponse>;
  close(): Promise<void>;
  destroy(): Promise<void>;
}

/** What an engine is built with. */
export interface HttpEngineOptions {
  /** TCP/TLS connect timeout in ms, where the engine controls connecting (undici's). */
  connectTimeoutMs?: number;
}

/** The error an engine fails an exchange with when a timeout of {@link ExchangeOptions} ran out (undici's codes). */
export function exchangeTimeout(kind: 'headers' | 'body', ms: number): Error {
  const error = new Error(
    kind === 'headers' ? `no response headers within ${ms} ms` : `no response body data for ${ms} ms`,
  );
  return Object.assign(error, { code: kind === 'headers' ? 'UND_ERR_HEADERS_TIMEOUT' : 'UND_ERR_BODY_TIMEOUT' });
}
