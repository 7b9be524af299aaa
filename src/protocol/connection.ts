/**
 * `JsonRpcConnection`: request/response matching over a {@link Transport}.
 *
 * It owns the one pending-request map. Each record holds its due time, its progress callback and
 * its abort wiring, and exactly one code path (`settle`) removes a record and unhooks it. One
 * connection-wide timer fires at the earliest due time, so a request costs no timer of its own
 * and a progress reset is an assignment.
 * Timeout is not cancel: a timeout rejects with `TIMEOUT`, a caller's abort with `CANCELLED`;
 * either way the record is gone at once and `notifications/cancelled` is sent without waiting.
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
import { DeadlineTimer, now } from './deadline-timer.js';
import { errorMessage, McpError, SizeLimitError } from './errors.js';
import { unknownOptionError } from './option-keys.js';
import {
  classifyMessage,
  makeNotification,
  makeRequest,
  type Classified,
  type JsonRpcId,
  type JsonRpcMessage,
} from './jsonrpc.js';
import type { ClientNotifications, ClientRequestMethod, ParamsOf, ResultOf } from './methods.js';
import { InboundRequests, type InboundRequestHandler } from './inbound-requests.js';
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
export type { InboundRequestContext, InboundRequestHandler } from './inbound-requests.js';

interface PendingRecord {
  readonly id: number;
  readonly method: string;
  readonly resolve: (result: Record<string, unknown>) => void;
  readonly reject: (error: unknown) => void;
  readonly idleMs: number;
  readonly capMs: number;
  readonly deadline: number;
  readonly resetOnProgress: boolean;
  readonly onProgress: ((progress: ProgressParams) => void) | undefined;
  readonly cancelNotice: boolean;
  /** When the record expires (idle timeout or hard cap, whichever is first); Infinity = never. */
  due: number;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
  /** The request's send signal: present only when the connection gives each request one (`requestSignals`). */
  channel: SendSignal | undefined;
}

/**
 * A JSON-RPC 2.0 endpoint over one transport. Not reusable: once closed, every request rejects
 * with `CONNECTION_CLOSED`.
 */
export class JsonRpcConnection {
  readonly name: string;
  private readonly transport: Transport;
  private readonly defaultTimeoutMs: number;
  private readonly defaultMaxTotalMs: number;
  private readonly requestSignals: boolean;
  private cancelNotices: CancelNotices;
  private readonly pending = new Map<JsonRpcId, PendingRecord>();
  private readonly inbound: InboundRequests;
  private readonly notificationHandlers = new Map<string, Set<NotificationHandler>>();
  private readonly diagnosticListeners = new Set<(d: ConnectionDiagnostic) => void>();
  private readonly disposeTransport: Disposer[];
  private nextId = 1;
  /** The one timer of all pending records; unref'd while nothing is pending. */
  private readonly timer = new DeadlineTimer(() => this.sweep());
  private closeError: McpError | undefined;
  private closing: Promise<void> | undefined;
  /** Resolves once the underlying transport has closed; carries the reason. */
  readonly closed: Promise<CloseInfo>;

  constructor(transport: Transport, options: ConnectionOptions = {}) {
    this.transport = transport;
    this.name = options.name ?? 'server';
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.defaultMaxTotalMs = options.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS;
    this.cancelNotices = options.cancelNotices ?? 'send';
    this.requestSignals = options.requestSignals === true || this.cancelNotices === 'abort-only';
    this.inbound = new InboundRequests((message) => this.reply(message));
    this.disposeTransport = [
      transport.onMessage((value) => this.receive(value)),
      transport.onDiagnostic((d) => this.transportDiagnostic(d)),
    ];
    this.closed = transport.closed.then((info) => {
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

  /**
   * Sends a typed request and resolves with its result. Rejects with `TIMEOUT`, `CANCELLED`,
   * `CONNECTION_CLOSED`, `TRANSPORT`, or `SERVER_ERROR` (the peer's JSON-RPC error: `rpcCode`, `data`).
   */
  request<M extends ClientRequestMethod>(
    method: M,
    params: ParamsOf<M>,
    options?: RequestOptions,
  ): Promise<ResultOf<M>> {
    return this.requestRaw(method, params, options);
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

    const id = this.nextId++;
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
      this.pending.set(id, record);
      this.arm(record, Math.min(idleMs, capMs));
      if (signal) {
        record.onAbort = () => this.abandon(record, this.cancelledError(method, signal), 'cancelled by the client');
        signal.addEventListener('abort', record.onAbort, { once: true });
      }
      let sendOptions: SendOptions | undefined;
      if (this.requestSignals) {
        record.channel = new SendSignal();
        sendOptions = { signal: record.channel };
      }
      const sent = this.transport.send(makeRequest(id, method, outParams), sendOptions);
      if (sent) {
        sent.catch((error: unknown) => {
          if (this.pending.get(id) === record) this.settle(record, asTransportError(error, this.name, method));
        });
      }
    });
  }

  /** Sends a typed notification; rejects only when the transport cannot write it. */
  notify<M extends keyof ClientNotifications>(method: M, params: ClientNotifications[M]): Promise<void> {
    return this.notifyRaw(method, params);
  }

  /** Untyped {@link notify}. */
  notifyRaw(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.closeError) return Promise.reject(this.closedErrorFor(method));
    return Promise.resolve(this.transport.send(makeNotification(method, params)));
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
      this.shutdown(new McpError('CONNECTION_CLOSED', 'connection closed by the client', { server: this.name }));
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
        reason ? `connection destroyed: ${reason.reason}` : 'connection destroyed by the client',
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
      // JSON-RPC batch (2025-03-26): every element is handled as if it had arrived alone.
      if (value.length === 0) this.emitDiagnostic({ kind: 'invalid-message', message: 'received an empty batch' });
      for (const item of value) this.handle(item);
      return;
    }
    this.handle(value);
  }

  private handle(value: unknown): void {
    try {
      this.dispatch(classifyMessage(value));
    } catch (error) {
      this.emitDiagnostic({
        kind: 'invalid-message',
        message: `could not handle a message: ${describeError(error)}`,
        sample: sampleValue(value),
      });
    }
  }

  private dispatch(classified: Classified): void {
    switch (classified.kind) {
      case 'response': {
        const record = this.pending.get(classified.message.id);
        if (!record) return this.lateResponse(classified.message.id);
        return this.settle(record, undefined, classified.message.result);
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
        return this.settle(
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
        this.inbound.handle(classified.message);
        return;
      case 'invalid': {
        this.emitDiagnostic({
          kind: 'invalid-message',
          message: classified.reason,
          sample: sampleValue(classified.value),
        });
        // A response we were waiting for arrived malformed: fail that request now, not at its timeout.
        const record = classified.id === undefined ? undefined : this.pending.get(classified.id);
        if (record && !('method' in (classified.value as object))) {
          this.settle(
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
    if (method === 'notifications/progress' && params) this.progress(params as ProgressParams);
    else if (method === 'notifications/cancelled' && params) {
      const requestId = (params as { requestId?: JsonRpcId }).requestId;
      if (requestId !== undefined)
        this.inbound.cancel(requestId, new McpError('CANCELLED', 'cancelled by the server', { server: this.name }));
    }
    const exact = this.notificationHandlers.get(method);
    const any = this.notificationHandlers.get('*');
    if (exact) for (const handler of exact) safeCall(handler, params, method);
    if (any) for (const handler of any) safeCall(handler, params, method);
  }

  private progress(params: ProgressParams): void {
    const record = this.pending.get(params.progressToken);
    if (!record) return;
    if (record.resetOnProgress) this.arm(record, Math.min(record.idleMs, record.deadline - now()));
    if (record.onProgress) {
      try {
        record.onProgress(params);
      } catch {
        // A throwing progress callback must not break message dispatch.
      }
    }
  }

  private reply(message: JsonRpcMessage): void {
    if (this.closeError) return;
    this.transport.send(message)?.catch((error: unknown) => {
      this.emitDiagnostic({ kind: 'send-failed', message: `could not answer the server: ${String(error)}` });
    });
  }

  /** Passes a transport's diagnostic on; a dropped oversize message may end requests (below). */
  private transportDiagnostic(diagnostic: TransportDiagnostic): void {
    this.emitDiagnostic(diagnostic);
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
      this.settle(record, error);
      record.channel?.abort(error);
      return;
    }
    for (const record of [...this.pending.values()]) {
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

  // ---- pending records ----

  /** Sets a record to expire `ms` from now; the shared timer is re-armed only for a new earliest. */
  private arm(record: PendingRecord, ms: number): void {
    record.due = Number.isFinite(ms) ? now() + Math.max(0, ms) : Infinity;
    if (this.pending.size === 1) this.timer.ref();
    this.timer.atMost(record.due);
  }

  /** Expires every record that is due; returns the next due time. */
  private sweep(): number {
    const t = now() + 1; // timers may fire a hair early
    let next = Infinity;
    for (const record of [...this.pending.values()]) {
      if (record.due <= t) this.expire(record);
      else if (record.due < next) next = record.due;
    }
    return this.closeError ? Infinity : next;
  }

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
    this.settle(record, error);
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

  /**
   * The one place a record leaves the map: deletes it, unhooks its abort listener, and rejects
   * it with `error` or resolves it with `result`. Callers check first that the record is still
   * the pending one (a settled record is never settled twice).
   */
  private settle(record: PendingRecord, error: unknown, result?: Record<string, unknown>): void {
    this.pending.delete(record.id);
    // Nothing pending: the shared timer must not keep the process alive on its own.
    if (this.pending.size === 0) this.timer.unref();
    if (record.signal && record.onAbort) record.signal.removeEventListener('abort', record.onAbort);
    record.onAbort = undefined;
    if (error === undefined) record.resolve(result!);
    else record.reject(error);
  }

  private shutdown(error: McpError): void {
    if (this.closeError) return;
    this.closeError = error;
    for (const record of [...this.pending.values()]) {
      this.settle(record, this.closedErrorFor(record.method));
      record.channel?.abort(error);
    }
    this.timer.stop();
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

function withProgressToken(params: Record<string, unknown> | undefined, token: number): Record<string, unknown> {
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

/** An error's message for a diagnostic; a bounded sample of anything else (`String` may throw). */
function describeError(error: unknown): string {
  if (error instanceof Error) return error.message;
  return sampleValue(error);
}
