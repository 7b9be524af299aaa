/**
 * The methods that follow a task of the 2026 tasks extension (SEP-2663): `tasks/get` (the task,
 * its result or error inlined), `tasks/update` (answers to its input requests) and `tasks/cancel`,
 * each for the request's principal only. A request without the extension is -32021; unknown,
 * expired or another principal's task ids are -32602; cancelling an ended task is acknowledged
 * like any other (idempotent). The extension has no `tasks/result` or `tasks/list` (the result is
 * inlined on `tasks/get`): those stay unknown methods (-32601). A task store that is down rejects
 * `STATE_UNAVAILABLE` (`task-runtime.ts`).
 */
import type { MethodCall, MethodHandler, MethodResult, Params } from '../router/method-table.js';
import { isObject } from '../router/method-table.js';
import { RequestFault } from '../router/request-fault.js';
import { principalOf } from '../state/principal.js';
import { taskDetails } from './task-runtime.js';
import { declaresTasks, tasksRequired } from './tool-task.js';

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

/** The task methods, for the 2026 method table. */
export const TASK_METHODS: Readonly<Record<string, MethodHandler>> = {
  'tasks/get': getTask,
  'tasks/update': updateTask,
  'tasks/cancel': cancelTask,
};
