/**
 * The tasks extension on the request path (2026-07-28, `io.modelcontextprotocol/tasks`,
 * SEP-2663): a tool call that becomes a task ({@link TaskLaunch}) and the methods that follow a
 * task (`tasks/get`, `tasks/update`, `tasks/cancel`). The extension has no `tasks/result` or
 * `tasks/list` (the result is inlined on `tasks/get`): those stay unknown methods (-32601).
 */
import { makeErrorResponse, RpcErrorCode, type JsonRpcMessage, type JsonRpcRequest } from '../protocol/jsonrpc.js';
import type { ClientCapabilities } from '../protocol/types.js';
import { TASKS_EXTENSION, type TaskRecord, type TaskStore } from './task-store.js';

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
 * Answers `tasks/get`, `tasks/update` and `tasks/cancel`: the result (`resultType` is added by
 * the router), an error response, or undefined for any other method. Unknown or expired task
 * ids are -32602; cancelling an ended task is acknowledged like any other (idempotent).
 */
export function answerTaskMethod(
  store: TaskStore,
  request: JsonRpcRequest,
  params: Record<string, unknown>,
  capabilities: ClientCapabilities,
): { result: Record<string, unknown> } | { error: JsonRpcMessage } | undefined {
  const method = request.method;
  if (method !== 'tasks/get' && method !== 'tasks/update' && method !== 'tasks/cancel') return undefined;
  const fail = (code: number, message: string): { error: JsonRpcMessage } => ({
    error: makeErrorResponse(request.id, code, message),
  });
  if (!declaresTasks(capabilities)) return { error: tasksRequired(request, method) };
  if (typeof params.taskId !== 'string') return fail(RpcErrorCode.InvalidParams, `${method} needs a "taskId"`);
  const task = store.get(params.taskId);
  if (!task) return fail(RpcErrorCode.InvalidParams, `Unknown task: ${params.taskId}`);
  switch (method) {
    case 'tasks/get':
      return { result: task.detailed() };
    case 'tasks/update': {
      const responses = params.inputResponses;
      if (typeof responses !== 'object' || responses === null || Array.isArray(responses))
        return fail(RpcErrorCode.InvalidParams, 'tasks/update needs an "inputResponses" object');
      task.answer(responses as Record<string, unknown>);
      return { result: {} };
    }
    default:
      task.settle('cancelled');
      return { result: {} };
  }
}

/**
 * One task-capable tool call on its way to becoming a task. The handler's signal is the
 * launch's: it follows the request's signal until the task exists, then `tasks/cancel`.
 */
export class TaskLaunch {
  /** The handler's controller (the task's once it exists). */
  readonly controller = new AbortController();
  private record: TaskRecord | undefined;
  private announce!: (task: TaskRecord) => void;
  /** Resolves with the task when it is created. */
  readonly created = new Promise<TaskRecord>((resolve) => (this.announce = resolve));
  private readonly unlink: () => void;

  constructor(
    private readonly store: TaskStore,
    requestSignal: AbortSignal,
  ) {
    const follow = (): void => this.controller.abort(requestSignal.reason);
    if (requestSignal.aborted) follow();
    else requestSignal.addEventListener('abort', follow, { once: true });
    this.unlink = () => requestSignal.removeEventListener('abort', follow);
  }

  get task(): TaskRecord | undefined {
    return this.record;
  }

  /**
   * Creates the task (once); the request stops governing the handler. Throws `INVALID_STATE` when the store is full.
   */
  start(): TaskRecord {
    if (this.record) return this.record;
    this.unlink();
    this.record = this.store.create(this.controller);
    this.announce(this.record);
    return this.record;
  }

  /** The request was answered without a task: stop following its signal. */
  release(): void {
    this.unlink();
  }
}
