/**
 * mcpwire's MCP Apps host in Debian's Chromium, with a view built from ext-apps (`App` over
 * `PostMessageTransport`, bundled into one inline script) served twice, with the same tools: by
 * an official SDK 2.4 server through ext-apps' own `registerAppTool`/`registerAppResource`
 * (at /mcp), and by mcpwire's kit through its `registerAppTool`/`registerAppResource` on
 * `createFetchHandler` (at /kit). Three loopback origins: the host page (with both servers), the
 * sandbox proxy (`sandboxProxyHtml()` with
 * `sandboxProxyHeaders()`), and a third server the view was never allowed to reach. The view is
 * initialized before the host sends it anything; it hears the tool input, then the result; its
 * call of an app-only tool works and its call of a model-only tool is refused; its fetch of the
 * undeclared origin is blocked by the policy (that server counts no request) while the declared
 * one answers; its open-link, message, model-context, display-mode, size and log reach the hooks;
 * the teardown is answered; the audit saw every message the view sent. Each server in both eras.
 * The host page's client declares the ui extension; without it, the kit hides the app-only tool
 * from it (so the view cannot call it), while the SDK server shows it to any client.
 */
import { RESOURCE_MIME_TYPE, registerAppResource, registerAppTool } from '@modelcontextprotocol/ext-apps/server';
import { McpServer, createMcpHandler } from '@modelcontextprotocol/server';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { buildAppCsp, DEFAULT_APP_CSP, sandboxProxyHeaders, sandboxProxyHtml } from '../src/apps/index.js';
import { createFetchHandler, McpServer as KitServer } from '../src/server/index.js';
import { appViewHtml } from './support/apps-view.js';
import { launchBrowser, watchedPage } from './support/browser.js';
import { serveFetch, serveNode, type Listening } from './support/mounts.js';
import { bundle } from './support/runtimes.js';
import { RUNTIME_APPS } from './support/runtimes.js';
import { eventually, until } from './support/wait.js';

const VIEW_URI = 'ui://weather/view';

let browser: Browser | undefined;
let hostSite: Listening | undefined;
let sandboxSite: Listening | undefined;
let thirdSite: Listening | undefined;
let mcp: ReturnType<typeof createMcpHandler> | undefined;
let kit: KitServer | undefined;
let kitHandler: ReturnType<typeof createFetchHandler> | undefined;
/** Requests the third origin got (the policy must keep it at 0). */
let thirdRequests = 0;
let hostScript: Promise<string> | undefined;
/** Lets the waiting `slow_weather` calls end (they wait for the test, not for time). */
let releaseSlow!: () => void;
const slowReleased = new Promise<void>((resolve) => (releaseSlow = resolve));
let viewHtml: string;

/** The SDK server: a tool with a view, an app-only tool, a model-only tool. */
function sdkServer(hostOrigin: string): McpServer {
  const server = new McpServer(
    { name: 'sdk-weather', version: '2.4.0' },
    { capabilities: { resources: {}, tools: {} } },
  );
  registerAppTool(
    server,
    'show_weather',
    {
      description: 'The weather of a city, with a view',
      inputSchema: { city: z.string() },
      _meta: { ui: { resourceUri: VIEW_URI } },
    },
    ({ city }) => ({
      content: [{ type: 'text', text: `sunny in ${city}` }],
      structuredContent: { city, sky: 'sunny' },
    }),
  );
  registerAppTool(
    server,
    'slow_weather',
    { description: 'Waits for the test', inputSchema: { city: z.string() }, _meta: { ui: { resourceUri: VIEW_URI } } },
    async () => {
      await slowReleased;
      return { content: [{ type: 'text' as const, text: 'late' }] };
    },
  );
  registerAppTool(
    server,
    'refresh',
    { description: 'App-only refresh', _meta: { ui: { resourceUri: VIEW_URI, visibility: ['app'] } } },
    () => ({ content: [{ type: 'text', text: 'refreshed' }] }),
  );
  server.registerTool(
    'model_only',
    { description: 'Only for the model', _meta: { ui: { visibility: ['model'] } } },
    () => ({
      content: [{ type: 'text', text: 'should never run for an app' }],
    }),
  );
  registerAppResource(server, 'Weather view', VIEW_URI, { description: 'The weather view' }, () => ({
    contents: [
      {
        uri: VIEW_URI,
        mimeType: RESOURCE_MIME_TYPE,
        text: viewHtml,
        _meta: { ui: { csp: { connectDomains: [hostOrigin, "evil.example 'unsafe-eval'"] }, prefersBorder: false } },
      },
    ],
  }));
  return server;
}

/** The same tools and view on mcpwire's kit (the view's policy is declared as on the SDK server). */
function kitServer(hostOrigin: string): KitServer {
  const server = new KitServer({ name: 'kit-weather', version: '1.0.0', logger: () => undefined });
  const city = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } as const;
  server.registerAppTool({
    name: 'show_weather',
    description: 'The weather of a city, with a view',
    inputSchema: city,
    ui: { resourceUri: VIEW_URI },
    handler: ({ city }) => ({
      content: [{ type: 'text', text: `sunny in ${city}` }],
      structuredContent: { city, sky: 'sunny' },
    }),
  });
  server.registerAppTool({
    name: 'slow_weather',
    description: 'Waits for the test',
    inputSchema: city,
    ui: { resourceUri: VIEW_URI },
    handler: async () => {
      await slowReleased;
      return { content: [{ type: 'text', text: 'late' }] };
    },
  });
  server.registerAppTool({
    name: 'refresh',
    description: 'App-only refresh',
    inputSchema: { type: 'object' },
    ui: { resourceUri: VIEW_URI, visibility: ['app'] },
    handler: () => ({ content: [{ type: 'text', text: 'refreshed' }] }),
  });
  server.registerTool({
    name: 'model_only',
    description: 'Only for the model',
    inputSchema: { type: 'object' },
    _meta: { ui: { visibility: ['model'] } },
    handler: () => ({ content: [{ type: 'text', text: 'should never run for an app' }] }),
  });
  server.registerAppResource({
    uri: VIEW_URI,
    name: 'Weather view',
    description: 'The weather view',
    html: () => viewHtml,
    csp: { connectDomains: [hostOrigin, "evil.example 'unsafe-eval'"] },
    prefersBorder: false,
  });
  return server;
}

beforeAll(async () => {
  viewHtml = await appViewHtml('weather view');
  hostScript = bundle(`${RUNTIME_APPS}/apps-host-page.mjs`, 'browser');
  hostScript.catch(() => undefined);
  thirdSite = await serveNode((_req, res) => {
    thirdRequests++;
    res.writeHead(200, { 'access-control-allow-origin': '*' }).end('third');
  });
  sandboxSite = await serveNode((req, res) => {
    res.writeHead(200, sandboxProxyHeaders(new URL(req.url ?? '/', 'http://127.0.0.1'))).end(sandboxProxyHtml());
  });
  let hostOrigin = '';
  mcp = createMcpHandler(() => sdkServer(hostOrigin));
  hostSite = await serveFetch(async (request) => {
    const url = new URL(request.url);
    if (url.pathname === '/mcp') return mcp!.fetch(request);
    if (url.pathname === '/kit') return kitHandler!(request);
    if (url.pathname === '/declared')
      return new Response('declared', { headers: { 'access-control-allow-origin': '*' } });
    if (url.pathname === '/host.js')
      return new Response(await hostScript!, { headers: { 'content-type': 'text/javascript; charset=utf-8' } });
    return new Response(
      '<!doctype html><title>host</title><div id="apps"></div><script type="module" src="/host.js"></script>',
      {
        headers: { 'content-type': 'text/html; charset=utf-8' },
      },
    );
  });
  hostOrigin = hostSite.origin;
  kit = kitServer(hostOrigin);
  kitHandler = createFetchHandler(kit, { path: '/kit' });
  browser = await launchBrowser();
}, 60_000);

afterAll(async () => {
  releaseSlow();
  await browser?.close();
  await mcp?.close();
  await kitHandler?.close();
  await kit?.close();
  await hostSite?.stop();
  await sandboxSite?.stop();
  await thirdSite?.stop();
});

/** One step of the host page. */
function host(page: Page, name: string, ...args: unknown[]): Promise<any> {
  return page.evaluate(([name, args]) => (globalThis as any).hostPage[name](...args), [name, args] as const);
}

/** One step of the view (in its srcdoc frame inside the proxy frame). */
function view(frame: Frame, name: string, ...args: unknown[]): Promise<any> {
  return frame.evaluate(([name, args]) => (globalThis as any).viewSteps[name](...args), [name, args] as const);
}

const viewLog = (frame: Frame): Promise<any> =>
  frame.evaluate(() => JSON.parse(JSON.stringify((globalThis as any).viewLog)));

/** What the host page's `open` step answers. */
interface Opened {
  era: 'legacy' | 'modern';
  protocolVersion: string;
  server: string | undefined;
}

/**
 * Opens the host page on the server at `mcpPath` of the host site (`declareUi: false`: its
 * client connects as a text-only one; `era` pins the era).
 */
async function openHost(
  mcpPath: string,
  options: { declareUi?: boolean; era?: 'legacy' | 'modern' } = {},
): Promise<{ page: Page; opened: Opened }> {
  const page = await watchedPage(browser!, {
    beforeCheck: (page) => page.evaluate(() => (globalThis as any).hostPage?.close()).catch(() => undefined),
  });
  await page.goto(`${hostSite!.origin}/`);
  await page.waitForFunction(() => 'hostPage' in globalThis, undefined, { timeout: 15_000 });
  const opened: Opened = await host(
    page,
    'open',
    `${hostSite!.origin}${mcpPath}`,
    `${sandboxSite!.origin}/sandbox`,
    options,
  );
  return { page, opened };
}

/**
 * The two servers of the same view. The kit hides app-only tools from a client that did not
 * declare the ui extension (`hidesAppOnly`); the SDK server shows every tool to every client.
 */
const SERVERS = [
  { kind: 'an SDK 2.4 server', mcpPath: '/mcp', server: 'sdk-weather', hidesAppOnly: false, era: 'modern' },
  { kind: 'an SDK 2.4 server', mcpPath: '/mcp', server: 'sdk-weather', hidesAppOnly: false, era: 'legacy' },
  { kind: "mcpwire's kit", mcpPath: '/kit', server: 'kit-weather', hidesAppOnly: true, era: 'modern' },
  { kind: "mcpwire's kit", mcpPath: '/kit', server: 'kit-weather', hidesAppOnly: true, era: 'legacy' },
] as const;

describe.each(SERVERS)(
  'an ext-apps view in mcpwire/apps, served by $kind ($era era), in chromium',
  ({ mcpPath, server, hidesAppOnly, era }) => {
    it('runs the whole bridge: handshake first, input then result, server calls, CSP, hooks, teardown, audit', async () => {
      const { page, opened } = await openHost(mcpPath, { era });
      expect(opened.server).toBe(server);
      const rendered = await host(page, 'render', 'show_weather', { city: 'Oslo' });
      expect(rendered.sandbox).toBe('allow-scripts allow-same-origin allow-forms');
      const src = new URL(rendered.src);
      expect(src.origin).toBe(sandboxSite!.origin);
      // The declared entry with a quote and a space was dropped on the way.
      expect(JSON.parse(src.searchParams.get('csp')!)).toEqual({ connectDomains: [hostSite!.origin] });

      const frame = await eventually(
        () => page.frames().findLast((f) => f.url() === 'about:srcdoc' && !f.isDetached()),
        {
          what: "the view's srcdoc frame",
        },
      );
      await until(async () => (await viewLog(frame)).events.length >= 2, {
        what: 'the tool input and result to reach the view',
      });
      let log = await viewLog(frame);
      expect(log.error).toBeUndefined();
      expect(log.connected).toBe(true);
      // Nothing from the host before the view said initialized, but the answer to its ui/initialize.
      const initializeAt = log.sent.findIndex((m: any) => m.method === 'ui/initialize');
      const initializedAt = log.sent.findIndex((m: any) => m.method === 'ui/notifications/initialized');
      expect(initializeAt).toBe(0);
      expect(initializedAt).toBe(1);
      const early = log.received.filter((r: any) => r.sentBefore <= initializedAt);
      expect(early.map((r: any) => r.data.id)).toEqual([log.sent[initializeAt].id]);
      // The proxy's own messages never reach the view.
      expect(log.received.filter((r: any) => String(r.data.method).startsWith('ui/notifications/sandbox-'))).toEqual(
        [],
      );
      expect(early[0].data.result.hostInfo).toEqual({ name: 'apps-host-page', version: '1.0.0' });
      expect(log.events.slice(0, 2)).toMatchObject([
        { kind: 'tool-input', arguments: { city: 'Oslo' } },
        {
          kind: 'tool-result',
          result: {
            content: [{ type: 'text', text: 'sunny in Oslo' }],
            structuredContent: { city: 'Oslo', sky: 'sunny' },
          },
        },
      ]);
      expect(await host(page, 'result')).toMatchObject({
        content: [{ type: 'text', text: 'sunny in Oslo' }],
        structuredContent: { city: 'Oslo', sky: 'sunny' },
      });
      const hostView = await view(frame, 'host');
      expect(hostView.capabilities).toMatchObject({
        openLinks: {},
        serverTools: {},
        sandbox: { csp: { connectDomains: [hostSite!.origin] } },
      });
      expect(hostView.context).toMatchObject({
        theme: 'dark',
        displayMode: 'inline',
        toolInfo: { tool: { name: 'show_weather' } },
      });

      // Server calls: the app-only tool works; a model-only tool and an unknown one are refused.
      expect(await view(frame, 'callTool', 'refresh', {})).toMatchObject({
        ok: { content: [{ type: 'text', text: 'refreshed' }] },
      });
      expect((await view(frame, 'callTool', 'refresh', { decline: true })).error).toMatch(
        /declined the call of refresh/,
      );
      expect((await view(frame, 'callTool', 'model_only', {})).error).toMatch(/not callable by an app/);
      expect((await view(frame, 'callTool', 'no_such_tool', {})).error).toMatch(/not callable by an app/);
      // A message posted around the proxy (straight to the host page) is not heard at all.
      await view(frame, 'postToTop', 'around-the-proxy');
      const read = await view(frame, 'readResource', VIEW_URI);
      expect(read.ok.contents[0].mimeType).toBe('text/html;profile=mcp-app');

      // The policy: the declared origin answers, the third one is never reached.
      expect(await view(frame, 'fetch', `${hostSite!.origin}/declared`)).toBe('fetched 200');
      expect(await view(frame, 'fetch', `${thirdSite!.origin}/data`)).toMatch(/^failed: /);
      log = await eventually(
        async () => {
          const now = await viewLog(frame);
          return now.violations.some((v: any) => v.blockedURI.startsWith(thirdSite!.origin)) ? now : undefined;
        },
        { what: 'the securitypolicyviolation of the undeclared fetch' },
      );
      expect(log.violations.find((v: any) => v.blockedURI.startsWith(thirdSite!.origin)).directive).toBe('connect-src');
      expect(thirdRequests).toBe(0);

      // The hooks.
      expect(await view(frame, 'openLink', 'https://example.com/forecast')).toEqual({ ok: {} });
      expect((await view(frame, 'openLink', 'javascript:alert(1)')).error).toMatch(/not opened|absolute/);
      expect(await view(frame, 'message', 'what about tomorrow?')).toEqual({ ok: {} });
      expect(await view(frame, 'modelContext', { city: 'Oslo', shown: true })).toEqual({ ok: {} });
      expect(await view(frame, 'displayMode', 'fullscreen')).toEqual({ ok: { mode: 'fullscreen' } });
      expect(await view(frame, 'displayMode', 'pip')).toEqual({ ok: { mode: 'fullscreen' } });
      await view(frame, 'size', 320, 241.5);
      await view(frame, 'log', 'a line from the view');
      await until(async () => (await host(page, 'frameHeight')) === '242px', {
        what: 'the frame to take the size the view asked for',
      });
      const hooks = await eventually(
        async () => {
          const now = await host(page, 'log');
          return now.logs.length > 0 ? now : undefined;
        },
        { what: "the view's log line" },
      );
      // Asked only for app-callable tools of the server (never for a refused one).
      expect(hooks.approvals).toEqual(['refresh', 'refresh']);
      expect(hooks.links).toEqual(['https://example.com/forecast']);
      expect(hooks.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'what about tomorrow?' }] }]);
      expect(hooks.modelContexts).toEqual([{ structuredContent: { city: 'Oslo', shown: true } }]);
      expect(await host(page, 'modelContext')).toEqual({ structuredContent: { city: 'Oslo', shown: true } });
      expect(hooks.modes).toEqual(['fullscreen']);
      expect(hooks.sizes).toEqual([{ width: 320, height: 242 }]);
      expect(hooks.logs).toEqual([{ level: 'info', data: 'a line from the view' }]);

      // A context change reaches the live view.
      await host(page, 'setHostContext', { theme: 'light' });
      await until(
        async () =>
          (await viewLog(frame)).events.some((e: any) => e.kind === 'host-context-changed') ? true : undefined,
        { what: 'host-context-changed to reach the view' },
      );

      // The audit: the policy applied, then every message the view sent, with its verdict.
      const { audit } = await host(page, 'log');
      expect(audit[0]).toMatchObject({ kind: 'csp', tool: 'show_weather', resourceUri: VIEW_URI });
      expect(audit[0].policy).toBe(buildAppCsp({ connectDomains: [hostSite!.origin] }));
      const viewSent = (await viewLog(frame)).sent.map((m: any) => m.method).filter(Boolean);
      expect(audit.slice(1).map((e: any) => e.method)).toEqual(viewSent);
      const refusals = audit
        .slice(1)
        .filter((e: any) => e.outcome !== 'allowed')
        .map((e: any) => [e.method, e.params?.name ?? e.params?.url]);
      expect(refusals).toEqual([
        ['tools/call', 'refresh'],
        ['tools/call', 'model_only'],
        ['tools/call', 'no_such_tool'],
        ['ui/open-link', 'javascript:alert(1)'],
      ]);

      // Teardown: asked and answered, then the frame is gone.
      expect(await host(page, 'teardown')).toEqual({ attached: false });
      expect((await host(page, 'log')).logs.at(-1)).toEqual({ level: 'info', data: 'torn down' });
      expect(JSON.stringify((await host(page, 'log')).audit)).not.toContain('around-the-proxy');
      expect(thirdRequests).toBe(0);
    });

    it('hands the view an isError result for a failed call, and tool-cancelled for an aborted one', async () => {
      const { page } = await openHost(mcpPath, { era });
      await host(page, 'render', 'show_weather', { city: 5 });
      const failed = await host(page, 'result');
      expect(failed.isError).toBe(true);
      let frame = await eventually(() => page.frames().findLast((f) => f.url() === 'about:srcdoc' && !f.isDetached()), {
        what: 'the view frame',
      });
      await until(async () => (await viewLog(frame)).events.some((e: any) => e.kind === 'tool-result'));
      expect((await viewLog(frame)).events.map((e: any) => [e.kind, e.result?.isError])).toEqual([
        ['tool-input', undefined],
        ['tool-result', true],
      ]);
      await host(page, 'teardown');

      await host(page, 'renderAbortable', 'slow_weather', { city: 'Bergen' });
      frame = await eventually(() => page.frames().findLast((f) => f.url() === 'about:srcdoc' && !f.isDetached()), {
        what: 'the second view frame',
      });
      await until(async () => (await viewLog(frame)).events.some((e: any) => e.kind === 'tool-input'));
      await host(page, 'abort');
      await until(async () => (await viewLog(frame)).events.some((e: any) => e.kind === 'tool-cancelled'), {
        what: 'tool-cancelled to reach the view',
      });
      expect((await viewLog(frame)).events.map((e: any) => e.kind)).toEqual(['tool-input', 'tool-cancelled']);
      expect(await host(page, 'result')).toMatchObject({
        isError: true,
        content: [{ type: 'text', text: /^cancelled: / }],
      });
    });

    it(`lets the view call its app-only tool only when the server shows it to this client`, async () => {
      const { page, opened } = await openHost(mcpPath, { declareUi: false, era });
      expect(opened.server).toBe(server);
      await host(page, 'render', 'show_weather', { city: 'Tromsø' });
      const frame = await eventually(
        () => page.frames().findLast((f) => f.url() === 'about:srcdoc' && !f.isDetached()),
        {
          what: 'the view frame',
        },
      );
      await until(async () => (await viewLog(frame)).events.some((e: any) => e.kind === 'tool-result'), {
        what: 'the tool result to reach the view',
      });
      const refresh = await view(frame, 'callTool', 'refresh', {});
      if (hidesAppOnly) expect(refresh.error).toMatch(/not callable by an app/);
      else expect(refresh).toMatchObject({ ok: { content: [{ type: 'text', text: 'refreshed' }] } });
      expect(await host(page, 'teardown')).toEqual({ attached: false });
    });

    it('refuses a tool without a view', async () => {
      const { page } = await openHost(mcpPath, { era });
      expect(await host(page, 'renderFails', 'model_only')).toMatch(
        /^INVALID_ARGUMENT: tool model_only has no ui:\/\/ resource/,
      );
      expect(await host(page, 'renderFails', 'nope')).toMatch(/^INVALID_ARGUMENT: server .* has no tool nope/);
    });
  },
);

describe('the sandbox proxy page and the policy builder', () => {
  it('builds the strict default, and only declared, sanitized domains', () => {
    expect(buildAppCsp(undefined)).toBe(DEFAULT_APP_CSP);
    expect(DEFAULT_APP_CSP).not.toMatch(/unsafe-eval|blob:|\*/);
    const policy = buildAppCsp({
      connectDomains: ['https://api.example.com', 'https://x.example;script-src *', 'a b', "'unsafe-eval'", 'x\ny'],
      resourceDomains: ['https://cdn.example.com'],
    });
    expect(policy).toContain('connect-src https://api.example.com;');
    expect(policy).toContain("script-src 'self' 'unsafe-inline' https://cdn.example.com;");
    expect(policy).toContain("frame-src 'none'");
    expect(policy).not.toMatch(/unsafe-eval|x\.example|\ba b\b/);
    const headers = sandboxProxyHeaders(
      'http://127.0.0.1/sandbox?csp=' + encodeURIComponent('{"connectDomains":["https://a.example"]}'),
    );
    expect(headers['content-security-policy']).toContain('connect-src https://a.example;');
    expect(headers['cache-control']).toBe('no-store');
    expect(sandboxProxyHeaders('http://127.0.0.1/sandbox?csp=not-json')['content-security-policy']).toBe(
      DEFAULT_APP_CSP,
    );
    expect(sandboxProxyHtml({ hostOrigin: 'http://127.0.0.1:1234/page' })).toContain('"http://127.0.0.1:1234"');
  });
});
