/**
 * Two kit servers in one process, each behind its own HTTP handler on a real loopback listener,
 * given one set of in-memory state seams and one `stateSecret`, behave as two nodes sharing
 * state: a task made on one is seen and cancelled through the other (its handler aborted where
 * it runs), a listen on one hears a tool registered on the other (and every list after a bus
 * resync), a `requestState` minted on one is accepted on the other (and refused by a node with
 * another secret), a legacy session DELETEd through one is gone on the other (its GET stream
 * there ended at once), and stream event ids carry the node id. Bad `state` options are
 * refused, naming the option; a shared store needs `state.stateSecret`.
 */
import { describe, expect, it } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { McpServer } from '../src/server/index.js';
import { MemoryChangeBus } from '../src/server/state/memory-change-bus.js';
import { MemoryTaskStore } from '../src/server/state/memory-task-store.js';
import type { ServerStateOptions } from '../src/server/state/server-state.js';
import { startKitHttp, type KitHttp } from './support/kit-http.js';
import { exchange, modernRequest, sseEvents } from './support/kit-wire.js';
import { until, within } from './support/wait.js';
import { greetAnsweredAda, registerGateTool, registerGreetTool } from './support/kit-tools.js';
import { sharedMemoryState } from './support/memory-state.js';

const SECRET = 'the secret both nodes share';
const WITH_TASKS = { extensions: { 'io.modelcontextprotocol/tasks': {} } };

interface Node {
  server: McpServer;
  kit: KitHttp;
  aborted: unknown[];
}

async function node(nodeId: string, state: ServerStateOptions, stateSecret = SECRET): Promise<Node> {
  const server = new McpServer({
    name: 'node',
    version: '1',
    logger: () => undefined,
    state: { ...state, nodeId, stateSecret },
  });
  const { aborted } = registerGateTool(server, { progress: true });
  registerGreetTool(server, { progress: true });
  return { server, kit: await startKitHttp(server, { sessions: true }), aborted };
}

/**
 * Connects a client to node b, waits for its listen there, runs `change` and waits for the
 * toolsChanged event it must bring (`when` names it in the wait's failure).
 */
async function hearsToolsChanged(b: Node, when: string, change: () => void): Promise<void> {
  const client = await McpClient.connect({ url: b.kit.url });
  try {
    await until(() => b.kit.handler.openListens === 1, { what: "the client's listen on node b" });
    let changed = 0;
    client.on('toolsChanged', () => changed++);
    change();
    await until(() => changed >= 1, { what: `the toolsChanged event ${when}` });
  } finally {
    await client.close();
  }
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

describe('two kit nodes sharing one state', () => {
  it('see a task made on the other at once, and a cancel through one aborts the handler on the other', async () => {
    const state = sharedMemoryState();
    const a = await node('node-a', state);
    const b = await node('node-b', state);
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
    const state = sharedMemoryState();
    const a = await node('node-a', state);
    const b = await node('node-b', state);
    await hearsToolsChanged(b, 'from node a', () =>
      a.server.registerTool({ name: 'late', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) }),
    );
  });

  it('tell every listen that each list changed when the bus asks for a resync (messages may have been lost)', async () => {
    const state = sharedMemoryState();
    const b = await node('node-b', state);
    await hearsToolsChanged(b, 'after the resync', () => (state.bus as MemoryChangeBus).resync());
  });

  it('accept a requestState minted on the other; a node with another secret refuses it', async () => {
    const state = sharedMemoryState();
    const a = await node('node-a', state);
    const b = await node('node-b', state);
    const c = await node('node-c', sharedMemoryState(), 'another secret, 16+ characters');
    const asking = { elicitation: {} };
    const round1 = (await call(a, 'tools/call', { name: 'greet', arguments: {} }, asking)).result;
    expect(round1.resultType).toBe('input_required');
    const again = greetAnsweredAda(round1.requestState);
    const round2 = (await call(b, 'tools/call', again, asking)).result;
    expect(round2.content).toEqual([{ type: 'text', text: 'hello Ada' }]);
    expect((await call(c, 'tools/call', again, asking)).error.code).toBe(-32602);
  });

  it('end a legacy session DELETEd through one node on the other, and number streams by node', async () => {
    const state = sharedMemoryState();
    const a = await node('node-a', state);
    const b = await node('node-b', state);
    const made = await exchange(a.kit.url, {
      body: {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
      },
    });
    const session = made.headers['mcp-session-id'] as string;
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    await exchange(a.kit.url, { headers, body: { jsonrpc: '2.0', method: 'notifications/initialized' } });
    const called = exchange(a.kit.url, {
      headers,
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'gate', _meta: { progressToken: 1 } } },
    });
    await until(() => a.kit.handler.inFlight === 1, { what: 'the call on node a' });
    const stream = await fetch(a.kit.url, { headers: { ...headers, accept: 'text/event-stream' } });
    expect(stream.status).toBe(200);
    await until(() => a.kit.handler.openStreams === 1, { what: 'the GET stream on node a' });
    expect((await exchange(b.kit.url, { method: 'DELETE', headers })).status).toBe(200);
    // Node a hears of it on the bus: its GET stream ends at once.
    expect(await within(stream.text(), { what: 'the GET stream on node a to end' })).toBe('');
    // The session is gone on node a too: 404, and the call ended with it.
    const after = await exchange(a.kit.url, { headers, body: { jsonrpc: '2.0', id: 2, method: 'ping' } });
    expect(after.status).toBe(404);
    const events = sseEvents((await within(called, { what: 'the call to end with its session' })).text);
    expect(events.length).toBeGreaterThan(0);
    for (const event of events) expect(event.id).toMatch(/^node-a\.[0-9a-f-]{36}\.\d+$/);
  });

  it.each([
    [{ tasks: Object.assign(new MemoryTaskStore(), { shared: true }) }, 'state.stateSecret'],
    [{ bus: Object.assign(new MemoryChangeBus(), { shared: true }) }, 'state.stateSecret'],
    [{ nodeId: 'a.b' }, 'state.nodeId'],
    [{ nodeId: '' }, 'state.nodeId'],
    [{ stateSecret: 'short' }, 'state.stateSecret'],
    [{ sessions: {} }, 'state.sessions'],
    [{ nodeID: 'x' }, 'state.nodeID'],
    [{ requestStateTtlMs: 0 }, 'state.requestStateTtlMs'],
  ])('refuses the state option %j, naming %s', (state, option) => {
    expect(() => new McpServer({ name: 'x', version: '1', state: state as ServerStateOptions })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining(option) }),
    );
  });

  it('gives every server a node id of its own unless one is given, and takes a shared store with a secret', () => {
    const one = new McpServer({ name: 'x', version: '1' });
    const two = new McpServer({ name: 'x', version: '1' });
    expect(one.nodeId).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(one.nodeId).not.toBe(two.nodeId);
    const shared = Object.assign(new MemoryTaskStore(), { shared: true });
    expect(
      new McpServer({ name: 'x', version: '1', state: { tasks: shared, stateSecret: SECRET, nodeId: 'n-1' } }).nodeId,
    ).toBe('n-1');
    expect(
      () => new McpServer({ name: 'x', version: '1', stateSecret: SECRET, state: { stateSecret: SECRET } }),
    ).toThrow(/give one/);
  });
});
