/**
 * The server's side of Streamable HTTP as a pipe under the JSON-RPC connection: the handler
 * feeds it the messages of each POST ({@link HttpServerTransport.deliver}) and the connection's
 * answers come back out through `send`, each to the POST that carried its request: a response by
 * its id, a notification or a request of the server by the `relatedRequestId` its `send` carries
 * (on that POST's SSE stream, or the session's GET stream once the client closed that POST's
 * response). One per legacy session (every POST of the session feeds it), or one
 * per POST where there is no session (2026, stateless legacy). It knows no methods or timeouts.
 */
import type { ServerResponse } from 'node:http';
import { McpError } from '../../protocol/errors.js';
import { makeErrorResponse, RpcErrorCode, type JsonRpcId, type JsonRpcMessage } from '../../protocol/jsonrpc.js';
import type { CloseInfo, Disposer, SendOptions, Transport } from '../../protocol/transport.js';
import type { AuthInfo } from '../auth-info.js';
import type { LegacySession } from '../request-link.js';
import type { ResponseChannel } from './response-channel.js';

/**
 * One POST with requests: its response channel, the requests it waits for, and their answers.
 * `done` resolves once every request ended (answered, or cancelled and not answered).
 */
export class PostRoute {
  /** The legacy session the POST's requests run in (set by `initialize`; per POST when stateless). */
  legacy: LegacySession | undefined;
  /** True when `initialize` may make a session here. */
  readonly canInitialize: boolean;
  readonly done: Promise<void>;
  /**
   * Set when the client closed the response before its answer (cancelled the request, or lost
   * the connection): what the server still sends tied to it goes to the session's standalone
   * stream, which the client still reads (a withdrawn elicitation's `notifications/cancelled`) —
   * except on a resumable stream the client did not cancel: that is logged for its resumption.
   */
  clientGone = false;
  /** Set when the client cancelled one of the POST's requests (`notifications/cancelled`). */
  cancelled = false;
  private readonly answers: JsonRpcMessage[] = [];
  private waiting: number;
  private resolveDone!: () => void;
  /**
   * Called with the answers (in request order) once every request ended: writes the response
   * (or returns a promise that does, which never rejects).
   */
  private readonly finish: (answers: JsonRpcMessage[], route: PostRoute) => void | Promise<void>;

  constructor(
    readonly channel: ResponseChannel,
    readonly res: ServerResponse,
    /** The ids of the POST's requests, in order. */
    readonly ids: readonly JsonRpcId[],
    /** The POST's token facts (a protected endpoint). */
    readonly auth: AuthInfo | undefined,
    init: {
      legacy: LegacySession | undefined;
      canInitialize: boolean;
      finish: (answers: JsonRpcMessage[], route: PostRoute) => void | Promise<void>;
    },
    /** True when the server may send the client requests on this POST's stream (a session, SSE). */
    readonly carriesRequests: boolean,
  ) {
    this.legacy = init.legacy;
    this.canInitialize = init.canInitialize;
    this.finish = init.finish;
    this.waiting = ids.length;
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
  }

  answer(message: JsonRpcMessage): void {
    this.answers.push(message);
  }

  /**
   * Request `id` ended. One that ended unanswered was cancelled (the spec: no answer is sent for
   * it), unless `closed` (the connection went down under it: the server or the session closed),
   * which is answered -32603. After the last one, the response is written (`finish`, with no
   * answer when none is left) and `done` resolves.
   */
  ended(id: JsonRpcId, closed: boolean): void {
    if (closed && !this.answers.some((answer) => (answer as { id?: unknown }).id === id))
      this.answers.push(makeErrorResponse(id, RpcErrorCode.InternalError, 'Request ended: the connection closed'));
    if (--this.waiting > 0) return;
    if (this.answers.length > 1) {
      const order = new Map(this.ids.map((id, index) => [id, index]));
      this.answers.sort((a, b) => order.get((a as { id: JsonRpcId }).id)! - order.get((b as { id: JsonRpcId }).id)!);
    }
    const finished = this.finish(this.answers, this);
    if (finished) void finished.finally(() => this.resolveDone());
    else this.resolveDone();
  }
}

export class HttpServerTransport implements Transport {
  readonly kind = 'streamable-http-server';
  readonly closed: Promise<CloseInfo>;
  private listener: ((value: unknown) => void) | undefined;
  private readonly routes = new Map<JsonRpcId, PostRoute>();
  private resolveClosed!: (info: CloseInfo) => void;
  private isClosed = false;

  /** `unrelated`: where a message of the server tied to no request goes (a session's GET streams). */
  constructor(private readonly unrelated?: (message: JsonRpcMessage) => void) {
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
  }

  /** True when a request with this id is in progress here (a second one would be refused). */
  has(id: JsonRpcId): boolean {
    return this.routes.has(id);
  }

  /** The POST that carried request `id`, while it runs. */
  routeOf(id: JsonRpcId): PostRoute | undefined {
    return this.routes.get(id);
  }

  /** Feeds one POST's messages to the connection; the answers of its requests go to `route`. */
  deliver(items: readonly unknown[], route: PostRoute | undefined): void {
    if (route) for (const id of route.ids) this.routes.set(id, route);
    // One by one, not as a batch: the route gathers a batch's answers (and writes them as one array).
    for (const item of items) {
      const cancelled = cancelledId(item);
      if (cancelled !== undefined) {
        const of = this.routes.get(cancelled);
        if (of) of.cancelled = true;
      }
      this.listener?.(item);
    }
  }

  /**
   * The connection finished request `id` (after its answer, if any, was sent); `closed` when it
   * ended because the connection went down.
   */
  ended(id: JsonRpcId, closed: boolean): void {
    const route = this.routes.get(id);
    if (!route) return;
    this.routes.delete(id);
    route.ended(id, closed);
  }

  send(message: JsonRpcMessage, options?: SendOptions): void {
    if (this.isClosed) return;
    if (Array.isArray(message)) {
      for (const item of message as JsonRpcMessage[]) this.send(item, options);
      return;
    }
    if (!('method' in message)) {
      const id = (message as { id?: JsonRpcId | null }).id;
      if (id !== null && id !== undefined) this.routes.get(id)?.answer(message);
      return;
    }
    const related = options?.relatedRequestId;
    const route = related === undefined ? undefined : this.routes.get(related);
    if (route && (!route.clientGone || (route.channel.resumable && !route.cancelled))) route.channel.notify(message);
    else this.unrelated?.(message);
  }

  onMessage(listener: (value: unknown) => void): Disposer {
    this.listener = listener;
    return () => {
      if (this.listener === listener) this.listener = undefined;
    };
  }

  onDiagnostic(): Disposer {
    return () => {};
  }

  close(): Promise<void> {
    this.destroy();
    return Promise.resolve();
  }

  destroy(reason?: McpError): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.resolveClosed(reason ? { error: reason } : {});
  }
}

/** The request id a `notifications/cancelled` names, or undefined for any other message. */
function cancelledId(item: unknown): JsonRpcId | undefined {
  const message = item as { method?: unknown; params?: { requestId?: unknown } } | null;
  if (typeof message !== 'object' || message === null || message.method !== 'notifications/cancelled') return undefined;
  const id = message.params?.requestId;
  return typeof id === 'string' || typeof id === 'number' ? id : undefined;
}
