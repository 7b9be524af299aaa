/**
 * The server's side of Streamable HTTP as a pipe under the JSON-RPC connection: the handler
 * feeds it the messages of each POST ({@link HttpServerTransport.deliver}) and the connection's
 * answers come back out through `send`, each to the POST that carried its request: a response by
 * its id, a notification or a request of the server by the `relatedRequestId` its `send` carries
 * (on that POST's stream, or where messages tied to no request go once the client closed that
 * POST's response). One per legacy session (every POST of the session feeds it), or one per POST
 * where there is no session. It knows no methods, sessions or timeouts: what the layer above
 * keeps per POST rides along as `facts`.
 */
import type { McpError } from '../../protocol/errors.js';
import { makeErrorResponse, RpcErrorCode, type JsonRpcId, type JsonRpcMessage } from '../../protocol/jsonrpc.js';
import type { CloseInfo, Disposer, SendOptions, Transport } from '../../protocol/transport.js';

/** Where the messages tied to one POST's requests go before their answers (its SSE stream). */
export interface PostChannel {
  /** Sends a message before the answers, when the response allows it. Never throws. */
  notify(message: JsonRpcMessage): void;
  /** True once the answers go out on a stream the client can resume: losing the response loses nothing. */
  readonly resumable: boolean;
}

/**
 * One POST with requests: its channel, the requests it waits for, and their answers. `done`
 * resolves with the answers (in request order) once every request ended (answered, or cancelled
 * and not answered); `facts` is what the layer above keeps of the POST (changed while it runs).
 */
export class PostRoute<Facts, Channel extends PostChannel = PostChannel> {
  readonly done: Promise<JsonRpcMessage[]>;
  /**
   * Set when the client closed the response before its answer (cancelled the request, or lost
   * the connection): what the server still sends tied to it goes where messages tied to no
   * request go — except on a resumable stream the client did not cancel.
   */
  clientGone = false;
  /** Set when the client cancelled one of the POST's requests (`notifications/cancelled`). */
  cancelled = false;
  private readonly answers: JsonRpcMessage[] = [];
  private waiting: number;
  private resolveDone!: (answers: JsonRpcMessage[]) => void;

  constructor(
    readonly channel: Channel,
    /** The ids of the POST's requests, in order. */
    readonly ids: readonly JsonRpcId[],
    readonly facts: Facts,
  ) {
    this.waiting = ids.length;
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
  }

  answer(message: JsonRpcMessage): void {
    this.answers.push(message);
  }

  /**
   * Request `id` ended. One that ended unanswered was cancelled (the spec: no answer is sent for
   * it), unless `closed` (the connection went down under it), which is answered -32603. After the
   * last one `done` resolves.
   */
  ended(id: JsonRpcId, closed: boolean): void {
    if (closed && !this.answers.some((answer) => (answer as { id?: unknown }).id === id))
      this.answers.push(makeErrorResponse(id, RpcErrorCode.InternalError, 'Request ended: the connection closed'));
    if (--this.waiting > 0) return;
    if (this.answers.length > 1) {
      const order = new Map(this.ids.map((id, index) => [id, index]));
      this.answers.sort((a, b) => order.get((a as { id: JsonRpcId }).id)! - order.get((b as { id: JsonRpcId }).id)!);
    }
    this.resolveDone(this.answers);
  }
}

export class HttpServerTransport<Facts = unknown, Channel extends PostChannel = PostChannel> implements Transport {
  readonly kind = 'streamable-http-server';
  readonly closed: Promise<CloseInfo>;
  private listener: ((value: unknown) => void) | undefined;
  private readonly routes = new Map<JsonRpcId, PostRoute<Facts, Channel>>();
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
  routeOf(id: JsonRpcId): PostRoute<Facts, Channel> | undefined {
    return this.routes.get(id);
  }

  /** Feeds one POST's messages to the connection; the answers of its requests go to `route`. */
  deliver(items: readonly unknown[], route: PostRoute<Facts, Channel> | undefined): void {
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
