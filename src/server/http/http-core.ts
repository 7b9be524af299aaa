/**
 * Streamable HTTP for the server kit, written once against the neutral request and response of
 * `transport/http-server/http-exchange.ts`; `createHttpHandler` (node:http) and
 * `createFetchHandler` (`Request` → `Response`) are its two edges.
 * - 2026-07-28 (stateless): one POST per request; the `_meta` envelope and the `Mcp-*` headers
 *   checked (400 with -32020/-32022/-32602), unknown methods 404; closing the response cancels.
 * - Legacy revisions: with sessions (default: `initialize` returns `Mcp-Session-Id`; later
 *   requests must carry it, 404 for an unknown one; GET opens the stream `list_changed` goes
 *   to; DELETE ends the session) or stateless (`sessions: false`: each POST stands alone, its
 *   revision from `MCP-Protocol-Version`).
 * - Answers are JSON, or SSE once a notification (progress, a log message) must go before them.
 * - Host/Origin checked against DNS rebinding by default (403); body size (413) and read time
 *   (408) capped; a request that runs past `requestTimeoutMs` is aborted and answered -32603.
 * - A state store that is down is answered 503 with `Retry-After` (`store-down.ts`).
 * - Every SSE stream silent for `keepAliveMs` gets a comment frame (`sse-keep-alive.ts`).
 * - `close()` is graceful: new requests get 503 while the calls in flight finish (up to `graceMs`).
 * - With `auth`, an OAuth protected resource (`auth/bearer-gate.ts`): Protected Resource Metadata
 *   served, every MCP request's bearer token checked before it is read (401/403 challenges).
 * - The MCP Server Card and catalog (`server-card.ts`), public, before the path check and auth.
 */
import { DeadlineSet } from '../../protocol/deadline-set.js';
import { McpError } from '../../protocol/errors.js';
import type { Disposer } from '../../protocol/transport.js';
import type { HttpRequestIn, ResponseSink } from '../../transport/http-server/http-exchange.js';
import { SseKeepAlive } from '../../transport/http-server/sse-keep-alive.js';
import type { McpServer } from '../mcp-server.js';
import type { ServerCore } from '../router/server-core.js';
import type { AuthInfo } from '../auth-info.js';
import { principalOf } from '../state/principal.js';
import { BearerGate } from './auth/bearer-gate.js';
import { answerHeaders, checkCorsOptions, preflight } from './cors.js';
import { pathOf, positive, refuse } from './http-answers.js';
import { HttpEngine } from './http-engine.js';
import {
  OPTION_KEYS,
  type HttpHandlerCloseOptions,
  type HttpHandlerOptions,
  type McpHandlerControls,
} from './http-handler-options.js';
import { HttpSessions } from './http-sessions.js';
import { HttpPost, type PostCall } from './http-post.js';
import { checkHostAndOrigin } from './request-guards.js';
import { ServerCardRoutes } from './server-card.js';
import { followChanges, serveDelete, serveGet } from './session-streams.js';
import { isStoreDown, logStoreDown, refuseStoreDown } from './store-down.js';

/** The core of one handler: `handle` serves a request; the edges count and close through it. */
export class HttpCore {
  inFlight = 0;
  /** Aborted by `close()`: open listen streams answer with their completion result. */
  private readonly windDown = new AbortController();
  private readonly sessions: HttpSessions | undefined;
  private readonly engine: HttpEngine;
  private readonly posts: HttpPost;
  private readonly idleWaiters = new Set<() => void>();
  private readonly disposers: Disposer[];
  private closing: Promise<void> | undefined;
  private readonly gate: BearerGate | undefined;
  private readonly card: ServerCardRoutes | undefined;
  private readonly core: ServerCore;
  /** Where the edges keep the SSE streams they open alive (one timer); undefined: `keepAliveMs` off. */
  readonly keepAlive: SseKeepAlive | undefined;

  /** Throws `INVALID_ARGUMENT` for an unknown option key or a bad number. */
  constructor(
    server: McpServer,
    private readonly options: HttpHandlerOptions,
    optionKeys: ReadonlySet<string> = OPTION_KEYS,
  ) {
    for (const key of Object.keys(options)) {
      if (!optionKeys.has(key)) throw new McpError('INVALID_ARGUMENT', `unknown HTTP handler option "${key}"`);
    }
    if (options.cors) checkCorsOptions(options.cors);
    const core: ServerCore = server.core;
    this.core = core;
    const requestTimeoutMs = positive(options.requestTimeoutMs, 300_000, 'requestTimeoutMs');
    this.engine = new HttpEngine(core, requestTimeoutMs, this.windDown.signal);
    const keepAliveMs = options.keepAliveMs === false || options.keepAliveMs === 0 ? 0 : options.keepAliveMs;
    this.keepAlive = keepAliveMs === 0 ? undefined : new SseKeepAlive(positive(keepAliveMs, 8_000, 'keepAliveMs'));
    this.gate = options.auth ? new BearerGate(options.auth, core.logger) : undefined;
    this.card = ServerCardRoutes.from({
      info: core.info,
      logger: core.logger,
      path: options.path,
      option: options.serverCard,
      guards: options,
    });
    const idleMs = positive(options.sessionIdleMs, 30 * 60_000, 'sessionIdleMs');
    this.sessions =
      options.sessions === false
        ? undefined
        : new HttpSessions({
            state: core.state,
            open: (unrelated) => this.engine.sessionEngine(unrelated),
            streamLeaseMs: positive(options.streamLeaseMs, 30_000, 'streamLeaseMs'),
            max: positive(options.maxSessions, 1000, 'maxSessions'),
            idleMs,
            logger: core.logger,
          });
    this.posts = new HttpPost({
      core,
      engine: this.engine,
      sessions: this.sessions,
      gate: this.gate,
      maxBodyBytes: positive(options.maxBodyBytes, 4 * 1024 * 1024, 'maxBodyBytes'),
      bodyTimeoutMs: positive(options.bodyTimeoutMs, 30_000, 'bodyTimeoutMs'),
      bodyDeadlines: new DeadlineSet(),
      maxListens: positive(options.maxListens, 1000, 'maxListens'),
    });
    this.disposers = this.sessions ? followChanges(core, this.sessions) : [];
  }

  get openStreams(): number {
    let count = 0;
    if (this.sessions) for (const session of this.sessions.ready()) count += session.streams.size;
    return count;
  }

  get openListens(): number {
    return this.posts.openListens;
  }

  /** Serves one request; never rejects: every failure is an HTTP answer (500 for a bug, logged). */
  handle(req: HttpRequestIn, sink: ResponseSink): void {
    this.inFlight++;
    this.dispatch(req, sink).then(
      () => this.handled(sink),
      (error: unknown) => {
        try {
          this.failed(sink, error);
        } finally {
          this.handled(sink);
        }
      },
    );
  }

  /** One request fewer in flight; `close()` waits for none. */
  private handled(sink: ResponseSink): void {
    // Every path answers; a response left unwritten would hang its client.
    if (!sink.started && !sink.done) refuse(sink, { status: 500, message: 'Internal Server Error' });
    this.inFlight--;
    if (this.inFlight === 0) for (const wake of this.idleWaiters) wake();
  }

  private failed(sink: ResponseSink, error: unknown): void {
    if (isStoreDown(error)) {
      logStoreDown(this.core.logger, error);
      if (!sink.started) refuseStoreDown(sink);
      else sink.abort();
      return;
    }
    this.core.logger({
      level: 'error',
      msg: 'HTTP request failed',
      error: error instanceof Error ? error.message : 'a non-Error value',
      ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
    });
    if (!sink.started) refuse(sink, { status: 500, message: 'Internal Server Error' });
    else sink.abort();
  }

  close(options: HttpHandlerCloseOptions = {}): Promise<void> {
    if (!this.closing) {
      const graceMs = options.graceMs ?? 10_000;
      // Listens end now, with their completion result: they would otherwise hold the grace.
      this.windDown.abort();
      this.closing = new Promise<void>((resolve) => {
        if (this.inFlight === 0) return resolve();
        const timer = setTimeout(finish, graceMs);
        const wake = (): void => finish();
        this.idleWaiters.add(wake);
        function finish(): void {
          clearTimeout(timer);
          resolve();
        }
      }).then(() => {
        this.idleWaiters.clear();
        const reason = new McpError('CONNECTION_CLOSED', 'the server is shutting down');
        this.engine.destroyAll(reason);
        this.sessions?.endAll(reason);
        for (const dispose of this.disposers) dispose();
        this.keepAlive?.close();
        return this.gate?.close();
      });
    }
    return this.closing;
  }

  private async dispatch(req: HttpRequestIn, sink: ResponseSink): Promise<void> {
    // The card and catalog are public, with CORS of their own (`*`): before the `cors` option's.
    if (this.card?.serve(req, sink, pathOf(req.target))) return;
    const cors = this.options.cors;
    if (cors) {
      // A preflight is answered before anything else, and nothing of the server runs for it.
      const answer = preflight(req, cors);
      if (answer) return answer.status === 204 ? sink.send(204, answer.headers) : refuse(sink, answer, answer.headers);
      const headers = answerHeaders(req, cors);
      for (const name in headers) sink.setHeader(name, headers[name]!);
    }
    const path = pathOf(req.target);
    if (this.gate?.serveMetadata(req, sink, path)) return;
    if (this.options.path !== undefined && path !== this.options.path)
      return refuse(sink, { status: 404, message: 'Not Found' });
    const guard = checkHostAndOrigin(req, this.options);
    if (guard) return refuse(sink, guard);
    if (this.closing)
      return refuse(
        sink,
        { status: 503, message: 'Service Unavailable: the server is shutting down' },
        { 'retry-after': '1' },
      );
    let auth: AuthInfo | undefined;
    if (this.gate) {
      auth = await this.gate.check(req, sink);
      if (!auth) return;
    }
    const call: PostCall = { req, sink, auth, principal: principalOf(auth) };
    switch (req.method) {
      case 'POST':
        return this.posts.serve(call);
      case 'GET':
        return serveGet(this.sessions, req, sink, call.principal);
      case 'DELETE':
        return serveDelete(this.sessions, req, sink, call.principal);
      default:
        return refuse(
          sink,
          { status: 405, message: 'Method Not Allowed' },
          { allow: this.sessions ? 'GET, POST, DELETE' : 'POST' },
        );
    }
  }
}

/** Gives `handler` (an edge's function) the core's `close` and counts. */
export function withControls<H extends McpHandlerControls>(handler: H, core: HttpCore): H {
  (handler as { close: McpHandlerControls['close'] }).close = (closeOptions) => core.close(closeOptions);
  Object.defineProperty(handler, 'inFlight', { get: () => core.inFlight });
  Object.defineProperty(handler, 'openStreams', { get: () => core.openStreams });
  Object.defineProperty(handler, 'openListens', { get: () => core.openListens });
  return handler;
}
