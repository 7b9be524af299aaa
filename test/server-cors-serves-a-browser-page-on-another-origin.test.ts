/**
 * CORS in Debian's Chromium: a page on one loopback origin calls a kit server on another port
 * with plain `fetch`, through `createFetchHandler` and through `createHttpHandler`, both with
 * `cors: { origins: [pageOrigin] }`. The page runs a legacy session (it reads `Mcp-Session-Id`
 * from the `initialize` answer, so the header must be exposed) and a 2026-07-28 call (its `Mcp-*`
 * headers need the preflight). A page on an origin not listed is refused with 403, preflight and
 * simple request alike, and the tool never runs (counted where it runs). The browser requests
 * nothing but loopback and the pages raise no error.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createFetchHandler, createHttpHandler } from '../src/server/index.js';
import { launchBrowser } from './support/browser.js';
import { mountedServer, type MountedServer } from './support/mounted-server.js';
import { serveFetch, serveNode } from './support/mounts.js';

/** What reached a kit server, as its edge answered it. */
interface Answered {
  method: string;
  origin: string | null;
  status: number;
}

/** A page server on its own loopback origin: one empty HTML page at `/`. */
async function pageOrigin(): Promise<{ origin: string; stop(): Promise<void> }> {
  const listener = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>page</title>');
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(listener.address() as AddressInfo).port}`,
    stop: async () => {
      listener.closeAllConnections();
      await new Promise<void>((resolve) => listener.close(() => resolve()));
    },
  };
}

/** A kit endpoint allowing `allowed` by CORS, with every answer it gave. */
interface CorsKit {
  url: string;
  served: MountedServer;
  answered: Answered[];
}

type Edge = 'createFetchHandler' | 'createHttpHandler';

async function corsKit(edge: Edge, allowed: string): Promise<CorsKit> {
  const served = mountedServer(`cors-${edge}`);
  const answered: Answered[] = [];
  const options = { path: '/mcp', cors: { origins: [allowed] } };
  onTestFinished(() => served.server.close());
  if (edge === 'createFetchHandler') {
    const handler = createFetchHandler(served.server, options);
    const { origin, stop } = await serveFetch(async (request) => {
      const response = await handler(request);
      answered.push({ method: request.method, origin: request.headers.get('origin'), status: response.status });
      return response;
    });
    onTestFinished(async () => {
      await handler.close({ graceMs: 1_000 });
      await stop();
    });
    return { url: `${origin}/mcp`, served, answered };
  }
  const handler = createHttpHandler(served.server, options);
  const { origin, stop } = await serveNode((req, res) => {
    res.once('finish', () =>
      answered.push({ method: req.method!, origin: req.headers.origin ?? null, status: res.statusCode }),
    );
    handler(req, res);
  });
  onTestFinished(async () => {
    await handler.close({ graceMs: 1_000 });
    await stop();
  });
  return { url: `${origin}/mcp`, served, answered };
}

/** In the page: a legacy session by hand, then a 2026-07-28 call; resolves with what the page read. */
function legacyThenModern(page: Page, url: string) {
  return page.evaluate(async (url) => {
    const accept = 'application/json, text/event-stream';
    const messages = async (response: Response): Promise<any[]> => {
      const text = await response.text();
      if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream'))
        return text ? [JSON.parse(text)] : [];
      return text
        .split('\n\n')
        .map((block) =>
          block
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trim())
            .join('\n'),
        )
        .filter((data) => data !== '')
        .map((data) => JSON.parse(data));
    };
    const init = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'page', version: '1' } },
      }),
    });
    const session = init.headers.get('mcp-session-id');
    const initResult = (await messages(init))[0];
    const legacy = { 'content-type': 'application/json', accept, 'mcp-protocol-version': '2025-11-25' };
    const sessionHeaders = session ? { ...legacy, 'mcp-session-id': session } : legacy;
    const initialized = await fetch(url, {
      method: 'POST',
      headers: sessionHeaders,
      body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
    });
    const call = await fetch(url, {
      method: 'POST',
      headers: sessionHeaders,
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'add', arguments: { a: 2, b: 3 } },
      }),
    });
    const legacySum = (await messages(call)).at(-1)?.result?.structuredContent;
    const modern = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept,
        'mcp-protocol-version': '2026-07-28',
        'mcp-method': 'tools/call',
        'mcp-name': 'add',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: {
          name: 'add',
          arguments: { a: 20, b: 22 },
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientCapabilities': {},
            progressToken: 'p',
          },
        },
      }),
    });
    const modernMessages = await messages(modern);
    return {
      session,
      serverName: initResult?.result?.serverInfo?.name,
      initializedStatus: initialized.status,
      legacySum,
      modernStatus: modern.status,
      modernProgress: modernMessages.filter((m) => m.method === 'notifications/progress').length,
      modernSum: modernMessages.at(-1)?.result?.structuredContent,
    };
  }, url);
}

/** In the page: a preflighted 2026 call and a simple (unpreflighted) POST; what each fetch did. */
function refusedCalls(page: Page, url: string) {
  return page.evaluate(async (url) => {
    const body = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'count',
        arguments: {},
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    });
    const outcome = async (call: Promise<Response>): Promise<string> => {
      try {
        const response = await call;
        return `status ${response.status}`;
      } catch (error) {
        return (error as Error).name;
      }
    };
    const preflighted = await outcome(
      fetch(url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'count',
        },
        body,
      }),
    );
    // text/plain and no custom header: the browser sends it without asking first (a CSRF's shape).
    const simple = await outcome(
      fetch(url, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body }),
    );
    return { preflighted, simple };
  }, url);
}

let browser: Browser | undefined;
let allowed: Awaited<ReturnType<typeof pageOrigin>>;
let refused: Awaited<ReturnType<typeof pageOrigin>>;
beforeAll(async () => {
  [allowed, refused] = await Promise.all([pageOrigin(), pageOrigin()]);
  browser = await launchBrowser();
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await allowed?.stop();
  await refused?.stop();
});

/** A fresh page at `origin`, failing the test on any page error or a request off loopback. */
async function openPage(origin: string): Promise<Page> {
  const context = await browser!.newContext();
  onTestFinished(() => context.close());
  const errors: string[] = [];
  const offLoopback: string[] = [];
  context.on('request', (request) => {
    if (new URL(request.url()).hostname !== '127.0.0.1') offLoopback.push(request.url());
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(error.message));
  onTestFinished(() => {
    expect(errors).toEqual([]);
    expect(offLoopback).toEqual([]);
  });
  await page.goto(`${origin}/`);
  return page;
}

describe.each<Edge>(['createFetchHandler', 'createHttpHandler'])('a browser page calling %s', (edge) => {
  it('on the allowed origin runs a legacy session (reading Mcp-Session-Id) and a 2026 call', async () => {
    const kit = await corsKit(edge, allowed.origin);
    const page = await openPage(allowed.origin);
    const seen = await legacyThenModern(page, kit.url);
    expect(seen).toEqual({
      session: expect.stringMatching(/\S/),
      serverName: `cors-${edge}`,
      initializedStatus: 202,
      legacySum: { sum: 5 },
      modernStatus: 200,
      modernProgress: 2,
      modernSum: { sum: 42 },
    });
    expect(kit.served.calls).toBe(2);
    {
      // The 2026 call's Mcp-* headers were asked for first, and the preflight was answered.
      expect(kit.answered.filter((a) => a.method === 'OPTIONS').map((a) => a.status)).toContain(204);
      expect(kit.answered.every((a) => a.origin === allowed.origin)).toBe(true);
    }
  });

  it('on an origin not listed is refused with 403 and the tool never runs', async () => {
    const kit = await corsKit(edge, allowed.origin);
    const page = await openPage(refused.origin);
    const outcome = await refusedCalls(page, kit.url);
    // The page learns nothing: the preflight failed (TypeError), the opaque answer has status 0.
    expect(outcome).toEqual({ preflighted: 'TypeError', simple: 'status 0' });
    expect(kit.served.calls).toBe(0);
    {
      expect(kit.answered.length).toBeGreaterThan(0);
      expect(kit.answered.map((a) => [a.origin, a.status])).toEqual(kit.answered.map(() => [refused.origin, 403]));
    }
  });
});
