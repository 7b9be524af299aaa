/**
 * Streamable HTTP, both eras, as one pipe: every outgoing message is one POST; what comes back
 * (a JSON body, or an SSE stream of messages ending with the response) is handed to the
 * connection as decoded values. The transport reads only what the HTTP mapping needs from a
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
import { setMaxListeners } from 'node:events';
import { Agent, type Dispatcher } from 'undici';
import { errorMessage, McpError, SessionExpiredError, SizeLimitError } from '../../protocol/errors.js';
import { checkOptions } from '../../protocol/option-keys.js';
import type { JsonRpcMessage } from '../../protocol/jsonrpc.js';
import type { CloseInfo, Disposer, HttpExchangeInfo, SendOptions, Transport, TransportDiagnostic } from '../../protocol/transport.js';
import { Inbox } from '../inbox.js';
import { Listeners } from '../listeners.js';
import { STREAMABLE_HTTP_KEYS } from '../option-keys.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../ndjson-framer.js';
import { discard, headerOf, mediaType, pumpSse, readText, type Body } from './http-body.js';
import { isConnectFailure, networkError, oversizeError, responseError, resumeRefusedError, statusError, type ExchangeContext } from './http-errors.js';
import { copyHeaders } from './header-values.js';
import { LegacySession, type HttpSession } from './legacy-session.js';
import { addModernHeaders } from './modern-headers.js';
import { redactUrl } from '../../protocol/redact.js';
import { exchange, type LiteResponse } from './dispatch.js';
import { ExchangeLink } from './exchange-link.js';
import { ExchangeReporter, type ResponseFacts } from './exchange-reporter.js';
import { SseDecoder } from './sse-decoder.js';
import { GetStream } from './get-stream.js';
import { settledWithin, sleep, timeoutSignal } from './sleep.js';

/** How long close() waits for the session DELETE and for sockets to finish gracefully. */
const CLOSE_GRACE_MS = 2_000;

/** Options of {@link StreamableHttpTransport}. */
export interface StreamableHttpOptions {
  /** The server's display name, used in every error message. */
  name?: string;
  /** Headers sent on every request (e.g. `Authorization`); their values never appear in errors. */
  headers?: Record<string, string>;
  /** Largest accepted JSON body or SSE event, in bytes (default 16 MiB, like stdio). */
  maxMessageBytes?: number;
  /** TCP/TLS connect timeout in ms (default 10 s). */
  connectTimeoutMs?: number;
  /** Time allowed for a notification or response POST to be answered (default 30 s). */
  notificationTimeoutMs?: number;
  /** Legacy era: open the optional GET stream for server-initiated messages (default true). */
  getStream?: boolean;
  /** Wait before resuming a dropped SSE stream when the server sent no `retry` (default 1000 ms). */
  defaultRetryMs?: number;
  /** Consecutive resumption attempts without progress before a stream is given up (default 5). */
  maxResumeAttempts?: number;
  /** An undici dispatcher to share; by default the transport owns a keep-alive `Agent`. */
  dispatcher?: Dispatcher;
}

/** An exchange's context, with its response facts when someone listens to `onExchange`. */
type Ctx = ExchangeContext & { traced?: ResponseFacts | undefined };

/** Where a request's SSE stream stands, for resuming it. */
interface Cursor {
  lastEventId: string | undefined;
  retryMs: number | undefined;
  /** The context events are read in (with the facts of the latest GET when resumed and traced). */
  ctx: Ctx;
}

/** Per-request POST outcome of {@link StreamableHttpTransport.exchange}. */
interface Awaited {
  id: string | number;
  got: boolean;
}

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
  private readonly dispatcher: Dispatcher;
  private readonly ownsDispatcher: boolean;
  private readonly inbox = new Inbox<unknown>();
  private readonly diagnostics = new Listeners<TransportDiagnostic>();
  private readonly reporter = new ExchangeReporter();
  private readonly life = new AbortController();
  private readonly exchanges = new Set<Promise<unknown>>();
  private era: HttpSession['era'] = 'legacy';
  private readonly session = new LegacySession();
  private getStream: GetStream | undefined;
  private closing: Promise<void> | undefined;
  /** Extra headers of the next message sent (see {@link sendingHeaders}). */
  private nextHeaders: Record<string, string> | undefined;
  private resolveClosed!: (info: CloseInfo) => void;

  constructor(url: string | URL, options: StreamableHttpOptions = {}) {
    checkOptions(options, STREAMABLE_HTTP_KEYS);
    this.url = new URL(String(url));
    if (this.url.protocol !== 'http:' && this.url.protocol !== 'https:') {
      throw new McpError('INVALID_ARGUMENT', `MCP HTTP URL must be http: or https:, got ${redactUrl(this.url)}`);
    }
    this.name = options.name ?? this.url.host;
    this.baseHeaders = lowerKeys(options.headers ?? {});
    this.secrets = Object.values(this.baseHeaders).flatMap(secretParts);
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.notificationTimeoutMs = options.notificationTimeoutMs ?? 30_000;
    this.wantsGetStream = options.getStream ?? true;
    this.defaultRetryMs = options.defaultRetryMs ?? 1_000;
    this.maxResumeAttempts = options.maxResumeAttempts ?? 5;
    this.ownsDispatcher = options.dispatcher === undefined;
    this.dispatcher = options.dispatcher ?? new Agent({ keepAliveTimeout: 10_000, connect: { timeout: options.connectTimeoutMs ?? 10_000 } });
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
    // Every exchange in flight listens to it (64 in flight are normal, not a leak).
    setMaxListeners(0, this.life.signal);
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
   * the `Mcp-Param-*` headers of a tool call); the client passes them through
   * {@link sendingHeaders}, since a connection knows nothing of headers.
   */
  send(message: JsonRpcMessage, options?: { signal?: AbortSignal; headers?: Record<string, string> }): Promise<void> {
    if (this.closing) return Promise.reject(new McpError('CONNECTION_CLOSED', `cannot send: the HTTP transport to ${redactUrl(this.url)} is closed`, { server: this.name }));
    const extra = options?.headers ?? this.nextHeaders;
    this.nextHeaders = undefined;
    return this.track(this.post(message, options?.signal, extra));
  }

  /**
   * Runs `send` (which must send exactly one message, synchronously, through whatever pipe wraps
   * this transport: a connection's `request`) with `headers` added to that message's POST. For
   * the client's `Mcp-Param-*` headers; the headers never outlive the call.
   */
  sendingHeaders<T>(headers: Record<string, string>, send: () => T): T {
    this.nextHeaders = headers;
    try {
      return send();
    } finally {
      this.nextHeaders = undefined;
    }
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
   * Aborts every exchange and the GET stream now and destroys the sockets (an owned dispatcher),
   * without ending the session (no DELETE); `closed` resolves with `reason`. Synchronous.
   */
  destroy(reason?: McpError): void {
    const error = reason ?? new McpError('CONNECTION_CLOSED', 'transport destroyed', { server: this.name });
    this.getStream?.stop();
    this.life.abort(error);
    if (this.ownsDispatcher) void this.dispatcher.destroy().catch(() => {});
    this.closing ??= this.closed.then(() => undefined);
    this.resolveClosed(reason ? { error: reason } : {});
  }

  // ---- POST ----

  private async post(message: JsonRpcMessage, signal: AbortSignal | undefined, extra: Record<string, string> | undefined): Promise<void> {
    const method = 'method' in message ? message.method : undefined;
    const isRequest = method !== undefined && 'id' in message;
    const ctx = this.context(method);
    const headers = this.headersFor(message, extra);
    return this.exchange(message, method, isRequest, signal, this.link(signal), headers, ctx);
  }

  private async exchange(
    message: JsonRpcMessage,
    method: string | undefined,
    isRequest: boolean,
    signal: AbortSignal | undefined,
    abort: ExchangeLink,
    headers: Record<string, string>,
    ctx: ExchangeContext,
  ): Promise<void> {
    const traced = this.reporter.out('POST', this.url, headers, message);
    let response: LiteResponse;
    try {
      response = await exchange(this.dispatcher, this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(message),
        ...abort.signals,
        // A request's lifetime is the connection's business (timeouts, progress resets); an idle
        // SSE stream must never be cut by a default body timeout while its request is pending.
        headersTimeout: isRequest ? 0 : this.notificationTimeoutMs,
        bodyTimeout: 0,
      });
    } catch (error) {
      return this.failed(error, abort, signal, ctx);
    }
    const { statusCode: status, headers: responseHeaders, body } = response;
    const facts = this.reporter.facts(traced, 'POST', this.url, status, responseHeaders);
    const read: Ctx = facts ? { ...ctx, traced: facts } : ctx;

    const sentSession = headers['mcp-session-id'];
    if (status === 404 && sentSession !== undefined) {
      // The session is gone and the server never ran this message: whoever owns the session
      // starts a new one and sends again. Only the id that failed is forgotten (a concurrent
      // 404 must not drop a new session's id).
      this.reporter.in(facts);
      discard(body);
      if (this.session.id === sentSession) {
        this.session.forget();
        this.getStream?.stop();
        this.getStream = undefined;
      }
      // The session id is a credential of sorts (spec: handle it securely): not repeated in errors.
      throw new SessionExpiredError(`the session expired (HTTP 404 for its id); ${method ?? 'the message'} was not run (${redactUrl(this.url)})`, {
        server: this.name,
        method,
        url: redactUrl(this.url),
      });
    }
    if (status < 200 || status >= 300) return this.rejectStatus(message, status, responseHeaders, body, read);
    if (this.era === 'legacy') this.session.assigned(responseHeaders);
    if (!isRequest) return this.readStray(body, responseHeaders, read);
    const id = (message as { id: string | number }).id;
    if (status === 202 || status === 204) {
      this.reporter.in(facts);
      discard(body);
      this.diagnostic('no-response-body', `${method} was answered with HTTP ${status} and no body; waiting for the response on another stream`);
      return;
    }
    const type = mediaType(responseHeaders);
    const awaited: Awaited = { id, got: false };
    if (type === 'application/json') {
      await this.readJson(body, read, awaited);
      return;
    }
    if (type === 'text/event-stream') {
      await this.readPostStream(body, awaited, abort, signal, read);
      return;
    }
    this.reporter.in(facts);
    discard(body);
    throw responseError(ctx, `unexpected Content-Type ${JSON.stringify(headerOf(responseHeaders, 'content-type') ?? '')} for ${method}`, { status });
  }

  private async rejectStatus(message: JsonRpcMessage, status: number, headers: Record<string, string | string[] | undefined>, body: Body, ctx: Ctx): Promise<void> {
    const text = await readText(body, 64 * 1024).catch(() => '');
    // A modern server answers with the request's JSON-RPC error (unsupported version, header
    // mismatch, unknown method): that is the request's answer, not a transport failure.
    const value = text.trim() === '' ? undefined : safeParse(text);
    const id = 'id' in message ? message.id : undefined;
    if (id !== undefined && id !== null && isResponseTo(value, id)) {
      this.deliver(value, ctx);
      return;
    }
    this.reporter.in(ctx.traced);
    if (status >= 300 && status < 400) {
      const location = headerOf(headers, 'location');
      throw responseError(ctx, `HTTP ${status}: redirected${location ? ` to ${redactUrl(new URL(location, this.url))}` : ''}; a POST is not re-sent to another URL automatically`, { status });
    }
    throw statusError(ctx, status, headerOf(headers, 'www-authenticate'), text);
  }

  /** The answer to a notification or response POST: normally 202; some servers send 200 and a body. */
  private async readStray(body: Body, headers: Record<string, string | string[] | undefined>, ctx: Ctx): Promise<void> {
    if (mediaType(headers) !== 'application/json') {
      this.reporter.in(ctx.traced);
      discard(body);
      return;
    }
    const text = await readText(body, this.maxBytes).catch(() => '');
    const value = text.trim() === '' ? undefined : safeParse(text);
    // Only JSON-RPC messages are passed on; anything else (`{}`, `"ok"`) is tolerated silently.
    if (value !== undefined && typeof value === 'object' && value !== null && 'jsonrpc' in value) this.deliver(value, ctx);
    else this.reporter.in(ctx.traced);
  }

  private async readJson(body: Body, ctx: Ctx, awaited: Awaited): Promise<void> {
    let text: string;
    try {
      text = await readText(body, this.maxBytes);
    } catch (error) {
      this.reporter.in(ctx.traced);
      if (error instanceof SizeLimitError) throw oversizeError(ctx, error.reason, error.limit, error.size);
      // The transport closing under the read (its own McpError): that is the reason, not a broken stream.
      if (error instanceof McpError) throw error;
      throw responseError(ctx, `the response body broke off: ${String(error)}`, { resend: 'if-idempotent' });
    }
    const value = safeParse(text);
    if (value === undefined) {
      this.reporter.in(ctx.traced);
      throw responseError(ctx, `the response is not JSON: ${quote(text)}`);
    }
    this.deliver(value, ctx);
  }

  /**
   * Reads a request's SSE stream, resuming it (legacy, when the server gave event ids) after
   * drops until the response arrives. Rejects with a `TRANSPORT` `HttpError` whose `resend`
   * is `if-idempotent` when the response cannot arrive any more (the server may have run it).
   */
  private async readPostStream(body: Body, awaited: Awaited, abort: ExchangeLink, signal: AbortSignal | undefined, ctx: Ctx): Promise<void> {
    // `ctx` changes with each resumption: replayed events carry the facts of the GET that brought them.
    const cursor: Cursor = { lastEventId: undefined, retryMs: undefined, ctx };
    let progress = false;
    /** Size of an event the decoder dropped for exceeding the cap, if one was. */
    let dropped: number | undefined;
    const decoder = new SseDecoder(
      {
        event: (event) => {
          progress = true;
          this.takeEvent(event.event, event.data, cursor.ctx, awaited);
        },
        id: (id) => {
          cursor.lastEventId = id;
        },
        retry: (ms) => {
          cursor.retryMs = ms;
        },
        oversize: (chars) => {
          dropped = chars;
          this.diagnostic('oversize', `dropped an SSE event of ${chars} characters (cap ${this.maxBytes})`);
        },
      },
      { maxEventChars: this.maxBytes },
    );
    let outcome: { end: string; error?: unknown } = await pumpSse(body, decoder, () => awaited.got);
    let attempts = 0;
    while (!awaited.got) {
      if (abort.aborted) return this.aborted(abort, signal, ctx);
      // The response was most likely the event over the cap: say so, and never have it re-sent
      // (the same answer would be fetched, and dropped, again).
      if (dropped !== undefined) {
        throw oversizeError(ctx, `the SSE stream ended without the response after an event of ${dropped} characters was dropped: it exceeds ${this.maxBytes} bytes, the size limit (maxMessageBytes)`, this.maxBytes);
      }
      const resumable = this.era !== 'modern' && cursor.lastEventId !== undefined;
      if (!resumable) {
        const why = outcome.error ? `: ${errorMessage(outcome.error)}` : '';
        throw responseError(ctx, `the SSE stream ended before the response arrived${why}`, { resend: 'if-idempotent' });
      }
      if (progress) attempts = 0;
      progress = false;
      if (++attempts > this.maxResumeAttempts) {
        throw responseError(ctx, `the SSE stream could not be resumed after ${this.maxResumeAttempts} attempts (last event id ${JSON.stringify(cursor.lastEventId)})`, { resend: 'if-idempotent' });
      }
      const wait = cursor.retryMs ?? this.defaultRetryMs * 2 ** Math.max(0, attempts - 1);
      if (!(await sleep(wait, abort.combined()))) return this.aborted(abort, signal, ctx);
      outcome = await this.resume(cursor, decoder, awaited, abort, ctx);
    }
  }

  /** One GET with `Last-Event-ID`; the replayed events go through the same decoder. */
  private async resume(cursor: Cursor, decoder: SseDecoder, awaited: Awaited, abort: ExchangeLink, ctx: ExchangeContext): Promise<{ end: 'ended' | 'stopped' | 'broken' | 'aborted'; error?: unknown }> {
    const headers: Record<string, string> = { ...this.sessionHeaders(), accept: 'text/event-stream', 'last-event-id': cursor.lastEventId! };
    const traced = this.reporter.out('GET', this.url, headers);
    let response: LiteResponse;
    try {
      response = await exchange(this.dispatcher, this.url, {
        method: 'GET',
        headers,
        ...abort.signals,
        headersTimeout: 0,
        bodyTimeout: 0,
      });
    } catch (error) {
      if (abort.aborted) return { end: 'aborted' };
      // Refused (or no such host): the server is gone, e.g. a stateless server that died
      // mid-call. No later attempt can do better, and backing off would cost the caller its
      // whole timeout: fail now, and close like any exchange that finds the server unreachable.
      if (isConnectFailure(error)) {
        const failure = resumeRefusedError(ctx, error);
        this.lost(failure);
        throw failure;
      }
      return { end: 'broken', error };
    }
    const { statusCode: status, body } = response;
    const facts = this.reporter.facts(traced, 'GET', this.url, status, response.headers);
    this.reporter.in(facts);
    if (facts) cursor.ctx = { ...ctx, traced: facts };
    if (status === 404 && headers['mcp-session-id'] !== undefined) {
      discard(body);
      throw responseError(ctx, `the session expired while ${ctx.method} was in flight; the server may have executed it, so it is not re-sent`, { status });
    }
    if (status < 200 || status >= 300 || mediaType(response.headers) !== 'text/event-stream') {
      const text = await readText(body, 64 * 1024).catch(() => '');
      throw statusError({ ...ctx, method: `${ctx.method} (resuming its stream)` }, status, headerOf(response.headers, 'www-authenticate'), text);
    }
    return pumpSse(body, decoder, () => awaited.got);
  }

  /** One SSE event of a request stream or the GET stream: a JSON-RPC message or a priming event. */
  private takeEvent(type: string, data: string, ctx: Ctx, awaited: Awaited | undefined): void {
    if (type !== 'message') return;
    const value = parseEventData(data);
    if (value === undefined) {
      this.diagnostic('invalid-json', `${ctx.method ?? 'stream'}: an SSE event is not JSON`, data);
      return;
    }
    if (awaited && isResponseTo(value, awaited.id)) awaited.got = true;
    this.deliver(value, ctx);
  }

  /** Hands a value read from a response to the connection, reporting it first when traced. */
  private deliver(value: unknown, ctx: Ctx): void {
    this.reporter.in(ctx.traced, value);
    this.inbox.deliver(value);
  }

  // ---- the legacy GET stream ----

  private startGetStream(): void {
    if (!this.wantsGetStream || this.era !== 'legacy' || this.getStream || this.closing) return;
    const ctx: Ctx = this.context('GET stream');
    const stream = new GetStream({
      open: async (lastEventId, signal) => {
        const headers = { ...this.sessionHeaders(), accept: 'text/event-stream', ...(lastEventId !== undefined ? { 'last-event-id': lastEventId } : {}) };
        const traced = this.reporter.out('GET', this.url, headers);
        let response: LiteResponse;
        try {
          response = await exchange(this.dispatcher, this.url, { method: 'GET', headers, signal, headersTimeout: this.notificationTimeoutMs, bodyTimeout: 0 });
        } catch (error) {
          if (!signal.aborted && isConnectFailure(error)) this.lost(networkError(ctx, error));
          throw error;
        }
        ctx.traced = this.reporter.facts(traced, 'GET', this.url, response.statusCode, response.headers);
        this.reporter.in(ctx.traced);
        return response;
      },
      event: (type, data) => this.takeEvent(type, data, ctx, undefined),
      diagnostic: (kind, text) => this.diagnostic(kind, text),
      defaultRetryMs: this.defaultRetryMs,
      maxEventChars: this.maxBytes,
      parent: this.life.signal,
    });
    this.getStream = stream;
    this.track(stream.run());
  }

  // ---- headers ----

  private headersFor(message: JsonRpcMessage, extra: Record<string, string> | undefined): Record<string, string> {
    // A plain copy, then assignments: cheaper per request than an object spread on Node 20.
    const headers = copyHeaders(this.baseHeaders);
    headers['content-type'] = 'application/json';
    headers.accept = 'application/json, text/event-stream';
    if (this.era === 'modern') addModernHeaders(headers, message);
    else this.session.addHeaders(headers);
    if (extra) for (const key in extra) headers[key.toLowerCase()] = extra[key]!;
    return headers;
  }

  /** Session id and negotiated version (legacy), for the GET stream, resumption and DELETE. */
  private sessionHeaders(): Record<string, string> {
    return this.session.addHeaders(copyHeaders(this.baseHeaders));
  }

  // ---- helpers ----

  private failed(error: unknown, abort: ExchangeLink, signal: AbortSignal | undefined, ctx: ExchangeContext): Promise<never> | undefined {
    if (abort.aborted) return this.aborted(abort, signal, ctx);
    const failure = networkError(ctx, error);
    if (isConnectFailure(error)) this.lost(failure);
    throw failure;
  }

  /**
   * The server cannot be reached at all (refused, no such host): the transport closes with that
   * error, so every pending request fails at once and whoever supervises it sees the close.
   */
  private lost(error: McpError): void {
    if (this.closing) return;
    this.diagnostic('unreachable', error.message);
    this.closing = this.shutdown(new McpError('CONNECTION_CLOSED', `the server became unreachable: ${error.reason}`, { server: this.name, cause: error }));
  }

  /** The caller's abort ends the exchange quietly (the connection already settled the request); a close rejects. */
  private aborted(abort: ExchangeLink, signal: AbortSignal | undefined, ctx: ExchangeContext): undefined {
    if (signal?.aborted) return undefined;
    void abort;
    throw new McpError('CONNECTION_CLOSED', `the HTTP transport to ${redactUrl(this.url)} was closed`, { server: ctx.server, method: ctx.method });
  }

  /** What ends one exchange: the request's signal, when it has one, and the transport's close. */
  private link(signal: AbortSignal | undefined): ExchangeLink {
    return new ExchangeLink(signal, this.life.signal);
  }

  private context(method: string | undefined): ExchangeContext {
    return { server: this.name, method, url: this.url.toString(), secrets: this.secrets };
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
        const headers = this.sessionHeaders();
        const traced = this.reporter.out('DELETE', this.url, headers);
        const response = await exchange(this.dispatcher, this.url, {
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
    if (this.ownsDispatcher) {
      // Graceful first (lets the DELETE's socket finish), then nothing may remain either way.
      await settledWithin(this.dispatcher.close(), CLOSE_GRACE_MS);
      await this.dispatcher.destroy().catch(() => {});
    }
    this.resolveClosed(error ? { error } : {});
  }
}


function lowerKeys(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(headers)) out[key.toLowerCase()] = value;
  return out;
}

/** The parts of a header value that are secret: the whole value and, for `Scheme token`, the token. */
function secretParts(value: string): string[] {
  const token = /^[A-Za-z][\w-]*\s+(\S+)$/.exec(value)?.[1];
  return token ? [value, token] : [value];
}

function parseEventData(data: string): unknown {
  if (data.trim() === '') return undefined;
  return safeParse(data);
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function isResponseTo(value: unknown, id: string | number): boolean {
  if (Array.isArray(value)) return value.some((entry) => !Array.isArray(entry) && isResponseTo(entry, id)); // a batch is one level: no recursion a peer can deepen
  if (typeof value !== 'object' || value === null) return false;
  const message = value as { id?: unknown; result?: unknown; error?: unknown };
  return message.id === id && ('result' in message || 'error' in message);
}

function quote(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 200 ? `${flat.slice(0, 200)}…` : flat;
}
