/**
 * The tasks extension on the request path (2026-07-28, `io.modelcontextprotocol/tasks`,
 * SEP-2663): a tool call that becomes a task ({@link TaskLaunch}) and the methods that follow a
 * task (`tasks/get`, `tasks/update`, `tasks/cancel`). The extension has no `tasks/result` or
 * `tasks/list` (the result is inlined on `tasks/get`): those stay unknown methods (-32601).
 */
import type { ClientCapabilities } from '../../protocol/types.js';
import type { StoredTask, TaskInputRequest } from '../state/task-store.js';
import { TASKS_EXTENSION, taskDetails, type TaskRuntime } from './task-runtime.js';
import {
  isObject,
  type MethodCall,
  type MethodHandler,
  type MethodResult,
  type Params,
} from '../router/method-table.js';
import { RequestFault } from '../router/request-fault.js';
import { principalOf } from '../state/principal.js';
import { clientDeclares, extensionRequired, type ServerExtension } from '../extensions/extension-list.js';

/** True when a request declared the tasks extension in its client capabilities. */
export function declaresTasks(capabilities: ClientCapabilities): boolean {
  return clientDeclares(capabilities, TASKS_EXTENSION);
}

/** The -32021 fault of a task method or a `required` tool (`what`) for a request without the extension. */
export function tasksRequired(what: string): RequestFault {
  return extensionRequired(TASKS_EXTENSION, what);
}

/** The task of a task method's request: its id, checked, and who asks. */
function target(params: Params, call: MethodCall): { taskId: string; principal: string | undefined } {
  const method = call.request.method;
  if (!declaresTasks(call.facts.clientCapabilities)) throw tasksRequired(method);
  if (typeof params.taskId !== 'string') throw RequestFault.invalidParams(`${method} needs a "taskId"`);
  return { taskId: params.taskId, principal: principalOf(call.link.auth) };
}

const unknownTask = (taskId: string): RequestFault => RequestFault.invalidParams(`Unknown task: ${taskId}`);

async function getTask(params: Params, call: MethodCall): Promise<MethodResult> {
  const { taskId, principal } = target(params, call);
  const task = await call.core.tasks.get(taskId, principal);
  if (!task) throw unknownTask(taskId);
  return taskDetails(task);
}

async function updateTask(params: Params, call: MethodCall): Promise<MethodResult> {
  const { taskId, principal } = target(params, call);
  const responses = params.inputResponses;
  if (!isObject(responses)) {
    if (!(await call.core.tasks.get(taskId, principal))) throw unknownTask(taskId);
    throw RequestFault.invalidParams('tasks/update needs an "inputResponses" object');
  }
  if (!(await call.core.tasks.respond(taskId, principal, responses))) throw unknownTask(taskId);
  return {};
}

async function cancelTask(params: Params, call: MethodCall): Promise<MethodResult> {
  const { taskId, principal } = target(params, call);
  if (!(await call.core.tasks.cancel(taskId, principal))) throw unknownTask(taskId);
  return {};
}

/**
 * The task methods, for the 2026 method table, each for the request's principal only. A request
 * without the extension is -32021; unknown, expired or another principal's task ids are -32602;
 * cancelling an ended task is acknowledged like any other (idempotent). A task store that is down
 * rejects `STATE_UNAVAILABLE` (`task-runtime.ts`).
 */
export const TASK_METHODS: Readonly<Record<string, MethodHandler>> = {
  'tasks/get': getTask,
  'tasks/update': updateTask,
  'tasks/cancel': cancelTask,
};

/**
 * The tasks extension as one entry of the server's extension list: 2026-07-28 only, advertised
 * (`{}`) while one of `tools` supports tasks, its methods answered whenever the era is modern
 * (each refuses a request without the client's declaration itself, with the task's own -32021).
 */
export function tasksExtension(tools: { readonly anyTaskSupport: boolean }): ServerExtension {
  return {
    id: TASKS_EXTENSION,
    eras: ['modern'],
    settings: () => (tools.anyTaskSupport ? {} : undefined),
    methods: TASK_METHODS,
  };
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
   * handler. Rejects `INVALID_STATE` when the store is full (`STATE_UNAVAILABLE` when it is down).
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
