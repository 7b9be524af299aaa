/**
 * The kit waits for its stores: with a task store that answers each write on a later turn of the
 * event loop (as a database does), a task-run call is answered with its task only once the task
 * is stored (a `tasks/get` of the id answered finds it), and a handler that starts its task and
 * returns at once is still answered with the task, its result then on `tasks/get`.
 */
import { describe, expect, it } from 'vitest';
import { McpServer, MemoryTaskStore } from '../src/server/index.js';
import type { NewTask, StoredTask, TaskOutcome } from '../src/server/index.js';
import { startKitHttp, type KitHttp } from './support/kit-http.js';
import { modernRequest } from './support/kit-wire.js';
import { eventually } from './support/wait.js';

const WITH_TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

/** The in-memory store, each write answered on a later turn of the event loop. */
class LaterTaskStore extends MemoryTaskStore {
  override async create(task: NewTask, now: number): Promise<StoredTask> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    return super.create(task, now);
  }

  override async settle(taskId: string, outcome: TaskOutcome, now: number): Promise<boolean> {
    await new Promise<void>((resolve) => setImmediate(resolve));
    return super.settle(taskId, outcome, now);
  }
}

async function start(): Promise<KitHttp> {
  const server = new McpServer({
    name: 'later',
    version: '1',
    logger: () => undefined,
    state: { tasks: new LaterTaskStore() },
  });
  server.registerTool({
    name: 'starts_and_returns',
    inputSchema: { type: 'object' },
    taskSupport: 'optional',
    taskStart: 'handler',
    handler: (_args, context) => {
      context.startTask();
      return { content: [{ type: 'text', text: 'at once' }] };
    },
  });
  server.registerTool({
    name: 'quick',
    inputSchema: { type: 'object' },
    taskSupport: 'optional',
    handler: () => ({ content: [{ type: 'text', text: 'quick' }] }),
  });
  return startKitHttp(server);
}

let nextId = 1;
async function call(kit: KitHttp, method: string, params: Record<string, unknown>): Promise<any> {
  return (
    await modernRequest(kit.url, method, params, {
      id: nextId++,
      capabilities: WITH_TASKS,
      headers: { accept: 'application/json' },
    })
  ).json;
}

describe('a task store that answers later', () => {
  it('answers a task-run call once the task is stored', async () => {
    const kit = await start();
    const task = (await call(kit, 'tools/call', { name: 'quick', arguments: {} })).result;
    expect(task.resultType).toBe('task');
    expect((await call(kit, 'tasks/get', { taskId: task.taskId })).result.taskId).toBe(task.taskId);
  });

  it('answers with the task when the handler starts it and returns at once, the result on tasks/get', async () => {
    const kit = await start();
    const task = (await call(kit, 'tools/call', { name: 'starts_and_returns', arguments: {} })).result;
    expect(task.resultType).toBe('task');
    const done = await eventually(
      async () => {
        const got = (await call(kit, 'tasks/get', { taskId: task.taskId })).result;
        if (got.status !== 'completed') throw new Error(`status ${String(got.status)}`);
        return got;
      },
      { what: 'the task to complete' },
    );
    expect(done.result.content).toEqual([{ type: 'text', text: 'at once' }]);
  });
});
