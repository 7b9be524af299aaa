/**
 * Requests the peer sends us, for either role: the client's server→client requests (sampling,
 * elicitation, roots) and every request a server session serves. One record per request in
 * progress, its answer sent back — or not, when the peer cancelled the request first (the spec:
 * the receiver should not respond). Kept apart from the outbound pending map on purpose.
 *
 * A request is handled by the handler of its method, else by the router (a server's one entry
 * for every method), else answered -32601. A record's AbortController is made only when its
 * signal is read, and its time limit (if the connection has one) rides on one shared
 * {@link DeadlineSet}: a request costs no timer and, unless its handler looks, no controller.
 *
 * Where a request of the peer starts: {@link InboundRequests.handle} (its record, its handler or
 * router called). Where it ends, on every path (answered, withheld once cancelled, timed out, the
 * connection closed): `ended`, which calls the {@link InboundRequests.onEnd} listeners. Messages
 * reach `handle` through the receive path (`inbound-messages.ts`), which also builds the
 * {@link BatchAnswers} of a batch.
 */
import { DeadlineSet, type Deadline } from './deadline-set.js';
import type { EngineTracing, InboundTrace } from './engine-tracing.js';
import { errorMessage, McpError } from './errors.js';
import {
  makeErrorResponse,
  makeResponse,
  RpcErrorCode,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from './jsonrpc.js';
import type { Disposer } from './transport.js';

/** Context given to a handler of an inbound request. */
export interface InboundRequestContext {
  /** The request's id. */
  readonly id: JsonRpcId;
  /** The request's method. */
  readonly method: string;
  /** Aborted when the peer cancels the request, its time limit passes, or the connection closes. */
  readonly signal: AbortSignal;
  /**
   * Sends a notification tied to this request (a transport with a channel per request sends it
   * there: an HTTP POST's stream). Dropped once the request is cancelled or answered. Never throws.
   */
  notify(method: string, params?: Record<string, unknown>): void;
  /**
   * Sends a request to the peer tied to this one (sampling, elicitation, roots) and resolves with
   * its result; cancelled with this request. Rejects as the connection's `request` does.
   */
  request(method: string, params: Record<string, unknown> | undefined): Promise<Record<string, unknown>>;
}

/** Handles one inbound request; resolves to the result object or rejects (→ JSON-RPC error). */
export type InboundRequestHandler = (
  params: Record<string, unknown> | undefined,
  context: InboundRequestContext,
) => Promise<Record<string, unknown>> | Record<string, unknown>;

/**
 * Answers any inbound request no handler is registered for, with the whole answer (a response or
 * an error response for the request's id). A server's router. Must not reject.
 */
export type InboundRouter = (
  request: JsonRpcRequest,
  context: InboundRequestContext,
) => Promise<JsonRpcMessage> | JsonRpcMessage;

/** What the inbound side needs of its connection. */
export interface InboundHost {
  /** Sends an answer (one message, or a batch's answers as one array); never throws. */
  reply(message: JsonRpcMessage | JsonRpcMessage[]): void;
  /** Sends a notification tied to request `id`; never throws. */
  notify(id: JsonRpcId, method: string, params: Record<string, unknown> | undefined): void;
  /** Sends a request tied to request `id`, aborted with `signal`. */
  request(
    id: JsonRpcId,
    method: string,
    params: Record<string, unknown> | undefined,
    signal: AbortSignal,
  ): Promise<Record<string, unknown>>;
}

/** The answers of one JSON-RPC batch, sent together once every request in it is answered. */
export class BatchAnswers {
  private readonly answers: JsonRpcMessage[] = [];
  private waiting = 1;

  constructor(private readonly reply: (answers: JsonRpcMessage[]) => void) {}

  /** One more answer to wait for. */
  expect(): void {
    this.waiting++;
  }

  /** An answer (or none: cancelled, a notification); the batch goes out after the last one. */
  add(answer: JsonRpcMessage | undefined): void {
    if (answer) this.answers.push(answer);
    if (--this.waiting === 0 && this.answers.length > 0) this.reply(this.answers);
  }

  /** Every item has been handed out: what is answered already may go. */
  sealed(): void {
    this.add(undefined);
  }
}

class Running implements InboundRequestContext, Deadline {
  private controller: AbortController | undefined;
  /** Why it was cut short (cancelled, timed out, the connection's end), once it was. */
  why: unknown;
  cancelled = false;
  due = Infinity;
  /** What was sent back, once it was (for its observers). */
  answer: JsonRpcMessage | undefined;

  constructor(
    private readonly owner: InboundRequests,
    readonly id: JsonRpcId,
    readonly method: string,
    /** Its observers' trace, when anyone listens. */
    readonly trace: InboundTrace | undefined,
  ) {}

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.cancelled) this.controller.abort(this.why);
    }
    return this.controller.signal;
  }

  abort(reason: McpError): void {
    if (this.cancelled) return;
    this.cancelled = true;
    this.why = reason;
    this.controller?.abort(reason);
  }

  notify(method: string, params?: Record<string, unknown>): void {
    if (!this.cancelled && this.owner.current(this.id) === this) this.owner.host.notify(this.id, method, params);
  }

  request(method: string, params: Record<string, unknown> | undefined): Promise<Record<string, unknown>> {
    return this.owner.host.request(this.id, method, params, this.signal);
  }

  expire(): void {
    this.owner.expire(this);
  }
}

/** The inbound side of a connection. */
export class InboundRequests {
  private readonly handlers = new Map<string, InboundRequestHandler>();
  private readonly running = new Map<JsonRpcId, Running>();
  private router: InboundRouter | undefined;
  private readonly deadlines: DeadlineSet | undefined;
  private readonly endListeners = new Set<(id: JsonRpcId, method: string) => void>();

  /**
   * `timeoutMs`: how long a request may run before its signal aborts (`TIMEOUT`) and it is
   * answered -32603 (Infinity: no limit). `deadlines`: a set shared by many connections (one
   * timer for all of them); one of its own is made when absent.
   */
  constructor(
    readonly host: InboundHost,
    private readonly timeoutMs = Infinity,
    deadlines?: DeadlineSet,
    private readonly tracing?: EngineTracing,
  ) {
    this.deadlines = Number.isFinite(timeoutMs) ? (deadlines ?? new DeadlineSet()) : undefined;
  }

  /** Requests being handled now. */
  get size(): number {
    return this.running.size;
  }

  /** One handler per method; a second registration replaces the first. Returns a disposer. */
  register(method: string, handler: InboundRequestHandler): Disposer {
    this.handlers.set(method, handler);
    return () => {
      if (this.handlers.get(method) === handler) this.handlers.delete(method);
    };
  }

  /** Sets the router of every method without a handler (one; a second replaces it). Returns a disposer. */
  route(router: InboundRouter): Disposer {
    this.router = router;
    return () => {
      if (this.router === router) this.router = undefined;
    };
  }

  /**
   * Calls `listener` once for every request, after its answer was sent, or withheld (the peer
   * cancelled it, the connection closed). Returns a disposer.
   */
  onEnd(listener: (id: JsonRpcId, method: string) => void): Disposer {
    this.endListeners.add(listener);
    return () => {
      this.endListeners.delete(listener);
    };
  }

  /** The record of request `id` while it runs (for a context that outlives its answer). */
  current(id: JsonRpcId): Running | undefined {
    return this.running.get(id);
  }

  /**
   * Runs the handler of `request` and answers it (into `batch` when it came in one). An id
   * already in progress is refused (-32600); unknown methods get -32601.
   */
  handle(request: JsonRpcRequest, batch?: BatchAnswers): void {
    const answer = (message: JsonRpcMessage): void => (batch ? batch.add(message) : this.host.reply(message));
    const trace = this.tracing?.handlingRequest(request);
    let refusal: JsonRpcMessage | undefined;
    if (this.running.has(request.id)) {
      refusal = makeErrorResponse(
        request.id,
        RpcErrorCode.InvalidRequest,
        `Invalid Request: id ${JSON.stringify(request.id)} is already in use`,
      );
    }
    const handler = refusal ? undefined : this.handlers.get(request.method);
    const router = handler ? undefined : this.router;
    if (!refusal && !handler && !router)
      refusal = makeErrorResponse(request.id, RpcErrorCode.MethodNotFound, `Method not found: ${request.method}`);
    if (refusal) {
      answer(refusal);
      trace?.ended(refusal, undefined);
      return;
    }
    const record = new Running(this, request.id, request.method, trace);
    this.running.set(request.id, record);
    if (this.deadlines) this.deadlines.add(record, this.timeoutMs);
    let answered: Promise<JsonRpcMessage>;
    if (handler) {
      const params = Array.isArray(request.params) ? undefined : request.params;
      const run = trace ? () => trace.run(() => handler(params, record)) : () => handler(params, record);
      answered = Promise.resolve()
        .then(run)
        .then(
          (result) => makeResponse(request.id, result ?? {}),
          (error: unknown) => makeErrorResponse(request.id, rpcCodeOf(error), errorMessage(error), rpcDataOf(error)),
        );
    } else {
      const run = trace ? () => trace.run(() => router!(request, record)) : () => router!(request, record);
      answered = Promise.resolve()
        .then(run)
        .catch(() => makeErrorResponse(request.id, RpcErrorCode.InternalError, 'Internal error'));
    }
    if (batch) batch.expect();
    void answered.then((response) => {
      if (this.running.get(request.id) !== record) return batch?.add(undefined);
      this.finish(record);
      // A request the peer cancelled gets no answer (the spec: the receiver should not respond).
      if (record.cancelled) batch?.add(undefined);
      else {
        record.answer = response;
        answer(response);
      }
      this.ended(record);
    });
  }

  /**
   * The peer cancelled request `id`: its handler's signal aborts and its record ends now (no
   * answer will be sent, so nothing waits for a handler that ignores its signal). Unknown ids are
   * ignored.
   */
  cancel(id: JsonRpcId, reason: McpError): void {
    const record = this.running.get(id);
    if (!record) return;
    record.abort(reason);
    this.finish(record);
    this.ended(record);
  }

  /** Its time limit passed: the handler's signal aborts and the request is answered -32603 now. */
  expire(record: Running): void {
    if (this.running.get(record.id) !== record) return;
    record.abort(new McpError('TIMEOUT', `ran longer than ${this.timeoutMs} ms`, { method: record.method }));
    this.finish(record);
    record.answer = makeErrorResponse(
      record.id,
      RpcErrorCode.InternalError,
      `Request timed out after ${this.timeoutMs} ms`,
    );
    this.host.reply(record.answer);
    this.ended(record);
  }

  /** The connection is going down: every handler's signal aborts; nothing more will be answered. */
  abortAll(reason: McpError): void {
    const records = [...this.running.values()];
    this.running.clear();
    for (const record of records) {
      record.abort(reason);
      this.deadlines?.delete(record);
      this.ended(record);
    }
  }

  /** The one place a request of the peer ends: after its answer was sent, or withheld. */
  private ended(record: Running): void {
    record.trace?.ended(record.answer, record.answer ? undefined : record.why);
    for (const listener of this.endListeners) {
      try {
        listener(record.id, record.method);
      } catch {
        // One listener's bug must not break the connection.
      }
    }
  }

  private finish(record: Running): void {
    this.running.delete(record.id);
    this.deadlines?.delete(record);
  }
}

function rpcCodeOf(error: unknown): number {
  if (error instanceof McpError) {
    if (error.rpcCode !== undefined) return error.rpcCode;
    if (error.code === 'INVALID_ARGUMENT') return RpcErrorCode.InvalidParams;
    if (error.code === 'INPUT_UNSUPPORTED') return RpcErrorCode.MethodNotFound;
  }
  return RpcErrorCode.InternalError;
}

function rpcDataOf(error: unknown): unknown {
  return error instanceof McpError ? error.data : undefined;
}
