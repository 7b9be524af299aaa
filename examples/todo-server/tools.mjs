// The seven tools of the todo server on the kit. Every handler but import_tasks runs one
// repository call (one transaction); import_tasks runs one per task, reporting progress after
// each. A task of another user is reported exactly like a missing one (TASK_NOT_FOUND), so ids of
// other users' tasks cannot be probed; a store failure is DATABASE_ERROR with a message safe for
// the model (the real error goes to the server log through the kit).
import { setTimeout as sleep } from 'node:timers/promises';
import { ToolError } from 'mcpwire/server';
import { INPUT, OUTPUT } from './schemas.mjs';

const NOT_FOUND = 'No task with this task_id exists for this user.';

/** Runs a store call; anything it throws becomes DATABASE_ERROR (logged with its cause by the kit). */
async function store(call) {
  try {
    return await call();
  } catch (error) {
    throw new ToolError('DATABASE_ERROR', 'The task store could not complete the operation. Try again later.', {
      cause: error,
    });
  }
}

function found(task) {
  if (!task) throw new ToolError('TASK_NOT_FOUND', NOT_FOUND);
  return { structuredContent: { success: true, task } };
}

/**
 * Adds `tasks` to the user's list one by one (one transaction each, in order), reporting progress
 * after each; between two tasks it pauses `slowMs` (0: none). Stops at once when `signal` aborts
 * (the call was cancelled): the tasks imported by then stay. Throws DATABASE_ERROR at the first
 * store failure, the tasks before it kept.
 */
async function importTasks(repository, userId, tasks, { signal, progress, slowMs }) {
  const imported = [];
  for (const [index, fields] of tasks.entries()) {
    if (index > 0 && slowMs > 0) await sleep(slowMs, undefined, { signal });
    signal.throwIfAborted();
    imported.push(await store(() => repository.add(userId, fields)));
    progress(imported.length, tasks.length, `imported ${imported.length} of ${tasks.length}`);
  }
  return imported;
}

/**
 * Registers the seven tools on `server` over `repository` (see sqlite-store.mjs for the
 * interface). `slowMs` is import_tasks' pause between two tasks (for demos of progress and
 * fail-over). Returns one disposer for all of them.
 */
export function registerTodoTools(server, repository, { slowMs = 0 } = {}) {
  const disposers = [
    server.registerTool({
      name: 'add_task',
      title: 'Add a task',
      description: "Creates a task in the user's list and returns it.",
      inputSchema: INPUT.add_task,
      outputSchema: OUTPUT.add_task,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      handler: async ({ user_id, title, description }) => {
        const task = await store(() => repository.add(user_id, { title, description }));
        return { structuredContent: { success: true, task } };
      },
    }),
    server.registerTool({
      name: 'list_tasks',
      title: 'List tasks',
      description: "Lists the user's tasks, oldest first: all of them, or only pending or completed ones.",
      inputSchema: INPUT.list_tasks,
      outputSchema: OUTPUT.list_tasks,
      annotations: { readOnlyHint: true, openWorldHint: false },
      handler: async ({ user_id, status = 'all' }) => {
        const tasks = await store(() => repository.list(user_id, status));
        return { structuredContent: { success: true, tasks, count: tasks.length } };
      },
    }),
    server.registerTool({
      name: 'get_task',
      title: 'Get a task',
      description: 'Returns one task of the user.',
      inputSchema: INPUT.get_task,
      outputSchema: OUTPUT.get_task,
      annotations: { readOnlyHint: true, openWorldHint: false },
      handler: async ({ user_id, task_id }) => found(await store(() => repository.get(user_id, task_id))),
    }),
    server.registerTool({
      name: 'update_task',
      title: 'Update a task',
      description: "Changes a task's title and/or description.",
      inputSchema: INPUT.update_task,
      outputSchema: OUTPUT.update_task,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      handler: async ({ user_id, task_id, title, description }) => {
        if (title === undefined && description === undefined)
          throw new ToolError('VALIDATION_ERROR', 'Give a new title, a new description, or both.');
        return found(await store(() => repository.update(user_id, task_id, { title, description })));
      },
    }),
    server.registerTool({
      name: 'complete_task',
      title: 'Complete a task',
      description: 'Marks a task as completed (completing it again changes nothing but updated_at).',
      inputSchema: INPUT.complete_task,
      outputSchema: OUTPUT.complete_task,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
      handler: async ({ user_id, task_id }) => found(await store(() => repository.complete(user_id, task_id))),
    }),
    server.registerTool({
      name: 'delete_task',
      title: 'Delete a task',
      description: 'Deletes a task for good.',
      inputSchema: INPUT.delete_task,
      outputSchema: OUTPUT.delete_task,
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
      handler: async ({ user_id, task_id }) => {
        if (!(await store(() => repository.remove(user_id, task_id)))) throw new ToolError('TASK_NOT_FOUND', NOT_FOUND);
        return { structuredContent: { success: true, task_id, deleted: true } };
      },
    }),
    server.registerTool({
      name: 'import_tasks',
      title: 'Import tasks',
      description:
        "Adds several tasks to the user's list, in order, one at a time, reporting progress after each; " +
        'returns the tasks created. If the call is cancelled, the tasks imported so far stay.',
      inputSchema: INPUT.import_tasks,
      outputSchema: OUTPUT.import_tasks,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
      // A long import may run as a task of the 2026 tasks extension when the client declares it.
      taskSupport: 'optional',
      handler: async ({ user_id, tasks }, context) => {
        const imported = await importTasks(repository, user_id, tasks, {
          signal: context.signal,
          progress: (done, total, message) => context.progress(done, total, message),
          slowMs,
        });
        return { structuredContent: { success: true, tasks: imported, count: imported.length } };
      },
    }),
  ];
  return () => {
    for (const dispose of disposers) dispose();
  };
}
