/**
 * Every HTTP behaviour of the client on both engines (`src/transport/http/default-engine.ts`):
 * undici's pool (the Node engine, registered as the Node entry registers it) and `fetch` (given
 * as `McpClient.connect({ url, fetch })`, a wrapper of the global fetch that counts its calls):
 * JSON and SSE answers, 2026 stateless calls with progress, cancel by abort reaching the server,
 * `subscriptions/listen`, a legacy session with its GET stream and DELETE, SSE resumption with
 * `Last-Event-ID` after a drop, and legacy HTTP+SSE. Real loopback servers only.
 */
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { McpClient } from '../src/client/mcp-client.js';
import { PROCESS_HTTP_ROUTES } from '../src/client/http-routes.js';
import { setNodeHttpEngine } from '../src/transport/http/default-engine.js';
import type { FetchFunction } from '../src/transport/http/fetch-engine.js';
import {
  httpSseServer,
  legacyServer,
  openSse,
  result,
  sse,
  sseText,
  startHttpFixture,
  writeThenDrop,
  type HttpFixture,
  type Route,
  type Seen,
} from './support/http-fixture.js';
import { startKitHttp } from './support/kit-http.js';
import { changeFeedServer, holdingServer, registerProgressAdd } from './support/kit-servers.js';
import { until } from './support/wait.js';

let nodeEngineLoads = 0;
beforeAll(() =>
  setNodeHttpEngine(async () => {
    nodeEngineLoads++;
    return import('../src/transport/http/undici-engine.js');
  }),
);
afterAll(() => setNodeHttpEngine(undefined));

/** Calls of the counting fetch, by HTTP method. */
const fetched: string[] = [];
const countingFetch: FetchFunction = (input, init) => {
  fetched.push(init?.method ?? 'GET');
  return globalThis.fetch(input, init);
};

const ENGINES = [
  { engine: 'undici', spec: {} },
  { engine: 'fetch', spec: { fetch: countingFetch } },
] as const;

describe.each(ENGINES)('HTTP on the $engine engine', ({ engine, spec }) => {
  /** Connects to `url`, closed when the test finishes; the engine's traffic is checked then. */
  async function connect(
    target: { url: string; transport?: 'http' | 'sse' },
    options: Parameters<typeof McpClient.connect>[1] = {},
  ): Promise<McpClient> {
    const before = fetched.length;
    const client = await McpClient.connect({ ...target, ...spec }, options);
    onTestFinished(async () => {
      await client.close();
      PROCESS_HTTP_ROUTES.clear();
    });
    // The engine asked for is the one used: the counting fetch saw the traffic, or none of it.
    if (engine === 'fetch') expect(fetched.length).toBeGreaterThan(before);
    else {
      expect(fetched.length).toBe(before);
      expect(nodeEngineLoads).toBe(1);
    }
    return client;
  }

  /** A scripted fixture, closed (its sockets destroyed) when the test finishes. */
  async function fixture(route: Route, fallback?: Route): Promise<HttpFixture> {
    const started = await startHttpFixture(route, fallback);
    onTestFinished(() => started.close());
    return started;
  }

  it('2026 stateless: a JSON answer, an SSE answer with progress, and the right engine underneath', async () => {
    const { server } = holdingServer('engines-kit');
    registerProgressAdd(server);
    const kit = await startKitHttp(server);
    const client = await connect({ url: kit.url });
    expect(client.era).toBe('modern');
    expect((await client.listTools()).map((t) => t.name).sort()).toEqual(['add', 'hold']);
    const progress: number[] = [];
    const sum = await client.callTool('add', { a: 2, b: 3 }, { onProgress: (p) => progress.push(p.progress) });
    expect(sum.content).toEqual([{ type: 'text', text: '5' }]);
    expect(progress).toEqual([1, 2]);
  });

  it('2026: aborting a call closes its stream and the server sees the abort', async () => {
    const { server, held, aborted } = holdingServer('engines-cancel');
    const kit = await startKitHttp(server);
    const client = await connect({ url: kit.url });
    const controller = new AbortController();
    const call = client.callTool('hold', {}, { signal: controller.signal });
    await held();
    controller.abort(new Error('the user gave up'));
    await expect(call).rejects.toMatchObject({ code: 'CANCELLED' });
    await aborted();
  });

  it('2026: subscriptions/listen carries a list change to the client', async () => {
    const server = changeFeedServer('engines-listen');
    const kit = await startKitHttp(server);
    const client = await connect({ url: kit.url });
    await until(() => kit.handler.openListens === 1, { what: "the client's listen stream" });
    let toolsChanged = 0;
    client.on('toolsChanged', () => toolsChanged++);
    server.registerTool({ name: 'late', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });
    await until(() => toolsChanged >= 1, { what: 'the toolsChanged event' });
    expect((await client.listTools()).map((t) => t.name)).toEqual(['echo', 'late']);
  });

  it('legacy session: session id on every request, the GET stream delivers, DELETE on close', async () => {
    const legacy = legacyServer({ get: 'sse' });
    const scripted = await fixture(() => false, legacy);
    const client = await connect({ url: scripted.url });
    expect(client.era).toBe('legacy');
    expect((await client.callTool('echo', { text: 'hi' })).content).toEqual([{ type: 'text', text: 'echo:hi' }]);
    await until(() => legacy.getStreams.length === 1, { what: 'the GET stream' });
    let toolsChanged = 0;
    client.on('toolsChanged', () => toolsChanged++);
    sse(legacy.getStreams[0]!, { jsonrpc: '2.0', method: 'notifications/tools/list_changed' }, { id: 'g1' });
    await until(() => toolsChanged === 1, { what: 'the list change on the GET stream' });
    for (const seen of scripted.seen('tools/call')) expect(seen.headers['mcp-session-id']).toBe('s1');
    await client.close();
    expect(scripted.seen('DELETE').map((seen) => seen.headers['mcp-session-id'])).toEqual(['s1']);
  });

  it('legacy session: a stream that broke mid-way is resumed with Last-Event-ID and its events replayed', async () => {
    let call: Seen | undefined;
    const token = (): unknown => (call!.json!.params as { _meta: { progressToken: unknown } })._meta.progressToken;
    const scripted = await fixture((seen, res) => {
      if (seen.rpc === 'tools/call') {
        call = seen;
        openSse(res);
        const progress = {
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: token(), progress: 1 },
        };
        writeThenDrop(res, sseText(progress, { id: 'p1', retry: 20 }));
        return true;
      }
      if (seen.method === 'GET' && seen.headers['last-event-id'] === 'p1') {
        openSse(res);
        sse(
          res,
          { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: token(), progress: 2 } },
          { id: 'p2' },
        );
        sse(res, result(call!, { content: [{ type: 'text', text: 'resumed' }] }), { id: 'p3' });
        res.end();
        return true;
      }
      return false;
    }, legacyServer());
    const client = await connect({ url: scripted.url });
    const progress: number[] = [];
    const answer = await client.callTool('long', {}, { onProgress: (p) => progress.push(p.progress) });
    expect(answer.content).toEqual([{ type: 'text', text: 'resumed' }]);
    expect(progress).toEqual([1, 2]);
    expect(scripted.seen('GET').some((seen) => seen.headers['last-event-id'] === 'p1')).toBe(true);
  });

  it('legacy HTTP+SSE (2024-11-05): the stream, POSTs answered on it, and a clean close', async () => {
    const scripted = await fixture(
      httpSseServer({
        tools: [{ name: 'echo', inputSchema: { type: 'object' } }],
        answers: {
          'tools/call': (seen, stream) =>
            sse(stream, result(seen, { content: [{ type: 'text', text: 'over sse' }] }), { event: 'message' }),
        },
      }),
    );
    const client = await connect({ url: scripted.url, transport: 'sse' });
    expect(client.protocolVersion).toBe('2024-11-05');
    expect((await client.listTools()).map((t) => t.name)).toEqual(['echo']);
    expect((await client.callTool('echo', {})).content).toEqual([{ type: 'text', text: 'over sse' }]);
    await client.close();
    expect(scripted.seen('tools/call')[0]!.path).toBe('/messages');
  });
});

describe('McpClient.connect({ url, fetch })', () => {
  it('sends every request of the connection through the given fetch', async () => {
    const kit = await startKitHttp(changeFeedServer('engines-counted'));
    const calls: string[] = [];
    const client = await McpClient.connect({
      url: kit.url,
      fetch: (input, init) => {
        calls.push(`${init?.method} ${new URL(input).pathname}`);
        return globalThis.fetch(input, init);
      },
    });
    onTestFinished(() => client.close());
    await client.callTool('echo', {});
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(new Set(calls)).toEqual(new Set(['POST /mcp']));
  });
});
