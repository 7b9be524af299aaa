/**
 * Streamable HTTP, both eras, as one pipe: every outgoing message is one POST; what comes back
 * (a JSON body, or an SSE stream of messages ending with the response) is handed to the
 * connection as decoded values. The transport reads only what the HTTP mapping needs from a
 * message — its kind, method, id, `_meta` version, `params.name`/`uri` — never its meaning.
 *
 * Legacy shape (2025-03-26 … 2025-11-25, `D/2025-11-25/basic/transports.mdx`): the session id
 * from the initialize response goes on every later request; `MCP-Protocol-Version` from
 * 2025-06-18 on; a 404 on a request carrying the session means the session is gone, so the
 * transport replays the `initialize` it saw, then re-sends the message once (the server never
 * ran it); an optional GET stream carries server-initiated messages; SSE streams that drop are
 * resumed with GET + `Last-Event-ID` after the server's `retry`; DELETE ends the session on close.
 *
 * Modern shape (2026-07-28, `basic/transports/streamable-http.mdx`): no session, no GET, no
 * resumption; `MCP-Protocol-Version` (from the request's `_meta`), `Mcp-Method` and `Mcp-Name`
 * on every request; aborting a request's signal closes its stream, which is the cancellation.
 */
import { Agent, request, type Dispatcher } from 'undici';
import { errorMessage, HttpError, McpError, SizeLimitError } from '../../protocol/errors.js';
import { checkOptions } from '../../protocol/option-keys.js';
import type { JsonRpcMessage } from '../../protocol/jsonrpc.js';
import type { CloseInfo, Disposer, HttpExchangeInfo, SendOptions, Transport, TransportDiagnostic } from '../../protocol/transport.js';
import { Inbox } from '../inbox.js';
import { Listeners } from '../listeners.js';
import { STREAMABLE_HTTP_KEYS } from '../option-keys.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../ndjson-framer.js';
import { discard, headerOf, mediaType, pumpSse, readText, type Body } from './http-body.js';
import { isConnectFailure, networkError, oversizeError, responseError, resumeRefusedError, statusError, type ExchangeContext } from './http-errors.js';
import { encodeHeaderValue } from './header-values.js';
import { redactUrl } from '../../protocol/redact.js';
import { exchange, type LiteResponse } from './dispatch.js';
import { ExchangeReporter, type ResponseFacts } from './exchange-reporter.js';
import { SseDecoder } from './sse-decoder.js';
import { GetStream } from './get-stream.js';
import { settledWithin, sleep, timeoutSignal } from './sleep.js';
import type { AuthorizeHook } from './authorize-hook.js';

const MODERN_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';
/** How long close() waits for the session DELETE and for sockets to finish gracefully. */
const CLOSE_GRACE_MS = 2_000;
/** Revisions that carry `MCP-Protocol-Version` on every request after initialize. */
const LEGACY_WITH_VERSION_HEADER = new Set(['2025-06-18', '2025-11-25']);

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
  /** Headers per request (OAuth), and one resend after a 401/403 when it says so; see {@link AuthorizeHook}. */
  authorize?: AuthorizeHook;
}

type Era = 'unknown' | 'legacy' | 'modern';

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
  /** The request is `initialize`: its result's `protocolVersion` sets the version header. */
  initialize: boolean;
}

/**
 * A Streamable HTTP transport to one MCP endpoint. `send` resolves when the POST's exchange is
 * over (the response delivered, or 202 for a notification) and rejects with `TRANSPORT`,
 * `AUTH_REQUIRED` or `CONNECTION_CLOSED` — the connection turns that into the request's error.
 * `close()` aborts every exchange, ends a legacy session with DELETE, and closes the sockets.
 */
export class StreamableHttpTransport implements Transport {
  readonly url: URL;
  readonly closed: Promise<CloseInfo>;
  /** Every request gets its own signal from the connection, aborted when the request is abandoned. */
  readonly requestChannels = true;
  /** Request fields are mirrored into headers (`Mcp-Method`, `Mcp-Name`, `Mcp-Param-*`). */
  readonly mirrorsHeaders = true;
  /** The legacy session id, once the server assigned one. */
  sessionId: string | undefined;
  /** The legacy revision the server answered to `initialize` (sets `MCP-Protocol-Version`). */
  protocolVersion: string | undefined;

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
  private readonly authorize: AuthorizeHook | undefined;
  /** The latest headers the authorize hook gave, also sent on the GET stream and the DELETE. */
  private authHeaders: Record<string, string> = {};
  private readonly inbox = new Inbox<unknown>();
  private readonly diagnostics = new Listeners<TransportDiagnostic>();
  private readonly reporter = new ExchangeReporter();
  private readonly life = new AbortController();
  private readonly exchanges = new Set<Promise<unknown>>();
  /** Per-exchange controllers of requests in flight, aborted by close(). */
  private readonly linked = new Set<AbortController>();
  private era: Era = 'unknown';
  private initializeParams: Record<string, unknown> | undefined;
  private reinitializing: Promise<void> | undefined;
  private getStream: GetStream | undefined;
  private closing: Promise<void> | undefined;
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
    this.authorize = options.authorize;
    this.dispatcher = options.dispatcher ?? new Agent({ keepAliveTimeout: 10_000, connect: { timeout: options.connectTimeoutMs ?? 10_000 } });
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
  }

  /** True in the modern era: closing a request's stream is its cancellation (no notice is sent). */
  get cancelsByAbort(): boolean {
    return this.era === 'modern';
  }

  send(message: JsonRpcMessage, options?: SendOptions): Promise<void> {
    if (this.closing) return Promise.reject(new McpError('CONNECTION_CLOSED', `cannot send: the HTTP transport to ${redactUrl(this.url)} is closed`, { server: this.name }));
    return this.track(this.post(message, options?.signal, options?.headers, false));
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

  // ---- POST ----

  private async post(message: JsonRpcMessage, signal: AbortSignal | undefined, extra: Record<string, string> | undefined, isRetry: boolean): Promise<void> {
    const method = 'method' in message ? message.method : undefined;
    const isRequest = method !== undefined && 'id' in message;
    const ctx = this.context(method);
    if (isRequest && method === 'initialize' && !isRetry) {
      this.era = 'legacy';
      this.initializeParams = (message as { params?: Record<string, unknown> }).params;
    }
    // A re-initialize in progress owns the session: wait for it so this message carries the new id.
    if (this.reinitializing && method !== 'initialize') await this.reinitializing.catch(() => {});
    if (this.authorize) await this.authorizeWith({ method: 'POST', url: this.url, signal });
    const link = this.link(signal);
    try {
      try {
        return await this.exchange(message, method, isRequest, signal, link.signal, this.headersFor(message, method, isRequest, extra), extra, isRetry, ctx);
      } catch (error) {
        // A 401/403 means the server did not run the message: the hook may refresh or log in, then it goes once more.
        if (!this.authorize || !(error instanceof HttpError) || error.code !== 'AUTH_REQUIRED' || this.life.signal.aborted) throw error;
        if (!(await this.authorizeWith({ method: 'POST', url: this.url, signal, rejected: error }))) throw error;
        return await this.exchange(message, method, isRequest, signal, link.signal, this.headersFor(message, method, isRequest, extra), extra, isRetry, ctx);
      }
    } finally {
      link.release();
    }
  }

  /** Asks the authorize hook for headers and keeps them; false when it declined (a refusal it will not answer). */
  private async authorizeWith(request: Parameters<AuthorizeHook>[0]): Promise<boolean> {
    const headers = await this.authorize!(request);
    if (headers === undefined) return false;
    this.authHeaders = lowerKeys(headers);
    return true;
  }

  private async exchange(
    message: JsonRpcMessage,
    method: string | undefined,
    isRequest: boolean,
    signal: AbortSignal | undefined,
    abort: AbortSignal,
    headers: Record<string, string>,
    extra: Record<string, string> | undefined,
    isRetry: boolean,
    ctx: ExchangeContext,
  ): Promise<void> {
    const traced = this.reporter.out('POST', this.url, headers, message);
    let response: LiteResponse;
    try {
      response = await exchange(this.dispatcher, this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(message),
        signal: abort,
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

    if (status === 404 && headers['mcp-session-id'] !== undefined && method !== 'initialize' && !isRetry && this.initializeParams) {
      // The session is gone and the server never ran this message: new session, then once more.
      this.reporter.in(facts);
      discard(body);
      // The session id is a credential of sorts (spec: handle it securely): not repeated in logs.
      this.diagnostic('session-expired', 'the session expired (HTTP 404 for its id); re-initializing and re-sending once');
      await this.reinitialize(signal);
      return this.post(message, signal, extra, true);
    }
    if (status < 200 || status >= 300) return this.rejectStatus(message, status, responseHeaders, body, read);

    if (isRequest && method === 'initialize') {
      const session = headerOf(responseHeaders, 'mcp-session-id');
      if (session !== undefined) this.sessionId = session;
    }
    if (!isRequest) {
      await this.readStray(body, responseHeaders, read);
      if (method === 'notifications/initialized') this.startGetStream();
      return;
    }
    const id = (message as { id: string | number }).id;
    if (status === 202 || status === 204) {
      this.reporter.in(facts);
      discard(body);
      this.diagnostic('no-response-body', `${method} was answered with HTTP ${status} and no body; waiting for the response on another stream`);
      return;
    }
    const type = mediaType(responseHeaders);
    const awaited: Awaited = { id, got: false, initialize: method === 'initialize' };
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

  /** Legacy: replays the `initialize` this transport saw, without the dead session id. Shared by concurrent callers. */
  private reinitialize(signal: AbortSignal | undefined): Promise<void> {
    this.reinitializing ??= (async () => {
      this.sessionId = undefined;
      this.getStream?.stop();
      this.getStream = undefined;
      const id = `mcpwire-reinitialize-${Date.now()}`;
      const replies: unknown[] = [];
      // The replayed handshake's answers are the transport's own business, not the connection's.
      const capture = (value: unknown): void => void replies.push(value);
      await this.exchangeOwn({ jsonrpc: '2.0', id, method: 'initialize', params: this.initializeParams ?? {} }, capture, signal);
      const answer = replies.find((value) => (value as { id?: unknown }).id === id) as { result?: { protocolVersion?: unknown } } | undefined;
      if (!answer?.result) throw responseError(this.context('initialize'), 'the server did not accept a new session after the old one expired');
      if (typeof answer.result.protocolVersion === 'string') this.protocolVersion = answer.result.protocolVersion;
      await this.exchangeOwn({ jsonrpc: '2.0', method: 'notifications/initialized' }, () => {}, signal);
      this.startGetStream();
    })().finally(() => {
      this.reinitializing = undefined;
    });
    return this.reinitializing;
  }

  /** One POST whose answers go to `sink` instead of the connection (session replay). */
  private async exchangeOwn(message: JsonRpcMessage, sink: (value: unknown) => void, signal: AbortSignal | undefined): Promise<void> {
    const method = (message as { method: string }).method;
    const ctx = this.context(method);
    const link = this.link(signal);
    try {
      await this.ownExchange(message, method, sink, signal, link.signal, ctx);
    } finally {
      link.release();
    }
  }

  private async ownExchange(message: JsonRpcMessage, method: string, sink: (value: unknown) => void, signal: AbortSignal | undefined, abort: AbortSignal, ctx: ExchangeContext): Promise<void> {
    const headers = this.headersFor(message, method, 'id' in message, undefined);
    const traced = this.reporter.out('POST', this.url, headers, message);
    let response: LiteResponse;
    try {
      response = await exchange(this.dispatcher, this.url, {
        method: 'POST',
        headers,
        body: JSON.stringify(message),
        signal: abort,
        headersTimeout: this.notificationTimeoutMs,
        bodyTimeout: this.notificationTimeoutMs,
      });
    } catch (error) {
      return this.failed(error, abort, signal, ctx);
    }
    const facts = this.reporter.facts(traced, 'POST', this.url, response.statusCode, response.headers);
    // The replayed handshake is real traffic: reported like any other, though it goes to `sink`.
    const take = (value: unknown): void => {
      this.reporter.in(facts, value);
      sink(value);
    };
    if (response.statusCode < 200 || response.statusCode >= 300) {
      this.reporter.in(facts);
      const text = await readText(response.body, 64 * 1024).catch(() => '');
      throw statusError(ctx, response.statusCode, headerOf(response.headers, 'www-authenticate'), text);
    }
    if (method === 'initialize') this.sessionId = headerOf(response.headers, 'mcp-session-id') ?? this.sessionId;
    const type = mediaType(response.headers);
    if (type === 'text/event-stream') {
      const id = (message as { id?: string | number }).id;
      let got = false;
      const decoder = new SseDecoder({
        event: (event) => {
          const value = parseEventData(event.data);
          if (value === undefined) return;
          if ((value as { id?: unknown }).id === id) got = true;
          take(value);
        },
      });
      await pumpSse(response.body, decoder, () => got);
    } else if (type === 'application/json') {
      const text = await readText(response.body, this.maxBytes);
      const value = text.trim() === '' ? undefined : safeParse(text);
      if (value !== undefined) take(value);
      else this.reporter.in(facts);
    } else {
      this.reporter.in(facts);
      discard(response.body);
    }
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
    throw statusError(ctx, status, headerOf(headers, 'www-authenticate'), text, headerOf(headers, 'dpop-nonce'));
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
    this.noteInitialize(value, awaited);
    this.deliver(value, ctx);
  }

  /**
   * Reads a request's SSE stream, resuming it (legacy, when the server gave event ids) after
   * drops until the response arrives. Rejects with a `TRANSPORT` `HttpError` whose `resend`
   * is `if-idempotent` when the response cannot arrive any more (the server may have run it).
   */
  private async readPostStream(body: Body, awaited: Awaited, abort: AbortSignal, signal: AbortSignal | undefined, ctx: Ctx): Promise<void> {
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
      if (!(await sleep(wait, abort))) return this.aborted(abort, signal, ctx);
      outcome = await this.resume(cursor, decoder, awaited, abort, ctx);
    }
  }

  /** One GET with `Last-Event-ID`; the replayed events go through the same decoder. */
  private async resume(cursor: Cursor, decoder: SseDecoder, awaited: Awaited, abort: AbortSignal, ctx: ExchangeContext): Promise<{ end: 'ended' | 'stopped' | 'broken' | 'aborted'; error?: unknown }> {
    const headers = { ...this.sessionHeaders(), accept: 'text/event-stream', 'last-event-id': cursor.lastEventId! };
    const traced = this.reporter.out('GET', this.url, headers);
    let response: LiteResponse;
    try {
      response = await exchange(this.dispatcher, this.url, {
        method: 'GET',
        headers,
        signal: abort,
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
    if (status === 404 && this.sessionId !== undefined) {
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
    if (awaited) {
      this.noteInitialize(value, awaited);
      if (isResponseTo(value, awaited.id)) awaited.got = true;
    }
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
        let response: Dispatcher.ResponseData;
        try {
          response = await request(this.url, { method: 'GET', headers, dispatcher: this.dispatcher, signal, headersTimeout: this.notificationTimeoutMs, bodyTimeout: 0 });
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

  private headersFor(message: JsonRpcMessage, method: string | undefined, isRequest: boolean, extra: Record<string, string> | undefined): Record<string, string> {
    const headers: Record<string, string> = {
      ...this.baseHeaders,
      ...this.authHeaders,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    };
    const params = (message as { params?: Record<string, unknown> }).params;
    const modernVersion = (params?._meta as Record<string, unknown> | undefined)?.[MODERN_VERSION_KEY];
    if (typeof modernVersion === 'string') {
      this.era = 'modern';
      headers['mcp-protocol-version'] = modernVersion;
      if (isRequest && method !== undefined) {
        headers['mcp-method'] = method;
        const name = method === 'resources/read' ? params?.uri : method === 'tools/call' || method === 'prompts/get' ? params?.name : undefined;
        if (typeof name === 'string') headers['mcp-name'] = encodeHeaderValue(name);
      }
    } else if (method !== 'initialize') {
      Object.assign(headers, this.sessionHeaders());
    }
    if (extra) for (const [key, value] of Object.entries(extra)) headers[key.toLowerCase()] = value;
    return headers;
  }

  /** Session id and negotiated version, for every legacy request after initialize. */
  private sessionHeaders(): Record<string, string> {
    // The GET stream and the DELETE reuse a POST's authorization, except a DPoP proof: it is bound
    // to one method and URL and used once (RFC 9449 §4.2), so those go without it.
    const headers: Record<string, string> = { ...this.baseHeaders, ...(this.authHeaders.dpop === undefined ? this.authHeaders : {}) };
    if (this.sessionId !== undefined) headers['mcp-session-id'] = this.sessionId;
    if (this.protocolVersion !== undefined && LEGACY_WITH_VERSION_HEADER.has(this.protocolVersion)) headers['mcp-protocol-version'] = this.protocolVersion;
    return headers;
  }

  // ---- helpers ----

  /** Remembers the legacy revision from the initialize response (for `MCP-Protocol-Version`). */
  private noteInitialize(value: unknown, awaited: Awaited): void {
    if (!awaited.initialize || !isResponseTo(value, awaited.id)) return;
    const version = (value as { result?: { protocolVersion?: unknown } }).result?.protocolVersion;
    if (typeof version === 'string') this.protocolVersion = version;
  }

  private failed(error: unknown, abort: AbortSignal, signal: AbortSignal | undefined, ctx: ExchangeContext): Promise<never> | undefined {
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
  private aborted(abort: AbortSignal, signal: AbortSignal | undefined, ctx: ExchangeContext): undefined {
    if (signal?.aborted) return undefined;
    void abort;
    throw new McpError('CONNECTION_CLOSED', `the HTTP transport to ${redactUrl(this.url)} was closed`, { server: ctx.server, method: ctx.method });
  }

  /**
   * The signal of one exchange: the transport's lifetime alone for messages without a request
   * signal; otherwise a controller of its own that follows the request's signal and that close()
   * aborts. (Cheaper than `AbortSignal.any`, whose dependants linger on the parent until GC.)
   */
  private link(signal: AbortSignal | undefined): { signal: AbortSignal; release: () => void } {
    if (signal === undefined) return { signal: this.life.signal, release: noop };
    const controller = new AbortController();
    if (signal.aborted) controller.abort(signal.reason);
    const follow = (): void => controller.abort(signal.reason);
    signal.addEventListener('abort', follow, { once: true });
    this.linked.add(controller);
    return {
      signal: controller.signal,
      release: () => {
        signal.removeEventListener('abort', follow);
        this.linked.delete(controller);
      },
    };
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
    for (const controller of this.linked) controller.abort(closing);
    await Promise.allSettled([...this.exchanges]);
    if (this.era === 'legacy' && this.sessionId !== undefined) {
      // Ending the session is a courtesy: 405 (not allowed) and failures are fine.
      const limit = timeoutSignal(CLOSE_GRACE_MS);
      try {
        const headers = this.sessionHeaders();
        const traced = this.reporter.out('DELETE', this.url, headers);
        const response = await request(this.url, {
          method: 'DELETE',
          headers,
          dispatcher: this.dispatcher,
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

function noop(): void {}

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
