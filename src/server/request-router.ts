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
import {
  makeErrorResponse,
  makeResponse,
  RpcErrorCode,
  type JsonRpcMessage,
  type JsonRpcRequest,
} from '../protocol/jsonrpc.js';
import {
  eraOf,
  hasFeature,
  LATEST_LEGACY_REVISION,
  LEGACY_REVISIONS,
  MODERN_REVISIONS,
  type ProtocolRevision,
} from '../protocol/revisions.js';
import type { Implementation, Meta, ServerCapabilities, Tool } from '../protocol/types.js';
import { isLoggingLevel, type LegacySession, type RequestLink } from './request-link.js';
import type { ServerLogger, ToolCallObserver } from './server-types.js';
import type { ToolSet } from './tool-set.js';
import { InputRequiredSignal, type InputStateSigner } from './input-state.js';
import type { ResourceSet } from './resource-set.js';
import type { PromptSet } from './prompt-set.js';
import { TASKS_EXTENSION, type TaskRuntime } from './task-runtime.js';
import { principalOf } from './state/principal.js';
import type { ServerState } from './state/server-state.js';
import type { ChangeFeed } from './change-listeners.js';
import { answerTaskMethod } from './tool-task.js';
import { serveListen } from './listen-stream.js';
import { inputRequired, requestContext, roundInput, runTool, type RequestFacts } from './tool-call-route.js';
import { META_KEYS } from '../protocol/meta-keys.js';
import { modernEnvelopeError, readModern } from './modern-envelope.js';
import { ResourceNotFoundError } from './resource-not-found.js';

export { claimedRevision, modernEnvelopeProblem } from './modern-envelope.js';

/** What the router needs of the server. */
export interface ServerCore {
  readonly info: Implementation;
  readonly instructions: string | undefined;
  readonly pageSize: number;
  readonly tools: ToolSet;
  readonly resources: ResourceSet;
  readonly prompts: PromptSet;
  /**
   * The changes this server's clients hear (list changes, resource updates), from every node
   * through the change bus: legacy sessions, GET streams and listens register here.
   */
  readonly changes: ChangeFeed;
  readonly logger: ServerLogger;
  readonly onToolCall: ToolCallObserver | undefined;
  /** Signs the 2026 `requestState` of multi-round-trip input. */
  readonly inputState: InputStateSigner;
  /** The tasks of the 2026 tasks extension. */
  readonly tasks: TaskRuntime;
  /** Where the server's shared state lives, and this node's id. */
  readonly state: ServerState;
}

const META_VERSION = META_KEYS.protocolVersion;
const META_SERVER_INFO = META_KEYS.serverInfo;

type Params = Record<string, unknown>;

/** Answers `request`. */
export async function routeRequest(
  core: ServerCore,
  request: JsonRpcRequest,
  link: RequestLink,
): Promise<JsonRpcMessage> {
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
    return makeErrorResponse(
      request.id,
      RpcErrorCode.InvalidParams,
      `${request.method} needs params._meta["${META_VERSION}"] (2026-07-28) or an initialize handshake first`,
    );
  } catch (error) {
    if (error instanceof McpError && error.code === 'INVALID_ARGUMENT')
      return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, error.reason);
    core.logger({
      level: 'error',
      msg: 'request failed',
      method: request.method,
      error: error instanceof Error ? error.message : 'a non-Error value',
      ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
    });
    return makeErrorResponse(request.id, RpcErrorCode.InternalError, 'Internal error');
  }
}

// ---- legacy ----

function initialize(core: ServerCore, params: Params, link: RequestLink): Record<string, unknown> {
  if (!link.canInitialize)
    throw new McpError('INVALID_ARGUMENT', 'initialize is not accepted here: this connection is already initialized');
  const requested = params.protocolVersion;
  // Echo a revision we speak, else offer our newest legacy one (the client may then disconnect).
  const revision: ProtocolRevision = (LEGACY_REVISIONS as readonly unknown[]).includes(requested)
    ? (requested as ProtocolRevision)
    : LATEST_LEGACY_REVISION;
  link.legacy = {
    revision,
    clientCapabilities: isObject(params.capabilities) ? params.capabilities : {},
    clientInfo: isObject(params.clientInfo) ? (params.clientInfo as unknown as Implementation) : undefined,
    logLevel: 'info',
    subscriptions: new Set(),
  };
  const result: Record<string, unknown> = {
    protocolVersion: revision,
    capabilities: capabilitiesOf(core, 'legacy'),
    serverInfo: core.info,
  };
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

async function legacy(
  core: ServerCore,
  request: JsonRpcRequest,
  params: Params,
  session: LegacySession,
  link: RequestLink,
): Promise<JsonRpcMessage> {
  switch (request.method) {
    case 'ping':
      return makeResponse(request.id, {});
    case 'logging/setLevel': {
      if (!isLoggingLevel(params.level))
        return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, 'logging/setLevel needs a valid "level"');
      session.logLevel = params.level;
      return makeResponse(request.id, {});
    }
    case 'tools/list': {
      const page = core.tools.page(params.cursor, core.pageSize);
      return makeResponse(request.id, {
        ...page,
        tools: page.tools.map((tool) => toolForRevision(tool, session.revision)),
      });
    }
    case 'tools/call': {
      const result = await runTool(core, request, params, link, {
        revision: session.revision,
        clientCapabilities: session.clientCapabilities,
        clientInfo: session.clientInfo,
        logLevel: session.logLevel,
      });
      if ('error' in result) return result.error;
      if (!hasFeature(session.revision, 'structuredOutput')) delete result.result.structuredContent;
      return makeResponse(request.id, result.result);
    }
    case 'resources/subscribe':
    case 'resources/unsubscribe': {
      if (core.resources.size === 0) break;
      if (typeof params.uri !== 'string')
        return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, `${request.method} needs a "uri"`);
      if (request.method === 'resources/subscribe') session.subscriptions.add(params.uri);
      else session.subscriptions.delete(params.uri);
      return makeResponse(request.id, {});
    }
    default: {
      const answer = await shared(core, request, params, link, {
        revision: session.revision,
        clientCapabilities: session.clientCapabilities,
        clientInfo: session.clientInfo,
        logLevel: session.logLevel,
      });
      if (answer) return 'jsonrpc' in answer ? answer : makeResponse(request.id, answer.result);
    }
  }
  return makeErrorResponse(request.id, RpcErrorCode.MethodNotFound, `Method not found: ${request.method}`);
}

/**
 * A tool as a legacy client knows it: no fields its revision cannot read, and no
 * `execution.taskSupport`, because the kit serves tasks only through the 2026 extension and
 * declares no `tasks` capability in a session: a 2025-11-25 client must then not use tasks
 * whatever a tool says (basic/utilities/tasks, tool-level negotiation), and each call is
 * answered directly.
 */
function toolForRevision(tool: Tool, revision: ProtocolRevision): Tool {
  const { execution: _tasksOnlyIn2026, ...copy } = tool;
  if (!hasFeature(revision, 'structuredOutput')) {
    delete copy.outputSchema;
    delete copy.title;
  }
  if (!hasFeature(revision, 'toolAnnotations')) delete copy.annotations;
  return copy;
}

// ---- modern ----

async function modern(
  core: ServerCore,
  request: JsonRpcRequest,
  params: Params,
  meta: Meta,
  link: RequestLink,
): Promise<JsonRpcMessage> {
  const facts = readModern(request, meta);
  if ('jsonrpc' in facts) return facts;
  const done = (result: Record<string, unknown>): JsonRpcMessage =>
    makeResponse(request.id, {
      resultType: 'complete',
      ...result,
      _meta: { ...(result._meta as Meta | undefined), [META_SERVER_INFO]: core.info },
    });
  switch (request.method) {
    case 'server/discover': {
      const result: Record<string, unknown> = {
        supportedVersions: [...MODERN_REVISIONS, ...LEGACY_REVISIONS],
        capabilities: capabilitiesOf(core, 'modern'),
        serverInfo: core.info,
        ttlMs: 0,
        cacheScope: 'public',
      };
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
      const completion = await serveListen(
        core,
        request.id,
        params.notifications,
        capabilitiesOf(core, 'modern'),
        link,
      );
      return done(completion ?? {});
    }
    default: {
      const taskAnswer = await answerTaskMethod(
        core.tasks,
        request,
        params,
        facts.clientCapabilities,
        principalOf(link.auth),
      );
      if (taskAnswer) return 'error' in taskAnswer ? taskAnswer.error : done(taskAnswer.result);
      const answer = await shared(core, request, params, link, facts);
      if (!answer)
        return makeErrorResponse(request.id, RpcErrorCode.MethodNotFound, `Method not found: ${request.method}`);
      if ('jsonrpc' in answer) return answer;
      return done(answer.cacheable ? { ...answer.result, ttlMs: 0, cacheScope: 'public' } : answer.result);
    }
  }
}

/**
 * The methods both eras share beyond tools: resource and prompt lists, reading, prompts/get,
 * completion. Undefined for a method it does not know (or whose capability is not offered).
 */
async function shared(
  core: ServerCore,
  request: JsonRpcRequest,
  params: Params,
  link: RequestLink,
  facts: RequestFacts,
): Promise<{ result: Record<string, unknown>; cacheable: boolean } | JsonRpcMessage | undefined> {
  const era = eraOf(facts.revision);
  const hasResources = core.resources.size > 0;
  const hasPrompts = core.prompts.size > 0;
  switch (request.method) {
    case 'resources/list':
      return hasResources ? { result: core.resources.page(params.cursor, core.pageSize), cacheable: true } : undefined;
    case 'resources/templates/list':
      return hasResources
        ? { result: core.resources.templatePage(params.cursor, core.pageSize), cacheable: true }
        : undefined;
    case 'resources/read': {
      if (!hasResources) return undefined;
      if (typeof params.uri !== 'string')
        return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, 'resources/read needs a "uri"');
      const { context, finish } = requestContext(request, params, link, facts);
      try {
        const contents = await core.resources.read(params.uri, context).catch((error: unknown) => {
          if (error instanceof ResourceNotFoundError) return undefined;
          throw error;
        });
        // 2026 reports a missing resource as invalid params; legacy revisions had their own code.
        if (!contents)
          return makeErrorResponse(
            request.id,
            era === 'modern' ? RpcErrorCode.InvalidParams : RpcErrorCode.ResourceNotFound,
            `Resource not found: ${params.uri}`,
            { uri: params.uri },
          );
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
      if (!prompt)
        return makeErrorResponse(
          request.id,
          RpcErrorCode.InvalidParams,
          typeof params.name === 'string' ? `Unknown prompt: ${params.name}` : 'prompts/get needs a "name"',
        );
      const args = stringRecord(params.arguments);
      if (!args)
        return makeErrorResponse(
          request.id,
          RpcErrorCode.InvalidParams,
          'prompts/get "arguments" must map names to strings',
        );
      const missing = (prompt.arguments ?? [])
        .filter((a) => a.required && args[a.name] === undefined)
        .map((a) => a.name);
      if (missing.length > 0)
        return makeErrorResponse(
          request.id,
          RpcErrorCode.InvalidParams,
          `prompt "${prompt.name}" needs the argument(s) ${missing.join(', ')}`,
        );
      const input = await roundInput(core, request, params, facts, `prompts/get:${prompt.name}`, link);
      if (input && 'jsonrpc' in input) return input;
      const { context, finish } = requestContext(request, params, link, facts, input);
      try {
        const result = await prompt.get(args, context);
        return {
          result: {
            ...(result.description !== undefined ? { description: result.description } : {}),
            messages: result.messages,
          },
          cacheable: false,
        };
      } catch (error) {
        if (input && error instanceof InputRequiredSignal)
          return { result: await inputRequired(core, input, link), cacheable: false };
        throw error;
      } finally {
        finish();
      }
    }
    case 'completion/complete': {
      if (!hasResources && !hasPrompts) return undefined;
      const ref = isObject(params.ref) ? params.ref : {};
      const argument = isObject(params.argument) ? params.argument : {};
      if (typeof argument.name !== 'string' || typeof argument.value !== 'string')
        return makeErrorResponse(
          request.id,
          RpcErrorCode.InvalidParams,
          'completion/complete needs argument.name and argument.value',
        );
      let complete;
      if (ref.type === 'ref/prompt' && typeof ref.name === 'string') {
        if (!core.prompts.get(ref.name))
          return makeErrorResponse(request.id, RpcErrorCode.InvalidParams, `Unknown prompt: ${ref.name}`);
        complete = core.prompts.get(ref.name)?.complete?.[argument.name];
      } else if (ref.type === 'ref/resource' && typeof ref.uri === 'string') {
        complete = core.resources.completer(ref.uri, argument.name);
      } else {
        return makeErrorResponse(
          request.id,
          RpcErrorCode.InvalidParams,
          'completion/complete needs a ref/prompt or ref/resource "ref"',
        );
      }
      const given = isObject(params.context) ? (stringRecord(params.context.arguments) ?? {}) : {};
      const values = complete
        ? (await complete(argument.value, { arguments: given })).filter((v) => typeof v === 'string')
        : [];
      return {
        result: { completion: { values: values.slice(0, 100), total: values.length, hasMore: values.length > 100 } },
        cacheable: false,
      };
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

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
