/**
 * The receive path of a connection: everything the peer sends, for either role. The transport
 * hands each parsed message (or batch) to {@link InboundMessages.receive}, which classifies it
 * once (`classifyMessage`) and routes it: a response or error response settles our request in
 * the outbound side's pending map (`outbound-requests.ts`), a late one is a diagnostic; a
 * request goes to {@link InboundRequests} (its handler or the role's router); a notification to
 * its subscribers, after the engine's own (`notifications/progress` for our requests,
 * `notifications/cancelled` for the peer's). A batch's answers go back as one array. Malformed
 * input is a diagnostic, and on a connection that answers it (a server), the JSON-RPC error the
 * spec gives: -32700 for junk, -32600 for an invalid message, an empty or refused batch, a message
 * too large.
 *
 * Where a request of the peer starts: {@link InboundRequests.handle}; where it ends:
 * `InboundRequests` `ended` (answered, withheld, cancelled, timed out or closed). Where a request
 * of ours ends when its answer arrives: the `response` and `error` cases of `dispatch` (settled
 * by `PendingRequests.settle`).
 */
import type { ConnectionDiagnostic, ConnectionOptions, NotificationHandler } from './connection-options.js';
import type { EngineTracing } from './engine-tracing.js';
import { McpError } from './errors.js';
import { BatchAnswers, InboundRequests } from './inbound-requests.js';
import {
  classifyMessage,
  makeErrorResponse,
  RpcErrorCode,
  type Classified,
  type JsonRpcId,
  type JsonRpcMessage,
} from './jsonrpc.js';
import type { OutboundRequests } from './outbound-requests.js';
import type { PendingRequests } from './pending-requests.js';
import type { Disposer, Transport, TransportDiagnostic } from './transport.js';
import type { ProgressParams } from './types.js';
import { peerText, sampleValue } from './value-sample.js';

/** What a connection receives: classification, routing, batches, notifications, diagnostics, answers. */
export class InboundMessages {
  /** The requests of the peer being handled now. */
  readonly requests: InboundRequests;
  private readonly pending: PendingRequests;
  private readonly answerMalformed: boolean;
  private readonly batchGate: ((items: readonly unknown[]) => string | undefined) | undefined;
  private readonly notificationHandlers = new Map<string, Set<NotificationHandler>>();
  private readonly diagnosticListeners = new Set<(d: ConnectionDiagnostic) => void>();
  private readonly tracing: EngineTracing | undefined;

  /**
   * `name`: the peer's display name (every error names it); `peer`: its role, how its actions are
   * worded. Requests of the peer send their notifications and requests through `outbound`.
   */
  constructor(
    private readonly transport: Transport,
    private readonly name: string,
    private readonly peer: 'client' | 'server',
    private readonly outbound: OutboundRequests,
    options: ConnectionOptions,
  ) {
    this.pending = outbound.pending;
    this.answerMalformed = options.answerMalformed ?? false;
    this.batchGate = options.batchGate;
    this.requests = new InboundRequests(
      {
        reply: (message) => this.reply(message),
        notify: (id, method, params) => outbound.notifyQuietly(id, method, params),
        request: (id, method, params, signal) => outbound.request(method, params, { signal, relatedRequestId: id }),
      },
      options.inboundTimeoutMs,
      options.inboundDeadlines,
      options.tracing,
    );
    this.tracing = options.tracing;
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
   * Runs inside the transport's event handler (a stdout 'data' callback, an SSE read), so it
   * never throws, whatever the peer sent: a failure to handle one message becomes a diagnostic.
   */
  receive(value: unknown): void {
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

  /**
   * Passes a transport's diagnostic on; a dropped oversize message may end requests of ours
   * ({@link OutboundRequests.droppedOversize}). A connection that answers malformed input tells
   * the peer: -32700 for junk, -32600 for a message too large (the id of either is unreadable: null).
   */
  transportDiagnostic(diagnostic: TransportDiagnostic): void {
    this.emitDiagnostic(diagnostic);
    if (this.answerMalformed) {
      if (diagnostic.kind === 'invalid-json')
        this.reply(makeErrorResponse(null, RpcErrorCode.ParseError, 'Parse error'));
      else if (diagnostic.kind === 'oversize')
        this.reply(makeErrorResponse(null, RpcErrorCode.InvalidRequest, 'Invalid Request: message too large'));
    }
    if (diagnostic.kind === 'oversize' && diagnostic.head !== undefined)
      this.outbound.droppedOversize(diagnostic, diagnostic.head);
  }

  /** Sends an answer (one message, or a batch's answers as one array); never throws. Nothing once closed. */
  reply(message: JsonRpcMessage | JsonRpcMessage[]): void {
    if (this.outbound.closeError) return;
    try {
      this.transport.send(message as JsonRpcMessage)?.catch((error: unknown) => {
        this.emitDiagnostic({ kind: 'send-failed', message: `could not answer the ${this.peer}: ${String(error)}` });
      });
    } catch (error) {
      // A transport must not throw from send; if one does, the answer is lost, not the connection.
      this.emitDiagnostic({ kind: 'send-failed', message: `could not answer the ${this.peer}: ${String(error)}` });
    }
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
        this.requests.handle(classified.message, batch);
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
    const trace = this.tracing?.handlingNotification(method, params);
    if (!trace) return this.dispatchNotification(method, params);
    trace.run(() => this.dispatchNotification(method, params));
    trace.ended(undefined, undefined);
  }

  private dispatchNotification(method: string, params: Record<string, unknown> | undefined): void {
    if (method === 'notifications/progress' && params) this.pending.progress(params as ProgressParams);
    else if (method === 'notifications/cancelled' && params) {
      const requestId = (params as { requestId?: JsonRpcId }).requestId;
      if (requestId !== undefined)
        this.requests.cancel(
          requestId,
          new McpError('CANCELLED', `cancelled by the ${this.peer}`, { server: this.name }),
        );
    }
    const exact = this.notificationHandlers.get(method);
    const any = this.notificationHandlers.get('*');
    if (exact) for (const handler of exact) safeCall(handler, params, method);
    if (any) for (const handler of any) safeCall(handler, params, method);
  }

  private lateResponse(id: JsonRpcId): void {
    // Timed out, cancelled, or never sent: the spec says ignore it.
    this.emitDiagnostic({
      kind: 'late-response',
      message: `ignored a response for unknown or finished request id ${sampleValue(id)}`,
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

function safeCall(handler: NotificationHandler, params: Record<string, unknown> | undefined, method: string): void {
  try {
    handler(params, method);
  } catch {
    // One subscriber's bug must not starve the others.
  }
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
