/**
 * Answers one inbound request, in the era it belongs to:
 * - legacy (≤ 2025-11-25): `initialize` negotiates a revision and makes the connection's
 *   session; then `ping`, `logging/setLevel`, `tools/list`, `tools/call`;
 * - modern (2026-07-28): no handshake; every request carries its revision and the client's
 *   capabilities in `params._meta` (missing → -32602, an unsupported revision → -32022 with the
 *   supported list); `server/discover`, `tools/list`, `tools/call`, `subscriptions/listen`
 *   (`listen-stream.ts`); every result has `resultType` and the server's info in `_meta`.
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
import type { RegisteredTool, ToolSet } from './tool-set.js';
import { InputRequiredSignal, type InputStateSigner } from './input-state.js';
import type { ResourceSet } from './resource-set.js';
import type { PromptSet } from './prompt-set.js';
import { TASKS_EXTENSION, type TaskStore } from './task-store.js';
import { answerTaskMethod, declaresTasks, TaskLaunch, tasksRequired } from './tool-task.js';
import { serveListen } from './listen-stream.js';

/** What the router needs of the server. */
export interface ServerCore {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  readonly pageSize: number;
  readonly tools: ToolSet;
  readonly resources: ResourceSet;
  readonly prompts: PromptSet;
  /** Listeners of `McpServer.notifyResourceUpdated` (the sessions). */
  readonly resourceUpdated: Set<(uri: string) => void>;
  readonly logger: ServerLogger;
  readonly onToolCall: ToolCallObserver | undefined;
  /** Signs the 2026 `requestState` of multi-round-trip input. */
  readonly inputState: InputStateSigner;
  /** The tasks of the 2026 tasks extension. */
  readonly tasks: TaskStore;
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
    // A request with a 2026 envelope is modern whatever its method (`initialize` is then a removed
    // method, -32601) and whatever revision it names: one we do not serve per request (unknown,
    // legacy, not a date) is -32022 with the supported list (2026-07-28 basic/versioning).
    if (claimed !== undefined) return await modern(core, request, params, meta!, link);
    if (request.method === 'initialize') return makeResponse(request.id, initialize(core, params, link));
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
    subscriptions: new Set(),
  };
  const result: Record<string, unknown> = { protocolVersion: revision, capabilities: capabilitiesOf(core, 'legacy'), serverInfo: core.info };
  if (core.instructions !== undefined) result.instructions = core.instructions;
  return result;
}

/**
 * What the server offers, from what is registered when asked. List changes and resource updates
 * reach a legacy client unasked (`resources/subscribe` for updates) and a 2026 client on its
 * `subscriptions/listen` streams; `logging/setLevel` exists only in the legacy era.
 */
function capabilitiesOf(core: ServerCore, era: 'legacy' | 'modern'): ServerCapabilities {
  const legacy = era === 'legacy';
  const capabilities: ServerCapabilities = { tools: { listChanged: true } };
  if (core.resources.size > 0) capabilities.resources = { subscribe: true, listChanged: true };
  if (core.prompts.size > 0) capabilities.prompts = { listChanged: true };
  if (core.resources.size > 0 || core.prompts.size > 0) capabilities.completions = {};
  if (legacy) capabilities.logging = {};
  if (!legacy && core.tools.anyTaskSupport) capabilities.extensions = { [TASKS_EXTENSION]: {} };
  return capabilities;
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
    case 'resources/subscribe':
    case 'resources/unsubscribe': {
      if (core.resources.size === 0) break;
      if (typeof params.uri !== 'string') return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, `${request.method} needs a "uri"`);
      if (request.method === 'resources/subscribe') session.subscriptions.add(params.uri);
      else session.subscriptions.delete(params.uri);
      return makeResponse(request.id, {});
    }
    default: {
      const answer = await shared(core, request, params, link, { revision: session.revision, clientCapabilities: session.clientCapabilities, clientInfo: session.clientInfo, logLevel: session.logLevel });
      if (answer) return 'jsonrpc' in answer ? answer : makeResponse(request.id, answer.result);
    }
  }
  return makeErrorResponse(request.id, RpcErrorCode.MethodNotFound, `Method not found: ${request.method}`);
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
  const done = (result: Record<string, unknown>): JsonRpcMessage => makeResponse(request.id, { resultType: 'complete', ...result, _meta: { ...(result._meta as Meta | undefined), [META_SERVER_INFO]: core.info } });
  switch (request.method) {
    case 'server/discover': {
      const result: Record<string, unknown> = { supportedVersions: [...MODERN_REVISIONS, ...LEGACY_REVISIONS], capabilities: capabilitiesOf(core, 'modern'), serverInfo: core.info, ttlMs: 0, cacheScope: 'public' };
      if (core.instructions !== undefined) result.instructions = core.instructions;
      return done(result);
    }
    case 'tools/list':
      return done({ ...core.tools.page(params.cursor, core.pageSize), ttlMs: 0, cacheScope: 'public' });
    case 'tools/call': {
      const outcome = await runTool(core, request, params, link, facts);
      return 'error' in outcome ? outcome.error : done(outcome.result);
    }
    case 'subscriptions/listen': {
      // Cancelled: the transport sends nothing (this answer is dropped).
      const completion = await serveListen(core, request.id, params.notifications, capabilitiesOf(core, 'modern'), link);
      return done(completion ?? {});
    }
    default: {
      const taskAnswer = answerTaskMethod(core.tasks, request, params, facts.clientCapabilities);
      if (taskAnswer) return 'error' in taskAnswer ? taskAnswer.error : done(taskAnswer.result);
      const answer = await shared(core, request, params, link, facts);
      if (!answer) return makeErrorResponse(request.id, RpcErrorCode.MethodNotFound, `Method not found: ${request.method}`);
      if ('jsonrpc' in answer) return answer;
      return done(answer.cacheable ? { ...answer.result, ttlMs: 0, cacheScope: 'public' } : answer.result);
    }
  }
}

/**
 * The methods both eras share beyond tools: resource and prompt lists, reading, prompts/get,
 * completion. Undefined for a method it does not know (or whose capability is not offered).
 */
async function shared(core: ServerCore, request: JsonRpcRequest, params: Params, link: RequestLink, facts: RequestFacts): Promise<{ result: Record<string, unknown>; cacheable: boolean } | JsonRpcMessage | undefined> {
  const era = eraOf(facts.revision);
  const hasResources = core.resources.size > 0;
  const hasPrompts = core.prompts.size > 0;
  switch (request.method) {
    case 'resources/list':
      return hasResources ? { result: core.resources.page(params.cursor, core.pageSize), cacheable: true } : undefined;
    case 'resources/templates/list':
      return hasResources ? { result: core.resources.templatePage(params.cursor, core.pageSize), cacheable: true } : undefined;
    case 'resources/read': {
      if (!hasResources) return undefined;
      if (typeof params.uri !== 'string') return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, 'resources/read needs a "uri"');
      const { context, finish } = requestContext(request, params, link, facts);
      try {
        const contents = await core.resources.read(params.uri, context);
        // 2026 reports a missing resource as invalid params; legacy revisions had their own code.
        if (!contents) return makeErrorResponse(request.id, era === 'modern' ? RpcErrorCode.InvalidParams : RpcErrorCode.ResourceNotFound, `Resource not found: ${params.uri}`, { uri: params.uri });
        return { result: { contents }, cacheable: true };
      } finally {
        finish();
      }
    }
    case 'prompts/list':
      return hasPrompts ? { result: core.prompts.page(params.cursor, core.pageSize), cacheable: true } : undefined;
    case 'prompts/get': {
      if (!hasPrompts) return undefined;
      const prompt = typeof params.name === 'string' ? core.prompts.get(params.name) : undefined;
      if (!prompt) return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, typeof params.name === 'string' ? `Unknown prompt: ${params.name}` : 'prompts/get needs a "name"');
      const args = stringRecord(params.arguments);
      if (!args) return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, 'prompts/get "arguments" must map names to strings');
      const missing = (prompt.arguments ?? []).filter((a) => a.required && args[a.name] === undefined).map((a) => a.name);
      if (missing.length > 0) return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, `prompt "${prompt.name}" needs the argument(s) ${missing.join(', ')}`);
      const input = roundInput(core, request, params, facts, `prompts/get:${prompt.name}`);
      if (input && 'jsonrpc' in input) return input;
      const { context, finish } = requestContext(request, params, link, facts, input);
      try {
        const result = await prompt.get(args, context);
        return { result: { ...(result.description !== undefined ? { description: result.description } : {}), messages: result.messages }, cacheable: false };
      } catch (error) {
        if (input && error instanceof InputRequiredSignal) return { result: inputRequired(core, input), cacheable: false };
        throw error;
      } finally {
        finish();
      }
    }
    case 'completion/complete': {
      if (!hasResources && !hasPrompts) return undefined;
      const ref = isObject(params.ref) ? params.ref : {};
      const argument = isObject(params.argument) ? params.argument : {};
      if (typeof argument.name !== 'string' || typeof argument.value !== 'string') return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, 'completion/complete needs argument.name and argument.value');
      let complete;
      if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
        if (!core.prompts.get(ref.name)) return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, `Unknown prompt: ${ref.name}`);
        complete = core.prompts.get(ref.name)?.complete?.[argument.name];
      } else if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
        complete = core.resources.completer(ref.uri, argument.name);
      } else {
        return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, 'completion/complete needs a ref/prompt or ref/resource "ref"');
      }
      const given = isObject(params.context) ? (stringRecord(params.context.arguments) ?? {}) : {};
      const values = complete ? (await complete(argument.value, { arguments: given })).filter((v) => typeof v === 'string') : [];
      return { result: { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } }, cacheable: false };
    }
    default:
      return undefined;
  }
}

function stringRecord(value: unknown): Record<string, string> | undefined {
  if (value === undefined) return {};
  if (!isObject(value)) return undefined;
  for (const v of Object.values(value)) if (typeof v !== 'string') return undefined;
  return value as Record<string, string>;
}

// ---- both eras ----

async function runTool(core: ServerCore, request: JsonRpcRequest, params: Params, link: RequestLink, facts: RequestFacts): Promise<{ result: CallToolResult } | { error: JsonRpcMessage }> {
  const name = params.name;
  const tool = typeof name === 'string' ? core.tools.get(name) : undefined;
  if (!tool) return { error: makeErrorResponse(request.id, RpcErrorCode.InvalidParams, typeof name === 'string' ? `Unknown tool: ${name}` : 'tools/call needs a "name"') };
  const required = tool.definition.requiredClientCapabilities;
  if (required) {
    const missing = Object.fromEntries(Object.entries(required).filter(([key]) => (facts.clientCapabilities as Record<string, unknown>)[key] === undefined));
    if (Object.keys(missing).length > 0) {
      return { error: makeErrorResponse(request.id, RpcErrorCode.MissingRequiredClientCapability, `Tool "${tool.definition.name}" needs the client capabilities ${Object.keys(missing).join(', ')}`, { requiredCapabilities: missing }) };
    }
  }
  const support = tool.definition.taskSupport ?? 'forbidden';
  const taskable = support !== 'forbidden' && eraOf(facts.revision) === 'modern';
  if (taskable && support === 'required' && !declaresTasks(facts.clientCapabilities)) return { error: tasksRequired(request, `Tool "${tool.definition.name}"`) };
  const input = roundInput(core, request, params, facts, `tools/call:${tool.definition.name}`);
  if (input && 'jsonrpc' in input) return { error: input };
  const launch = taskable && declaresTasks(facts.clientCapabilities) ? new TaskLaunch(core.tasks, link.signal) : undefined;
  if (launch) return runAsTask(core, request, tool, params, link, facts, input, launch);
  const { context, finish } = requestContext(request, params, link, facts, input);
  try {
    const result = await callTool(tool, params.arguments, context, core.logger, core.onToolCall);
    if (input && result.resultType === 'input_required') return { result: inputRequired(core, input) as unknown as CallToolResult };
    return { result };
  } finally {
    finish();
  }
}

/**
 * A call that may become a task: the answer is `CreateTaskResult` once the task exists (at once,
 * or when the handler calls `startTask()`), else the handler's own result or `input_required`.
 * The task then takes the handler's outcome: its result (`completed`, a tool error included) or,
 * for an unexpected throw, `failed` with a JSON-RPC internal error (logged, never the stack).
 */
async function runAsTask(core: ServerCore, request: JsonRpcRequest, tool: RegisteredTool, params: Params, link: RequestLink, facts: RequestFacts, input: RoundInput | undefined, launch: TaskLaunch): Promise<{ result: CallToolResult } | { error: JsonRpcMessage }> {
  if ((tool.definition.taskStart ?? 'call') === 'call') {
    try {
      launch.start();
    } catch (error) {
      launch.release();
      // The store is full of tasks still running: a server condition the client may retry later.
      return { error: makeErrorResponse(request.id, RpcErrorCode.InternalError, error instanceof McpError ? error.reason : 'the task could not be created') };
    }
  }
  const { context, finish } = requestContext(request, params, link, facts, input, launch);
  const run = callTool(tool, params.arguments, context, core.logger, core.onToolCall, { throwUnexpected: () => launch.task !== undefined });
  const settleTask = (task: NonNullable<TaskLaunch['task']>): void => {
    run.then(
      (result) => {
        const { resultType: _drop, ...plain } = result as CallToolResult & { resultType?: unknown };
        task.settle('completed', { result: plain as Record<string, unknown> });
      },
      (error: unknown) => {
        core.logger({ level: 'error', msg: 'task handler threw', tool: tool.definition.name, taskId: task.taskId, error: error instanceof Error ? error.message : 'a non-Error value', ...(error instanceof Error && error.stack ? { stack: error.stack } : {}) });
        task.settle('failed', { error: { code: RpcErrorCode.InternalError, message: 'Internal error' } });
      },
    );
  };
  try {
    const first: { result?: CallToolResult; error?: unknown } = await Promise.race([run.then((result) => ({ result }), (error: unknown) => ({ error })), launch.created.then(() => ({}))]);
    const task = launch.task;
    if (task) {
      settleTask(task);
      return { result: { resultType: 'task', ...task.summary() } as unknown as CallToolResult };
    }
    launch.release();
    if (!first.result) throw first.error;
    const result = first.result;
    if (input && result.resultType === 'input_required') return { result: inputRequired(core, input) as unknown as CallToolResult };
    return { result };
  } finally {
    finish();
  }
}

/**
 * The 2026 input round of a request that may end in `input_required` (tools/call, prompts/get):
 * the answers it carries plus those of a valid `requestState` (-32602 for one this server did not
 * sign for `target`). Undefined in the legacy era.
 */
function roundInput(core: ServerCore, request: JsonRpcRequest, params: Params, facts: RequestFacts, target: string): RoundInput | JsonRpcMessage | undefined {
  if (eraOf(facts.revision) !== 'modern') return undefined;
  const state = params.requestState === undefined ? undefined : core.inputState.verify(params.requestState, target);
  if (params.requestState !== undefined && !state) return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, 'requestState is not one this server issued for this request (altered, forged or for another request)');
  const given = params.inputResponses;
  // Each answer is the result of the request it answers (an object); anything else is refused, never handed to the handler.
  if (given !== undefined && !isObject(given)) return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, 'inputResponses must be an object of answers by key');
  const malformed = given === undefined ? undefined : Object.keys(given).find((key) => !isObject(given[key]));
  if (malformed !== undefined) return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, `inputResponses["${malformed.slice(0, 100)}"] must be an object (the result of the input request)`);
  const responses = { ...state?.responses, ...(given ?? {}) };
  return { target, responses, asked: {}, resumed: state !== undefined };
}

function inputRequired(core: ServerCore, input: RoundInput): Record<string, unknown> {
  return { resultType: 'input_required', inputRequests: input.asked, requestState: core.inputState.sign({ target: input.target, responses: input.responses }) };
}

/** The facts of one request a handler may read (the era's envelope or session). */
type RequestFacts = { revision: ProtocolRevision; clientCapabilities: ClientCapabilities; clientInfo: Implementation | undefined; logLevel: LoggingLevel | undefined };

/** The handler's context; `finish` stops its progress and log messages (none after the response). */
/** One round of 2026 multi-round-trip input: the answers so far and what the handler asked that they lack. */
interface RoundInput {
  target: string;
  responses: Record<string, unknown>;
  asked: Record<string, { method: string; params: Record<string, unknown> }>;
  resumed: boolean;
}

function requestContext(request: JsonRpcRequest, params: Params, link: RequestLink, facts: RequestFacts, input?: RoundInput, launch?: TaskLaunch): { context: ToolContext; finish: () => void } {
  let asks = 0;
  const token = isObject(params._meta) ? (params._meta as Meta).progressToken : undefined;
  const threshold = facts.logLevel === undefined ? undefined : LOG_LEVEL_RANK[facts.logLevel];
  let last = -Infinity;
  let finished = false;
  const context: ToolContext = {
    signal: launch ? launch.controller.signal : link.signal,
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
    elicit: (body, options) => ask('elicitation/create', body as unknown as Record<string, unknown>, 'elicitation', options?.key) as Promise<never>,
    sample: (body, options) => ask('sampling/createMessage', body as unknown as Record<string, unknown>, 'sampling', options?.key) as Promise<never>,
    listRoots: (options) => ask('roots/list', {}, 'roots', options?.key) as Promise<never>,
    resumed: input?.resumed ?? false,
    closeStream: () => {
      if (!finished) link.closeStream?.();
    },
    startTask: () => {
      if (launch && !finished) launch.start();
    },
    get taskId() {
      return launch?.task?.taskId;
    },
    auth: link.auth,
  };
  /**
   * Server→client input in both eras: a request to the client on a legacy connection; in 2026,
   * the answer the request carries (`inputResponses` or the signed `requestState`), else the
   * round ends in `input_required` (every request asked before the handler gave up goes in it).
   */
  async function ask(method: string, body: Record<string, unknown>, capability: keyof ClientCapabilities, key?: string): Promise<Record<string, unknown>> {
    if (facts.clientCapabilities[capability] === undefined) throw new McpError('INPUT_UNSUPPORTED', `the client did not declare the "${capability}" capability`, { method });
    // A task's input waits for `tasks/update`, under the same keys as a request's rounds (an
    // answer gathered in those rounds still counts).
    if (launch?.task) {
      const name = key ?? `input-${++asks}`;
      if (input && Object.hasOwn(input.responses, name)) return input.responses[name] as Record<string, unknown>;
      return launch.task.ask(name, method, body);
    }
    if (finished) throw new McpError('INVALID_STATE', `${method} after the request was answered`, { method });
    if (eraOf(facts.revision) === 'modern') {
      if (!input) throw new McpError('INPUT_UNSUPPORTED', `${method} is available to tools and prompts only in 2026-07-28 (multi-round-trip input)`, { method });
      const name = key ?? `input-${++asks}`;
      if (Object.hasOwn(input.responses, name)) return input.responses[name] as Record<string, unknown>;
      input.asked[name] = { method, params: body };
      throw new InputRequiredSignal();
    }
    if (!link.request) throw new McpError('INPUT_UNSUPPORTED', `${method} needs a connection that carries server requests (stdio, or HTTP with sessions)`, { method });
    return link.request(method, body, link.signal);
  }
  return { context, finish: () => (finished = true) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
