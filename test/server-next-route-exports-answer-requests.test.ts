/**
 * A Next.js App Router route module whose GET, POST, DELETE and OPTIONS are the kit's fetch
 * handler, called as Next.js calls them (`await POST(request, { params })`, web `Request` in,
 * `Response` out, no listener): a legacy session from `initialize` to DELETE with its GET stream
 * hearing `list_changed`, a 2026-07-28 call streaming progress, and the CORS preflight for the
 * app's origin (another origin refused before anything runs).
 */
import { afterEach, beforeEach, expect, it } from 'vitest';
import { answerMessages, initializeMessage, legacyInit, modernInit, type WireInit } from './support/fetch-wire.js';
import { loadNextApp, type NextApp } from './support/mounts.js';
import { readText } from './support/stream-reader.js';

const URL_ = 'http://localhost:3000/mcp';
const CONTEXT = { params: Promise.resolve({}) };

let next: NextApp;
beforeEach(async () => {
  next = await loadNextApp();
});
afterEach(async () => {
  await next.app.handler.close({ graceMs: 1_000 });
  await next.app.served.server.close();
});

/** A `Request` to the route, as Next.js hands it over. */
function request(init: WireInit): Request {
  return new Request(URL_, init);
}

/** A bodiless request (GET, DELETE, OPTIONS) with `headers`. */
function bare(method: string, headers: Record<string, string>): Request {
  return new Request(URL_, { method, headers: { accept: 'application/json, text/event-stream', ...headers } });
}

async function messages(response: Response): Promise<any[]> {
  return answerMessages(response.headers.get('content-type'), await response.text());
}

it('serves a legacy session through its exports: initialize, a call, the GET stream, DELETE', async () => {
  const { POST, GET, DELETE } = next.route;
  const init = await POST(request(legacyInit(initializeMessage('next-test'))), CONTEXT);
  expect(init.status).toBe(200);
  const session = init.headers.get('mcp-session-id')!;
  expect(session).toMatch(/\S/);
  expect((await messages(init))[0].result.serverInfo.name).toBe('on-next-route');
  const initialized = await POST(request(legacyInit({ method: 'notifications/initialized' }, session)), CONTEXT);
  expect(initialized.status).toBe(202);
  const add = { id: 2, method: 'tools/call', params: { name: 'add', arguments: { a: 3, b: 4 } } };
  const call = await POST(request(legacyInit(add, session)), CONTEXT);
  expect((await messages(call)).at(-1).result.structuredContent).toEqual({ sum: 7 });

  const headers = { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
  const get = await GET(bare('GET', { ...headers, accept: 'text/event-stream' }), CONTEXT);
  expect(get.status).toBe(200);
  expect(get.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const stream = readText(get.body);
  next.app.served.server.registerTool({
    name: 'late',
    inputSchema: { type: 'object' },
    handler: () => ({ content: [] }),
  });
  await stream.until((t) => t.includes('notifications/tools/list_changed'), 'list_changed on the GET stream');

  const deleted = await DELETE(bare('DELETE', headers), CONTEXT);
  expect(deleted.status).toBeLessThan(300);
  expect(await stream.end()).toMatchObject({ broken: false });
  const gone = await POST(request(legacyInit({ id: 3, method: 'ping' }, session)), CONTEXT);
  expect(gone.status).toBe(404);
});

it('answers a 2026-07-28 call through POST, progress streamed before the result', async () => {
  const add = modernInit('tools/call', { name: 'add', arguments: { a: 20, b: 22 } }, { meta: { progressToken: 'p' } });
  const response = await next.route.POST(request(add), CONTEXT);
  expect(response.status).toBe(200);
  const answered = await messages(response);
  expect(answered.filter((m) => m.method === 'notifications/progress').map((m) => m.params.progress)).toEqual([1, 2]);
  expect(answered.at(-1).result.structuredContent).toEqual({ sum: 42 });
  expect(next.app.served.calls).toBe(1);
});

it("answers the app origin's preflight and refuses another origin before anything runs", async () => {
  const asked = ['content-type', 'mcp-protocol-version', 'mcp-session-id', 'mcp-method', 'mcp-name'];
  const preflight = await next.route.OPTIONS(
    bare('OPTIONS', {
      origin: next.app.APP_ORIGIN,
      'access-control-request-method': 'POST',
      'access-control-request-headers': asked.join(', '),
    }),
    CONTEXT,
  );
  expect(preflight.status).toBe(204);
  expect(preflight.headers.get('access-control-allow-origin')).toBe(next.app.APP_ORIGIN);
  const allowed = preflight.headers.get('access-control-allow-headers')!.toLowerCase();
  for (const header of asked) expect(allowed).toContain(header);

  const count = modernInit(
    'tools/call',
    { name: 'count', arguments: {} },
    { headers: { origin: 'https://evil.example' } },
  );
  const foreign = await next.route.POST(request(count), CONTEXT);
  await foreign.body?.cancel();
  expect(foreign.status).toBe(403);
  expect(next.app.served.calls).toBe(0);
});
