/**
 * `JsonRpcConnection`: one JSON-RPC engine for both roles, over a {@link Transport}. The client
 * and every server session run on it; a role brings its method tables (`ClientRole`,
 * `ServerRole`) and its handlers, never a second pending map or dispatch loop.
 *
 * This file is the facade and the lifecycle (wiring, close, destroy, the transport's end); the
 * engine's two sides are kept apart, each in its own files:
 * - outbound (`outbound-requests.ts`, `pending-requests.ts`): what we send — ids, the one pending
 *   map on one timer, timeouts, progress, cancel notices. A request of ours starts in
 *   `OutboundRequests.request` and ends in `PendingRequests.settle`.
 * - inbound (`inbound-messages.ts`, `inbound-requests.ts`): what the peer sends — the receive
 *   path (classify once, route responses to the pending map, notifications, batches, malformed
 *   input), and the peer's requests (handlers, the role's router, the inbound time limit, cancel
 *   by the peer). A request of the peer starts in `InboundRequests.handle` and ends in its `ended`.
 *
 * Timeout is not cancel: a timeout rejects with `TIMEOUT`, a caller's abort with `CANCELLED`;
 * either way the record is gone at once and `notifications/cancelled` is sent without waiting.
 * What a transport needs to know about one message (the request's signal, extra headers, the
 * inbound request it serves) travels with that message's `send` (`SendOptions` in `transport.ts`).
 */
import type {
  CancelNotices,
  ConnectionDiagnostic,
  ConnectionOptions,
  NotificationHandler,
  RequestOptions,
} from './connection-options.js';
import type { SessionTrace } from './engine-tracing.js';
import { McpError } from './errors.js';
import { InboundMessages } from './inbound-messages.js';
import type { InboundRequestHandler, InboundRouter } from './inbound-requests.js';
import type { JsonRpcId } from './jsonrpc.js';
import type { ClientRole, RequestParams, RequestResult, Role } from './methods.js';
import { OutboundRequests } from './outbound-requests.js';
import type { CloseInfo, Disposer, Transport } from './transport.js';

export { DEFAULT_MAX_TOTAL_TIMEOUT_MS, DEFAULT_REQUEST_TIMEOUT_MS } from './connection-options.js';
export type {
  CancelNotices,
  ConnectionDiagnostic,
  ConnectionOptions,
  NotificationHandler,
  RequestOptions,
} from './connection-options.js';
export type { InboundRequestContext, InboundRequestHandler, InboundRouter } from './inbound-requests.js';

/**
 * A JSON-RPC 2.0 endpoint over one transport, typed by the role it plays (`R`: what it sends and
 * receives; the client's by default). Not reusable: once closed, every request rejects with
 * `CONNECTION_CLOSED`.
 */
export class JsonRpcConnection<R extends Role = ClientRole> {
  /** The peer's display name, used in every error message. */
  readonly name: string;
  /** Which side this end is (`client` or `server`): how its own and the peer's actions are worded. */
  readonly role: 'client' | 'server';
  private readonly transport: Transport;
  /** What we send: our requests (the one pending map, on one timer) and notifications. */
  private readonly outbound: OutboundRequests;
  /** What the peer sends: the receive path, and its requests being handled. */
  private readonly inbound: InboundMessages;
  private readonly disposeTransport: Disposer[];
  private closing: Promise<void> | undefined;
  /** Its observers' trace of the connection's life, when anyone listens. */
  private readonly sessionTrace: SessionTrace | undefined;
  /** Resolves once the underlying transport has closed; carries the reason. */
  readonly closed: Promise<CloseInfo>;

  constructor(transport: Transport, options: ConnectionOptions = {}) {
    this.transport = transport;
    this.role = options.role ?? 'client';
    const peer = this.role === 'client' ? 'server' : 'client';
    this.name = options.name ?? peer;
    const outbound = (this.outbound = new OutboundRequests(transport, this.name, this.role, options));
    const inbound = (this.inbound = new InboundMessages(transport, this.name, peer, outbound, options));
    this.disposeTransport = [
      transport.onMessage((value) => inbound.receive(value)),
      transport.onDiagnostic((d) => inbound.transportDiagnostic(d)),
    ];
    this.sessionTrace = options.tracing?.opened();
    this.closed = transport.closed.then((info) => {
      // Closed by close()/destroy() already: no second error to build (it costs a stack trace).
      if (outbound.closeError) return info;
      this.shutdown(
        new McpError(
          'CONNECTION_CLOSED',
          info.error ? `connection closed: ${info.error.message}` : 'connection closed',
          {
            server: this.name,
            cause: info.error,
          },
        ),
        info.error !== undefined,
      );
      return info;
    });
  }

  /** Number of requests awaiting a response (for status displays and leak tests). */
  get pendingCount(): number {
    return this.outbound.pending.size;
  }

  /**
   * Changes how requests abandoned from now on are cancelled (the client learns the era only
   * after detection: 2026 Streamable HTTP cancels by closing the request's stream). `abort-only`
   * needs a connection built with `requestSignals`; without one it is refused (`INVALID_STATE`).
   */
  setCancelNotices(policy: CancelNotices): void {
    this.outbound.setCancelNotices(policy);
  }

  /** True once the connection is closed or closing. */
  get isClosed(): boolean {
    return this.outbound.closeError !== undefined;
  }

  /** Requests of the peer being handled now (answered or cancelled requests are not counted). */
  get inboundCount(): number {
    return this.inbound.requests.size;
  }

  /**
   * Sends a typed request and resolves with its result. Rejects with `TIMEOUT`, `CANCELLED`,
   * `CONNECTION_CLOSED`, `TRANSPORT`, or `SERVER_ERROR` (the peer's JSON-RPC error: `rpcCode`, `data`).
   */
  request<M extends keyof R['requests'] & string>(
    method: M,
    params: RequestParams<R['requests'], M>,
    options?: RequestOptions,
  ): Promise<RequestResult<R['requests'], M>> {
    return this.outbound.request(method, params as Record<string, unknown> | undefined, options) as Promise<
      RequestResult<R['requests'], M>
    >;
  }

  /** Untyped {@link request}, for methods outside the method table (extensions, experiments). */
  requestRaw(
    method: string,
    params?: Record<string, unknown>,
    options?: RequestOptions,
  ): Promise<Record<string, unknown>> {
    return this.outbound.request(method, params, options);
  }

  /** Sends a typed notification; rejects only when the transport cannot write it. */
  notify<M extends keyof R['notifications'] & string>(method: M, params: R['notifications'][M]): Promise<void> {
    return this.outbound.notify(method, params as Record<string, unknown> | undefined);
  }

  /** Untyped {@link notify}. */
  notifyRaw(method: string, params?: Record<string, unknown>): Promise<void> {
    return this.outbound.notify(method, params);
  }

  /**
   * Registers the router of every inbound request method without a handler of its own (a
   * server's one entry point; one router, a second replaces the first). Returns a disposer.
   */
  onAnyRequest(router: InboundRouter): Disposer {
    return this.inbound.requests.route(router);
  }

  /**
   * Calls `listener` once for every inbound request, after its answer was sent, or withheld (the
   * peer cancelled it, the connection closed). Returns a disposer.
   */
  onInboundEnd(listener: (id: JsonRpcId, method: string) => void): Disposer {
    return this.inbound.requests.onEnd(listener);
  }

  /**
   * Cancels the inbound request `id` as a `notifications/cancelled` from the peer would (a
   * transport-level cancel: the HTTP response the answer was due on is gone). Its handler's
   * signal aborts with `reason`; no answer is sent. Unknown ids are ignored.
   */
  cancelInbound(id: JsonRpcId, reason: McpError): void {
    this.inbound.requests.cancel(id, reason);
  }

  /**
   * The peer will send nothing more (stdio: it closed our input), so it will answer nothing: every
   * pending request rejects now with `CONNECTION_CLOSED`. Inbound requests in progress go on and
   * their answers are still sent; new requests of ours are still written (and will time out).
   */
  endOfInput(reason: string): void {
    this.outbound.endOfInput(reason);
  }

  /**
   * Registers the handler of an inbound request method (one per method; a second registration
   * replaces the first). Unhandled methods are answered with -32601. Returns a disposer.
   */
  onRequest(method: string, handler: InboundRequestHandler): Disposer {
    return this.inbound.requests.register(method, handler);
  }

  /** Subscribes to an inbound notification method (`'*'` for all). Returns a disposer. */
  onNotification(method: string, handler: NotificationHandler): Disposer {
    return this.inbound.onNotification(method, handler);
  }

  /** Subscribes to diagnostics (junk lines, invalid messages, late responses). Returns a disposer. */
  onDiagnostic(listener: (diagnostic: ConnectionDiagnostic) => void): Disposer {
    return this.inbound.onDiagnostic(listener);
  }

  /**
   * Closes the connection and its transport. Every pending request rejects at once with
   * `CONNECTION_CLOSED`. Idempotent: every call returns the same promise.
   */
  close(): Promise<void> {
    if (!this.closing) {
      this.shutdown(
        new McpError('CONNECTION_CLOSED', `connection closed by the ${this.role}`, { server: this.name }),
        false,
      );
      this.closing = this.transport.close().then(() => undefined);
    }
    return this.closing;
  }

  /**
   * Ends the connection now: every pending request rejects with `CONNECTION_CLOSED` (`cause`:
   * `reason`), and the transport is destroyed (no goodbye: no stdin EOF wait, no session DELETE).
   * Synchronous; harmless after close() or a previous destroy().
   */
  destroy(reason?: McpError): void {
    this.shutdown(
      new McpError(
        'CONNECTION_CLOSED',
        reason ? `connection destroyed: ${reason.reason}` : `connection destroyed by the ${this.role}`,
        { server: this.name, cause: reason },
      ),
      // Ending the connection is a failure only for a reason other than a close (an idle or ended session).
      reason !== undefined && reason.code !== 'CONNECTION_CLOSED',
    );
    this.closing ??= this.transport.closed.then(() => undefined);
    this.transport.destroy(reason);
  }

  /**
   * Once, whatever ends the connection: our requests reject (and nothing more is sent or answered
   * from then on), the peer's requests in progress abort, the transport's callbacks are let go.
   * `failed`: the end is a failure (the transport broke, a destroy with a reason), not a close.
   */
  private shutdown(error: McpError, failed: boolean): void {
    if (this.outbound.closeError) return;
    this.outbound.close(error);
    this.inbound.requests.abortAll(error);
    for (const dispose of this.disposeTransport) dispose();
    this.sessionTrace?.ended(failed ? error : undefined);
  }
}
