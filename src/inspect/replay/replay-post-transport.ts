/**
 * The replay's side of Streamable HTTP as a pipe under its connection: a POST's messages are
 * delivered in, and what the connection sends comes back out on the POST it belongs to — an
 * answer by its request's id, a notification or request of the server by the `relatedRequestId`
 * its `send` carries — as SSE events; the POST's stream ends after its last answer. What belongs
 * to no POST goes to the session's GET streams (dropped when none is open). It knows no methods.
 */
import type { ServerResponse } from 'node:http';
import { McpError } from '../../protocol/errors.js';
import type { JsonRpcId, JsonRpcMessage } from '../../protocol/jsonrpc.js';
import type { CloseInfo, Disposer, SendOptions, Transport, TransportDiagnostic } from '../../protocol/transport.js';
import { Inbox } from '../../transport/inbox.js';

/** One SSE event carrying `message`. */
function event(message: JsonRpcMessage): string {
  return `event: message\ndata: ${JSON.stringify(message)}\n\n`;
}

/** A POST with requests: its response stream, open until each of its requests is answered. */
export class PostStream {
  private started = false;
  private readonly waiting: Set<JsonRpcId>;

  constructor(
    private readonly res: ServerResponse,
    ids: readonly JsonRpcId[],
    private readonly headers: Record<string, string>,
  ) {
    this.waiting = new Set(ids);
  }

  /** The ids still waiting for their answer. */
  get pending(): JsonRpcId[] {
    return [...this.waiting];
  }

  write(message: JsonRpcMessage): void {
    if (this.res.writableEnded || this.res.destroyed) return;
    if (!this.started) {
      this.started = true;
      this.res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...this.headers });
    }
    this.res.write(event(message));
  }

  /** Request `id` is answered: the stream ends after the last one. */
  answered(id: JsonRpcId): void {
    this.waiting.delete(id);
    if (this.waiting.size === 0 && !this.res.writableEnded) this.res.end();
  }
}

export class ReplayPostTransport implements Transport {
  readonly closed: Promise<CloseInfo>;
  /** The session's GET streams. */
  readonly streams = new Set<ServerResponse>();
  private readonly inbox = new Inbox<unknown>();
  private readonly posts = new Map<JsonRpcId, PostStream>();
  private resolveClosed!: (info: CloseInfo) => void;
  private done = false;

  constructor() {
    this.closed = new Promise((resolve) => (this.resolveClosed = resolve));
  }

  /** Hands the messages of one POST to the connection; `post` (when it carries requests) gets their answers. */
  deliver(items: readonly unknown[], post: PostStream | undefined): void {
    if (post) for (const id of post.pending) this.posts.set(id, post);
    for (const item of items) this.inbox.deliver(item);
  }

  send(message: JsonRpcMessage, options?: SendOptions): Promise<void> | void {
    if (this.done) return Promise.reject(new McpError('CONNECTION_CLOSED', 'the replay session is closed'));
    const { id, method } = message as { id?: JsonRpcId; method?: unknown };
    const answer = method === undefined && id !== undefined;
    const key = answer ? id : options?.relatedRequestId;
    const post = key === undefined ? undefined : this.posts.get(key);
    if (post) {
      post.write(message);
      if (answer) {
        this.posts.delete(key!);
        post.answered(key!);
      }
      return;
    }
    for (const stream of this.streams) stream.write(event(message));
  }

  onMessage(listener: (value: unknown) => void): Disposer {
    return this.inbox.listen(listener);
  }

  onDiagnostic(_listener: (diagnostic: TransportDiagnostic) => void): Disposer {
    return () => {};
  }

  close(): Promise<void> {
    this.destroy();
    return this.closed.then(() => undefined);
  }

  destroy(reason?: McpError): void {
    if (this.done) return;
    this.done = true;
    for (const stream of this.streams) stream.end();
    this.streams.clear();
    this.posts.clear();
    this.resolveClosed(reason ? { error: reason } : {});
  }
}
