/**
 * mcpwire's client in Debian's Chromium: a page served from one loopback origin loads the browser
 * bundle of test/runtimes/client-page.mjs (esbuild, platform browser: `mcpwire` through the
 * package's exports) and drives the client against a kit server on another loopback port
 * (`createFetchHandler` with `cors: { origins: [page] }`). In both eras it connects, lists, calls
 * with progress, cancels (the tool sees the abort) and hears `tools/list_changed` (legacy: on the
 * session's GET stream; 2026-07-28: on its `subscriptions/listen` stream); on a legacy session a
 * call whose response stream the server closes early is resumed with Last-Event-ID. No page
 * error, and no request to anything but 127.0.0.1.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHandler } from '../src/server/index.js';
import { launchBrowser, watchedPage } from './support/browser.js';
import { mountedServer, type MountedServer } from './support/mounted-server.js';
import { serveFetch, serveNode, type Listening } from './support/mounts.js';
import { bundle } from './support/runtimes.js';
import { until } from './support/wait.js';

type Era = 'legacy' | 'modern';

/** The page's steps (test/runtimes/client-page.mjs). */
interface McpPage {
  open(url: string, era: Era, listen: boolean): Promise<{ era: Era; protocolVersion: string }>;
  tools(): Promise<string[]>;
  add(a: number, b: number): Promise<{ structuredContent: unknown; progress: number[] }>;
  cancelHold(): Promise<string>;
  armToolsChanged(): void;
  toolsChanged(): Promise<true>;
  register(name: string): Promise<void>;
  startPoll(): void;
  finishPoll(): Promise<{ content: unknown; progress: number[] }>;
  close(): Promise<void>;
}

/** The kit: the mounted server's tools, `register`, and `poll_me`, which closes its stream early. */
interface PageKit {
  served: MountedServer;
  /** Set once the kit listens. */
  url: string;
  handler: ReturnType<typeof createFetchHandler>;
  /** True while a `poll_me` call waits, its stream closed. */
  readonly polling: boolean;
  /** Lets the waiting `poll_me` call go on. */
  release(): void;
}

let browser: Browser | undefined;
let pageSite: Listening | undefined;
let kitSite: Listening | undefined;
let kit: PageKit;
/** The kit's requests that carried Last-Event-ID (resumptions). */
const resumes: Array<{ method: string; lastEventId: string }> = [];
/** The page's script, bundled by the first check (a bundle that fails fails the checks, not the file). */
let script: Promise<string> | undefined;

function pageKit(pageOrigin: string): PageKit {
  const served = mountedServer('kit-for-a-page');
  let polling = false;
  let release!: () => void;
  let released = new Promise<void>((resolve) => (release = resolve));
  served.server.registerTool({
    name: 'register',
    inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    handler: ({ name }) => {
      served.server.registerTool({
        name: String(name),
        inputSchema: { type: 'object' },
        handler: () => ({ content: [] }),
      });
      return { content: [] };
    },
  });
  served.server.registerTool({
    name: 'poll_me',
    inputSchema: { type: 'object' },
    handler: async (_args, context) => {
      context.progress(1);
      context.closeStream();
      polling = true;
      await released;
      polling = false;
      released = new Promise<void>((resolve) => (release = resolve));
      context.progress(2);
      return { content: [{ type: 'text', text: 'resumed result' }] };
    },
  });
  const handler = createFetchHandler(served.server, { path: '/mcp', cors: { origins: [pageOrigin] } });
  return {
    served,
    url: '',
    handler,
    get polling() {
      return polling;
    },
    release: () => release(),
  };
}

beforeAll(async () => {
  pageSite = await serveNode((req, res) => {
    if (req.url === '/client.js')
      void (script ?? Promise.reject(new Error('not bundled'))).then(
        (text) => res.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' }).end(text),
        () => res.writeHead(500).end(),
      );
    else
      res
        .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
        .end('<!doctype html><title>client page</title><script type="module" src="/client.js"></script>');
  });
  kit = pageKit(pageSite.origin);
  kitSite = await serveFetch((request) => {
    const lastEventId = request.headers.get('last-event-id');
    if (lastEventId !== null) resumes.push({ method: request.method, lastEventId });
    return kit.handler(request);
  });
  kit.url = `${kitSite.origin}/mcp`;
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  kit?.release();
  await browser?.close();
  await kit?.handler.close({ graceMs: 1_000 });
  await kit?.served.server.close();
  await kitSite?.stop();
  await pageSite?.stop();
});

/** A fresh page with the client loaded, failing the test on any page error or a request off loopback. */
async function openPage(): Promise<Page> {
  await (script ??= bundle('client-page.mjs', 'browser'));
  const page = await watchedPage(browser!, {
    beforeCheck: (page) =>
      page.evaluate(() => (globalThis as unknown as { mcpPage: McpPage }).mcpPage.close()).catch(() => undefined),
  });
  await page.goto(`${pageSite!.origin}/`);
  await page.waitForFunction(() => 'mcpPage' in globalThis, undefined, { timeout: 10_000 });
  return page;
}

/** Runs one step of the page's client. */
function step<K extends keyof McpPage>(page: Page, name: K, ...args: Parameters<McpPage[K]>): Promise<unknown> {
  return page.evaluate<unknown, readonly [K, Parameters<McpPage[K]>]>(
    ([name, args]) =>
      (globalThis as unknown as { mcpPage: Record<string, (...a: unknown[]) => unknown> }).mcpPage[name]!(...args),
    [name, args] as const,
  );
}

describe.each<[Era, string]>([
  ['modern', '2026-07-28'],
  ['legacy', '2025-11-25'],
])('a page on another loopback origin, era %s', (era, protocolVersion) => {
  it('connects, lists, calls with progress and cancels (the tool sees the abort)', async () => {
    const page = await openPage();
    expect(await step(page, 'open', kit.url, era, false)).toEqual({ era, protocolVersion });
    expect(await step(page, 'tools')).toEqual(expect.arrayContaining(['add', 'hold', 'count', 'register']));
    expect(await step(page, 'add', 2, 3)).toEqual({ structuredContent: { sum: 5 }, progress: [1, 2] });
    const before = kit.served.aborts;
    expect(await step(page, 'cancelHold')).toBe('CANCELLED');
    await until(() => kit.served.aborts > before, { what: 'the hold tool to see the abort' });
  });

  it('hears tools/list_changed', async () => {
    const page = await openPage();
    const opened = { streams: kit.handler.openStreams, listens: kit.handler.openListens };
    await step(page, 'open', kit.url, era, true);
    // The change must come once the client's stream (legacy: GET; 2026: listen) is open.
    await until(
      () => (era === 'legacy' ? kit.handler.openStreams > opened.streams : kit.handler.openListens > opened.listens),
      { what: "the page client's change stream to open" },
    );
    await step(page, 'armToolsChanged');
    const name = `late_${era}_${Math.random().toString(36).slice(2)}`;
    await step(page, 'register', name);
    expect(await step(page, 'toolsChanged')).toBe(true);
    expect(await step(page, 'tools')).toContain(name);
  });
});

describe('a page on a legacy session', () => {
  it('resumes a call whose response stream the server closed, with Last-Event-ID', async () => {
    const page = await openPage();
    await step(page, 'open', kit.url, 'legacy', false);
    const before = resumes.length;
    await step(page, 'startPoll');
    await until(() => kit.polling, { what: 'poll_me to wait with its stream closed' });
    kit.release();
    expect(await step(page, 'finishPoll')).toEqual({
      content: [{ type: 'text', text: 'resumed result' }],
      progress: [1, 2],
    });
    // The rest came on a GET from the page that named the last event it had seen.
    expect(resumes.slice(before)).toEqual([{ method: 'GET', lastEventId: expect.stringMatching(/\S/) }]);
  });
});
