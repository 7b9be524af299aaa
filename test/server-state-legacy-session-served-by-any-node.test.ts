/**
 * Three kit nodes in one process, each behind its own HTTP handler on a real loopback listener,
 * sharing one set of in-memory state seams: a legacy session made on one node is served by the
 * others. A node that does not hold the session adopts it from the session store (its revision,
 * capabilities, log level, subscriptions; refused to another principal; 404 for an unknown or
 * ended one on every node); an elicitation answer or a `notifications/cancelled` POSTed to another
 * node reaches the request on the node that runs it (answers and cancels naming nobody are
 * dropped); a POST stream resumes on another node from the shared event log; and when the owner of
 * a stream or a task stops renewing its lease, a reader of the stream gets what was logged and
 * then an error, and the task ends `failed`, within the lease.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { BearerTokenError, McpServer, type AuthInfo } from '../src/server/index.js';
import { MemoryEventLog } from '../src/server/state/memory-event-log.js';
import type { ServerStateOptions } from '../src/server/state/server-state.js';
import type { HttpHandlerOptions } from '../src/server/index.js';
import { listenKitAt, type KitHttp } from './support/kit-http.js';
import { exchange, modernRequest, sseEvents, type Exchange } from './support/kit-wire.js';
import { LegacyWire } from './support/legacy-wire.js';
import { until, within } from './support/wait.js';
import { registerGateTool } from './support/kit-tools.js';
import { sharedMemoryState } from './support/memory-state.js';

const SECRET = 'the secret every node shares';
const REVISION = '2025-11-25';
const TOKENS: Record<string, string> = { 'token-alice': 'alice', 'token-bob': 'bob' };

interface Node {
  server: McpServer;
  kit: KitHttp;
  /** Why each `gate` call was aborted. */
  aborted: unknown[];
  /** Opens every `poll_me` waiting on this node. */
  release(): void;
}

function verifyToken(token: string): Promise<AuthInfo> {
  const subject = TOKENS[token];
  if (!subject) return Promise.reject(new BearerTokenError('invalid_token', 'unknown token'));
  return Promise.resolve({ subject, clientId: 'one-client', scopes: [] });
}

async function node(
  nodeId: string,
  state: ServerStateOptions,
  options: { http?: HttpHandlerOptions; protect?: boolean; leaseMs?: number } = {},
): Promise<Node> {
  const server = new McpServer({
    name: 'node',
    version: '1',
    logger: () => undefined,
    state: { ...state, nodeId, stateSecret: SECRET },
    ...(options.leaseMs === undefined ? {} : { tasks: { leaseMs: options.leaseMs } }),
  });
  let open!: () => void;
  let opened = new Promise<void>((resolve) => (open = resolve));
  const { aborted } = registerGateTool(server, { progress: true });
  server.registerTool({
    name: 'ask',
    inputSchema: { type: 'object' },
    handler: async (_args, context) => {
      const answer = await context.elicit({ message: 'Your name?', requestedSchema: { type: 'object' } });
      return { content: [{ type: 'text', text: `hello ${String(answer.content?.name)} from ${nodeId}` }] };
    },
  });
  server.registerTool({
    name: 'poll_me',
    inputSchema: { type: 'object' },
    handler: async (_args, context) => {
      context.progress(1);
      context.closeStream();
      await opened;
      context.progress(2);
      return { content: [{ type: 'text', text: `resumed on ${nodeId}` }] };
    },
  });
  server.registerTool({
    name: 'chatty',
    inputSchema: { type: 'object' },
    handler: (_args, context) => {
      context.log('debug', `debug from ${nodeId}`);
      context.log('warning', `warning from ${nodeId}`);
      return { content: [] };
    },
  });
  server.registerResource({ uri: 'test://doc', name: 'doc', read: (uri) => [{ uri, text: '' }] });
  onTestFinished(() => server.close());
  const kit = await listenKitAt(server, (url) => ({
    sessions: true,
    ...options.http,
    ...(options.protect ? { auth: { resource: url, authorizationServers: ['https://as.example'], verifyToken } } : {}),
  }));
  onTestFinished(() => kit.close());
  return {
    server,
    kit,
    aborted,
    release: () => {
      open();
      opened = new Promise<void>((resolve) => (open = resolve));
    },
  };
}

/** A raw legacy client of one session (`LegacyWire`), sending each message to the node it is told. */
class Session {
  private readonly wire: LegacyWire;
  constructor(token?: string) {
    this.wire = new LegacyWire(token);
  }

  get id(): string {
    return this.wire.id;
  }

  set id(id: string) {
    this.wire.id = id;
  }

  headers(extra: Record<string, string> = {}): Record<string, string> {
    return this.wire.headers(extra);
  }

  async open(at: Node, capabilities: Record<string, unknown> = { elicitation: {} }): Promise<this> {
    const made = await this.post(at, {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: REVISION, capabilities, clientInfo: { name: 'raw', version: '1' } },
    });
    expect(made.status).toBe(200);
    this.id = made.headers['mcp-session-id'] as string;
    return this;
  }

  post(at: Node, body: unknown, headers: Record<string, string> = {}): Promise<Exchange> {
    return this.wire.post(at.kit.url, body, headers);
  }

  /** A streamed POST or GET whose body is read as it comes. */
  stream(at: Node, method: 'POST' | 'GET', body?: unknown, extra: Record<string, string> = {}) {
    return this.wire.stream(at.kit.url, method, body, extra);
  }
}

/** `store` as a node sees it whose every call of `method` is lost (resolves, changes nothing). */
function deafTo<T extends object>(store: T, method: keyof T & string): T {
  return new Proxy(store, {
    get(target, key) {
      if (key === method) return () => Promise.resolve();
      const value: unknown = Reflect.get(target, key);
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}

let nextId = 100;
const request = (method: string, params: Record<string, unknown> = {}) => ({
  jsonrpc: '2.0',
  id: nextId++,
  method,
  params,
});

describe('a legacy session shared by the nodes', () => {
  it('is initialized on one node, told initialized on a second and called on a third, with its stored facts', async () => {
    const state = sharedMemoryState();
    const [a, b, c] = [await node('node-a', state), await node('node-b', state), await node('node-c', state)];
    const session = await new Session().open(a);
    expect((await session.post(b, { jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    const listed = await session.post(c, request('tools/list'));
    expect(listed.status).toBe(200);
    expect(listed.json.result.tools.map((t: { name: string }) => t.name)).toContain('ask');
    // A level set through node b governs the log messages of a call on node c (and on node a).
    expect((await session.post(b, request('logging/setLevel', { level: 'debug' }))).json.result).toEqual({});
    for (const at of [c, a]) {
      const called = await session.post(at, request('tools/call', { name: 'chatty', arguments: {} }));
      const logged = sseEvents(called.text)
        .filter((e) => e.data !== '')
        .map((e) => JSON.parse(e.data).params?.data);
      expect(logged).toContain(`debug from ${at === c ? 'node-c' : 'node-a'}`);
    }
    expect((await session.post(c, request('logging/setLevel', { level: 'error' }))).json.result).toEqual({});
    const quiet = await session.post(a, request('tools/call', { name: 'chatty', arguments: {} }));
    expect(quiet.json.result).toBeDefined(); // no log message went before the answer: plain JSON
  });

  it('is 404 on every node when unknown or ended, and not found by another principal', async () => {
    const state = sharedMemoryState();
    const a = await node('node-a', state, { protect: true });
    const b = await node('node-b', state, { protect: true });
    const alice = await new Session('token-alice').open(a);
    const bob = Object.assign(new Session('token-bob'), { id: alice.id });
    for (const at of [a, b]) expect((await bob.post(at, request('ping'))).status).toBe(404);
    expect((await bob.stream(b, 'GET')).status).toBe(404);
    expect((await alice.post(b, request('ping'))).status).toBe(200);
    const unknown = Object.assign(new Session('token-alice'), { id: 'no-such-session' });
    for (const at of [a, b]) expect((await unknown.post(at, request('ping'))).status).toBe(404);
    expect((await exchange(b.kit.url, { method: 'DELETE', headers: alice.headers() })).status).toBe(200);
    for (const at of [a, b]) expect((await alice.post(at, request('ping'))).status).toBe(404);
    expect((await alice.stream(a, 'GET')).status).toBe(404);
  });

  it("carries changes to a GET stream on a node that did not make the session, filtered by the session's subscriptions", async () => {
    const state = sharedMemoryState();
    const a = await node('node-a', state);
    const b = await node('node-b', state);
    const session = await new Session().open(a);
    expect((await session.post(a, request('resources/subscribe', { uri: 'test://doc' }))).json.result).toEqual({});
    const get = await session.stream(b, 'GET');
    expect(get.status).toBe(200);
    await until(() => b.kit.handler.openStreams === 1, { what: 'the GET stream on node b' });
    a.server.registerTool({ name: 'late', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });
    await get.text.until((t) => t.includes('notifications/tools/list_changed'), 'list_changed on node b');
    a.server.notifyResourceUpdated('test://doc');
    await get.text.until((t) => t.includes('notifications/resources/updated'), 'resources/updated on node b');
  });

  it('tells a GET stream held on one node of a subscription made through another', async () => {
    const state = sharedMemoryState();
    const a = await node('node-a', state);
    const b = await node('node-b', state);
    const session = await new Session().open(a);
    const get = await session.stream(a, 'GET');
    await until(() => a.kit.handler.openStreams === 1, { what: 'the GET stream on node a' });
    expect((await session.post(b, request('resources/subscribe', { uri: 'test://doc' }))).json.result).toEqual({});
    // Node a hears on the bus that the session's facts changed and reads them again.
    await until(
      () => {
        a.server.notifyResourceUpdated('test://doc');
        return get.text.text.includes('notifications/resources/updated');
      },
      { what: 'resources/updated on the GET stream of node a' },
    );
  });

  it('is still served by the others when the node that made it closes', async () => {
    const state = sharedMemoryState();
    const a = await node('node-a', state);
    const b = await node('node-b', state);
    const session = await new Session().open(a);
    expect((await session.post(a, request('ping'))).status).toBe(200);
    await a.kit.close();
    expect((await session.post(b, request('ping'))).json.result).toEqual({});
    expect((await session.post(b, request('tools/list'))).status).toBe(200);
  });

  it('routes an elicitation answer POSTed to another node to the request waiting on the node that asked', async () => {
    const state = sharedMemoryState();
    const a = await node('node-a', state);
    const b = await node('node-b', state);
    const session = await new Session().open(a);
    const call = await session.stream(a, 'POST', request('tools/call', { name: 'ask', arguments: {} }));
    const asked = await call.text.until((t) => t.includes('elicitation/create'), 'the elicitation on node a');
    const elicitation = sseEvents(asked)
      .filter((e) => e.data.includes('elicitation/create'))
      .map((e) => JSON.parse(e.data))[0];
    expect(elicitation.id).toMatch(/^s\.node-a\.\d+$/);
    const answer = { jsonrpc: '2.0', id: elicitation.id, result: { action: 'accept', content: { name: 'Ada' } } };
    expect((await session.post(b, answer)).status).toBe(202);
    await call.text.until((t) => t.includes('hello Ada from node-a'), 'the answer of the call on node a');
  });

  it('routes a cancel POSTed to another node to the request running on the first, and drops what names nobody', async () => {
    const state = sharedMemoryState();
    const a = await node('node-a', state);
    const b = await node('node-b', state);
    const session = await new Session().open(a);
    const calling = request('tools/call', { name: 'gate', arguments: {}, _meta: { progressToken: 1 } });
    const call = await session.stream(a, 'POST', calling);
    await call.text.until((t) => t.includes('notifications/progress'), 'the call to run on node a');
    // Answers to requests nobody made, and a cancel of a request that is not running: dropped.
    const strays = [
      { jsonrpc: '2.0', id: 's.node-z.1', result: {} },
      { jsonrpc: '2.0', id: 's.node-a.999', result: {} },
      { jsonrpc: '2.0', id: 'not-ours', error: { code: -1, message: 'x' } },
      { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'never-sent' } },
    ];
    for (const stray of strays) expect((await session.post(b, stray)).status).toBe(202);
    expect(a.aborted).toEqual([]);
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: calling.id } };
    expect((await session.post(b, cancel)).status).toBe(202);
    await until(() => a.aborted.length === 1, { what: 'the call on node a to be aborted' });
    expect(await call.text.end()).toEqual({ broken: false });
    expect((await session.post(b, request('ping'))).json.result).toEqual({});
  });

  it('resumes a POST stream made on one node with GET + Last-Event-ID on another, its answer last', async () => {
    const state = sharedMemoryState();
    const a = await node('node-a', state);
    const b = await node('node-b', state);
    const session = await new Session().open(a);
    const calling = request('tools/call', { name: 'poll_me', _meta: { progressToken: 'p' } });
    const call = await session.post(a, calling);
    const seen = sseEvents(call.text);
    expect(seen.at(-1)!.id).toMatch(/^node-a\./);
    const resumed = await session.stream(b, 'GET', undefined, { 'last-event-id': seen.at(-1)!.id! });
    expect(resumed.status).toBe(200);
    a.release();
    expect(await resumed.text.end()).toEqual({ broken: false });
    const rest = sseEvents(resumed.text.text).map((e) => JSON.parse(e.data));
    expect(rest.map((m) => m.method ?? m.id)).toEqual(['notifications/progress', calling.id]);
    expect(rest[1].result.content[0].text).toBe('resumed on node-a');
  });

  it('ends a resumed stream with an error for its request within the lease once its owner stops renewing', async () => {
    const state = sharedMemoryState();
    const events = state.events!;
    // Node a's view of the log loses every renewal: to the others, node a died after opening the stream.
    const deaf = deafTo(events, 'renew');
    const a = await node('node-a', { ...state, events: deaf }, { http: { streamLeaseMs: 300 } });
    const b = await node('node-b', state, { http: { streamLeaseMs: 300 } });
    const session = await new Session().open(a);
    const calling = request('tools/call', { name: 'poll_me', _meta: { progressToken: 'p' } });
    const call = await session.post(a, calling);
    const last = sseEvents(call.text).at(-1)!.id!;
    const resumed = await session.stream(b, 'GET', undefined, { 'last-event-id': last });
    expect(await resumed.text.end(10_000)).toEqual({ broken: false });
    const messages = sseEvents(resumed.text.text).map((e) => JSON.parse(e.data));
    expect(messages).toEqual([
      { jsonrpc: '2.0', id: calling.id, error: { code: -32603, message: 'the server running the request stopped' } },
    ]);
    a.release();
  });

  it('keeps a resumed stream whose owner renews its lease going past the lease', async () => {
    const state = sharedMemoryState();
    const a = await node('node-a', state, { http: { streamLeaseMs: 150 } });
    const b = await node('node-b', state, { http: { streamLeaseMs: 150 } });
    const session = await new Session().open(a);
    const call = await session.post(a, request('tools/call', { name: 'poll_me', _meta: { progressToken: 'p' } }));
    const resumed = await session.stream(b, 'GET', undefined, { 'last-event-id': sseEvents(call.text).at(-1)!.id! });
    // Several renewals pass (the owner renews every 50 ms): a stream held past its lease is still open.
    const log = state.events as MemoryEventLog;
    let renewals = 0;
    const renew = log.renew.bind(log);
    log.renew = (...args) => {
      renewals++;
      return renew(...args);
    };
    await until(() => renewals >= 6, { what: 'six renewals of the lease by node a' });
    expect(resumed.text.text).not.toContain('error');
    a.release();
    await within(
      resumed.text.until((t) => t.includes('resumed on node-a'), 'the answer'),
      { what: 'the answer' },
    );
  });

  it('fails a task whose owner stops renewing its lease, seen from another node', async () => {
    const state = sharedMemoryState();
    const tasks = state.tasks!;
    const deaf = deafTo(tasks, 'renew');
    const a = await node('node-a', { ...state, tasks: deaf }, { leaseMs: 300 });
    const b = await node('node-b', state);
    const capabilities = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
    const made = await modernRequest(a.kit.url, 'tools/call', { name: 'gate', arguments: {} }, { capabilities });
    const { taskId } = made.json.result;
    await until(
      async () => {
        const seen = await modernRequest(b.kit.url, 'tasks/get', { taskId }, { capabilities });
        return seen.json.result?.status === 'failed';
      },
      { what: 'the task to fail on node b after its lease', timeoutMs: 10_000 },
    );
  });
});
