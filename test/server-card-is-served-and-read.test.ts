/**
 * MCP Server Cards (SEP-2127, draft) end to end over loopback: the kit serves its card at
 * `<path>/server-card` and the catalog at `/.well-known/mcp/catalog.json` with the public CORS and
 * caching headers (checked on the raw wire with node:http: GET, HEAD, a cross-origin preflight),
 * before its path check and auth, on both edges; `fetchServerCard` / `fetchMcpCatalog` read them
 * and list a bad card's problems instead of trusting it, and fail clearly (naming the URL) on an
 * HTTP error, a body that is not JSON, one too big, and no answer in time. A server without a
 * reverse-DNS name serves no card (one warning in its log); a card that names another server than
 * `serverInfo` is logged and reported by `compareServerCard`. A Chromium page on another origin
 * reads the card (preflighted) and the catalog.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { compareServerCard, fetchMcpCatalog, fetchServerCard } from '../src/client/server-card.js';
import { McpError } from '../src/protocol/errors.js';
import { LEGACY_REVISIONS, MODERN_REVISIONS } from '../src/protocol/revisions.js';
import { createFetchHandler, McpServer, type McpServerOptions, type ServerLogRecord } from '../src/server/index.js';
import { launchBrowser, watchedPage } from './support/browser.js';
import { connectClient } from './support/client.js';
import { startKitHttp } from './support/kit-http.js';
import { serveFetch } from './support/mounts.js';

const SCHEMA = 'https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json';
const PUBLIC_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET',
  'access-control-allow-headers': 'Content-Type',
  'cache-control': 'public, max-age=3600',
};

/** A kit server and the records it logs. */
function kitServer(options: Partial<McpServerOptions> = {}): { server: McpServer; logged: ServerLogRecord[] } {
  const logged: ServerLogRecord[] = [];
  const server = new McpServer({
    name: 'com.example/weather',
    version: '1.2.0',
    title: 'Weather',
    description: 'Forecasts for anywhere',
    websiteUrl: 'https://example.com/weather',
    icons: [{ src: 'https://example.com/weather.png', mimeType: 'image/png', sizes: ['48x48'] }],
    logger: (record) => logged.push(record),
    ...options,
  });
  server.registerTool({ name: 'forecast', inputSchema: { type: 'object' }, handler: () => ({ content: [] }) });
  return { server, logged };
}

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** One request on the raw wire (no fetch in between), bounded. */
function raw(url: string, method: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, timeout: 10_000 }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${url}: no answer within 10 s`)));
    req.on('error', reject);
    req.end();
  });
}

/** A plain node:http server of the test's own on 127.0.0.1 (a third-party server's card). */
async function plainServer(handle: http.RequestListener): Promise<string> {
  const listener = http.createServer(handle);
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  onTestFinished(async () => {
    listener.closeAllConnections();
    await new Promise<void>((resolve) => listener.close(() => resolve()));
  });
  return `http://127.0.0.1:${(listener.address() as AddressInfo).port}/mcp`;
}

describe('the kit serves its server card', () => {
  it('fetchServerCard reads the card built from serverInfo, valid, with the endpoint as its remote', async () => {
    const { server, logged } = kitServer();
    const kit = await startKitHttp(server);
    const read = await fetchServerCard(kit.url);
    expect(read.url).toBe(`${kit.url}/server-card`);
    expect(read.problems).toEqual([]);
    expect(read.card).toEqual({
      $schema: SCHEMA,
      name: 'com.example/weather',
      version: '1.2.0',
      description: 'Forecasts for anywhere',
      title: 'Weather',
      websiteUrl: 'https://example.com/weather',
      icons: [{ src: 'https://example.com/weather.png', mimeType: 'image/png', sizes: ['48x48'] }],
      remotes: [
        {
          type: 'streamable-http',
          url: kit.url,
          supportedProtocolVersions: [...MODERN_REVISIONS, ...LEGACY_REVISIONS],
        },
      ],
    });
    // The live connection agrees with it.
    const client = await connectClient({ url: kit.url });
    expect(compareServerCard(read.card, client.serverInfo!, client.protocolVersion)).toEqual([]);
    expect(logged.filter((r) => r.level === 'warning')).toEqual([]);
  });

  it('answers GET and HEAD with the card media type and every public header, and a cross-origin preflight', async () => {
    const { server } = kitServer();
    const kit = await startKitHttp(server);
    const card = `${kit.url}/server-card`;
    const get = await raw(card, 'GET', { accept: 'application/mcp-server-card+json' });
    expect(get.status).toBe(200);
    expect(get.headers).toMatchObject({
      ...PUBLIC_HEADERS,
      'content-type': 'application/mcp-server-card+json',
      'content-length': String(Buffer.byteLength(get.body)),
    });
    expect((JSON.parse(get.body) as { name: string }).name).toBe('com.example/weather');

    const head = await raw(card, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers).toMatchObject({
      ...PUBLIC_HEADERS,
      'content-type': 'application/mcp-server-card+json',
      'content-length': get.headers['content-length'],
    });

    const preflight = await raw(card, 'OPTIONS', {
      origin: 'https://elsewhere.example',
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'content-type',
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers).toMatchObject(PUBLIC_HEADERS);
    // A page on another origin reads it (its Origin is not the MCP endpoint's concern here).
    const crossOrigin = await raw(card, 'GET', { origin: 'https://elsewhere.example' });
    expect(crossOrigin.status).toBe(200);
    expect(crossOrigin.headers['access-control-allow-origin']).toBe('*');

    const post = await raw(card, 'POST');
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it('serves the catalog, whose entry leads to the card', async () => {
    const { server } = kitServer();
    const kit = await startKitHttp(server);
    const origin = new URL(kit.url).origin;
    const wire = await raw(`${origin}/.well-known/mcp/catalog.json`, 'GET');
    expect(wire.status).toBe(200);
    expect(wire.headers).toMatchObject({ ...PUBLIC_HEADERS, 'content-type': 'application/json' });
    const head = await raw(`${origin}/.well-known/mcp/catalog.json`, 'HEAD');
    expect(head).toMatchObject({ status: 200, body: '' });
    expect(head.headers['content-length']).toBe(wire.headers['content-length']);

    const read = await fetchMcpCatalog(`${origin}/some/page`);
    expect(read.url).toBe(`${origin}/.well-known/mcp/catalog.json`);
    expect(read.problems).toEqual([]);
    expect(read.catalog).toEqual({
      specVersion: 'draft',
      entries: [
        {
          identifier: 'urn:air:example.com:weather',
          displayName: 'Weather',
          type: 'application/mcp-server-card+json',
          url: `${kit.url}/server-card`,
        },
      ],
    });
    const card = await fetchServerCard(read.catalog.entries[0]!.url);
    expect(card).toMatchObject({ url: `${kit.url}/server-card`, problems: [] });
  });

  it('serves the card before auth and outside the path, and on the fetch edge too', async () => {
    const { server } = kitServer();
    const kit = await startKitHttp(server, {
      auth: {
        resource: 'http://127.0.0.1/mcp',
        authorizationServers: ['https://auth.example.com'],
        verifyToken: () => {
          throw new Error('no token is valid here');
        },
      },
      serverCard: {
        publicUrl: 'https://mcp.example.com/mcp',
        repository: { url: 'https://github.com/example/weather', source: 'github' },
      },
    });
    expect((await raw(kit.url, 'POST')).status).toBe(401);
    const read = await fetchServerCard(kit.url);
    expect(read.problems).toEqual([]);
    expect(read.card.remotes![0]!.url).toBe('https://mcp.example.com/mcp');
    expect(read.card.repository).toEqual({ url: 'https://github.com/example/weather', source: 'github' });
    const catalog = await fetchMcpCatalog(kit.url);
    expect(catalog.catalog.entries[0]!.url).toBe('https://mcp.example.com/mcp/server-card');

    const fetchHandler = createFetchHandler(server, { path: '/mcp' });
    onTestFinished(() => fetchHandler.close());
    const answer = await fetchHandler(new Request('http://localhost:8787/mcp/server-card'));
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/mcp-server-card+json');
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    const card = (await answer.json()) as { remotes: { url: string }[] };
    expect(card.remotes[0]!.url).toBe('http://localhost:8787/mcp');
    // A Host the server does not answer to is not echoed into a cacheable document.
    const rebound = await fetchHandler(new Request('http://evil.example/mcp/server-card'));
    expect(rebound.status).toBe(403);
  });

  it('serves no card for a server without a reverse-DNS name, with one warning in its log', async () => {
    const { server, logged } = kitServer({ name: 'weather' });
    const kit = await startKitHttp(server);
    const wire = await raw(`${kit.url}/server-card`, 'GET');
    expect(wire.status).toBe(404);
    expect((await raw(`${new URL(kit.url).origin}/.well-known/mcp/catalog.json`, 'GET')).status).toBe(404);
    const failure = await fetchServerCard(kit.url).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(McpError);
    expect(failure).toMatchObject({ code: 'TRANSPORT', status: 404 });
    expect((failure as Error).message).toBe(`server card at ${kit.url}/server-card: HTTP 404`);
    const warnings = logged.filter((r) => r.level === 'warning');
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toContain('no server card served');
    expect(warnings[0]!.problems).toEqual([expect.stringContaining('"name" "weather" is not reverse-DNS')]);
    // A server that never described itself hears nothing of cards.
    const plain = kitServer({ name: 'weather', description: undefined });
    await startKitHttp(plain.server);
    expect(plain.logged).toEqual([]);
    // Off: no route and no warning.
    const quiet = kitServer({ name: 'weather' });
    await startKitHttp(quiet.server, { serverCard: false });
    expect(quiet.logged).toEqual([]);
    // Asked for explicitly, an invalid card is refused when the handler is made.
    expect(() => createFetchHandler(quiet.server, { serverCard: { description: '' } })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('"description"') }),
    );
    expect(() => createFetchHandler(quiet.server, { serverCard: { nme: 'x' } as never })).toThrow(
      'unknown HTTP handler option "serverCard.nme"',
    );
  });

  it('a card that names another server is logged by the kit and reported by compareServerCard', async () => {
    const { server, logged } = kitServer({ name: 'weather' });
    const kit = await startKitHttp(server, { serverCard: { name: 'com.example/forecasts' } });
    expect(logged.filter((r) => r.level === 'warning')).toEqual([
      expect.objectContaining({ card: 'com.example/forecasts', serverInfo: 'weather' }),
    ]);
    const read = await fetchServerCard(kit.url);
    expect(read.problems).toEqual([]);
    const client = await connectClient({ url: kit.url });
    expect(compareServerCard(read.card, client.serverInfo!, client.protocolVersion)).toEqual([
      'name: the card says "com.example/forecasts", the server "weather"',
    ]);
  });
});

describe('a browser page on another origin', () => {
  it('reads the card and the catalog, a preflighted request included', async () => {
    const { server } = kitServer();
    const kit = await startKitHttp(server);
    const site = await serveFetch(
      () =>
        new Response('<!doctype html><title>page</title>', {
          headers: { 'content-type': 'text/html' },
        }),
    );
    onTestFinished(() => site.stop());
    const browser = await launchBrowser();
    onTestFinished(() => browser.close());
    const page = await watchedPage(browser, { consoleErrors: true });
    await page.goto(`${site.origin}/`);
    const read = await page.evaluate(
      async ({ card, catalog }) => {
        // `Content-Type` on a GET is not safelisted: the browser preflights this one first.
        const preflighted = await fetch(card, {
          headers: { accept: 'application/mcp-server-card+json', 'content-type': 'application/json' },
        });
        const simple = await fetch(catalog);
        return {
          status: preflighted.status,
          type: preflighted.headers.get('content-type'),
          cache: preflighted.headers.get('cache-control'),
          name: ((await preflighted.json()) as { name: string }).name,
          catalog: ((await simple.json()) as { entries: { identifier: string }[] }).entries[0]!.identifier,
        };
      },
      { card: `${kit.url}/server-card`, catalog: `${new URL(kit.url).origin}/.well-known/mcp/catalog.json` },
    );
    expect(read).toEqual({
      status: 200,
      type: 'application/mcp-server-card+json',
      cache: 'public, max-age=3600',
      name: 'com.example/weather',
      catalog: 'urn:air:example.com:weather',
    });
  });
});

describe('reading a card of a server of any make', () => {
  it('lists the problems of a card that breaks the shape, and resolves', async () => {
    const url = await plainServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/mcp-server-card+json' });
      res.end(
        JSON.stringify({
          $schema: 'https://example.com/other.json',
          name: 'no slash',
          version: '^1.2.0',
          remotes: [{ type: 'websocket', url: 'ws://x' }],
        }),
      );
    });
    const read = await fetchServerCard(url);
    expect(read.problems).toEqual([
      '"$schema" is "https://example.com/other.json", not https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json',
      '"name" "no slash" is not reverse-DNS with one slash (com.example/weather)',
      '"version" "^1.2.0" is a range',
      '"description" is missing',
      'remotes[0].type is "websocket", not "streamable-http" or "sse"',
      'remotes[0].url is not an http(s) URL or a {variable} template',
    ]);
  });

  it('fails clearly, naming the URL, on a body that is not JSON, one too big, an event stream, and no answer in time', async () => {
    let held: http.ServerResponse | undefined;
    const url = await plainServer((req, res) => {
      if (req.url === '/junk/server-card') return res.end('<html>hello</html>');
      if (req.url === '/big/server-card') return res.end(JSON.stringify({ pad: 'x'.repeat(2_000) }));
      if (req.url === '/stream/server-card') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        return res.write(': open\n\n');
      }
      held = res; // never answered
      return undefined;
    });
    const base = new URL(url).origin;
    await expect(fetchServerCard(`${base}/junk`)).rejects.toMatchObject({
      code: 'TRANSPORT',
      message: `server card at ${base}/junk/server-card: the body is not JSON`,
    });
    await expect(fetchServerCard(`${base}/big`, { maxBytes: 1_000 })).rejects.toMatchObject({
      code: 'TRANSPORT',
      message: `server card at ${base}/big/server-card: larger than 1000 bytes (maxBytes)`,
    });
    await expect(fetchServerCard(`${base}/stream`)).rejects.toMatchObject({
      code: 'TRANSPORT',
      message: expect.stringContaining(`server card at ${base}/stream/server-card: the answer is an event stream`),
    });
    await expect(fetchServerCard(`${base}/slow`, { timeoutMs: 200 })).rejects.toMatchObject({
      code: 'TIMEOUT',
      message: `server card at ${base}/slow/server-card: no answer within 200 ms`,
    });
    held?.end();
    const controller = new AbortController();
    const reason = new Error('the user gave up');
    const aborted = fetchServerCard(`${base}/slow`, { signal: controller.signal });
    controller.abort(reason);
    await expect(aborted).rejects.toBe(reason);
    held?.end();
  });
});

describe('serverInfo carries the 2025-11-25 fields', () => {
  it('in a 2025-11-25 session, and not in an older one', async () => {
    const { server } = kitServer();
    const kit = await startKitHttp(server);
    const initialize = async (protocolVersion: string) => {
      const answer = await fetch(kit.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion, capabilities: {}, clientInfo: { name: 't', version: '1' } },
        }),
      });
      const text = await answer.text();
      const json = text.startsWith('{')
        ? text
        : text
            .split('\n')
            .find((l) => l.startsWith('data: '))!
            .slice(6);
      return (JSON.parse(json) as { result: { serverInfo: Record<string, unknown> } }).result.serverInfo;
    };
    expect(await initialize('2025-11-25')).toMatchObject({
      name: 'com.example/weather',
      description: 'Forecasts for anywhere',
      websiteUrl: 'https://example.com/weather',
      icons: [{ src: 'https://example.com/weather.png', mimeType: 'image/png', sizes: ['48x48'] }],
    });
    expect(await initialize('2025-06-18')).toEqual({ name: 'com.example/weather', version: '1.2.0', title: 'Weather' });
  });
});
