/**
 * CORS in Debian's Chromium: a page on one loopback origin calls a kit server on another port
 * with plain `fetch`, through `createFetchHandler` and through `createHttpHandler`, both with
 * `cors: { origins: [pageOrigin] }`. The page runs a legacy session (it reads `Mcp-Session-Id`
 * from the `initialize` answer, so the header must be exposed) and a 2026-07-28 call (its `Mcp-*`
 * headers need the preflight). A page on an origin not listed is refused with 403, preflight and
 * simple request alike, and the tool never runs (counted where it runs). The browser requests
 * nothing but loopback and the pages raise no error.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { createFetchHandler, createHttpHandler } from '../src/server/index.js';
import { launchBrowser, watchedPage } from './support/browser.js';
import { mountedServer, type MountedServer } from './support/mounted-server.js';
import { answerMessages, initializeMessage, legacyInit, modernInit, type WireInit } from './support/fetch-wire.js';
import { serveFetch, serveNode, type Listening } from './support/mounts.js';

/** What reached a kit server, as its edge answered it. */
interface Answered {
  method: string;
  origin: string | null;
  status: number;
}

/** A page server on its own loopback origin: one empty HTML page. */
function pageOrigin(): Promise<Listening> {
  return serveNode((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>page</title>');
  });
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

/** What the page's `fetch` gave: the answer as the page could read it, or the error's name. */
type PageAnswer =
  { status: number; contentType: string | null; session: string | null; text: string } | { error: string };

/** One plain `fetch(url, init)` from inside the page (its origin, its CORS rules). */
function pageFetch(page: Page, url: string, init: WireInit & { mode?: 'cors' | 'no-cors' }): Promise<PageAnswer> {
  return page.evaluate(
    async ([url, init]) => {
      try {
        const response = await fetch(url, init);
        return {
          status: response.status,
          contentType: response.headers.get('content-type'),
          session: response.headers.get('mcp-session-id'),
          text: await response.text(),
        };
      } catch (error) {
        return { error: (error as Error).name };
      }
    },
    [url, init] as const,
  );
}

/** The last message of an answer the page could read (its result). */
function lastMessage(answer: PageAnswer): any {
  if ('error' in answer) throw new Error(`the page's fetch failed: ${answer.error}`);
  return answerMessages(answer.contentType, answer.text).at(-1);
}

const COUNT = modernInit('tools/call', { name: 'count', arguments: {} });

let browser: Browser | undefined;
let allowed: Listening;
let refused: Listening;
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
  const page = await watchedPage(browser!);
  await page.goto(`${origin}/`);
  return page;
}

describe.each<Edge>(['createFetchHandler', 'createHttpHandler'])('a browser page calling %s', (edge) => {
  it('on the allowed origin runs a legacy session (reading Mcp-Session-Id) and a 2026 call', async () => {
    const kit = await corsKit(edge, allowed.origin);
    const page = await openPage(allowed.origin);
    const init = await pageFetch(page, kit.url, legacyInit(initializeMessage('page')));
    expect(lastMessage(init).result.serverInfo.name).toBe(`cors-${edge}`);
    const session = 'session' in init ? init.session : null;
    expect(session).toMatch(/\S/);
    const initialized = await pageFetch(page, kit.url, legacyInit({ method: 'notifications/initialized' }, session!));
    expect(initialized).toMatchObject({ status: 202 });
    const add = { id: 2, method: 'tools/call', params: { name: 'add', arguments: { a: 2, b: 3 } } };
    const legacyCall = await pageFetch(page, kit.url, legacyInit(add, session!));
    expect(lastMessage(legacyCall).result.structuredContent).toEqual({ sum: 5 });

    const modern = await pageFetch(
      page,
      kit.url,
      modernInit('tools/call', { name: 'add', arguments: { a: 20, b: 22 } }, { meta: { progressToken: 'p' } }),
    );
    expect(modern).toMatchObject({ status: 200 });
    const messages = 'text' in modern ? answerMessages(modern.contentType, modern.text) : [];
    expect(messages.filter((m) => m.method === 'notifications/progress')).toHaveLength(2);
    expect(messages.at(-1).result.structuredContent).toEqual({ sum: 42 });
    expect(kit.served.calls).toBe(2);
    // The 2026 call's Mcp-* headers were asked for first, and the preflight was answered.
    expect(kit.answered.filter((a) => a.method === 'OPTIONS').map((a) => a.status)).toContain(204);
    expect(kit.answered.every((a) => a.origin === allowed.origin)).toBe(true);
  });

  it('on an origin not listed is refused with 403 and the tool never runs', async () => {
    const kit = await corsKit(edge, allowed.origin);
    const page = await openPage(refused.origin);
    // The page learns nothing: the preflight fails (TypeError)...
    expect(await pageFetch(page, kit.url, COUNT)).toEqual({ error: 'TypeError' });
    // ...and a text/plain POST without Mcp-* headers, which the browser sends without asking first
    // (a cross-site request forgery's shape), is opaque to it (status 0).
    const simple = {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: COUNT.body,
      mode: 'no-cors' as const,
    };
    expect(await pageFetch(page, kit.url, simple)).toMatchObject({ status: 0 });
    expect(kit.served.calls).toBe(0);
    expect(kit.answered.map((a) => a.method)).toEqual(['OPTIONS', 'POST']);
    expect(kit.answered.map((a) => [a.origin, a.status])).toEqual([
      [refused.origin, 403],
      [refused.origin, 403],
    ]);
  });
});
