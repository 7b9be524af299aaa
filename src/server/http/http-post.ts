/**
 * POST of the server kit's HTTP core: the body read and parsed, then the era decided from what it
 * holds (the `_meta` revision or a 2026 `MCP-Protocol-Version`: stateless 2026; otherwise a legacy
 * session, or stateless legacy), the checks of that era, and one exchange with the engine whose
 * outcome the response is written from (JSON, or SSE once something must go before the answer).
 */
import type { DeadlineSet } from '../../protocol/deadline-set.js';
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
import type { HttpRequestIn, ResponseSink } from '../../transport/http-server/http-exchange.js';
import type { AuthInfo } from '../auth-info.js';
import { batchRefusal } from '../batch-gate.js';
import { statelessLegacy, type LegacySession } from '../router/request-link.js';
import { toolShown } from '../visibility.js';
import { claimedCapabilities, claimedRevision, modernEnvelopeProblem } from '../router/modern-envelope.js';
import type { ClientCapabilities } from '../../protocol/types.js';
import type { ServerCore } from '../router/server-core.js';
import type { BearerGate } from './auth/bearer-gate.js';
import { legacyStatusOf, modernHeader, refuse, statusOf } from './http-answers.js';
import type { HttpEngine } from './http-engine.js';
import type { HttpSession, HttpSessions } from './http-sessions.js';
import { headerMismatch } from './modern-headers.js';
import { acceptsSse, checkMediaTypes } from './request-guards.js';
import { ResponseChannel } from './response-channel.js';
import { SESSION_HEADER, tooManySessions } from './session-streams.js';

/** Legacy servers assume this revision for a request without `MCP-Protocol-Version` (the spec's rule). */
const LEGACY_DEFAULT_REVISION: ProtocolRevision = '2025-03-26';
/** The `retry` of the priming event: how long a 2025-11-25 client waits before it resumes a closed stream. */
const RESUME_RETRY_MS = 500;
/** The extra headers of a response that has none (shared: a response's headers are copied, never changed). */
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({});

/** One request being served: what it is, where it is answered, and who sent it. */
export interface PostCall {
  readonly req: HttpRequestIn;
  readonly sink: ResponseSink;
  /** The verified token facts (a protected endpoint). */
  readonly auth: AuthInfo | undefined;
  /** Who it comes from (its token's client and subject): sessions are bound to it. */
  readonly principal: string | undefined;
}

/** What POST needs of its handler. */
export interface HttpPostOptions {
  readonly core: ServerCore;
  readonly engine: HttpEngine;
  readonly sessions: HttpSessions | undefined;
  readonly gate: BearerGate | undefined;
  readonly maxBodyBytes: number;
  readonly bodyTimeoutMs: number;
  /** The read time limits of the bodies being read, on one timer. */
  readonly bodyDeadlines: DeadlineSet;
  readonly maxListens: number;
}

export class HttpPost {
  openListens = 0;

  constructor(private readonly options: HttpPostOptions) {}

  async serve(call: PostCall): Promise<void> {
    const { req, sink } = call;
    const media = checkMediaTypes(req);
    if (media) return refuse(sink, media);
    const body = await req.text(this.options.maxBodyBytes, this.options.bodyTimeoutMs, this.options.bodyDeadlines);
    if ('status' in body) return refuse(sink, body);
    let value: unknown;
    try {
      value = JSON.parse(body.text);
    } catch {
      return refuse(sink, { status: 400, message: 'Parse error' }, {}, RpcErrorCode.ParseError);
    }
    const batch = Array.isArray(value);
    const items: unknown[] = batch ? (value as unknown[]) : [value];
    if (items.length === 0) return refuse(sink, { status: 400, message: 'Invalid Request: empty batch' });
    // What the POST holds decides how it is answered (a 202, a session, an era): the engine is
    // fed only what it can read.
    const requests: JsonRpcRequest[] = [];
    for (const item of items) {
      const classified = classifyMessage(item);
      if (classified.kind === 'request') requests.push(classified.message);
      else if (classified.kind === 'invalid')
        return refuse(
          sink,
          { status: 400, message: `Invalid Request: ${classified.reason}` },
          {},
          RpcErrorCode.InvalidRequest,
          classified.id ?? null,
        );
    }
    const first = requests[0];
    const claimed = first ? claimedRevision(first) : undefined;
    // The `_meta` revision makes a request modern, whatever it names (an unsupported one is -32022);
    // so does a 2026 `MCP-Protocol-Version` header on a body that leaves that revision out (-32602).
    if (first && (claimed !== undefined || modernHeader(req))) {
      if (this.refusesScopes(call, requests, claimedCapabilities)) return;
      if (batch) return refuse(sink, { status: 400, message: batchRefusal(LATEST_MODERN_REVISION)! });
      return this.modern(call, first, claimed);
    }
    if (first?.method === 'server/discover') return answer(sink, modernEnvelopeProblem(first)!, 400);
    return this.legacy(call, items, requests, batch);
  }

  /**
   * A 403 for the first tool call of `requests` whose tool needs a scope the token lacks (true:
   * answered), checked once the client's capabilities are known (`capabilitiesOf`: 2026, the
   * request's `_meta`; legacy, the session's): a tool hidden from that client (app-only, to a
   * client without apps) is unknown to it, so its call goes on to be -32602, as for an unknown tool.
   */
  private refusesScopes(
    call: PostCall,
    requests: readonly JsonRpcRequest[],
    capabilitiesOf: (request: JsonRpcRequest) => ClientCapabilities | undefined,
  ): boolean {
    const { core, gate } = this.options;
    if (!gate) return false;
    return gate.refuseToolCalls(call.sink, call.auth, requests, core.tools, (request, tool) =>
      toolShown(core, capabilitiesOf(request), call.auth, tool.wire),
    );
  }

  /** `revision` is the body's `_meta` revision as sent (any JSON value), or undefined when it has none. */
  private async modern(call: PostCall, request: JsonRpcRequest, revision: unknown): Promise<void> {
    const { req, sink } = call;
    // A required field missing from the body is -32602 (the 2026 rule), whatever the headers say.
    if (revision === undefined) return answer(sink, modernEnvelopeProblem(request)!, 400);
    // Headers first: a body naming a revision the header does not is a mismatch (-32020), even
    // when that revision is one the server does not speak (-32022 is for a header that agrees).
    const toolName =
      request.method === 'tools/call' && request.params && !Array.isArray(request.params)
        ? request.params.name
        : undefined;
    const found = typeof toolName === 'string' ? this.options.core.tools.get(toolName) : undefined;
    // A tool this client is not shown (app-only) is unknown to it here too: no headers checked against it.
    const tool =
      found && toolShown(this.options.core, claimedCapabilities(request), call.auth, found.wire) ? found : undefined;
    const mismatch = headerMismatch(req, request, revision, tool?.definition.inputSchema);
    if (mismatch)
      return answer(
        sink,
        makeErrorResponse(request.id, RpcErrorCode.HeaderMismatch, `Header mismatch: ${mismatch}`),
        400,
      );
    const problem = modernEnvelopeProblem(request);
    if (problem) return answer(sink, problem, 400);
    if (request.method === 'subscriptions/listen') return this.listen(call, request);
    return this.stateless(call, request, acceptsSse(req), true);
  }

  /** One 2026 request on a connection of its own; `timed`: under `requestTimeoutMs` (a listen is not). */
  private async stateless(call: PostCall, request: JsonRpcRequest, sse: boolean, timed: boolean): Promise<void> {
    const channel = new ResponseChannel(call.sink, sse, NO_HEADERS);
    const outcome = await this.options.engine.exchange({
      session: undefined,
      items: [request],
      ids: [request.id],
      channel,
      sink: call.sink,
      peer: call.req.peer,
      legacy: undefined,
      canInitialize: false,
      auth: call.auth,
      timed,
    });
    if (outcome.unavailable) channel.finishUnavailable(outcome.answers);
    else channel.finishFirst(outcome.answers, statusOf);
  }

  /**
   * A 2026 listen: the POST whose SSE response stays open (the acknowledgment first, then the
   * changes) until the client closes it (the cancel) or `close()` ends it with the completion
   * result. Needs SSE (406), is bounded by `maxListens` (503), and has no time limit.
   */
  private async listen(call: PostCall, request: JsonRpcRequest): Promise<void> {
    const { req, sink } = call;
    if (!acceptsSse(req))
      return answer(
        sink,
        makeErrorResponse(
          request.id,
          RpcErrorCode.InvalidRequest,
          'subscriptions/listen needs Accept: text/event-stream (its answer is a stream)',
        ),
        406,
      );
    if (this.openListens >= this.options.maxListens)
      return refuse(
        sink,
        { status: 503, message: `Service Unavailable: ${this.options.maxListens} listen streams are open` },
        { 'retry-after': '5' },
        RpcErrorCode.InternalError,
        request.id,
      );
    this.openListens++;
    try {
      // A listen has no time limit: its connection gets none.
      await this.stateless(call, request, true, false);
    } finally {
      this.openListens--;
    }
  }

  private async legacy(call: PostCall, items: unknown[], requests: JsonRpcRequest[], batch: boolean): Promise<void> {
    const { req, sink } = call;
    const sessions = this.options.sessions;
    const initialize = requests.find((r) => r.method === 'initialize');
    let session: HttpSession | undefined;
    let legacy: LegacySession | undefined;
    const headers: Record<string, string> = {};
    if (initialize && requests.length > 1)
      return refuse(
        sink,
        { status: 400, message: 'Invalid Request: initialize must be sent alone' },
        {},
        RpcErrorCode.InvalidRequest,
        initialize.id,
      );
    if (sessions) {
      if (initialize) {
        session = await sessions.create(call.principal);
        if (!session) return tooManySessions(sink);
      } else {
        const id = req.header(SESSION_HEADER);
        if (id === undefined)
          return refuse(sink, {
            status: 400,
            message: 'Bad Request: the Mcp-Session-Id header is required (send initialize first)',
          });
        const found = await sessions.get(id, call.principal);
        if (found === 'busy') return tooManySessions(sink);
        if (!found) return refuse(sink, { status: 404, message: 'Not Found: no such session' });
        session = found;
        if (!session.legacy)
          return refuse(sink, { status: 400, message: 'Bad Request: the session is not initialized' });
        legacy = session.legacy;
        // The spec's rule is an unsupported version (400); the session's revision still governs.
        const version = req.header('mcp-protocol-version');
        if (version !== undefined && !(LEGACY_REVISIONS as readonly string[]).includes(version))
          return refuse(sink, { status: 400, message: 'Bad Request: unsupported MCP-Protocol-Version' });
      }
      headers[SESSION_HEADER] = session.id;
    } else if (!initialize) {
      const version = req.header('mcp-protocol-version') ?? LEGACY_DEFAULT_REVISION;
      if (!(LEGACY_REVISIONS as readonly string[]).includes(version))
        return refuse(sink, { status: 400, message: 'Bad Request: unsupported MCP-Protocol-Version' });
      legacy = statelessLegacy(version as ProtocolRevision);
    }
    const capabilities = legacy?.clientCapabilities;
    if (this.refusesScopes(call, requests, () => capabilities)) return;
    // 2025-06-18 removed batching: such a batch is refused as a whole, before any of it runs.
    const refusal = batch ? batchRefusal(legacy?.revision) : undefined;
    if (refusal) return refuse(sink, { status: 400, message: refusal });
    const ids = requests.map((request) => request.id);
    const inUse = ids.find((id, index) => ids.indexOf(id) !== index || session?.transport.has(id));
    if (inUse !== undefined)
      return refuse(
        sink,
        { status: 400, message: `Invalid Request: id ${JSON.stringify(inUse)} is already in use` },
        {},
        RpcErrorCode.InvalidRequest,
        inUse,
      );
    if (requests.length === 0) {
      // Notifications (a cancel) and the client's answers to our requests (sampling, elicitation,
      // roots) go to the session's engine; without a session there is nothing they could reach.
      if (session) await sessions!.deliver(session, items);
      return sink.send(202, headers);
    }
    // A session's SSE streams are resumable; 2025-11-25 clients get a priming event first (SEP-1699).
    const resumption = session
      ? {
          streams: session.resumable,
          primeRetryMs: legacy && hasFeature(legacy.revision, 'ssePolling') ? RESUME_RETRY_MS : undefined,
          requestIds: ids,
        }
      : undefined;
    const channel = new ResponseChannel(sink, acceptsSse(req), headers, resumption);
    const outcome = await this.options.engine.exchange({
      session,
      items,
      ids,
      channel,
      sink,
      peer: req.peer,
      legacy,
      canInitialize: initialize !== undefined,
      auth: call.auth,
    });
    if (session && initialize) {
      const made = outcome.answers[0];
      if (made && 'result' in made && outcome.legacy) session.legacy = outcome.legacy;
      else sessions?.end(session.id, new McpError('CONNECTION_CLOSED', 'initialize failed'));
    }
    // What initialize, setLevel or (un)subscribe changed is stored before the answer goes out.
    if (session)
      await sessions!.saveAfter(
        session,
        requests.map((request) => request.method),
      );
    if (outcome.unavailable) channel.finishUnavailable(outcome.answers);
    else if (batch && outcome.answers.length > 0) channel.finish(outcome.answers, 200);
    else channel.finishFirst(outcome.answers, legacyStatusOf);
  }
}

function answer(sink: ResponseSink, message: JsonRpcMessage, status: number): void {
  new ResponseChannel(sink, false, NO_HEADERS).finish(message, status);
}
