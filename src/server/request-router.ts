/**
 * Answers one inbound request, in the era it belongs to:
 * - legacy (≤ 2025-11-25): `initialize` negotiates a revision and makes the connection's
 *   session; then `ping`, `logging/setLevel`, `tools/list`, `tools/call`;
 * - modern (2026-07-28): no handshake; every request carries its revision and the client's
 *   capabilities in `params._meta` (missing → -32602, an unsupported revision → -32022 with the
 *   supported list); `server/discover`, `tools/list`, `tools/call`; every result has
 *   `resultType` and the server's info in `_meta`.
 * A request with a modern revision in `_meta` is modern on any connection; one without is legacy
 * when the connection has a session, else refused (it must initialize or carry `_meta`).
 * Returns the response (or error response); never rejects.
 */
import { McpError } from '../protocol/errors.js';
import { makeErrorResponse, makeResponse, RpcErrorCode, type JsonRpcMessage, type JsonRpcRequest } from '../protocol/jsonrpc.js';
import { eraOf, hasFeature, LATEST_LEGACY_REVISION, LEGACY_REVISIONS, MODERN_REVISIONS, type ProtocolRevision } from '../protocol/revisions.js';
import type { CallToolResult, ClientCapabilities, Implementation, LoggingLevel, Meta, ServerCapabilities, Tool } from '../protocol/types.js';
import { isLoggingLevel, LOG_LEVEL_RANK, type LegacySession, type RequestLink } from './request-link.js';
import type { ServerLogger, ToolCallObserver, ToolContext } from './server-types.js';
import { callTool } from './tool-call.js';
import type { ToolSet } from './tool-set.js';

/** What the router needs of the server. */
export interface ServerCore {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  readonly pageSize: number;
  readonly tools: ToolSet;
  readonly logger: ServerLogger;
  readonly onToolCall: ToolCallObserver | undefined;
}

const META_VERSION = 'io.modelcontextprotocol/protocolVersion';
const META_CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const META_CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
const META_LOG_LEVEL = 'io.modelcontextprotocol/logLevel';
const META_SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

/** The per-request facts of a modern request, read from its `_meta`. */
interface ModernRequest {
  revision: ProtocolRevision;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  logLevel: LoggingLevel | undefined;
}

type Params = Record<string, unknown>;

/** Answers `request`. */
export async function routeRequest(core: ServerCore, request: JsonRpcRequest, link: RequestLink): Promise<JsonRpcMessage> {
  const params: Params = request.params && !Array.isArray(request.params) ? request.params : {};
  const meta = isObject(params._meta) ? (params._meta as Meta) : undefined;
  const claimed = meta?.[META_VERSION];
  try {
    if (request.method === 'initialize') return makeResponse(request.id, initialize(core, params, link));
    if (typeof claimed === 'string' && eraOf(claimed) === 'modern') return await modern(core, request, params, meta!, link);
    if (request.method === 'server/discover') return modernEnvelopeError(request, meta);
    if (link.legacy) return await legacy(core, request, params, link.legacy, link);
    if (request.method === 'ping') return makeResponse(request.id, {});
    return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, `${request.method} needs params._meta["${META_VERSION}"] (2026-07-28) or an initialize handshake first`);
  } catch (error) {
    if (error instanceof McpError && error.code === 'INVALID_ARGUMENT') return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, error.reason);
    core.logger({ level: 'error', msg: 'request failed', method: request.method, error: error instanceof Error ? error.message : 'a non-Error value', ...(error instanceof Error && error.stack ? { stack: error.stack } : {}) });
    return makeErrorResponse(request.id, RpcErrorCode.InternalError, 'Internal error');
  }
}

// ---- legacy ----

function initialize(core: ServerCore, params: Params, link: RequestLink): Record<string, unknown> {
  if (!link.canInitialize) throw new McpError('INVALID_ARGUMENT', 'initialize is not accepted here: this connection is already initialized');
  const requested = params.protocolVersion;
  // Echo a revision we speak, else offer our newest legacy one (the client may then disconnect).
  const revision: ProtocolRevision = (LEGACY_REVISIONS as readonly unknown[]).includes(requested) ? (requested as ProtocolRevision) : LATEST_LEGACY_REVISION;
  link.legacy = {
    revision,
    clientCapabilities: isObject(params.capabilities) ? (params.capabilities as ClientCapabilities) : {},
    clientInfo: isObject(params.clientInfo) ? (params.clientInfo as unknown as Implementation) : undefined,
    logLevel: 'info',
  };
  const result: Record<string, unknown> = { protocolVersion: revision, capabilities: legacyCapabilities(), serverInfo: core.info };
  if (core.instructions !== undefined) result.instructions = core.instructions;
  return result;
}

function legacyCapabilities(): ServerCapabilities {
  return { tools: { listChanged: true }, logging: {} };
}

async function legacy(core: ServerCore, request: JsonRpcRequest, params: Params, session: LegacySession, link: RequestLink): Promise<JsonRpcMessage> {
  switch (request.method) {
    case 'ping':
      return makeResponse(request.id, {});
    case 'logging/setLevel': {
      if (!isLoggingLevel(params.level)) return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, 'logging/setLevel needs a valid "level"');
      session.logLevel = params.level;
      return makeResponse(request.id, {});
    }
    case 'tools/list': {
      const page = core.tools.page(params.cursor, core.pageSize);
      return makeResponse(request.id, { ...page, tools: page.tools.map((tool) => toolForRevision(tool, session.revision)) });
    }
    case 'tools/call': {
      const result = await runTool(core, request, params, link, { revision: session.revision, clientCapabilities: session.clientCapabilities, clientInfo: session.clientInfo, logLevel: session.logLevel });
      if ('error' in result) return result.error;
      if (!hasFeature(session.revision, 'structuredOutput')) delete result.result.structuredContent;
      return makeResponse(request.id, result.result);
    }
    default:
      return makeErrorResponse(request.id, RpcErrorCode.MethodNotFound, `Method not found: ${request.method}`);
  }
}

/** A tool as a client of an older revision knows it (no fields it cannot read). */
function toolForRevision(tool: Tool, revision: ProtocolRevision): Tool {
  if (hasFeature(revision, 'structuredOutput') && hasFeature(revision, 'toolAnnotations')) return tool;
  const copy: Tool = { ...tool };
  if (!hasFeature(revision, 'structuredOutput')) {
    delete copy.outputSchema;
    delete copy.title;
  }
  if (!hasFeature(revision, 'toolAnnotations')) delete copy.annotations;
  return copy;
}

// ---- modern ----

/** The error of a modern request whose `_meta` is missing, incomplete or names a revision we do not speak. */
function modernEnvelopeError(request: JsonRpcRequest, meta: Meta | undefined): JsonRpcMessage {
  const version = meta?.[META_VERSION];
  if (version === undefined) return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, `${request.method} needs params._meta["${META_VERSION}"]`);
  return makeErrorResponse(request.id, RpcErrorCode.UnsupportedProtocolVersion, 'Unsupported protocol version', { supported: [...MODERN_REVISIONS], requested: version });
}

/**
 * The error a request with a modern revision in `_meta` gets for its envelope alone (missing
 * capabilities, an unsupported revision, a bad log level), or undefined when the envelope is
 * good. Streamable HTTP answers these with status 400.
 */
export function modernEnvelopeProblem(request: JsonRpcRequest): JsonRpcMessage | undefined {
  const params: Params = request.params && !Array.isArray(request.params) ? request.params : {};
  const meta = isObject(params._meta) ? (params._meta as Meta) : undefined;
  if (!meta) return modernEnvelopeError(request, meta);
  const facts = readModern(request, meta);
  return 'jsonrpc' in facts ? facts : undefined;
}

/** The revision a request claims in `_meta`, if any. */
export function claimedRevision(request: JsonRpcRequest): unknown {
  const params = request.params && !Array.isArray(request.params) ? request.params : undefined;
  return isObject(params?._meta) ? (params._meta as Meta)[META_VERSION] : undefined;
}

function readModern(request: JsonRpcRequest, meta: Meta): ModernRequest | JsonRpcMessage {
  const version = meta[META_VERSION];
  if (!(MODERN_REVISIONS as readonly unknown[]).includes(version)) return modernEnvelopeError(request, meta);
  const capabilities = meta[META_CAPABILITIES];
  if (!isObject(capabilities)) return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, `${request.method} needs params._meta["${META_CAPABILITIES}"] (an object; {} for none)`);
  const logLevel = meta[META_LOG_LEVEL];
  if (logLevel !== undefined && !isLoggingLevel(logLevel)) return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, `params._meta["${META_LOG_LEVEL}"] is not a log level`);
  const clientInfo = meta[META_CLIENT_INFO];
  return {
    revision: version as ProtocolRevision,
    clientCapabilities: capabilities as ClientCapabilities,
    clientInfo: isObject(clientInfo) ? (clientInfo as unknown as Implementation) : undefined,
    logLevel,
  };
}

async function modern(core: ServerCore, request: JsonRpcRequest, params: Params, meta: Meta, link: RequestLink): Promise<JsonRpcMessage> {
  const facts = readModern(request, meta);
  if ('jsonrpc' in facts) return facts;
  const done = (result: Record<string, unknown>): JsonRpcMessage => makeResponse(request.id, { ...result, resultType: 'complete', _meta: { ...(result._meta as Meta | undefined), [META_SERVER_INFO]: core.info } });
  switch (request.method) {
    case 'server/discover': {
      const result: Record<string, unknown> = { supportedVersions: [...MODERN_REVISIONS, ...LEGACY_REVISIONS], capabilities: { tools: {} }, serverInfo: core.info, ttlMs: 0, cacheScope: 'public' };
      if (core.instructions !== undefined) result.instructions = core.instructions;
      return done(result);
    }
    case 'tools/list':
      return done({ ...core.tools.page(params.cursor, core.pageSize), ttlMs: 0, cacheScope: 'public' });
    case 'tools/call': {
      const outcome = await runTool(core, request, params, link, facts);
      return 'error' in outcome ? outcome.error : done(outcome.result);
    }
    default:
      return makeErrorResponse(request.id, RpcErrorCode.MethodNotFound, `Method not found: ${request.method}`);
  }
}

// ---- both eras ----

async function runTool(core: ServerCore, request: JsonRpcRequest, params: Params, link: RequestLink, facts: ModernRequest | (Omit<ModernRequest, 'logLevel'> & { logLevel: LoggingLevel })): Promise<{ result: CallToolResult } | { error: JsonRpcMessage }> {
  const name = params.name;
  const tool = typeof name === 'string' ? core.tools.get(name) : undefined;
  if (!tool) return { error: makeErrorResponse(request.id, RpcErrorCode.InvalidParams, typeof name === 'string' ? `Unknown tool: ${name}` : 'tools/call needs a "name"') };
  const { context, finish } = toolContext(request, params, link, facts);
  try {
    return { result: await callTool(tool, params.arguments, context, core.logger, core.onToolCall) };
  } finally {
    finish();
  }
}

/** The handler's context; `finish` stops its progress and log messages (none after the response). */
function toolContext(request: JsonRpcRequest, params: Params, link: RequestLink, facts: { revision: ProtocolRevision; clientCapabilities: ClientCapabilities; clientInfo: Implementation | undefined; logLevel: LoggingLevel | undefined }): { context: ToolContext; finish: () => void } {
  const token = isObject(params._meta) ? (params._meta as Meta).progressToken : undefined;
  const threshold = facts.logLevel === undefined ? undefined : LOG_LEVEL_RANK[facts.logLevel];
  let last = -Infinity;
  let finished = false;
  const context: ToolContext = {
    signal: link.signal,
    era: eraOf(facts.revision),
    revision: facts.revision,
    requestId: request.id,
    clientInfo: facts.clientInfo,
    clientCapabilities: facts.clientCapabilities,
    progress(progress, total, message) {
      if (finished || (typeof token !== 'string' && typeof token !== 'number') || typeof progress !== 'number' || !(progress > last)) return;
      last = progress;
      const out: Record<string, unknown> = { progressToken: token, progress };
      if (total !== undefined) out.total = total;
      if (message !== undefined && hasFeature(facts.revision, 'progressMessage')) out.message = message;
      link.notify('notifications/progress', out);
    },
    log(level, data, logger) {
      if (finished || threshold === undefined || !isLoggingLevel(level) || LOG_LEVEL_RANK[level] < threshold) return;
      link.notify('notifications/message', logger === undefined ? { level, data } : { level, logger, data });
    },
  };
  return { context, finish: () => (finished = true) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
