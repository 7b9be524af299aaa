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
import { DeadlineSet } from '../../protocol/deadline-set.js';
import { McpError } from '../../protocol/errors.js';
import {
  classifyMessage,
  makeErrorResponse,
  RpcErrorCode,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from '../../protocol/jsonrpc.js';
import {
  hasFeature,
  LATEST_MODERN_REVISION,
  LEGACY_REVISIONS,
  type ProtocolRevision,
} from '../../protocol/revisions.js';
import type { Disposer } from '../../protocol/transport.js';
import type { HttpRequestIn, ResponseSink } from '../../transport/http-server/http-exchange.js';
import type { McpServer } from '../mcp-server.js';
import { statelessLegacy, type LegacySession } from '../request-link.js';
import { claimedRevision, modernEnvelopeProblem, type ServerCore } from '../request-router.js';
import type { AuthInfo } from '../auth-info.js';
import { batchRefusal } from '../batch-gate.js';
import { BearerGate } from './auth/bearer-gate.js';
import { header, legacyStatusOf, modernHeader, pathOf, positive, refuse, statusOf } from './http-answers.js';
import { HttpSessions, type HttpSession } from './http-sessions.js';
import { principalOf } from '../state/principal.js';
import { headerMismatch } from './modern-headers.js';
import { HttpEngine } from './http-engine.js';
import { followChanges, serveDelete, serveGet, SESSION_HEADER, tooManySessions } from './session-streams.js';
import { readBody } from './read-body.js';
import { acceptsSse, checkHostAndOrigin, checkMediaTypes } from './request-guards.js';
import { ResponseChannel } from './response-channel.js';
import {
  OPTION_KEYS,
  type HttpHandlerCloseOptions,
  type HttpHandlerOptions,
  type McpHttpHandler,
} from './http-handler-options.js';

/** Legacy servers assume this revision for a request without `MCP-Protocol-Version` (the spec's rule). */
const LEGACY_DEFAULT_REVISION: ProtocolRevision = '2025-03-26';
/** The `retry` of the priming event: how long a 2025-11-25 client waits before it resumes a closed stream. */
const RESUME_RETRY_MS = 500;
/** The extra headers of a response that has none (shared: a response's headers are copied, never changed). */
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

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
  private readonly engine: HttpEngine;
  private readonly idleWaiters = new Set<() => void>();
  private readonly disposers: Disposer[];
  private readonly maxBodyBytes: number;
  private readonly bodyTimeoutMs: number;
  /** The read time limits of the bodies being read, on one timer. */
  private readonly bodyDeadlines = new DeadlineSet();
  private closing: Promise<void> | undefined;
  private readonly gate: BearerGate | undefined;
  /** The verified token facts of each request being handled, by its response. */
  private readonly authOf = new WeakMap<ServerResponse, AuthInfo>();

  constructor(
    private readonly core: ServerCore,
    private readonly options: HttpHandlerOptions,
  ) {
    this.maxBodyBytes = positive(options.maxBodyBytes, 4 * 1024 * 1024, 'maxBodyBytes');
    this.bodyTimeoutMs = positive(options.bodyTimeoutMs, 30_000, 'bodyTimeoutMs');
    const requestTimeoutMs = positive(options.requestTimeoutMs, 300_000, 'requestTimeoutMs');
    this.engine = new HttpEngine(core, requestTimeoutMs, this.windDown.signal, this.authOf);
    this.maxListens = positive(options.maxListens, 1000, 'maxListens');
    this.gate = options.auth ? new BearerGate(options.auth, core.logger) : undefined;
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
    this.disposers = this.sessions ? followChanges(core, this.sessions) : [];
  }

  get openStreams(): number {
    let count = 0;
    if (this.sessions) for (const session of this.sessions.ready()) count += session.streams.size;
    return count;
  }

  handle(req: IncomingMessage, res: ServerResponse): void {
    this.inFlight++;
    this.dispatch(req, res).then(
      () => this.handled(),
      (error: unknown) => {
        try {
          this.core.logger({
            level: 'error',
            msg: 'HTTP request failed',
            error: error instanceof Error ? error.message : 'a non-Error value',
            ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
          });
          if (!res.headersSent) refuse(res, { status: 500, message: 'Internal Server Error' });
          else res.destroy();
        } finally {
          this.handled();
        }
      },
    );
  }

  /** One request fewer in flight; `close()` waits for none. */
  private handled(): void {
    this.inFlight--;
    if (this.inFlight === 0) for (const wake of this.idleWaiters) wake();
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
        return this.gate?.close();
      });
    }
    return this.closing;
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = pathOf(req.url);
    if (this.gate?.serveMetadata(gateRequest(req), gateSink(res), path)) return;
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
      const auth = await this.gate.check(gateRequest(req), gateSink(res));
      if (!auth) return;
      this.authOf.set(res, auth);
    }
    switch (req.method) {
      case 'POST':
        return this.post(req, res);
      case 'GET':
        return serveGet(this.sessions, req, res, this.principal(res));
      case 'DELETE':
        return serveDelete(this.sessions, req, res, this.principal(res));
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
    const body = await readBody(req, this.maxBodyBytes, this.bodyTimeoutMs, this.bodyDeadlines);
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
    // What the POST holds decides how it is answered (a 202, a session, an era): the engine is
    // fed only what it can read, and what it must answer decides when the response is written.
    const requests: JsonRpcRequest[] = [];
    for (const item of items) {
      const classified = classifyMessage(item);
      if (classified.kind === 'request') requests.push(classified.message);
      else if (classified.kind === 'invalid')
        return refuse(
          res,
          { status: 400, message: `Invalid Request: ${classified.reason}` },
          {},
          RpcErrorCode.InvalidRequest,
          classified.id ?? null,
        );
    }
    if (this.gate?.refuseToolCalls(gateSink(res), this.authOf.get(res), requests, this.core.tools)) return;
    const first = requests[0];
    const claimed = first ? claimedRevision(first) : undefined;
    // The `_meta` revision makes a request modern, whatever it names (an unsupported one is -32022);
    // so does a 2026 `MCP-Protocol-Version` header on a body that leaves that revision out (-32602).
    if (first && (claimed !== undefined || modernHeader(req))) {
      if (batch) return refuse(res, { status: 400, message: batchRefusal(LATEST_MODERN_REVISION)! });
      return this.modernPost(req, res, first, claimed);
    }
    if (first?.method === 'server/discover') return this.answer(res, modernEnvelopeProblem(first)!, 400);
    return this.legacyPost(req, res, items, requests, batch);
  }

  /** Who a protected request comes from (its token's client and subject): sessions are bound to it. */
  private principal(res: ServerResponse): string | undefined {
    return principalOf(this.authOf.get(res));
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
    const channel = new ResponseChannel(res, acceptsSse(req), NO_HEADERS);
    await this.engine.exchange(undefined, [request], [request.id], channel, res, {
      legacy: undefined,
      canInitialize: false,
      finish: (answers) => channel.finishFirst(answers, statusOf),
    });
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
      const channel = new ResponseChannel(res, true, NO_HEADERS);
      // A listen has no time limit: its connection gets none.
      await this.engine.exchange(
        undefined,
        [request],
        [request.id],
        channel,
        res,
        {
          legacy: undefined,
          canInitialize: false,
          finish: (answers) => channel.finishFirst(answers, statusOf),
        },
        false,
      );
    } finally {
      this.openListens--;
    }
  }

  private async legacyPost(
    req: IncomingMessage,
    res: ServerResponse,
    items: unknown[],
    requests: JsonRpcRequest[],
    batch: boolean,
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
        session = await this.sessions.create(this.principal(res));
        if (!session) return tooManySessions(res);
      } else {
        const id = header(req, SESSION_HEADER);
        if (id === undefined)
          return refuse(res, {
            status: 400,
            message: 'Bad Request: the Mcp-Session-Id header is required (send initialize first)',
          });
        const found = await this.sessions.get(id, this.principal(res));
        if (found === 'busy') return tooManySessions(res);
        if (!found) return refuse(res, { status: 404, message: 'Not Found: no such session' });
        session = found;
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
      legacy = statelessLegacy(version as ProtocolRevision);
    }
    // 2025-06-18 removed batching: such a batch is refused as a whole, before any of it runs.
    const refusal = batch ? batchRefusal(legacy?.revision) : undefined;
    if (refusal) return refuse(res, { status: 400, message: refusal });
    const ids = requests.map((request) => request.id);
    const inUse = ids.find((id, index) => ids.indexOf(id) !== index || session?.transport.has(id));
    if (inUse !== undefined)
      return refuse(
        res,
        { status: 400, message: `Invalid Request: id ${JSON.stringify(inUse)} is already in use` },
        {},
        RpcErrorCode.InvalidRequest,
        inUse,
      );
    if (requests.length === 0) {
      // Notifications (a cancel) and the client's answers to our requests (sampling, elicitation,
      // roots) go to the session's engine; without a session there is nothing they could reach.
      if (session) await this.sessions!.deliver(session, items);
      res.writeHead(202, headers).end();
      return;
    }
    // A session's SSE streams are resumable; 2025-11-25 clients get a priming event first (SEP-1699).
    const resumption = session
      ? {
          streams: session.resumable,
          primeRetryMs: legacy && hasFeature(legacy.revision, 'ssePolling') ? RESUME_RETRY_MS : undefined,
          requestIds: ids,
        }
      : undefined;
    const channel = new ResponseChannel(res, acceptsSse(req), headers, resumption);
    const methods = requests.map((request) => request.method);
    await this.engine.exchange(session, items, ids, channel, res, {
      legacy,
      canInitialize: initialize !== undefined,
      finish: (answers, route) => {
        if (session && initialize) {
          if (answers[0] && 'result' in answers[0] && route.legacy) session.legacy = route.legacy;
          else this.sessions?.end(session.id, new McpError('CONNECTION_CLOSED', 'initialize failed'));
        }
        const write = (): void => {
          if (batch && answers.length > 0) channel.finish(answers, 200);
          else channel.finishFirst(answers, legacyStatusOf);
        };
        // What initialize, setLevel or (un)subscribe changed is stored before the answer goes out.
        const saved = session && this.sessions?.saveAfter(session, methods);
        return saved ? saved.then(write) : write();
      },
    });
  }

  private answer(res: ServerResponse, answer: JsonRpcMessage, status: number): void {
    new ResponseChannel(res, false, NO_HEADERS).finish(answer, status);
  }
}

// temporary: replaced by core's node edge — the gate's view of Node's request and response.
const gateRequests = new WeakMap<IncomingMessage, HttpRequestIn>();
const gateSinks = new WeakMap<ServerResponse, ResponseSink>();

function gateRequest(req: IncomingMessage): HttpRequestIn {
  let view = gateRequests.get(req);
  if (!view) {
    view = {
      method: req.method ?? '',
      target: req.url ?? '',
      header: (name) => {
        const value = req.headers[name];
        return Array.isArray(value) ? value.join(', ') : value;
      },
      text: () => Promise.reject(new McpError('INVALID_STATE', 'the gate does not read bodies')),
    };
    gateRequests.set(req, view);
  }
  return view;
}

function gateSink(res: ServerResponse): ResponseSink {
  let sink = gateSinks.get(res);
  if (!sink) {
    sink = {
      send: (status, headers, body) => void res.writeHead(status, headers).end(body),
      open: (status, headers) => void res.writeHead(status, headers),
      write: (chunk) => void res.write(chunk),
      end: () => void res.end(),
      setHeader: (name, value) => void res.setHeader(name, value),
      get done() {
        return res.writableEnded || res.destroyed;
      },
      get started() {
        return res.headersSent;
      },
      onClose: (listener) => {
        res.once('close', listener);
        return () => void res.off('close', listener);
      },
    };
    gateSinks.set(res, sink);
  }
  return sink;
}
