/**
 * The tasks extension on the request path (2026-07-28, `io.modelcontextprotocol/tasks`,
 * SEP-2663): a tool call that becomes a task ({@link TaskLaunch}) and the methods that follow a
 * task (`tasks/get`, `tasks/update`, `tasks/cancel`). The extension has no `tasks/result` or
 * `tasks/list` (the result is inlined on `tasks/get`): those stay unknown methods (-32601).
 */
import { makeErrorResponse, RpcErrorCode, type JsonRpcMessage, type JsonRpcRequest } from '../protocol/jsonrpc.js';
import type { ClientCapabilities } from '../protocol/types.js';
import type { StoredTask, TaskInputRequest } from './state/task-store.js';
import { TASKS_EXTENSION, taskDetails, type TaskRuntime } from './task-runtime.js';

/** True when a request declared the tasks extension in its client capabilities. */
export function declaresTasks(capabilities: ClientCapabilities): boolean {
  const extensions = capabilities.extensions;
  return typeof extensions === 'object' && extensions !== null && extensions[TASKS_EXTENSION] !== undefined;
}

/** The -32021 answer to a task method or a `required` tool from a request without the extension. */
export function tasksRequired(request: JsonRpcRequest, what: string): JsonRpcMessage {
  return makeErrorResponse(
    request.id,
    RpcErrorCode.MissingRequiredClientCapability,
    `${what} needs the client capability extensions["${TASKS_EXTENSION}"]`,
    {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    },
  );
}

/**
 * Answers `tasks/get`, `tasks/update` and `tasks/cancel` for `principal`: the result
 * (`resultType` is added by the router), an error response, or undefined for any other method.
 * Unknown, expired or another principal's task ids are -32602; cancelling an ended task is
 * acknowledged like any other (idempotent).
 */
export async function answerTaskMethod(
  tasks: TaskRuntime,
  request: JsonRpcRequest,
  params: Record<string, unknown>,
  capabilities: ClientCapabilities,
  principal: string | undefined,
): Promise<{ result: Record<string, unknown> } | { error: JsonRpcMessage } | undefined> {
  const method = request.method;
  if (method !== 'tasks/get' && method !== 'tasks/update' && method !== 'tasks/cancel') return undefined;
  const fail = (code: number, message: string): { error: JsonRpcMessage } => ({
    error: makeErrorResponse(request.id, code, message),
  });
  if (!declaresTasks(capabilities)) return { error: tasksRequired(request, method) };
  const taskId = params.taskId;
  if (typeof taskId !== 'string') return fail(RpcErrorCode.InvalidParams, `${method} needs a "taskId"`);
  const unknown = (): { error: JsonRpcMessage } => fail(RpcErrorCode.InvalidParams, `Unknown task: ${taskId}`);
  switch (method) {
    case 'tasks/get': {
      const task = await tasks.get(taskId, principal);
      return task ? { result: taskDetails(task) } : unknown();
    }
    case 'tasks/update': {
      const responses = params.inputResponses;
      if (typeof responses !== 'object' || responses === null || Array.isArray(responses))
        return (await tasks.get(taskId, principal))
          ? fail(RpcErrorCode.InvalidParams, 'tasks/update needs an "inputResponses" object')
          : unknown();
      return (await tasks.respond(taskId, principal, responses as Record<string, unknown>))
        ? { result: {} }
        : unknown();
    }
    default:
      return (await tasks.cancel(taskId, principal)) ? { result: {} } : unknown();
  }
}

/**
 * One task-capable tool call on its way to becoming a task. The handler's signal is the
 * launch's: it follows the request's signal until the task exists, then `tasks/cancel`.
 */
export class TaskLaunch {
  /** The handler's controller (the task's once it exists). */
  readonly controller = new AbortController();
  private record: StoredTask | undefined;
  private stored: Promise<StoredTask> | undefined;
  private announce!: (task: StoredTask) => void;
  /** Resolves with the task once it is stored (never, when it could not be). */
  readonly created = new Promise<StoredTask>((resolve) => (this.announce = resolve));
  private readonly unlink: () => void;

  constructor(
    private readonly tasks: TaskRuntime,
    requestSignal: AbortSignal,
    private readonly principal: string | undefined,
  ) {
    const follow = (): void => this.controller.abort(requestSignal.reason);
    if (requestSignal.aborted) follow();
    else requestSignal.addEventListener('abort', follow, { once: true });
    this.unlink = () => requestSignal.removeEventListener('abort', follow);
  }

  /** The task once stored. */
  get task(): StoredTask | undefined {
    return this.record;
  }

  /** True once {@link start} was called (the task may still be on its way to the store). */
  get started(): boolean {
    return this.stored !== undefined;
  }

  /**
   * Creates the task (once) and resolves with it once stored; the request stops governing the
   * handler. Rejects `INVALID_STATE` when the store is full (or the store's own error).
   */
  start(): Promise<StoredTask> {
    if (!this.stored) {
      this.unlink();
      this.stored = this.tasks.create(crypto.randomUUID(), this.principal, this.controller).then((task) => {
        this.record = task;
        this.announce(task);
        return task;
      });
    }
    return this.stored;
  }

  /**
   * Parks the handler on one input request of the task (started first, when it is not yet) until
   * `tasks/update` answers it under `key`. Rejects with `CANCELLED` when the task ends first.
   */
  async ask(key: string, request: TaskInputRequest): Promise<Record<string, unknown>> {
    const task = await this.start();
    return this.tasks.ask(task.taskId, key, request);
  }

  /** The request was answered without a task: stop following its signal. */
  release(): void {
    this.unlink();
  }
}
