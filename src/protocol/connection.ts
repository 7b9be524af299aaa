/**
 * `JsonRpcConnection`: one JSON-RPC engine for both roles, over a {@link Transport}. The client
 * and every server session run on it; a role brings its method tables (`ClientRole`,
 * `ServerRole`) and its handlers, never a second pending map or dispatch loop.
 *
 * Outbound, it owns the one pending-request map (`pending-requests.ts`: one record per request,
 * one `settle`, one connection-wide timer, so a request costs no timer of its own).
 * Timeout is not cancel: a timeout rejects with `TIMEOUT`, a caller's abort with `CANCELLED`;
 * either way the record is gone at once and `notifications/cancelled` is sent without waiting.
 * Inbound, requests go to their handler or the role's router (`inbound-requests.ts`), and
 * `notifications/cancelled` from the peer aborts them; a batch's answers go back as one array.
 * What a transport needs to know about one message (the request's signal, extra headers, the
 * inbound request it serves) travels with that message's `send` ({@link SendOptions}).
 */
import {
  DEFAULT_MAX_TOTAL_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  REQUEST_OPTION_KEYS,
  type CancelNotices,
  type ConnectionDiagnostic,
  type ConnectionOptions,
  type NotificationHandler,
  type RequestOptions,
} from './connection-options.js';
import { now } from './deadline-timer.js';
import { PendingRequests, type PendingRecord } from './pending-requests.js';
import { errorMessage, McpError, SizeLimitError } from './errors.js';
import { unknownOptionError } from './option-keys.js';
import {
  classifyMessage,
  makeErrorResponse,
  makeNotification,
  makeRequest,
  RpcErrorCode,
  type Classified,
  type JsonRpcId,
  type JsonRpcMessage,
} from './jsonrpc.js';
import type { ClientRole, RequestParams, RequestResult, Role } from './methods.js';
import { BatchAnswers, InboundRequests, type InboundRequestHandler, type InboundRouter } from './inbound-requests.js';
import { peekMessageHead } from './message-head.js';
import { SendSignal } from './send-signal.js';
import type { CloseInfo, Disposer, SendOptions, Transport, TransportDiagnostic } from './transport.js';
import type { Meta, ProgressParams } from './types.js';
import { peerText, sampleValue } from './value-sample.js';
import { withMeta } from './with-meta.js';

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
  private readonly peer: 'client' | 'server';
  private readonly answerMalformed: boolean;
  private readonly transport: Transport;
  private readonly defaultTimeoutMs: number;
  private readonly defaultMaxTotalMs: number;
  private readonly requestSignals: boolean;
  private cancelNotices: CancelNotices;
  /** Our requests awaiting their answer: the one pending map, on one timer. */
  private readonly pending = new PendingRequests((record) => this.expire(record));
  private readonly inbound: InboundRequests;
  private readonly notificationHandlers = new Map<string, Set<NotificationHandler>>();
  private readonly inboundEndListeners = new Set<(id: JsonRpcId, method: string) => void>();
  private readonly diagnosticListeners = new Set<(d: ConnectionDiagnostic) => void>();
  private readonly disposeTransport: Disposer[];
  private nextId = 1;
  private readonly idPrefix: string | undefined;
  private readonly batchGate: ((items: readonly unknown[]) => string | undefined) | undefined;
  private closeError: McpError | undefined;
  private closing: Promise<void> | undefined;
  /** Resolves once the underlying transport has closed; carries the reason. */
  readonly closed: Promise<CloseInfo>;

  constructor(transport: Transport, options: ConnectionOptions = {}) {
    this.transport = transport;
    this.role = options.role ?? 'client';
    this.peer = this.role === 'client' ? 'server' : 'client';
    this.name = options.name ?? this.peer;
    this.answerMalformed = options.answerMalformed ?? false;
    this.idPrefix = options.idPrefix;
    this.batchGate = options.batchGate;
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.defaultMaxTotalMs = options.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS;
    this.cancelNotices = options.cancelNotices ?? 'send';
    this.requestSignals = options.requestSignals === true || this.cancelNotices === 'abort-only';
    this.inbound = new InboundRequests(
      {
        reply: (message) => this.reply(message),
        notify: (id, method, params) => this.sendQuietly(makeNotification(method, params), { relatedRequestId: id }),
        request: (id, method, params, signal) => this.requestRaw(method, params, { signal, relatedRequestId: id }),
        ended: (id, method) => this.inboundEnded(id, method),
      },
      options.inboundTimeoutMs,
      options.inboundDeadlines,
    );
    this.disposeTransport = [
      transport.onMessage((value) => this.receive(value)),
      transport.onDiagnostic((d) => this.transportDiagnostic(d)),
    ];
    this.closed = transport.closed.then((info) => {
      // Closed by close()/destroy() already: no second error to build (it costs a stack trace).
      if (this.closeError) return info;
      this.shutdown(
        new McpError(
          'CONNECTION_CLOSED',
          info.error ? `connection closed: ${info.error.message}` : 'connection closed',
          {
            server: this.name,
            cause: info.error,
          },
        ),
      );
      return info;
    });
  }

  /** Number of requests awaiting a response (for status displays and leak tests). */
  get pendingCount(): number {
    return this.pending.size;
  }

  /**
   * Changes how requests abandoned from now on are cancelled (the client learns the era only
   * after detection: 2026 Streamable HTTP cancels by closing the request's stream). `abort-only`
   * needs a connection built with `requestSignals`; without one it is refused (`INVALID_STATE`).
   */
  setCancelNotices(policy: CancelNotices): void {
    if (policy === 'abort-only' && !this.requestSignals) {
      throw new McpError(
        'INVALID_STATE',
        'cancel notices can be left to aborts only on a connection built with requestSignals',
        { server: this.name },
      );
    }
    this.cancelNotices = policy;
  }

  /** True once the connection is closed or closing. */
  get isClosed(): boolean {
    return this.closeError !== undefined;
  }

  /** Requests of the peer being handled now (answered or cancelled requests are not counted). */
  get inboundCount(): number {
    return this.inbound.size;
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
    return this.requestRaw(method, params as Record<string, unknown> | undefined, options) as Promise<
      RequestResult<R['requests'], M>
    >;
  }

  /** Untyped {@link request}, for methods outside the method table (extensions, experiments). */
  requestRaw(
    method: string,
    params?: Record<string, unknown>,
    options: RequestOptions = {},
  ): Promise<Record<string, unknown>> {
    if (this.closeError) return Promise.reject(this.closedErrorFor(method));
    const invalid = unknownOptionError(options, REQUEST_OPTION_KEYS, method);
    if (invalid) return Promise.reject(invalid);
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(this.cancelledError(method, signal));

    const id: JsonRpcId = this.idPrefix === undefined ? this.nextId++ : `${this.idPrefix}${this.nextId++}`;
    const wantsProgress = options.onProgress !== undefined || options.trackProgress === true;
    const outParams = wantsProgress ? withProgressToken(params, id) : params;
    const idleMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const capMs = options.maxTotalTimeoutMs ?? this.defaultMaxTotalMs;

    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const record: PendingRecord = {
        id,
        method,
        resolve,
        reject,
        idleMs,
        capMs,
        deadline: now() + capMs,
        resetOnProgress: options.resetTimeoutOnProgress ?? true,
        onProgress: options.onProgress,
        cancelNotice: options.sendCancelNotice ?? true,
        due: Infinity,
        signal,
        onAbort: undefined,
        channel: undefined,
      };
      this.pending.add(record, Math.min(idleMs, capMs));
      if (signal) {
        record.onAbort = () =>
          this.abandon(record, this.cancelledError(method, signal), `cancelled by the ${this.role}`);
        signal.addEventListener('abort', record.onAbort, { once: true });
      }
      let sendOptions: SendOptions | undefined;
      if (this.requestSignals) {
        record.channel = new SendSignal();
        sendOptions = { signal: record.channel };
      }
      if (options.headers !== undefined || options.relatedRequestId !== undefined) {
        sendOptions = { ...sendOptions };
        if (options.headers !== undefined) sendOptions.headers = options.headers;
        if (options.relatedRequestId !== undefined) sendOptions.relatedRequestId = options.relatedRequestId;
      }
      const sent = this.transport.send(makeRequest(id, method, outParams), sendOptions);
      if (sent) {
        sent.catch((error: unknown) => {
          if (this.pending.get(id) === record) this.pending.settle(record, asTransportError(error, this.name, method));
        });
      }
    });
  }

  /** Sends a typed notification; rejects only when the transport cannot write it. */
  notify<M extends keyof R['notifications'] & string>(method: M, params: R['notifications'][M]): Promise<void> {
    return this.notifyRaw(method, params as Record<string, unknown> | undefined);
  }

  /** Untyped {@link notify}. */
  notifyRaw(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.closeError) return Promise.reject(this.closedErrorFor(method));
    return Promise.resolve(this.transport.send(makeNotification(method, params)));
  }

  /**
   * Registers the router of every inbound request method without a handler of its own (a
   * server's one entry point; one router, a second replaces the first). Returns a disposer.
   */
  onAnyRequest(router: InboundRouter): Disposer {
    return this.inbound.route(router);
  }

  /**
   * Calls `listener` once for every inbound request, after its answer was sent, or withheld (the
   * peer cancelled it, the connection closed). Returns a disposer.
   */
  onInboundEnd(listener: (id: JsonRpcId, method: string) => void): Disposer {
    this.inboundEndListeners.add(listener);
    return () => {
      this.inboundEndListeners.delete(listener);
    };
  }

  /**
   * Cancels the inbound request `id` as a `notifications/cancelled` from the peer would (a
   * transport-level cancel: the HTTP response the answer was due on is gone). Its handler's
   * signal aborts with `reason`; no answer is sent. Unknown ids are ignored.
   */
  cancelInbound(id: JsonRpcId, reason: McpError): void {
    this.inbound.cancel(id, reason);
  }

  /**
   * The peer will send nothing more (stdio: it closed our input), so it will answer nothing: every
   * pending request rejects now with `CONNECTION_CLOSED`. Inbound requests in progress go on and
   * their answers are still sent; new requests of ours are still written (and will time out).
   */
  endOfInput(reason: string): void {
    for (const record of this.pending.all()) {
      this.pending.settle(
        record,
        new McpError('CONNECTION_CLOSED', `failed: ${reason}`, { server: this.name, method: record.method }),
      );
      record.channel?.abort(new McpError('CONNECTION_CLOSED', reason, { server: this.name }));
    }
  }

  /**
   * Registers the handler of an inbound request method (one per method; a second registration
   * replaces the first). Unhandled methods are answered with -32601. Returns a disposer.
   */
  onRequest(method: string, handler: InboundRequestHandler): Disposer {
    return this.inbound.register(method, handler);
  }

  /** Subscribes to an inbound notification method (`'*'` for all). Returns a disposer. */
  onNotification(method: string, handler: NotificationHandler): Disposer {
    let set = this.notificationHandlers.get(method);
    if (!set) this.notificationHandlers.set(method, (set = new Set()));
    set.add(handler);
    return () => {
      set.delete(handler);
    };
  }

  /** Subscribes to diagnostics (junk lines, invalid messages, late responses). Returns a disposer. */
  onDiagnostic(listener: (diagnostic: ConnectionDiagnostic) => void): Disposer {
    this.diagnosticListeners.add(listener);
    return () => {
      this.diagnosticListeners.delete(listener);
    };
  }

  /**
   * Closes the connection and its transport. Every pending request rejects at once with
   * `CONNECTION_CLOSED`. Idempotent: every call returns the same promise.
   */
  close(): Promise<void> {
    if (!this.closing) {
      this.shutdown(new McpError('CONNECTION_CLOSED', `connection closed by the ${this.role}`, { server: this.name }));
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
    );
    this.closing ??= this.transport.closed.then(() => undefined);
    this.transport.destroy(reason);
  }

  // ---- inbound ----

  /**
   * Runs inside the transport's event handler (a stdout 'data' callback, an SSE read), so it
   * never throws, whatever the peer sent: a failure to handle one message becomes a diagnostic.
   */
  private receive(value: unknown): void {
    if (Array.isArray(value)) {
      // JSON-RPC batch (2025-03-26): every element is handled as if it had arrived alone, and the
      // answers to its requests go back together, as one array.
      if (value.length === 0) {
        this.emitDiagnostic({ kind: 'invalid-message', message: 'received an empty batch' });
        if (this.answerMalformed)
          this.reply(makeErrorResponse(null, RpcErrorCode.InvalidRequest, 'Invalid Request: empty batch'));
        return;
      }
      const refusal = this.batchGate?.(value);
      if (refusal !== undefined) return this.reply(makeErrorResponse(null, RpcErrorCode.InvalidRequest, refusal));
      const batch = new BatchAnswers((answers) => this.reply(answers));
      for (const item of value) this.handle(item, batch);
      batch.sealed();
      return;
    }
    this.handle(value, undefined);
  }

  private handle(value: unknown, batch: BatchAnswers | undefined): void {
    try {
      this.dispatch(classifyMessage(value), batch);
    } catch (error) {
      this.emitDiagnostic({
        kind: 'invalid-message',
        message: `could not handle a message: ${describeError(error)}`,
        sample: sampleValue(value),
      });
    }
  }

  private dispatch(classified: Classified, batch: BatchAnswers | undefined): void {
    switch (classified.kind) {
      case 'response': {
        const record = this.pending.get(classified.message.id);
        if (!record) return this.lateResponse(classified.message.id);
        return this.pending.settle(record, undefined, classified.message.result);
      }
      case 'error': {
        const { id, error } = classified.message;
        const record = id === null ? undefined : this.pending.get(id);
        if (!record) {
          if (id === null) {
            this.emitDiagnostic({
              kind: 'invalid-message',
              message: `peer sent an error without an id: ${peerText(error.message)} (${error.code})`,
            });
            return;
          }
          return this.lateResponse(id);
        }
        // A peer can put megabytes in its message: ours quotes a bounded part, `rpcMessage` keeps it all.
        return this.pending.settle(
          record,
          new McpError('SERVER_ERROR', `failed: ${peerText(error.message)} (${error.code})`, {
            server: this.name,
            method: record.method,
            rpcCode: error.code,
            rpcMessage: error.message,
            data: error.data,
          }),
        );
      }
      case 'notification':
        return this.handleNotification(
          classified.message.method,
          classified.message.params as Record<string, unknown> | undefined,
        );
      case 'request':
        this.inbound.handle(classified.message, batch);
        return;
      case 'invalid': {
        this.emitDiagnostic({
          kind: 'invalid-message',
          message: classified.reason,
          sample: sampleValue(classified.value),
        });
        if (this.answerMalformed && !isResponseShaped(classified.value)) {
          const answer = makeErrorResponse(
            classified.id ?? null,
            RpcErrorCode.InvalidRequest,
            `Invalid Request: ${classified.reason}`,
          );
          if (batch) {
            batch.expect();
            batch.add(answer);
          } else this.reply(answer);
        }
        // A response we were waiting for arrived malformed: fail that request now, not at its timeout.
        const record = classified.id === undefined ? undefined : this.pending.get(classified.id);
        if (record && !('method' in (classified.value as object))) {
          this.pending.settle(
            record,
            new McpError('PROTOCOL', `got a malformed response: ${classified.reason}`, {
              server: this.name,
              method: record.method,
            }),
          );
        }
        return;
      }
    }
  }

  private handleNotification(method: string, params: Record<string, unknown> | undefined): void {
    if (method === 'notifications/progress' && params) this.pending.progress(params as ProgressParams);
    else if (method === 'notifications/cancelled' && params) {
      const requestId = (params as { requestId?: JsonRpcId }).requestId;
      if (requestId !== undefined)
        this.inbound.cancel(
          requestId,
          new McpError('CANCELLED', `cancelled by the ${this.peer}`, { server: this.name }),
        );
    }
    const exact = this.notificationHandlers.get(method);
    const any = this.notificationHandlers.get('*');
    if (exact) for (const handler of exact) safeCall(handler, params, method);
    if (any) for (const handler of any) safeCall(handler, params, method);
  }

  private reply(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (this.closeError) return;
    try {
      this.transport.send(message as JsonRpcMessage)?.catch((error: unknown) => {
        this.emitDiagnostic({ kind: 'send-failed', message: `could not answer the ${this.peer}: ${String(error)}` });
      });
    } catch (error) {
      // A transport must not throw from send; if one does, the answer is lost, not the connection.
      this.emitDiagnostic({ kind: 'send-failed', message: `could not answer the ${this.peer}: ${String(error)}` });
    }
  }

  /** Sends a notification of ours without a caller to tell (tied to an inbound request); never throws. */
  private sendQuietly(message: JsonRpcMessage, options: SendOptions): void {
    if (this.closeError) return;
    try {
      this.transport.send(message, options)?.catch(() => {
        // The peer went away; the transport's close ends the connection.
      });
    } catch {
      // A transport must not throw from send; if one does, the message is lost, not the connection.
    }
  }

  private inboundEnded(id: JsonRpcId, method: string): void {
    for (const listener of this.inboundEndListeners) {
      try {
        listener(id, method);
      } catch {
        // One listener's bug must not break the connection.
      }
    }
  }

  /**
   * Passes a transport's diagnostic on; a dropped oversize message may end requests (below). A
   * connection that answers malformed input tells the peer: -32700 for junk, -32600 for a message
   * too large (the id of either is unreadable: null).
   */
  private transportDiagnostic(diagnostic: TransportDiagnostic): void {
    this.emitDiagnostic(diagnostic);
    if (this.answerMalformed) {
      if (diagnostic.kind === 'invalid-json')
        this.reply(makeErrorResponse(null, RpcErrorCode.ParseError, 'Parse error'));
      else if (diagnostic.kind === 'oversize')
        this.reply(makeErrorResponse(null, RpcErrorCode.InvalidRequest, 'Invalid Request: message too large'));
    }
    if (diagnostic.kind === 'oversize' && diagnostic.head !== undefined)
      this.droppedOversize(diagnostic, diagnostic.head);
  }

  /**
   * A message over the transport's size cap was dropped on a channel all requests share, and the
   * transport gave us its head. A response whose id is in the head fails that request now with
   * `TRANSPORT` (its answer will not come; it is not re-sent: the same answer would be dropped
   * again). A response whose id the head does not hold (it comes after the payload) fails every
   * request pending now: one of them lost its answer and none can be told from the others, and
   * each would otherwise wait out its timeout; they are abandoned (with cancel notices) as on a
   * timeout. A request or notification of the peer, and anything the head does not show to be a
   * response (junk, a batch), fail nothing: they are only the diagnostic. The error is a
   * {@link SizeLimitError} when the diagnostic names the limit (a plain `TRANSPORT` otherwise).
   */
  private droppedOversize(diagnostic: TransportDiagnostic, head: string): void {
    const what = diagnostic.message;
    const oversize = (reason: string, method: string): McpError =>
      diagnostic.limit === undefined
        ? new McpError('TRANSPORT', reason, { server: this.name, method })
        : new SizeLimitError(reason, {
            server: this.name,
            method,
            limit: diagnostic.limit,
            ...(diagnostic.size !== undefined ? { size: diagnostic.size } : {}),
          });
    const peeked = peekMessageHead(head);
    if (peeked.kind !== 'response') return;
    if (peeked.id !== undefined) {
      const record = peeked.id === null ? undefined : this.pending.get(peeked.id);
      if (!record) return; // already settled (timed out, cancelled), or an error tied to no request
      const error = oversize(`failed: its response was not read (${what})`, record.method);
      this.pending.settle(record, error);
      record.channel?.abort(error);
      return;
    }
    for (const record of this.pending.all()) {
      const error = oversize(
        `failed: a response that could not be tied to one request was not read, and it may have been this request's (${what})`,
        record.method,
      );
      this.abandon(record, error, 'its response may have been lost (a message over the size limit was dropped)');
    }
  }

  private lateResponse(id: JsonRpcId): void {
    // Timed out, cancelled, or never sent: the spec says ignore it.
    this.emitDiagnostic({
      kind: 'late-response',
      message: `ignored a response for unknown or finished request id ${sampleValue(id)}`,
    });
  }

  // ---- giving up on a request ----

  private expire(record: PendingRecord): void {
    if (this.pending.get(record.id) !== record) return;
    // The timer fires at min(idle, time left before the cap): whichever is due decides the message.
    const hitCap = record.capMs <= record.idleMs || now() >= record.deadline - 1;
    const text = hitCap
      ? `exceeded its total timeout of ${record.capMs} ms`
      : `timed out after ${record.idleMs} ms without a response`;
    const error = new McpError('TIMEOUT', text, { server: this.name, method: record.method });
    this.abandon(record, error, text);
  }

  /** Removes a record the client gave up on, rejects it, and tells the server (not awaited). */
  private abandon(record: PendingRecord, error: McpError, reason: string): void {
    if (this.pending.get(record.id) !== record) return;
    this.pending.settle(record, error);
    if (record.channel) {
      record.channel.abort(error);
      // Closing the request's own stream is the whole cancellation there (2026 HTTP).
      if (this.cancelNotices === 'abort-only') return;
    }
    // The spec forbids cancelling `initialize`.
    if (record.method === 'initialize' || !record.cancelNotice || this.closeError) return;
    this.transport.send(makeNotification('notifications/cancelled', { requestId: record.id, reason }))?.catch(() => {
      // Best effort: the connection may be going down.
    });
  }

  private shutdown(error: McpError): void {
    if (this.closeError) return;
    this.closeError = error;
    for (const record of this.pending.all()) {
      this.pending.settle(record, this.closedErrorFor(record.method));
      record.channel?.abort(error);
    }
    this.pending.stop();
    this.inbound.abortAll(error);
    for (const dispose of this.disposeTransport) dispose();
  }

  private closedErrorFor(method: string): McpError {
    const cause = this.closeError;
    const detail = cause ? cause.reason : 'connection closed';
    return new McpError('CONNECTION_CLOSED', `failed: ${detail}`, { server: this.name, method, cause });
  }

  private cancelledError(method: string, signal: AbortSignal): McpError {
    return new McpError('CANCELLED', 'was cancelled by the caller', {
      server: this.name,
      method,
      cause: signal.reason,
    });
  }

  private emitDiagnostic(diagnostic: ConnectionDiagnostic): void {
    for (const listener of this.diagnosticListeners) {
      try {
        listener(diagnostic);
      } catch {
        // Diagnostics are advisory; a throwing listener must not break the connection.
      }
    }
  }
}

function withProgressToken(params: Record<string, unknown> | undefined, token: JsonRpcId): Record<string, unknown> {
  const meta = params?._meta as Meta | undefined;
  return withMeta(params, meta === undefined ? { progressToken: token } : { ...meta, progressToken: token });
}

function safeCall(handler: NotificationHandler, params: Record<string, unknown> | undefined, method: string): void {
  try {
    handler(params, method);
  } catch {
    // One subscriber's bug must not starve the others.
  }
}

function asTransportError(error: unknown, server: string, method: string): McpError {
  if (error instanceof McpError) {
    if (error.method !== undefined) return error;
    return new McpError(error.code, `failed: ${error.reason}`, { server, method, cause: error });
  }
  return new McpError('TRANSPORT', `could not be sent: ${errorMessage(error)}`, { server, method, cause: error });
}

/** True for a message that looks like an answer (`result` or `error`): a malformed answer is not answered. */
function isResponseShaped(value: unknown): boolean {
  return typeof value === 'object' && value !== null && ('result' in value || 'error' in value);
}

/** An error's message for a diagnostic; a bounded sample of anything else (`String` may throw). */
function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return sampleValue(error);
}
