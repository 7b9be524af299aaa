/**
 * The deprecated HTTP+SSE transport of 2024-11-05 (`D/2024-11-05/basic/transports.mdx`): the
 * client GETs an SSE stream whose first event, `endpoint`, names the URI to POST messages to;
 * every server message (responses included) arrives as a `message` event on that one stream.
 * The stream is the connection: when it ends, the transport is closed and every pending request
 * fails at once.
 *
 * A `message` event over `maxMessageBytes` is dropped as soon as it passes the cap (never held
 * whole) and reported as an `oversize` diagnostic naming the limit. The stream is shared by every
 * request, so which request the event answered is not known here — the transport knows no ids —
 * and the diagnostic carries the event's first characters (`head`): the connection reads the
 * top-level `id` there and fails that request at once with `TRANSPORT`, or, for a response whose
 * id comes after its payload, every request then pending, since any of them may have lost its
 * answer and each would otherwise wait out its timeout (a notification, a request of the server
 * or junk fails nothing). The stream itself stays
 * usable: the SSE framing resumes at the next event, so later requests are unaffected. (Failing
 * the whole connection instead would also end requests the event cannot have answered.)
 */
import { McpError } from '../../protocol/errors.js';
import { checkOptions } from '../../protocol/option-keys.js';
import type { JsonRpcMessage } from '../../protocol/jsonrpc.js';
import type { CloseInfo, Disposer, Transport, TransportDiagnostic } from '../../protocol/transport.js';
import { Inbox } from '../inbox.js';
import { Listeners } from '../listeners.js';
import { LEGACY_SSE_KEYS, type LegacySseOptions } from '../transport-options.js';
import { DEFAULT_MAX_MESSAGE_BYTES } from '../ndjson-framer.js';
import { ExchangeReporter, flatHeaders, type HttpExchangeInfo, type ResponseFacts } from './exchange-reporter.js';
import { engineFor } from './engine-choice.js';
import type { HttpEngine, LiteResponse } from './http-engine.js';
import { unlimitedListeners } from './max-listeners.js';
import { discard, headerOf, mediaType, pumpSse, readText } from './http-body.js';
import { copyHeaders } from './header-values.js';
import { networkError, responseError, statusError, type ExchangeContext } from './http-errors.js';
import { redactUrl } from '../../util/redact.js';
import { SseDecoder } from './sse-decoder.js';
import { settledWithin, timeoutSignal } from './sleep.js';

/** How long close() lets sockets finish gracefully before destroying them. */
const CLOSE_GRACE_MS = 2_000;
/** Longest `sample` of a diagnostic, in characters (an ellipsis marks a cut). */
const SAMPLE_CHARS = 200;

export type { LegacySseOptions } from '../transport-options.js';

/** A 2024-11-05 HTTP+SSE transport. Create it with {@link LegacySseTransport.connect}. */
export class LegacySseTransport implements Transport {
  /** Tells this kind of transport apart from the others where the client holds one (see `transport/kinds.ts`). */
  readonly kind = 'http-sse';
  readonly closed: Promise<CloseInfo>;
  /** Where messages are POSTed, as the server's `endpoint` event said. */
  readonly endpoint: URL;
  readonly url: URL;
  private readonly name: string;
  private readonly headers: Record<string, string>;
  private readonly secrets: string[];
  private readonly postTimeoutMs: number;
  private readonly maxBytes: number;
  /** What sends the requests (`default-engine.ts`). */
  private readonly engine: HttpEngine;
  private readonly inbox = new Inbox<unknown>();
  private readonly diagnostics = new Listeners<TransportDiagnostic>();
  private readonly reporter = new ExchangeReporter();
  /** The connecting GET (request and status line), replayed to the first `onExchange` listener. */
  private connectFacts: HttpExchangeInfo[] | undefined;
  /** The GET stream's response facts, reported with each message it carries once someone listens. */
  private streamFacts: ResponseFacts | undefined;
  private readonly life: AbortController;
  private readonly posts = new Set<Promise<unknown>>();
  private closing: Promise<void> | undefined;
  private closeInfo: CloseInfo | undefined;
  private resolveClosed!: (info: CloseInfo) => void;

  private constructor(
    url: URL,
    endpoint: URL,
    life: AbortController,
    options: LegacySseOptions,
    engine: HttpEngine,
    headers: Record<string, string>,
  ) {
    this.url = url;
    this.endpoint = endpoint;
    this.life = life;
    this.name = options.name ?? url.host;
    this.headers = headers;
    this.secrets = Object.values(headers);
    this.postTimeoutMs = options.postTimeoutMs ?? 30_000;
    this.maxBytes = options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
    this.engine = engine;
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
  }

  /**
   * Opens the SSE stream and waits for its `endpoint` event, both within `connectTimeoutMs`.
   * Rejects with `TRANSPORT` (not an SSE stream, an endpoint on another origin, the stream ended
   * first), `AUTH_REQUIRED`, a network error naming the URL, `TIMEOUT` (no response or no
   * endpoint in time), or `CANCELLED` (cause: the signal's reason) when `options.signal` aborts
   * first; nothing stays open after a rejection.
   */
  static async connect(url: string | URL, options: LegacySseOptions = {}): Promise<LegacySseTransport> {
    checkOptions(options, LEGACY_SSE_KEYS);
    const target = new URL(String(url));
    const name = options.name ?? target.host;
    const headers: Record<string, string> = {};
    for (const [key, value] of Object.entries(options.headers ?? {})) headers[key.toLowerCase()] = value;
    const ctx: ExchangeContext = {
      server: name,
      method: 'GET (HTTP+SSE)',
      url: target.toString(),
      secrets: Object.values(headers),
    };
    const engine = engineFor(options);
    const life = new AbortController();
    // Every POST in flight listens to it (many in flight are normal, not a leak).
    unlimitedListeners(life.signal);
    const timeoutMs = options.connectTimeoutMs ?? 10_000;
    const { signal } = options;
    const cancelled = (): McpError =>
      new McpError('CANCELLED', `connecting to ${redactUrl(target)} was cancelled by the caller`, {
        server: name,
        cause: signal?.reason,
      });
    if (signal?.aborted) {
      await engine.destroy();
      throw cancelled();
    }
    // One deadline for the GET and the wait for `endpoint`; it and the caller's abort both end
    // whatever is under way through `life`.
    let responded = false;
    const timedOut = (): McpError =>
      new McpError(
        'TIMEOUT',
        `no ${responded ? 'endpoint event' : 'response'} within the connect timeout of ${timeoutMs} ms (${redactUrl(target)})`,
        { server: name, method: ctx.method },
      );
    const limit = timeoutSignal(timeoutMs);
    const onTimeout = (): void => life.abort(timedOut());
    limit.signal.addEventListener('abort', onTimeout, { once: true });
    const onCallerAbort = (): void => life.abort(cancelled());
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    const settled = (): void => {
      limit.dispose();
      limit.signal.removeEventListener('abort', onTimeout);
      signal?.removeEventListener('abort', onCallerAbort);
    };
    const giveUp = async (error: McpError): Promise<never> => {
      settled();
      // Whatever failed once the caller aborted or the time ran out, that is the reason.
      const reason = signal?.aborted ? cancelled() : limit.signal.aborted ? timedOut() : error;
      life.abort(reason);
      await engine.destroy();
      throw reason;
    };

    let response: LiteResponse;
    const getHeaders = { ...headers, accept: 'text/event-stream' };
    try {
      response = await engine.exchange(target, {
        method: 'GET',
        headers: getHeaders,
        signal: life.signal,
        headersTimeout: 0,
        bodyTimeout: 0,
      });
      responded = true;
    } catch (error) {
      return giveUp(networkError(ctx, error));
    }
    if (response.statusCode < 200 || response.statusCode >= 300) {
      const text = await readText(response.body, 64 * 1024).catch(() => '');
      return giveUp(statusError(ctx, response.statusCode, headerOf(response.headers, 'www-authenticate'), text));
    }
    if (mediaType(response.headers) !== 'text/event-stream') {
      discard(response.body);
      return giveUp(
        responseError(
          ctx,
          `expected an SSE stream, got Content-Type ${JSON.stringify(headerOf(response.headers, 'content-type') ?? '')}`,
        ),
      );
    }

    // Events before `endpoint` are kept and replayed once the transport exists.
    let endpoint: URL | undefined;
    let transport: LegacySseTransport | undefined;
    const early: unknown[] = [];
    let endpointError: McpError | undefined;
    let settleEndpoint!: () => void;
    const endpointSettled = new Promise<void>((resolve) => (settleEndpoint = resolve));
    const decoder = new SseDecoder(
      {
        event: (event) => {
          if (event.event === 'endpoint' && endpoint === undefined) {
            try {
              const resolved = new URL(event.data.trim(), target);
              if (resolved.origin !== target.origin)
                endpointError = responseError(
                  ctx,
                  `the endpoint event points to another origin (${redactUrl(resolved)}); refusing to send messages there`,
                );
              else endpoint = resolved;
            } catch {
              endpointError = responseError(
                ctx,
                `the endpoint event is not a URI: ${JSON.stringify(event.data.slice(0, 100))}`,
              );
            }
            settleEndpoint();
            return;
          }
          if (event.event !== 'message') return;
          let value: unknown;
          try {
            value = JSON.parse(event.data);
          } catch {
            transport?.diagnostic('invalid-json', 'an SSE message event is not JSON');
            return;
          }
          if (transport) transport.deliver(value);
          else early.push(value);
        },
        // Before the transport exists nothing can be pending, so there is no one to tell.
        oversize: (chars, head) => transport?.oversized(chars, head),
      },
      { maxEventChars: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES },
    );
    const pumped = pumpSse(response.body, decoder, () => life.signal.aborted, false);
    const onAbort = (): void => void response.body.destroy();
    if (life.signal.aborted) onAbort();
    else life.signal.addEventListener('abort', onAbort, { once: true });
    // A timeout or an abort destroys the body, which ends `pumped`.
    await Promise.race([endpointSettled, pumped]);
    if (endpoint === undefined || life.signal.aborted) {
      return giveUp(endpointError ?? responseError(ctx, 'the SSE stream ended before its endpoint event'));
    }
    settled();
    transport = new LegacySseTransport(target, endpoint, life, options, engine, headers);
    // Kept (two small objects) for a tracer that attaches after connect: the GET is traffic too.
    const stream: ResponseFacts = {
      exchange: 0,
      method: 'GET',
      url: target.href,
      status: response.statusCode,
      headers: flatHeaders(response.headers),
    };
    transport.streamFacts = stream;
    transport.connectFacts = [
      { direction: 'out', exchange: 0, method: 'GET', url: target.href, headers: getHeaders },
      { direction: 'in', ...stream },
    ];
    for (const value of early) transport.inbox.deliver(value);
    const live = transport;
    void pumped.then((outcome) => {
      life.signal.removeEventListener('abort', onAbort);
      if (live.closing) return;
      const why = outcome.error instanceof Error ? `: ${outcome.error.message}` : '';
      void live.shutdown({
        error: new McpError('CONNECTION_CLOSED', `the SSE stream from ${redactUrl(target)} ended${why}`, {
          server: name,
        }),
      });
    });
    return transport;
  }

  send(message: JsonRpcMessage): Promise<void> {
    if (this.closing)
      return Promise.reject(
        new McpError('CONNECTION_CLOSED', `cannot send: the SSE transport to ${redactUrl(this.url)} is closed`, {
          server: this.name,
        }),
      );
    const task = this.post(message).finally(() => this.posts.delete(task));
    this.posts.add(task);
    task.catch(() => {});
    return task;
  }

  onMessage(listener: (value: unknown) => void): Disposer {
    return this.inbox.listen(listener);
  }

  onDiagnostic(listener: (diagnostic: TransportDiagnostic) => void): Disposer {
    return this.diagnostics.add(listener);
  }

  /**
   * Registers a receiver of the HTTP facts of every exchange (tracing); see
   * {@link HttpExchangeInfo}. The first listener also gets the connecting GET (exchange 0).
   */
  onExchange(listener: (info: HttpExchangeInfo) => void): Disposer {
    const replay = this.connectFacts ?? [];
    this.connectFacts = undefined;
    return this.reporter.listen(listener, replay);
  }

  /** Closes the stream and the sockets. Idempotent. */
  close(): Promise<void> {
    return this.shutdown({});
  }

  /**
   * Ends the stream and every POST now and destroys the sockets (not those of a caller's dispatcher) without
   * waiting for them; `closed` resolves with `reason`. Synchronous; harmless at any time.
   */
  destroy(reason?: McpError): void {
    const info: CloseInfo = reason ? { error: reason } : (this.closeInfo ?? {});
    this.closeInfo ??= info;
    this.life.abort(reason ?? new McpError('CONNECTION_CLOSED', 'transport destroyed', { server: this.name }));
    void this.engine.destroy();
    this.closing ??= this.closed.then(() => undefined);
    this.resolveClosed(info);
  }

  private async post(message: JsonRpcMessage): Promise<void> {
    const method = 'method' in message ? message.method : undefined;
    const ctx: ExchangeContext = { server: this.name, method, url: this.endpoint.toString(), secrets: this.secrets };
    let response: LiteResponse;
    const headers = copyHeaders(this.headers);
    headers['content-type'] = 'application/json';
    const traced = this.reporter.out('POST', this.endpoint, headers, message);
    try {
      response = await this.engine.exchange(this.endpoint, {
        method: 'POST',
        headers,
        body: JSON.stringify(message),
        signal: this.life.signal,
        headersTimeout: this.postTimeoutMs,
        bodyTimeout: this.postTimeoutMs,
      });
    } catch (error) {
      if (this.life.signal.aborted)
        throw new McpError('CONNECTION_CLOSED', 'the SSE transport was closed', { server: this.name, method });
      throw networkError(ctx, error);
    }
    // The POST's answer never carries a message (those travel on the stream): a status line.
    this.reporter.in(this.reporter.facts(traced, 'POST', this.endpoint, response.statusCode, response.headers));
    if (response.statusCode < 200 || response.statusCode >= 300) {
      const text = await readText(response.body, 64 * 1024).catch(() => '');
      throw statusError(ctx, response.statusCode, headerOf(response.headers, 'www-authenticate'), text);
    }
    // The answer travels on the SSE stream; the POST's own body ("Accepted") means nothing.
    await readText(response.body, this.maxBytes).catch(() => '');
  }

  /** Hands a stream message to the connection, reporting it first when traced. */
  private deliver(value: unknown): void {
    this.reporter.in(this.streamFacts, value);
    this.inbox.deliver(value);
  }

  private diagnostic(kind: string, message: string): void {
    this.diagnostics.emit({ kind, message });
  }

  /** An event passed the size cap and was dropped: report it with its head (see the file comment). */
  private oversized(chars: number, head: string): void {
    this.diagnostics.emit({
      kind: 'oversize',
      message: `dropped an SSE message event after ${chars} characters: it exceeds ${this.maxBytes} bytes, the size limit (maxMessageBytes)`,
      limit: this.maxBytes,
      sample: head.length > SAMPLE_CHARS ? `${head.slice(0, SAMPLE_CHARS)}…` : head,
      head,
    });
  }

  private shutdown(info: CloseInfo): Promise<void> {
    this.closing ??= (async () => {
      this.closeInfo = info;
      this.life.abort(info.error ?? new McpError('CONNECTION_CLOSED', 'transport closed', { server: this.name }));
      await Promise.allSettled([...this.posts]);
      // Graceful first, then nothing may remain either way.
      await settledWithin(this.engine.close(), CLOSE_GRACE_MS);
      await this.engine.destroy();
      this.resolveClosed(this.closeInfo);
    })();
    return this.closing;
  }
}
