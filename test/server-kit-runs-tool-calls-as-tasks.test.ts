/**
 * The tasks extension of 2026-07-28 (`io.modelcontextprotocol/tasks`, SEP-2663) in the kit, over
 * a real loopback listener with raw HTTP requests: a task-capable tool called by a client that
 * declares the extension is answered with a flat `CreateTaskResult`; `tasks/get` shows it
 * working, waiting for input (`inputRequests`), and ended with its result or error inlined;
 * `tasks/update` answers its input (a subset keeps it waiting); `tasks/cancel` stops its handler;
 * without the extension the calls stay synchronous or are refused with -32021; a handler can
 * gather input in the request's own rounds before it becomes a task; closing the server cancels
 * the tasks still running.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpServer, ToolError } from '../src/server/index.js';
import { startKitHttp, type KitHttp } from './support/kit-http.js';
import { exchange, modernMeta, modernRequest, type Exchange } from './support/kit-wire.js';
import { eventually, until } from './support/wait.js';
import { registerGateTool, type GateTool } from './support/kit-tools.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { extensions: { [TASKS]: {} }, elicitation: {} };

let kit: KitHttp | undefined;
let server: McpServer;
/** The `gate` tool's calls: their openers and abort reasons. */
let gate: GateTool | undefined;
let logged: Array<Record<string, unknown>>;

function makeServer(): McpServer {
  const s = new McpServer({ name: 'tasks', version: '1', logger: (record) => logged.push(record) });
  s.registerTool({
    name: 'plain',
    inputSchema: { type: 'object' },
    handler: () => ({ content: [{ type: 'text', text: 'plain' }] }),
  });
  gate = registerGateTool(s, { whenAborted: { content: [{ type: 'text', text: 'too late' }] } });
  s.registerTool({
    name: 'must_task',
    inputSchema: { type: 'object' },
    taskSupport: 'required',
    handler: () => ({ content: [{ type: 'text', text: 'done' }] }),
  });
  s.registerTool({
    name: 'tool_error',
    inputSchema: { type: 'object' },
    taskSupport: 'required',
    handler: () => {
      throw new ToolError('NOPE', 'the job said no');
    },
  });
  s.registerTool({
    name: 'crash',
    inputSchema: { type: 'object' },
    taskSupport: 'required',
    handler: () => {
      throw new Error('secret internals /srv/app.js:12');
    },
  });
  s.registerTool({
    name: 'two_questions',
    inputSchema: { type: 'object' },
    taskSupport: 'optional',
    handler: async (_args, context) => {
      const form = { type: 'object', properties: { name: { type: 'string' } } };
      const [a, b] = await Promise.all([
        context.elicit({ message: 'first?', requestedSchema: form }, { key: 'a' }),
        context.elicit({ message: 'second?', requestedSchema: form }, { key: 'b' }),
      ]);
      return { content: [{ type: 'text', text: `${String(a.content?.name)}+${String(b.content?.name)}` }] };
    },
  });
  s.registerTool({
    name: 'ask_then_task',
    inputSchema: { type: 'object' },
    taskSupport: 'required',
    taskStart: 'handler',
    handler: async (_args, context) => {
      const form = {
        message: 'name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
      } as never;
      await context.elicit(form, { key: 'who' });
      context.startTask();
      // Asked again inside the task: the answer of the request's round still counts.
      const answer = await context.elicit(form, { key: 'who' });
      return {
        content: [
          { type: 'text', text: `task ${String(context.taskId !== undefined)} for ${String(answer.content?.name)}` },
        ],
      };
    },
  });
  return s;
}

afterEach(() => gate?.openAll());

async function start(): Promise<void> {
  logged = [];
  server = makeServer();
  kit = await startKitHttp(server);
}

let nextId = 1;
/** One 2026-07-28 request over raw HTTP, with the headers the binding asks for. */
function call(
  method: string,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = WITH_TASKS,
  headers: Record<string, string> = {},
): Promise<Exchange> {
  return modernRequest(kit!.url, method, params, { id: nextId++, capabilities, headers });
}

/** Polls `tasks/get` (bounded) until `done` holds for the task; resolves with that answer. */
function taskWhen(taskId: string, done: (task: any) => boolean, what: string): Promise<any> {
  return eventually(
    async () => {
      const task = (await call('tasks/get', { taskId })).json.result;
      if (done(task)) return task;
      throw new Error(`last: ${JSON.stringify(task)}`);
    },
    { what: `task ${what}` },
  );
}

const ended = (task: any): boolean => ['completed', 'failed', 'cancelled'].includes(task?.status);

describe('tool calls as tasks (2026-07-28 tasks extension)', () => {
  it('advertise the extension and answer a task-capable call with a flat CreateTaskResult, the result inlined on tasks/get once done', async () => {
    await start();
    const discover = await call('server/discover', {});
    expect(discover.json.result.capabilities.extensions).toEqual({ [TASKS]: {} });
    expect(discover.json.result.capabilities.tasks).toBeUndefined();
    const listed = (await call('tools/list', {})).json.result.tools;
    expect(listed.find((t: any) => t.name === 'gate').execution).toEqual({ taskSupport: 'optional' });

    const created = await call('tools/call', { name: 'gate', arguments: {} });
    expect(created.status).toBe(200);
    const task = created.json.result;
    expect(task).toMatchObject({ resultType: 'task', status: 'working' });
    expect(typeof task.taskId).toBe('string');
    expect(Number.isInteger(task.ttlMs) && task.ttlMs > 0).toBe(true);
    expect(Number.isInteger(task.pollIntervalMs) && task.pollIntervalMs > 0).toBe(true);
    for (const key of ['task', 'result', 'error', 'inputRequests', 'requestState', 'ttl', 'pollInterval'])
      expect(task).not.toHaveProperty(key);

    const working = (await call('tasks/get', { taskId: task.taskId })).json.result;
    expect(working).toMatchObject({ resultType: 'complete', taskId: task.taskId, status: 'working' });
    expect(working).not.toHaveProperty('result');

    await until(() => gate!.opens.length === 1, { what: 'the handler to run' });
    gate!.opens[0]!();
    const done = await taskWhen(task.taskId, ended, 'completed');
    expect(done.status).toBe('completed');
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'opened' }] });
    expect(done).not.toHaveProperty('error');
  });

  it('stay synchronous without the extension, refuse a required tool and the tasks methods with -32021', async () => {
    await start();
    const sync = call('tools/call', { name: 'gate', arguments: {} }, {});
    await until(() => gate!.opens.length === 1, { what: 'the handler to run' });
    gate!.opens[0]!();
    expect((await sync).json.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'opened' }],
    });

    const refused = await call('tools/call', { name: 'must_task', arguments: {} }, {});
    expect(refused.status).toBe(400);
    expect(refused.json.error.code).toBe(-32021);
    expect(refused.json.error.data).toEqual({ requiredCapabilities: { extensions: { [TASKS]: {} } } });
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const answer = await call(method, { taskId: 'any', inputResponses: {} }, {});
      expect(answer.json.error.code, method).toBe(-32021);
    }
    const plain = await call('tools/call', { name: 'plain', arguments: {}, task: { ttl: 1000 } });
    expect(plain.json.result).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'plain' }] });
  });

  it('wait for input on tasks/get and resume once tasks/update has answered every request (a subset keeps the rest pending)', async () => {
    await start();
    const { taskId } = (await call('tools/call', { name: 'two_questions', arguments: {} })).json.result;
    const waiting = await taskWhen(
      taskId,
      (t) => t.status === 'input_required' && Object.keys(t.inputRequests ?? {}).length === 2,
      'asking twice',
    );
    expect(waiting.inputRequests.a).toMatchObject({ method: 'elicitation/create', params: { message: 'first?' } });

    const ack = await call('tasks/update', {
      taskId,
      inputResponses: { a: { action: 'accept', content: { name: 'Ada' } }, unknown: { action: 'accept' } },
    });
    expect(ack.json.result).toEqual({ resultType: 'complete', _meta: expect.any(Object) });
    const half = (await call('tasks/get', { taskId })).json.result;
    expect(half.status).toBe('input_required');
    expect(Object.keys(half.inputRequests)).toEqual(['b']);

    await call('tasks/update', { taskId, inputResponses: { b: { action: 'accept', content: { name: 'Bo' } } } });
    const done = await taskWhen(taskId, ended, 'completed');
    expect(done.result.content[0].text).toBe('Ada+Bo');
  });

  it('cancel: the handler is aborted, the task ends cancelled, a second cancel is acknowledged the same; unknown ids are -32602 and tasks/result, tasks/list do not exist', async () => {
    await start();
    const { taskId } = (await call('tools/call', { name: 'gate', arguments: {} })).json.result;
    await until(() => gate!.opens.length === 1, { what: 'the handler to run' });
    const ack = (await call('tasks/cancel', { taskId })).json.result;
    expect(Object.keys(ack).sort()).toEqual(['_meta', 'resultType']);
    expect(ack.resultType).toBe('complete');
    await until(() => gate!.aborted.length === 1, { what: "the handler's signal to abort" });
    expect((await call('tasks/get', { taskId })).json.result.status).toBe('cancelled');
    gate!.opens[0]!(); // a late result of a cancelled task changes nothing
    expect((await call('tasks/get', { taskId })).json.result).not.toHaveProperty('result');
    expect((await call('tasks/cancel', { taskId })).json.result.resultType).toBe('complete');

    expect((await call('tasks/get', { taskId: 'no-such-task' })).json.error.code).toBe(-32602);
    expect((await call('tasks/result', { taskId })).json.error.code).toBe(-32601);
    expect((await call('tasks/list', {})).json.error.code).toBe(-32601);
  });

  it('end a ToolError as completed with isError, and a crash as failed with a bare internal error (the stack only in the server log)', async () => {
    await start();
    const toolError = (await call('tools/call', { name: 'tool_error', arguments: {} })).json.result;
    const completed = await taskWhen(toolError.taskId, ended, 'completed');
    expect(completed.status).toBe('completed');
    expect(completed.result.isError).toBe(true);
    expect(completed.result.structuredContent).toEqual({
      success: false,
      error: { code: 'NOPE', message: 'the job said no' },
    });

    const crash = (await call('tools/call', { name: 'crash', arguments: {} })).json.result;
    const failed = await taskWhen(crash.taskId, ended, 'failed');
    expect(failed.status).toBe('failed');
    expect(failed.error).toEqual({ code: -32603, message: 'Internal error' });
    expect(failed).not.toHaveProperty('result');
    expect(JSON.stringify(failed)).not.toContain('secret internals');
    expect(logged.find((r) => r.msg === 'task handler threw')).toMatchObject({
      tool: 'crash',
      error: 'secret internals /srv/app.js:12',
    });
  });

  it('gather input in the request first when the handler starts the task itself (input_required, then CreateTaskResult without requestState)', async () => {
    await start();
    const round1 = (await call('tools/call', { name: 'ask_then_task', arguments: {} })).json.result;
    expect(round1.resultType).toBe('input_required');
    expect(round1).not.toHaveProperty('taskId');
    expect(Object.keys(round1.inputRequests)).toEqual(['who']);

    const round2 = (
      await call('tools/call', {
        name: 'ask_then_task',
        arguments: {},
        inputResponses: { who: { action: 'accept', content: { name: 'Alice' } } },
        requestState: round1.requestState,
      })
    ).json.result;
    expect(round2.resultType).toBe('task');
    expect(round2).not.toHaveProperty('requestState');
    expect(round2).not.toHaveProperty('inputRequests');
    const done = await taskWhen(round2.taskId, ended, 'completed');
    expect(done.result.content[0].text).toBe('task true for Alice');
  });

  it('refuse tasks/get whose Mcp-Name names another task (400, -32020); a missing Mcp-Name is served', async () => {
    await start();
    const { taskId } = (await call('tools/call', { name: 'gate', arguments: {} })).json.result;
    const wrong = await call('tasks/get', { taskId }, WITH_TASKS, { 'mcp-name': 'another-task' });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.code).toBe(-32020);
    const unnamed = await exchange(kit!.url, {
      body: { jsonrpc: '2.0', id: 99, method: 'tasks/get', params: { taskId, _meta: modernMeta(WITH_TASKS) } },
      headers: { accept: 'application/json', 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tasks/get' },
    });
    expect(unnamed.json.result.taskId).toBe(taskId);
  });

  it('are cancelled when the server closes: the running handler is aborted', async () => {
    await start();
    const { taskId } = (await call('tools/call', { name: 'gate', arguments: {} })).json.result;
    await until(() => gate!.opens.length === 1, { what: 'the handler to run' });
    expect((await call('tasks/get', { taskId })).json.result.status).toBe('working');
    await server.close();
    await until(() => gate!.aborted.length === 1, { what: "the handler's signal to abort" });
  });
});
