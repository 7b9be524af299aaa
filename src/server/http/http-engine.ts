/**
 * How the server kit's HTTP handler runs requests: on the one JSON-RPC engine
 * ({@link JsonRpcConnection} in its server role) over an {@link HttpServerTransport}: one per
 * legacy session (every POST of the session feeds it; the server's requests to the client and
 * the client's cancels go through it), one per POST where there is no session (2026, stateless
 * legacy). The handler feeds a POST's messages in and writes the answers the engine sends back
 * out. All the connections' time limits share one timer.
 */
import type { ServerResponse } from 'node:http';
import { JsonRpcConnection } from '../../protocol/connection.js';
import { DeadlineSet } from '../../protocol/deadline-set.js';
import { McpError } from '../../protocol/errors.js';
import type { InboundRequestContext } from '../../protocol/inbound-requests.js';
import type { JsonRpcId, JsonRpcMessage, JsonRpcRequest } from '../../protocol/jsonrpc.js';
import type { ServerRole } from '../../protocol/methods.js';
import type { AuthInfo } from '../auth-info.js';
import type { LegacySession, RequestLink } from '../request-link.js';
import { routeRequest, type ServerCore } from '../request-router.js';
import type { HttpSession, SessionEngine } from './http-sessions.js';
import { HttpServerTransport, PostRoute } from './post-transport.js';
import type { ResponseChannel } from './response-channel.js';

/** What one POST's exchange starts with, and how its answers are written. */
export interface ExchangeInit {
  legacy: LegacySession | undefined;
  canInitialize: boolean;
  finish: (answers: JsonRpcMessage[], route: PostRoute) => void;
}

export class HttpEngine {
  /** The connections of POSTs without a session, while they run (a session's lives in the session). */
  private readonly live = new Set<JsonRpcConnection<ServerRole>>();
  /** The time limits of every request of every connection here, on one timer. */
  private readonly deadlines = new DeadlineSet();

  constructor(
    private readonly core: ServerCore,
    private readonly requestTimeoutMs: number,
    /** Aborted when the handler winds down: open listens answer with their completion result. */
    private readonly windDown: AbortSignal,
    /** The verified token facts of each POST being handled, by its response. */
    private readonly authOf: WeakMap<ServerResponse, AuthInfo>,
  ) {}

  /** Ends every POST's connection now (their requests aborted, answered with an error). */
  destroyAll(reason: McpError): void {
    for (const connection of [...this.live]) connection.destroy(reason);
  }

  /** The engine of a new legacy session: what is tied to no request goes to its GET streams. */
  sessionEngine(streams: Set<ServerResponse>): SessionEngine {
    const transport = new HttpServerTransport((message) => {
      const event = `event: message\ndata: ${JSON.stringify(message)}\n\n`;
      for (const stream of streams) stream.write(event);
    });
    return { transport, connection: this.connect(transport, true) };
  }

  /**
   * A connection in the server's role over `transport`, its requests routed by the kit's router
   * and, when `timed`, limited to `requestTimeoutMs` (aborted, then answered -32603).
   */
  private connect(transport: HttpServerTransport, timed: boolean): JsonRpcConnection<ServerRole> {
    // The server's requests wait for a person (elicitation): the tool call they serve bounds them.
    const connection = new JsonRpcConnection<ServerRole>(transport, {
      role: 'server',
      idPrefix: 's',
      defaultTimeoutMs: Infinity,
      maxTotalTimeoutMs: Infinity,
      ...(timed ? { inboundTimeoutMs: this.requestTimeoutMs, inboundDeadlines: this.deadlines } : {}),
    });
    connection.onAnyRequest((request, context) => this.route(transport, request, context));
    // A request ends unanswered when it was cancelled (the spec: no answer), or when the
    // connection went down under it (the server or the session closed: answered with an error).
    connection.onInboundEnd((id) => transport.ended(id, connection.isClosed));
    return connection;
  }

  /**
   * Feeds one POST's messages to the engine (a session's, or one of the POST's own) and waits
   * until every request in it ended; `finish` writes the answers. A response closed before its
   * answer cancels the requests (2026: that is the cancel) — except a legacy session's resumable
   * stream, which the client resumes with GET + Last-Event-ID (or cancels with a notification).
   */
  async exchange(
    session: HttpSession | undefined,
    items: readonly unknown[],
    ids: readonly JsonRpcId[],
    channel: ResponseChannel,
    res: ServerResponse,
    init: {
      legacy: LegacySession | undefined;
      canInitialize: boolean;
      finish: (answers: JsonRpcMessage[], route: PostRoute) => void;
    },
    timed = true,
  ): Promise<void> {
    const transport = session ? session.transport : new HttpServerTransport();
    const connection = session ? session.connection : this.connect(transport, timed);
    if (!session) this.live.add(connection);
    const route = new PostRoute({
      ...init,
      channel,
      res,
      ids,
      auth: this.authOf.get(res),
      carriesRequests: session !== undefined && channel.canStream,
    });
    const onClose = (): void => {
      if (res.writableFinished) return;
      route.clientGone = true;
      if (channel.resumable) return;
      const reason = new McpError('CANCELLED', 'the client closed the response stream');
      for (const id of ids) connection.cancelInbound(id, reason);
    };
    res.once('close', onClose);
    transport.deliver(items, route);
    await route.done;
    res.off('close', onClose);
    // A POST's own connection is dropped once its requests ended: nothing is pending on it (it
    // sends no requests), no timer is armed, nothing is left to close; the garbage collector ends it.
    if (!session) this.live.delete(connection);
  }

  /** Routes one request of a POST (the engine's router): the link ties it to its POST. */
  private route(
    transport: HttpServerTransport,
    request: JsonRpcRequest,
    context: InboundRequestContext,
  ): Promise<JsonRpcMessage> {
    const post = transport.routeOf(request.id)!;
    const link: RequestLink = {
      get legacy() {
        return post.legacy;
      },
      set legacy(value) {
        post.legacy = value;
      },
      canInitialize: post.canInitialize,
      get signal() {
        return context.signal;
      },
      windDown: this.windDown,
      ...(post.auth ? { auth: post.auth } : {}),
      notify: (method, params) => context.notify(method, params),
      closeStream: () => {
        post.channel.closeStream();
      },
      // A server request goes out on this POST's SSE stream; its answer comes back as a POST of the session.
      ...(post.carriesRequests
        ? { request: (method: string, params: Record<string, unknown>) => context.request(method, params) }
        : {}),
    };
    return routeRequest(this.core, request, link);
  }
}
