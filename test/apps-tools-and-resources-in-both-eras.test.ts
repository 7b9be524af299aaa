/**
 * MCP Apps on the kit (SEP-1865), in both eras, over stdio and over a real HTTP listener, with a
 * kit server in its own process (`support/kit-apps-server.mjs`): an app tool carries its view in
 * both `_meta` spellings, an empty `content` comes back as the JSON text of `structuredContent`,
 * the view is a `ui://` resource of `text/html;profile=mcp-app` whose read carries `_meta.ui`
 * (CSP, permissions, border), an unlisted view is readable; an app-only tool is shown to and
 * callable by a client that declared the ui extension, hidden from and refused (-32602) to one
 * that did not, unless the server says otherwise; disposers withdraw tools and views with
 * `list_changed`. The official SDK 2.4 client and ext-apps' own helpers read the same wire.
 */
import { Client as SdkClient, StreamableHTTPClientTransport as SdkHttp } from '@modelcontextprotocol/client';
import { getToolUiResourceUri, isToolVisibilityAppOnly } from '@modelcontextprotocol/ext-apps/app-bridge';
import { EXTENSION_ID, getUiCapability, RESOURCE_MIME_TYPE } from '@modelcontextprotocol/ext-apps/server';
import { describe, expect, it, onTestFinished } from 'vitest';
import { fileURLToPath } from 'node:url';
import { McpClient } from '../src/client/mcp-client.js';
import type { ClientOptions } from '../src/client/options.js';
import { McpError } from '../src/protocol/errors.js';
import { isModelVisible, toolUiMeta, UI_MIME_TYPE } from '../src/protocol/extensions/apps-types.js';
import { EXTENSION_IDS } from '../src/protocol/extensions/ids.js';
import type { Tool } from '../src/protocol/types.js';
import { McpServer } from '../src/server/index.js';
import { appsKitOverHttp } from './support/http-servers.js';
import { startKitHttp } from './support/kit-http.js';
import { exchange, modernRequest, sseEvents, type Exchange } from './support/kit-wire.js';
import { connectKitClient } from './support/kit-memory.js';

const KIT_APPS_SERVER = fileURLToPath(new URL('./support/kit-apps-server.mjs', import.meta.url));
const VIEW = 'ui://weather/view.html';
const UNLISTED = 'ui://weather/unlisted.html';
const UI_DECLARED = { mimeTypes: [UI_MIME_TYPE] };
const WITH_UI: ClientOptions = { extensions: { [EXTENSION_IDS.ui]: UI_DECLARED } };

type Route = 'stdio' | 'http';

/** A client of a fresh kit-apps-server process (`args` for the server). */
async function connect(route: Route, options: ClientOptions, args: string[] = []): Promise<McpClient> {
  let client: McpClient;
  if (route === 'stdio') {
    client = await McpClient.connect({ command: process.execPath, args: [KIT_APPS_SERVER, ...args] }, options);
  } else {
    const kit = await appsKitOverHttp(args);
    onTestFinished(() => kit.stop());
    client = await McpClient.connect({ url: kit.url }, options);
  }
  onTestFinished(() => client.close());
  return client;
}

function named(tools: Tool[], name: string): Tool {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`no tool "${name}" in ${tools.map((t) => t.name).join(', ')}`);
  return tool;
}

/** The JSON-RPC code a rejected call carried. */
async function rpcCodeOf(call: Promise<unknown>): Promise<number | undefined> {
  const error = await call.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(McpError);
  return (error as McpError).rpcCode;
}

/** Resolves when `client` hears `event`, or fails after 10 s. */
function heard(client: McpClient, event: 'toolsChanged' | 'resourcesChanged'): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no ${event} within 10 s`)), 10_000);
    const off = client.on(event, () => {
      clearTimeout(timer);
      off();
      resolve();
    });
  });
}

for (const route of ['stdio', 'http'] as const) {
  for (const era of ['legacy', 'modern'] as const) {
    describe(`${era} era over ${route}`, () => {
      it('a client with apps sees app tools in both _meta spellings, the fallback text and the views', async () => {
        const client = await connect(route, { ...WITH_UI, era });
        expect(client.era).toBe(era);
        expect(client.serverExtensions[EXTENSION_IDS.ui]).toEqual(UI_DECLARED);

        const tools = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(['refresh', 'weather', 'withdraw']);
        const weather = named(tools, 'weather');
        expect(weather._meta).toEqual({ ui: { resourceUri: VIEW }, 'ui/resourceUri': VIEW });
        const refresh = named(tools, 'refresh');
        expect(refresh._meta).toEqual({ ui: { resourceUri: VIEW, visibility: ['app'] }, 'ui/resourceUri': VIEW });
        expect(isModelVisible(refresh)).toBe(false);
        expect(toolUiMeta({ _meta: { 'ui/resourceUri': VIEW } })).toEqual({ resourceUri: VIEW });
        // The host side of ext-apps reads the same tools.
        expect(getToolUiResourceUri({ _meta: weather._meta })).toBe(VIEW);
        expect(isToolVisibilityAppOnly({ _meta: refresh._meta })).toBe(true);
        expect(isToolVisibilityAppOnly({ _meta: weather._meta })).toBe(false);

        const result = await client.callTool('weather', { city: 'Oslo' });
        const structured = { city: 'Oslo', tempC: 21, ui: UI_DECLARED };
        expect(result.structuredContent).toEqual(structured);
        expect(result.content).toEqual([{ type: 'text', text: JSON.stringify(structured) }]);
        expect(await client.callTool('refresh', { region: 'eu' })).toMatchObject({
          content: [{ type: 'text', text: 'refreshed' }],
        });

        const resources = await client.listResources();
        expect(resources).toEqual([
          { uri: VIEW, name: 'Weather view', description: 'The weather view', mimeType: UI_MIME_TYPE },
        ]);
        const read = await client.readResource(VIEW);
        expect(read.contents).toEqual([
          {
            uri: VIEW,
            mimeType: RESOURCE_MIME_TYPE,
            text: '<!doctype html><html><body><h1>Weather</h1></body></html>',
            _meta: {
              ui: {
                csp: { connectDomains: ['https://api.example.com'], resourceDomains: ['https://cdn.example.com'] },
                permissions: { clipboardWrite: {} },
                prefersBorder: true,
              },
            },
          },
        ]);
        const unlisted = await client.readResource(UNLISTED);
        expect(unlisted.contents).toEqual([
          { uri: UNLISTED, mimeType: UI_MIME_TYPE, text: '<!doctype html><p>unlisted</p>' },
        ]);
      });

      it('a client without apps is not shown app-only tools and cannot call them', async () => {
        const client = await connect(route, { era });
        const tools = await client.listTools();
        expect(tools.map((t) => t.name).sort()).toEqual(['weather', 'withdraw']);
        expect(await rpcCodeOf(client.callTool('refresh', {}))).toBe(-32602);
        // Unknown before its headers are checked too (2026 HTTP: no -32020 for the Mcp-Param-Region it never sent).
        expect(await rpcCodeOf(client.callTool('refresh', { region: 'eu' }))).toBe(-32602);
        // Its handler sees no ui declaration; the text is what this client shows.
        const result = await client.callTool('weather', { city: 'Lima' });
        expect(result.content).toEqual([{ type: 'text', text: '{"city":"Lima","tempC":21,"ui":null}' }]);
        // A ui declaration without the mcp-app profile is no apps support either.
        const other = await connect(route, { era, extensions: { [EXTENSION_IDS.ui]: { mimeTypes: ['text/html'] } } });
        expect((await other.listTools()).map((t) => t.name)).not.toContain('refresh');
      });

      it('apps.hideAppOnlyFromTextClients: false shows app-only tools to every client', async () => {
        const client = await connect(route, { era }, ['--show-app-only']);
        expect((await client.listTools()).map((t) => t.name).sort()).toEqual(['refresh', 'weather', 'withdraw']);
        expect(await client.callTool('refresh', {})).toMatchObject({ content: [{ type: 'text', text: 'refreshed' }] });
      });

      it('the disposers withdraw the app tools and the view, with list_changed', async () => {
        const client = await connect(route, { ...WITH_UI, era });
        await client.listTools();
        await client.listResources();
        const toolsChanged = heard(client, 'toolsChanged');
        const resourcesChanged = heard(client, 'resourcesChanged');
        await client.callTool('withdraw', {});
        await Promise.all([toolsChanged, resourcesChanged]);
        expect((await client.listTools()).map((t) => t.name)).toEqual(['withdraw']);
        expect(await client.listResources()).toEqual([]);
        expect(await rpcCodeOf(client.callTool('weather', { city: 'Oslo' }))).toBe(-32602);
        // The unlisted view is still offered, so the extension stays advertised.
        expect((await client.readResource(UNLISTED)).contents).toHaveLength(1);
      });
    });
  }
}

describe('the official SDK 2.4 client and ext-apps helpers', () => {
  it('see app-only tools when the SDK client declares ui, not when it does not', async () => {
    expect(RESOURCE_MIME_TYPE).toBe(UI_MIME_TYPE);
    expect(EXTENSION_ID).toBe(EXTENSION_IDS.ui);
    const kit = await appsKitOverHttp();
    onTestFinished(() => kit.stop());
    const names: Record<string, string[]> = {};
    for (const declares of [true, false]) {
      const client = new SdkClient(
        { name: 'sdk-v2', version: '2.4.0' },
        declares ? { capabilities: { extensions: { [EXTENSION_ID]: { mimeTypes: [RESOURCE_MIME_TYPE] } } } } : {},
      );
      await client.connect(new SdkHttp(new URL(kit.url)));
      onTestFinished(() => client.close());
      // ext-apps reads the kit's advertisement as it reads any capability object.
      expect(getUiCapability(client.getServerCapabilities() as never)).toEqual({ mimeTypes: [RESOURCE_MIME_TYPE] });
      const { tools } = await client.listTools();
      names[String(declares)] = tools.map((t) => t.name).sort();
      if (declares) {
        const weather = tools.find((t) => t.name === 'weather')!;
        expect(getToolUiResourceUri(weather)).toBe(VIEW);
        const read = await client.readResource({ uri: VIEW });
        expect(read.contents[0]).toMatchObject({
          mimeType: RESOURCE_MIME_TYPE,
          _meta: { ui: { prefersBorder: true } },
        });
        const result = await client.callTool({ name: 'weather', arguments: { city: 'Rome' } });
        expect(result.content).toEqual([
          { type: 'text', text: JSON.stringify({ city: 'Rome', tempC: 21, ui: { mimeTypes: [RESOURCE_MIME_TYPE] } }) },
        ]);
      } else {
        await expect(client.callTool({ name: 'refresh', arguments: {} })).rejects.toMatchObject({ code: -32602 });
      }
    }
    expect(names).toEqual({ true: ['refresh', 'weather', 'withdraw'], false: ['weather', 'withdraw'] });
  });
});

describe('registration rules and the in-process server', () => {
  it('refuses a view or a tool whose URI is not ui://, and advertises ui only while an app is offered', async () => {
    const server = new McpServer({ name: 'apps-unit', version: '1.0.0', logger: () => undefined });
    onTestFinished(() => server.close());
    expect(() =>
      server.registerAppResource({ uri: 'https://x/view.html' as `ui://${string}`, name: 'v', html: '' }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() =>
      server.registerAppTool({
        name: 't',
        inputSchema: { type: 'object' },
        ui: { resourceUri: 'file:///v' as `ui://${string}` },
        handler: () => ({}),
      }),
    ).toThrow(expect.objectContaining({ code: 'INVALID_ARGUMENT' }));
    expect(() => new McpServer({ name: 'a', version: '1', apps: { hide: true } as never })).toThrow(
      expect.objectContaining({ code: 'INVALID_ARGUMENT' }),
    );

    const kit = await startKitHttp(server);
    const before = await McpClient.connect({ url: kit.url }, { era: 'modern' });
    onTestFinished(() => before.close());
    expect(before.serverExtensions[EXTENSION_IDS.ui]).toBeUndefined();
    const off = server.registerAppResource({ uri: 'ui://a/v.html', name: 'v', html: () => '<p>v</p>' });
    const during = await connectKitClient(server, { era: 'legacy' });
    expect(during.serverExtensions[EXTENSION_IDS.ui]).toEqual(UI_DECLARED);
    off();
    off(); // idempotent
    const after = await connectKitClient(server, { era: 'legacy' });
    expect(after.serverExtensions[EXTENSION_IDS.ui]).toBeUndefined();
  });

  it('callTool in process runs an app-only tool with no ui declaration', async () => {
    const server = new McpServer({ name: 'apps-unit', version: '1.0.0', logger: () => undefined });
    onTestFinished(() => server.close());
    server.registerAppTool({
      name: 'app_only',
      inputSchema: { type: 'object' },
      ui: { resourceUri: 'ui://a/v.html', visibility: ['app'] },
      handler: (_args, context) => ({ content: [], structuredContent: { ui: context.ui ?? null } }),
    });
    expect(await server.callTool('app_only')).toEqual({
      content: [{ type: 'text', text: '{"ui":null}' }],
      structuredContent: { ui: null },
    });
  });
});

/** A kit whose app-only `refresh` needs `weather:refresh`, behind a gate whose tokens have no scopes. */
async function scopedAppsKit(options: { sessions?: boolean } = {}): Promise<string> {
  const server = new McpServer({ name: 'scoped-apps', version: '1.0.0', logger: () => undefined });
  server.registerAppResource({ uri: VIEW, name: 'Weather view', html: '<!doctype html><p>view</p>' });
  server.registerAppTool({
    name: 'refresh',
    inputSchema: { type: 'object' },
    requiredScopes: ['weather:refresh'],
    ui: { resourceUri: VIEW, visibility: ['app'] },
    handler: () => ({ content: [{ type: 'text', text: 'refreshed' }] }),
  });
  const kit = await startKitHttp(server, {
    ...options,
    auth: {
      resource: 'http://127.0.0.1/mcp',
      authorizationServers: ['https://as.example'],
      verifyToken: async () => ({ scopes: [] }),
    },
  });
  return kit.url;
}

const BEARER = { authorization: 'Bearer a-token-without-scopes' };
const WITH_UI_CAPABILITIES = { extensions: { [EXTENSION_IDS.ui]: UI_DECLARED } };

/** A legacy session opened with `capabilities` (raw HTTP), then its `tools/call` of `refresh`. */
async function legacyRefresh(url: string, capabilities: Record<string, unknown>): Promise<Exchange> {
  const headers = { ...BEARER, 'mcp-protocol-version': '2025-11-25' };
  const opened = await exchange(url, {
    headers: BEARER,
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities, clientInfo: { name: 'raw', version: '1.0.0' } },
    },
  });
  expect(opened.status).toBe(200);
  const session = { ...headers, 'mcp-session-id': String(opened.headers['mcp-session-id']) };
  const initialized = await exchange(url, {
    headers: session,
    body: { jsonrpc: '2.0', method: 'notifications/initialized' },
  });
  expect(initialized.status).toBe(202);
  return exchange(url, {
    headers: session,
    body: { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'refresh', arguments: {} } },
  });
}

/** The JSON-RPC error of a JSON or SSE answer. */
function rpcError(answer: Exchange): unknown {
  if (answer.json) return answer.json.error;
  const last = sseEvents(answer.text).at(-1);
  return last ? JSON.parse(last.data).error : undefined;
}

describe('an app-only tool that needs a scope, on a protected endpoint', () => {
  it('2026: is -32602 to a text client whose token lacks the scope, 403 to a client that declared ui', async () => {
    const url = await scopedAppsKit();
    const call = (capabilities: Record<string, unknown>) =>
      modernRequest(url, 'tools/call', { name: 'refresh', arguments: {} }, { capabilities, headers: BEARER });
    // Hidden from a text client: unknown to it, so no 403 tells that it exists.
    const text = await call({});
    expect(text.status).not.toBe(403);
    expect(rpcError(text)).toMatchObject({ code: -32602, message: 'Unknown tool: refresh' });
    // Shown to a client with apps: its scope is checked before it runs.
    const app = await call(WITH_UI_CAPABILITIES);
    expect(app.status).toBe(403);
    expect(app.headers['www-authenticate']).toMatch(/error="insufficient_scope"/);
    expect(app.headers['www-authenticate']).toMatch(/scope="weather:refresh"/);
  });

  it("legacy: the same, by the session's capabilities; stateless legacy hides it from every client", async () => {
    const url = await scopedAppsKit();
    const text = await legacyRefresh(url, {});
    expect(text.status).not.toBe(403);
    expect(rpcError(text)).toMatchObject({ code: -32602, message: 'Unknown tool: refresh' });
    const app = await legacyRefresh(url, WITH_UI_CAPABILITIES);
    expect(app.status).toBe(403);
    expect(app.headers['www-authenticate']).toMatch(/scope="weather:refresh"/);
    const stateless = await exchange(await scopedAppsKit({ sessions: false }), {
      headers: { ...BEARER, 'mcp-protocol-version': '2025-11-25' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'refresh', arguments: {} } },
    });
    expect(stateless.status).not.toBe(403);
    expect(rpcError(stateless)).toMatchObject({ code: -32602, message: 'Unknown tool: refresh' });
  });
});
