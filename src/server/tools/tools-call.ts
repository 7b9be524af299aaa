/**
 * The `tools/call` method in both eras: finding the tool (unknown, or hidden from this client
 * by `apps/app-only-tools.ts` → -32602), the client
 * capabilities it needs (-32021), the 2026 input round, and running the call, or running it as a
 * task of the 2026 tasks extension when the tool and the request allow (`tasks/tool-task.ts`).
 * Resolves with the result: the tool's (a failure of the handler is an `isError` result), the
 * 2026 `input_required` round end, or `CreateTaskResult`; throws a `RequestFault` for a call that
 * cannot run, and `STATE_UNAVAILABLE` when the task store is down.
 */
import { McpError } from '../../protocol/errors.js';
import { RpcErrorCode } from '../../protocol/jsonrpc.js';
import { eraOf } from '../../protocol/revisions.js';
import type { CallToolResult } from '../../protocol/types.js';
import { toolShown } from '../visibility.js';
import { inputRequired, InputRequiredSignal, roundInput, type RoundInput } from '../input/input-round.js';
import { requestContext } from '../router/handler-context.js';
import type { MethodCall, MethodResult, Params } from '../router/method-table.js';
import { RequestFault } from '../router/request-fault.js';
import { principalOf } from '../state/principal.js';
import type { StoredTask } from '../state/task-store.js';
import { taskSummary } from '../tasks/task-runtime.js';
import { declaresTasks, TaskLaunch, tasksRequired } from '../tasks/tool-task.js';
import { callTool } from './tool-call.js';
import type { RegisteredTool } from './tool-set.js';

/** Answers `tools/call` (see the file comment). */
export async function callToolMethod(params: Params, call: MethodCall): Promise<MethodResult> {
  const { core, facts } = call;
  const name = params.name;
  const found = typeof name === 'string' ? core.tools.get(name) : undefined;
  // A tool the client is not shown (app-only, to a client without apps) is unknown to it.
  const tool = found && toolShown(core, facts.clientCapabilities, call.link.auth, found.wire) ? found : undefined;
  if (!tool)
    throw RequestFault.invalidParams(typeof name === 'string' ? `Unknown tool: ${name}` : 'tools/call needs a "name"');
  const required = tool.definition.requiredClientCapabilities;
  if (required) {
    const declared = facts.clientCapabilities as Record<string, unknown>;
    const missing = Object.fromEntries(Object.entries(required).filter(([key]) => declared[key] === undefined));
    if (Object.keys(missing).length > 0)
      throw new RequestFault(
        RpcErrorCode.MissingRequiredClientCapability,
        `Tool "${tool.definition.name}" needs the client capabilities ${Object.keys(missing).join(', ')}`,
        { requiredCapabilities: missing },
      );
  }
  const support = tool.definition.taskSupport ?? 'forbidden';
  const taskable = support !== 'forbidden' && eraOf(facts.revision) === 'modern';
  if (taskable && support === 'required' && !declaresTasks(facts.clientCapabilities))
    throw tasksRequired(`Tool "${tool.definition.name}"`);
  const input = await roundInput(call, params, `tools/call:${tool.definition.name}`);
  try {
    if (taskable && declaresTasks(facts.clientCapabilities))
      return await runAsTask(
        call,
        tool,
        params,
        input,
        new TaskLaunch(core.tasks, call.link.signal, principalOf(call.link.auth)),
      );
    const { context, finish } = requestContext(call, params, input);
    try {
      return { ...(await callTool(tool, params.arguments, context, core.logger, core.onToolCall)) };
    } finally {
      finish();
    }
  } catch (error) {
    // A 2026 input request this round cannot answer ends the round.
    if (input && error instanceof InputRequiredSignal) return await inputRequired(call, input);
    throw error;
  }
}

/**
 * A call that may become a task: the answer is `CreateTaskResult` once the task exists (at once,
 * or when the handler calls `startTask()`), else the handler's own result (or its input
 * request). The task then takes the handler's outcome: its result (`completed`, a tool error
 * included) or, for an unexpected throw, `failed` with a JSON-RPC internal error (logged, never
 * the stack). A task the store cannot create fails the call: `STATE_UNAVAILABLE` for a store that
 * is down, -32603 naming the limit for a store full of running tasks (a condition the client may
 * retry later, said as it is).
 */
async function runAsTask(
  call: MethodCall,
  tool: RegisteredTool,
  params: Params,
  input: RoundInput | undefined,
  launch: TaskLaunch,
): Promise<MethodResult> {
  const { core } = call;
  if ((tool.definition.taskStart ?? 'call') === 'call') {
    try {
      await launch.start();
    } catch (error) {
      launch.release();
      if (error instanceof McpError && error.code === 'INVALID_STATE')
        throw new RequestFault(RpcErrorCode.InternalError, error.reason);
      throw error;
    }
  }
  const { context, finish } = requestContext(call, params, input, launch);
  const run = callTool(tool, params.arguments, context, core.logger, core.onToolCall, {
    throwUnexpected: () => launch.started,
  });
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
      settleTask(call, tool, task, run);
      return { resultType: 'task', ...taskSummary(task) };
    }
    launch.release();
    if (!first.result) throw first.error;
    return { ...first.result };
  } finally {
    finish();
  }
}

/** The task takes the handler's outcome once it comes; a store that refuses it is logged (never rejects). */
function settleTask(call: MethodCall, tool: RegisteredTool, task: StoredTask, run: Promise<CallToolResult>): void {
  const { core } = call;
  const settled = run.then(
    (result) => core.tasks.settle(task.taskId, { status: 'completed', result: { ...result } }),
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
}
