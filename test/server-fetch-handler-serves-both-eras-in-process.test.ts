/**
 * `createFetchHandler` called in-process with real `Request` objects (no listener): a legacy
 * session from `initialize` to DELETE with its GET stream, 2026 stateless calls answered with
 * JSON and with SSE, a request whose `signal` aborts cancelling its tool, and `close()`.
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { createFetchHandler, McpServer, type McpFetchHandler } from '../src/server/index.js';
import { holdingServer } from './support/kit-servers.js';
import { modernMeta, sseEvents } from './support/kit-wire.js';
import { LEGACY_REVISION, rpc } from './support/legacy-wire.js';
import { readText } from './support/stream-reader.js';
import { until, within } from './support/wait.js';

const URL_BASE = 'http://localhost/mcp';

function serve(server: McpServer, options: Parameters<typeof createFetchHandler>[1] = {}): McpFetchHandler {
  const handler = createFetchHandler(server, { path: '/mcp', ...options });
  onTestFinished(() => handler.close({ graceMs: 1000 }));
  return handler;
}

function post(body: unknown, headers: Record<string, string> = {}, signal?: AbortSignal): Request {
  return new Request(URL_BASE, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify(body),
    ...(signal ? { signal } : {}),
  });
}

/** A 2026-07-28 request with its envelope and binding headers. */
function modern(method: string, params: Record<string, unknown>, id = 1, signal?: AbortSignal): Request {
  const name = params.name as string | undefined;
  return post(
    { jsonrpc: '2.0', id, method, params: { ...params, _meta: modernMeta() } },
    { 'mcp-protocol-version': '2026-07-28', 'mcp-method': method, ...(name ? { 'mcp-name': name } : {}) },
    signal,
  );
}

/** A response's JSON body, read as the loose shape tests assert on. */
async function jsonOf(response: Response): Promise<any> {
  return response.json();
}

function echoServer(): McpServer {
  const server = new McpServer({ name: 'fetch-kit', version: '1.0.0', logger: () => undefined });
  server.registerTool({
    name: 'add',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
    handler: ({ a, b }, context) => {
      context.progress(1, 2);
      context.progress(2, 2);
      return { content: [{ type: 'text', text: String(Number(a) + Number(b)) }] };
    },
  });
  return server;
}

describe('createFetchHandler with Request objects', () => {
  it('serves a legacy session: initialize, tools/call, a GET stream that hears list_changed, DELETE', async () => {
    const server = echoServer();
    const handler = serve(server);
    const made = await handler(
      post(
        rpc('initialize', {
          protocolVersion: LEGACY_REVISION,
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        }),
      ),
    );
    expect(made.status).toBe(200);
    const session = made.headers.get('mcp-session-id')!;
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect((await jsonOf(made)).result.protocolVersion).toBe(LEGACY_REVISION);
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY_REVISION };
    const initialized = await handler(post({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers));
    expect(initialized.status).toBe(202);

    const call = await handler(
      post(rpc('tools/call', { name: 'add', arguments: { a: 2, b: 3 } }), { ...headers, accept: 'application/json' }),
    );
    expect(call.status).toBe(200);
    expect((await jsonOf(call)).result.content).toEqual([{ type: 'text', text: '5' }]);

    const get = await handler(
      new Request(URL_BASE, { method: 'GET', headers: { ...headers, accept: 'text/event-stream' } }),
    );
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('text/event-stream');
    const stream = readText(get.body);
    await until(() => handler.openStreams === 1, { what: 'the GET stream to be held' });
    server.registerTool({ name: 'later', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });
    await stream.until((text) => text.includes('notifications/tools/list_changed'), 'list_changed on the GET stream');

    const deleted = await handler(new Request(URL_BASE, { method: 'DELETE', headers }));
    expect(deleted.status).toBe(200);
    expect((await stream.end()).broken).toBe(false);
    const after = await handler(post(rpc('tools/list'), headers));
    expect(after.status).toBe(404);
  });

  it('answers a 2026 stateless call with JSON, and with SSE carrying its progress', async () => {
    const handler = serve(echoServer());
    const json = await handler(
      new Request(URL_BASE, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/list',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/list', params: { _meta: modernMeta() } }),
      }),
    );
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toBe('application/json');
    expect((await jsonOf(json)).result.tools.map((tool: { name: string }) => tool.name)).toEqual(['add']);

    // With a progress token the progress goes before the answer, on an SSE stream.
    const withToken = await handler(
      post(
        {
          jsonrpc: '2.0',
          id: 9,
          method: 'tools/call',
          params: { name: 'add', arguments: { a: 1, b: 2 }, _meta: { ...modernMeta(), progressToken: 'p' } },
        },
        { 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'add' },
      ),
    );
    expect(withToken.headers.get('content-type')).toBe('text/event-stream');
    const messages = sseEvents(await withToken.text()).map((event) => JSON.parse(event.data));
    expect(messages.map((message) => message.method ?? 'answer')).toEqual([
      'notifications/progress',
      'notifications/progress',
      'answer',
    ]);
    expect(messages[2].result.content).toEqual([{ type: 'text', text: '3' }]);
  });

  it("cancels the tool when the request's signal aborts: its handler sees the abort", async () => {
    const server = new McpServer({ name: 'fetch-abort', version: '1', logger: () => undefined });
    let started!: () => void;
    const running = new Promise<void>((resolve) => (started = resolve));
    let aborted!: () => void;
    const sawAbort = new Promise<void>((resolve) => (aborted = resolve));
    server.registerTool({
      name: 'watch',
      inputSchema: { type: 'object' },
      handler: async (_args, context) => {
        started();
        await new Promise<void>((resolve) => context.signal.addEventListener('abort', () => resolve(), { once: true }));
        aborted();
        return { content: [] };
      },
    });
    const handler = serve(server);
    const controller = new AbortController();
    const answer = handler(modern('tools/call', { name: 'watch', arguments: {} }, 1, controller.signal));
    await within(running, { what: 'the tool to run' });
    controller.abort();
    await within(sawAbort, { what: 'the tool handler to see the abort' });
    // Nobody reads the response of a client that left; the promise still settles.
    expect((await within(answer, { what: 'the response promise to settle' })).status).toBe(499);
    await until(() => handler.inFlight === 0, { what: 'nothing left in flight' });
  });

  it('close() refuses new requests with 503 and ends the calls still running after the grace', async () => {
    const { server, held } = holdingServer('fetch-close');
    const handler = createFetchHandler(server, { path: '/mcp' });
    const running = handler(modern('tools/call', { name: 'hold', arguments: {} }));
    await held();
    expect(handler.inFlight).toBe(1);
    const closed = handler.close({ graceMs: 50 });
    const refused = await handler(modern('tools/list', {}, 2));
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('1');
    await within(closed, { what: 'close() to resolve' });
    const ended = await within(running, { what: 'the held call to be answered' });
    expect(ended.status).toBe(200);
    expect((await jsonOf(ended)).error.code).toBe(-32603);
    expect(handler.inFlight).toBe(0);
  });
});

describe('createFetchHandler with a cors option', () => {
  const page = 'http://127.0.0.1:5173';

  it('answers a preflight before anything else, echoing the Mcp-* headers it asks for', async () => {
    const handler = serve(echoServer(), { cors: { origins: [page] } });
    const answer = await handler(
      new Request(URL_BASE, {
        method: 'OPTIONS',
        headers: {
          origin: page,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, mcp-session-id, mcp-param-region',
        },
      }),
    );
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(page);
    expect(answer.headers.get('access-control-allow-methods')).toContain('DELETE');
    expect(answer.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('mcp-param-region');
  });

  it('names the origin and the readable headers on JSON answers, SSE streams and refusals', async () => {
    const handler = serve(echoServer(), { cors: { origins: [page] } });
    const made = await handler(
      post(
        rpc('initialize', {
          protocolVersion: LEGACY_REVISION,
          capabilities: {},
          clientInfo: { name: 'raw', version: '1' },
        }),
        { origin: page, accept: 'application/json' },
      ),
    );
    expect(made.status).toBe(200);
    expect(made.headers.get('access-control-allow-origin')).toBe(page);
    expect(made.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('mcp-session-id');
    const stream = await handler(
      post(
        {
          jsonrpc: '2.0',
          id: 3,
          method: 'tools/call',
          params: { name: 'add', arguments: { a: 1, b: 1 }, _meta: { ...modernMeta(), progressToken: 'p' } },
        },
        { origin: page, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'tools/call', 'mcp-name': 'add' },
      ),
    );
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    expect(stream.headers.get('access-control-allow-origin')).toBe(page);
    await stream.text();
    const refused = await handler(post(rpc('tools/list'), { origin: page, 'mcp-session-id': 'none' }));
    expect(refused.status).toBe(404);
    expect(refused.headers.get('access-control-allow-origin')).toBe(page);
  });

  it('refuses an origin it does not list with 403, and nothing runs', async () => {
    const server = echoServer();
    let ran = false;
    server.registerTool({
      name: 'mark',
      inputSchema: { type: 'object' },
      handler: () => {
        ran = true;
        return { content: [] };
      },
    });
    const handler = serve(server, { cors: { origins: [page] } });
    const refused = await handler(
      post(
        { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'mark', arguments: {}, _meta: modernMeta() } },
        {
          origin: 'http://127.0.0.1:6666',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'mark',
        },
      ),
    );
    expect(refused.status).toBe(403);
    expect(ran).toBe(false);
    const preflightRefused = await handler(
      new Request(URL_BASE, {
        method: 'OPTIONS',
        headers: { origin: 'http://127.0.0.1:6666', 'access-control-request-method': 'POST' },
      }),
    );
    expect(preflightRefused.status).toBe(403);
  });
});
