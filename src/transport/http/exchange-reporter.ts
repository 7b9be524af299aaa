/**
 * The `onExchange` side of the HTTP transports: the HTTP facts they report
 * ({@link HttpExchangeInfo}), their listeners and the numbering of exchanges. Reporting is skipped
 * entirely while no one listens, so an untraced transport builds no fact objects at all.
 */
import type { Disposer } from '../../protocol/transport.js';
import { Listeners } from '../listeners.js';

/**
 * One HTTP fact of an HTTP transport, reported to the observers of the concrete HTTP transports
 * (their `onExchange`, wired by the client's trace hook to the tracing decorator): a request
 * leaving, a response's status line, or a message read from a response body. Header names are
 * lower-case; values are as sent or received, credentials included, so a listener that keeps or
 * shows them must redact them.
 */
export interface HttpExchangeInfo {
  /** `out`: a request left. `in`: its response answered (a status line, or one message of its body). */
  direction: 'out' | 'in';
  /** Numbers one HTTP request/response within the transport: its `out` and every `in` share it. */
  exchange: number;
  /** The HTTP method (`POST`, `GET`, `DELETE`). */
  method: string;
  url: string;
  /** The response status (`in` only). */
  status?: number;
  /** The request's headers (`out`) or the response's (`in`). */
  headers: Record<string, string>;
  /**
   * `out`: the JSON-RPC message in the request body (absent for GET and DELETE). `in`: one value
   * read from the response body, reported just before the transport hands it on. An `in` without
   * a message is a status line: reported for every GET and DELETE, and for a POST whose response
   * carries no message (a 202, an error status without a JSON-RPC answer, an unexpected body).
   */
  message?: unknown;
}

/** Headers as an engine hands them over: lower-case names, a list for repeated ones (undici's). */
export type RawHeaders = Record<string, string | string[] | undefined>;

/** The response facts of one exchange, kept while its body is read (so each message can be reported with them). */
export interface ResponseFacts {
  exchange: number;
  method: string;
  url: string;
  status: number;
  headers: Record<string, string>;
}

export class ExchangeReporter {
  private readonly listeners = new Listeners<HttpExchangeInfo>();
  private listening = 0;
  private last = 0;

  /** True while at least one listener is registered: only then are facts worth building. */
  get active(): boolean {
    return this.listening > 0;
  }

  /** Registers `listener`; the first ones also get `replay` (facts from before anyone listened). */
  listen(listener: (info: HttpExchangeInfo) => void, replay: readonly HttpExchangeInfo[] = []): Disposer {
    const remove = this.listeners.add(listener);
    this.listening++;
    for (const info of replay) {
      try {
        listener(info);
      } catch {
        // Advisory, like every listener of the transport.
      }
    }
    let removed = false;
    return () => {
      if (removed) return;
      removed = true;
      this.listening--;
      remove();
    };
  }

  /**
   * Reports a request leaving; returns its exchange number, or 0 when no one listens (then
   * nothing is reported for the exchange at all).
   */
  out(method: string, url: URL, headers: Record<string, string>, message?: unknown): number {
    if (!this.active) return 0;
    const exchange = ++this.last;
    const info: HttpExchangeInfo = { direction: 'out', exchange, method, url: url.href, headers: { ...headers } };
    if (message !== undefined) info.message = message;
    this.listeners.emit(info);
    return exchange;
  }

  /** The facts of a response to exchange `exchange` (undefined when it is not reported). */
  facts(exchange: number, method: string, url: URL, status: number, headers: RawHeaders): ResponseFacts | undefined {
    return exchange === 0 ? undefined : { exchange, method, url: url.href, status, headers: flatHeaders(headers) };
  }

  /** Reports a status line (no `message`) or one message of a response body. */
  in(facts: ResponseFacts | undefined, message?: unknown): void {
    if (facts === undefined || !this.active) return;
    const info: HttpExchangeInfo = { direction: 'in', ...facts };
    if (message !== undefined) info.message = message;
    this.listeners.emit(info);
  }
}

/** One string per header (repeated ones joined with `, `), names lower-cased. */
export function flatHeaders(headers: RawHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
