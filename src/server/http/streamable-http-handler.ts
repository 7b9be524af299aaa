/**
 * Streamable HTTP for the server kit, as a `node:http` request handler: `(req, res)`, usable with
 * `http.createServer`, Express, or anything else that hands over Node's request and response.
 * - 2026-07-28 (stateless): one POST per request; the `_meta` envelope and the `Mcp-*` headers
 *   checked (400 with -32020/-32022/-32602), unknown methods 404; closing the response cancels.
 * - Legacy revisions: with sessions (default: `initialize` returns `Mcp-Session-Id`; later
 *   requests must carry it, 404 for an unknown one; GET opens the stream `list_changed` goes
 *   to; DELETE ends the session) or stateless (`sessions: false`: each POST stands alone, its
 *   revision from `MCP-Protocol-Version`).
 * - Answers are JSON, or SSE once a notification (progress, a log message) must go before them.
 * - Host/Origin checked against DNS rebinding by default (403); body size (413) and read time
 *   (408) capped; a request that runs past `requestTimeoutMs` is aborted and answered -32603.
 * - 2026 `subscriptions/listen`: the POST's SSE response stays open for the changes asked for
 *   (bounded by `maxListens`); closing it is the cancel; `close()` ends it with its completion.
 * - `close()` is graceful: new requests get 503 while the calls in flight finish (up to `graceMs`).
 * - With `auth`, an OAuth protected resource (`auth/bearer-gate.ts`): Protected Resource Metadata
 *   served, every MCP request's bearer token checked before it is read (401/403 challenges).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpError } from '../../protocol/errors.js';
import {
  classifyMessage,
  makeErrorResponse,
  makeNotification,
  RpcErrorCode,
  type JsonRpcId,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from '../../protocol/jsonrpc.js';
import {
  eraOf,
  hasFeature,
  LATEST_MODERN_REVISION,
  LEGACY_REVISIONS,
  type ProtocolRevision,
} from '../../protocol/revisions.js';
import type { Disposer } from '../../protocol/transport.js';
import type { McpServer } from '../mcp-server.js';
import type { LegacySession, RequestLink } from '../request-link.js';
import { claimedRevision, modernEnvelopeProblem, routeRequest, type ServerCore } from '../request-router.js';
import type { AuthInfo } from '../auth-info.js';
import { batchRefusal } from '../batch-gate.js';
import { BearerGate } from './auth/bearer-gate.js';
import { HttpSessions, type HttpSession } from './http-sessions.js';
import { headerMismatch } from './modern-headers.js';
import { readBody } from './read-body.js';
import { acceptsSse, checkHostAndOrigin, checkMediaTypes, type Refusal } from './request-guards.js';
import { ResponseChannel } from './response-channel.js';
import {
  OPTION_KEYS,
  type HttpHandlerCloseOptions,
  type HttpHandlerOptions,
  type McpHttpHandler,
} from './http-handler-options.js';

const SESSION_HEADER = 'mcp-session-id';
/** Legacy servers assume this revision for a request without `MCP-Protocol-Version` (the spec's rule). */
const LEGACY_DEFAULT_REVISION: ProtocolRevision = '2025-03-26';
/** The `retry` of the priming event: how long a 2025-11-25 client waits before it resumes a closed stream. */
const RESUME_RETRY_MS = 500;
/** Errors of the 2026 envelope and headers: answered with 400. */
const BAD_REQUEST_CODES = new Set<number>([
  RpcErrorCode.HeaderMismatch,
  RpcErrorCode.MissingRequiredClientCapability,
  RpcErrorCode.UnsupportedProtocolVersion,
]);

/**
 * Makes the handler. Throws `INVALID_ARGUMENT` for an unknown option key or a bad number.
 * The handler never throws: every failure is an HTTP answer (500 for a bug, logged).
 */
export function createHttpHandler(server: McpServer, options: HttpHandlerOptions = {}): McpHttpHandler {
  for (const key of Object.keys(options)) {
    if (!OPTION_KEYS.has(key)) throw new McpError('INVALID_ARGUMENT', `unknown HTTP handler option "${key}"`);
  }
  const http = new StreamableHttpServer(server.core, options);
  const handler = ((req: IncomingMessage, res: ServerResponse) => http.handle(req, res)) as McpHttpHandler;
  handler.close = (closeOptions) => http.close(closeOptions);
  Object.defineProperty(handler, 'inFlight', { get: () => http.inFlight });
  Object.defineProperty(handler, 'openStreams', { get: () => http.openStreams });
  Object.defineProperty(handler, 'openListens', { get: () => http.openListens });
  return handler;
}

class StreamableHttpServer {
  inFlight = 0;
  openListens = 0;
  private readonly maxListens: number;
  /** Aborted by `close()`: open listen streams answer with their completion result. */
  private readonly windDown = new AbortController();
  private readonly sessions: HttpSessions | undefined;
  private readonly running = new Set<AbortController>();
  private readonly idleWaiters = new Set<() => void>();
  private readonly disposers: Disposer[];
  private readonly maxBodyBytes: number;
  private readonly bodyTimeoutMs: number;
  private readonly requestTimeoutMs: number;
  private closing: Promise<void> | undefined;
  private readonly listChangedQueued = new Set<string>();
  private readonly gate: BearerGate | undefined;
  /** The verified token facts of each request being handled, by its response. */
  private readonly authOf = new WeakMap<ServerResponse, AuthInfo>();
  /** Who made each legacy session (with `auth`): another token's subject or client finds no such session. */
  private readonly ownerOf = new WeakMap<HttpSession, string>();

  constructor(
    private readonly core: ServerCore,
    private readonly options: HttpHandlerOptions,
  ) {
    this.maxBodyBytes = positive(options.maxBodyBytes, 4 * 1024 * 1024, 'maxBodyBytes');
    this.bodyTimeoutMs = positive(options.bodyTimeoutMs, 30_000, 'bodyTimeoutMs');
    this.requestTimeoutMs = positive(options.requestTimeoutMs, 300_000, 'requestTimeoutMs');
    this.maxListens = positive(options.maxListens, 1000, 'maxListens');
    this.gate = options.auth ? new BearerGate(options.auth, core.logger) : undefined;
    this.sessions =
      options.sessions === false
        ? undefined
        : new HttpSessions(
            positive(options.maxSessions, 1000, 'maxSessions'),
            positive(options.sessionIdleMs, 30 * 60_000, 'sessionIdleMs'),
          );
    const onUpdated = (uri: string): void => this.resourceUpdated(uri);
    core.resourceUpdated.add(onUpdated);
    this.disposers = [
      core.tools.onChange(() => this.listChanged('tools')),
      core.resources.changes.add(() => this.listChanged('resources')),
      core.prompts.changes.add(() => this.listChanged('prompts')),
      () => core.resourceUpdated.delete(onUpdated),
    ];
  }

  get openStreams(): number {
    let count = 0;
    if (this.sessions) for (const session of this.sessions.ready()) count += session.streams.size;
    return count;
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    this.inFlight++;
    this.dispatch(req, res)
      .catch((error: unknown) => {
        this.core.logger({
          level: 'error',
          msg: 'HTTP request failed',
          error: error instanceof Error ? error.message : 'a non-Error value',
          ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
        });
        if (!res.headersSent) refuse(res, { status: 500, message: 'Internal Server Error' });
        else res.destroy();
      })
      .finally(() => {
        this.inFlight--;
        if (this.inFlight === 0) for (const wake of this.idleWaiters) wake();
      });
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
        for (const controller of this.running) controller.abort(reason);
        this.sessions?.endAll(reason);
        for (const dispose of this.disposers) dispose();
      });
    }
    return this.closing;
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = pathOf(req.url);
    if (this.gate?.serveMetadata(req, res, path)) return;
    if (this.options.path !== undefined && path !== this.options.path)
      return refuse(res, { status: 404, message: 'Not Found' });
    const guard = checkHostAndOrigin(req, this.options);
    if (guard) return refuse(res, guard);
    if (this.closing)
      return refuse(
        res,
        { status: 503, message: 'Service Unavailable: the server is shutting down' },
        { 'retry-after': '1' },
      );
    if (this.gate) {
      const auth = await this.gate.check(req, res);
      if (!auth) return;
      this.authOf.set(res, auth);
    }
    switch (req.method) {
      case 'POST':
        return this.post(req, res);
      case 'GET':
        return this.get(req, res);
      case 'DELETE':
        return this.delete(req, res);
      default:
        return refuse(
          res,
          { status: 405, message: 'Method Not Allowed' },
          { allow: this.sessions ? 'GET, POST, DELETE' : 'POST' },
        );
    }
  }

  // ---- POST ----

  private async post(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const media = checkMediaTypes(req);
    if (media) return refuse(res, media);
    const body = await readBody(req, this.maxBodyBytes, this.bodyTimeoutMs);
    if ('status' in body) return refuse(res, body);
    let value: unknown;
    try {
      value = JSON.parse(body.text);
    } catch {
      return refuse(res, { status: 400, message: 'Parse error' }, {}, RpcErrorCode.ParseError);
    }
    const batch = Array.isArray(value);
    const items: unknown[] = batch ? (value as unknown[]) : [value];
    if (items.length === 0) return refuse(res, { status: 400, message: 'Invalid Request: empty batch' });
    const requests: JsonRpcRequest[] = [];
    const notifications: Array<{ method: string; params?: unknown }> = [];
    const answers: Array<{
      id: JsonRpcId | null;
      outcome: { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } };
    }> = [];
    for (const item of items) {
      const classified = classifyMessage(item);
      if (classified.kind === 'request') requests.push(classified.message);
      else if (classified.kind === 'notification') notifications.push(classified.message);
      else if (classified.kind === 'response')
        answers.push({ id: classified.message.id, outcome: { result: classified.message.result } });
      else if (classified.kind === 'error')
        answers.push({ id: classified.message.id, outcome: { error: classified.message.error } });
      else
        return refuse(
          res,
          { status: 400, message: `Invalid Request: ${classified.reason}` },
          {},
          RpcErrorCode.InvalidRequest,
          classified.id ?? null,
        );
    }
    if (this.gate && this.refuseToolScopes(res, requests)) return;
    const first = requests[0];
    const claimed = first ? claimedRevision(first) : undefined;
    // The `_meta` revision makes a request modern, whatever it names (an unsupported one is -32022);
    // so does a 2026 `MCP-Protocol-Version` header on a body that leaves that revision out (-32602).
    if (first && (claimed !== undefined || modernHeader(req))) {
      if (batch) return refuse(res, { status: 400, message: batchRefusal(LATEST_MODERN_REVISION)! });
      return this.modernPost(req, res, first, claimed);
    }
    if (first?.method === 'server/discover') return this.answer(res, modernEnvelopeProblem(first)!, 400);
    return this.legacyPost(req, res, requests, notifications, batch, answers);
  }

  /** Who a protected request comes from (client and subject of its token), or undefined without `auth`. */
  private ownerKey(res: ServerResponse): string | undefined {
    const auth = this.authOf.get(res);
    return auth ? JSON.stringify([auth.clientId ?? null, auth.subject ?? null]) : undefined;
  }

  /** True when the session was made with another token's client or subject (the spec: bind sessions to the user). */
  private foreign(session: HttpSession, res: ServerResponse): boolean {
    return this.ownerOf.get(session) !== this.ownerKey(res);
  }

  /** A tool call whose tool needs a scope the token lacks: 403 before anything runs (true: answered). */
  private refuseToolScopes(res: ServerResponse, requests: JsonRpcRequest[]): boolean {
    for (const request of requests) {
      if (
        request.method !== 'tools/call' ||
        !request.params ||
        Array.isArray(request.params) ||
        typeof request.params.name !== 'string'
      )
        continue;
      const tool = this.core.tools.get(request.params.name);
      if (this.gate!.refuseToolScopes(res, this.authOf.get(res), request.params.name, tool?.definition.requiredScopes))
        return true;
    }
    return false;
  }

  /** `revision` is the body's `_meta` revision as sent (any JSON value), or undefined when it has none. */
  private async modernPost(
    req: IncomingMessage,
    res: ServerResponse,
    request: JsonRpcRequest,
    revision: unknown,
  ): Promise<void> {
    // A required field missing from the body is -32602 (the 2026 rule), whatever the headers say.
    if (revision === undefined) return this.answer(res, modernEnvelopeProblem(request)!, 400);
    // Headers first: a body naming a revision the header does not is a mismatch (-32020), even
    // when that revision is one the server does not speak (-32022 is for a header that agrees).
    const toolName =
      request.method === 'tools/call' && request.params && !Array.isArray(request.params)
        ? request.params.name
        : undefined;
    const tool = typeof toolName === 'string' ? this.core.tools.get(toolName) : undefined;
    const mismatch = headerMismatch(req, request, revision, tool?.definition.inputSchema);
    if (mismatch)
      return this.answer(
        res,
        makeErrorResponse(request.id, RpcErrorCode.HeaderMismatch, `Header mismatch: ${mismatch}`),
        400,
      );
    const problem = modernEnvelopeProblem(request);
    if (problem) return this.answer(res, problem, 400);
    if (request.method === 'subscriptions/listen') return this.listen(req, res, request);
    const channel = new ResponseChannel(res, acceptsSse(req), {});
    const answer = await this.run(request, res, channel, { legacy: undefined, canInitialize: false });
    channel.finish(answer, statusOf(answer));
  }

  /**
   * A 2026 listen: the POST whose SSE response stays open (the acknowledgment first, then the
   * changes) until the client closes it (the cancel) or `close()` ends it with the completion
   * result. Needs SSE (406), is bounded by `maxListens` (503), and has no time limit.
   */
  private async listen(req: IncomingMessage, res: ServerResponse, request: JsonRpcRequest): Promise<void> {
    if (!acceptsSse(req))
      return this.answer(
        res,
        makeErrorResponse(
          request.id,
          RpcErrorCode.InvalidRequest,
          'subscriptions/listen needs Accept: text/event-stream (its answer is a stream)',
        ),
        406,
      );
    if (this.openListens >= this.maxListens)
      return refuse(
        res,
        { status: 503, message: `Service Unavailable: ${this.maxListens} listen streams are open` },
        { 'retry-after': '5' },
        RpcErrorCode.InternalError,
        request.id,
      );
    this.openListens++;
    try {
      const channel = new ResponseChannel(res, true, {});
      const answer = await this.run(
        request,
        res,
        channel,
        { legacy: undefined, canInitialize: false },
        undefined,
        false,
      );
      channel.finish(answer, statusOf(answer));
    } finally {
      this.openListens--;
    }
  }

  private async legacyPost(
    req: IncomingMessage,
    res: ServerResponse,
    requests: JsonRpcRequest[],
    notifications: Array<{ method: string; params?: unknown }>,
    batch: boolean,
    answers: Array<{
      id: JsonRpcId | null;
      outcome: { result: Record<string, unknown> } | { error: { code: number; message: string; data?: unknown } };
    }>,
  ): Promise<void> {
    const initialize = requests.find((r) => r.method === 'initialize');
    let session: HttpSession | undefined;
    let legacy: LegacySession | undefined;
    const headers: Record<string, string> = {};
    if (initialize && requests.length > 1)
      return refuse(
        res,
        { status: 400, message: 'Invalid Request: initialize must be sent alone' },
        {},
        RpcErrorCode.InvalidRequest,
        initialize.id,
      );
    if (this.sessions) {
      if (initialize) {
        session = this.sessions.create();
        if (!session)
          return refuse(
            res,
            { status: 503, message: 'Service Unavailable: too many sessions' },
            { 'retry-after': '5' },
          );
        const owner = this.ownerKey(res);
        if (owner !== undefined) this.ownerOf.set(session, owner);
      } else {
        const id = header(req, SESSION_HEADER);
        if (id === undefined)
          return refuse(res, {
            status: 400,
            message: 'Bad Request: the Mcp-Session-Id header is required (send initialize first)',
          });
        session = this.sessions.get(id);
        if (!session || this.foreign(session, res))
          return refuse(res, { status: 404, message: 'Not Found: no such session' });
        if (!session.legacy)
          return refuse(res, { status: 400, message: 'Bad Request: the session is not initialized' });
        legacy = session.legacy;
        // The spec's rule is an unsupported version (400); the session's revision still governs.
        const version = header(req, 'mcp-protocol-version');
        if (version !== undefined && !(LEGACY_REVISIONS as readonly string[]).includes(version))
          return refuse(res, { status: 400, message: 'Bad Request: unsupported MCP-Protocol-Version' });
      }
      headers[SESSION_HEADER] = session.id;
    } else if (!initialize) {
      const version = header(req, 'mcp-protocol-version') ?? LEGACY_DEFAULT_REVISION;
      if (!(LEGACY_REVISIONS as readonly string[]).includes(version))
        return refuse(res, { status: 400, message: 'Bad Request: unsupported MCP-Protocol-Version' });
      legacy = {
        revision: version as ProtocolRevision,
        clientCapabilities: {},
        clientInfo: undefined,
        logLevel: 'info',
        subscriptions: new Set(),
      };
    }
    // 2025-06-18 removed batching: such a batch is refused as a whole, before any of it runs.
    const refusal = batch ? batchRefusal(legacy?.revision) : undefined;
    if (refusal) return refuse(res, { status: 400, message: refusal });
    for (const notification of notifications) this.notification(session, notification);
    // The client's answers to our requests (sampling, elicitation, roots) come back as POSTs.
    for (const answer of answers) session?.outbound.settle(answer.id, answer.outcome);
    if (requests.length === 0) {
      res.writeHead(202, headers).end();
      return;
    }
    // A session's SSE streams are resumable; 2025-11-25 clients get a priming event first (SEP-1699).
    const resumption = session
      ? {
          streams: session.resumable,
          primeRetryMs: legacy && hasFeature(legacy.revision, 'ssePolling') ? RESUME_RETRY_MS : undefined,
        }
      : undefined;
    const channel = new ResponseChannel(res, acceptsSse(req), headers, resumption);
    const results = await Promise.all(
      requests.map((request) => {
        const link = { legacy, canInitialize: initialize !== undefined };
        return this.run(request, res, channel, link, session).then((answer) => {
          if (session && request === initialize) {
            if ('result' in answer && link.legacy) session.legacy = link.legacy;
            else this.sessions?.end(session.id, undefined);
          }
          return answer;
        });
      }),
    );
    channel.finish(batch ? results : results[0]!, batch ? 200 : legacyStatusOf(results[0]!));
  }

  private notification(session: HttpSession | undefined, notification: { method: string; params?: unknown }): void {
    if (notification.method !== 'notifications/cancelled' || !session) return;
    const id = (notification.params as { requestId?: unknown } | undefined)?.requestId;
    if (typeof id === 'string' || typeof id === 'number')
      session.running.get(id)?.abort(new McpError('CANCELLED', 'cancelled by the client'));
  }

  /**
   * Runs one request: aborted when the client goes away (2026: that is the cancel) or the time
   * limit passes (then answered -32603 at once). Never rejects.
   */
  private async run(
    request: JsonRpcRequest,
    res: ServerResponse,
    channel: ResponseChannel,
    state: { legacy: LegacySession | undefined; canInitialize: boolean },
    session?: HttpSession,
    timed = true,
  ): Promise<JsonRpcMessage> {
    const controller = new AbortController();
    this.running.add(controller);
    session?.running.set(request.id, controller);
    const onClose = (): void => {
      // Closed before the whole answer was written: the client went away (2026: the cancel). A
      // legacy session's resumable stream is not cancelled by a disconnect (the spec's rule): the
      // client resumes it with GET + Last-Event-ID, or sends notifications/cancelled.
      if (!res.writableFinished && !channel.resumable)
        controller.abort(new McpError('CANCELLED', 'the client closed the response stream'));
    };
    res.once('close', onClose);
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<JsonRpcMessage>((resolve) => {
      if (!timed) return;
      timer = setTimeout(() => {
        controller.abort(new McpError('TIMEOUT', `ran longer than ${this.requestTimeoutMs} ms`));
        resolve(
          makeErrorResponse(
            request.id,
            RpcErrorCode.InternalError,
            `Request timed out after ${this.requestTimeoutMs} ms`,
          ),
        );
      }, this.requestTimeoutMs);
    });
    const link: RequestLink = {
      get legacy() {
        return state.legacy;
      },
      set legacy(value) {
        state.legacy = value;
      },
      canInitialize: state.canInitialize,
      signal: controller.signal,
      windDown: this.windDown.signal,
      ...(this.authOf.has(res) ? { auth: this.authOf.get(res) } : {}),
      notify: (method, params) => {
        if (!controller.signal.aborted) channel.notify(makeNotification(method, params));
      },
      closeStream: () => {
        channel.closeStream();
      },
      // A server request goes out on this POST's SSE stream; its answer comes back as a POST of the session.
      ...(session && channel.canStream
        ? {
            request: (method: string, params: Record<string, unknown>, signal: AbortSignal) =>
              session.outbound.request(method, params, signal, (message) => channel.notify(message)),
          }
        : {}),
    };
    try {
      return await Promise.race([routeRequest(this.core, request, link), timedOut]);
    } finally {
      clearTimeout(timer);
      res.off('close', onClose);
      this.running.delete(controller);
      if (session?.running.get(request.id) === controller) session.running.delete(request.id);
    }
  }

  private answer(res: ServerResponse, answer: JsonRpcMessage, status: number): void {
    new ResponseChannel(res, false, {}).finish(answer, status);
  }

  // ---- GET and DELETE (legacy sessions) ----

  private async get(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.sessions)
      return refuse(
        res,
        { status: 405, message: 'Method Not Allowed: this server has no standalone stream' },
        { allow: 'POST' },
      );
    if (!acceptsSse(req))
      return refuse(res, { status: 406, message: 'Not Acceptable: GET needs Accept: text/event-stream' });
    const id = header(req, SESSION_HEADER);
    if (id === undefined)
      return refuse(res, { status: 400, message: 'Bad Request: the Mcp-Session-Id header is required' });
    const session = this.sessions.get(id);
    if (!session?.legacy || this.foreign(session, res))
      return refuse(res, { status: 404, message: 'Not Found: no such session' });
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      [SESSION_HEADER]: session.id,
    });
    res.flushHeaders();
    // A Last-Event-ID of one of the session's POST streams resumes that stream here (what was
    // missed, then the rest, its answer last); any other GET is the standalone stream.
    const resume = header(req, 'last-event-id');
    const found = resume === undefined ? undefined : session.resumable.find(resume);
    if (found) return found.stream.attach(res, found.after);
    session.streams.add(res);
    res.once('close', () => session.streams.delete(res));
  }

  private async delete(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.sessions)
      return refuse(
        res,
        { status: 405, message: 'Method Not Allowed: this server has no sessions' },
        { allow: 'POST' },
      );
    const id = header(req, SESSION_HEADER);
    if (id === undefined)
      return refuse(res, { status: 400, message: 'Bad Request: the Mcp-Session-Id header is required' });
    const session = this.sessions.get(id);
    if (
      !session ||
      this.foreign(session, res) ||
      !this.sessions.end(id, new McpError('CONNECTION_CLOSED', 'the client ended the session'))
    )
      return refuse(res, { status: 404, message: 'Not Found: no such session' });
    res.writeHead(200).end();
  }

  /** `list_changed` to every initialized session's GET streams, once per tick of changes. */
  private listChanged(list: string): void {
    if (this.listChangedQueued.has(list) || !this.sessions) return;
    this.listChangedQueued.add(list);
    queueMicrotask(() => {
      this.listChangedQueued.delete(list);
      const event = `event: message\ndata: ${JSON.stringify(makeNotification(`notifications/${list}/list_changed`))}\n\n`;
      for (const session of this.sessions!.ready()) for (const stream of session.streams) stream.write(event);
    });
  }

  /** `resources/updated` to the GET streams of the sessions subscribed to `uri`. */
  private resourceUpdated(uri: string): void {
    if (!this.sessions) return;
    const event = `event: message\ndata: ${JSON.stringify(makeNotification('notifications/resources/updated', { uri }))}\n\n`;
    for (const session of this.sessions.ready())
      if (session.legacy?.subscriptions.has(uri)) for (const stream of session.streams) stream.write(event);
  }
}

/** An HTTP refusal with a JSON-RPC error body (id null unless known). */
function refuse(
  res: ServerResponse,
  refusal: Refusal,
  headers: Record<string, string> = {},
  code: number = RpcErrorCode.InvalidRequest,
  id: JsonRpcId | null = null,
): void {
  const body = JSON.stringify(makeErrorResponse(id, code, refusal.message));
  res.writeHead(refusal.status, {
    ...headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  });
  res.end(body);
}

/** 2026: the envelope and header errors are 400, an unknown method 404, anything else 200. */
function statusOf(answer: JsonRpcMessage): number {
  if (!('error' in answer)) return 200;
  const code = answer.error.code;
  if (BAD_REQUEST_CODES.has(code)) return 400;
  return code === RpcErrorCode.MethodNotFound ? 404 : 200;
}

/** Legacy: JSON-RPC errors travel with 200, except a refused handshake. */
function legacyStatusOf(answer: JsonRpcMessage): number {
  return 'error' in answer && answer.error.code === RpcErrorCode.InvalidRequest ? 400 : 200;
}

/** True when `MCP-Protocol-Version` names a 2026-era revision: the request is then held to the 2026 rules. */
function modernHeader(req: IncomingMessage): boolean {
  const version = header(req, 'mcp-protocol-version');
  return version !== undefined && eraOf(version) === 'modern';
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function pathOf(url: string | undefined): string {
  const raw = url ?? '/';
  const end = raw.search(/[?#]/);
  return end === -1 ? raw : raw.slice(0, end);
}

function positive(value: number | undefined, fallback: number, name: string): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0)
    throw new McpError('INVALID_ARGUMENT', `HTTP handler option "${name}" must be a positive number`);
  return value;
}
