/**
 * Two kit nodes in one process, each its own `McpServer` behind its own `createHttpHandler` on a
 * real loopback listener and its own `redisState()` on one real `redis-server`, with one
 * `stateSecret`: a task made on one is seen and cancelled through the other (its handler aborted
 * where it runs), a listen on one hears a tool registered on the other, a `requestState` minted on
 * one is accepted on the other, a legacy session initialized on one is served by the other
 * (adopted from the session store in Redis), and a DELETE there ends it and its GET stream on the
 * first (its SSE events, ids carrying the node id, in Redis until then); a GET with
 * `Last-Event-ID` resumes a stream from its events in Redis, following it live to its answer;
 * while Redis is down both answer at once with an error, and serve again once it is back.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { McpServer } from '../src/server/index.js';
import { redisState } from '../src/server/redis/index.js';
import { startKitHttp, type KitHttp } from './support/kit-http.js';
import { exchange, modernRequest, sseEvents } from './support/kit-wire.js';
import { testRedis } from './support/redis-state.js';
import { skipWithoutRedis, startRedis, type RedisServer } from './support/redis-server.js';
import { eventually, until, within } from './support/wait.js';

const SECRET = 'the secret both nodes share';
const WITH_TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
/** Lets the running `poll_me` go on after it closed its stream. */
let release: (() => void) | undefined;

interface Node {
  server: McpServer;
  kit: KitHttp;
  aborted: unknown[];
}

describe.skipIf(skipWithoutRedis())('two kit nodes sharing one Redis', () => {
  let redis: RedisServer;
  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(() => redis?.stop());

  /** Nodes `a` and `b` on a fresh key prefix (`prefix`). */
  async function twoNodes(): Promise<{ a: Node; b: Node; prefix: string }> {
    const prefix = `nodes:${randomUUID()}:`;
    const [a, b] = await Promise.all([node('node-a', prefix), node('node-b', prefix)]);
    return { a, b, prefix };
  }

  async function node(nodeId: string, keyPrefix: string): Promise<Node> {
    const state = await redisState({ url: redis.url, nodeId, keyPrefix, stateSecret: SECRET });
    onTestFinished(() => state.close()); // runs last: after the handler and the server closed
    const server = new McpServer({
      name: 'node',
      version: '1',
      logger: () => undefined,
      state,
    });
    const aborted: unknown[] = [];
    server.registerTool({
      name: 'gate',
      inputSchema: { type: 'object' },
      taskSupport: 'optional',
      handler: (_args, context) =>
        new Promise((resolve) => {
          context.progress(1);
          context.signal.addEventListener('abort', () => {
            aborted.push(context.signal.reason);
            resolve({ content: [] });
          });
        }),
    });
    server.registerTool({
      name: 'poll_me',
      inputSchema: { type: 'object' },
      handler: async (_args, context) => {
        context.progress(1);
        context.closeStream();
        await new Promise<void>((resolve) => (release = resolve));
        context.progress(2, undefined, 'after the close');
        return { content: [{ type: 'text', text: 'resumed result' }] };
      },
    });
    server.registerTool({
      name: 'greet',
      inputSchema: { type: 'object' },
      handler: async (_args, context) => {
        const answer = await context.elicit({ message: 'Your name?', requestedSchema: { type: 'object' } });
        return { content: [{ type: 'text', text: `hello ${String(answer.content?.name)}` }] };
      },
    });
    return { server, kit: await startKitHttp(server, { sessions: true }), aborted };
  }

  let nextId = 1;
  async function call(
    at: Node,
    method: string,
    params: Record<string, unknown>,
    capabilities: Record<string, unknown> = WITH_TASKS,
  ): Promise<any> {
    const answer = await modernRequest(at.kit.url, method, params, {
      id: nextId++,
      capabilities,
      headers: { accept: 'application/json' },
    });
    return answer.json;
  }

  it('see a task made on the other at once, and a cancel through one aborts the handler on the other', async () => {
    const { a, b } = await twoNodes();
    const task = (await call(a, 'tools/call', { name: 'gate', arguments: {} })).result;
    expect(task.resultType).toBe('task');
    expect((await call(b, 'tasks/get', { taskId: task.taskId })).result).toMatchObject({
      taskId: task.taskId,
      status: 'working',
    });
    expect((await call(b, 'tasks/cancel', { taskId: task.taskId })).result.resultType).toBe('complete');
    await until(() => a.aborted.length === 1, { what: 'the handler on node a to be aborted' });
    expect((await call(a, 'tasks/get', { taskId: task.taskId })).result.status).toBe('cancelled');
  });

  it('carry a tool registered on one node to a listen on the other', async () => {
    const { a, b } = await twoNodes();
    const client = await McpClient.connect({ url: b.kit.url });
    onTestFinished(() => client.close());
    await until(() => b.kit.handler.openListens === 1, { what: "the client's listen on node b" });
    let changed = 0;
    client.on('toolsChanged', () => changed++);
    a.server.registerTool({ name: 'late', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });
    await until(() => changed >= 1, { what: 'the toolsChanged event from node a' });
  });

  it('accept a requestState minted on the other', async () => {
    const { a, b } = await twoNodes();
    const asking = { elicitation: {} };
    const round1 = (await call(a, 'tools/call', { name: 'greet', arguments: {} }, asking)).result;
    expect(round1.resultType).toBe('input_required');
    const round2 = await call(
      b,
      'tools/call',
      {
        name: 'greet',
        arguments: {},
        requestState: round1.requestState,
        inputResponses: { 'input-1': { action: 'accept', content: { name: 'Ada' } } },
      },
      asking,
    );
    expect(round2.result.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
  });

  it('serve a legacy session made on the other: initialized and listed on one, called on the other', async () => {
    const { a, b } = await twoNodes();
    const made = await exchange(a.kit.url, {
      body: {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
    });
    const headers = {
      'mcp-session-id': made.headers['mcp-session-id'] as string,
      'mcp-protocol-version': '2025-11-25',
    };
    const initialized = await exchange(b.kit.url, {
      headers,
      body: { jsonrpc: '2.0', method: 'notifications/initialized' },
    });
    expect(initialized.status).toBe(202);
    const listed = await exchange(b.kit.url, {
      headers: { ...headers, accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
    });
    const answer = listed.json ?? JSON.parse(sseEvents(listed.text).at(-1)!.data);
    expect(answer.result.tools.map((tool: { name: string }) => tool.name)).toContain('gate');
    const pinged = await exchange(a.kit.url, { headers, body: { jsonrpc: '2.0', id: 2, method: 'ping' } });
    expect(pinged.status).toBe(200);
    expect((await exchange(b.kit.url, { method: 'DELETE', headers })).status).toBe(200);
    expect((await exchange(a.kit.url, { headers, body: { jsonrpc: '2.0', id: 3, method: 'ping' } })).status).toBe(404);
  });

  it('know a legacy session made on the other: a DELETE there ends it and its GET stream, and its events leave Redis', async () => {
    const { a, b, prefix } = await twoNodes();
    const keys = testRedis(redis.port);
    const made = await exchange(a.kit.url, {
      body: {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
    });
    const session = made.headers['mcp-session-id'] as string;
    expect(await keys.hget(`${prefix}session:${session}`, 'owner')).toBe('node-a');
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    await exchange(a.kit.url, { headers, body: { jsonrpc: '2.0', method: 'notifications/initialized' } });
    const called = exchange(a.kit.url, {
      headers,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'gate', _meta: { progressToken: 1 } } },
    });
    await until(() => a.kit.handler.inFlight === 1, { what: 'the call on node a' });
    await until(async () => (await keys.keys(`${prefix}events:node-a.*`)).length === 1, {
      what: "the call's SSE events in Redis",
    });
    const stream = await fetch(a.kit.url, { headers: { ...headers, accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    await until(() => a.kit.handler.openStreams === 1, { what: 'the GET stream on node a' });
    expect((await exchange(b.kit.url, { method: 'DELETE', headers })).status).toBe(200);
    expect(await within(stream.text(), { what: 'the GET stream on node a to end' })).toBe('');
    expect((await exchange(a.kit.url, { headers, body: { jsonrpc: '2.0', id: 2, method: 'ping' } })).status).toBe(404);
    expect((await exchange(b.kit.url, { headers, body: { jsonrpc: '2.0', id: 3, method: 'ping' } })).status).toBe(404);
    const events = sseEvents((await within(called, { what: 'the call to end with its session' })).text);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(event.id).toMatch(/^node-a\.[0-9a-f-]{36}\.\d+$/);
    await until(async () => (await keys.keys(`${prefix}*`)).length === 0, {
      what: 'the session and its events to leave Redis',
    });
  });

  it('resume a legacy SSE stream from its events in Redis with Last-Event-ID: the rest, live, the answer last', async () => {
    const { a, prefix } = await twoNodes();
    const keys = testRedis(redis.port);
    const made = await exchange(a.kit.url, {
      body: {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
    });
    const headers = {
      'mcp-session-id': made.headers['mcp-session-id'] as string,
      'mcp-protocol-version': '2025-11-25',
    };
    await exchange(a.kit.url, { headers, body: { jsonrpc: '2.0', method: 'notifications/initialized' } });
    release = undefined;
    const post = await exchange(a.kit.url, {
      headers,
      body: { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'poll_me', _meta: { progressToken: 'p' } } },
    });
    const first = sseEvents(post.text);
    expect(first.map((e) => (e.data === '' ? 'priming' : JSON.parse(e.data).method))).toEqual([
      'priming',
      'notifications/progress',
    ]);
    const streamId = first[0]!.id!.slice(0, first[0]!.id!.lastIndexOf('.'));
    expect(await keys.xlen(`${prefix}events:${streamId}`)).toBe(2);
    await until(() => release !== undefined, { what: 'the handler to wait after closing its stream' });
    const resumed = exchange(a.kit.url, {
      method: 'GET',
      headers: { ...headers, accept: 'text/event-stream', 'last-event-id': first[1]!.id! },
    });
    await until(async () => (await keys.pubsub('NUMSUB', `${prefix}wake:${streamId}`))[1] === 1, {
      what: 'the resumed stream to follow the log',
    });
    release!();
    const rest = sseEvents((await resumed).text);
    expect(rest.map((e) => JSON.parse(e.data).method ?? JSON.parse(e.data).result.content[0].text)).toEqual([
      'notifications/progress',
      'resumed result',
    ]);
    expect(rest.map((e) => e.id)).toEqual([`${streamId}.3`, `${streamId}.4`]);
  });

  it('answer at once with an error while Redis is down, and serve again once it is back', async () => {
    const { a, b } = await twoNodes();
    await redis.down();
    let answers: any[];
    try {
      answers = await Promise.all([
        within(call(a, 'tools/call', { name: 'gate', arguments: {} }), { what: 'a task-run call while Redis is down' }),
        within(call(b, 'tasks/get', { taskId: randomUUID() }), { what: 'tasks/get while Redis is down' }),
      ]);
    } finally {
      await redis.up();
    }
    for (const answer of answers) expect(answer.error).toMatchObject({ code: -32603 });
    const task = await eventually(
      async () => {
        const made = (await call(a, 'tools/call', { name: 'gate', arguments: {} })).result;
        return made?.resultType === 'task' ? made : undefined;
      },
      { what: 'a task made once Redis is back', timeoutMs: 20_000 },
    );
    expect((await call(b, 'tasks/get', { taskId: task.taskId })).result.status).toBe('working');
    await call(b, 'tasks/cancel', { taskId: task.taskId });
  });
});
