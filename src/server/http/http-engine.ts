/**
 * How the server kit's HTTP handler runs requests: on the one JSON-RPC engine
 * ({@link JsonRpcConnection} in its server role) over an {@link HttpServerTransport}: one per
 * legacy session (every POST of the session feeds it; the server's requests to the client and
 * the client's cancels go through it), one per POST where there is no session (2026, stateless
 * legacy). The handler feeds a POST's messages in and writes the answers the engine sends back
 * out. All the connections' time limits share one timer. A POST's own connection is kept for a
 * later POST once every request of it ended (it then holds no request, timer or listener), so a
 * stateless POST builds no connection of its own in the steady state.
 */
import { JsonRpcConnection } from '../../protocol/connection.js';
import { DeadlineSet } from '../../protocol/deadline-set.js';
import { McpError } from '../../protocol/errors.js';
import type { InboundRequestContext } from '../../protocol/inbound-requests.js';
import {
  makeErrorResponse,
  RpcErrorCode,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from '../../protocol/jsonrpc.js';
import type { ServerRole } from '../../protocol/methods.js';
import { ChannelTracing } from '../../observe/channel-tracing.js';
import { ServerConnectionFacts } from '../../observe/connection-facts.js';
import type { HttpPeer, ResponseSink } from '../../transport/http-server/http-exchange.js';
import { HttpServerTransport, PostRoute } from '../../transport/http-server/post-pipe.js';
import type { AuthInfo } from '../auth-info.js';
import type { ServerLogger } from '../server-types.js';
import type { LegacySession, RequestLink } from '../router/request-link.js';
import { routeRequest } from '../router/route-request.js';
import type { ServerCore } from '../router/server-core.js';
import type { HttpSession, SessionEngine } from './http-sessions.js';
import type { PostFacts } from './post-facts.js';
import { serverRequestPrefix } from './session-routing.js';
import type { ResponseChannel } from './response-channel.js';
import { isStoreDown, logStoreDown, STATE_UNAVAILABLE_MESSAGE } from './store-down.js';

/** One POST's exchange: what it carries, where its answers go, and what it starts with. */
export interface PostExchange {
  /** The legacy session it belongs to; undefined: the POST gets a connection of its own. */
  readonly session: HttpSession | undefined;
  /** Its messages, as parsed. */
  readonly items: readonly unknown[];
  /** The ids of its requests, in order. */
  readonly ids: readonly JsonRpcId[];
  readonly channel: ResponseChannel;
  /** The response: the client closing it early cancels the requests (unless the stream resumes). */
  readonly sink: ResponseSink;
  /** The request's addresses, for the connection's observers. */
  readonly peer: HttpPeer | undefined;
  readonly legacy: LegacySession | undefined;
  readonly canInitialize: boolean;
  readonly auth: AuthInfo | undefined;
  /** False for a listen: its requests have no time limit. Default true. */
  readonly timed?: boolean;
}

/** What an exchange ended with: the answers (in request order) and what the router decided. */
export interface ExchangeOutcome {
  readonly answers: JsonRpcMessage[];
  /** The legacy session its requests ran in (what `initialize` made, on a new session). */
  readonly legacy: LegacySession | undefined;
  /** True when a request found the state store down (answered 503 when nothing was streamed yet). */
  readonly unavailable: boolean;
}

const noRevision = (): undefined => undefined;

/** How many idle per-POST connections are kept for later POSTs (about the POSTs in flight at a peak). */
const MAX_IDLE = 256;

/** A per-POST connection and the transport under it. */
interface PostEngine {
  readonly transport: HttpServerTransport<PostFacts, ResponseChannel>;
  readonly connection: JsonRpcConnection<ServerRole>;
  readonly facts: ServerConnectionFacts;
}

export class HttpEngine {
  /** The connections of POSTs without a session, while they run (a session's lives in the session). */
  private readonly live = new Set<JsonRpcConnection<ServerRole>>();
  /** Timed per-POST connections whose requests all ended, ready for the next POST. */
  private readonly idle: PostEngine[] = [];
  private readonly logger: ServerLogger;
  /** The time limits of every request of every connection here, on one timer. */
  private readonly deadlines = new DeadlineSet();

  constructor(
    private readonly core: ServerCore,
    private readonly requestTimeoutMs: number,
    /** Aborted when the handler winds down: open listens answer with their completion result. */
    private readonly windDown: AbortSignal,
  ) {
    this.logger = core.logger;
  }

  /** Ends every POST's connection now (their requests aborted, answered with an error). */
  destroyAll(reason: McpError): void {
    this.idle.length = 0;
    for (const connection of [...this.live]) connection.destroy(reason);
  }

  /** The engine of a new legacy session: what is tied to no request goes to `unrelated` (its GET streams). */
  sessionEngine(unrelated: (message: JsonRpcMessage) => void): SessionEngine {
    return this.engineOver(new HttpServerTransport<PostFacts, ResponseChannel>(unrelated), true, true);
  }

  /**
   * A connection in the server's role over `transport`, its requests routed by the kit's router
   * and, when `timed`, limited to `requestTimeoutMs` (aborted, then answered -32603).
   */
  private connect(
    transport: HttpServerTransport<PostFacts, ResponseChannel>,
    timed: boolean,
    facts: ServerConnectionFacts,
    session: boolean,
  ): JsonRpcConnection<ServerRole> {
    // The server's requests wait for a person (elicitation): the tool call they serve bounds them.
    const connection = new JsonRpcConnection<ServerRole>(transport, {
      role: 'server',
      // With a session store given (other nodes may hold the session), a session's requests to the
      // client name this node (`s.<nodeId>.<n>`): an answer POSTed to another node is sent here
      // (`session-routing.ts`).
      idPrefix: session && this.core.state.sessions ? serverRequestPrefix(this.core.state.nodeId) : 's',
      tracing: new ChannelTracing(facts, { session }),
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
   * Feeds one POST's messages to the engine (a session's, or one of the POST's own) and resolves
   * once every request in it ended, with the answers and what the router decided; the handler
   * writes the response after it. A response closed before its answer cancels the requests (2026:
   * that is the cancel) — except a legacy session's resumable stream, which the client resumes
   * with GET + Last-Event-ID (or cancels with a notification).
   */
  async exchange(post: PostExchange): Promise<ExchangeOutcome> {
    const { session, ids, channel, sink } = post;
    const timed = post.timed ?? true;
    const own = session ? undefined : this.take(timed);
    const transport = own ? own.transport : session!.transport;
    const connection = own ? own.connection : session!.connection;
    if (own) this.live.add(connection);
    const facts: PostFacts = {
      legacy: post.legacy,
      canInitialize: post.canInitialize,
      auth: post.auth,
      carriesRequests: session !== undefined && channel.canStream,
      unavailable: false,
    };
    const route = new PostRoute(channel, ids, facts);
    const observed = own ? own.facts : session!.facts;
    if (own) observed.revision = () => facts.legacy?.revision;
    const peer = post.peer;
    if (peer) {
      observed.serverAddress = peer.localAddress;
      observed.serverPort = peer.localPort;
      observed.clientAddress = peer.remoteAddress;
      observed.clientPort = peer.remotePort;
    }
    const stop = sink.onClose(() => {
      route.clientGone = true;
      if (channel.resumable) return;
      const reason = new McpError('CANCELLED', 'the client closed the response stream');
      for (const id of ids) connection.cancelInbound(id, reason);
    });
    transport.deliver(post.items, route);
    const answers = await route.done;
    stop();
    if (own) {
      observed.revision = noRevision; // let go of the POST's facts
      this.live.delete(connection);
      // Every request of the POST ended: nothing is pending on its connection (it sends no
      // requests), no deadline is armed, so the next POST may use it (an untimed one is dropped).
      if (timed && !connection.isClosed && connection.inboundCount === 0 && this.idle.length < MAX_IDLE)
        this.idle.push(own);
    }
    return { answers, legacy: facts.legacy, unavailable: facts.unavailable };
  }

  /** An idle per-POST connection, or a new one. */
  private take(timed: boolean): PostEngine {
    if (timed) {
      const idle = this.idle.pop();
      if (idle) return idle;
    }
    return this.engineOver(new HttpServerTransport<PostFacts, ResponseChannel>(), timed, false);
  }

  /** A connection over `transport` with the facts its observers read; `session`: a legacy session's. */
  private engineOver(
    transport: HttpServerTransport<PostFacts, ResponseChannel>,
    timed: boolean,
    session: boolean,
  ): PostEngine {
    const facts = new ServerConnectionFacts('http');
    return { transport, facts, connection: this.connect(transport, timed, facts, session) };
  }

  /** Routes one request of a POST (the engine's router): the link ties it to its POST. */
  private route(
    transport: HttpServerTransport<PostFacts, ResponseChannel>,
    request: JsonRpcRequest,
    context: InboundRequestContext,
  ): Promise<JsonRpcMessage> {
    const post = transport.routeOf(request.id);
    // A request cancelled by a later message of its own batch ended before its turn: it never
    // runs, and nothing is answered for it (the engine drops what a cancelled request returns).
    if (!post) return Promise.reject(new McpError('CANCELLED', 'the request was cancelled before it ran'));
    return routeRequest(this.core, request, new PostLink(post, context, this.windDown)).catch((error: unknown) => {
      if (!isStoreDown(error)) throw error;
      // A store that is down is answered 503 (by the handler): the client may try again.
      logStoreDown(this.logger, error);
      post.facts.unavailable = true;
      return makeErrorResponse(request.id, RpcErrorCode.InternalError, STATE_UNAVAILABLE_MESSAGE);
    });
  }
}

/** The link of one request of a POST to its POST and the engine (a class: one shape, no closures). */
class PostLink implements RequestLink {
  /** A server request goes out on this POST's SSE stream; its answer comes back as a POST of the session. */
  readonly request: RequestLink['request'];
  readonly canInitialize: boolean;
  readonly auth: AuthInfo | undefined;

  constructor(
    private readonly post: PostRoute<PostFacts, ResponseChannel>,
    private readonly context: InboundRequestContext,
    readonly windDown: AbortSignal,
  ) {
    this.canInitialize = post.facts.canInitialize;
    this.auth = post.facts.auth;
    this.request = post.facts.carriesRequests ? (method, params) => context.request(method, params) : undefined;
  }

  get legacy(): LegacySession | undefined {
    return this.post.facts.legacy;
  }

  set legacy(value: LegacySession | undefined) {
    this.post.facts.legacy = value;
  }

  get signal(): AbortSignal {
    return this.context.signal;
  }

  notify(method: string, params: Record<string, unknown>): void {
    this.context.notify(method, params);
  }

  closeStream(): void {
    this.post.channel.closeStream();
  }
}
