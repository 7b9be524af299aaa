/**
 * The kit's tasks (2026-07-28 tasks extension) are bounded, over a real loopback listener: with
 * `tasks.maxTasks` running, a new task-run call is refused with -32603 naming the limit, and
 * accepted again once a task has ended (the ended one makes room); a task is forgotten after its
 * `ttlMs` (tasks/get -32602) and its handler is aborted; bad `tasks` options are refused.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../src/server/index.js';
import { startKitHttp, type KitHttp } from './support/kit-http.js';
import { modernRequest } from './support/kit-wire.js';
import { until } from './support/wait.js';
import { registerGateTool, type GateTool } from './support/kit-tools.js';

const WITH_TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

let gate: GateTool | undefined;

afterEach(() => gate?.openAll());

async function start(tasks: McpServerTaskOptions): Promise<void> {
  const server = new McpServer({ name: 'bounded', version: '1', logger: () => undefined, tasks });
  gate = registerGateTool(server);
  kit = await startKitHttp(server);
}

type McpServerTaskOptions = NonNullable<ConstructorParameters<typeof McpServer>[0]['tasks']>;

let kit: KitHttp | undefined;
let id = 1;
async function call(method: string, params: Record<string, unknown>): Promise<any> {
  const answer = await modernRequest(kit!.url, method, params, {
    id: id++,
    capabilities: WITH_TASKS,
    headers: { accept: 'application/json' },
  });
  return answer.json;
}

describe('the task store', () => {
  it('refuses a task beyond maxTasks while all run, and makes room from an ended one', async () => {
    await start({ maxTasks: 1 });
    const first = (await call('tools/call', { name: 'gate', arguments: {} })).result;
    expect(first.resultType).toBe('task');
    const refused = await call('tools/call', { name: 'gate', arguments: {} });
    expect(refused.error).toMatchObject({ code: -32603, message: expect.stringContaining('maxTasks 1') });

    await until(() => gate!.opens.length === 1, { what: 'the first handler to run' });
    gate!.opens[0]!();
    await until(async () => (await call('tasks/get', { taskId: first.taskId })).result?.status === 'completed', {
      what: 'the first task to complete',
    });
    const second = (await call('tools/call', { name: 'gate', arguments: {} })).result;
    expect(second.resultType).toBe('task');
    expect((await call('tasks/get', { taskId: first.taskId })).error.code).toBe(-32602);
  });

  it('forgets a task after its ttlMs and aborts its handler', async () => {
    await start({ ttlMs: 1 });
    const task = (await call('tools/call', { name: 'gate', arguments: {} })).result;
    expect(task.ttlMs).toBe(1);
    await until(() => gate!.opens.length === 1, { what: 'the handler to run' });
    await until(async () => (await call('tasks/get', { taskId: task.taskId })).error?.code === -32602, {
      what: 'tasks/get to forget the expired task',
    });
    await until(() => gate!.aborted.length === 1, { what: 'the expired task to be aborted' });
  });

  it.each([
    [{ maxTasks: 0 }, 'tasks.maxTasks'],
    [{ ttlMs: 1.5 }, 'tasks.ttlMs'],
    [{ ttl: 5 }, 'tasks.ttl'],
  ])('refuses the option %j', (tasks, key) => {
    gate = undefined;
    expect(() => new McpServer({ name: 'x', version: '1', tasks: tasks as McpServerTaskOptions })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(key) }),
    );
  });
});
