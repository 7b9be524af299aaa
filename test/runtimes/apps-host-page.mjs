/* global document */
// The host page of test/apps-host-renders-an-ext-apps-view-in-chromium.test.ts: mcpwire's
// McpClient and AppHost, bundled from src/ with esbuild for the browser. The client declares the
// ui extension, as a host of apps does (a server that hides app-only tools from text clients,
// as mcpwire's kit does, shows them to it). It sets
// `globalThis.hostPage`, the steps the test drives (each answer plain JSON), and records what
// the host's hooks heard in `hostLog`.
import { AppHost } from '../../src/apps/index.ts';
import { McpClient } from '../../src/neutral.ts';

const hostLog = {
  approvals: [],
  audit: [],
  links: [],
  messages: [],
  modelContexts: [],
  sizes: [],
  modes: [],
  logs: [],
};
let client;
let host;
let view;
let controller;

globalThis.hostPage = {
  /** `declareUi: false` connects as a text-only client would; `era` pins the era. */
  async open(mcpUrl, sandboxUrl, { declareUi = true, era } = {}) {
    client = await McpClient.connect(
      { url: mcpUrl },
      {
        name: 'apps-host-page',
        ...(era ? { era } : {}),
        ...(declareUi
          ? { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } }
          : {}),
      },
    );
    host = new AppHost({
      client,
      container: document.getElementById('apps'),
      sandboxUrl,
      hostInfo: { name: 'apps-host-page', version: '1.0.0' },
      hostContext: { theme: 'dark', availableDisplayModes: ['inline', 'fullscreen'] },
      onOpenLink: (url) => (hostLog.links.push(url), true),
      onMessage: (message) => void hostLog.messages.push(message),
      onModelContext: (context) => hostLog.modelContexts.push(context),
      onDisplayMode: (mode) => (hostLog.modes.push(mode), mode),
      onSizeChanged: (size) => hostLog.sizes.push(size),
      onLog: (params) => hostLog.logs.push(params),
      // The user declines a call whose arguments say so.
      approveToolCall: async (name, args) => (hostLog.approvals.push(name), args.decline !== true),
      audit: (event) => hostLog.audit.push(event),
      timeoutMs: 15_000,
    });
    return { era: client.era, protocolVersion: client.protocolVersion, server: client.serverInfo?.name };
  },
  async render(tool, args) {
    view = await host.render({ tool, arguments: args });
    return { src: view.frame.src, sandbox: view.frame.getAttribute('sandbox') };
  },
  /** Renders with a signal the `abort` step aborts. */
  async renderAbortable(tool, args) {
    controller = new AbortController();
    view = await host.render({ tool, arguments: args, signal: controller.signal });
    return { src: view.frame.src };
  },
  abort: () => controller.abort(),
  async renderFails(tool) {
    return host.render({ tool }).then(
      () => 'rendered',
      (error) => `${error.code}: ${error.message}`,
    );
  },
  result: () => view.result,
  frameHeight: () => view.frame.style.height,
  modelContext: () => view.modelContext ?? null,
  setHostContext: (patch) => host.setHostContext(patch),
  async teardown() {
    await view.teardown('the test is done');
    return { attached: view.frame.isConnected };
  },
  log: () => JSON.parse(JSON.stringify(hostLog)),
  async close() {
    await host?.close();
    await client?.close();
  },
};
