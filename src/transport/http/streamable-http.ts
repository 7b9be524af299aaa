/**
 * Streamable HTTP, both eras, as one pipe: every outgoing message is one POST; what comes back
 * (a JSON body, or an SSE stream of messages ending with the response) is handed to the
 * connection as decoded values. This class composes the pieces and owns the lifecycle: the POST
 * exchange and its answer (`post-exchange.ts`), SSE resumption (`sse-resumption.ts`), the legacy
 * session (`legacy-session.ts`), the modern headers (`modern-headers.ts`), the legacy GET stream
 * (`get-stream.ts`), the DELETE on close. The transport reads only what the HTTP mapping needs from a
 * message — whether it is a request and its id (which POST answer ends the exchange), and in the
 * modern era the fields mirrored into headers — never its meaning. Which shape it speaks is told
 * by the client ({@link StreamableHttpTransport.setSession}), never sniffed from the traffic.
 *
 * Legacy shape (2025-03-26 … 2025-11-25, `D/2025-11-25/basic/transports.mdx`, the default until
 * told otherwise): the session id the server assigns goes on every later request
 * (`legacy-session.ts`); `MCP-Protocol-Version` once the client names a revision that has it; a
 * 404 on a request carrying the session id means the session is gone: the id is forgotten and the
 * send rejects with `SessionExpiredError` (the client starts a new session and sends again); the
 * optional GET stream opens when the client says the session is established; SSE streams that
 * drop are resumed with GET + `Last-Event-ID` after the server's `retry`; DELETE ends the session
 * on close.
 *
 * Modern shape (2026-07-28, `basic/transports/streamable-http.mdx`): no session, no GET, no
 * resumption; the request metadata headers of `modern-headers.ts` on every request; aborting a
 * request's signal closes its stream, which is the cancellation.
 */
import { HttpError, McpError } from '../../protocol/errors.js';
import { checkOptions } from '../../protocol/option-keys.js';
import type { JsonRpcMessage } from '../../protocol/jsonrpc.js';
import { redactUrl } from '../../util/redact.js';
import { AbortFanout } from './abort-fanout.js';
import { toAbortSignal, type AbortLike } from '../../protocol/send-signal.js';
import type { CloseInfo, Disposer, SendOptions, Transport, TransportDiagnostic } from '../../protocol/transport.js';
import { Inbox } from '../inbox.js';
import { Listeners } from '../listeners.js';
import { STREAMABLE_HTTP_KEYS, type StreamableHttpOptions } from '../transport-options.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../ndjson-framer.js';
import { engineFor } from './engine-choice.js';
import type { HttpEngine, LiteResponse } from './http-engine.js';
import { unlimitedListeners } from './max-listeners.js';
import { ExchangeLink } from './exchange-link.js';
import { ExchangeReporter, type HttpExchangeInfo } from './exchange-reporter.js';
import { GetStream } from './get-stream.js';
import { copyHeaders, lowerKeys, secretParts } from './header-values.js';
import { discard } from './http-body.js';
import { isConnectFailure, networkError, type ExchangeContext } from './http-errors.js';
import { LegacySession, type HttpSession } from './legacy-session.js';
import { addModernHeaders } from './modern-headers.js';
import { postExchange, type PostHost } from './post-exchange.js';
import { quote, takeEvent, type Ctx } from './response-values.js';
import { settledWithin, timeoutSignal } from './sleep.js';
import type { AuthorizeHook } from './authorize-hook.js';

/** How long close() waits for the session DELETE and for sockets to finish gracefully. */
const CLOSE_GRACE_MS = 2_000;

export type { StreamableHttpOptions } from '../transport-options.js';

/**
 * A Streamable HTTP transport to one MCP endpoint. `send` resolves when the POST's exchange is
 * over (the response delivered, or 202 for a notification) and rejects with `TRANSPORT`,
 * `AUTH_REQUIRED` or `CONNECTION_CLOSED` — the connection turns that into the request's error —
 * or, legacy, with {@link SessionExpiredError} when the session is gone. `close()` aborts every
 * exchange, ends a legacy session with DELETE, and closes the sockets; `destroy()` skips the DELETE.
 *
 * Each request's POST is released when the signal given to its `send` aborts, so build its
 * connection with `requestSignals` (and, modern, `cancelNotices: 'abort-only'`).
 */
export class StreamableHttpTransport implements Transport {
  /** Tells this kind of transport apart from the others where the client holds one (see `transport/kinds.ts`). */
  readonly kind = 'streamable-http';
  readonly url: URL;
  readonly closed: Promise<CloseInfo>;

  private readonly name: string;
  private readonly baseHeaders: Record<string, string>;
  private readonly secrets: string[];
  private readonly maxBytes: number;
  private readonly notificationTimeoutMs: number;
  private readonly wantsGetStream: boolean;
  private readonly defaultRetryMs: number;
  private readonly maxResumeAttempts: number;
  /** What sends the requests (`default-engine.ts`: undici's pool on Node, else `fetch`). */
  private readonly engine: HttpEngine;
  private readonly authorize: AuthorizeHook | undefined;
  /** The latest headers the authorize hook gave, also sent on the GET stream and the DELETE. */
  private authHeaders: Record<string, string> = {};
  /**
   * The fixed headers' credentials and the authorize hook's latest, kept out of error text; set when either changes,
   * not per request.
   */
  private errorSecrets: string[];
  private readonly inbox = new Inbox<unknown>();
  private readonly diagnostics = new Listeners<TransportDiagnostic>();
  private readonly reporter = new ExchangeReporter();
  private readonly life = new AbortController();
  /** The lifetime as every exchange follows it (a Set of listeners, not one on the signal each: abort-fanout.ts). */
  private readonly lifeFanout = new AbortFanout(this.life.signal);
  private readonly exchanges = new Set<Promise<unknown>>();
  private era: HttpSession['era'] = 'legacy';
  private readonly session = new LegacySession();
  private getStream: GetStream | undefined;
  private closing: Promise<void> | undefined;
  private resolveClosed!: (info: CloseInfo) => void;
  /** What the POST exchanges and their resumptions use of this transport. */
  private readonly host: PostHost;

  constructor(url: string | URL, options: StreamableHttpOptions = {}) {
    checkOptions(options, STREAMABLE_HTTP_KEYS);
    this.url = new URL(String(url));
    if (this.url.protocol !== 'http:' && this.url.protocol !== 'https:') {
      throw new McpError('INVALID_ARGUMENT', `MCP HTTP URL must be http: or https:, got ${redactUrl(this.url)}`);
    }
    this.name = options.name ?? this.url.host;
    this.baseHeaders = lowerKeys(options.headers ?? {});
    this.secrets = Object.values(this.baseHeaders).flatMap(secretParts);
    this.errorSecrets = this.secrets;
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.notificationTimeoutMs = options.notificationTimeoutMs ?? 30_000;
    this.wantsGetStream = options.getStream ?? true;
    this.defaultRetryMs = options.defaultRetryMs ?? 1_000;
    this.maxResumeAttempts = options.maxResumeAttempts ?? 5;
    this.authorize = options.authorize;
    this.engine = engineFor(options);
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    // Waits between resumptions and the GET stream listen to it (many at once are normal, not a leak).
    unlimitedListeners(this.life.signal);
    this.host = this.postHost();
  }

  /** The legacy session id, while the server's session lives (absent in the modern era). */
  get sessionId(): string | undefined {
    return this.session.id;
  }

  /**
   * Tells the transport its session (see {@link HttpSession}); called by the client as it learns
   * it: modern before discovery, legacy before `initialize`, with the revision once negotiated,
   * and `established` after `notifications/initialized`.
   */
  setSession(session: HttpSession): void {
    this.era = session.era;
    if (session.era === 'legacy') {
      this.session.told(session);
      if (session.established) return this.startGetStream();
    }
    this.getStream?.stop();
    this.getStream = undefined;
  }

  /**
   * Sends one message as a POST. `options.headers` are extra headers of this one message (2026:
   * the `Mcp-Param-*` headers of a tool call, which the client gives its connection's `request`);
   * `options.signal` releases the POST when the connection gives up on the request.
   */
  send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    if (this.closing)
      return Promise.reject(
        new McpError('CONNECTION_CLOSED', `cannot send: the HTTP transport to ${redactUrl(this.url)} is closed`, {
          server: this.name,
        }),
      );
    return this.track(this.post(message, options?.signal, options?.headers));
  }

  onMessage(listener: (value: unknown) => void): Disposer {
    return this.inbox.listen(listener);
  }

  onDiagnostic(listener: (diagnostic: TransportDiagnostic) => void): Disposer {
    return this.diagnostics.add(listener);
  }

  /** Registers a receiver of the HTTP facts of every exchange (tracing); see {@link HttpExchangeInfo}. */
  onExchange(listener: (info: HttpExchangeInfo) => void): Disposer {
    return this.reporter.listen(listener);
  }

  /** Aborts every exchange, ends a legacy session (DELETE; 405 tolerated), closes sockets. Idempotent. */
  close(): Promise<void> {
    this.closing ??= this.shutdown();
    return this.closing;
  }

  /**
   * Aborts every exchange and the GET stream now and destroys the sockets (not those of a caller's dispatcher),
   * without ending the session (no DELETE); `closed` resolves with `reason`. Synchronous.
   */
  destroy(reason?: McpError): void {
    const error = reason ?? new McpError('CONNECTION_CLOSED', 'transport destroyed', { server: this.name });
    this.getStream?.stop();
    this.life.abort(error);
    void this.engine.destroy();
    this.closing ??= this.closed.then(() => undefined);
    this.resolveClosed(reason ? { error: reason } : {});
  }

  // ---- POST ----

  private async post(
    message: JsonRpcMessage,
    signal: AbortLike | undefined,
    extra: Record<string, string> | undefined,
  ): Promise<void> {
    const method = 'method' in message ? message.method : undefined;
    const isRequest = method !== undefined && 'id' in message;
    const link = this.link(signal);
    if (!this.authorize)
      return postExchange(
        this.host,
        message,
        method,
        isRequest,
        signal,
        link,
        this.headersFor(message, extra),
        this.context(method),
      );
    await this.authorizeWith({ method: 'POST', url: this.url, signal: toAbortSignal(signal) });
    const sent = this.headersFor(message, extra);
    try {
      return await postExchange(this.host, message, method, isRequest, signal, link, sent, this.context(method));
    } catch (error) {
      // A 401/403 means the server did not run the message: the hook may refresh or log in, then it goes once more.
      if (!(error instanceof HttpError) || error.code !== 'AUTH_REQUIRED' || this.life.signal.aborted) throw error;
      const refused = {
        method: 'POST',
        url: this.url,
        signal: toAbortSignal(signal),
        rejected: error,
        rejectedAuthorization: sent.authorization,
      };
      if (!(await this.authorizeWith(refused))) throw error;
      return await postExchange(
        this.host,
        message,
        method,
        isRequest,
        signal,
        link,
        this.headersFor(message, extra),
        this.context(method),
      );
    }
  }

  /** Asks the authorize hook for headers and keeps them; false when it declined (a refusal it will not answer). */
  private async authorizeWith(request: Parameters<AuthorizeHook>[0]): Promise<boolean> {
    const headers = await this.authorize!(request);
    if (headers === undefined) return false;
    this.authHeaders = lowerKeys(headers);
    this.errorSecrets = [...this.secrets, ...Object.values(this.authHeaders).flatMap(secretParts)];
    return true;
  }

  /** Hands a value read from a response to the connection, reporting it first when traced. */
  private deliver(value: unknown, ctx: Ctx): void {
    this.reporter.in(ctx.traced, value);
    this.inbox.deliver(value);
  }

  /** This transport as the POST exchanges see it (built once). */
  private postHost(): PostHost {
    const transport = this;
    const { name, url, engine, reporter, maxBytes, notificationTimeoutMs, defaultRetryMs, maxResumeAttempts } = this;
    return {
      name,
      url,
      engine,
      reporter,
      maxBytes,
      notificationTimeoutMs,
      defaultRetryMs,
      maxResumeAttempts,
      get era() {
        return transport.era;
      },
      deliver: (value, ctx) => this.deliver(value, ctx),
      diagnostic: (kind, message, sample) => this.diagnostic(kind, message, sample),
      sessionHeaders: (signal) => this.sessionHeaders('GET', signal),
      lost: (error) => this.lost(error),
      assigned: (headers) => this.session.assigned(headers),
      expired: (sent) => {
        if (this.session.id !== sent) return;
        this.session.forget();
        this.getStream?.stop();
        this.getStream = undefined;
      },
    };
  }

  // ---- the legacy GET stream ----

  private startGetStream(): void {
    if (!this.wantsGetStream || this.era !== 'legacy' || this.getStream || this.closing) return;
    const ctx: Ctx = this.context('GET stream');
    const stream = new GetStream({
      open: async (lastEventId, signal) => {
        const headers = {
          ...(await this.sessionHeaders('GET', signal)),
          accept: 'text/event-stream',
          ...(lastEventId !== undefined ? { 'last-event-id': lastEventId } : {}),
        };
        const traced = this.reporter.out('GET', this.url, headers);
        let response: LiteResponse;
        try {
          response = await this.engine.exchange(this.url, {
            method: 'GET',
            headers,
            signal,
            headersTimeout: this.notificationTimeoutMs,
            bodyTimeout: 0,
          });
        } catch (error) {
          if (!signal.aborted && isConnectFailure(error)) this.lost(networkError(ctx, error));
          throw error;
        }
        ctx.traced = this.reporter.facts(traced, 'GET', this.url, response.statusCode, response.headers);
        this.reporter.in(ctx.traced);
        return response;
      },
      event: (type, data) => takeEvent(this.host, type, data, ctx, undefined),
      diagnostic: (kind, text) => this.diagnostic(kind, text),
      defaultRetryMs: this.defaultRetryMs,
      maxEventChars: this.maxBytes,
      parent: this.life.signal,
    });
    this.getStream = stream;
    void this.track(stream.run());
  }

  // ---- headers ----

  private headersFor(message: JsonRpcMessage, extra: Record<string, string> | undefined): Record<string, string> {
    // A plain copy, then assignments: cheaper per request than an object spread on Node 20.
    const headers = copyHeaders(this.baseHeaders);
    if (this.authorize) for (const key in this.authHeaders) headers[key] = this.authHeaders[key]!;
    headers['content-type'] = 'application/json';
    headers.accept = 'application/json, text/event-stream';
    if (this.era === 'modern') addModernHeaders(headers, message);
    else this.session.addHeaders(headers);
    if (extra) for (const key in extra) headers[key.toLowerCase()] = extra[key]!;
    return headers;
  }

  /**
   * Session id and negotiated version (legacy), and the authorization, for the GET stream,
   * resumption and DELETE. They reuse a POST's authorization, except a DPoP proof: it is bound to
   * one method and URL and used once (RFC 9449 §4.2), so the authorize hook makes a fresh one for
   * this request (kept apart from the POSTs' headers). A hook that declines or fails leaves the
   * request without authorization: the server's refusal is then that request's outcome.
   */
  private async sessionHeaders(method: 'GET' | 'DELETE', signal?: AbortSignal): Promise<Record<string, string>> {
    const headers = copyHeaders(this.baseHeaders);
    if (this.authHeaders.dpop === undefined) {
      for (const key in this.authHeaders) headers[key] = this.authHeaders[key]!;
    } else if (this.authorize) {
      const fresh = await this.authorize({ method, url: this.url, signal }).catch(() => undefined);
      if (fresh) Object.assign(headers, lowerKeys(fresh));
    }
    return this.session.addHeaders(headers);
  }

  // ---- helpers ----

  /**
   * The server cannot be reached at all (refused, no such host): the transport closes with that
   * error, so every pending request fails at once and whoever supervises it sees the close.
   */
  private lost(error: McpError): void {
    if (this.closing) return;
    this.diagnostic('unreachable', error.message);
    this.closing = this.shutdown(
      new McpError('CONNECTION_CLOSED', `the server became unreachable: ${error.reason}`, {
        server: this.name,
        cause: error,
      }),
    );
  }

  /** What ends one exchange: the request's signal, when it has one, and the transport's close. */
  private link(signal: AbortLike | undefined): ExchangeLink {
    return new ExchangeLink(signal, this.lifeFanout);
  }

  private context(method: string | undefined): ExchangeContext {
    return { server: this.name, method, url: this.url.toString(), secrets: this.errorSecrets };
  }

  private track<T>(task: Promise<T>): Promise<T> {
    const tracked = task.finally(() => this.exchanges.delete(tracked));
    this.exchanges.add(tracked);
    tracked.catch(() => {});
    return tracked;
  }

  private diagnostic(kind: TransportDiagnostic['kind'], message: string, sample?: string): void {
    this.diagnostics.emit(sample === undefined ? { kind, message } : { kind, message, sample: quote(sample) });
  }

  /** Ends everything; `error` is why the transport closed by itself (absent for a close asked for). */
  private async shutdown(error?: McpError): Promise<void> {
    this.getStream?.stop();
    const closing = error ?? new McpError('CONNECTION_CLOSED', 'transport closed', { server: this.name });
    this.life.abort(closing);
    await Promise.allSettled([...this.exchanges]);
    if (this.era === 'legacy' && this.session.id !== undefined) {
      // Ending the session is a courtesy: 405 (not allowed) and failures are fine.
      const limit = timeoutSignal(CLOSE_GRACE_MS);
      try {
        const headers = await this.sessionHeaders('DELETE', limit.signal);
        const traced = this.reporter.out('DELETE', this.url, headers);
        const response = await this.engine.exchange(this.url, {
          method: 'DELETE',
          headers,
          signal: limit.signal,
          headersTimeout: CLOSE_GRACE_MS,
          bodyTimeout: CLOSE_GRACE_MS,
        });
        this.reporter.in(this.reporter.facts(traced, 'DELETE', this.url, response.statusCode, response.headers));
        discard(response.body);
      } catch {
        // Unreachable server: nothing more to end.
      } finally {
        limit.dispose();
      }
    }
    // Graceful first (lets the DELETE's socket finish), then nothing may remain either way.
    await settledWithin(this.engine.close(), CLOSE_GRACE_MS);
    await this.engine.destroy();
    this.resolveClosed(error ? { error } : {});
  }
}
