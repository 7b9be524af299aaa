/**
 * One server conversation as `McpClient` runs it: the connection and the transport under it, what
 * negotiation settled, and the one path every request of the typed API takes.
 *
 * Contract:
 * - {@link ClientSession.send} wraps a request in the era's envelope (modern: the `_meta` of the
 *   negotiated revision), fails a gated method locally with `CAPABILITY_MISSING` (a capability
 *   the server did not advertise, a method the era does not have), retries a modern request once on -32022 with a
 *   revision both sides support, hands a tool call's `Mcp-Param-*` headers to the Streamable HTTP transport, and leaves
 *   lost requests to the re-send policy (`resend-policy.ts`).
 * - {@link ClientSession.wire} builds a connection over a transport and turns its notifications
 *   and the server's requests into client events and handler calls; only the connection in use
 *   reports `close`.
 * - It keeps the modern change feed (`subscriptions/listen`) and the resource URIs subscribed.
 * - {@link ClientSession.close} is graceful and idempotent; it ends the feed and every input round.
 */
import { ChannelTracing } from '../observe/channel-tracing.js';
import { clientConnectionFacts } from '../observe/connection-facts.js';
import {
  DEFAULT_MAX_TOTAL_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  JsonRpcConnection,
  type RequestOptions,
} from '../protocol/connection.js';
import { McpError } from '../protocol/errors.js';
import { RpcErrorCode } from '../protocol/jsonrpc.js';
import type { ClientRequestMethod, ParamsOf, ResultOf } from '../protocol/methods.js';
import type { Era, ProtocolRevision } from '../protocol/revisions.js';
import type { Transport } from '../protocol/transport.js';
import { withMeta } from '../protocol/with-meta.js';
import type {
  ClientCapabilities,
  Implementation,
  LoggingLevel,
  LoggingMessageParams,
  Meta,
  ProgressParams,
  ResourceUpdatedParams,
  ServerCapabilities,
  SubscriptionFilter,
} from '../protocol/types.js';
import { Emitter } from '../util/emitter.js';
import type { StreamableHttpTransport } from '../transport/http/streamable-http.js';
import type { HttpSession } from '../transport/http/legacy-session.js';
import { isStdioTransport, isStreamableHttpTransport } from '../transport/kinds.js';
import type { ConnectDeadline } from './connect-deadline.js';
import type { ClientEvents } from './events.js';
import { assertCapability, assertEra, hasCapability } from './gating.js';
import type { ListMethod } from './list-cache.js';
import { ListenStream } from './listen.js';
import { modernMeta, pickModern, type Link, type Negotiated } from './negotiate.js';
import type { ClientOptions } from './options.js';
import { Resender } from './resend-policy.js';
import { capabilitiesFor, fulfilInput, type ServerInputHandlers } from './server-input.js';
import { withExtensions } from './extensions.js';

/** Methods the 2026-07-28 revision removed. */
const LEGACY_ONLY = new Set(['ping', 'logging/setLevel', 'resources/subscribe', 'resources/unsubscribe']);

/**
 * Request options inside the client: `headers` are a tool call's `Mcp-Param-*` headers (2026 HTTP), handed to the HTTP
 * transport, never to the connection.
 */
export type HeaderedOptions = RequestOptions & { headers?: Record<string, string> };

/**
 * A transport as the client holds it: the object it was given or built, and the pipe its connection uses (the same, or
 * a tracing decorator around it).
 */
export interface Held {
  concrete: Transport;
  pipe: Transport;
}

/** What a session is made of, settled before the connect starts. */
export interface SessionSetup {
  options: ClientOptions & { name: string };
  handlers: ServerInputHandlers;
  clientInfo: Implementation;
  /** Called on a list_changed notification with the lists it makes stale, before the event is emitted. */
  listsChanged: (...methods: ListMethod[]) => void;
}

/** See the file comment. Internal: `McpClient` is the public face. */
export class ClientSession {
  /** The server's display name, used in every error. */
  readonly name: string;
  readonly options: ClientOptions & { name: string };
  readonly handlers: ServerInputHandlers;
  readonly clientInfo: Implementation;
  /** The capabilities this client declares (from its handlers). */
  readonly declared: ClientCapabilities;
  readonly events = new Emitter<ClientEvents>();
  /** Aborted on close: ends what runs on the client's behalf (input rounds). */
  readonly lifetime = new AbortController();
  /** Resource URIs subscribed to (modern: the listen filter's `resourceSubscriptions`). */
  readonly subscribed = new Set<string>();
  connection: JsonRpcConnection;
  /**
   * The server process, when the transport is a stdio one (for `pid`). Typed by the one field
   * read, so the client's declarations name no Node type (the neutral root's `"types": []` check).
   */
  process: { readonly pid: number | undefined } | undefined;
  /** The Streamable HTTP transport, when it is one: told the session, given per-message headers. */
  readonly http: StreamableHttpTransport | undefined;
  negotiated!: Negotiated;
  private meta: Meta | undefined;
  private logLevel: LoggingLevel | undefined;
  private readonly resender: Resender;
  private readonly listsChanged: SessionSetup['listsChanged'];
  private listen: ListenStream | undefined;
  private closing: Promise<void> | undefined;
  /** The revision `initialize` answered, known before negotiation settles (for observers). */
  private handshakeRevision: string | undefined;

  constructor(held: Held, setup: SessionSetup) {
    const { options } = setup;
    this.name = options.name;
    this.options = options;
    this.handlers = setup.handlers;
    this.clientInfo = setup.clientInfo;
    this.listsChanged = setup.listsChanged;
    this.declared = withExtensions(capabilitiesFor(setup.handlers, options.elicitationModes), options.extensions);
    this.logLevel = options.logLevel;
    if (options.onDiagnostic) this.events.on('diagnostic', options.onDiagnostic);
    this.http = isStreamableHttpTransport(held.concrete) ? held.concrete : undefined;
    const link = this.wire(held);
    this.connection = link.connection;
    this.process = isStdioTransport(link.transport) ? link.transport : undefined;
    const session = this;
    this.resender = new Resender({
      get connection() {
        return session.connection;
      },
      get legacyHttp() {
        return session.negotiated?.era === 'legacy' ? session.http : undefined;
      },
      get initializeParams() {
        return session.negotiated?.initialize;
      },
      requestTimeoutMs: options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      diagnostic: (kind, message) => this.events.emit('diagnostic', { kind, message }),
    });
  }

  get era(): Era {
    return this.negotiated.era;
  }

  get protocolVersion(): ProtocolRevision {
    return this.negotiated.protocolVersion;
  }

  get capabilities(): ServerCapabilities {
    return this.negotiated.capabilities;
  }

  /** A new connection over `held.pipe`; a Streamable HTTP transport gets a signal per request (its POST). */
  wire(held: Held): Link {
    const facts = clientConnectionFacts(
      held.concrete,
      this.name,
      // During the handshake only what it has learned so far (nothing before `initialize` answers).
      () => (this as { negotiated?: Negotiated }).negotiated?.protocolVersion ?? this.handshakeRevision,
    );
    const connection = new JsonRpcConnection(held.pipe, {
      name: this.name,
      tracing: new ChannelTracing(facts),
      defaultTimeoutMs: this.options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS,
      maxTotalTimeoutMs: this.options.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS,
      requestSignals: isStreamableHttpTransport(held.concrete),
    });
    connection.onDiagnostic((d) => this.events.emit('diagnostic', d));
    connection.onNotification('notifications/tools/list_changed', () => {
      this.listsChanged('tools/list');
      this.events.emit('toolsChanged');
    });
    connection.onNotification('notifications/resources/list_changed', () => {
      this.listsChanged('resources/list', 'resources/templates/list');
      this.events.emit('resourcesChanged');
    });
    connection.onNotification('notifications/prompts/list_changed', () => {
      this.listsChanged('prompts/list');
      this.events.emit('promptsChanged');
    });
    connection.onNotification('notifications/resources/updated', (p) =>
      this.events.emit('resourceUpdated', p as ResourceUpdatedParams),
    );
    connection.onNotification('notifications/message', (p) => this.events.emit('log', p as LoggingMessageParams));
    connection.onNotification('notifications/progress', (p) => this.events.emit('progress', p as ProgressParams));
    connection.onNotification('notifications/elicitation/complete', (p) =>
      this.events.emit('elicitationComplete', p as { elicitationId: string }),
    );
    connection.onRequest('ping', () => ({}));
    for (const method of ['sampling/createMessage', 'elicitation/create', 'roots/list'] as const) {
      connection.onRequest(method, (params, context) =>
        fulfilInput(
          { method, ...(params ? { params } : {}) },
          this.handlers,
          { server: this.name, era: 'legacy', signal: context.signal },
          this.options.elicitationModes,
        ),
      );
    }
    void connection.closed.then((info) => {
      if (connection !== this.connection) return; // a probe connection replaced during connect
      this.listen?.stop();
      this.events.emit('close', info);
    });
    return { connection, transport: held.concrete };
  }

  /** Runs on `link` from now on (negotiation restarted the server) with what negotiation settled. */
  adopt(link: Link, negotiated: Negotiated): void {
    this.connection = link.connection;
    this.process = isStdioTransport(link.transport) ? link.transport : undefined;
    this.negotiated = negotiated;
    if (negotiated.era === 'modern') {
      this.meta = modernMeta(negotiated.protocolVersion, this.declared, this.clientInfo, this.logLevel);
    }
  }

  /** Tells an HTTP transport what negotiation learned of the session, and the connection how to cancel there. */
  sessionLearned(session: HttpSession, connection: JsonRpcConnection): void {
    // Observers see the revision from here on (the handshake's own `notifications/initialized`).
    if (session.era === 'legacy' && session.protocolVersion !== undefined)
      this.handshakeRevision = session.protocolVersion;
    if (!this.http) return;
    this.http.setSession(session);
    // 2026 Streamable HTTP: closing a request's stream is its cancellation; no notice is sent.
    connection.setCancelNotices(session.era === 'modern' ? 'abort-only' : 'send');
  }

  /** What the connect does once negotiated; its requests spend from the connect's deadline and stop at its signal. */
  async afterHandshake(signal: AbortSignal | undefined, deadline: ConnectDeadline): Promise<void> {
    if (this.era === 'legacy') {
      if (this.logLevel !== undefined && hasCapability(this.capabilities, ['logging'])) {
        const level = this.logLevel;
        await deadline.request(this.name, 'logging/setLevel', (timeoutMs) =>
          this.send(
            'logging/setLevel',
            { level },
            { timeoutMs, maxTotalTimeoutMs: timeoutMs, ...(signal ? { signal } : {}) },
          ),
        );
      }
      return;
    }
    if (this.options.listen !== false) {
      this.listen = new ListenStream(
        (filter, signal) =>
          this.send(
            'subscriptions/listen',
            { notifications: filter },
            { signal, timeoutMs: Infinity, maxTotalTimeoutMs: Infinity },
            false,
          ),
        (message) => this.events.emit('diagnostic', { kind: 'listen', message }),
      );
      this.refreshListen();
    }
  }

  /** Modern: the listen stream's filter follows the advertised list changes and {@link subscribed}. */
  refreshListen(): void {
    if (!this.listen) return;
    const caps = this.capabilities;
    const filter: SubscriptionFilter = {};
    if (caps.tools?.listChanged) filter.toolsListChanged = true;
    if (caps.prompts?.listChanged) filter.promptsListChanged = true;
    if (caps.resources?.listChanged) filter.resourcesListChanged = true;
    if (this.subscribed.size > 0) filter.resourceSubscriptions = [...this.subscribed];
    this.listen.update(filter);
  }

  /** Modern: the level rides on every later request's `_meta`. */
  setModernLogLevel(level: LoggingLevel): void {
    this.logLevel = level;
    this.meta = modernMeta(this.protocolVersion, this.declared, this.clientInfo, level);
  }

  /**
   * Sends one request with the era's envelope. Gated methods fail locally with
   * `CAPABILITY_MISSING`. Modern: one retry on -32022 with a mutually supported revision.
   */
  send<M extends ClientRequestMethod>(
    method: M,
    params: ParamsOf<M>,
    options: HeaderedOptions,
    gate = true,
  ): Promise<ResultOf<M>> {
    if (gate) {
      try {
        this.gate(method);
      } catch (error) {
        return Promise.reject(error);
      }
    }
    // A lost legacy session being replaced: this request goes out in the new one.
    const waiting = this.resender.pending;
    if (waiting) return waiting.then(() => this.send(method, params, options, false));
    let headers: Record<string, string> | undefined;
    if (options.headers !== undefined) ({ headers, ...options } = options);
    if (this.era === 'legacy')
      return this.resender.guard(method, this.requestOn(method, params, options, headers), () =>
        this.requestOn(method, params, options, headers),
      );
    const sent = this.resender.guard(
      method,
      this.requestOn(method, this.envelope(params) as ParamsOf<M>, options, headers),
      () => this.requestOn(method, this.envelope(params) as ParamsOf<M>, options, headers),
    );
    return sent.catch((error: unknown) => {
      const other =
        error instanceof McpError &&
        error.rpcCode === RpcErrorCode.UnsupportedProtocolVersion &&
        this.options.protocolVersion === undefined
          ? pickModern((error.data as { supported?: unknown } | undefined)?.supported)
          : undefined;
      if (!other || other === this.protocolVersion) throw error;
      this.negotiated = { ...this.negotiated, protocolVersion: other };
      this.meta = modernMeta(other, this.declared, this.clientInfo, this.logLevel);
      return this.requestOn(method, this.envelope(params), options, headers);
    });
  }

  /** Graceful, idempotent close: ends the listen stream and input rounds, closes the connection. */
  close(): Promise<void> {
    if (!this.closing) {
      this.lifetime.abort(new McpError('CONNECTION_CLOSED', 'client closed', { server: this.name }));
      this.listen?.stop();
      this.closing = this.connection.close();
    }
    return this.closing;
  }

  /** One request on the connection; `headers` (2026 HTTP: `Mcp-Param-*`) travel with its `send`. */
  private requestOn<M extends ClientRequestMethod>(
    method: M,
    params: ParamsOf<M>,
    options: RequestOptions,
    headers: Record<string, string> | undefined,
  ): Promise<ResultOf<M>> {
    if (headers === undefined) return this.connection.request(method, params, options);
    return this.connection.request(method, params, { ...options, headers });
  }

  private envelope(params: Record<string, unknown> | undefined): Record<string, unknown> {
    const own = params?._meta as Meta | undefined;
    return withMeta(params, own ? { ...own, ...this.meta } : this.meta);
  }

  private gate(method: string): void {
    if (LEGACY_ONLY.has(method)) assertEra(method, this.era, 'legacy', this.name);
    assertCapability(method, this.capabilities, this.protocolVersion, this.name);
  }
}
