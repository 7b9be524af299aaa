/**
 * The outbound side of a connection: requests and notifications we send the peer, for either role
 * (the client's calls; a server session's sampling, elicitation and roots requests). It assigns
 * ids, puts one record per request in the one pending map ({@link PendingRequests}: one timer for
 * all, a progress reset is an assignment), and gives up on a request: a timeout rejects with
 * `TIMEOUT`, a caller's abort with `CANCELLED`, a response lost to the transport's size cap with
 * `TRANSPORT`; either way the record is gone at once and `notifications/cancelled` is sent without
 * waiting (or the request's send signal aborts, when that is the whole cancellation).
 *
 * Where a request of ours starts: {@link OutboundRequests.request} (its id, its record, its
 * `send`). Where it ends, on every path (response, error, timeout, cancel, close):
 * {@link PendingRequests.settle}. Answers arrive through the receive path (`inbound-messages.ts`),
 * which settles records in this side's {@link OutboundRequests.pending} map.
 */
import {
  DEFAULT_MAX_TOTAL_TIMEOUT_MS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  REQUEST_OPTION_KEYS,
  type CancelNotices,
  type ConnectionOptions,
  type RequestOptions,
} from './connection-options.js';
import { now } from './deadline-timer.js';
import type { EngineTracing } from './engine-tracing.js';
import { errorMessage, McpError, SizeLimitError } from './errors.js';
import { makeNotification, makeRequest, type JsonRpcId } from './jsonrpc.js';
import { peekMessageHead } from './message-head.js';
import { unknownOptionError } from './option-keys.js';
import { PendingRequests, type PendingRecord } from './pending-requests.js';
import { SendSignal } from './send-signal.js';
import type { SendOptions, Transport, TransportDiagnostic } from './transport.js';
import type { Meta } from './types.js';
import { withMeta } from './with-meta.js';

/** What a connection sends: its requests (the pending map, timeouts, cancel) and notifications. */
export class OutboundRequests {
  /** Our requests awaiting their answer: the one pending map, on one timer. */
  readonly pending = new PendingRequests((record) => this.expire(record));
  /** Why the connection closed, once it has ({@link close}): every request from then on rejects with it. */
  closeError: McpError | undefined;
  private readonly defaultTimeoutMs: number;
  private readonly defaultMaxTotalMs: number;
  private readonly requestSignals: boolean;
  private readonly idPrefix: string | undefined;
  private cancelNotices: CancelNotices;
  private readonly tracing: EngineTracing | undefined;
  private nextId = 1;

  /** `name`: the peer's display name (every error names it); `role`: ours, how our actions are worded. */
  constructor(
    private readonly transport: Transport,
    private readonly name: string,
    private readonly role: 'client' | 'server',
    options: ConnectionOptions,
  ) {
    this.idPrefix = options.idPrefix;
    this.defaultTimeoutMs = options.defaultTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
    this.defaultMaxTotalMs = options.maxTotalTimeoutMs ?? DEFAULT_MAX_TOTAL_TIMEOUT_MS;
    this.cancelNotices = options.cancelNotices ?? 'send';
    this.tracing = options.tracing;
    this.requestSignals = options.requestSignals === true || this.cancelNotices === 'abort-only';
  }

  /** Changes how requests abandoned from now on are cancelled; `abort-only` needs `requestSignals`. */
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

  /**
   * Sends a request and resolves with its result: the one place a request of ours starts. Rejects
   * with `TIMEOUT`, `CANCELLED`, `CONNECTION_CLOSED`, `TRANSPORT`, or `SERVER_ERROR`.
   */
  request(
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
    const trace = this.tracing?.sendingRequest(method, id, outParams);
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
        trace,
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
      // Traced: the params are read once `start` ran (its subscribers add what they propagate).
      const sent = trace
        ? trace.run(() => this.transport.send(makeRequest(id, method, trace.params), sendOptions))
        : this.transport.send(makeRequest(id, method, outParams), sendOptions);
      if (sent) {
        sent.catch((error: unknown) => {
          if (this.pending.get(id) === record) this.pending.settle(record, asTransportError(error, this.name, method));
        });
      }
    });
  }

  /** Sends a notification; rejects only when the transport cannot write it (or the connection closed). */
  notify(method: string, params?: Record<string, unknown>): Promise<void> {
    if (this.closeError) return Promise.reject(this.closedErrorFor(method));
    return Promise.resolve(this.sendNotification(method, params, undefined));
  }

  /** Sends a notification tied to the peer's request `id`, with no caller to tell; never throws. */
  notifyQuietly(id: JsonRpcId, method: string, params: Record<string, unknown> | undefined): void {
    if (this.closeError) return;
    try {
      this.sendNotification(method, params, { relatedRequestId: id })?.catch(() => {
        // The peer went away; the transport's close ends the connection.
      });
    } catch {
      // A transport must not throw from send; if one does, the message is lost, not the connection.
    }
  }

  /** The one place a notification of ours goes out (traced when anyone listens). */
  private sendNotification(
    method: string,
    params: Record<string, unknown> | undefined,
    options: SendOptions | undefined,
  ): Promise<void> | void {
    const trace = this.tracing?.sendingNotification(method, params);
    if (!trace) return this.transport.send(makeNotification(method, params), options);
    let sent: Promise<void> | void;
    try {
      sent = trace.run(() => this.transport.send(makeNotification(method, trace.params), options));
    } catch (error) {
      trace.settled(undefined, error);
      throw error;
    }
    if (!sent) {
      trace.settled(undefined, undefined);
      return undefined;
    }
    return sent.then(
      () => trace.settled(undefined, undefined),
      (error: unknown) => {
        trace.settled(undefined, error);
        throw error;
      },
    );
  }

  /** The peer will answer nothing more: every pending request rejects now with `CONNECTION_CLOSED`. */
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
  droppedOversize(diagnostic: TransportDiagnostic, head: string): void {
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

  /**
   * The connection is going down with `error`: from now on every request and notification
   * rejects; every pending request rejects now with `CONNECTION_CLOSED` and the timer stops.
   */
  close(error: McpError): void {
    this.closeError = error;
    for (const record of this.pending.all()) {
      this.pending.settle(record, this.closedErrorFor(record.method));
      record.channel?.abort(error);
    }
    this.pending.stop();
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

  /** Removes a record we gave up on, rejects it, and tells the peer (not awaited). */
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
    this.sendNotification('notifications/cancelled', { requestId: record.id, reason }, undefined)?.catch(() => {
      // Best effort: the connection may be going down.
    });
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
}

function withProgressToken(params: Record<string, unknown> | undefined, token: JsonRpcId): Record<string, unknown> {
  const meta = params?._meta as Meta | undefined;
  return withMeta(params, meta === undefined ? { progressToken: token } : { ...meta, progressToken: token });
}

function asTransportError(error: unknown, server: string, method: string): McpError {
  if (error instanceof McpError) {
    if (error.method !== undefined) return error;
    return new McpError(error.code, `failed: ${error.reason}`, { server, method, cause: error });
  }
  return new McpError('TRANSPORT', `could not be sent: ${errorMessage(error)}`, { server, method, cause: error });
}
