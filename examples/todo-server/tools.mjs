// The six tools of the todo server on the kit. Every handler runs one repository call (one
// transaction); a task of another user is reported exactly like a missing one (TASK_NOT_FOUND),
// so ids of other users' tasks cannot be probed; a store failure is DATABASE_ERROR with a message
// safe for the model (the real error goes to the server log through the kit).
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
 * Registers the six tools on `server` over `repository` (see sqlite-store.mjs for the interface).
 * Returns one disposer for all of them.
 */
export function registerTodoTools(server, repository) {
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
  ];
  return () => {
    for (const dispose of disposers) dispose();
  };
}
