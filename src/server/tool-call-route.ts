/**
 * Answering `tools/call` in both eras: finding the tool (unknown → -32602), the handler's
 * context (its signal, progress and log notices, server input: a legacy request to the client or
 * a 2026 round of multi-round-trip input with a signed `requestState`), and running a call as a
 * task of the 2026 tasks extension (`tool-task.ts`). Split from `request-router.ts`, which
 * routes every method and calls {@link runTool} for this one.
 */
import { McpError } from '../protocol/errors.js';
import { makeErrorResponse, RpcErrorCode, type JsonRpcMessage, type JsonRpcRequest } from '../protocol/jsonrpc.js';
import { eraOf, hasFeature, type ProtocolRevision } from '../protocol/revisions.js';
import type { CallToolResult, ClientCapabilities, Implementation, LoggingLevel, Meta } from '../protocol/types.js';
import { isLoggingLevel, LOG_LEVEL_RANK, type RequestLink } from './request-link.js';
import type { ToolContext } from './server-types.js';
import { callTool } from './tool-call.js';
import type { RegisteredTool } from './tool-set.js';
import { InputRequiredSignal } from './input-state.js';
import { missingInputCapability } from './input-capability.js';
import { declaresTasks, TaskLaunch, tasksRequired } from './tool-task.js';
import { taskSummary } from './task-runtime.js';
import type { StoredTask } from './state/task-store.js';
import { principalOf } from './state/principal.js';
import type { ServerCore } from './request-router.js';

type Params = Record<string, unknown>;

/**
 * `tools/call`: the tool's result, or the JSON-RPC error for a call that cannot run. Never rejects for a handler's
 * failure.
 */
export async function runTool(
  core: ServerCore,
  request: JsonRpcRequest,
  params: Params,
  link: RequestLink,
  facts: RequestFacts,
): Promise<{ result: CallToolResult } | { error: JsonRpcMessage }> {
  const name = params.name;
  const tool = typeof name === 'string' ? core.tools.get(name) : undefined;
  if (!tool)
    return {
      error: makeErrorResponse(
        request.id,
        RpcErrorCode.InvalidParams,
        typeof name === 'string' ? `Unknown tool: ${name}` : 'tools/call needs a "name"',
      ),
    };
  const required = tool.definition.requiredClientCapabilities;
  if (required) {
    const missing = Object.fromEntries(
      Object.entries(required).filter(
        ([key]) => (facts.clientCapabilities as Record<string, unknown>)[key] === undefined,
      ),
    );
    if (Object.keys(missing).length > 0) {
      return {
        error: makeErrorResponse(
          request.id,
          RpcErrorCode.MissingRequiredClientCapability,
          `Tool "${tool.definition.name}" needs the client capabilities ${Object.keys(missing).join(', ')}`,
          { requiredCapabilities: missing },
        ),
      };
    }
  }
  const support = tool.definition.taskSupport ?? 'forbidden';
  const taskable = support !== 'forbidden' && eraOf(facts.revision) === 'modern';
  if (taskable && support === 'required' && !declaresTasks(facts.clientCapabilities))
    return { error: tasksRequired(request, `Tool "${tool.definition.name}"`) };
  const input = await roundInput(core, request, params, facts, `tools/call:${tool.definition.name}`, link);
  if (input && 'jsonrpc' in input) return { error: input };
  const launch =
    taskable && declaresTasks(facts.clientCapabilities)
      ? new TaskLaunch(core.tasks, link.signal, principalOf(link.auth))
      : undefined;
  if (launch) return runAsTask(core, request, tool, params, link, facts, input, launch);
  const { context, finish } = requestContext(request, params, link, facts, input);
  try {
    const result = await callTool(tool, params.arguments, context, core.logger, core.onToolCall);
    if (input && result.resultType === 'input_required')
      return { result: (await inputRequired(core, input, link)) as unknown as CallToolResult };
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
async function runAsTask(
  core: ServerCore,
  request: JsonRpcRequest,
  tool: RegisteredTool,
  params: Params,
  link: RequestLink,
  facts: RequestFacts,
  input: RoundInput | undefined,
  launch: TaskLaunch,
): Promise<{ result: CallToolResult } | { error: JsonRpcMessage }> {
  if ((tool.definition.taskStart ?? 'call') === 'call') {
    try {
      await launch.start();
    } catch (error) {
      launch.release();
      // The store is full of tasks still running: a server condition the client may retry later,
      // said as it is. Any other failure (a shared store down) is the operator's to read in the
      // log: its text names the store, which is not the client's business.
      const full = error instanceof McpError && error.code === 'INVALID_STATE';
      if (!full)
        core.logger({
          level: 'error',
          msg: 'task could not be created',
          tool: tool.definition.name,
          error: error instanceof Error ? error.message : 'a non-Error value',
        });
      return {
        error: makeErrorResponse(
          request.id,
          RpcErrorCode.InternalError,
          full ? error.reason : 'the task could not be created',
        ),
      };
    }
  }
  const { context, finish } = requestContext(request, params, link, facts, input, launch);
  const run = callTool(tool, params.arguments, context, core.logger, core.onToolCall, {
    throwUnexpected: () => launch.started,
  });
  const settleTask = (task: StoredTask): void => {
    const settled = run.then(
      (result) => {
        const { resultType: _drop, ...plain } = result as CallToolResult & { resultType?: unknown };
        return core.tasks.settle(task.taskId, { status: 'completed', result: plain });
      },
      (error: unknown) => {
        core.logger({
          level: 'error',
          msg: 'task handler threw',
          tool: tool.definition.name,
          taskId: task.taskId,
          error: error instanceof Error ? error.message : 'a non-Error value',
          ...(error instanceof Error && error.stack ? { stack: error.stack } : {}),
        });
        return core.tasks.settle(task.taskId, {
          status: 'failed',
          error: { code: RpcErrorCode.InternalError, message: 'Internal error' },
        });
      },
    );
    settled.catch((error: unknown) =>
      core.logger({
        level: 'error',
        msg: 'the task store refused a task outcome',
        taskId: task.taskId,
        error: error instanceof Error ? error.message : 'a non-Error value',
      }),
    );
  };
  try {
    const first: { result?: CallToolResult; error?: unknown } = await Promise.race([
      run.then(
        (result) => ({ result }),
        (error: unknown) => ({ error }),
      ),
      launch.created.then(() => ({})),
    ]);
    // A handler that started its task and returned before the store had it still answers with the task.
    const task = launch.started ? await launch.start().catch(() => undefined) : undefined;
    if (task) {
      settleTask(task);
      return { result: { resultType: 'task', ...taskSummary(task) } as unknown as CallToolResult };
    }
    launch.release();
    if (!first.result) throw first.error;
    const result = first.result;
    if (input && result.resultType === 'input_required')
      return { result: (await inputRequired(core, input, link)) as unknown as CallToolResult };
    return { result };
  } finally {
    finish();
  }
}

/**
 * The 2026 input round of a request that may end in `input_required` (tools/call, prompts/get):
 * the answers it carries plus those of a valid `requestState`, or a -32602 error (a state this
 * server did not sign for `target`, malformed `inputResponses`). Undefined in the legacy era.
 */
export async function roundInput(
  core: ServerCore,
  request: JsonRpcRequest,
  params: Params,
  facts: RequestFacts,
  target: string,
  link: RequestLink,
): Promise<RoundInput | JsonRpcMessage | undefined> {
  if (eraOf(facts.revision) !== 'modern') return undefined;
  const state =
    params.requestState === undefined
      ? undefined
      : await core.inputState.verify(params.requestState, target, principalOf(link.auth), Date.now());
  if (params.requestState !== undefined && !state)
    return makeErrorResponse(
      request.id,
      RpcErrorCode.InvalidParams,
      'requestState is not one this server issued for this request (altered, forged, expired, or for another request or user)',
    );
  const given = params.inputResponses;
  // Each answer is the result of the request it answers (an object); anything else is refused, never handed to the
  // handler.
  if (given !== undefined && !isObject(given))
    return makeErrorResponse(
      request.id,
      RpcErrorCode.InvalidParams,
      'inputResponses must be an object of answers by key',
    );
  const malformed = given === undefined ? undefined : Object.keys(given).find((key) => !isObject(given[key]));
  if (malformed !== undefined)
    return makeErrorResponse(
      request.id,
      RpcErrorCode.InvalidParams,
      `inputResponses["${malformed.slice(0, 100)}"] must be an object (the result of the input request)`,
    );
  const responses = { ...state?.responses, ...(given ?? {}) };
  return { target, responses, asked: {}, resumed: state !== undefined };
}

/** The 2026 `input_required` result asking for `input`'s requests, with the signed state of the rounds so far. */
export async function inputRequired(
  core: ServerCore,
  input: RoundInput,
  link: RequestLink,
): Promise<Record<string, unknown>> {
  return {
    resultType: 'input_required',
    inputRequests: input.asked,
    requestState: await core.inputState.sign(
      { target: input.target, responses: input.responses },
      principalOf(link.auth),
      Date.now(),
    ),
  };
}

/** What a request says about its client (the era's envelope or session): revision, capabilities, info, log level. */
export type RequestFacts = {
  revision: ProtocolRevision;
  clientCapabilities: ClientCapabilities;
  clientInfo: Implementation | undefined;
  logLevel: LoggingLevel | undefined;
};

/** One round of 2026 multi-round-trip input: the answers so far and what the handler asked that they lack. */
interface RoundInput {
  target: string;
  responses: Record<string, unknown>;
  asked: Record<string, { method: string; params: Record<string, unknown> }>;
  resumed: boolean;
}

/** The handler's context; `finish` stops its progress and log messages (none after the response). */
export function requestContext(
  request: JsonRpcRequest,
  params: Params,
  link: RequestLink,
  facts: RequestFacts,
  input?: RoundInput,
  launch?: TaskLaunch,
): { context: ToolContext; finish: () => void } {
  let asks = 0;
  const token = isObject(params._meta) ? (params._meta as Meta).progressToken : undefined;
  const threshold = facts.logLevel === undefined ? undefined : LOG_LEVEL_RANK[facts.logLevel];
  let last = -Infinity;
  let finished = false;
  const context: ToolContext = {
    // A getter: the request's AbortController is made only if the handler looks at its signal.
    get signal() {
      return launch ? launch.controller.signal : link.signal;
    },
    era: eraOf(facts.revision),
    revision: facts.revision,
    requestId: request.id,
    clientInfo: facts.clientInfo,
    clientCapabilities: facts.clientCapabilities,
    progress(progress, total, message) {
      if (
        finished ||
        (typeof token !== 'string' && typeof token !== 'number') ||
        typeof progress !== 'number' ||
        !(progress > last)
      )
        return;
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
    elicit: (body, options) => ask('elicitation/create', body, options?.key) as Promise<never>,
    sample: (body, options) => ask('sampling/createMessage', body, options?.key) as Promise<never>,
    listRoots: (options) => ask('roots/list', {}, options?.key) as Promise<never>,
    resumed: input?.resumed ?? false,
    closeStream: () => {
      if (!finished) link.closeStream?.();
    },
    startTask: () => {
      // A store's refusal surfaces where the handler next needs the task (an input request).
      if (launch && !finished) launch.start().catch(() => undefined);
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
  async function ask(method: string, body: Record<string, unknown>, key?: string): Promise<Record<string, unknown>> {
    // Checked before anything is sent or asked: a client refusing a mode it never declared would
    // otherwise answer -32601, which the handler could not tell from a failure.
    const missing = missingInputCapability(method, body, facts.clientCapabilities);
    if (missing !== undefined)
      throw new McpError('INPUT_UNSUPPORTED', `the client did not declare the "${missing}" capability`, { method });
    // A task's input waits for `tasks/update`, under the same keys as a request's rounds (an
    // answer gathered in those rounds still counts).
    if (launch?.started) {
      await launch.start();
      const name = key ?? `input-${++asks}`;
      if (input && Object.hasOwn(input.responses, name)) return input.responses[name] as Record<string, unknown>;
      return launch.ask(name, { method, params: body });
    }
    if (finished) throw new McpError('INVALID_STATE', `${method} after the request was answered`, { method });
    if (eraOf(facts.revision) === 'modern') {
      if (!input)
        throw new McpError(
          'INPUT_UNSUPPORTED',
          `${method} is available to tools and prompts only in 2026-07-28 (multi-round-trip input)`,
          { method },
        );
      const name = key ?? `input-${++asks}`;
      if (Object.hasOwn(input.responses, name)) return input.responses[name] as Record<string, unknown>;
      input.asked[name] = { method, params: body };
      throw new InputRequiredSignal();
    }
    if (!link.request)
      throw new McpError(
        'INPUT_UNSUPPORTED',
        `${method} needs a connection that carries server requests (stdio, or HTTP with sessions)`,
        { method },
      );
    return link.request(method, body);
  }
  return { context, finish: () => (finished = true) };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
