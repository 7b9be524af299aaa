/**
 * Tasks and resource updates through the gateway, over real loopback HTTP (one scene for the
 * file: a kit upstream reached on 2026-07-28 with a task-capable `gate` tool and a subscribable
 * resource, a gateway over it, its HTTP endpoint):
 * - a task-capable upstream tool stays task-capable in the gateway's list; a 2026 client that
 *   calls it as a task gets a task of the gateway's, which `tasks/get` shows working while the
 *   upstream task runs and completed with its result after; `tasks/cancel` cancels the upstream
 *   task; a tool the upstream runs only as a task works for a legacy client too (the gateway
 *   follows the upstream task), and the upstream task's question reaches the downstream client
 *   (a 2026 client in its task's `inputRequests`, a legacy client as a request);
 * - the upstream's `notifications/resources/updated` reach a legacy client that subscribed to
 *   the gateway's URI (mcpwire's client, the official SDK v2 client) and a 2026 client on its
 *   `subscriptions/listen` stream, with the URI rewritten to the gateway's.
 */
import { Client as SdkClient, StreamableHTTPClientTransport as SdkHttp } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { createGateway, type Gateway } from '../src/gateway/index.js';
import { McpServer } from '../src/server/index.js';
import { serveGateway } from './support/gateway-upstreams.js';
import { listenKit, type KitHttp } from './support/kit-http.js';
import { registerGateTool, type GateTool } from './support/kit-tools.js';
import { modernRequest } from './support/kit-wire.js';
import { eventually, until } from './support/wait.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { extensions: { [TASKS]: {} }, elicitation: {} };
const UPSTREAM_URI = 'kit://counter';
const GATEWAY_URI = 'mcpwire://kit/kit://counter';

let upstream: McpServer;
let kit: KitHttp;
let gate: GateTool;
let gateway: Gateway;
let served: { url: string; close(): Promise<void> };

beforeAll(async () => {
  upstream = new McpServer({
    name: 'tasks-upstream',
    version: '1.0.0',
    logger: () => undefined,
    tasks: { pollIntervalMs: 20 },
  });
  gate = registerGateTool(upstream, { whenAborted: { content: [{ type: 'text', text: 'aborted' }] } });
  upstream.registerTool({
    name: 'plain',
    inputSchema: { type: 'object' },
    handler: () => ({ content: [{ type: 'text', text: 'plain ran' }] }),
  });
  upstream.registerTool({
    name: 'must_task',
    inputSchema: { type: 'object' },
    taskSupport: 'required',
    handler: (_args, context) => ({
      content: [{ type: 'text', text: `done in task ${String(context.taskId !== undefined)}` }],
    }),
  });
  upstream.registerTool({
    name: 'ask_in_task',
    inputSchema: { type: 'object' },
    taskSupport: 'required',
    handler: async (_args, context) => {
      const answer = await context.elicit(
        { message: 'name?', requestedSchema: { type: 'object', properties: { name: { type: 'string' } } } },
        { key: 'who' },
      );
      return { content: [{ type: 'text', text: `hello ${String(answer.content?.name)}` }] };
    },
  });
  upstream.registerTool({
    name: 'ask_then_task',
    inputSchema: { type: 'object' },
    taskSupport: 'optional',
    taskStart: 'handler',
    handler: async (_args, context) => {
      const answer = await context.elicit(
        { message: 'colour?', requestedSchema: { type: 'object', properties: { colour: { type: 'string' } } } },
        { key: 'colour' },
      );
      context.startTask();
      return {
        content: [{ type: 'text', text: String(answer.content?.colour) }],
      };
    },
  });
  upstream.registerResource({
    uri: UPSTREAM_URI,
    name: 'counter',
    mimeType: 'text/plain',
    read: (uri) => [{ uri, mimeType: 'text/plain', text: 'one' }],
  });
  kit = await listenKit(upstream);
  gateway = createGateway({ manager: { servers: [{ name: 'kit', url: kit.url }] }, logger: () => undefined });
  await gateway.ready;
  served = await serveGateway(gateway);
}, 30_000);

afterAll(async () => {
  gate?.openAll();
  await served?.close();
  await gateway?.close();
  await kit?.close();
  await upstream?.close();
});

let nextId = 1;
/** One raw 2026-07-28 request to the gateway, declaring the tasks extension; resolves with its JSON-RPC answer. */
async function ask(method: string, params: Record<string, unknown>): Promise<any> {
  return (await modernRequest(served.url, method, params, { id: nextId++, capabilities: WITH_TASKS })).json;
}

/** Polls the gateway's `tasks/get` (bounded) until the task has `status`; resolves with it. */
function taskWith(taskId: string, status: string): Promise<any> {
  return eventually(
    async () => {
      const task = (await ask('tasks/get', { taskId })).result;
      if (task?.status === status) return task;
      throw new Error(`last: ${JSON.stringify(task)}`);
    },
    { what: `task ${taskId} to be ${status}` },
  );
}

describe('tasks through the gateway', () => {
  it('keeps a task-capable upstream tool task-capable, and advertises the tasks extension', async () => {
    const client = await McpClient.connect({ url: served.url }, { era: 'modern', extensions: WITH_TASKS.extensions });
    onTestFinished(() => client.close());
    const tools = await client.listTools();
    expect(tools.find((tool) => tool.name === 'kit__gate')?.execution).toEqual({ taskSupport: 'optional' });
    expect(tools.find((tool) => tool.name === 'kit__plain')?.execution).toBeUndefined();
    const discovered = await ask('server/discover', {});
    expect(discovered.result.capabilities.extensions).toMatchObject({ [TASKS]: {} });
  });

  it('runs a task-augmented call as a task of its own that awaits the upstream call', async () => {
    const opened = gate.opens.length;
    const created = await ask('tools/call', { name: 'kit__gate', arguments: {} });
    expect(created.result).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = created.result.taskId as string;
    await until(() => gate.opens.length === opened + 1, { what: 'the upstream call to run' });
    expect((await ask('tasks/get', { taskId })).result).toMatchObject({ taskId, status: 'working' });
    // The id is the gateway's own task, not the upstream's passed on.
    const upstreamAnswer = await modernRequest(kit.url, 'tasks/get', { taskId }, { capabilities: WITH_TASKS });
    expect(upstreamAnswer.json.error).toMatchObject({ code: -32602 });
    gate.openAll();
    const done = await taskWith(taskId, 'completed');
    expect(done.result).toMatchObject({ content: [{ type: 'text', text: 'opened' }] });
  });

  it('cancels the upstream call on tasks/cancel', async () => {
    const opened = gate.opens.length;
    const aborted = gate.aborted.length;
    const created = await ask('tools/call', { name: 'kit__gate', arguments: {} });
    const taskId = created.result.taskId as string;
    await until(() => gate.opens.length === opened + 1, { what: 'the upstream call to run' });
    expect((await ask('tasks/cancel', { taskId })).error).toBeUndefined();
    await until(() => gate.aborted.length === aborted + 1, { what: 'the upstream call to be cancelled' });
    await taskWith(taskId, 'cancelled');
  });

  it('runs a tool the upstream runs only as a task, for a 2026 task and for a legacy call', async () => {
    const created = await ask('tools/call', { name: 'kit__must_task', arguments: {} });
    expect(created.result).toMatchObject({ resultType: 'task' });
    const done = await taskWith(created.result.taskId as string, 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'done in task true' }]);
    const legacy = await McpClient.connect({ url: served.url }, { era: 'legacy' });
    onTestFinished(() => legacy.close());
    expect((await legacy.listTools()).find((tool) => tool.name === 'kit__must_task')?.execution).toBeUndefined();
    const result = await legacy.callTool('kit__must_task', {});
    expect(result.content).toEqual([{ type: 'text', text: 'done in task true' }]);
  });

  it("passes the upstream task's question to a 2026 task's inputRequests and its answer back", async () => {
    const created = await ask('tools/call', { name: 'kit__ask_in_task', arguments: {} });
    const taskId = created.result.taskId as string;
    const asking = await taskWith(taskId, 'input_required');
    expect(asking.inputRequests).toEqual({
      who: { method: 'elicitation/create', params: expect.objectContaining({ message: 'name?' }) },
    });
    const update = await ask('tasks/update', {
      taskId,
      inputResponses: { who: { action: 'accept', content: { name: 'Ada' } } },
    });
    expect(update.error).toBeUndefined();
    const done = await taskWith(taskId, 'completed');
    expect(done.result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
  });

  it("passes the upstream task's question to a legacy client as an elicitation request", async () => {
    const asked: string[] = [];
    const legacy = await McpClient.connect(
      { url: served.url },
      {
        era: 'legacy',
        handlers: {
          elicitation: (params) => {
            asked.push(params.message);
            return { action: 'accept', content: { name: 'Grace' } };
          },
        },
      },
    );
    onTestFinished(() => legacy.close());
    const result = await legacy.callTool('kit__ask_in_task', {});
    expect(result.content).toEqual([{ type: 'text', text: 'hello Grace' }]);
    expect(asked).toEqual(['name?']);
  });

  for (const era of ['legacy', 'modern'] as const) {
    it(`answers an upstream tool's question asked before it starts its task, for a ${era} call`, async () => {
      const asked: string[] = [];
      const client = await McpClient.connect(
        { url: served.url },
        {
          era,
          handlers: {
            elicitation: (params) => {
              asked.push(params.message);
              return { action: 'accept', content: { colour: 'teal' } };
            },
          },
        },
      );
      onTestFinished(() => client.close());
      const result = await client.callTool('kit__ask_then_task', {});
      expect(result.content).toEqual([{ type: 'text', text: 'teal' }]);
      expect(asked).toEqual(['colour?']);
    });
  }

  it("does not know another server's task ids", async () => {
    const answer = await ask('tasks/get', { taskId: 'kit:1' });
    expect(answer.error).toMatchObject({ code: -32602 });
  });
});

/** Tells the upstream the resource changed until `heard` holds (the subscriptions settle on their own streams). */
function notifyUntil(heard: () => boolean, what: string): Promise<void> {
  return until(
    () => {
      if (heard()) return true;
      upstream.notifyResourceUpdated(UPSTREAM_URI);
      return false;
    },
    { what },
  );
}

describe('resource updates through the gateway', () => {
  for (const era of ['legacy', 'modern'] as const) {
    it(`reach a ${era} client that subscribed to the gateway's URI, rewritten back`, async () => {
      const client = await McpClient.connect({ url: served.url }, { era });
      onTestFinished(() => client.close());
      expect(client.capabilities.resources?.subscribe).toBe(true);
      const heard: string[] = [];
      onTestFinished(client.on('resourceUpdated', (params) => void heard.push(params.uri)));
      const unsubscribe = await client.subscribeResource(GATEWAY_URI);
      onTestFinished(() => unsubscribe());
      await notifyUntil(() => heard.length > 0, `the ${era} client to hear the update`);
      expect(new Set(heard)).toEqual(new Set([GATEWAY_URI]));
    });
  }

  it('reach the official SDK v2 client, which lists, calls and reads through the gateway too', async () => {
    const client = new SdkClient({ name: 'sdk-v2', version: '2.4.0' }, {});
    await client.connect(new SdkHttp(new URL(served.url)));
    onTestFinished(() => client.close());
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['kit__gate', 'kit__plain']));
    const result = await client.callTool({ name: 'kit__plain', arguments: {} });
    expect(result.content).toEqual([{ type: 'text', text: 'plain ran' }]);
    const read = await client.readResource({ uri: GATEWAY_URI });
    expect(read.contents).toEqual([{ uri: GATEWAY_URI, mimeType: 'text/plain', text: 'one' }]);
    const heard: string[] = [];
    client.setNotificationHandler('notifications/resources/updated', (notification) => {
      heard.push(notification.params.uri);
    });
    await client.subscribeResource({ uri: GATEWAY_URI });
    await notifyUntil(() => heard.length > 0, 'the SDK v2 client to hear the update');
    expect(new Set(heard)).toEqual(new Set([GATEWAY_URI]));
  });
});
