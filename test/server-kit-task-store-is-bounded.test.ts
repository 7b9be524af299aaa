/**
 * The kit's tasks (2026-07-28 tasks extension) are bounded, over a real loopback listener: with
 * `tasks.maxTasks` running, a new task-run call is refused with -32603 naming the limit, and
 * accepted again once a task has ended (the ended one makes room); a task is forgotten after its
 * `ttlMs` (tasks/get -32602) and its handler is aborted; bad `tasks` options are refused.
 */
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer } from '../src/server/index.js';
import { listenKit, type KitHttp } from './support/kit-http.js';
import { until } from './support/wait.js';

const WITH_TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

let kit: KitHttp | undefined;
let server: McpServer | undefined;
let gates: Array<() => void>;
let aborted: number;

afterEach(async () => {
  for (const open of gates.splice(0)) open();
  await kit?.close();
  await server?.close();
  kit = undefined;
  server = undefined;
});

async function start(tasks: McpServerTaskOptions): Promise<void> {
  gates = [];
  aborted = 0;
  server = new McpServer({ name: 'bounded', version: '1', logger: () => undefined, tasks });
  server.registerTool({
    name: 'gate',
    inputSchema: { type: 'object' },
    taskSupport: 'optional',
    handler: (_args, context) =>
      new Promise((resolve) => {
        gates.push(() => resolve({ content: [{ type: 'text', text: 'opened' }] }));
        context.signal.addEventListener('abort', () => {
          aborted++;
          resolve({ content: [] });
        });
      }),
  });
  kit = await listenKit(server);
}

type McpServerTaskOptions = NonNullable<ConstructorParameters<typeof McpServer>[0]['tasks']>;

let id = 1;
function call(method: string, params: Record<string, unknown>): Promise<any> {
  const name = (params.name ?? params.taskId) as string | undefined;
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: id++,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': WITH_TASKS,
      },
    },
  });
  return new Promise((resolve, reject) => {
    const req = http.request(
      kit!.url,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': method,
          ...(name ? { 'mcp-name': name } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => (text += chunk));
        res.on('end', () => {
          try {
            resolve(JSON.parse(text));
          } catch (error) {
            reject(error);
          }
        });
      },
    );
    req.once('error', reject);
    req.end(body);
  });
}

/** Polls an async condition (bounded, 10 s) with a short pause between tries. */
async function pollUntil(check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within 10 s`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('the task store', () => {
  it('refuses a task beyond maxTasks while all run, and makes room from an ended one', async () => {
    await start({ maxTasks: 1 });
    const first = (await call('tools/call', { name: 'gate', arguments: {} })).result;
    expect(first.resultType).toBe('task');
    const refused = await call('tools/call', { name: 'gate', arguments: {} });
    expect(refused.error).toMatchObject({ code: -32603, message: expect.stringContaining('maxTasks 1') });

    await until(() => gates.length === 1, { what: 'the first handler to run' });
    gates[0]!();
    await pollUntil(
      async () => (await call('tasks/get', { taskId: first.taskId })).result?.status === 'completed',
      'the first task to complete',
    );
    const second = (await call('tools/call', { name: 'gate', arguments: {} })).result;
    expect(second.resultType).toBe('task');
    expect((await call('tasks/get', { taskId: first.taskId })).error.code).toBe(-32602);
  });

  it('forgets a task after its ttlMs and aborts its handler', async () => {
    await start({ ttlMs: 1 });
    const task = (await call('tools/call', { name: 'gate', arguments: {} })).result;
    expect(task.ttlMs).toBe(1);
    await until(() => gates.length === 1, { what: 'the handler to run' });
    await pollUntil(
      async () => (await call('tasks/get', { taskId: task.taskId })).error?.code === -32602,
      'tasks/get to forget the expired task',
    );
    await until(() => aborted === 1, { what: 'the expired task to be aborted' });
  });

  it.each([
    [{ maxTasks: 0 }, 'tasks.maxTasks'],
    [{ ttlMs: 1.5 }, 'tasks.ttlMs'],
    [{ ttl: 5 }, 'tasks.ttl'],
  ])('refuses the option %j', (tasks, key) => {
    gates = [];
    expect(() => new McpServer({ name: 'x', version: '1', tasks: tasks as McpServerTaskOptions })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(key) }),
    );
  });
});
