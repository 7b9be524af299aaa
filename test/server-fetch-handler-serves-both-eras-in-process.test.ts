/**
 * `createFetchHandler` called in-process with real `Request` objects (no listener): a legacy
 * session from `initialize` to DELETE with its GET stream, 2026 stateless calls answered with
 * JSON and with SSE, a request whose `signal` aborts cancelling its tool, `close()`, and the
 * `cors` option (preflight, headers on every answer, a disallowed origin refused).
 */
import { describe, expect, it, onTestFinished } from 'vitest';
import { createFetchHandler, McpServer, type McpFetchHandler } from '../src/server/index.js';
import { FETCH_URL, jsonPost, legacyInitialize, modernPost } from './support/fetch-requests.js';
import { holdingServer, registerProgressAdd } from './support/kit-servers.js';
import { sseEvents } from './support/kit-wire.js';
import { LEGACY_REVISION, rpc } from './support/legacy-wire.js';
import { readText } from './support/stream-reader.js';
import { until, within } from './support/wait.js';

const PAGE = 'http://127.0.0.1:5173';

function serve(server: McpServer, options: Parameters<typeof createFetchHandler>[1] = {}): McpFetchHandler {
  const handler = createFetchHandler(server, { path: '/mcp', ...options });
  onTestFinished(() => handler.close({ graceMs: 1000 }));
  return handler;
}

/** A response's JSON body, read as the loose shape tests assert on. */
async function jsonOf(response: Response): Promise<any> {
  return response.json();
}

function addServer(): McpServer {
  const server = new McpServer({ name: 'fetch-kit', version: '1.0.0', logger: () => undefined });
  registerProgressAdd(server);
  return server;
}

/** A 2026 `add` call with a progress token: answered on an SSE stream, its progress first. */
function addWithProgress(headers: Record<string, string> = {}): Request {
  return modernPost(
    'tools/call',
    { name: 'add', arguments: { a: 1, b: 2 } },
    { meta: { progressToken: 'p' }, headers },
  );
}

describe('createFetchHandler with Request objects', () => {
  it('serves a legacy session: initialize, tools/call, a GET stream that hears list_changed, DELETE', async () => {
    const server = addServer();
    const handler = serve(server);
    const made = await handler(jsonPost(legacyInitialize()));
    expect(made.status).toBe(200);
    const session = made.headers.get('mcp-session-id')!;
    expect(session).toMatch(/^[0-9a-f-]{36}$/);
    expect((await jsonOf(made)).result.protocolVersion).toBe(LEGACY_REVISION);
    const headers = { 'mcp-session-id': session, 'mcp-protocol-version': LEGACY_REVISION };
    const initialized = await handler(jsonPost({ jsonrpc: '2.0', method: 'notifications/initialized' }, headers));
    expect(initialized.status).toBe(202);

    const call = await handler(
      jsonPost(rpc('tools/call', { name: 'add', arguments: { a: 2, b: 3 } }), {
        ...headers,
        accept: 'application/json',
      }),
    );
    expect(call.status).toBe(200);
    expect((await jsonOf(call)).result.content).toEqual([{ type: 'text', text: '5' }]);

    const get = await handler(
      new Request(FETCH_URL, { method: 'GET', headers: { ...headers, accept: 'text/event-stream' } }),
    );
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('text/event-stream');
    const stream = readText(get.body);
    await until(() => handler.openStreams === 1, { what: 'the GET stream to be held' });
    server.registerTool({ name: 'later', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });
    await stream.until((text) => text.includes('notifications/tools/list_changed'), 'list_changed on the GET stream');

    const deleted = await handler(new Request(FETCH_URL, { method: 'DELETE', headers }));
    expect(deleted.status).toBe(200);
    expect((await stream.end()).broken).toBe(false);
    const after = await handler(jsonPost(rpc('tools/list'), headers));
    expect(after.status).toBe(404);
  });

  it('answers a 2026 stateless call with JSON, and with SSE carrying its progress', async () => {
    const handler = serve(addServer());
    const json = await handler(modernPost('tools/list', {}, { id: 7, headers: { accept: 'application/json' } }));
    expect(json.status).toBe(200);
    expect(json.headers.get('content-type')).toBe('application/json');
    expect((await jsonOf(json)).result.tools.map((tool: { name: string }) => tool.name)).toEqual(['add']);

    const sse = await handler(addWithProgress());
    expect(sse.headers.get('content-type')).toBe('text/event-stream');
    const messages = sseEvents(await sse.text()).map((event) => JSON.parse(event.data));
    expect(messages.map((message) => message.method ?? 'answer')).toEqual([
      'notifications/progress',
      'notifications/progress',
      'answer',
    ]);
    expect(messages[2].result.content).toEqual([{ type: 'text', text: '3' }]);
  });

  it("cancels the tool when the request's signal aborts: its handler sees the abort", async () => {
    const { server, held, aborted } = holdingServer('fetch-abort');
    const handler = serve(server);
    const controller = new AbortController();
    const answer = handler(modernPost('tools/call', { name: 'hold', arguments: {} }, { signal: controller.signal }));
    await held();
    controller.abort();
    await aborted();
    // Nobody reads the response of a client that left; the promise still settles.
    expect((await within(answer, { what: 'the response promise to settle' })).status).toBe(499);
    await until(() => handler.inFlight === 0, { what: 'nothing left in flight' });
  });

  it('caps the body at maxBodyBytes, declared (read whole) or streamed (read in chunks): 413, and nothing runs', async () => {
    const server = addServer();
    const handler = serve(server, { maxBodyBytes: 200, sessions: false });
    const body = JSON.stringify(rpc('tools/list', { pad: 'x'.repeat(300) }));
    const declared = jsonPost(JSON.parse(body), { 'content-length': String(body.length) });
    expect(declared.headers.get('content-length')).toBe(String(body.length));
    expect((await handler(declared)).status).toBe(413);
    // A length that understates the body (a Request made in code) is still held to the cap.
    expect((await handler(jsonPost(JSON.parse(body), { 'content-length': '50' }))).status).toBe(413);
    const bytes = new TextEncoder().encode(body);
    const streamed = new Request(FETCH_URL, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.slice(0, 150));
          controller.enqueue(bytes.slice(150));
          controller.close();
        },
      }),
      duplex: 'half',
    });
    expect((await handler(streamed)).status).toBe(413);
    // A declared body within the cap is read whole and served.
    const small = JSON.stringify(rpc('tools/list'));
    const served = await handler(jsonPost(JSON.parse(small), { 'content-length': String(small.length) }));
    expect(served.status).toBe(200);
    expect((await jsonOf(served)).result.tools.map((t: { name: string }) => t.name)).toEqual(['add']);
  });

  it('close() refuses new requests with 503 and ends the calls still running after the grace', async () => {
    const { server, held } = holdingServer('fetch-close');
    const handler = createFetchHandler(server, { path: '/mcp' });
    const running = handler(modernPost('tools/call', { name: 'hold', arguments: {} }));
    await held();
    expect(handler.inFlight).toBe(1);
    const closed = handler.close({ graceMs: 50 });
    const refused = await handler(modernPost('tools/list', {}, { id: 2 }));
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
  it('answers a preflight before anything else, echoing the Mcp-* headers it asks for', async () => {
    const handler = serve(addServer(), { cors: { origins: [PAGE] } });
    const answer = await handler(
      new Request(FETCH_URL, {
        method: 'OPTIONS',
        headers: {
          origin: PAGE,
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, mcp-session-id, mcp-param-region',
        },
      }),
    );
    expect(answer.status).toBe(204);
    expect(answer.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(answer.headers.get('access-control-allow-methods')).toContain('DELETE');
    expect(answer.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('mcp-param-region');
  });

  it('names the origin and the readable headers on JSON answers, SSE streams and refusals', async () => {
    const handler = serve(addServer(), { cors: { origins: [PAGE] } });
    const made = await handler(jsonPost(legacyInitialize(), { origin: PAGE, accept: 'application/json' }));
    expect(made.status).toBe(200);
    expect(made.headers.get('access-control-allow-origin')).toBe(PAGE);
    expect(made.headers.get('access-control-expose-headers')?.toLowerCase()).toContain('mcp-session-id');
    const stream = await handler(addWithProgress({ origin: PAGE }));
    expect(stream.headers.get('content-type')).toBe('text/event-stream');
    expect(stream.headers.get('access-control-allow-origin')).toBe(PAGE);
    await stream.text();
    const refused = await handler(jsonPost(rpc('tools/list'), { origin: PAGE, 'mcp-session-id': 'none' }));
    expect(refused.status).toBe(404);
    expect(refused.headers.get('access-control-allow-origin')).toBe(PAGE);
  });

  it('refuses an origin it does not list with 403, and nothing runs', async () => {
    const server = addServer();
    let ran = false;
    server.registerTool({
      name: 'mark',
      inputSchema: { type: 'object' },
      handler: () => {
        ran = true;
        return { content: [] };
      },
    });
    const handler = serve(server, { cors: { origins: [PAGE] } });
    const stranger = 'http://127.0.0.1:6666';
    const refused = await handler(
      modernPost('tools/call', { name: 'mark', arguments: {} }, { headers: { origin: stranger } }),
    );
    expect(refused.status).toBe(403);
    expect(ran).toBe(false);
    const preflightRefused = await handler(
      new Request(FETCH_URL, {
        method: 'OPTIONS',
        headers: { origin: stranger, 'access-control-request-method': 'POST' },
      }),
    );
    expect(preflightRefused.status).toBe(403);
  });
});
